"""`tosa-to-linalg` for spec 2.11.1 GATHER: a linalg.generic over the [N, W, C] output that
reads indices[n, w] and tensor.extracts values[n, indices[n, w], c]. (SCATTER, which updates a
tensor in place, is tosa-to-scf's.)
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.scatter_gather import GatherOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg.common import clamped_index, fail, index


def lower_gather(op: GatherOp) -> None:
    values, indices = op.values, op.indices
    if (len(lb.dims_of(values)), len(lb.dims_of(indices)), len(lb.dims_of(op.output))) != (3, 2, 3):
        raise fail(op, "expected values [N,K,C], indices [N,W] and output [N,W,C]")  # --disable-verify input
    k = lb.dims_of(values)[1]
    out_shape = lb.dims_of(op.output)
    elem = lb.element_type(values)
    ops: list[Operation] = []
    # a dynamic K bounds the index at run time: K - 1 from values' tensor.dim, built before
    # the generic (the clamp's bound; upstream's gather reads unclamped)
    last: int | SSAValue = max(k - 1, 0)
    if k < 0:
        sub = arith.SubiOp(lb.dim(values, 1, ops), lb.index_constant(1, ops))
        ops.append(sub)
        last = sub.result

    def body(b: Builder, args):
        kk = clamped_index(b, args[0], last)  # out-of-range: REQUIRE, never a wild read
        v = b.insert(tensor.ExtractOp(values, [index(b, 0), kk, index(b, 2)], elem)).result
        return [v]

    if any(d < 0 for d in out_shape):
        # upstream's gather_float_dyn: N is values' tensor.dim 0, W indices' tensor.dim 1
        sources = {0: (values, 0), 1: (indices, 1), 2: (values, 2)}
        init_v = lb.dynamic_empty(out_shape, elem, lambda d: lb.dim(*sources[d], ops), ops)
    else:
        init = lb.empty(out_shape, elem)
        ops.append(init)
        init_v = init.tensor
    gen = lb.generic([indices], [init_v], [lb.map_of(3, [0, 1]), lb.identity(3)], lb.parallel(3), body)
    Rewriter.replace_op(op, [*ops, gen], [gen.res[0]])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {GatherOp: lower_gather}

# GATHER: every dim may be dynamic (N and W as upstream's gather_float_dyn / gather_int_dyn;
# K and C from values' tensor.dim: a dynamic K is the run-time bound of the clamped index)
DYNAMIC: dict[type[Operation], DynamicDims] = {GatherOp: EVERY_DIM}
