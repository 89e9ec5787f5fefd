"""The custom syntax of TOSA ops, in both spellings upstream MLIR has used.

Upstream changed the custom assembly of TOSA ops in Aug 2026 (llvm-project PR #217291):

- keyword form (current MLIR, iree-opt; our default when printing):
    tosa.conv2d %x, %w, %b, %izp, %wzp pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1])
        acc_type(f32) : (...) -> ...
    tosa.rescale ... scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) ...
- attribute-dictionary form (MLIR 22 and older, tosa-tools, tosa-converter-for-tflite):
    tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, ...} : ...
    with enums written bare (`rounding_mode = DOUBLE_ROUND`) and keys sorted.

Both are read; which one is printed is the context variable `print_style`. The generic form
(`"tosa.add"(...)`) is xDSL's own parser/printer. An op declares its properties as a tuple of
`Clause`s (in upstream's keyword order); `parse_tosa_op` / `print_tosa_op` do the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

if TYPE_CHECKING:
    from xdsl.irdl import IRDLOperation

from tosa_xdsl.dialects.tosa import fast_parse

# The clause vocabulary op definitions use as `syntax.boolean(...)`, `syntax.array(...)`, ...
from tosa_xdsl.dialects.tosa.clauses import (  # noqa: F401
    ATTR_DICT,
    KEYWORD,
    STYLES,
    Clause,
    Kind,
    array,
    attr,
    boolean,
    enum_,
    int32,
    property_constraint,
    string,
    type_,
)

# "keyword" (current upstream MLIR) or "attr-dict" (older MLIR, the tosa-tools translator).
print_style: ContextVar[str] = ContextVar("tosa_print_style", default=KEYWORD)


# --------------------------------------------------------------------------------- parsing


def _parse_enum(parser: Parser, clause: Clause, bare_ok: bool) -> Attribute:
    """An enum value: `<X>` (keyword form), bare `X` or `"X"` (attr-dict forms) or the
    full attribute `#tosa.x<X>` (generic)."""
    assert clause.enum is not None
    enum_type = clause.enum.enum_type
    if bare_ok:
        text = parser.parse_optional_str_literal()
        if text is None and parser._current_token.kind == MLIRTokenKind.BARE_IDENT:  # pyright: ignore[reportPrivateUsage]
            text = parser.parse_identifier()
        if text is None:
            value = parser.parse_attribute()
            if not isinstance(value, clause.enum):
                parser.raise_error(f"expected {clause.enum.name} value for '{clause.name}'")
            return value
    else:
        with parser.in_angle_brackets():
            text = parser.parse_identifier()
    try:
        return clause.enum(enum_type(text))
    except ValueError:
        choices = ", ".join(m.value for m in enum_type)
        parser.raise_error(f"'{clause.name}' must be one of {choices}, got '{text}'")


def _parse_int_list(parser: Parser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


def _checked_int(parser: Parser, clause: Clause, start: int, values: list[int], build):
    """`build()` an integer attribute from parsed `values`; a value out of the element
    type's range (`perms([4294967296])`, `axis(99999999999)`) is a parse error at the value,
    not a ValueError/VerifyException from the attribute's constructor."""
    from xdsl.utils.exceptions import VerifyException

    try:
        return build()
    except (ValueError, VerifyException):
        element = clause.element if clause.kind is Kind.ARRAY else i32
        width = element.width.data
        bad = next((v for v in values if not -(2 ** (width - 1)) <= v < 2**width), values[0])
        parser.raise_error(f"'{clause.name}' value {bad} does not fit {element}", start, parser.pos)


def _parse_clause_value(parser: Parser, clause: Clause) -> Attribute:
    """The value of a keyword clause, after its name."""
    if clause.kind is Kind.ENUM:
        return _parse_enum(parser, clause, bare_ok=False)
    with parser.in_parens():
        if clause.kind is Kind.ARRAY:
            if parser._current_token.kind == MLIRTokenKind.L_SQUARE:  # pyright: ignore[reportPrivateUsage]
                start = parser.pos
                values = _parse_int_list(parser)
                return _checked_int(parser, clause, start, values,
                                    lambda: DenseArrayBase.from_list(clause.element, values))
            return parser.parse_attribute()
        if clause.kind is Kind.TYPE:
            return parser.parse_type()
        if clause.kind is Kind.INT:
            start = parser.pos
            value = parser.parse_integer(allow_boolean=False)
            return _checked_int(parser, clause, start, [value], lambda: IntegerAttr(value, i32))
        if clause.kind is Kind.BOOL:
            return BoolAttr.from_bool(parser.parse_boolean())
        if clause.kind is Kind.STRING:
            return StringAttr(parser.parse_str_literal())
        return parser.parse_attribute()


