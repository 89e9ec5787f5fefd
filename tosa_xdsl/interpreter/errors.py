"""What can stop a run, and how it is reported.

* `TosaRunError`: the graph failed at run time, located at the op that failed.
  - kind "error": a spec ERROR_IF held (numerics.TosaErrorIf): the graph result is
    tosa_error; message `ERROR_IF(<cond>) in 'tosa.x'`.
  - kind "unpredictable": a REQUIRE failed (numerics.TosaUnpredictable): the result is
    tosa_unpredictable; message `graph is unpredictable: REQUIRE(<cond>) failed in 'tosa.x'`.
  - kind "unsupported": no implementation for the op (or a CUSTOM operator nobody
    registered).
  - kind "limit": a loop ran past the interpreter's iteration bound
    (`loop_limit_exceeded`; tosa-run --max-loop-iterations).
  - kind "internal": a bug in an implementation (an unexpected Python exception, or a
    result whose dtype/shape does not match the result type).
* `InputError`: the caller's inputs do not fit the entry function (count, dtype, shape),
  or the entry function does not exist. The CLI reports it as bad usage (exit 2).

`TosaRunError.format()` renders `FILE:LINE:COL: error: message`, the location being the
op's (ops parsed by tosa-opt's/tosa-run's parser carry FileLineColLoc locations).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Operation

    from tosa_xdsl.diagnostics import Loc


# The interpreter refuses to allocate an intermediate tensor of more elements than this (a
# padding of 2**63 with an unranked result type passes the verifier, then numpy raised or the
# allocation took all memory). 2**31 elements is far above any level-8K tensor (2**31 bytes).
MAX_TENSOR_ELEMENTS = 1 << 31


class TensorTooLarge(Exception):
    """An intermediate tensor the run would need exceeds MAX_TENSOR_ELEMENTS."""


def check_tensor_size(shape, what: str) -> None:
    count = 1
    for d in shape:
        count *= max(int(d), 0)
    if count > MAX_TENSOR_ELEMENTS:
        raise TensorTooLarge(f"{what} would hold {count} elements, more than the interpreter's "
                             f"limit of {MAX_TENSOR_ELEMENTS}")


class InputError(Exception):
    """Inputs that do not fit the entry function (bad usage, not a graph failure)."""


class TosaRunError(Exception):
    def __init__(self, kind: str, message: str, op: Operation | None = None,
                 condition: str | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.op = op
        self.condition = condition

    @property
    def loc(self) -> Loc | None:
        if self.op is None:
            return None
        from tosa_xdsl.diagnostics import op_loc

        return op_loc(self.op)

    def format(self, severity: str = "error", sources=None) -> str:
        """`FILE:LINE:COL: severity: message` (plus the source line when `sources` has it)."""
        from tosa_xdsl.diagnostics import format_diagnostic

        return format_diagnostic(severity, self.message, self.loc, sources)

    def __str__(self) -> str:
        return self.format().splitlines()[0]


def op_label(op: Operation) -> str:
    return f"'{op.name}'"


def error_if_failed(op: Operation, condition: str) -> TosaRunError:
    return TosaRunError("error", f"ERROR_IF({condition}) in {op_label(op)}", op, condition)


def require_failed(op: Operation, condition: str) -> TosaRunError:
    return TosaRunError(
        "unpredictable",
        f"graph is unpredictable: REQUIRE({condition}) failed in {op_label(op)}",
        op,
        condition,
    )


def loop_limit_exceeded(op: Operation, limit: int, label: str | None = None) -> TosaRunError:
    """`label`: the loop's name when `op` only marks its place (a branch it was lowered to)."""
    return TosaRunError("limit", f"{label or op_label(op)} did not finish within {limit} iterations "
                        "(the limit is --max-loop-iterations)", op)


class NotImplementedOp(TosaRunError):
    def __init__(self, op: Operation, detail: str | None = None):
        super().__init__("unsupported", detail or f"no interpreter implementation for {op_label(op)}", op)
