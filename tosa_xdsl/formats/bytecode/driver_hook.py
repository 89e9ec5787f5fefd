"""tosa-opt / tosa-run glue: bytecode input recognised by its magic, bytecode output.

Kept out of tools/ so the drivers only gain a few dispatch lines (the content-sniffing
loader, tosa_xdsl/formats/loader.py, is another helper's piece and can call
read_bytecode directly).

Bytecode output goes through the driver's text path: `bytecode_as_text` returns the bytes
as a latin-1 string (a lossless byte <-> code point map) and `BinarySink` writes such
strings back as bytes, so --split-input-file, -o and stdout work unchanged.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from .stream import MAGIC

NOT_MLIR = "not MLIR text or MLIR bytecode"


# Control characters never found in MLIR text (tab, newlines, form feed and ESC allowed);
# the same rule as the content-sniffing loader (tosa_xdsl/formats/loader.py): invalid
# UTF-8 alone still counts as text, the parser reports it where it matters.
_BINARY_BYTES = bytes(b for b in range(32) if b not in b"\t\n\r\x0c\x1b")


def looks_binary(data: bytes) -> bool:
    """Input that is neither bytecode nor text (never echo it back)."""
    return len(data.translate(None, _BINARY_BYTES)) != len(data)


def is_bytecode_or_binary(data: bytes) -> bool:
    return data[:4] == MAGIC or looks_binary(data)


def load(name: str, data: bytes, ctx: Any):
    """The module, or None after printing one `file: error: ...` line."""
    from . import BytecodeError, read_bytecode

    if data[:4] != MAGIC:
        sys.stderr.write(f"{name}: error: {NOT_MLIR}\n")
        return None
    try:
        return read_bytecode(data, ctx, name)
    except BytecodeError as err:
        sys.stderr.write(f"{name}: error: {err}\n")
        return None


def run_driver(driver: Any, data: bytes, out: TextIO) -> int:
    """tosa-opt's Driver.run for bytecode (or unrecognised binary) input."""
    from tosa_xdsl.diagnostics import DiagnosticEngine, Loc

    module = load(driver.name, data, driver.ctx)
    if module is None:
        return 1
    engine = DiagnosticEngine(driver._handle)  # noqa: SLF001
    engine.fallback = Loc(driver.name, 1, 1)
    with engine.activate():
        ok = driver.args.disable_verify or driver._verify(engine, module)  # noqa: SLF001
        ok = ok and driver._apply_passes(engine, module)  # noqa: SLF001
        engine.flush()
        text = driver._print(engine, module) if ok else None  # noqa: SLF001
        engine.flush()
    if text is None:
        return 1
    out.write(text)
    return 1 if driver.failed else 0


def bytecode_as_text(driver: Any, engine: Any, module: Any) -> str | None:
    """Driver._print for --emit-bytecode."""
    from tosa_xdsl.diagnostics import op_loc

    from . import write_bytecode

    try:
        data = write_bytecode(module, driver.args.emit_bytecode_version)
    except Exception as err:  # an attribute we cannot encode, a bad version
        driver._error(engine, op_loc(module), f"cannot emit bytecode: {err}")  # noqa: SLF001
        engine.flush()
        return None
    return data.decode("latin-1")


class BinarySink:
    """A text stream stand-in that writes latin-1 strings as the bytes they encode."""

    def __init__(self, out: TextIO):
        self._out = out
        out.flush()
        self._buffer = out.buffer  # pyright: ignore[reportAttributeAccessIssue]

    def write(self, text: str) -> int:
        self._buffer.write(text.encode("latin-1", errors="replace"))
        return len(text)

    def flush(self) -> None:
        self._buffer.flush()

    def close(self) -> None:
        self._out.close()


def load_for_run(name: str, data: bytes, passes: list[Any]) -> Any:
    """tosa-run's load_module for bytecode input: read, verify, apply `passes`."""
    from tosa_xdsl.context import make_context
    from tosa_xdsl.tools import tosa_opt, tosa_run

    ctx = make_context()
    module = load(name, data, ctx)
    if module is None:
        return None
    sources: dict[str, Any] = {}
    engine, failed = tosa_run._diagnostic_engine(name, sources)  # noqa: SLF001
    driver = tosa_opt.Driver(tosa_run._driver_args(name), passes, ctx)  # noqa: SLF001
    driver.sources = sources
    with engine.activate():
        ok = driver._verify(engine, module) and driver._apply_passes(engine, module)  # noqa: SLF001
        engine.flush()
    if not ok or failed:
        return None
    return tosa_run.Loaded(module, sources, ctx)
