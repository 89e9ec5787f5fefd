"""`tosa-to-linalg-named` for spec 2.10.7 TRANSPOSE: tensor.empty + linalg.transpose (the
other 2.10 data-layout operators are tosa-to-tensor's and tosa-to-linalg's).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.data_layout import TransposeOp
from tosa_xdsl.lowering.linalg_build import dims_of
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg_named.common import fail, int_array, transposed


def lower_transpose(op: TransposeOp) -> None:
    """Spec 2.10.7: output[index] = input1[perms applied to index] = linalg.transpose."""
    perms = int_array(op, "perms")
    rank = len(dims_of(op.input1))
    if sorted(perms) != list(range(rank)):
        raise fail(op, f"perms {perms} is not a permutation of rank {rank}")
    new_ops: list[Operation] = []
    out = transposed(op.input1, perms, new_ops)
    Rewriter.replace_op(op, new_ops, [out])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {TransposeOp: lower_transpose}

DYNAMIC: dict[type[Operation], DynamicDims] = {TransposeOp: EVERY_DIM}
