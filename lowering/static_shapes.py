"""Static shapes are required by the lowering (until shape inference handles dynamic dims):
one check, used by every conversion pass, that names the op and the offending value."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.ir.types import ShapeType


def require_static(op: Operation, pass_name: str) -> None:
    """Every tensor operand and result of `op` is ranked with static dims, or a located error."""
    for kind, values in (("operand", op.operands), ("result", op.results)):
        for i, v in enumerate(values):
            t = v.type
            if isinstance(t, ShapeType):
                continue
            if not isinstance(t, TensorType):
                if "tensor" in str(t):
                    raise LocatedError(
                        op, f"{pass_name}: cannot lower '{op.name}': {kind} #{i} is an unranked tensor ({t}); "
                        "static shapes are required"
                    )
                continue
            if any(int(d) < 0 for d in t.get_shape()):
                raise LocatedError(
                    op, f"{pass_name}: cannot lower '{op.name}': {kind} #{i} has a dynamic dimension ({t}); "
                    "static shapes are required"
                )
