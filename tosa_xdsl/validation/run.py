"""Walk a module and run every validation check on every TOSA op (see __init__)."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_xdsl.diagnostics import emit_error, emit_warning
from tosa_xdsl.validation import ctc, levels, profiles, requires
from tosa_xdsl.validation.target import Target


# ARGMAX's REQUIRE warning says the index *may* not fit out_t (it depends on the data).
_DATA_DEPENDENT_REQUIRES = frozenset({"ARGMAX"})


def validate_module(module: Operation, target: Target, check_types: bool = True,
                    strict: bool = False) -> int:
    """Emit located diagnostics for every violation (all of them, not just the first);
    returns the number of errors. REQUIREs that constants decide are warnings, or errors when
    `strict` (tosa-validate's strict-op-spec-alignment: upstream rejects such graphs there,
    e.g. a MUL shift outside [0, 63] or SCATTER's repeated constant indices)."""
    errors = 0
    for op in module.walk():
        if not op.name.startswith("tosa."):
            continue

        def fail(message: str, op: Operation = op) -> None:
            nonlocal errors
            errors += 1
            emit_error(op, message if message.startswith("'") else f"'{op.name}' op {message}")

        levels.check_op(op, target, fail)
        profiles.check_op(op, target, fail, check_types)
        ctc.check_op(op, target, fail)
        def require(message: str, op: Operation = op) -> None:
            if strict and getattr(op, "SPEC_NAME", "") not in _DATA_DEPENDENT_REQUIRES:
                fail(message, op)
            else:
                emit_warning(op, message)

        requires.check_op(op, require)
    return errors
