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

    def __init__(self, loc: Loc | None, message: str, file: str | None = None):
        super().__init__(message)
        self.loc = loc
        self.message = message
        self.file = file

    def __str__(self) -> str:
        if self.loc is not None:
            return f"{self.loc}: error: {self.message}"
        if self.file:
            return f"{self.file}: error: {self.message}"
        return f"error: {self.message}"
