"""Recognise an input by its bytes, whatever its file name, and read it into a module.

A small registry of formats: each has a `sniff(data) -> bool` and a loader named by module
path (`"package.module:function"`, imported on first use, so a format whose reader is not
installed costs nothing and fails with one clean line). Loaders have the signature
`load(data: bytes, ctx: Context, filename: str) -> ModuleOp` and raise any exception
whose one-line message is the error (the caller prefixes `<file>: error: `).

Built in: MLIR bytecode (magic `ML\\xefR`; reader `tosa_xdsl.formats.bytecode`), TOSA
flatbuffers (file identifier `TOSA` at bytes 4..8). Other importers register themselves:

    from tosa_xdsl.formats import loader
    loader.register(loader.Format("tflite", "a TFLite flatbuffer",
                                  sniff=lambda d: d[4:8] == b"TFL3",
                                  load="tosa_xdsl.formats.tflite:import_tflite"))

Anything not claimed by a binary format is MLIR text if it decodes as UTF-8 without NUL
bytes; other bytes get `<file>: error: not MLIR text, MLIR bytecode or a TOSA flatbuffer`
(listing the registered formats), never the bytes themselves.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BYTECODE_MAGIC = b"ML\xefR"


class LoadError(Exception):
    """One-line `<file>: error: message` (or `<file>:line:col: error: message`)."""


@dataclass(frozen=True)
class Format:
    name: str  # short id: "bytecode", "tosa", "tflite", "nnef"
    description: str  # for messages: "MLIR bytecode", "a TOSA flatbuffer"
    sniff: Callable[[bytes], bool]
    load: str | Callable[..., Any]  # "module:function" (imported lazily) or a callable
    missing: str = ""  # message when the loader cannot be imported


FORMATS: list[Format] = [
    Format("bytecode", "MLIR bytecode", lambda d: d[:4] == BYTECODE_MAGIC,
           "tosa_xdsl.formats.bytecode:read_bytecode", "MLIR bytecode support not installed"),
    Format("tosa", "a TOSA flatbuffer", lambda d: len(d) >= 8 and d[4:8] == b"TOSA",
           "tosa_xdsl.formats.tosa_flatbuffer:deserialize"),
    # NNEF is text: recognised by its first keyword (SkriptND documents start with version,
    # import, graph, operator or public; MLIR text never does).
    Format("nnef", "an NNEF 2.0 (SkriptND) document", lambda d: _looks_like_nnef(d),
           "tosa_xdsl.frontends.nnef:load_nnef"),
    Format("tflite", "a TFLite flatbuffer", lambda d: len(d) >= 8 and d[4:8] == b"TFL3",
           "tosa_xdsl.frontends.tflite:import_tflite", "TFLite support not installed (pip install tflite)"),
]


def register(fmt: Format) -> None:
    """Add (or replace, by name) a format. Formats are tried in registration order."""
    for i, f in enumerate(FORMATS):
        if f.name == fmt.name:
            FORMATS[i] = fmt
            return
    FORMATS.append(fmt)


def _looks_like_nnef(data: bytes) -> bool:
    from tosa_xdsl.frontends.nnef import looks_like_nnef

    return looks_like_nnef("", bytes(data[:4096]))


def detect(data: bytes) -> Format | None:
    """The binary format claiming `data`, or None (then it is MLIR text or unknown)."""
    for fmt in FORMATS:
        try:
            if fmt.sniff(data):
                return fmt
        except Exception:
            continue
    return None


# Control characters never found in MLIR text (tab, newlines, form feed and ESC allowed).
_BINARY_BYTES = bytes(b for b in range(32) if b not in b"\t\n\r\x0c\x1b")


def is_text(data: bytes) -> bool:
    """MLIR text, as far as the bytes tell: no NUL byte near the start and at most one byte in
    twenty a control character. A binary file (a flatbuffer, bytecode, an .npy, random bytes:
    one byte in ten is a control character) is not; a text file with a stray control
    character is, so the parser reports it at its line and column. Invalid UTF-8 alone (a
    Latin-1 comment) still counts as text."""
    view = memoryview(data).cast("B")
    if b"\0" in bytes(view[:8192]):
        return False
    # counted a chunk at a time: a translated copy of a whole 2 GB hex model was 2 GB more
    chunk = 1 << 20
    controls = 0
    for start in range(0, len(view), chunk):
        part = bytes(view[start : start + chunk])
        controls += len(part) - len(part.translate(None, _BINARY_BYTES))
    return controls * 20 <= len(view)


def unknown_message() -> str:
    names = ["MLIR text"] + [f.description for f in FORMATS]
    listed = ", ".join(names[:-1]) + " or " + names[-1]
    return f"not {listed}"


def _loader(fmt: Format) -> Callable[..., Any]:
    if callable(fmt.load):
        return fmt.load
    module, _, func = fmt.load.partition(":")
    try:
        return getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError):
        raise LoadError(fmt.missing or f"{fmt.description} support not installed") from None


def load_binary(data: bytes, ctx: Any, filename: str) -> Any:
    """The module of a binary input, or None when `data` is MLIR text.

    Raises LoadError(`<file>: error: ...`) for unknown bytes or a reader's failure."""
    fmt = detect(data)
    if fmt is None:
        if is_text(data):
            return None
        raise LoadError(f"{filename}: error: {unknown_message()}")
    try:
        load = _loader(fmt)
        return load(data, ctx, filename)
    except LoadError as err:
        msg = str(err)
        raise LoadError(msg if msg.startswith(f"{filename}:") else f"{filename}: error: {msg}") from None
    except RecursionError:
        raise LoadError(f"{filename}: error: input nested too deeply") from None
    except MemoryError:
        raise LoadError(f"{filename}: error: out of memory") from None
    except Exception as err:  # a reader's own error class: its message is the diagnostic
        text = " ".join(str(err).split()) or type(err).__name__
        if text.startswith(f"{filename}:"):
            raise LoadError(text) from None
        raise LoadError(f"{filename}: error: {text}") from None


