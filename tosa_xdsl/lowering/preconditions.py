"""What every lowering pass says when it cannot lower an op, and the checks they share: one
message format (`<pass>: cannot lower '<op>': <reason>`, a located error), static shapes
(except the dynamic dims a lowering declares it handles: `DynamicDims`), an axis within the rank."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class DynamicDims:
    """Which dynamic (`?`) dims an op's lowering handles (EXT-DYNAMIC): `dims` maps
    ("operand" | "result", index) to the dim positions that may be dynamic (None: all of that
    value's dims); `dims` None = every dim of every operand and result. `where` says it in
    words (diagnostics, docs/lowering.md)."""

    where: str
    dims: Mapping[tuple[str, int], frozenset[int] | None] | None = None

    def allows(self, kind: str, index: int, dim: int) -> bool:
        if self.dims is None:
            return True
        allowed = self.dims.get((kind, index), frozenset())
        return allowed is None or dim in allowed


EVERY_DIM = DynamicDims("every dimension")


def require_static(op: Operation, pass_name: str, dynamic: DynamicDims | None = None) -> None:
    """Every tensor operand and result of `op` is ranked, with static dims except where its
    lowering handles dynamic ones (`dynamic`), or a located error naming the operand."""
    for kind, values in (("operand", op.operands), ("result", op.results)):
        for i, v in enumerate(values):
            t = v.type
            if isinstance(t, UnrankedTensorType):
                raise cannot_lower(pass_name, op, f"{kind} #{i} is an unranked tensor ({t}); "
                                   "static shapes are required")
            if not isinstance(t, TensorType):
                continue
            for d, size in enumerate(t.get_shape()):
                if int(size) >= 0 or (dynamic is not None and dynamic.allows(kind, i, d)):
                    continue
                if dynamic is None:
                    raise cannot_lower(pass_name, op, f"{kind} #{i} has a dynamic dimension ({t}); "
                                       "static shapes are required")
                raise cannot_lower(pass_name, op, f"{kind} #{i} has a dynamic dimension {d} ({t}); "
                                   f"'{op.name}' lowers dynamic sizes only in {dynamic.where}")


def collect_dynamic(package: ModuleType) -> dict[type[Operation], DynamicDims]:
    """The union of the `DYNAMIC` tables ({op class: DynamicDims}) of a conversion package's
    modules: the operators whose lowering handles dynamic dims, and which."""
    table: dict[type[Operation], DynamicDims] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        table.update(getattr(module, "DYNAMIC", {}))
    return table


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
