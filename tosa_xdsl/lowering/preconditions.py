"""What every lowering pass says when it cannot lower an op, and the checks they share: one
message format (`<pass>: cannot lower '<op>': <reason>`, a located error), static shapes
(required until shape inference handles dynamic dims), an axis within the rank."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from types import ModuleType

from xdsl.dialects.builtin import TensorType, UnrankedTensorType
from xdsl.ir import Operation, SSAValue

from tosa_xdsl.diagnostics import LocatedError

Lowering = Callable[[Operation], None]


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
            if isinstance(t, UnrankedTensorType):
                raise cannot_lower(pass_name, op, f"{kind} #{i} is an unranked tensor ({t}); "
                                   "static shapes are required")
            if isinstance(t, TensorType) and any(int(d) < 0 for d in t.get_shape()):
                raise cannot_lower(pass_name, op, f"{kind} #{i} has a dynamic dimension ({t}); "
                                   "static shapes are required")


def static_shape(op: Operation, value: SSAValue, what: str, pass_name: str) -> tuple[int, ...]:
    """The static shape of `value` (`what` names it in the error), a ranked tensor of `op`."""
    t = value.type
    if not isinstance(t, TensorType):
        raise cannot_lower(pass_name, op, f"{what} must be a ranked tensor, got {t}")
    shape = tuple(int(d) for d in t.get_shape())
    if any(d < 0 for d in shape):
        raise cannot_lower(pass_name, op, f"{what} has a dynamic dimension ({t}); static shapes are required")
    return shape


def collect_lowerings(package: ModuleType) -> dict[type[Operation], Lowering]:
    """The union of the `LOWERINGS` tables ({op class: lowering}) of every module in a
    conversion package, found by listing the package: a new per-chapter module needs no
    registration anywhere. Two modules lowering the same op is a programming error."""
    table: dict[type[Operation], Lowering] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for op_class, lowering in getattr(module, "LOWERINGS", {}).items():
            assert op_class not in table, f"{op_class.__name__} lowered twice in {package.__name__}"
            table[op_class] = lowering
    return table
