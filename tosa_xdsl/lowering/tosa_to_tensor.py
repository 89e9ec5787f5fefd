"""`tosa-to-tensor`: tosa.concat/pad/reshape/slice -> the tensor dialect (upstream's pass).

  concat  -> tensor.empty + one tensor.insert_slice per input
  pad     -> tensor.pad (static low/high from the tosa.const_shape `padding`) whose region
             yields `tensor.extract %pad_const[0...]` (extracted before the pad)
  reshape -> tensor.collapse_shape / tensor.expand_shape (or a collapse to 1-D followed by an
             expand when no single reassociation exists); an identity reshape is dropped
  slice   -> tensor.extract_slice (static offsets/sizes from the tosa.const_shape operands)

Dynamic dims are lowered where the `DYNAMIC` table below says (upstream's forms; PAD and SLICE
of a dynamic inner dim become one linalg.generic reading by tensor.extract, see
docs/lowering.md), and every `!tosa.shape` operand must come from a tosa.const_shape;
otherwise the pass stops with a located diagnostic naming the op. tosa.const_shape ops that
this pass leaves without uses are erased.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.data_layout import ConcatOp, PadOp, ReshapeOp, SliceOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.lowering import preconditions
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering.linalg_build import tensor_type
from tosa_xdsl.lowering.preconditions import cannot_lower, checked_axis

PASS = "tosa-to-tensor"


fail = partial(cannot_lower, PASS)  # fail(op, reason) -> LocatedError "<PASS>: cannot lower '<op>': <reason>"


static_shape = partial(preconditions.static_shape, pass_name=PASS)  # (op, value, what) -> shape


def const_shape_values(op: Operation, value: SSAValue, what: str) -> list[int]:
    owner = value.owner
    if not isinstance(owner, ConstShapeOp):
        raise fail(op, f"{what} must be a tosa.const_shape value")
    return owner.shape_values()


def index_zeros(n: int) -> tuple[list[Operation], list[SSAValue]]:
    if n == 0:
        return [], []
    c = arith.ConstantOp(IntegerAttr(0, IndexType()))
    return [c], [c.result] * n


def _reassoc_attr(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _groups(big: Sequence[int], small: Sequence[int]) -> list[list[int]] | None:
    """Contiguous groups of `big`'s dims whose products are `small`'s dims, or None."""
    groups: list[list[int]] = []
    i = 0
    for d in small:
        g: list[int] = []
        p = 1
        while i < len(big):
            g.append(i)
            p *= big[i]
            i += 1
            if p == d:
                break
        if p != d or not g:
            return None
        groups.append(g)
    rest = list(range(i, len(big)))
    if rest:
        if any(big[k] != 1 for k in rest):
            return None
        if not groups:
            return [] if len(small) == 0 else None
        groups[-1].extend(rest)
    return groups


def _collapse(src: SSAValue, groups, out_shape, elem) -> tensor.CollapseShapeOp:
    return tensor.CollapseShapeOp(
        operands=[src],
        result_types=[tensor_type(elem, out_shape)],
        properties={"reassociation": _reassoc_attr(groups)},
    )


def _expand(src: SSAValue, groups, out_shape, elem) -> tensor.ExpandShapeOp:
    return tensor.ExpandShapeOp(src, [], _reassoc_attr(groups), list(out_shape), TensorType(elem, list(out_shape)))


def _lower_concat_dynamic(op: ConcatOp, out_shape: tuple[int, ...]) -> None:
    """Upstream's dynamic form: tensor.empty sized by the first input's tensor.dim (other
    dims) and the sum of the inputs' dims (axis); one insert_slice per input at the running
    offset (arith.addi), sized by the input's own dims."""
    rank = len(out_shape)
    axis = checked_axis(op, op.properties["axis"].value.data, rank, PASS)
    inputs = list(op.input1)
    for i, operand in enumerate(inputs):
        if len(_dims(op, operand, f"input1[{i}]")) != rank:
            raise fail(op, f"input1[{i}] has a different rank than the result")
    ops: list[Operation] = []

    def index(v: int) -> SSAValue:
        c = arith.ConstantOp(IntegerAttr(v, IndexType()))
        ops.append(c)
        return c.result

    def dim(v: SSAValue, d: int) -> SSAValue | int:
        n = _dims(op, v, "input")[d]
        if n >= 0:
            return n
        dop = tensor.DimOp(v, index(d))
        ops.append(dop)
        return dop.result

    def as_value(x: SSAValue | int) -> SSAValue:
        return index(x) if isinstance(x, int) else x

    def add(a: SSAValue | int, b: SSAValue | int) -> SSAValue | int:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        s = arith.AddiOp(as_value(a), as_value(b))
        ops.append(s)
        return s.result

    total: SSAValue | int = 0
    for v in inputs:
        total = add(total, dim(v, axis))
    sizes = []
    for d in range(rank):
        if out_shape[d] < 0:
            sizes.append(as_value(total if d == axis else dim(inputs[0], d)))
    empty = tensor.EmptyOp(sizes, op.output.type)
    ops.append(empty)
    acc: SSAValue = empty.tensor
    offset: SSAValue | int = 0
    for v in inputs:
        in_dims = [dim(v, d) for d in range(rank)]
        offs = [offset if d == axis else 0 for d in range(rank)]
        ins = tensor.InsertSliceOp.get(
            v, acc,
            static_sizes=[x if isinstance(x, int) else DYNAMIC_INDEX for x in in_dims],
            static_offsets=[x if isinstance(x, int) else DYNAMIC_INDEX for x in offs],
            static_strides=[1] * rank,
            offsets=[x for x in offs if not isinstance(x, int)],
            sizes=[x for x in in_dims if not isinstance(x, int)],
            result_type=op.output.type)
        ops.append(ins)
        acc = ins.result
        offset = add(offset, in_dims[axis])
    Rewriter.replace_op(op, ops, [acc])


