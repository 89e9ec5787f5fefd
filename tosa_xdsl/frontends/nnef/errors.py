"""Located diagnostics of the NNEF frontend: `file:line:col: error: message`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Loc:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class NnefError(Exception):
    """A syntax, type, shape or assertion error in a SkriptND document, at a source location."""

    def __init__(self, loc: Loc | None, message: str):
        super().__init__(message)
        self.loc = loc
        self.message = message

    def __str__(self) -> str:
        where = str(self.loc) if self.loc is not None else "<nnef>"
        return f"{where}: error: {self.message}"
