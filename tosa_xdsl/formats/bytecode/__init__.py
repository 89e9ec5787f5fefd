"""MLIR bytecode (`ML\\xefR`) reading and writing; see docs/bytecode.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .stream import MAGIC, BytecodeError

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp


def is_bytecode(data: bytes) -> bool:
    return data[:4] == MAGIC


def read_bytecode(data: bytes, ctx: Context, filename: str = "<bytecode>") -> ModuleOp:
    """Read MLIR bytecode; raises BytecodeError (`.message`, `.offset`) on bad input."""
    from .reader import read_bytecode as _read

    return _read(data, ctx, filename)


def write_bytecode(module: ModuleOp, version: int | None = None) -> bytes:
    """MLIR bytecode of `module` (default version: writer.DEFAULT_VERSION)."""
    from .writer import write_bytecode as _write

    return _write(module, version)


__all__ = ["MAGIC", "BytecodeError", "is_bytecode", "read_bytecode", "write_bytecode"]
