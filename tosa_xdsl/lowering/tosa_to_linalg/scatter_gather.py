"""`tosa-to-linalg` for spec 2.11.1 GATHER: a linalg.generic over the [N, W, C] output that
reads indices[n, w] and tensor.extracts values[n, indices[n, w], c]. (SCATTER, which updates a
tensor in place, is tosa-to-scf's.)
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import tensor
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.scatter_gather import GatherOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering.preconditions import DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg.common import clamped_index, index


def lower_gather(op: GatherOp) -> None:
    values, indices = op.values, op.indices
    n, k, c = lb.dims_of(values)  # K and C static (DYNAMIC below)
    out_shape = lb.dims_of(op.output)
    elem = lb.element_type(values)

    def body(b: Builder, args):
        kk = clamped_index(b, args[0], k)  # out-of-range: REQUIRE, never a wild read
        v = b.insert(tensor.ExtractOp(values, [index(b, 0), kk, index(b, 2)], elem)).result
        return [v]

    ops: list[Operation] = []
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

# GATHER: N and W may be dynamic (upstream's gather_float_dyn); K stays static (it bounds the
# clamped data-dependent index), and so does C
DYNAMIC: dict[type[Operation], DynamicDims] = {GatherOp: DynamicDims(
    "N and W (values dim 0, indices dims 0 and 1, output dims 0 and 1)",
    {("operand", 0): frozenset({0}), ("operand", 1): frozenset({0, 1}), ("result", 0): frozenset({0, 1})})}
