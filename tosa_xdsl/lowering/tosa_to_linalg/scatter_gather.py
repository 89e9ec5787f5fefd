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
from tosa_xdsl.lowering.tosa_to_linalg.common import clamped_index, index


def lower_gather(op: GatherOp) -> None:
    values, indices = op.values, op.indices
    n, k, c = lb.shape_of(values)
    out_shape = lb.shape_of(op.output)
    elem = lb.element_type(values)

    def body(b: Builder, args):
        kk = clamped_index(b, args[0], k)  # out-of-range: REQUIRE, never a wild read
        v = b.insert(tensor.ExtractOp(values, [index(b, 0), kk, index(b, 2)], elem)).result
        return [v]

    init = lb.empty(out_shape, elem)
    gen = lb.generic([indices], [init.tensor], [lb.map_of(3, [0, 1]), lb.identity(3)], lb.parallel(3), body)
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {GatherOp: lower_gather}
