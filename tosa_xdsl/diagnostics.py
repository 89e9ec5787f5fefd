"""Located diagnostics (`file:line:col: error: ...`) and MLIR-style `--verify-diagnostics`.

xDSL's own diagnostics carry no source location and stop at the first error; this module is
what verifiers, passes and the `tosa-opt` driver share instead.

Emitting (from a verifier, a pass, a helper)
-------------------------------------------
    from tosa_xdsl.diagnostics import emit_error, emit_warning, emit_remark, emit_note

    emit_warning(op, "REQUIRE(...) violated: ...")          # non-fatal, located at `op`
    d = emit_remark(op, "folded")                           # returns the Diagnostic ...
    d.attach_note(other_op, "operand defined here")         # ... so notes can be added
    emit_error(op, "bad", notes=[(op2, "see this")])        # an error that does not raise

`at` may be an Operation (its `location`; ops without one, e.g. made by a pass, use their
nearest located ancestor), an xDSL location attribute, a `Loc`, or None (unknown location).
The messages go to the *active* `DiagnosticEngine` (a context variable, so each driver
run / thread has its own); `tosa-opt` activates one per input chunk and prints what it
collects after every op verification and pass, located and with the source line, or checks
it against `// expected-*` comments. With no active engine, diagnostics are printed to
stderr right away (so `attach_note` after emission has no effect there: pass `notes=`).
`with capture_diagnostics() as diags:` collects them into a list instead (for tests and
library use). Emitted errors make `tosa-opt` exit 1 exactly as a raised exception does.

To fail verification with an error located at an op other than the one being verified,
or with notes, raise `LocatedError(op, msg, notes=[...])` (a VerifyException). Any other
VerifyException raised while verifying op X is located at X by the driver.

Checking (`--verify-diagnostics`)
---------------------------------
`parse_expectations(text, line_offset)` reads MLIR's `// expected-(error|warning|note|remark)
[-re] [@+N|@-N|@above|@below|@unknown] {{text}}` comments, one per line, exactly as mlir-opt
does (the text is everything up to the last `}}` on the line; `@above`/`@below` skip lines
that themselves hold an expectation). `Verifier.process(diag)` matches a produced diagnostic
(and its notes) against them with mlir-opt's rules: same line, substring (or `-re` regex)
match, first matching expectation wins; a match of the wrong severity is a "near miss".
`Verifier.finish()` reports expectations never produced. Messages are mlir-opt's wording.
"""

from __future__ import annotations

import enum
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from xdsl.utils.exceptions import VerifyException

if TYPE_CHECKING:
    from xdsl.ir import Attribute, Operation


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"
    REMARK = "remark"


@dataclass(frozen=True)
class Loc:
    """A resolved source position; line and column are 1-based (MLIR's convention)."""

    file: str
    line: int
    col: int


@dataclass
class Diagnostic:
    severity: Severity
    message: str
    loc: Loc | None  # None: unknown location
    notes: list[Diagnostic] = field(default_factory=list)

    def attach_note(self, at: Any, message: str) -> Diagnostic:
        """Add a note (shown after this diagnostic); `at` as for `emit_*`, None = same place."""
        note = Diagnostic(Severity.NOTE, message, self.loc if at is None else resolve_loc(at))
        self.notes.append(note)
        return self


# ------------------------------------------------------------------------------ locations


def _loc_from_attr(attr: Attribute) -> Loc | None:
    # Imported here: the builtin dialect is heavy and this module is imported at start-up.
    from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc

    if isinstance(attr, FileLineColLoc):
        return Loc(attr.filename.data, attr.line.data, attr.column.data)
    if isinstance(attr, NameLoc):
        return _loc_from_attr(attr.location)
    if isinstance(attr, CallSiteLoc):
        return _loc_from_attr(attr.callee)
    if isinstance(attr, FusedLoc):
        for sub in attr.locations.data:  # pyright: ignore[reportAttributeAccessIssue]
            if (loc := _loc_from_attr(sub)) is not None:
                return loc
    return None