def _parse_keyword_clauses(parser: Parser, clauses: Sequence[Clause], props: dict[str, Attribute]):
    by_name = {c.name: c for c in clauses}
    while parser._current_token.kind == MLIRTokenKind.BARE_IDENT:  # pyright: ignore[reportPrivateUsage]
        name = parser._current_token.text  # pyright: ignore[reportPrivateUsage]
        clause = by_name.get(name)
        if clause is None:
            expected = ", ".join(f"'{c.name}'" for c in clauses if c.name not in props)
            parser.raise_error(
                f"unexpected '{name}'" + (f", expected one of {expected}, '{{' or ':'" if expected else "")
            )
        if name in props:
            parser.raise_error(f"'{name}' given twice")
        parser.parse_identifier()
        props[name] = _parse_clause_value(parser, clause)


def _parse_attr_dict(
    parser: Parser, clauses: Sequence[Clause], props: dict[str, Attribute], attrs: dict[str, Attribute]
):
    """`{key = value, ...}`: properties and discardable attributes together, enums bare."""
    by_name = {c.name: c for c in clauses}

    def parse_entry() -> None:
        name = parser.parse_optional_str_literal() or parser.parse_identifier()
        clause = by_name.get(name)
        if parser.parse_optional_punctuation("=") is None:
            value: Attribute = UnitAttr()
        elif clause is not None and clause.kind is Kind.ENUM:
            value = _parse_enum(parser, clause, bare_ok=True)
        else:
            value = parser.parse_attribute()
        target = props if clause is not None else attrs
        if name in target:
            parser.raise_error(f"'{name}' given twice")
        target[name] = value

    parser.parse_comma_separated_list(parser.Delimiter.BRACES, parse_entry)


def parse_operand_list(parser: Parser) -> list[Parser.UnresolvedOperand]:
    if parser._current_token.kind != MLIRTokenKind.PERCENT_IDENT:  # pyright: ignore[reportPrivateUsage]
        return []
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)


def parse_functional_type(parser: Parser) -> tuple[list[Attribute], list[Attribute]]:
    """`(T1, T2) -> R` or `(T1) -> (R1, R2)`."""
    inputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    parser.parse_punctuation("->")
    if parser._current_token.kind == MLIRTokenKind.L_PAREN:  # pyright: ignore[reportPrivateUsage]
        outputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    else:
        outputs = [parser.parse_type()]
    return inputs, outputs


def parse_tosa_op(cls: type[IRDLOperation], parser: Parser, clauses: Sequence[Clause]):
    """operands (keyword-clauses | attr-dict)? attr-dict? `:` functional-type

    Tries tosa_xdsl.dialects.tosa.fast_parse first (regexes and caches over the same text); it gives up
    without a trace on anything it is not sure of, and the token-level reading below runs
    (which is also the one reporting errors)."""
    if fast_parse.is_enabled():
        start = parser.pos
        op = fast_parse.try_parse_tosa_op(cls, parser, clauses)
        if op is not None:
            for c in clauses:
                if c.name in op.attributes:  # only a dict after keyword clauses puts it there
                    parser.raise_error(
                        f"'{c.name}' given twice" if c.name in op.properties
                        else f"inherent attribute '{c.name}' cannot be parsed from attr-dict "
                        "after keyword clauses",
                        start,
                        parser.pos,
                    )
            op.properties = normalized_properties(clauses, op.properties)
            return op
    return parse_tosa_op_tokens(cls, parser, clauses)


def normalized_properties(clauses: Sequence[Clause], props: dict[str, Attribute]) -> dict[str, Attribute]:
    """As MLIR stores them: a DefaultValuedAttr left out of the custom form holds its default
    (so the generic form shows `nan_mode = #tosa.nan_mode<PROPAGATE>`), sorted by name."""
    props = dict(props)
    for c in clauses:
        if c.default is not None and c.name not in props:
            props[c.name] = c.default
    return dict(sorted(props.items()))


