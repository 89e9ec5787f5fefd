"""A minimal `!quant.uniform<...>` type, for the legacy reader only.

Pre-1.0 TOSA graphs (LLVM 14-18 tests, TensorFlow's legalizations) carry quantized element
types such as `tensor<1x8x!quant.uniform<i8:f32, 0.015:-1>>`. TOSA 1.0 has no quant types:
the upgrade replaces each by its storage type (i8, ui8, i16, i32), the zero points already
being explicit in the old ops' `quantization_info` / RESCALE attributes.

The full MLIR quant dialect (per-axis printing, `!quant.calibrated`, ...) is helper "tflite"'s
`tosa_xdsl/dialects/quant.py`; it had not landed when this reader was written, so this module
only reads what the upgrade needs: the storage type (and keeps the body text to print it back).

Grammar (MLIR QuantDialectBytecode / TypeParser):
    uniform '<' storage ['<' min ':' max '>'] ':' expressed [':' axis] ','
                (scale [':' zp] | '{' scale [':' zp] (',' scale [':' zp])* '}') '>'
storage: i<N> or u<N> (N in 1..32).
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import IntegerType, Signedness, StringAttr
from xdsl.ir import Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer

_STORAGE = re.compile(r"([iu])([0-9]{1,2})$")


@irdl_attr_definition
class LegacyUniformQuantType(ParametrizedAttribute, TypeAttribute):
    """`!quant.uniform<...>`: `storage` is the integer type TOSA 1.0 uses instead."""

    name = "quant.uniform"

    storage: IntegerType = param_def()
    body: StringAttr = param_def()  # the text between the angle brackets, to print back

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        # The body is kept in a canonical spelling (numbers re-printed), so the same type
        # written as `1.0` and `1.000000e+00` is one type, as in MLIR.
        parser.parse_punctuation("<")
        storage_name = parser.parse_identifier("storage type (i8, u8, ...)")
        m = _STORAGE.match(storage_name)
        if m is None or not 1 <= int(m.group(2)) <= 32:
            parser.raise_error(f"unsupported quant storage type '{storage_name}'")
        width = int(m.group(2))
        signedness = Signedness.UNSIGNED if m.group(1) == "u" else Signedness.SIGNLESS
        body = storage_name
        if parser.parse_optional_punctuation("<"):  # storage range <min:max>
            lo = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(":")
            hi = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(">")
            body += f"<{lo}:{hi}>"
        parser.parse_punctuation(":")
        body += f":{parser.parse_type()}"
        if parser.parse_optional_punctuation(":"):
            body += f":{parser.parse_integer(allow_boolean=False, allow_negative=False)}"  # quantized axis
        parser.parse_punctuation(",")

        def scale_zp() -> str:
            scale = float(parser.parse_integer()) if _int_next(parser) else parser.parse_float()
            text = repr(scale)
            if parser.parse_optional_punctuation(":"):
                text += f":{parser.parse_integer(allow_boolean=False)}"
            return text

        if parser.parse_optional_punctuation("{"):
            items = [scale_zp()]
            while parser.parse_optional_punctuation(","):
                items.append(scale_zp())
            parser.parse_punctuation("}")
            body += ", {" + ",".join(items) + "}"
        else:
            body += ", " + scale_zp()
        parser.parse_punctuation(">")
        return (IntegerType(width, signedness), StringAttr(body))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.body.data}>")


def _int_next(parser: AttrParser) -> bool:
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    return parser._current_token.kind == MLIRTokenKind.INTEGER_LIT  # pyright: ignore[reportPrivateUsage]


LegacyQuant = Dialect("quant", [], [LegacyUniformQuantType])