def op_loc(op: Operation) -> Loc | None:
    """The location of `op`, or of its nearest located ancestor (ops made by passes)."""
    current: Operation | None = op
    while current is not None:
        if (loc := _loc_from_attr(current.location)) is not None:
            return loc
        current = current.parent_op()
    return None


def resolve_loc(at: Any) -> Loc | None:
    """`at` (Operation, location attribute, Loc or None) as a Loc; falls back to the active
    engine's `fallback` (the driver sets it to the op being processed / the chunk start)."""
    from xdsl.ir import Attribute, Operation

    loc: Loc | None = None
    if isinstance(at, Loc):
        loc = at
    elif isinstance(at, Operation):
        loc = op_loc(at)
    elif isinstance(at, Attribute):
        loc = _loc_from_attr(at)
    if loc is None and (engine := _active.get()) is not None:
        loc = engine.fallback
    return loc


# ------------------------------------------------------------------------------- emitting


class LocatedError(VerifyException):
    """A verification/pass error located at a given op (or location), with optional notes."""

    def __init__(self, at: Any, message: str, notes: Sequence[tuple[Any, str]] = ()):
        super().__init__(message)
        self.at = at
        self.notes = list(notes)

    def to_diagnostic(self) -> Diagnostic:
        diag = Diagnostic(Severity.ERROR, str(self), resolve_loc(self.at))
        for at, msg in self.notes:
            diag.attach_note(at, msg)
        return diag


class DiagnosticEngine:
    """Collects diagnostics; `flush()` hands the pending ones to `handler` in emission order.

    Identical diagnostics (severity, location, message) are reported once per engine: the
    driver re-verifies after every pass, and a verifier warning must not repeat each time.
    """

    def __init__(self, handler: Callable[[Diagnostic], None] | None = None):
        self.handler = handler
        self.pending: list[Diagnostic] = []
        self.error_count = 0
        self.fallback: Loc | None = None
        self._seen: set[tuple[Severity, Loc | None, str]] = set()

    def emit(self, diag: Diagnostic) -> Diagnostic:
        key = (diag.severity, diag.loc, diag.message)
        if key in self._seen:
            return diag
        self._seen.add(key)
        if diag.severity is Severity.ERROR:
            self.error_count += 1
        self.pending.append(diag)
        return diag

    def flush(self) -> None:
        pending, self.pending = self.pending, []
        if self.handler is not None:
            for diag in pending:
                self.handler(diag)

    @contextmanager
    def activate(self) -> Iterator[DiagnosticEngine]:
        """Make this the engine `emit_*` report to, for the duration of the block."""
        token = _active.set(self)
        try:
            yield self
        finally:
            _active.reset(token)


_active: ContextVar[DiagnosticEngine | None] = ContextVar("tosa_diagnostic_engine", default=None)


def active_engine() -> DiagnosticEngine | None:
    return _active.get()


def _emit(severity: Severity, at: Any, message: str, notes: Sequence[tuple[Any, str]]) -> Diagnostic:
    diag = Diagnostic(severity, message, resolve_loc(at))
    for note_at, note_msg in notes:
        diag.attach_note(note_at, note_msg)
    engine = _active.get()
    if engine is None:
        print_diagnostic(diag, sys.stderr)
        return diag
    return engine.emit(diag)


def emit_error(at: Any, message: str, notes: Sequence[tuple[Any, str]] = ()) -> Diagnostic:
    return _emit(Severity.ERROR, at, message, notes)


def emit_warning(at: Any, message: str, notes: Sequence[tuple[Any, str]] = ()) -> Diagnostic:
    return _emit(Severity.WARNING, at, message, notes)


def emit_remark(at: Any, message: str, notes: Sequence[tuple[Any, str]] = ()) -> Diagnostic:
    return _emit(Severity.REMARK, at, message, notes)


def emit_note(at: Any, message: str) -> Diagnostic:
    return _emit(Severity.NOTE, at, message, ())


