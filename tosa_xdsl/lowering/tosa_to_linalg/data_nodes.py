"""`tosa-to-linalg` for spec 2.14.2 IDENTITY: the result is the operand itself, so the op is
replaced by its input and no linalg op is built (a tensor.cast when the two types differ only
in which dims are `?`). (2.14.1 CONST is tosa-to-arith's.)
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import tensor
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.data_nodes import IdentityOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg.common import fail


def lower_identity(op: IdentityOp) -> None:
    src, dst = op.input1.type, op.output.type
    if src == dst:
        Rewriter.replace_op(op, [], [op.input1])
        return
    a, b = lb.dims_of(op.input1), lb.dims_of(op.output)
    if lb.element_type(op.input1) != lb.element_type(op.output) or len(a) != len(b) or any(
            x >= 0 and y >= 0 and x != y for x, y in zip(a, b)):
        raise fail(op, f"input type {src} differs from the result type {dst}")
    Rewriter.replace_op(op, [cast := tensor.CastOp(op.input1, dst)], [cast.dest])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {IdentityOp: lower_identity}

# every dim may be dynamic: the value is forwarded
DYNAMIC: dict[type[Operation], DynamicDims] = {IdentityOp: EVERY_DIM}