def parse_tosa_op_tokens(cls: type[IRDLOperation], parser: Parser, clauses: Sequence[Clause]):
    """`parse_tosa_op` token by token through the Parser API: the reference reading."""
    pos = parser.pos
    operands = parse_operand_list(parser)
    props: dict[str, Attribute] = {}
    attrs: dict[str, Attribute] = {}
    if parser._current_token.kind == MLIRTokenKind.L_BRACE:  # pyright: ignore[reportPrivateUsage]
        _parse_attr_dict(parser, clauses, props, attrs)
    else:
        _parse_keyword_clauses(parser, clauses, props)
        if parser._current_token.kind == MLIRTokenKind.L_BRACE:  # pyright: ignore[reportPrivateUsage]
            dict_pos = parser.pos
            _parse_attr_dict(parser, (), props, attrs)
            # After keyword clauses the dictionary holds discardable attributes only.
            for c in clauses:
                if c.name in attrs:
                    parser.raise_error(
                        f"'{c.name}' given twice" if c.name in props
                        else f"inherent attribute '{c.name}' cannot be parsed from attr-dict "
                        "after keyword clauses",
                        dict_pos,
                        parser.pos,
                    )
    missing = [c.name for c in clauses if not c.optional and c.name not in props]
    if missing:
        parser.raise_error(f"custom op '{cls.name}' expected '{missing[0]}'")
    props = normalized_properties(clauses, props)
    parser.parse_punctuation(":")
    type_pos = parser.pos
    inputs, outputs = parse_functional_type(parser)
    if len(inputs) != len(operands):
        parser.raise_error(
            f"'{cls.name}' has {len(operands)} operands but the type lists {len(inputs)}",
            type_pos,
            parser.pos,
        )
    resolved = parser.resolve_operands(operands, inputs, pos)
    return cls.create(operands=resolved, result_types=outputs, properties=props, attributes=attrs)


# -------------------------------------------------------------------------------- printing


def _is_default(clause: Clause, value: Attribute) -> bool:
    return clause.default is not None and value == clause.default


def _print_clause(printer: Printer, clause: Clause, value: Attribute) -> None:
    printer.print_string(f" {clause.name}")
    if clause.kind is Kind.ENUM:
        printer.print_string(f"<{value.data}>")  # type: ignore[attr-defined]
        return
    with printer.in_parens():
        if clause.kind is Kind.ARRAY and isinstance(value, DenseArrayBase):
            printer.print_string("[" + ", ".join(str(v) for v in value.get_values()) + "]")
        elif clause.kind is Kind.INT and isinstance(value, IntegerAttr):
            printer.print_string(str(value.value.data))
        elif clause.kind is Kind.BOOL and isinstance(value, IntegerAttr):
            printer.print_string("true" if value.value.data else "false")
        elif clause.kind is Kind.STRING and isinstance(value, StringAttr):
            printer.print_string_literal(value.data)
        else:
            printer.print_attribute(value)


def _print_attr_dict_entries(printer: Printer, entries: dict[str, Attribute], enums: set[str]) -> None:
    """`{k = v, ...}` sorted by key as MLIR prints them, enum values bare."""
    if not entries:
        return
    printer.print_string(" {")
    first = True
    for name in sorted(entries):
        value = entries[name]
        if not first:
            printer.print_string(", ")
        first = False
        printer.print_identifier_or_string_literal(name)
        if isinstance(value, UnitAttr):
            continue
        printer.print_string(" = ")
        if name in enums:
            printer.print_string(value.data)  # type: ignore[attr-defined]
        else:
            printer.print_attribute(value)
    printer.print_string("}")


def print_functional_type(printer: Printer, op: IRDLOperation) -> None:
    printer.print_string(" : ")
    printer.print_function_type(op.operand_types, op.result_types)


def print_tosa_op(op: IRDLOperation, printer: Printer, clauses: Sequence[Clause]) -> None:
    if op.operands:
        printer.print_string(" ")
        printer.print_list(op.operands, printer.print_operand)
    print_tosa_op_tail(op, printer, clauses)


def print_tosa_op_tail(op: IRDLOperation, printer: Printer, clauses: Sequence[Clause]) -> None:
    """What follows the operands: clauses or attribute dictionary, then ` : (...) -> ...`.
    It depends only on the op's class, properties, attributes and types and the style
    (tosa_xdsl/printing.py caches it per printer)."""
    shown = {
        c.name: op.properties[c.name]
        for c in clauses
        if c.name in op.properties and not _is_default(c, op.properties[c.name])
    }
    # Properties that are not clauses (should not happen for our ops) still print.
    extra_props = {k: v for k, v in op.properties.items() if k not in {c.name for c in clauses}}
    if print_style.get() == ATTR_DICT:
        shown = {
            c.name: shown[c.name]
            for c in clauses
            if c.name in shown and not (c.attr_dict_default is not None and shown[c.name] == c.attr_dict_default)
        }
        enums = {c.name for c in clauses if c.kind is Kind.ENUM}
        _print_attr_dict_entries(printer, {**shown, **extra_props, **op.attributes}, enums)
    else:
        for clause in clauses:
            if clause.name in shown:
                _print_clause(printer, clause, shown[clause.name])
        _print_attr_dict_entries(printer, {**extra_props, **op.attributes}, set())
    print_functional_type(printer, op)


def is_type(value: Attribute) -> bool:
    return isinstance(value, TypeAttribute)