@contextmanager
def capture_diagnostics() -> Iterator[list[Diagnostic]]:
    """Collect every diagnostic emitted inside the block into the yielded list."""
    collected: list[Diagnostic] = []
    engine = DiagnosticEngine(collected.append)
    with engine.activate():
        try:
            yield collected
        finally:
            engine.flush()


# ------------------------------------------------------------------------------- printing


class SourceFile:
    """The text of one input, with a newline table for O(log n) offset -> line/col."""

    # LLVM's SourceMgr does not echo very long lines either.
    MAX_ECHO = 4096

    def __init__(self, name: str, text: str):
        import bisect

        self.name = name
        self.text = text
        self._bisect = bisect.bisect_right
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self.line_starts = starts
        self._ascii = text.isascii()

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and (byte) column of a character offset."""
        line = self._bisect(self.line_starts, offset)
        start = self.line_starts[line - 1]
        if self._ascii:
            return line, offset - start + 1
        return line, len(self.text[start:offset].encode("utf-8", "replace")) + 1

    def line_text(self, line: int) -> str | None:
        if not 1 <= line <= len(self.line_starts):
            return None
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.text)
        return self.text[start:end].rstrip("\r")


def _caret_line(source: str, col: int, width: int) -> str:
    # Keep tabs so the caret lines up in a terminal; columns are bytes (MLIR's convention).
    raw = source.encode("utf-8", "replace")[: max(col - 1, 0)].decode("utf-8", "replace")
    prefix = "".join(c if c == "\t" else " " for c in raw)
    return prefix + "^" + "~" * max(width - 1, 0)


_CONTROLS = {c: "?" for c in range(32) if c != 9} | {127: "?"}


def format_diagnostic(
    severity: str,
    message: str,
    loc: Loc | None,
    sources: dict[str, SourceFile] | None = None,
    show_source: bool = True,
    underline: int = 1,
) -> str:
    """One diagnostic as mlir-opt prints it: `file:line:col: severity: message`, then the
    source line and a caret when the location is in a known input."""
    if loc is None:
        return f"<unknown>:0: {severity}: {message}\n"
    out = f"{loc.file}:{loc.line}:{loc.col}: {severity}: {message}\n"
    if show_source and sources is not None and (src := sources.get(loc.file)) is not None:
        line = src.line_text(loc.line)
        if line is not None and len(line) <= SourceFile.MAX_ECHO:
            # control characters (a stray byte in a text file) are shown as '?', never echoed raw
            line = line.translate(_CONTROLS)
            out += line + "\n" + _caret_line(line, loc.col, underline) + "\n"
    return out


def print_diagnostic(
    diag: Diagnostic, stream: TextIO, sources: dict[str, SourceFile] | None = None
) -> None:
    """Print a diagnostic and its notes; a note at the same place as its diagnostic does not
    repeat the source line (as mlir-opt)."""
    text = format_diagnostic(diag.severity.value, diag.message, diag.loc, sources)
    for note in diag.notes:
        text += format_diagnostic(
            note.severity.value, note.message, note.loc, sources, show_source=note.loc != diag.loc
        )
    stream.write(text)


# --------------------------------------------------------------------- verify-diagnostics

# mlir's SourceMgrDiagnosticVerifierHandler regex, applied to each (right-trimmed) line.
_EXPECTED = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$"
)


@dataclass
class Expectation:
    severity: Severity
    text: str
    line: int  # the line the diagnostic is expected on (0 for @unknown)
    unknown: bool  # @unknown: matches diagnostics without a location in this file
    at: Loc  # where the `expected-...` comment is (for "was not produced")
    regex: re.Pattern[str] | None = None
    matched: bool = False

    def matches(self, message: str) -> bool:
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message


def _compile_re(text: str) -> re.Pattern[str]:
    """`-re` text: literal except `{{regex}}` parts (as mlir)."""
    parts: list[str] = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start == -1:
            parts.append(re.escape(rest))
            break
        end = rest.find("}}", start + 2)
        if end == -1:
            parts.append(re.escape(rest))
            break
        parts.append(re.escape(rest[:start]))
        parts.append("(?:" + rest[start + 2 : end] + ")")
        rest = rest[end + 2 :]
    return re.compile("".join(parts))


class ExpectationError(Exception):
    """A malformed expectation (e.g. an invalid `-re` regex), with where it is."""

    def __init__(self, loc: Loc, message: str):
        super().__init__(message)
        self.loc = loc


def parse_expectations(text: str, file: str, line_offset: int = 0) -> list[Expectation]:
    """The `// expected-*` comments of one chunk; line numbers are `line_offset` + chunk line."""
    found: list[Expectation] = []
    below: list[Expectation] = []
    last_plain_line = line_offset  # the previous line without an expectation (for @above)
    if "expected-" not in text:  # the common case for positive tests: skip the line loop
        return found
    for index, raw in enumerate(text.split("\n")):
        lineno = line_offset + index + 1
        line = raw.rstrip()
        m = _EXPECTED.search(line) if "expected-" in line else None
        if m is None:
            for exp in below:
                exp.line = lineno
            below.clear()
            last_plain_line = lineno
            continue
        kind, is_re, _, designator, body = m.groups()
        at = Loc(file, lineno, len(line[: m.start()].encode("utf-8", "replace")) + 1)
        exp = Expectation(Severity(kind), body, lineno, False, at)
        if is_re:
            try:
                exp.regex = _compile_re(body)
            except re.error as err:
                raise ExpectationError(at, f"invalid regex '{body}' in 'expected-{kind}-re': {err}")
        if designator == "unknown":
            exp.unknown, exp.line = True, 0
        elif designator == "above":
            exp.line = last_plain_line
        elif designator == "below":
            below.append(exp)
        elif designator:
            exp.line = lineno + int(designator)
        found.append(exp)
    return found


class Verifier:
    """MLIR's expected-diagnostic checking over all chunks of one input file."""

    def __init__(self, file: str, sources: dict[str, SourceFile], out: TextIO):
        self.file = file
        self.sources = sources
        self.out = out
        self.expectations: list[Expectation] = []  # all chunks, for the final report
        self.current: list[Expectation] = []  # the chunk being processed
        self.failed = False

    def start_chunk(self, expectations: list[Expectation]) -> None:
        """Diagnostics from now on match only these (each split chunk is its own buffer)."""
        self.current = expectations
        self.expectations.extend(expectations)

    def _report(self, loc: Loc | None, message: str, underline: int = 1) -> None:
        self.failed = True
        self.out.write(format_diagnostic("error", message, loc, self.sources, underline=underline))

    def process(self, diag: Diagnostic) -> None:
        self._process_one(diag.severity, diag.message, diag.loc)
        for note in diag.notes:
            self._process_one(note.severity, note.message, note.loc)

    def _process_one(self, severity: Severity, message: str, loc: Loc | None) -> None:
        in_file = loc is not None and loc.file == self.file
        near_miss: Expectation | None = None
        for exp in self.current:
            if (exp.unknown if not in_file else (not exp.unknown and exp.line == loc.line)) and exp.matches(  # pyright: ignore[reportOptionalMemberAccess]
                message
            ):
                if exp.severity is severity:
                    exp.matched = True
                    return
                near_miss = exp
        if near_miss is not None:
            self._report(
                near_miss.at,
                f"'{severity.value}' diagnostic emitted when expecting a '{near_miss.severity.value}'",
            )
        else:
            self._report(loc, f"unexpected {severity.value}: {message}")

    def finish(self) -> bool:
        """Report expectations that were never produced; True if everything matched."""
        # mlir-opt lists @unknown expectations after the located ones.
        for exp in sorted(self.expectations, key=lambda e: e.unknown):
            if not exp.matched:
                msg = f'expected {exp.severity.value} "{exp.text}" was not produced'
                if exp.unknown:
                    self._report(None, msg)
                else:
                    self._report(exp.at, msg, underline=len(exp.text))
        return not self.failed