def lower_concat(op: ConcatOp) -> None:
    dims = _dims(op, op.output, "the result")
    if any(d < 0 for d in dims) or any(d < 0 for i, v in enumerate(op.input1) for d in _dims(op, v, f"input1[{i}]")):
        _lower_concat_dynamic(op, dims)
        return
    out_shape = static_shape(op, op.output, "the result")
    rank = len(out_shape)
    axis = checked_axis(op, op.properties["axis"].value.data, rank, PASS)
    empty = tensor.EmptyOp([], op.output.type)
    new_ops: list[Operation] = [empty]
    acc: SSAValue = empty.tensor
    offset = 0
    for i, operand in enumerate(op.input1):
        shape = static_shape(op, operand, f"input1[{i}]")
        offsets = [0] * rank
        offsets[axis] = offset
        ins = tensor.InsertSliceOp.from_static_parameters(operand, acc, offsets, list(shape), [1] * rank)
        new_ops.append(ins)
        acc = ins.result
        offset += shape[axis]
    if offset != out_shape[axis]:
        raise fail(op, f"inputs add up to {offset} along axis {axis}, result has {out_shape[axis]}")
    Rewriter.replace_op(op, new_ops, [acc])


def lower_pad(op: PadOp) -> None:
    # a dynamic input dim stays dynamic in the result (upstream's pad_dyn_input): tensor.pad's
    # sizes are the source's + low + high at run time
    in_shape = _dims(op, op.input1, "input1")
    out_shape = _dims(op, op.output, "the result")
    pc_shape = static_shape(op, op.pad_const, "pad_const")
    padding = const_shape_values(op, op.padding, "padding")
    rank = len(in_shape)
    if len(padding) != 2 * rank:
        raise fail(op, f"padding has {len(padding)} values, expected {2 * rank}")
    low, high = padding[0::2], padding[1::2]
    if any(p < 0 for p in padding):
        raise fail(op, f"negative padding {padding} is not supported")
    if tuple(s + lo + hi if s >= 0 else -1 for s, lo, hi in zip(in_shape, low, high)) != out_shape:
        raise fail(op, f"padding {padding} of {in_shape} does not give the result shape {out_shape}")
    elem = op.output.type.element_type
    zero_ops, zeros = index_zeros(len(pc_shape))
    value = tensor.ExtractOp(op.pad_const, zeros, elem)
    if any(d < 0 for d in in_shape[1:]):
        _lower_pad_generic(op, in_shape, low, high, [*zero_ops, value], value.result)
        return
    block = Block(arg_types=[IndexType()] * rank)
    block.add_op(tensor.YieldOp(value.result))
    pad = tensor.PadOp(op.input1, [], [], Region(block), low, high, op.output.type)
    Rewriter.replace_op(op, [*zero_ops, value, pad], [pad.result])


