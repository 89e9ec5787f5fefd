"""TFLite frontend: .tflite -> `tfl` dialect (reader.py) -> TOSA (legalize/).

    read_tflite(data, ctx, filename)    -> module of tfl ops
    import_tflite(data, ctx, filename)  -> module of TOSA ops (read + tosa-legalize-tfl)

Both raise TFLiteError / TflLegalizeError, whose str() is the one-line diagnostic
(`file: error: ...`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from tosa_xdsl.frontends.tflite.reader import IDENTIFIER, TFLiteError, read_tflite


def import_tflite(data: bytes, ctx=None, filename: str = "<tflite>") -> ModuleOp:
    """Read a .tflite file and legalize it to TOSA."""
    from tosa_xdsl.frontends.tflite.legalize import legalize_tfl

    module = read_tflite(data, ctx, filename)
    legalize_tfl(module, filename)
    return module


def is_tflite(data: bytes) -> bool:
    """Content recogniser for the loader: the `TFL3` file identifier at offset 4."""
    return len(data) >= 8 and data[4:8] == IDENTIFIER


__all__ = ["IDENTIFIER", "TFLiteError", "import_tflite", "is_tflite", "read_tflite"]
