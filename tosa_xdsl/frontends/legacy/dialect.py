"""The pre-1.0 `tosa` op set, read permissively, in its own Context.

Why a separate dialect object rather than a pre-pass over our 1.0 ops: the same op names
(`tosa.conv2d`, `tosa.clamp`, `tosa.pad`, ...) carried different operands and attributes
before 1.0, so the 1.0 classes cannot hold them (their custom syntax rejects the old
attributes, their verifiers reject the old operand counts). Here every old op name maps to a
class that accepts any operands, results, regions and attributes in both spellings MLIR
printed for TOSA over the years:
- generic: `"tosa.clamp"(%x) {min_int = 0 : i64, ...} : (tensor<..>) -> tensor<..>`
  (LLVM <= 17 always, and `<{...}>` properties from LLVM 17);
- custom (LLVM 18): `tosa.clamp %x {min_int = 0 : i64, ...} : (tensor<..>) -> tensor<..>`,
  i.e. `operands attr-dict : functional-type(operands, results)`.
`tosa.cond_if`, `tosa.while_loop` and `tosa.yield` kept their operands and syntax in 1.0, so
their 1.0 classes are reused (their bodies hold legacy ops that the upgrade converts).

The old quantization attributes are here too: `#tosa.conv_quant<input_zp = -128, weight_zp = 0>`
(LLVM 15-18; LLVM 14 wrote the same fields as a plain dictionary, which needs no class).
The 1.0 types and attributes (`!tosa.shape`, `#tosa.target_env`, enums) are included so a
file mixing old and new spellings reads too.
"""

from __future__ import annotations

import re
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, i64
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    param_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

_LLVM18_COND_IF = re.compile(r"\s*%[\w$.#-]+\s*(->|\{)")

# Every op name of MLIR's TOSA dialect in LLVM 14-18 (TosaOps.td, TosaUtilOps.td).
LEGACY_OP_NAMES = (
    "abs", "add", "apply_scale", "argmax", "arithmetic_right_shift", "avg_pool2d", "bitwise_and",
    "bitwise_not", "bitwise_or", "bitwise_xor", "cast", "ceil", "clamp", "clz", "concat", "const",
    "conv2d", "conv3d", "custom", "depthwise_conv2d", "div", "equal", "erf", "exp", "fft2d", "floor",
    "fully_connected", "gather", "greater", "greater_equal", "identity", "log", "logical_and",
    "logical_left_shift", "logical_not", "logical_or", "logical_right_shift", "logical_xor", "matmul",
    "max_pool2d", "maximum", "minimum", "mul", "negate", "pad", "pow", "reciprocal", "reduce_all",
    "reduce_any", "reduce_max", "reduce_min", "reduce_prod", "reduce_sum", "reluN", "rescale",
    "reshape", "resize", "reverse", "rfft2d", "rsqrt", "scatter", "select", "sigmoid", "slice", "sub",
    "table", "tanh", "tile", "transpose", "transpose_conv2d",
    # spelled in 1.0 only, accepted so mixed files read
    "intdiv", "reduce_product", "const_shape", "cos", "sin",
)
# Reused from the 1.0 dialect: same operands, same syntax (LLVM 18's custom forms of these
# are 1.0's). cond_if and the renamed variable accessors get small subclasses below.
SHARED_OP_NAMES = ("while_loop", "yield", "variable_read", "variable_write")


class LegacyOp(IRDLOperation):
    """A pre-1.0 TOSA op as read: operands, results, regions and attributes kept verbatim."""

    name = "tosa.legacy"
    args = var_operand_def()
    outs = var_result_def()
    bodies = var_region_def()

    @property
    def op_name(self) -> str:
        return self.name.removeprefix("tosa.")

    def attr(self, key: str):
        """An attribute by name, from the property dict (LLVM 17+) or the attribute dict."""
        value = self.properties.get(key)
        return value if value is not None else self.attributes.get(key)

    @classmethod
    def parse(cls, parser: Parser) -> LegacyOp:
        # LLVM 18: operands attr-dict `:` functional-type(operands, results)
        pos = parser.pos
        unresolved = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        ) or []
        properties = parser.parse_optional_properties_dict()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_pos = parser.pos
        fn_type = parser.parse_function_type()
        if len(fn_type.inputs.data) != len(unresolved):
            parser.raise_error(
                f"'{cls.name}' has {len(unresolved)} operands but its type lists "
                f"{len(fn_type.inputs.data)}", pos, type_pos,
            )
        operands = parser.resolve_operands(unresolved, fn_type.inputs.data, type_pos)
        return cls.create(
            operands=operands, result_types=fn_type.outputs.data,
            properties=properties, attributes=attributes,
        )

    def print(self, printer: Printer) -> None:  # only for debugging: the upgrade replaces us
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(dict(self.properties) | dict(self.attributes))
        printer.print_string(" : ")
        printer.print_operation_type(self)