def _lower_pad_generic(op: PadOp, in_shape: Sequence[int], low: Sequence[int], high: Sequence[int],
                       ops: list[Operation], pad_value: SSAValue) -> None:
    """PAD with a dynamic dim inside the outermost: one linalg.generic over the result that
    reads input1 by tensor.extract at `index - low` (clamped into the input) and yields it
    where that is inside, pad_const elsewhere. (tensor.pad is upstream's form and ours for a
    dynamic batch; its buffer form copies into a view whose strides would be run-time values
    here, which the later stages do not handle.)"""
    x = op.input1
    rank = len(in_shape)
    elem = op.output.type.element_type
    # the run-time sizes the result's dynamic dims and the range checks need
    sizes = {d: lb.dim(x, d, ops) for d in range(rank) if in_shape[d] < 0 or low[d] or high[d]}

    def out_size(d: int) -> SSAValue:
        grow = low[d] + high[d]
        if not grow:
            return sizes[d]
        a = arith.AddiOp(sizes[d], lb.index_constant(grow, ops))
        ops.append(a)
        return a.result

    init = lb.dynamic_empty(list(op.output.type.get_shape()), elem, out_size, ops)

    def body(b, args):
        zero = one = None
        idx: list[SSAValue] = []
        valid: SSAValue | None = None
        for d in range(rank):
            i = b.insert(IndexOp(d)).result
            if not low[d] and not high[d]:
                idx.append(i)
                continue
            if zero is None:
                zero = b.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).result
                one = b.insert(arith.ConstantOp(IntegerAttr(1, IndexType()))).result
            j = b.insert(arith.SubiOp(i, b.insert(arith.ConstantOp(IntegerAttr(low[d], IndexType()))).result)).result
            ok = b.insert(arith.AndIOp(b.insert(arith.CmpiOp(j, zero, "sge")).result,
                                       b.insert(arith.CmpiOp(j, sizes[d], "slt")).result)).result
            valid = ok if valid is None else b.insert(arith.AndIOp(valid, ok)).result
            # clamped into the input: the read never leaves it, the select drops it
            last = b.insert(arith.SubiOp(sizes[d], one)).result
            j = b.insert(arith.MaxSIOp(b.insert(arith.MinSIOp(j, last)).result, zero)).result
            idx.append(j)
        v = b.insert(tensor.ExtractOp(x, idx, elem)).result
        if valid is None:
            return [v]
        return [b.insert(arith.SelectOp(valid, v, pad_value)).result]

    gen = lb.generic([], [init], [lb.identity(rank)], lb.parallel(rank), body)
    Rewriter.replace_op(op, [*ops, gen], [gen.res[0]])


def _dims(op: Operation, value: SSAValue, what: str) -> tuple[int, ...]:
    """The dims of a ranked tensor operand/result (-1 = dynamic), or a located error."""
    if not isinstance(value.type, TensorType):
        raise fail(op, f"{what} must be a ranked tensor, got {value.type}")
    return tuple(int(d) if int(d) >= 0 else -1 for d in value.type.get_shape())


