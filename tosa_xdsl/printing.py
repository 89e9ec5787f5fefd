"""Printing TOSA IR in one of the three upstream spellings.

    print_ir(module, style="keyword")     # current MLIR (iree-opt): the default
    print_ir(module, style="attr-dict")   # MLIR 22 and older, the tosa-tools translator
    print_ir(module, style="generic")     # "tosa.add"(...) <{...}>: any MLIR version

The attribute-dictionary spelling needs more than the op printers: older MLIR has no custom
form for tosa.const, so `TosaPrinter` prints those ops generic in that style.
"""

from __future__ import annotations

import io
from typing import IO

from xdsl.ir import Operation
from xdsl.printer import Printer

from tosa_xdsl.dialects.tosa import syntax

STYLES = (*syntax.STYLES, "generic")


class TosaPrinter(Printer):
    def print_op(self, op: Operation) -> None:
        if (
            not self.print_generic_format
            and syntax.print_style.get() == syntax.ATTR_DICT
            and getattr(op, "PRINTS_GENERIC_IN_ATTR_DICT_STYLE", False)
        ):
            self.print_generic_format = True
            try:
                super().print_op(op)
            finally:
                self.print_generic_format = False
            return
        super().print_op(op)


def print_ir(op: Operation, stream: IO[str] | None = None, style: str = syntax.KEYWORD, **printer_options) -> str:
    """Print `op` in `style`; returns the text (and writes it to `stream` if given)."""
    if style not in STYLES:
        raise ValueError(f"unknown TOSA syntax style '{style}' (expected one of {', '.join(STYLES)})")
    out = io.StringIO()
    token = syntax.print_style.set(syntax.KEYWORD if style == "generic" else style)
    try:
        printer = TosaPrinter(stream=out, print_generic_format=style == "generic", **printer_options)
        printer.print_op(op)
        # the {-# dialect_resources #-} blobs the printed IR references (tosa_xdsl/ir/resources.py)
        printer.print_metadata(())
        printer.print_string("\n")
    finally:
        syntax.print_style.reset(token)
    text = out.getvalue()
    if stream is not None:
        stream.write(text)
    return text
