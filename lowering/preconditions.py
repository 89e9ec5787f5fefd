"""What every lowering pass says when it cannot lower an op, and the checks they share: one
message format (`<pass>: cannot lower '<op>': <reason>`, a located error), static shapes
(required until shape inference handles dynamic dims), an axis within the rank."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.ir.types import ShapeType


def cannot_lower(pass_name: str, op: Operation, reason: str) -> LocatedError:
    """The located error a pass raises for an op it cannot lower; passes bind their name:
    `fail = partial(cannot_lower, PASS)`."""
    return LocatedError(op, f"{pass_name}: cannot lower '{op.name}': {reason}")


def checked_axis(op: Operation, axis: int, rank: int, pass_name: str) -> int:
    """`axis` if it indexes a dimension of a rank-`rank` tensor (the verifier's ERROR_IF
    guarantees it for verified IR; this keeps --disable-verify input from crashing a pass)."""
    if not 0 <= axis < rank:
        raise cannot_lower(pass_name, op, f"axis {axis} is out of range for rank {rank}")
    return axis


def require_static(op: Operation, pass_name: str) -> None:
    """Every tensor operand and result of `op` is ranked with static dims, or a located error."""
    for kind, values in (("operand", op.operands), ("result", op.results)):
        for i, v in enumerate(values):
            t = v.type
            if isinstance(t, ShapeType):
                continue
            if not isinstance(t, TensorType):
                if "tensor" in str(t):
                    raise cannot_lower(pass_name, op, f"{kind} #{i} is an unranked tensor ({t}); "
                                       "static shapes are required")
                continue
            if any(int(d) < 0 for d in t.get_shape()):
                raise cannot_lower(pass_name, op, f"{kind} #{i} has a dynamic dimension ({t}); "
                                   "static shapes are required")