def _lower_reshape_dynamic(op: ReshapeOp, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
    """Upstream's dynamic form: collapse to 1-D, the one inferred dim = `tensor.dim` of the
    1-D tensor divided (`arith.divsi`) by the product of the others, `tensor.expand_shape`
    with that `output_shape`, and a `tensor.cast` when the result type knows more."""
    shape = list(const_shape_values(op, op.shape, "shape"))
    if len(shape) != len(out_shape):
        raise fail(op, f"shape {shape} does not match the result rank {len(out_shape)}")
    known = [s if s >= 0 else o for s, o in zip(shape, out_shape)]
    if known.count(-1) > 1:
        raise fail(op, f"shape {shape} leaves more than one dimension of the result unknown")
    if not in_shape or not out_shape:
        raise fail(op, "a dynamic reshape from or to rank 0 is not supported")
    elem = op.output.type.element_type
    new_ops: list[Operation] = []
    src: SSAValue = op.input1
    flat = -1 if any(d < 0 for d in in_shape) else math.prod(in_shape)
    if len(in_shape) != 1:
        c = _collapse(src, [list(range(len(in_shape)))], [flat], elem)
        new_ops.append(c)
        src = c.result
    expanded = [d if d >= 0 else -1 for d in known]
    if flat < 0 and -1 not in expanded:
        # a dynamic 1-D source expands with one dynamic dim (the shape's -1, else the first),
        # then tensor.cast gives the static result type, as upstream
        expanded[shape.index(-1) if -1 in shape else 0] = -1
        known = expanded
    if len(out_shape) == 1:
        result = src
        if flat >= 0 and known[0] < 0:
            expanded = [flat]
    else:
        dynamic: list[SSAValue] = []
        if -1 in known:
            zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
            total = tensor.DimOp(src, zero) if flat < 0 else arith.ConstantOp(IntegerAttr(flat, IndexType()))
            rest = arith.ConstantOp(IntegerAttr(math.prod(d for d in known if d >= 0), IndexType()))
            div = arith.DivSIOp(total.results[0], rest.result)
            new_ops += [zero, total, rest, div] if flat < 0 else [total, rest, div]
            dynamic = [div.result]
        e = tensor.ExpandShapeOp(src, dynamic, _reassoc_attr([list(range(len(out_shape)))]),
                                 [d if d >= 0 else DYNAMIC_INDEX for d in expanded], tensor_type(elem, expanded))
        new_ops.append(e)
        result = e.result
    if result.type != op.output.type:
        cast = tensor.CastOp(result, op.output.type)
        new_ops.append(cast)
        result = cast.dest
    Rewriter.replace_op(op, new_ops, [result])


def lower_reshape(op: ReshapeOp) -> None:
    in_dims, out_dims = _dims(op, op.input1, "input1"), _dims(op, op.output, "the result")
    if any(d < 0 for d in (*in_dims, *out_dims)):
        _lower_reshape_dynamic(op, in_dims, out_dims)
        return
    in_shape = static_shape(op, op.input1, "input1")
    out_shape = static_shape(op, op.output, "the result")
    shape = list(const_shape_values(op, op.shape, "shape"))
    if shape.count(-1) == 1 and math.prod(d for d in shape if d != -1) > 0:
        # one inferred dim, as upstream accepts (torch-mlir's dynamic batch)
        shape[shape.index(-1)] = math.prod(in_shape) // math.prod(d for d in shape if d != -1)
    if tuple(shape) != out_shape:
        raise fail(op, f"shape {shape} does not match the result shape {list(out_shape)}")
    elem = op.output.type.element_type
    src: SSAValue = op.input1
    if in_shape == out_shape:
        Rewriter.replace_op(op, [], [src])
        return
    if not in_shape:
        # rank 0 -> rank N: MLIR takes an empty reassociation here, xDSL's verifier does not;
        # tensor.reshape with a constant shape is the same operation for both.
        shape_t = TensorType(IndexType(), [len(out_shape)])
        c = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(shape_t, list(out_shape)))
        r = tensor.ReshapeOp(src, c.result, op.output.type)
        Rewriter.replace_op(op, [c, r], [r.result])
        return
    if len(out_shape) < len(in_shape) and (g := _groups(in_shape, out_shape)) is not None:
        new = _collapse(src, g, out_shape, elem)
        Rewriter.replace_op(op, [new], [new.result])
        return
    if len(out_shape) > len(in_shape) and (g := _groups(out_shape, in_shape)) is not None:
        new = _expand(src, g, out_shape, elem)
        Rewriter.replace_op(op, [new], [new.result])
        return
    # general case: through a 1-D tensor
    n = 1
    for d in in_shape:
        n *= d
    new_ops: list[Operation] = []
    if len(in_shape) != 1:
        c = _collapse(src, [list(range(len(in_shape)))] if in_shape else [], [n], elem)
        new_ops.append(c)
        src = c.result
    if len(out_shape) != 1:
        e = _expand(src, [list(range(len(out_shape)))] if out_shape else [], out_shape, elem)
        new_ops.append(e)
        src = e.result
    Rewriter.replace_op(op, new_ops, [src])


