"""A progress line for long work (lowering a big model, LLVM compilation) on a terminal.

    with progress.reporting("tosa-run", enabled=not args.quiet):
        ...                                   # anywhere below, in any module:
        progress.stage("lowering", "convert-to-llvm", done=12, total=25)

One line on stderr, rewritten in place (`\\r` + erase to end of line), erased when the block
ends. It is shown only when stderr is a terminal and the caller did not ask for quiet, so
pipes, files, CI logs and tests see nothing; outside `reporting` (library use) every call is
a no-op costing one global read. Updates are throttled (at most ~10 a second) so reporting
never costs measurable time.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

_MIN_INTERVAL = 0.1  # seconds between two redraws


class _Line:
    def __init__(self, prog: str, stream: IO[str]):
        self.prog = prog
        self.stream = stream
        self.last = 0.0
        self.shown = False

    def show(self, text: str, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < _MIN_INTERVAL:
            return
        self.last = now
        try:
            self.stream.write(f"\r\x1b[K{self.prog}: {text}")
            self.stream.flush()
            self.shown = True
        except (OSError, ValueError):  # a closed or broken terminal: stop reporting
            global _current
            _current = None

    def clear(self) -> None:
        if self.shown:
            try:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            except (OSError, ValueError):
                pass


_current: _Line | None = None


def is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


@contextmanager
def reporting(prog: str, enabled: bool = True, stream: IO[str] | None = None) -> Iterator[None]:
    """Show progress lines inside the block when `enabled` and `stream` (stderr by default)
    is a terminal; the line is erased on exit, whatever happens."""
    global _current
    to_stderr = stream is None
    stream = sys.stderr if stream is None else stream
    saved, saved_stderr = _current, sys.stderr
    _current = _Line(prog, stream) if enabled and is_terminal(stream) else None
    if _current is not None and to_stderr:
        sys.stderr = _ClearingStream(stream, _current)  # diagnostics start on a clean line
    try:
        yield
    finally:
        if _current is not None:
            _current.clear()
        _current = saved
        sys.stderr = saved_stderr


class _ClearingStream:
    """stderr while a progress line may be shown: a write erases the line first, so an
    error or warning printed mid-way is not glued to the progress text."""

    def __init__(self, stream: IO[str], line: _Line):
        self._stream = stream
        self._line = line

    def write(self, text: str) -> int:
        if self._line.shown:
            self._line.clear()
            self._line.shown = False
        return self._stream.write(text)

    def __getattr__(self, name: str):  # flush, isatty, fileno, buffer, ...
        return getattr(self._stream, name)


def active() -> bool:
    return _current is not None


def stage(phase: str, name: str = "", done: int | None = None, total: int | None = None,
          force: bool = False) -> None:
    """Report `phase` (e.g. "lowering"), the step inside it and how far it is."""
    line = _current
    if line is None:
        return
    text = phase
    if done is not None and total:
        text += f" [{done}/{total}]"
    if name:
        text += f" {name}"
    line.show(text, force)


def fraction(phase: str, name: str, done: int, total: int) -> None:
    """Report a step's percentage (e.g. functions converted so far)."""
    line = _current
    if line is None or total <= 0:
        return
    line.show(f"{phase} {name} {100 * done // total}%")
