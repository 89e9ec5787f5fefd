"""Registry of the spec's ERROR_IF checks, keyed by condition id.

A condition id names one ERROR_IF statement of the spec as tosa_xdsl.spec_tables lists it:
`"CONV2D#3"` is the third ERROR_IF in CONV2D's pseudocode (1-based, spec order), and
`"broadcast_shape#1"` the first in the chapter-4 helper of that name. Checks register with

    @spec_check(Conv2DOp, "CONV2D#3", "CONV2D#4")
    def _conv_strides(op): ...   # raise VerifyException(message in the user's terms)

which hooks them into the op's verifier (tosa_xdsl.dialects.tosa.ops.base.TosaOp.verify_) and records which
conditions they decide, for docs/error-if.md and the coverage test. A negative lit test marks
the condition it exercises with a comment `// ERROR_IF: CONV2D#3` before its expected-error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.irdl import IRDLOperation

from tosa_xdsl.dialects.tosa.ops.base import error_if_check


@dataclass(frozen=True)
class RegisteredCheck:
    condition_ids: tuple[str, ...]
    op_types: tuple[type[IRDLOperation], ...]
    function: Callable[[IRDLOperation], None]


CHECKS: list[RegisteredCheck] = []


def spec_check(op_types: type[IRDLOperation] | tuple[type[IRDLOperation], ...], *condition_ids: str):
    """Register `fn(op)` as the check of the ERROR_IF conditions `condition_ids` on `op_types`."""
    if not isinstance(op_types, tuple):
        op_types = (op_types,)

    def register(fn: Callable[[IRDLOperation], None]):
        error_if_check(*op_types)(fn)
        CHECKS.append(RegisteredCheck(tuple(condition_ids), op_types, fn))
        return fn

    return register


def checked_condition_ids() -> set[str]:
    return {cid for check in CHECKS for cid in check.condition_ids}