def _lower_slice_dynamic(op: SliceOp, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
    """A slice of a dynamically shaped input. TOSA 1.0.1's start and size are static and
    positive (upstream MLIR's size -1, the rest of a dynamic dim, is not TOSA 1.0.1: the
    verifier rejects it), so the result is static and the run-time shape only has to hold
    it (a REQUIRE the interpreter checks). Upstream's form, one tensor.extract_slice, when
    only the outermost dim is dynamic; a dynamic dim inside it would make the buffer view's
    strides run-time values, which the later stages do not handle: such slices read the
    input in one generic instead (as PAD)."""
    start = const_shape_values(op, op.start, "start")
    size = const_shape_values(op, op.size, "size")
    rank = len(in_shape)
    if len(start) != rank or len(size) != rank:
        raise fail(op, f"start {start} / size {size} must have {rank} values")
    for n, st, sz in zip(in_shape, start, size):
        if st < 0 or sz < 1 or (n >= 0 and st + sz > n):
            raise fail(op, f"slice start {start} size {size} is out of bounds of {list(in_shape)}")
    if tuple(size) != out_shape:
        raise fail(op, f"size {size} does not match the result shape {list(out_shape)}")
    if not any(d < 0 for d in in_shape[1:]):
        new = tensor.ExtractSliceOp(op.input1, start, size, [1] * rank, op.output.type)
        Rewriter.replace_op(op, [new], [new.result])
        return
    x = op.input1
    elem = op.output.type.element_type
    ops: list[Operation] = []
    # a run-time dim too small for the slice breaks a REQUIRE (the interpreter reports it);
    # native reads stay inside the input: index + start clamped to dim - 1 (minui)
    last: dict[int, SSAValue] = {}
    for d in range(rank):
        if in_shape[d] < 0:
            sub = arith.SubiOp(lb.dim(x, d, ops), lb.index_constant(1, ops))
            ops.append(sub)
            last[d] = sub.result
    init = lb.empty(size, elem)
    ops.append(init)

    def body(b, args):
        idx = []
        for d in range(rank):
            i = b.insert(IndexOp(d)).result
            if start[d]:
                c = b.insert(arith.ConstantOp(IntegerAttr(start[d], IndexType()))).result
                i = b.insert(arith.AddiOp(i, c)).result
            if d in last:
                i = b.insert(arith.MinUIOp(i, last[d])).result
            idx.append(i)
        return [b.insert(tensor.ExtractOp(x, idx, elem)).result]

    gen = lb.generic([], [init.tensor], [lb.identity(rank)], lb.parallel(rank), body)
    Rewriter.replace_op(op, [*ops, gen], [gen.res[0]])


def lower_slice(op: SliceOp) -> None:
    if any(d < 0 for d in _dims(op, op.input1, "input1")):
        _lower_slice_dynamic(op, _dims(op, op.input1, "input1"), _dims(op, op.output, "the result"))
        return
    in_shape = static_shape(op, op.input1, "input1")
    out_shape = static_shape(op, op.output, "the result")
    start = const_shape_values(op, op.start, "start")
    size = const_shape_values(op, op.size, "size")
    rank = len(in_shape)
    if len(start) != rank or len(size) != rank:
        raise fail(op, f"start {start} / size {size} must have {rank} values")
    size = [in_shape[i] - start[i] if s == -1 else s for i, s in enumerate(size)]
    for i in range(rank):
        if start[i] < 0 or size[i] < 0 or start[i] + size[i] > in_shape[i]:
            raise fail(op, f"slice start {start} size {size} is out of bounds of {list(in_shape)}")
    if tuple(size) != out_shape:
        raise fail(op, f"size {size} does not match the result shape {list(out_shape)}")
    new = tensor.ExtractSliceOp(op.input1, start, size, [1] * rank, op.output.type)
    Rewriter.replace_op(op, [new], [new.result])


LOWERINGS = {ConcatOp: lower_concat, PadOp: lower_pad, ReshapeOp: lower_reshape, SliceOp: lower_slice}

# RESHAPE and CONCAT lower any dynamic dim (collapse to 1-D, divsi, expand; tensor.dim-sized
# insert_slices); PAD and SLICE any dim of input1 and the result (pad_const, start, size static)
DYNAMIC = {ReshapeOp: preconditions.EVERY_DIM, ConcatOp: preconditions.EVERY_DIM,
           PadOp: preconditions.DynamicDims("input1 and the result (pad_const stays static)",
                                            {("operand", 0): None, ("result", 0): None}),
           SliceOp: preconditions.DynamicDims("input1 (start and size, hence the result, are static)",
                                              {("operand", 0): None})}


def erase_dead_const_shapes(candidates: Sequence[Operation]) -> None:
    for c in candidates:
        if isinstance(c, ConstShapeOp) and c.parent is not None and not c.output.uses:
            Rewriter.erase_op(c)


@dataclass(frozen=True)
class TosaToTensorPass(ModulePass):
    """tosa.concat/pad/reshape/slice -> tensor.empty/insert_slice/pad/collapse_shape/
    expand_shape/extract_slice."""

    name: ClassVar[str] = "tosa-to-tensor"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        todo = [o for o in op.walk() if type(o) in LOWERINGS]
        shapes: list[Operation] = []
        for o in todo:
            shapes.extend(v.owner for v in o.operands if isinstance(v.owner, ConstShapeOp))
            # the dynamic dims the op's lowering handles, or a located error naming the operand
            preconditions.require_static(o, PASS, DYNAMIC[type(o)])
            LOWERINGS[type(o)](o)
        erase_dead_const_shapes(list(dict.fromkeys(shapes)))


__all__ = ["TosaToTensorPass"]
