"""The `tfl` dialect: TensorFlow Lite operators as TensorFlow's TFL MLIR dialect names them.

One op class per TFLite builtin operator, named `tfl.<builtin name in lower case>`
(`CONV_2D` -> `tfl.conv_2d`, `FULLY_CONNECTED` -> `tfl.fully_connected`), plus the
importer's own ops: `tfl.pseudo_const` (a constant buffer, `value`), `tfl.pseudo_qconst`
(a quantized constant: `qtype` and storage-typed `value`), `tfl.no_value` (an omitted
optional operand) and `tfl.yield` (region terminator of `tfl.while` / `tfl.if`).

Options are properties named as TFL's ODS names them (the snake_case of the schema field:
`stride_h`, `fused_activation_function = "RELU6"`, `padding = "SAME"`). The ops are
generic (any operands, results, properties, regions): they read and print in MLIR's generic
form, so a legalization can be tested from a .mlir file; what each operator requires is
checked where it is used, by the legalization, with a located diagnostic.
"""

from __future__ import annotations

import re

from xdsl.ir import Dialect, Operation
from xdsl.ir.core import OpTraits
from xdsl.traits import IsTerminator

from tosa_xdsl.frontends.tflite.schema import BUILTIN_OPERATORS


class TflOp(Operation):
    """Base of every tfl op (generic: the legalization checks operands and options)."""

    name = "tfl.unknown"
    traits = OpTraits(lambda: ())

    def option(self, name: str, default=None):
        """An option from the properties (or, for hand-written IR, the attribute dictionary)."""
        attr = self.properties.get(name, self.attributes.get(name))
        return default if attr is None else attr


class SameTypeOp(TflOp):
    """Ops TensorFlow prints in its short form when every operand and the result share one
    type: `%0 = tfl.add %a, %b {fused_activation_function = "NONE"} : tensor<4xf32>`.
    We read that form (so TensorFlow's own .mlir files parse) and print the generic one."""

    @classmethod
    def parse(cls, parser):
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        values = [parser.resolve_operand(o, t) for o in operands]
        return cls.create(operands=values, result_types=[t], properties=dict(attrs))


# TFL ops with TensorFlow's short same-type syntax (parseOneResultSameOperandTypeOp)
SAME_TYPE_SYNTAX = frozenset({"ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE", "POW",
                              "FLOOR_DIV", "FLOOR_MOD", "LOGICAL_AND", "LOGICAL_OR"})


def op_name(builtin: str) -> str:
    """TFLite builtin operator name -> tfl op name (`DEPTHWISE_CONV_2D` -> `tfl.depthwise_conv_2d`)."""
    return "tfl." + builtin.lower()


def _class_name(builtin: str) -> str:
    return "".join(p.capitalize() for p in builtin.split("_")) + "Op"


def _make(name: str, cls_name: str, *bases: type) -> type[Operation]:
    return type(cls_name, bases or (TflOp,), {"name": name, "__module__": __name__})


OPS: dict[str, type[Operation]] = {}
for _builtin in BUILTIN_OPERATORS.values():
    if _builtin in ("CUSTOM", "PLACEHOLDER_FOR_GREATER_OP_CODES"):
        continue
    OPS[op_name(_builtin)] = _make(op_name(_builtin), _class_name(_builtin),
                                   SameTypeOp if _builtin in SAME_TYPE_SYNTAX else TflOp)

PseudoConstOp = _make("tfl.pseudo_const", "PseudoConstOp")
PseudoQConstOp = _make("tfl.pseudo_qconst", "PseudoQConstOp")
NoValueOp = _make("tfl.no_value", "NoValueOp")
YieldOp = type("YieldOp", (TflOp,), {"name": "tfl.yield", "__module__": __name__,
                                     "traits": OpTraits(lambda: (IsTerminator(),))})
for _op in (PseudoConstOp, PseudoQConstOp, NoValueOp, YieldOp):
    OPS[_op.name] = _op

Tfl = Dialect("tfl", list(OPS.values()), [])


def snake_case(camel: str) -> str:
    """Schema field accessor -> TFL attribute name (`DilationHFactor` -> `dilation_h_factor`)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", camel).lower()


def load_tfl(ctx) -> None:
    """Register `tfl` (and `quant`, its tensor element types) in an xDSL Context."""
    from tosa_xdsl.dialects.quant import load_quant

    load_quant(ctx)
    if "tfl" not in ctx.registered_dialect_names:
        ctx.register_dialect("tfl", lambda: Tfl)
