"""ERROR_IF checks of spec 2.10 Data Layout: CONCAT, PAD, RESHAPE, REVERSE, SLICE, TILE,
TRANSPOSE. Shape operands (padding, shape, start, size, multiples) are decided when they come
from tosa.const_shape; their length is always known from the `!tosa.shape<N>` type."""

from __future__ import annotations

from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops.data_layout import (
    ConcatOp,
    PadOp,
    ReshapeOp,
    ReverseOp,
    SliceOp,
    TileOp,
    TransposeOp,
)
from tosa_xdsl.ir.access import format_shape, shape_of
from tosa_xdsl.verification.common import fail
from tosa_xdsl.verification.constants import const_shape_values
from tosa_xdsl.verification.helpers import static_size
from tosa_xdsl.verification.registry import spec_check


def _length(value) -> int:
    """length() of a !tosa.shape<N> operand."""
    return value.type.rank.data


@spec_check(ConcatOp, "CONCAT#1", "CONCAT#2", "CONCAT#3", "CONCAT#4", "CONCAT#5")
def _concat(op):
    # 2.10.1 CONCAT#1: ERROR_IF(input1 == []); #2: axis < 0 || axis >= max(1,rank(shapes1[0])); #3: rank(shapes1[i]) != rank(shapes1[0]); #4: shapes1[i][j] != shapes1[0][j] (j != axis); #5: axis_sum != shape[axis]
    inputs = list(op.input1)
    if not inputs:
        fail(op, "input1 must hold at least one tensor")
    axis = op.axis.value.data
    shapes_ = [shape_of(v) for v in inputs]
    first = shapes_[0]
    if axis < 0 or (first is not None and axis >= max(1, len(first))):
        bound = f"0 to {max(1, len(first)) - 1}" if first is not None else "non-negative"
        fail(op, f"axis {axis} is out of range (must be {bound})")
    ranked = [(i, s) for i, s in enumerate(shapes_) if s is not None]
    if not ranked:
        return
    i0, ref = ranked[0]
    for i, s in ranked[1:]:
        if len(s) != len(ref):
            fail(op, f"input1[{i}] has rank {len(s)} but input1[{i0}] has rank {len(ref)}; "
                     f"all inputs must have the same rank")
    out = shape_of(op.output)
    if out is not None and len(out) != len(ref):
        # shape[axis] of CONCAT#5 and the pseudocode's reads at the output's positions need
        # the output to have the inputs' rank
        fail(op, f"output rank {len(out)} must equal the inputs' rank {len(ref)}")
    if axis >= len(ref):
        return
    for j in range(len(ref)):
        if j == axis:
            continue
        known = [(i, s[j]) for i, s in ranked if s[j] >= 0]
        for i, d in known[1:]:
            if d != known[0][1]:
                fail(op, f"input1[{i}] dim {j} is {d} but input1[{known[0][0]}] dim {j} is "
                         f"{known[0][1]}; inputs may differ only along axis {axis}")
        if known and out is not None and out[j] >= 0 and out[j] != known[0][1]:
            fail(op, f"output dim {j} is {out[j]} but input1[{known[0][0]}] dim {j} is "
                     f"{known[0][1]}; the output may differ from the inputs only along axis {axis}")
    if len(ranked) == len(shapes_) and all(s[axis] >= 0 for _, s in ranked) and out is not None \
            and axis < len(out) and out[axis] >= 0:
        total = shapes.concat_shape(shapes_, axis)[axis]  # type: ignore[index]
        if total != out[axis]:
            parts = " + ".join(str(s[axis]) for _, s in ranked)
            fail(op, f"output dim {axis} is {out[axis]} but the inputs' dims {axis} sum to "
                     f"{parts} = {total}")


