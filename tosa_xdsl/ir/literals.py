"""Integer literals as the parser reads them, bounded.

Python refuses to convert a decimal string of more than 4300 digits (`int()` raises a bare
ValueError, which surfaced as an internal error), and converting much longer ones would be
quadratic. No MLIR type holds such a number, so a literal longer than MAX_DIGITS is a located
parse error at the literal instead.
"""

from __future__ import annotations

from typing import Any

# Far beyond any width a type of ours has (i64 needs 20 digits), far below Python's limit.
MAX_DIGITS = 1000


def get_int_value(kind: Any, span: Any) -> int:
    """`MLIRTokenKind.get_int_value` with a length check (installed by xdsl_patches)."""
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    if kind != MLIRTokenKind.INTEGER_LIT:
        raise ValueError("Token is not an integer literal!")
    text = span.text
    if len(text) > MAX_DIGITS:
        raise ParseError(span, f"integer literal too large ({len(text)} digits)")
    if text[:2] in ("0x", "0X"):
        return int(text, 16)
    return int(text, 10)


# xDSL 0.74 packs dense arrays with `struct`: only these integer widths round-trip (an
# `array<i24: ...>` is stored in 4-byte slots and misread later, `array<i128: ...>` raises
# NotImplementedError). No TOSA property uses another width.
DENSE_ARRAY_INT_WIDTHS = (1, 8, 16, 32, 64)


def parse_dense_array(self: Any) -> Any:
    """`AttrParser._parse_builtin_densearray_attr` that reports element types xDSL cannot
    store as a located parse error (installed by xdsl_patches)."""
    from xdsl.dialects.builtin import IntegerType
    from xdsl.parser.attribute_parser import AttrParser

    from tosa_xdsl.xdsl_patches import original

    start = self.pos
    parse = original(AttrParser, "_parse_builtin_densearray_attr")
    try:
        res = parse(self)
    except (NotImplementedError, ValueError, OverflowError) as err:
        self.raise_error(f"unsupported dense array: {err}", start, self.pos)
    elt = res.elt_type
    if isinstance(elt, IntegerType) and elt.width.data not in DENSE_ARRAY_INT_WIDTHS:
        self.raise_error(f"unsupported dense array element type {elt}: "
                         f"tosa-xdsl stores i1, i8, i16, i32 and i64 arrays", start, self.pos)
    return res


def parse_int_or_float_attr(self: Any) -> Any:
    """`AttrParser.parse_optional_builtin_int_or_float_attr` as MLIR reads a float literal
    its type cannot hold (xDSL 0.74 raised OverflowError): a hex one wider than the type
    (`0x7FC00000 : f16`) is MLIR's parse error, a decimal one (`1.0e+256 : f32`) becomes
    infinity (installed by xdsl_patches)."""
    from xdsl.parser.attribute_parser import AttrParser

    from tosa_xdsl.xdsl_patches import original

    start = self.pos
    try:
        return original(AttrParser, "parse_optional_builtin_int_or_float_attr")(self)
    except OverflowError:
        text = self.lexer.input.content[start:self.pos].lstrip("-").lstrip()
        if text[:2] in ("0x", "0X"):
            self.raise_error("hexadecimal float constant out of range for type", start, self.pos)
    # A decimal literal beyond the type's range (`1.0e+256 : f32`): MLIR rounds it to
    # infinity (APFloat), xDSL's struct.pack raised. Read it again and give the infinity.
    import math

    from xdsl.dialects.builtin import FloatAttr

    self._resume_from(start)  # pyright: ignore[reportPrivateUsage]
    value = self.parse_float()
    self.parse_punctuation(":")
    t = self.parse_type()
    return FloatAttr(math.copysign(math.inf, value), t)
