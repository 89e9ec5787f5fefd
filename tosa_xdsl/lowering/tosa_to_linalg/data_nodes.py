"""`tosa-to-linalg` for spec 2.14.2 IDENTITY: the result is the operand itself, so the op is
replaced by its input and no linalg op is built. (2.14.1 CONST is tosa-to-arith's.)
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.data_nodes import IdentityOp
from tosa_xdsl.lowering.tosa_to_linalg.common import fail


def lower_identity(op: IdentityOp) -> None:
    if op.input1.type != op.output.type:
        raise fail(op, f"input type {op.input1.type} differs from the result type {op.output.type}")
    Rewriter.replace_op(op, [], [op.input1])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {IdentityOp: lower_identity}