def _parse_text(text: str, ctx: Any, filename: str, source: Any = None) -> Any:
    """`source`: the PrescannedSource `text` comes from (tosa_xdsl/formats/prescan.py): the
    dense-literal parsers read its large literals from the file, and its line:column are the
    file's (the text's columns are shifted by the placeholders)."""
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    try:
        parser = Parser(ctx, text, filename)
        if source is not None:
            parser._source = source  # pyright: ignore[reportAttributeAccessIssue]  (ir/dense.py prescanned_literal)
        return parser.parse_module()
    except ParseError as err:
        if source is not None:
            line, col = source.line_col(err.span.start)
        else:
            loc = err.span.get_location()
            line, col = loc.line, loc.col
        raise LoadError(f"{filename}:{line}:{col}: error: {err.msg}") from None
    except RecursionError:
        raise LoadError(f"{filename}: error: input nested too deeply") from None


def load(source: str | Path | bytes | bytearray | memoryview, ctx: Any = None,
         filename: str | None = None, verify: bool = True) -> Any:
    """Read a module from a path or from bytes, whatever the format (see module doc).

    Raises LoadError with a one-line diagnostic."""
    from tosa_xdsl.context import make_context

    prescanned = None
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), filename or "<input>"
    else:
        from tosa_xdsl.formats.prescan import prescan_if_large

        name = filename or str(source)
        try:  # a large text model: its weights are decoded from the file, not held as text
            prescanned = prescan_if_large(str(source))
            data = b"" if prescanned is not None else Path(source).read_bytes()
        except OSError as err:
            raise LoadError(f"{name}: error: cannot open: {err.strerror or err}") from None
    ctx = ctx if ctx is not None else make_context()
    if prescanned is not None:
        module = _parse_text(prescanned.text, ctx, name, prescanned)
    else:
        module = load_binary(data, ctx, name)
        if module is None:
            module = _parse_text(data.decode("utf-8", errors="replace"), ctx, name)
    if verify:
        try:
            module.verify()
        except Exception as err:
            first = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise LoadError(f"{name}: error: {first}") from None
    return module
