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

from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops import activation as act
from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.dialects.tosa.ops import tensor as tn
from tosa_xdsl.dialects.tosa.ops.base import (
    BinaryElementwiseOp,
    ComparisonOp,
    ReductionOp,
    TosaOp,
    UnaryElementwiseOp,
)
from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp, WhileLoopOp, YieldOp
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp, IdentityOp
from tosa_xdsl.dialects.tosa.ops.elementwise_binary import MulOp, TableOp
from tosa_xdsl.dialects.tosa.ops.elementwise_ternary import SelectOp
from tosa_xdsl.dialects.tosa.ops.elementwise_unary import NegateOp
from tosa_xdsl.dialects.tosa.ops.image import ResizeOp
from tosa_xdsl.dialects.tosa.ops.scatter_gather import GatherOp, ScatterOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.dialects.tosa.ops.type_conversion import CastOp, RescaleOp
from tosa_xdsl.ir.access import DYNAMIC, Shape, prop, shape_of

# A shape as tosa_xdsl.ir.access has it: DYNAMIC (-1) for a dynamic dim, None for an
# unranked tensor / unknown.
DYN = DYNAMIC


class ShapeConflict(Exception):
    """Two shapes that cannot describe the same tensor."""


# ------------------------------------------------------------------------ shape algebra


def with_shape(t: Attribute, shape: Shape) -> Attribute:
    """Type `t` (ranked or unranked tensor) with `shape`, same element type."""
    if not isinstance(t, (TensorType, UnrankedTensorType)):
        return t
    if shape is None:
        return t if isinstance(t, UnrankedTensorType) else UnrankedTensorType(t.element_type)
    return TensorType(t.element_type, [d if d >= 0 else DYNAMIC_INDEX for d in shape])