def _legacy_op_class(short: str) -> type[LegacyOp]:
    cls_name = "Legacy_" + short.replace(".", "_")
    cls = type(cls_name, (LegacyOp,), {"name": "tosa." + short, "__module__": __name__})
    return irdl_op_definition(cls)


LEGACY_OPS: tuple[type[LegacyOp], ...] = tuple(_legacy_op_class(n) for n in LEGACY_OP_NAMES)


def _legacy_cond_if() -> type[LegacyOp]:
    """`tosa.cond_if` as LLVM 18 printed it: `%cond [-> (types)] {then} [else {else}] attr-dict`
    (no inputs: the regions use values from above), besides the 1.0 spelling and the
    generic form. The upgrade re-creates it as a 1.0 CondIfOp."""
    from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp

    class LegacyCondIfOp(LegacyOp):
        name = "tosa.cond_if"

        @classmethod
        def parse(cls, parser: Parser) -> LegacyOp:
            text = parser.lexer.input.content
            if not _LLVM18_COND_IF.match(text, parser.pos):
                return CondIfOp.parse.__func__(cls, parser)  # pyright: ignore[reportFunctionMemberAccess]
            from xdsl.dialects.builtin import TensorType, i1
            from xdsl.ir import Region

            pos = parser.pos
            cond = parser.parse_unresolved_operand()
            result_types: list[Attribute] = []
            if parser.parse_optional_punctuation("->"):
                if parser._current_token.kind == MLIRTokenKind.L_PAREN:  # pyright: ignore[reportPrivateUsage]
                    result_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
                else:
                    result_types = [parser.parse_type()]
            (cond_value,) = parser.resolve_operands([cond], [TensorType(i1, [])], pos)
            then_graph = parser.parse_region()
            else_graph = parser.parse_region() if parser.parse_optional_keyword("else") else Region()
            attrs = parser.parse_optional_attr_dict()
            return cls.create(operands=[cond_value], result_types=result_types,
                              regions=[then_graph, else_graph], attributes=attrs)

    LegacyCondIfOp.__module__ = __name__
    return irdl_op_definition(LegacyCondIfOp)


OLD_SPELLING = "_tosa_legacy_spelling"


def mark_old_spelling(op: Operation, what: str) -> Operation:
    """Note on an op parsed straight into a current class that its text was an old
    spelling (reader.legacy_reason reports it; xDSL ops take Python attributes)."""
    setattr(op, OLD_SPELLING, what)
    return op


def _renamed(old_name: str, new_cls: type[Operation]) -> type[LegacyOp]:
    """An old name of a 1.0 op with the same syntax (LLVM 18 `tosa.variable.read` is 1.0's
    `tosa.variable_read`): parsed straight into the 1.0 class."""

    def parse(cls, parser: Parser) -> Operation:
        return mark_old_spelling(new_cls.parse(parser), f"'{old_name}' (1.0: '{new_cls.name}')")

    cls = type("Legacy_" + old_name.replace(".", "_"), (LegacyOp,),
               {"name": old_name, "__module__": __name__, "parse": classmethod(parse)})
    return irdl_op_definition(cls)


def _same_custom_form(new_cls: type[Operation]) -> type[LegacyOp]:
    """An op whose custom form did not change but whose generic form did (LLVM 18's
    `tosa.variable` had `name` and a tensor `type`; 1.0 has `sym_name`, `var_shape` and an
    element `type`): the custom form parses straight into the 1.0 class, the generic form into
    a LegacyOp for tosa-upgrade-to-1.0."""

    def parse(cls, parser: Parser) -> Operation:
        return new_cls.parse(parser)

    cls = type("Legacy_" + new_cls.name.replace(".", "_"), (LegacyOp,),
               {"name": new_cls.name, "__module__": __name__, "parse": classmethod(parse)})
    return irdl_op_definition(cls)


