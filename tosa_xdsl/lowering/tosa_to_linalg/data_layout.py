"""`tosa-to-linalg` for the spec 2.10 data-layout operators that are pure index maps: REVERSE
and TILE, each one linalg.generic that copies its input through a non-identity input map
(reverse: d_axis -> size - 1 - d_axis; tile: d_i -> d_i mod in_shape[i]). CONCAT, PAD, RESHAPE
and SLICE are tosa-to-tensor's; TRANSPOSE is tosa-to-linalg-named's.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.data_layout import ReverseOp, TileOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering.preconditions import checked_axis
from tosa_xdsl.lowering.tosa_to_linalg.common import PASS, fail, prop, shape_values
from tosa_xdsl.lowering.tosa_to_tensor import erase_dead_const_shapes


def lower_reverse(op: ReverseOp) -> None:
    x = op.input1
    shape = lb.shape_of(x)
    rank = len(shape)
    axis = checked_axis(op, prop(op, "axis"), rank, PASS)
    exprs: list[AffineExpr] = [AffineDimExpr(d) for d in range(rank)]
    exprs[axis] = AffineDimExpr(axis) * -1 + (shape[axis] - 1)
    init = lb.empty(shape, lb.element_type(x))
    gen = lb.generic([x], [init.tensor], [lb.map_of(rank, exprs), lb.identity(rank)], lb.parallel(rank),
                     lambda b, a: [a[0]])
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])


def lower_tile(op: TileOp) -> None:
    x = op.input1
    shape = lb.shape_of(x)
    out_shape = lb.shape_of(op.output)
    rank = len(shape)
    multiples = shape_values(op, op.multiples, "multiples")
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
