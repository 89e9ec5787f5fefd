"""`tosa-to-scf`: TOSA control flow -> scf (upstream's pass).

  tosa.cond_if %c (%a = %x, ...) then {..} else {..}
      -> %b = tensor.extract %c[0...] : i1 ; scf.if %b -> (...) { .. } else { .. }
         (the graphs' block arguments are replaced by the input_list values)
  tosa.while_loop (%a = %x, ...) {cond} do {body}
      -> scf.while (%a = %x, ...) { cond ...; %b = tensor.extract %c[0...];
                                     scf.condition(%b) %a, ... } do { body }
  tosa.yield -> scf.yield (then/else/body) or scf.condition (cond_graph)
  tosa.scatter %values_in, %indices, %input
      -> scf.for %n, scf.for %w (k = tensor.extract %indices[%n, %w]), scf.for %c:
         tensor.insert %input[%n, %w, %c] into the carried tensor at [%n, k, %c]
         (spec 2.11.2: each output element is written at most once -- a REQUIRE -- so the
         loop order cannot change the result; unwritten elements keep values_in's)

The condition must be a statically shaped one-element i1 tensor, each graph a single block,
scatter's shapes ranked (any dim may be `?`: the loop bounds are tensor.dim values); otherwise
the pass stops with a located diagnostic naming the op.
The tensors COND_IF and WHILE_LOOP pass along may have dynamic dims (`DYNAMIC`): scf.if /
scf.while carry them as they are (one-shot-bufferize makes them memrefs, as upstream).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp, WhileLoopOp, YieldOp
from tosa_xdsl.dialects.tosa.ops.scatter_gather import ScatterOp
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims, cannot_lower, require_static
from tosa_xdsl.lowering.tosa_to_tensor import index_zeros

PASS = "tosa-to-scf"


fail = partial(cannot_lower, PASS)  # fail(op, reason) -> LocatedError "<PASS>: cannot lower '<op>': <reason>"


# the operators this pass lowers with dynamic dims (docs/lowering.md's list, checked by
# tests/dynamic): COND_IF/WHILE_LOOP every tensor of input_list / output_list (the condition
# stays static); SCATTER every dim (upstream's ScatterOpConverter sizes its loops with
# tensor.dim too; the data-dependent index is clamped to the run-time K - 1)
DYNAMIC: dict[type[Operation], DynamicDims] = {
    ScatterOp: EVERY_DIM,
    CondIfOp: DynamicDims("input_list and output_list (the condition is a static one-element tensor)"),
    WhileLoopOp: DynamicDims("input_list and output_list (cond_graph's condition is a static one-element tensor)"),
}


def _extract_cond(op: Operation, cond: SSAValue) -> tuple[list[Operation], SSAValue]:
    t = cond.type
    if not isinstance(t, TensorType) or any(int(d) < 0 for d in t.get_shape()):
        raise fail(op, f"the condition must be a statically shaped tensor, got {t}")
    n = 1
    for d in t.get_shape():
        n *= int(d)
    if n != 1 or t.element_type != IntegerType(1):
        raise fail(op, f"the condition must be a one-element i1 tensor, got {t}")
    zero_ops, zeros = index_zeros(t.get_num_dims())
    ext = tensor.ExtractOp(cond, zeros, IntegerType(1))
    return [*zero_ops, ext], ext.result


def _take_block(op: Operation, region: Region, what: str) -> tuple[Block, YieldOp]:
    if len(region.blocks) != 1:
        raise fail(op, f"{what} must be a single block")
    block = region.detach_block(0)
    term = block.last_op
    if not isinstance(term, YieldOp):
        raise fail(op, f"{what} must end with tosa.yield")
    return block, term


def lower_cond_if(op: CondIfOp) -> None:
    pre, b = _extract_cond(op, op.condition)
    blocks = []
    for region, what in ((op.then_graph, "then_graph"), (op.else_graph, "else_graph")):
        block, term = _take_block(op, region, what)
        if len(block.args) != len(op.input_list):
            raise fail(op, f"{what} has {len(block.args)} arguments for {len(op.input_list)} inputs")
        for arg, value in zip(block.args, op.input_list):
            arg.replace_all_uses_with(value)
        for arg in reversed(block.args):
            block.erase_arg(arg)
        Rewriter.replace_op(term, scf.YieldOp(*term.inputs))
        blocks.append(block)
    new = scf.IfOp(b, list(op.output_list.types), Region(blocks[0]), Region(blocks[1]))
    Rewriter.replace_op(op, [*pre, new], list(new.results))


def lower_while(op: WhileLoopOp) -> None:
    before, cterm = _take_block(op, op.cond_graph, "cond_graph")
    after, bterm = _take_block(op, op.body_graph, "body_graph")
    if len(cterm.inputs) != 1:
        raise fail(op, "cond_graph must yield one condition")
    pre, b = _extract_cond(op, cterm.inputs[0])
    Rewriter.insert_op(pre, InsertPoint.before(cterm))
    Rewriter.replace_op(cterm, scf.ConditionOp(b, *before.args))
    Rewriter.replace_op(bterm, scf.YieldOp(*bterm.inputs))
    new = scf.WhileOp(list(op.input_list), list(op.output_list.types), Region(before), Region(after))
    new.location = op.location  # the interpreter's loop bound names the WHILE_LOOP's line
    Rewriter.replace_op(op, [new], list(new.results))


def _for(n: SSAValue, carried: SSAValue, body) -> tuple[list[Operation], scf.ForOp]:
    """scf.for %i = 0 to n step 1 iter_args(carried); body(i, carried) -> (ops, value)."""
    lb = arith.ConstantOp(IntegerAttr(0, IndexType()))
    step = arith.ConstantOp(IntegerAttr(1, IndexType()))
    block = Block(arg_types=[IndexType(), carried.type])
    ops, value = body(block.args[0], block.args[1])
    block.add_ops([*ops, scf.YieldOp(value)])
    loop = scf.ForOp(lb, n, step, [carried], Region(block))
    return [lb, step, loop], loop


def _size(v: SSAValue, d: int, ops: list[Operation]) -> SSAValue:
    """Dim `d` of tensor `v` as an index: its constant, or `tensor.dim` when dynamic (upstream's
    tensor::getMixedSize)."""
    size = int(v.type.get_shape()[d])
    c = arith.ConstantOp(IntegerAttr(size if size >= 0 else d, IndexType()))
    ops.append(c)
    if size >= 0:
        return c.result
    dim = tensor.DimOp(v, c.result)
    ops.append(dim)
    return dim.result


def lower_scatter(op: ScatterOp) -> None:
    # every dim may be dynamic: the loop bounds and K are tensor.dim values (upstream's form)
    require_static(op, PASS, DYNAMIC[ScatterOp])
    vt, it, xt = op.values_in.type, op.indices.type, op.input.type
    if not all(isinstance(t, TensorType) for t in (vt, it, xt)):
        raise fail(op, "operands must be ranked tensors")
    if vt.get_num_dims() != 3 or it.get_num_dims() != 2 or xt.get_num_dims() != 3:
        raise fail(op, "expected values_in [N,K,C], indices [N,W] and input [N,W,C]")
    (n_, _k, c_), (n_i, w_), got = ([int(d) for d in t.get_shape()] for t in (vt, it, xt))
    for a, b in ((n_, n_i), (n_, got[0]), (w_, got[1]), (c_, got[2])):
        if a >= 0 and b >= 0 and a != b:  # the verifier's rule, for --disable-verify input
            raise fail(op, f"input must have shape [{n_}, {w_}, {c_}], got {xt}")
    if it.element_type != IntegerType(32):
        raise fail(op, f"indices must be i32, got {it.element_type}")
    elem = vt.element_type
    sizes: list[Operation] = []
    # N and C from values_in, W from indices, K - 1 bounds the clamped index
    n, c, w = _size(op.values_in, 0, sizes), _size(op.values_in, 2, sizes), _size(op.indices, 1, sizes)
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    last_k = arith.SubiOp(_size(op.values_in, 1, sizes), one.result)
    sizes += [one, last_k]

    def n_body(i_n, t_n):
        def w_body(i_w, t_w):
            k32 = tensor.ExtractOp(op.indices, [i_n, i_w], IntegerType(32))
            k_raw = arith.IndexCastOp(k32.result, IndexType())
            # clamped to [0, K-1]: an out-of-range index is a REQUIRE (unpredictable result)
            # but must never write outside the buffer in native code (docs/robustness.md)
            zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
            k_lo = arith.MaxSIOp(k_raw.result, zero.result)
            k = arith.MinSIOp(k_lo.result, last_k.result)

            def c_body(i_c, t_c):
                v = tensor.ExtractOp(op.input, [i_n, i_w, i_c], elem)
                ins = tensor.InsertOp(v.result, t_c, [i_n, k.result, i_c])
                return [v, ins], ins.result

            ops, loop = _for(c, t_w, c_body)
            return [k32, k_raw, zero, k_lo, k, *ops], loop.res[0]

        ops, loop = _for(w, t_n, w_body)
        return ops, loop.res[0]

    ops, loop = _for(n, op.values_in, n_body)
    Rewriter.replace_op(op, [*sizes, *ops], [loop.res[0]])


@dataclass(frozen=True)
class TosaToSCFPass(ModulePass):
    """tosa.cond_if/while_loop/yield -> scf.if/while/yield/condition; tosa.scatter -> an
    scf.for nest of tensor.extract/insert."""

    name: ClassVar[str] = "tosa-to-scf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in list(op.walk()):
            if isinstance(o, CondIfOp):
                lower_cond_if(o)
            elif isinstance(o, WhileLoopOp):
                lower_while(o)
            elif isinstance(o, ScatterOp):
                lower_scatter(o)
        for o in op.walk():
            if isinstance(o, YieldOp):
                raise fail(o, "a tosa.yield outside tosa.cond_if/while_loop cannot be lowered")

