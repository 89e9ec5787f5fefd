"""`tosa-infer-shapes`: propagate static shapes through TOSA graphs.

    tosa-opt -p 'tosa-infer-shapes'
    tosa-opt -p 'tosa-infer-shapes{convert-function-boundaries=true}'

Every TOSA operator's result shape is computed from its operands' shapes with the spec's
shape rules (elementwise broadcast, the CONV/POOL/RESIZE output formulas, the shape operands
of RESHAPE/SLICE/TILE/PAD held in `tosa.const_shape`, reductions, GATHER/SCATTER, MATMUL,
FFT ...) and *merged* into the declared result type: dynamic dims (`tensor<?x3xf32>`) and
unranked tensors (`tensor<*xf32>`) become static where the rule knows the size; element
types are never changed. A declared static size that disagrees with the inferred one is a
located error (`'tosa.add' op inferred shape [2, 3] is incompatible with result type ...`).

Regions: the arguments of COND_IF's branches get the refined input types; its results
are the merge of both branches' yields (the spec requires equal shapes). WHILE_LOOP is
iterated to a fixed point: the loop-carried types are the merge of the inputs and the
body's yields, re-propagated through cond/body until stable.

Boundaries: an SSA value is never given a type its users cannot accept. Values used by a
non-TOSA op (func.call, func.return, ops of other dialects) keep their declared type; the
producing TOSA op's result is only refined when nothing outside TOSA sees it (upstream
inserts `tensor.cast` there instead; keeping the declared type is equivalent and keeps the
module runnable by tosa-run). With `convert-function-boundaries=true` the values returned
by a function are refined too and the function's result types are updated (only for
functions no `func.call` in the module calls, so call sites stay valid). Function
arguments are never changed.

`fold-shape-expressions` is accepted for compatibility with upstream: TOSA 1.0.1 has no
shape-expression operators besides CONST_SHAPE, so there is nothing to fold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    ModuleOp,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa import shapes as rules
from tosa_xdsl.dialects.tosa.ops.base import TosaOp
from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp, WhileLoopOp, YieldOp
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.dialects.tosa.shapes import ShapeConflict, fmt, merge
from tosa_xdsl.ir.access import Shape, shape_of
from tosa_xdsl.verification.constants import const_shape_values

_merge_all = rules.merge_all


def with_shape(t: Attribute, shape: Shape) -> Attribute:
    """Type `t` (ranked or unranked tensor) with `shape`, same element type."""
    if not isinstance(t, (TensorType, UnrankedTensorType)):
        return t
    if shape is None:
        return t if isinstance(t, UnrankedTensorType) else UnrankedTensorType(t.element_type)
    return TensorType(t.element_type, [d if d >= 0 else DYNAMIC_INDEX for d in shape])


# ------------------------------------------------------------------------ the analysis


class _Failed(Exception):
    pass


class _Inference:
    def __init__(self, module: ModuleOp, convert_function_boundaries: bool):
        self.types: dict[SSAValue, Attribute] = {}
        self.errors = 0
        self.convert_boundaries = convert_function_boundaries
        self.called: set[str] = {
            c.callee.root_reference.data for c in module.walk() if isinstance(c, func.CallOp)
        }
        self.current_func: func.FuncOp | None = None

    # -- helpers

    def type_of(self, v: SSAValue) -> Attribute:
        return self.types.get(v, v.type)

    def shape(self, v: SSAValue) -> Shape:
        return shape_of(self.type_of(v))

    def error(self, op: Operation, message: str) -> None:
        from tosa_xdsl.diagnostics import emit_error

        self.errors += 1
        emit_error(op, message)

    def pinned(self, v: SSAValue) -> bool:
        """Values whose type this pass must not change."""
        if isinstance(v, BlockArgument):
            return True
        owner = v.owner
        if not isinstance(owner, TosaOp) or isinstance(owner, (ConstOp, ConstShapeOp)):
            return True
        for use in v.uses:
            user = use.operation
            if isinstance(user, TosaOp):
                continue
            if (isinstance(user, func.ReturnOp) and self.convert_boundaries
                    and self.current_func is not None
                    and self.current_func.sym_name.data not in self.called):
                continue
            return True
        return False

    def set(self, v: SSAValue, t: Attribute) -> None:
        self.types[v] = t

    # -- walking

    def run_block(self, block: Block) -> None:
        for op in block.ops:
            self.run_op(op)

    def run_op(self, op: Operation) -> None:
        if isinstance(op, CondIfOp):
            self.run_cond_if(op)
        elif isinstance(op, WhileLoopOp):
            self.run_while(op)
        elif isinstance(op, TosaOp) and not isinstance(op, (ConstOp, ConstShapeOp, YieldOp)):
            self.run_tosa(op)

    def run_tosa(self, op: TosaOp) -> None:
        try:
            shapes = rules.result_shapes(op, self.shape, const_shape_values)
        except ShapeConflict as err:
            self.error(op, f"'{op.name}' op operand shapes are inconsistent: {err}")
            return
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return  # malformed properties: the verifier reports them
        if shapes is None:
            return
        for result, inferred in zip(op.results, shapes):
            if inferred is None or not isinstance(result.type, (TensorType, UnrankedTensorType)):
                continue
            declared = shape_of(result.type)
            try:
                refined = merge(declared, inferred)
            except ShapeConflict:
                self.error(op, f"'{op.name}' op inferred shape {fmt(inferred)} is incompatible "
                               f"with result type {result.type}")
                continue
            if not self.pinned(result):  # (also resets a loop iteration's earlier guess)
                self.set(result, with_shape(result.type, refined))

    def _group_type(self, op: Operation, members: Sequence[SSAValue], what: str) -> Attribute | None:
        """The one type `members` (which must all have equal types) get; None on error."""
        shapes = [self.shape(m) for m in members]
        try:
            g = _merge_all(*shapes)
        except ShapeConflict as err:
            self.error(op, f"'{op.name}' op {what} have inconsistent shapes "
                           f"({', '.join(fmt(x) for x in shapes)}): {err}")
            return None
        pinned = {shape_of(self.type_of(m)) for m in members if self.pinned(m)}
        if len(pinned) > 1:
            self.error(op, f"'{op.name}' op {what} have shapes "
                           f"{', '.join(sorted(fmt(x) for x in pinned))} that cannot be made "
                           f"equal without a cast")
            return None
        if pinned:
            g = next(iter(pinned))
        return with_shape(members[0].type, g)

    def run_cond_if(self, op: CondIfOp) -> None:
        regions = (op.then_graph, op.else_graph)
        for region in regions:
            if not region.blocks:
                return
            for arg, operand in zip(region.blocks[0].args, op.input_list):
                self.set(arg, self.type_of(operand))
            self.run_block(region.blocks[0])
        yields = [region.blocks[-1].last_op for region in regions]
        if not all(isinstance(y, YieldOp) for y in yields):
            return
        for j, result in enumerate(op.output_list):
            members = [result] + [y.inputs[j] for y in yields if j < len(y.inputs)]  # type: ignore[union-attr]
            g = self._group_type(op, members, f"result #{j} and the values both branches yield")
            if g is None:
                continue
            for m in members:
                if not self.pinned(m):
                    self.set(m, g)

    def run_while(self, op: WhileLoopOp) -> None:
        cond, body = op.cond_graph, op.body_graph
        if not cond.blocks or not body.blocks:
            return
        carried = [self.type_of(v) for v in op.input_list]
        for _ in range(8):
            for region in (cond, body):
                for arg, t in zip(region.blocks[0].args, carried):
                    self.set(arg, t)
                self.run_block(region.blocks[0])
            y = body.blocks[-1].last_op
            if not isinstance(y, YieldOp) or len(y.inputs) != len(carried):
                return
            new = []
            for i, operand in enumerate(op.input_list):
                members = [operand, op.output_list[i], y.inputs[i]]
                # the body's block argument carries this iteration's type
                shapes = [self.shape(m) for m in members]
                try:
                    g = _merge_all(*shapes, shape_of(carried[i]))
                except ShapeConflict as err:
                    self.error(op, f"'{op.name}' op loop-carried value #{i} changes shape "
                                   f"({', '.join(fmt(x) for x in shapes)}): {err}")
                    return
                pinned = {shape_of(self.type_of(m)) for m in members if self.pinned(m)}
                if isinstance(y.inputs[i], BlockArgument) and y.inputs[i].owner is body.blocks[0]:
                    # the body's own argument follows the carried type
                    pinned = {shape_of(self.type_of(m)) for m in members[:2] if self.pinned(m)}
                if len(pinned) > 1:
                    self.error(op, f"'{op.name}' op loop-carried value #{i} has shapes "
                                   f"{', '.join(sorted(fmt(x) for x in pinned))} that cannot be "
                                   f"made equal without a cast")
                    return
                if pinned:
                    g = next(iter(pinned))
                new.append(with_shape(carried[i], g))
            if new == carried:
                break
            carried = new
        y = body.blocks[-1].last_op
        assert isinstance(y, YieldOp)
        for i, t in enumerate(carried):
            for m in (op.input_list[i], op.output_list[i], y.inputs[i]):
                if not self.pinned(m):
                    self.set(m, t)

    def run_function(self, fn: func.FuncOp) -> None:
        self.current_func = fn
        if fn.body.blocks:
            for block in fn.body.blocks:
                self.run_block(block)
        self.current_func = None


# ------------------------------------------------------------------------ the pass


def infer_shapes(module: ModuleOp, *, convert_function_boundaries: bool = False) -> int:
    """Refine the types of `module` in place; the number of values refined. Inconsistent
    shapes are located errors (emitted; a VerifyException is raised afterwards when no
    diagnostic engine is active) and then nothing is changed."""
    from xdsl.utils.exceptions import VerifyException

    from tosa_xdsl.diagnostics import active_engine

    inference = _Inference(module, convert_function_boundaries)
    functions = [f for f in module.walk() if isinstance(f, func.FuncOp)]
    for fn in functions:
        inference.run_function(fn)
    if inference.errors:
        if active_engine() is None:
            raise VerifyException(f"tosa-infer-shapes: {inference.errors} inconsistent shape(s)")
        return 0
    changed = 0
    for value, t in list(inference.types.items()):
        if t != value.type:
            Rewriter.replace_value_with_new_type(value, t)
            changed += 1
    if convert_function_boundaries:
        for fn in functions:
            if fn.sym_name.data in inference.called or not fn.body.blocks:
                continue
            ret = fn.body.blocks[-1].last_op
            if not isinstance(ret, func.ReturnOp):
                continue
            outputs = list(ret.arguments.types)
            if outputs != list(fn.function_type.outputs.data):
                fn.properties["function_type"] = FunctionType.from_lists(
                    list(fn.function_type.inputs.data), outputs)
    from tosa_xdsl.passes.static_reshape import resolve_inferred_reshape_dims

    resolve_inferred_reshape_dims(module)
    return changed


@dataclass(frozen=True)
class TosaInferShapesPass(ModulePass):
    name: ClassVar[str] = "tosa-infer-shapes"

    fold_shape_expressions: bool = False
    convert_function_boundaries: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        infer_shapes(op, convert_function_boundaries=self.convert_function_boundaries)