@spec_check(PadOp, "PAD#1", "PAD#2", "PAD#3")
def _pad(op):
    # 2.10.2 PAD#1: ERROR_IF(rank(shape) != rank(shape1)); #2: padding[i*2] < 0 || padding[i*2+1] < 0; #3: shape[i] != padding[i*2] + shape1[i] + padding[i*2+1]
    in_dims, out_dims = shape_of(op.input1), shape_of(op.output)
    if in_dims is not None and out_dims is not None and len(in_dims) != len(out_dims):
        fail(op, f"output rank {len(out_dims)} must equal input1 rank {len(in_dims)}")
    rank = len(in_dims) if in_dims is not None else len(out_dims) if out_dims is not None else None
    if rank is not None and _length(op.padding) != 2 * rank:
        fail(op, f"padding has {_length(op.padding)} values but must have 2 * rank(input1) = "
                 f"{2 * rank}")
    padding = const_shape_values(op.padding)
    if padding is None:
        return
    for i in range(len(padding) // 2):
        before, after = padding[2 * i], padding[2 * i + 1]
        if before < 0 or after < 0:
            fail(op, f"padding of dim {i} is ({before}, {after}); padding must not be negative")
    if in_dims is None or out_dims is None:
        return
    padded = shapes.pad_shape(in_dims, padding)
    assert padded is not None
    for i, (d_in, d_out, expected) in enumerate(zip(in_dims, out_dims, padded)):
        if d_in < 0 or d_out < 0:
            continue
        before, after = padding[2 * i], padding[2 * i + 1]
        if d_out != expected:
            fail(op, f"output dim {i} is {d_out} but input dim {i} ({d_in}) + padding "
                     f"({before} + {after}) = {expected}")


@spec_check(ReshapeOp, "RESHAPE#1")
def _reshape(op):
    # 2.10.3 RESHAPE#1: ERROR_IF(tensor_size(shape1) != tensor_size(shape))
    out = shape_of(op.output)
    values = const_shape_values(op.shape)
    if out is not None:
        if _length(op.shape) != len(out):
            fail(op, f"shape has {_length(op.shape)} values but the output has rank {len(out)}")
        if values is not None:
            for i, (d, v) in enumerate(zip(out, values)):
                if d >= 0 and v >= 0 and d != v:
                    fail(op, f"output dim {i} is {d} but shape[{i}] is {v}")
            # the output's shape is `shape`: let the constant fill dynamic dims
            out = shapes.merge(out, shapes.reshape_shape(None, values))
    elif values is not None and all(v >= 0 for v in values):
        out = shapes.reshape_shape(None, values)
    in_size, out_size = static_size(shape_of(op.input1)), static_size(out)
    if in_size is not None and out_size is not None and in_size != out_size:
        fail(op, f"input1 {format_shape(shape_of(op.input1))} has {in_size} elements but the new shape "
                 f"{format_shape(out)} has {out_size}")


@spec_check(ReverseOp, "REVERSE#1")
def _reverse(op):
    # 2.10.4 REVERSE#1: ERROR_IF(axis < 0 || axis >= rank(shape))
    axis = op.axis.value.data
    dims = shape_of(op.input1)
    if axis < 0 or (dims is not None and axis >= len(dims)):
        bound = f"0 to {len(dims) - 1}" if dims is not None else "non-negative"
        fail(op, f"axis {axis} is out of range for input1 (must be {bound})")


@spec_check(SliceOp, "SLICE#1", "SLICE#2", "SLICE#3", "SLICE#4", "SLICE#5", "SLICE#6")
def _slice(op):
    # 2.10.5 SLICE#1: rank(shape1) != length(start)/length(size); #2: rank(shape1) != rank(shape); #3: start[i] < 0; #4: size[i] <= 0; #5: start[i] + size[i] > shape1[i]; #6: shape[i] != size[i]
    in_dims, out_dims = shape_of(op.input1), shape_of(op.output)
    if in_dims is not None:
        for name in ("start", "size"):
            if _length(getattr(op, name)) != len(in_dims):
                fail(op, f"{name} has {_length(getattr(op, name))} values but input1 has rank "
                         f"{len(in_dims)}")
        if out_dims is not None and len(out_dims) != len(in_dims):
            fail(op, f"output rank {len(out_dims)} must equal input1 rank {len(in_dims)}")
    start, size = const_shape_values(op.start), const_shape_values(op.size)
    if start is not None:
        for i, s in enumerate(start):
            if s < 0:
                fail(op, f"start[{i}] is {s}; start must not be negative")
    if size is not None:
        for i, s in enumerate(size):
            if s <= 0:
                fail(op, f"size[{i}] is {s}; size must be positive")
    if start is not None and size is not None and in_dims is not None:
        for i, (b, n, d) in enumerate(zip(start, size, in_dims)):
            if d >= 0 and b + n > d:
                fail(op, f"start[{i}] + size[{i}] = {b} + {n} = {b + n} exceeds input1 dim {i} "
                         f"({d})")
    if size is not None and out_dims is not None:
        for i, (n, d) in enumerate(zip(shapes.slice_shape(in_dims, start, size), out_dims)):  # type: ignore[arg-type]
            if d >= 0 and n >= 0 and d != n:
                fail(op, f"output dim {i} is {d} but size[{i}] is {n}")


@spec_check(TileOp, "TILE#1", "TILE#2")
def _tile(op):
    # 2.10.6 TILE#1: ERROR_IF(rank(shape1) != rank(shape)); TILE#2: ERROR_IF(shape1[i] * multiples[i] != shape[i])
    in_dims, out_dims = shape_of(op.input1), shape_of(op.output)
    if in_dims is not None and out_dims is not None and len(in_dims) != len(out_dims):
        fail(op, f"output rank {len(out_dims)} must equal input1 rank {len(in_dims)}")
    if in_dims is not None and _length(op.multiples) != len(in_dims):
        fail(op, f"multiples has {_length(op.multiples)} values but input1 has rank {len(in_dims)}")
    multiples = const_shape_values(op.multiples)
    if multiples is None or in_dims is None or out_dims is None:
        return
    try:
        tiled = shapes.tile_shape(in_dims, multiples)
    except shapes.ShapeConflict as conflict:
        fail(op, str(conflict))
    assert tiled is not None
    for i, (d, m, o, want) in enumerate(zip(in_dims, multiples, out_dims, tiled)):
        if want >= 0 and o >= 0 and want != o:
            fail(op, f"output dim {i} is {o} but input1 dim {i} ({d}) * multiples[{i}] ({m}) = "
                     f"{want}")


@spec_check(TransposeOp, "TRANSPOSE#1", "TRANSPOSE#2", "TRANSPOSE#3", "TRANSPOSE#4",
            "TRANSPOSE#5", "TRANSPOSE#6")
def _transpose(op):
    # 2.10.7 TRANSPOSE#1: rank(shape1) != rank(shape); #2: tensor_size(shape1) != tensor_size(shape); #3: perms[i] >= rank(shape1); #4: perms[i] < 0; #5: perms value repeated; #6: shape1[perms[i]] != shape[i]
    in_dims, out_dims = shape_of(op.input1), shape_of(op.output)
    if in_dims is not None and out_dims is not None and len(in_dims) != len(out_dims):
        fail(op, f"output rank {len(out_dims)} must equal input1 rank {len(in_dims)}")
    in_size, out_size = static_size(in_dims), static_size(out_dims)
    if in_size is not None and out_size is not None and in_size != out_size:
        fail(op, f"input1 {format_shape(in_dims)} has {in_size} elements but the output "
                 f"{format_shape(out_dims)} has {out_size}")
    perms = [int(p) for p in op.perms.get_values()]
    rank = len(in_dims) if in_dims is not None else len(out_dims) if out_dims is not None else None
    if rank is not None and len(perms) != rank:
        fail(op, f"perms has {len(perms)} values but input1 has rank {rank}")
    used: dict[int, int] = {}
    for i, p in enumerate(perms):
        if rank is not None and p >= rank:
            fail(op, f"perms[{i}] is {p} but must be less than rank(input1) = {rank}")
        if p < 0:
            fail(op, f"perms[{i}] is {p}; perms must not be negative")
        if p in used:
            fail(op, f"perms[{i}] repeats perms[{used[p]}] ({p}); perms must be a permutation")
        used[p] = i
    permuted = shapes.transpose_shape(in_dims, perms)
    if permuted is None or out_dims is None:
        return
    for i, p in enumerate(perms):
        if permuted[i] >= 0 and out_dims[i] >= 0 and permuted[i] != out_dims[i]:
            fail(op, f"output dim {i} is {out_dims[i]} but input1 dim perms[{i}] = {p} is "
                     f"{in_dims[p]}")