def _builtin_func_alias() -> list[type[Operation]]:
    """LLVM 14 wrote functions as `func @f(...)` (builtin.func) with `return` and `call`
    (std): read them as func.func / func.return / func.call."""
    from xdsl.dialects import func

    class BuiltinFunc(IRDLOperation):
        name = "builtin.func"

        @classmethod
        def parse(cls, parser: Parser) -> Operation:
            return mark_old_spelling(func.FuncOp.parse(parser), "'func' (LLVM 14 builtin.func; now func.func)")

    class BuiltinReturn(IRDLOperation):
        name = "builtin.return"

        @classmethod
        def parse(cls, parser: Parser) -> Operation:
            return mark_old_spelling(func.ReturnOp.parse(parser), "'return' (LLVM 14 std.return)")

    class BuiltinCall(IRDLOperation):
        name = "builtin.call"

        @classmethod
        def parse(cls, parser: Parser) -> Operation:
            return mark_old_spelling(func.CallOp.parse(parser), "'call' (LLVM 14 std.call)")

    BuiltinFunc.__module__ = BuiltinReturn.__module__ = BuiltinCall.__module__ = __name__
    return [irdl_op_definition(c) for c in (BuiltinFunc, BuiltinReturn, BuiltinCall)]


class _QuantInfoAttr(ParametrizedAttribute):
    """`#tosa.<kind>_quant<name = int, ...>`: `fields` holds the zero points as i64."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    fields: DictionaryAttr = param_def()

    def zero_points(self) -> dict[str, int]:
        return {k: v.value.data for k, v in self.fields.data.items() if isinstance(v, IntegerAttr)}

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        parser.parse_punctuation("<")
        values: dict[str, IntegerAttr] = {}

        def entry() -> None:
            key_pos = parser.pos
            key = parser.parse_identifier(f"field of #{cls.name}")
            if key not in cls.FIELDS:
                parser.raise_error(
                    f"unknown field '{key}' of #{cls.name} (expected {', '.join(cls.FIELDS)})", key_pos
                )
            parser.parse_punctuation("=")
            values[key] = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)

        entry()
        while parser.parse_optional_punctuation(","):
            entry()
        parser.parse_punctuation(">")
        missing = [f for f in cls.FIELDS if f not in values]
        if missing:
            parser.raise_error(f"#{cls.name} lacks {', '.join(missing)}")
        return (DictionaryAttr(values),)

    def print_parameters(self, printer: Printer) -> None:
        body = ", ".join(f"{k} = {v}" for k, v in self.zero_points().items())
        printer.print_string(f"<{body}>")


@irdl_attr_definition
class ConvQuantAttr(_QuantInfoAttr):
    name = "tosa.conv_quant"
    FIELDS: ClassVar[tuple[str, ...]] = ("input_zp", "weight_zp")


@irdl_attr_definition
class UnaryQuantAttr(_QuantInfoAttr):
    name = "tosa.unary_quant"
    FIELDS: ClassVar[tuple[str, ...]] = ("input_zp", "output_zp")


@irdl_attr_definition
class MatMulQuantAttr(_QuantInfoAttr):
    name = "tosa.matmul_quant"
    FIELDS: ClassVar[tuple[str, ...]] = ("a_zp", "b_zp")


@irdl_attr_definition
class PadQuantAttr(_QuantInfoAttr):
    name = "tosa.pad_quant"
    FIELDS: ClassVar[tuple[str, ...]] = ("input_zp",)


QUANT_INFO_ATTRS = (ConvQuantAttr, UnaryQuantAttr, MatMulQuantAttr, PadQuantAttr)


def legacy_tosa_dialect() -> Dialect:
    from tosa_xdsl.dialects.tosa.dialect import Tosa
    from tosa_xdsl.dialects.tosa.ops.variable import (
        VariableOp,
        VariableReadOp,
        VariableWriteOp,
    )
    from tosa_xdsl.ir import ATTRIBUTES

    shared = [op for op in Tosa.operations if op.name.removeprefix("tosa.") in SHARED_OP_NAMES]
    special = [_legacy_cond_if(), _same_custom_form(VariableOp),
               _renamed("tosa.variable.read", VariableReadOp),
               _renamed("tosa.variable.write", VariableWriteOp)]
    return Dialect("tosa", [*LEGACY_OPS, *shared, *special], [*ATTRIBUTES, *QUANT_INFO_ATTRS])


def legacy_context(allow_unregistered: bool = False) -> Context:
    """A Context like tosa_xdsl.context.make_context() whose `tosa` is the legacy op set and
    whose `quant` is the minimal `!quant.uniform` of quant_types.py."""
    from tosa_xdsl.context import _drop_dialect, make_context  # pyright: ignore[reportPrivateUsage]
    from tosa_xdsl.frontends.legacy.quant_types import LegacyQuant

    ctx = make_context(allow_unregistered=allow_unregistered)
    for name, factory in (("tosa", legacy_tosa_dialect), ("quant", lambda: LegacyQuant)):
        _drop_dialect(ctx, name)
        ctx.register_dialect(name, factory)
    for op in _builtin_func_alias():
        ctx.load_op(op)
    return ctx
