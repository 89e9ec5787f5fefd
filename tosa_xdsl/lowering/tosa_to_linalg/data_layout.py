"""`tosa-to-linalg` for the spec 2.10 data-layout operators that are pure index maps: REVERSE
and TILE, each one linalg.generic that copies its input through a non-identity input map
(reverse: d_axis -> size - 1 - d_axis; tile: d_i -> d_i mod in_shape[i]). CONCAT, PAD, RESHAPE
and SLICE are tosa-to-tensor's; TRANSPOSE is tosa-to-linalg-named's.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.data_layout import ReverseOp, TileOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims, checked_axis
from tosa_xdsl.lowering.tosa_to_linalg.common import PASS, cidx, fail, index, prop, shape_values
from tosa_xdsl.lowering.tosa_to_tensor import erase_dead_const_shapes


def lower_reverse(op: ReverseOp) -> None:
    x = op.input1
    shape = lb.dims_of(x)
    rank = len(shape)
    axis = checked_axis(op, prop(op, "axis"), rank, PASS)
    if any(d < 0 for d in shape):
        _lower_reverse_dynamic(op, x, shape, axis)
        return
    exprs: list[AffineExpr] = [AffineDimExpr(d) for d in range(rank)]
    exprs[axis] = AffineDimExpr(axis) * -1 + (shape[axis] - 1)
    init = lb.empty(shape, lb.element_type(x))
    gen = lb.generic([x], [init.tensor], [lb.map_of(rank, exprs), lb.identity(rank)], lb.parallel(rank),
                     lambda b, a: [a[0]])
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])


def _lower_reverse_dynamic(op: ReverseOp, x, shape, axis: int) -> None:
    """Upstream's form (reverse_dyn): tensor.empty(tensor.dim of the input) and a generic with
    only an output that tensor.extracts x at (dim_axis - 1) - index on the axis (the dim is a
    run-time value, so no affine map can say it); a static axis keeps the affine map."""
    rank = len(shape)
    ops: list[Operation] = []
    init = lb.dynamic_empty(shape, lb.element_type(x), lambda d: lb.dim(x, d, ops), ops)
    elem = lb.element_type(x)
    if shape[axis] >= 0:
        exprs: list[AffineExpr] = [AffineDimExpr(d) for d in range(rank)]
        exprs[axis] = AffineDimExpr(axis) * -1 + (shape[axis] - 1)
        gen = lb.generic([x], [init], [lb.map_of(rank, exprs), lb.identity(rank)], lb.parallel(rank),
                         lambda b, a: [a[0]])
    else:
        size = lb.dim(x, axis, ops)

        def body(b: Builder, args):
            idx = [index(b, d) for d in range(rank)]
            last = b.insert(arith.SubiOp(size, cidx(b, 1))).result
            idx[axis] = b.insert(arith.SubiOp(last, idx[axis])).result
            return [b.insert(tensor.ExtractOp(x, idx, elem)).result]

        gen = lb.generic([], [init], [lb.identity(rank)], lb.parallel(rank), body)
    Rewriter.replace_op(op, [*ops, gen], [gen.res[0]])


def _lower_tile_dynamic(op: TileOp, shape, out_shape, multiples) -> None:
    """TILE of a dynamic input (upstream's tile_dyn_input): a dynamic result dim is the input's
    tensor.dim times its multiple; the input is read at index mod dim (arith.remui, the dim a
    run-time value) where a dynamic dim repeats, through the affine map elsewhere."""
    x = op.input1
    rank = len(shape)
    elem = lb.element_type(x)
    ops: list[Operation] = []

    def size(d: int) -> SSAValue:
        n = lb.dim(x, d, ops)
        if multiples[d] == 1:
            return n
        m = arith.MuliOp(n, lb.index_constant(multiples[d], ops))
        ops.append(m)
        return m.result

    init = lb.dynamic_empty(out_shape, elem, size, ops)
    wrapped = [d for d in range(rank) if shape[d] < 0 and multiples[d] != 1]
    if not wrapped:
        exprs: list[AffineExpr] = [AffineDimExpr(d) if m == 1 else AffineDimExpr(d) % s
                                   for d, (s, m) in enumerate(zip(shape, multiples))]
        gen = lb.generic([x], [init], [lb.map_of(rank, exprs), lb.identity(rank)], lb.parallel(rank),
                         lambda b, a: [a[0]])
    else:
        dims = {d: lb.dim(x, d, ops) for d in wrapped}

        def body(b: Builder, args):
            idx = []
            for d in range(rank):
                i = index(b, d)
                if d in dims:
                    i = b.insert(arith.RemUIOp(i, dims[d])).result
                elif multiples[d] != 1:
                    i = b.insert(arith.RemUIOp(i, cidx(b, shape[d]))).result
                idx.append(i)
            return [b.insert(tensor.ExtractOp(x, idx, elem)).result]

        gen = lb.generic([], [init], [lb.identity(rank)], lb.parallel(rank), body)
    shapes = [op.multiples.owner]
    Rewriter.replace_op(op, [*ops, gen], [gen.res[0]])
    erase_dead_const_shapes(shapes)


def lower_tile(op: TileOp) -> None:
    x = op.input1
    shape = lb.dims_of(x)
    out_shape = lb.dims_of(op.output)
    rank = len(shape)
    multiples = shape_values(op, op.multiples, "multiples")
    if any(d < 0 for d in shape):
        if len(multiples) != rank or len(out_shape) != rank or any(
                (o >= 0) != (s >= 0) or (s >= 0 and s * m != o) or m < 1
                for s, m, o in zip(shape, multiples, out_shape)):
            raise fail(op, f"multiples {multiples} of {list(shape)} do not give {list(out_shape)}")
        _lower_tile_dynamic(op, shape, out_shape, multiples)
        return
    if len(multiples) != rank or any(s * m != o for s, m, o in zip(shape, multiples, out_shape)):
        raise fail(op, f"multiples {multiples} of {list(shape)} do not give {list(out_shape)}")
    exprs: list[AffineExpr] = [AffineDimExpr(d) if m == 1 else AffineDimExpr(d) % s
                               for d, (s, m) in enumerate(zip(shape, multiples))]
    init = lb.empty(out_shape, lb.element_type(x))
    gen = lb.generic([x], [init.tensor], [lb.map_of(rank, exprs), lb.identity(rank)], lb.parallel(rank),
                     lambda b, a: [a[0]])
    shapes = [op.multiples.owner]
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])
    erase_dead_const_shapes(shapes)


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {
    ReverseOp: lower_reverse,
    TileOp: lower_tile,
}

# REVERSE and TILE: every dim may be dynamic (upstream's reverse_dyn, tile_dyn_input; a result
# dim is dynamic exactly where the input's is, the multiples are static)
DYNAMIC: dict[type[Operation], DynamicDims] = {ReverseOp: EVERY_DIM, TileOp: EVERY_DIM}
