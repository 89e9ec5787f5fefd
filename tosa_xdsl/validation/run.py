"""Walk a module and run every validation check on every TOSA op (see __init__)."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_xdsl.diagnostics import emit_error, emit_warning
from tosa_xdsl.validation import ctc, levels, profiles, requires
from tosa_xdsl.validation.target import Target


def validate_module(module: Operation, target: Target, check_types: bool = True) -> int:
    """Emit located diagnostics for every violation (all of them, not just the first);
    returns the number of errors."""
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
        requires.check_op(op, lambda message, op=op: emit_warning(op, message))
    return errors