def merge(a: Shape, b: Shape) -> Shape:
    """The most specific shape compatible with both (meet); ShapeConflict if none."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise ShapeConflict(f"rank {len(a)} vs rank {len(b)}")
    out = []
    for x, y in zip(a, b):
        if x == DYN:
            out.append(y)
        elif y == DYN or x == y:
            out.append(x)
        else:
            raise ShapeConflict(f"dimension {x} vs {y}")
    return tuple(out)


def refines(a: Shape, b: Shape) -> bool:
    """`a` is at least as specific as `b` and compatible with it."""
    try:
        return merge(a, b) == a
    except ShapeConflict:
        return False


def fmt(shape: Shape) -> str:
    if shape is None:
        return "*"
    return "x".join("?" if d == DYN else str(d) for d in shape) or "scalar"


def broadcast(shapes: Sequence[Shape]) -> Shape:
    """numpy-style broadcast (TOSA requires equal ranks; upstream also infers across ranks)."""
    if any(s is None for s in shapes):
        return None
    rank = max(len(s) for s in shapes)  # type: ignore[arg-type]
    out = [1] * rank
    for s in shapes:
        assert s is not None
        padded = (1,) * (rank - len(s)) + s
        for i, d in enumerate(padded):
            o = out[i]
            if d == 1:
                continue
            if o == 1:
                out[i] = d
            elif d == DYN:
                continue  # o is DYN or static > 1: a dynamic dim must be 1 or o
            elif o == DYN:
                out[i] = d
            elif o != d:
                raise ShapeConflict(f"cannot broadcast dimension {o} with {d}")
    # A dimension that is 1 in some operands and dynamic in all others stays dynamic.
    for i in range(rank):
        if out[i] == 1:
            dims = [((1,) * (rank - len(s)) + s)[i] for s in shapes if s is not None]
            if DYN in dims:
                out[i] = DYN
    return tuple(out)


def _d(*dims: int) -> bool:
    return all(d != DYN for d in dims)


def _dim(shape: Shape, i: int) -> int:
    if shape is None or not -len(shape) <= i < len(shape):
        return DYN
    return shape[i]


def _floordiv_dim(num: int, den: int) -> int:
    if den <= 0 or num < 0:
        return DYN
    return shapes.strided_size(num, den)


# ------------------------------------------------------------------------ op rules


def _shape_operand(value: SSAValue) -> list[int] | None:
    owner = value.owner
    if isinstance(owner, ConstShapeOp):
        try:
            return owner.shape_values()
        except Exception:  # noqa: BLE001 - a malformed const_shape is the verifier's business
            return None
    return None


def _merge_all(*shapes: Shape) -> Shape:
    out: Shape = None
    for s in shapes:
        out = merge(out, s)
    return out


def _conv_like(op: Operation, s) -> Shape:
    """CONV2D / DEPTHWISE_CONV2D / CONV3D / TRANSPOSE_CONV2D."""
    x, w, b = s(op.input), s(op.weight), s(op.bias)
    spatial = 3 if isinstance(op, tn.Conv3DOp) else 2
    rank = spatial + 2
    if x is not None and len(x) != rank:
        return None
    n = _dim(x, 0)
    bc = _dim(b, 0) if b is not None and len(b) == 1 else DYN
    stride = prop(op, "stride") or [1] * spatial
    if isinstance(op, tn.DepthwiseConv2DOp):  # weight [KH, KW, C, M]
        kernel = [_dim(w, 0), _dim(w, 1)]
        c, m = _merge_all((_dim(x, 3),), (_dim(w, 2),))[0], _dim(w, 3)  # type: ignore[index]
        oc = c * m if _d(c, m) else DYN
    else:  # weight [OC, K..., IC]
        kernel = [_dim(w, 1 + i) for i in range(spatial)]
        oc = _dim(w, 0)
    if oc == DYN and bc not in (DYN, 1):
        oc = bc
    dims = []
    if isinstance(op, tn.TransposeConv2DOp):
        out_pad = prop(op, "out_pad") or [0] * 4
        for i in range(2):
            ih, k = _dim(x, 1 + i), kernel[i]
            dims.append(shapes.transpose_conv_size(ih, k, out_pad[2 * i], out_pad[2 * i + 1], stride[i])
                        if _d(ih, k) else DYN)
    else:
        pad = prop(op, "pad") or [0] * (2 * spatial)
        dilation = prop(op, "dilation") or [1] * spatial
        for i in range(spatial):
            ih, k = _dim(x, 1 + i), kernel[i]
            dims.append(_floordiv_dim(shapes.conv_numerator(ih, k, pad[2 * i], pad[2 * i + 1], dilation[i]),
                                      stride[i]) if _d(ih, k) else DYN)
    return (n, *dims, oc)


def _pool(op: Operation, s) -> Shape:
    x = s(op.input)
    if x is None or len(x) != 4:
        return None
    kernel, stride, pad = prop(op, "kernel"), prop(op, "stride"), prop(op, "pad")
    dims = []
    for i in range(2):
        ih = x[1 + i]
        dims.append(_floordiv_dim(shapes.pool_numerator(ih, kernel[i], pad[2 * i], pad[2 * i + 1]), stride[i])
                    if ih != DYN else DYN)
    return (x[0], *dims, x[3])


def _resize(op: ResizeOp, s) -> Shape:
    x = s(op.input)
    if x is None or len(x) != 4:
        return None
    scale, offset, border = (_shape_operand(v) for v in (op.scale, op.offset, op.border))
    if scale is None or offset is None or border is None or len(scale) != 4:
        return (x[0], DYN, DYN, x[3])
    dims = []
    for i in range(2):
        ih = x[1 + i]
        n, d = scale[2 * i], scale[2 * i + 1]
        dims.append(_floordiv_dim(shapes.resize_numerator(ih, n, offset[i], border[i]), d)
                    if ih != DYN and n > 0 else DYN)
    return (x[0], *dims, x[3])


def _reshape(op: dl.ReshapeOp, s) -> Shape:
    new = _shape_operand(op.shape)
    if new is None:
        return None
    out = [d if d >= 0 else DYN for d in new]
    x = s(op.input1)
    if out.count(DYN) == 1 and x is not None and _d(*x):
        known = 1
        for d in out:
            if d != DYN:
                known *= d
        total = 1
        for d in x:
            total *= d
        if known > 0 and total % known == 0:
            out[out.index(DYN)] = total // known
    return tuple(out)


def _slice(op: dl.SliceOp, s) -> Shape:
    start, size = _shape_operand(op.start), _shape_operand(op.size)
    if size is None:
        x = s(op.input1)
        return None if x is None else (DYN,) * len(x)
    x = s(op.input1)
    out = []
    for i, n in enumerate(size):
        if n >= 0:
            out.append(n)
        else:  # upstream's -1: to the end of the dimension
            st = start[i] if start is not None and i < len(start) else DYN
            d = _dim(x, i)
            out.append(d - st if _d(d, st) and st >= 0 and d >= st else DYN)
    return tuple(out)


def _tile(op: dl.TileOp, s) -> Shape:
    x, m = s(op.input1), _shape_operand(op.multiples)
    if m is None:
        return None if x is None else (DYN,) * len(x)
    if x is None:
        return (DYN,) * len(m)
    if len(x) != len(m):
        raise ShapeConflict(f"input rank {len(x)} but {len(m)} multiples")
    return tuple(d * k if d != DYN and k >= 0 else DYN for d, k in zip(x, m))


def _pad(op: dl.PadOp, s) -> Shape:
    x, p = s(op.input1), _shape_operand(op.padding)
    if x is None:
        return None if p is None else (DYN,) * (len(p) // 2)
    if p is None:
        return (DYN,) * len(x)
    if len(p) != 2 * len(x):
        raise ShapeConflict(f"input rank {len(x)} but {len(p)} padding values")
    return tuple(d + p[2 * i] + p[2 * i + 1] if d != DYN and p[2 * i] >= 0 and p[2 * i + 1] >= 0
                 else DYN for i, d in enumerate(x))


def _concat(op: dl.ConcatOp, s) -> Shape:
    shapes = [s(v) for v in op.input1]
    ranked = [x for x in shapes if x is not None]
    if not ranked:
        return None
    rank = len(ranked[0])
    axis = prop(op, "axis", 0)
    if not 0 <= axis < rank:
        return None
    total = 0
    for x in shapes:
        if x is None or x[axis] == DYN:
            total = DYN
        elif total != DYN:
            total += x[axis]
    others = [tuple(DYN if i == axis else d for i, d in enumerate(x)) for x in ranked]
    out = list(_merge_all(*others))  # type: ignore[arg-type]
    out[axis] = total
    return tuple(out)


def _transpose(op: dl.TransposeOp, s) -> Shape:
    x = s(op.input1)
    perms = prop(op, "perms") or []
    if x is None:
        return (DYN,) * len(perms) if perms else None
    if sorted(perms) != list(range(len(x))):
        return None  # the verifier reports bad perms
    return tuple(x[p] for p in perms)


def _reduce(op: Operation, s, value: SSAValue, keep: bool) -> Shape:
    x = s(value)
    axis = prop(op, "axis", 0)
    if x is None or not 0 <= axis < len(x):
        return None
    if keep:
        return tuple(1 if i == axis else d for i, d in enumerate(x))
    return tuple(d for i, d in enumerate(x) if i != axis)


def infer_result_shapes(op: Operation, s) -> list[Shape] | None:
    """The result shapes of TOSA op `op` from its operands' shapes (`s(value)` gives the
    current shape of a value); None when no rule applies. Raises ShapeConflict."""
    if isinstance(op, (BinaryElementwiseOp, ComparisonOp, MulOp)):
        return [broadcast([s(op.input1), s(op.input2)])]
    if isinstance(op, SelectOp):
        return [broadcast([s(op.input1), s(op.input2), s(op.input3)])]
    if isinstance(op, (UnaryElementwiseOp, NegateOp, IdentityOp, TableOp, dl.ReverseOp)):
        return [s(op.input1)]
    if isinstance(op, (act.ActivationOp, CastOp, RescaleOp)):
        return [s(op.input)]
    if isinstance(op, ReductionOp):
        return [_reduce(op, s, op.input, keep=True)]
    if isinstance(op, tn.ArgMaxOp):
        return [_reduce(op, s, op.input, keep=False)]
    if isinstance(op, (tn.Conv2DOp, tn.Conv3DOp, tn.DepthwiseConv2DOp, tn.TransposeConv2DOp)):
        return [_conv_like(op, s)]
    if isinstance(op, (tn.AvgPool2DOp, tn.MaxPool2DOp)):
        return [_pool(op, s)]
    if isinstance(op, tn.MatMulOp):
        a, b = s(op.a), s(op.b)
        n = merge((_dim(a, 0),), (_dim(b, 0),))[0]  # type: ignore[index]
        merge((_dim(a, 2),), (_dim(b, 1),))  # C must agree
        return [(n, _dim(a, 1), _dim(b, 2))]
    if isinstance(op, tn.FFT2DOp):
        shape = merge(s(op.input_real), s(op.input_imag))
        return [shape, shape]
    if isinstance(op, tn.RFFT2DOp):
        x = s(op.input_real)
        if x is None or len(x) != 3:
            return None
        shape = (x[0], x[1], x[2] // 2 + 1 if x[2] != DYN else DYN)
        return [shape, shape]
    if isinstance(op, GatherOp):
        v, i = s(op.values), s(op.indices)
        n = merge((_dim(v, 0),), (_dim(i, 0),))[0]  # type: ignore[index]
        return [(n, _dim(i, 1), _dim(v, 2))]
    if isinstance(op, ScatterOp):
        v, i, x = s(op.values_in), s(op.indices), s(op.input)
        n = _merge_all((_dim(v, 0),), (_dim(i, 0),), (_dim(x, 0),))[0]  # type: ignore[index]
        merge((_dim(i, 1),), (_dim(x, 1),))
        c = merge((_dim(v, 2),), (_dim(x, 2),))[0]  # type: ignore[index]
        return [(n, _dim(v, 1), c)]
    if isinstance(op, ResizeOp):
        return [_resize(op, s)]
    if isinstance(op, dl.ReshapeOp):
        return [_reshape(op, s)]
    if isinstance(op, dl.SliceOp):
        return [_slice(op, s)]
    if isinstance(op, dl.TileOp):
        return [_tile(op, s)]
    if isinstance(op, dl.PadOp):
        return [_pad(op, s)]
    if isinstance(op, dl.ConcatOp):
        return [_concat(op, s)]
    if isinstance(op, dl.TransposeOp):
        return [_transpose(op, s)]
    return None


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
            shapes = infer_result_shapes(op, self.shape)
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
