"""Fast paths for reading the custom syntax of TOSA ops (see tosa_xdsl.dialects.tosa.syntax).

xDSL's parser works token by token through many small method calls; a TOSA op with five
tensor operands costs ~100 tokens and ~1 ms. This module reads the same text with a few
compiled regular expressions straight from the parser's input, and builds the op from
caches, since the same types and attributes repeat all over a model:

- types by their exact source text (`tensor<1x16x16x8xf32>` -> one shared TensorType; xDSL
  attributes are immutable, so sharing them is safe);
- simple attribute values by text (`6.000000e+00 : f32`, `array<i64: 1, 1>`, `true`,
  `[1, 1, 1, 1]` of a keyword clause, enum names, ...);
- whatever the regexes do not know (hex constants, aliases, strings with escapes, locations
  of attributes, ...) is handed to xDSL's parser itself at that position ("delegation"), and
  only results whose extent matches the text are cached.

It is all-or-nothing and never reports an error itself: `try_parse_tosa_op` either builds
the op exactly as `syntax.parse_tosa_op`'s token-level path would, or it puts the parser
back where it found it and returns None, and the token-level path runs and produces its
usual diagnostics (same message, same line/column). So any input the fast path does not
understand, or that is wrong, costs a second read but behaves identically.

What may be cached, and where:
- builtin types and attributes whose meaning depends only on their text (ranked/unranked
  tensors of a named element type, scalar types, numbers with a builtin type, `array<...>`,
  `true`/`false`) are cached process-wide (bounded);
- dialect types (`!tosa.shape<4>`) and `dense<...>` literals (which tosa_xdsl.ir.dense may
  re-implement) are cached per Parser object, i.e. per parse, so a change of context or of
  the dense implementation between parses cannot serve a stale object.

`enabled(False)` (a context manager) or the environment variable
TOSA_XDSL_NO_FAST_PARSE=1 turns the fast paths off: the benchmark and the tests compare
both paths.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

_new = object.__new__

from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute
from xdsl.ir.core import _VALUE_NAME_PATTERN  # pyright: ignore[reportPrivateUsage]
from xdsl.ir.core import OpResult as _OpResult
from xdsl.ir.core import SSAValues as _SSAValues
from xdsl.ir.core import Use as _Use
from xdsl.parser import Parser
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRTokenKind

from tosa_xdsl.dialects.tosa.clauses import Clause, Kind
from tosa_xdsl.xdsl_patches import original

if TYPE_CHECKING:
    from xdsl.irdl import IRDLOperation

_enabled: ContextVar[bool] = ContextVar(
    "tosa_fast_parse", default=os.environ.get("TOSA_XDSL_NO_FAST_PARSE", "") in ("", "0")
)


def is_enabled() -> bool:
    return _enabled.get()


@contextmanager
def enabled(flag: bool = True) -> Iterator[None]:
    """Turn the fast paths on or off inside a `with` block."""
    token = _enabled.set(flag)
    try:
        yield
    finally:
        _enabled.reset(token)


# --------------------------------------------------------------------------- the lexicon
# The same token grammar as xdsl.utils.mlir_lexer (ASCII whitespace and `//` comments
# between tokens, bare identifiers, `%` suffix identifiers), so a match here splits the text
# into the tokens the lexer would produce.

_WS = r"(?:\s+|//[^\n]*)*"
_BARE = r"[a-zA-Z_][a-zA-Z0-9_$.]*"
_SUFFIX = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
# A type whose meaning depends on its text only (a builtin element type is a bare identifier).
_BUILTIN_TYPE = rf"tensor<(?:(?:[0-9]+|\?)x)*{_BARE}>|tensor<\*x{_BARE}>|{_BARE}"
_DIALECT_TYPE = r"!tosa\.shape<[0-9]+>"
_NUMBER = r"-?[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?"


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.ASCII)


_ws = _c(_WS)
_operand = _c(rf"{_WS}%({_SUFFIX})(?:{_WS}#([0-9]+))?")
_comma = _c(rf"{_WS},")
_ident = _c(rf"{_WS}({_BARE})")
_l_brace = _c(rf"{_WS}\{{")
_r_brace = _c(rf"{_WS}\}}")
_r_paren = _c(rf"{_WS}\)")
_colon = _c(rf"{_WS}:")
_equal = _c(rf"{_WS}=")
_l_paren = _c(rf"{_WS}\(")
_arrow = _c(rf"{_WS}->")
_key = _c(rf'{_WS}(?:({_BARE})|"([^"\\\n\v\f]*)")')
_type = _c(rf"{_WS}(?:({_BUILTIN_TYPE})|({_DIALECT_TYPE}))")
# Keyword-clause values.
_int_list = _c(rf"{_WS}\({_WS}\[{_WS}((?:-?[0-9]+(?:{_WS},{_WS}-?[0-9]+)*)?){_WS}\]{_WS}\)")
_int_paren = _c(rf"{_WS}\({_WS}(-?[0-9]+){_WS}\)")
_bool_paren = _c(rf"{_WS}\({_WS}(true|false){_WS}\)")
_enum_angle = _c(rf"{_WS}<{_WS}({_BARE}){_WS}>")
_int = _c(r"-?[0-9]+")
# Attribute values whose parse depends on their text only (global cache) ...
_builtin_attr = _c(
    rf"{_WS}({_NUMBER}{_WS}:{_WS}{_BARE}|array<{_BARE}(?:{_WS}:[-+0-9.eE, \t\n]*)?>|{_BARE})(?![<(a-zA-Z0-9_$.])"
)
# ... and small dense literals without strings, aliases or nested attributes (per parse).
_dense_attr = _c(rf"{_WS}(dense<[-+0-9.eE, \t\n\[\]()a-z]*>{_WS}:{_WS}tensor<(?:[0-9]+x)*{_BARE}>)")

_MAX_CACHE = 20_000

# Process-wide caches of context-independent builtin objects, keyed by source text.
_builtin_types: dict[str, Attribute] = {}
_builtin_attrs: dict[str, Attribute] = {}
_arrays: dict[tuple[IntegerType, str], Attribute] = {}
_ints: dict[int, Attribute] = {}
_bools = {"true": BoolAttr.from_bool(True), "false": BoolAttr.from_bool(False)}
_enums: dict[tuple[type, str], Attribute] = {}


def _store(cache: dict[Any, Attribute], key: Any, value: Attribute) -> None:
    if len(cache) >= _MAX_CACHE:
        cache.clear()
    cache[key] = value


class _Fail(Exception):
    """The fast path does not apply; the token-level path reads the op instead."""


_FAIL = _Fail()


class _ParseCaches:
    """Caches tied to one Parser (dialect types, dense literals)."""

    __slots__ = ("types", "attrs", "signatures", "clause_texts")

    def __init__(self) -> None:
        self.types: dict[str, Attribute] = {}
        self.attrs: dict[str, Attribute] = {}
        # `(T, ...) -> R` text -> (inputs, outputs)
        self.signatures: dict[str, tuple[tuple[Attribute, ...], tuple[Attribute, ...]]] = {}
        # (op class, text between operands and ` : (`) -> (properties, attributes)
        self.clause_texts: dict[tuple[type, str], tuple[dict[str, Attribute], dict[str, Attribute]]] = {}


def _parse_caches(parser: Parser) -> _ParseCaches:
    caches = parser.__dict__.get("_tosa_fast_parse_caches")
    if caches is None:
        caches = parser.__dict__["_tosa_fast_parse_caches"] = _ParseCaches()
    return caches


class _Scanner:
    """Reads one op's syntax from `text` at `pos`, delegating to `parser` when needed."""

    __slots__ = ("parser", "text", "pos", "caches", "agreed")

    def __init__(self, parser: Parser, text: str, pos: int):
        self.parser = parser
        self.text = text
        self.pos = pos
        self.caches: _ParseCaches | None = None
        self.agreed = False

    def match(self, regex: re.Pattern[str]) -> re.Match[str] | None:
        m = regex.match(self.text, self.pos)
        if m is not None:
            self.pos = m.end()
        return m

    def expect(self, regex: re.Pattern[str]) -> re.Match[str]:
        m = regex.match(self.text, self.pos)
        if m is None:
            raise _FAIL
        self.pos = m.end()
        return m

    def delegate(self, start: int, end: int | None, parse: Any) -> Attribute:
        """Let xDSL's parser read a value starting at `start`; return it and move after it.
        `end` is where the regex thought the value ends: True when the parser agrees."""
        parser = self.parser
        parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
        value = parse()
        token = parser._current_token  # pyright: ignore[reportPrivateUsage]
        self.pos = token.span.start
        self.agreed = end is not None and _ws.match(self.text, end).end() == self.pos
        return value

    def _per_parse(self) -> _ParseCaches:
        if self.caches is None:
            self.caches = _parse_caches(self.parser)
        return self.caches

    # ------------------------------------------------------------------ types

    def type(self) -> Attribute:
        m = self.expect(_type)
        builtin = m.group(1)
        if builtin is not None:
            value = _builtin_types.get(builtin)
            if value is None:
                value = self._delegated_type(m.start(1), m.end(), _builtin_types, builtin)
            return value
        text = m.group(2)
        cache = self._per_parse().types
        value = cache.get(text)
        if value is None:
            value = self._delegated_type(m.start(2), m.end(), cache, text)
        return value

    def _delegated_type(self, start: int, end: int, cache: dict[str, Attribute], key: str) -> Attribute:
        value = self.delegate(start, None, self.parser.parse_type)
        if _ws.match(self.text, end).end() != self.pos:
            raise _FAIL  # the regex and the parser disagree on the extent: not ours to read
        self.pos = end
        _store(cache, key, value)
        return value

    def type_list(self) -> list[Attribute]:
        """`(T, T, ...)`, after the `(`."""
        if self.match(_r_paren):
            return []
        types = [self.type()]
        while self.match(_comma):
            types.append(self.type())
        self.expect(_r_paren)
        return types

    # ------------------------------------------------------------- attributes

    def attribute(self) -> Attribute:
        """An attribute value (what `parser.parse_attribute()` reads)."""
        text = self.text
        m = _builtin_attr.match(text, self.pos)
        if m is not None:
            key = m.group(1)
            value = _builtin_attrs.get(key)
            if value is not None:
                self.pos = m.end()
                return value
            value = self.delegate(m.start(1), m.end(), self.parser.parse_attribute)
            if self.agreed:
                self.pos = m.end()
                _store(_builtin_attrs, key, value)
            return value
        m = _dense_attr.match(text, self.pos)
        if m is not None:
            key = m.group(1)
            cache = self._per_parse().attrs
            value = cache.get(key)
            if value is not None:
                self.pos = m.end()
                return value
            value = self.delegate(m.start(1), m.end(), self.parser.parse_attribute)
            if self.agreed:
                self.pos = m.end()
                _store(cache, key, value)
            return value
        return self.delegate(_ws.match(text, self.pos).end(), None, self.parser.parse_attribute)

    def enum_value(self, clause: Clause, bare_ok: bool) -> Attribute:
        """Mirrors syntax._parse_enum."""
        enum_cls = clause.enum
        assert enum_cls is not None
        if bare_ok:
            m = self.match(_key)  # a bare identifier or a plain string literal
            if m is None:
                value = self.attribute()
                if not isinstance(value, enum_cls):
                    raise _FAIL
                return value
            name = m.group(1) if m.group(1) is not None else m.group(2)
        else:
            name = self.expect(_enum_angle).group(1)
        key = (enum_cls, name)
        value = _enums.get(key)
        if value is None:
            try:
                value = enum_cls(enum_cls.enum_type(name))
            except ValueError:
                raise _FAIL from None
            _store(_enums, key, value)
        return value

    def clause_value(self, clause: Clause) -> Attribute:
        """The value of a keyword clause, after its name (mirrors syntax._parse_clause_value)."""
        kind = clause.kind
        if kind is Kind.ENUM:
            return self.enum_value(clause, bare_ok=False)
        if kind is Kind.ARRAY:
            m = self.match(_int_list)
            if m is not None:
                key = (clause.element, m.group(1))
                value = _arrays.get(key)
                if value is None:
                    ints = [int(v) for v in _int.findall(m.group(1))]
                    value = DenseArrayBase.from_list(clause.element, ints)
                    _store(_arrays, key, value)
                return value
        elif kind is Kind.INT:
            m = self.match(_int_paren)
            if m is not None:
                number = int(m.group(1))
                value = _ints.get(number)
                if value is None:
                    value = IntegerAttr(number, i32)
                    _store(_ints, number, value)
                return value
        elif kind is Kind.BOOL:
            m = self.match(_bool_paren)
            if m is not None:
                return _bools[m.group(1)]
        elif kind is Kind.TYPE:
            self.expect(_l_paren)
            value = self.type()
            self.expect(_r_paren)
            return value
        elif kind is Kind.ATTR:
            self.expect(_l_paren)
            value = self.attribute()
            self.expect(_r_paren)
            return value
        raise _FAIL  # strings, `pad(array<...>)`, odd spellings: the token-level path

    # ------------------------------------------------------------- op pieces

    def operands(self) -> list[tuple[str, int]]:
        m = self.match(_operand)
        if m is None:
            return []
        operands = [(m.group(1), int(m.group(2)) if m.group(2) else 0)]
        while self.match(_comma):
            m = self.expect(_operand)
            operands.append((m.group(1), int(m.group(2)) if m.group(2) else 0))
        return operands

    def attr_dict(
        self, by_name: dict[str, Clause], props: dict[str, Attribute], attrs: dict[str, Attribute]
    ) -> None:
        """`{key = value, ...}` after the `{` (mirrors syntax._parse_attr_dict)."""
        if self.match(_r_brace):
            return
        while True:
            m = self.expect(_key)
            name = m.group(1) if m.group(1) is not None else m.group(2)
            clause = by_name.get(name)
            if self.match(_equal) is None:
                value: Attribute = UnitAttr()
            elif clause is not None and clause.kind is Kind.ENUM:
                value = self.enum_value(clause, bare_ok=True)
            else:
                value = self.attribute()
            target = props if clause is not None else attrs
            if name in target:
                raise _FAIL
            target[name] = value
            if self.match(_comma) is None:
                break
        self.expect(_r_brace)


# Per op class: its clauses, by name, and the names that must be present.
_op_info: dict[type, tuple[Sequence[Clause], dict[str, Clause], tuple[str, ...]]] = {}


def _info(cls: type, clauses: Sequence[Clause]) -> tuple[Sequence[Clause], dict[str, Clause], tuple[str, ...]]:
    info = ({c.name: c for c in clauses}, tuple(c.name for c in clauses if not c.optional))
    _op_info[cls] = (clauses, *info)
    return _op_info[cls]


# The whole op at a glance: operand list, the clause text between it and ` : (`, and the
# functional type. The clause text and the functional type repeat verbatim across a model;
# each is read once in detail (below) and then looked up by its text. Neither may contain a
# string, a comment or a nested parenthesis in the types, so a key cannot hide a token
# boundary the detailed reading would see differently.
# (Plain whitespace only, no comments: text with comments is read in detail every time.)
_S = r"[ \t\n\r\f\v]*"
_OPERAND_TEXT = rf"%{_SUFFIX}(?:{_S}#[0-9]+)?"
_op_shape = _c(
    rf"(?:{_S}(?P<ops>{_OPERAND_TEXT}(?:{_S},{_S}{_OPERAND_TEXT})*))?"
    rf"(?P<mid>[^:\"/]*(?::(?!{_S}\()[^:\"/]*)*):{_S}"
    rf"(?P<sig>\([^()\"/]*\){_S}->{_S}(?:\([^()\"/]*\)|tensor<[^<>()\"/]*>|!tosa\.shape<[0-9]+>|{_BARE}))"
    # The token after the op when it is the next op's `%result` (the usual case): the lexer
    # would skip the same whitespace and read the same identifier.
    rf"(?:{_S}(?P<next>%{_SUFFIX}))?"
)
_operand_names = _c(rf"%({_SUFFIX})(?:{_WS}#([0-9]+))?")


def try_parse_tosa_op(cls: type[IRDLOperation], parser: Parser, clauses: Sequence[Clause]):
    """The op `syntax.parse_tosa_op` would read, or None (parser untouched) when the fast
    path cannot tell."""
    state = parser._parser_state  # pyright: ignore[reportPrivateUsage]
    start = state.current_token.span.start
    text = state.lexer.input.content
    if not isinstance(text, str):
        return None
    caches = parser.__dict__.get("_tosa_fast_parse_caches")
    if caches is None:
        caches = _parse_caches(parser)
    shape = _op_shape.match(text, start)
    if shape is not None:
        sig = caches.signatures.get(shape.group("sig"))
        mid = caches.clause_texts.get((cls, shape.group("mid")))
        if sig is not None and mid is not None:
            ops = shape.group("ops")
            if not ops:
                operands = []
            elif "#" in ops:
                operands = [(n, int(i) if i else 0) for n, i in _operand_names.findall(ops)]
            else:  # `%a, %b`: names cannot hold commas or whitespace
                operands = [(o.strip()[1:], 0) for o in ops.split(",")]
            inputs, outputs = sig
            if len(inputs) == len(operands):
                resolved = _resolve(parser, operands, inputs)
                if resolved is not None:
                    next_start = shape.start("next")
                    if next_start >= 0:
                        # The parser's next token, as its lexer would have made it.
                        lexer = state.lexer
                        lexer.pos = end = shape.end("next")
                        state.current_token = Token(MLIRTokenKind.PERCENT_IDENT, Span(next_start, end, lexer.input))
                    else:
                        try:
                            parser._resume_from(shape.end("sig"))  # pyright: ignore[reportPrivateUsage]
                        except Exception:
                            parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
                            return None
                    return _create(cls, resolved, outputs, mid[0], mid[1])
    return _parse_in_detail(cls, parser, clauses, text, start, shape, caches)


def _create(cls: Any, operands: list[Any], result_types: Sequence[Attribute], props: dict[str, Attribute],
            attrs: dict[str, Attribute]) -> Any:
    # Operation.__init__ copies both dicts, so the cached ones are never shared.
    # (An explicit location spares Operation.__init__ its per-op import of UNKNOWN_LOC.)
    return cls.create(
        operands=operands, result_types=result_types, properties=props, attributes=attrs, location=UNKNOWN_LOC
    )


def _parse_in_detail(
    cls: Any,
    parser: Parser,
    clauses: Sequence[Clause],
    text: str,
    start: int,
    shape: re.Match[str] | None,
    caches: _ParseCaches,
):
    info = _op_info.get(cls)
    if info is None or info[0] is not clauses:
        info = _info(cls, clauses)
    _, by_name, required = info
    scan = _Scanner(parser, text, start)
    try:
        operands = scan.operands()
        operands_end = scan.pos
        props: dict[str, Attribute] = {}
        attrs: dict[str, Attribute] = {}
        if scan.match(_l_brace):
            scan.attr_dict(by_name, props, attrs)
        else:
            while (m := scan.match(_ident)) is not None:
                name = m.group(1)
                clause = by_name.get(name)
                if clause is None or name in props:
                    raise _FAIL
                props[name] = scan.clause_value(clause)
            if scan.match(_l_brace):
                scan.attr_dict({}, props, attrs)
                # After keyword clauses the dictionary may hold discardable attributes
                # only; a clause name there is an error the token-level path reports.
                if any(name in by_name for name in attrs):
                    raise _FAIL
        clauses_end = scan.pos
        for name in required:
            if name not in props:
                raise _FAIL
        scan.expect(_colon)
        scan.expect(_l_paren)
        sig_start = scan.pos - 1
        inputs = scan.type_list()
        scan.expect(_arrow)
        if scan.match(_l_paren):
            outputs = scan.type_list()
        else:
            outputs = [scan.type()]
        if len(inputs) != len(operands):
            raise _FAIL
        resolved = _resolve(parser, operands, inputs)
        if resolved is None:
            raise _FAIL
        parser._resume_from(scan.pos)  # pyright: ignore[reportPrivateUsage]
    except Exception:
        # Not ours to read (or wrong): start over token by token, for its diagnostics.
        parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
        return None
    # Remember the clause text and the functional type when the glance saw the same extents.
    if (
        shape is not None
        and shape.end("sig") == scan.pos
        and (shape.end("ops") if shape.group("ops") is not None else start) == operands_end
        and shape.end("mid") == _ws.match(text, clauses_end).end()
        and shape.start("sig") == sig_start
    ):
        _store(caches.signatures, shape.group("sig"), (tuple(inputs), tuple(outputs)))
        _store(caches.clause_texts, (cls, shape.group("mid")), (props, attrs))
    return _create(cls, resolved, outputs, props, attrs)


def _resolve(parser: Parser, operands: list[tuple[str, int]], types: Sequence[Attribute]) -> list[Any] | None:
    """`Parser.resolve_operand` of each operand, or None (and no forward reference made)
    where it would report an error (unknown tuple index, type differing from the value's)."""
    defined = parser.ssa_values
    resolved: list[Any] = []
    pending: list[tuple[int, str, int, Attribute]] | None = None
    for (name, index), t in zip(operands, types):
        values = defined.get(name)
        if values is not None:
            if index >= len(values):
                return None
            value = values[index]
            if value.type is not t and value.type != t:
                return None
            resolved.append(value)
            continue
        # Not defined yet: a forward reference, made below once nothing can fail.
        if pending is None:
            pending = []
        pending.append((len(resolved), name, index, t))
        resolved.append(None)
    if pending is None:
        return resolved
    forward = parser.forward_ssa_references
    new: dict[tuple[str, int], Attribute] = {}
    for _, name, index, t in pending:
        refs = forward.get(name)
        ref = refs.get(index) if refs else None
        known = ref.type if ref is not None else new.setdefault((name, index), t)
        if known is not t and known != t:
            return None
    for position, name, index, t in pending:
        refs = forward.setdefault(name, {})
        ref = refs.get(index)
        if ref is None:
            ref = refs[index] = ForwardDeclaredValue(t)
        resolved[position] = ref
    return resolved


# ------------------------------------------------------------------ whole lines, framing too
# xDSL's Parser.parse_operation frames every custom op the same way: the result list
# (`%r =`, three tokens), the op-name token and its lookup, the dialect stack, then the op's
# own `parse`, an optional `loc(...)`, the result-count check and the SSA name registration.
# For the common line `%r = tosa.xxx ...` whose clause text and functional type were read
# before (the per-parse caches of `try_parse_tosa_op`), `parse_line` does all of it at once,
# from Parser.parse_optional_operation (wrapped by `install`). Anything else (no cache hit,
# tuple results `%r:2`, several results, a `loc(...)`, a redefined name, a type mismatch,
# parser subclasses that change the framing, ...) is left untouched to xDSL's path.

_line_head = _c(rf"%({_SUFFIX}){_S}={_S}({_BARE})")

# Parser methods the framing above stands for: a Parser subclass overriding any of them
# (e.g. the driver's op-locating parser) keeps xDSL's path.
_FRAMING = (
    "parse_operation",
    "_parse_op_result_list",
    "_parse_op_result",
    "_get_op_by_name",
    "parse_optional_location",
    "_register_ssa_definition",
    "resolve_operand",
)
_plain_parsers: dict[type, bool] = {}


def _is_plain(parser_cls: type) -> bool:
    plain = _plain_parsers.get(parser_cls)
    if plain is None:
        plain = all(getattr(parser_cls, name) is getattr(Parser, name) for name in _FRAMING)
        _plain_parsers[parser_cls] = plain
    return plain


def _is_tosa_parse(cls: Any) -> bool:
    """Whether `cls.parse` is `syntax.parse_tosa_op` with `cls.CLAUSES` (ops.base.TosaOp's)."""
    parse = getattr(cls, "parse", None)
    func = getattr(parse, "__func__", None)
    return (
        func is not None
        and func.__qualname__ == "TosaOp.parse"
        and func.__module__ == "tosa_xdsl.dialects.tosa.ops.base"
        and isinstance(getattr(cls, "CLAUSES", None), tuple)
    )


class _LineCaches:
    """Per Parser: op classes by name, and ready-made (properties, attributes) by clause text."""

    __slots__ = ("ops", "ready")

    def __init__(self) -> None:
        self.ops: dict[str, Any] = {}  # op name -> TOSA op class, or None (not ours)
        # (op class, clause text) -> normalized properties and attributes, or None when
        # `parse_tosa_op` would raise for them (clause names in the trailing dictionary)
        self.ready: dict[tuple[type, str], tuple[dict[str, Attribute], dict[str, Attribute]] | None] = {}


def _line_caches(parser: Parser) -> _LineCaches:
    caches = parser.__dict__.get("_tosa_fast_parse_lines")
    if caches is None:
        caches = parser.__dict__["_tosa_fast_parse_lines"] = _LineCaches()
    return caches


def _ready(cls: Any, entry: tuple[dict[str, Attribute], dict[str, Attribute]]):
    from xdsl.irdl import OptionalDef

    from tosa_xdsl.dialects.tosa.syntax import normalized_properties

    props, attrs = entry
    clauses = cls.CLAUSES
    if any(c.name in attrs for c in clauses):
        return None
    # What IRDLOperation.__post_init__ adds to the properties before `parse_tosa_op`
    # normalizes them, so that `create` below adds nothing and the order is the same.
    props = dict(props)
    for name, prop_def in cls.get_irdl_definition().properties.items():
        if name not in props and not isinstance(prop_def, OptionalDef) and prop_def.default_value is not None:
            props[name] = prop_def.default_value
    return normalized_properties(clauses, props), attrs


def parse_line(parser: Parser) -> Any:
    """The op `parser.parse_operation()` would return at a `%r = tosa.xxx ...` line, with
    its result registered, or None (parser untouched) when xDSL's path should read it."""
    if not _is_plain(type(parser)):
        return None
    state = parser._parser_state  # pyright: ignore[reportPrivateUsage]
    token = state.current_token
    if token.kind is not MLIRTokenKind.PERCENT_IDENT:
        return None
    text = state.lexer.input.content
    if not isinstance(text, str):
        return None
    head = _line_head.match(text, token.span.start)
    if head is None or head.end(1) != token.span.end:
        return None
    lines = parser.__dict__.get("_tosa_fast_parse_lines")
    if lines is None:
        lines = _line_caches(parser)
    name = head.group(2)
    cls = lines.ops.get(name, False)
    if cls is False:
        # The lookup xDSL's path makes next anyway (same arguments, same side effects).
        cls = None
        if name.startswith("tosa."):
            cls = parser.ctx.get_optional_op(name, dialect_stack=state.dialect_stack)
            if cls is None or cls.name != name or not _is_tosa_parse(cls):
                cls = None
        lines.ops[name] = cls
    if cls is None:
        return None
    caches = parser.__dict__.get("_tosa_fast_parse_caches")
    if caches is None:
        return None  # nothing read in detail yet
    # From the op's first token, as `try_parse_tosa_op` starts (so the same cache keys).
    shape = _op_shape.match(text, _ws.match(text, head.end()).end())
    if shape is None:
        return None
    sig = caches.signatures.get(shape.group("sig"))
    if sig is None:
        return None
    key = (cls, shape.group("mid"))
    ready = lines.ready.get(key, False)
    if ready is False:
        entry = caches.clause_texts.get(key)
        if entry is None:
            return None
        ready = lines.ready[key] = _ready(cls, entry)
    if ready is None:
        return None
    inputs, outputs = sig
    result = head.group(1)
    if len(outputs) != 1 or result in parser.ssa_values:
        return None
    ops = shape.group("ops")
    if not ops:
        operands = []
    elif "#" in ops:
        operands = [(n, int(i) if i else 0) for n, i in _operand_names.findall(ops)]
    else:  # `%a, %b`: names cannot hold commas or whitespace
        operands = [(o.strip()[1:], 0) for o in ops.split(",")]
    if len(inputs) != len(operands):
        return None
    lexer = state.lexer
    next_start = shape.start("next")
    if next_start >= 0:
        # The parser's next token, as its lexer would have made it.
        lexer_pos = lexer.pos
        lexer.pos = end = shape.end("next")
        state.current_token = Token(MLIRTokenKind.PERCENT_IDENT, Span(next_start, end, lexer.input))
    else:
        lexer_pos = lexer.pos
        try:
            parser._resume_from(shape.end("sig"))  # pyright: ignore[reportPrivateUsage]
        except Exception:
            lexer.pos = lexer_pos
            state.current_token = token
            return None
        following = state.current_token
        if following.kind is MLIRTokenKind.BARE_IDENT and following.text == "loc":
            lexer.pos = lexer_pos
            state.current_token = token
            return None
    resolved = _resolve(parser, operands, inputs)
    if resolved is None:
        lexer.pos = lexer_pos
        state.current_token = token
        return None
    props, attrs = ready
    builder = _builders.get(cls)
    if builder is None:
        builder = _builders[cls] = _builder_for(cls)
    if builder is _create:
        op = _create(cls, resolved, outputs, props, attrs)
        value = op.results[0]
    else:
        op, value = _build(cls, resolved, outputs[0], props, attrs)
    forward = parser.forward_ssa_references
    if result in forward:
        # Replaces the forward references (or reports their misuse) as xDSL does.
        start = token.span.start
        parser._register_ssa_definition(  # pyright: ignore[reportPrivateUsage]
            result, (value,), Span(start, start + 1 + len(result), lexer.input)
        )
    else:
        parser.ssa_values[result] = (value,)
        if _valid_name(result):
            value.name_hint = result
    return op


_valid_name = _VALUE_NAME_PATTERN.fullmatch  # SSAValue.is_valid_name


# ------------------------------------------------------------------ building the op
# `cls.create` (Operation.__init__ + IRDLOperation.__post_init__) spends most of its time in
# generic bookkeeping: operand/successor setters through properties and generators, region
# loop, the default-filling pass over the IRDL definition. `_build` makes the same object
# (same fields, in the same order, same use lists) for a one-result op whose properties
# are already complete (see `_ready`). It is used for a class only when that class adds
# nothing of its own (no own __init__-time hooks, no IRDL attribute defaults) and a test
# build of it matches `cls.create`'s field by field; otherwise `cls.create` it is.

_builders: dict[type, Any] = {}


def _build(cls: Any, operands: list[Any], result_type: Attribute, props: dict[str, Attribute],
           attrs: dict[str, Attribute]) -> tuple[Any, Any]:
    op = _new(cls)
    operands = _SSAValues(operands)
    uses = tuple([_Use(op, index) for index in range(len(operands))])
    for operand, use in zip(operands, uses):
        operand.add_use(use)
    op._operands = operands
    op._operand_uses = uses
    result = _OpResult(result_type, op, 0)
    op.results = _SSAValues((result,))
    op.properties = dict(props)
    op.attributes = dict(attrs)
    op.location = UNKNOWN_LOC
    op._successors = ()
    op._successor_uses = ()
    op.regions = ()
    return op, result


def _builder_for(cls: Any) -> Any:
    from xdsl.irdl import IRDLOperation, OptionalDef

    if cls.__post_init__ is not IRDLOperation.__post_init__ or cls.__new__ is not _new:
        return _create
    op_def = cls.get_irdl_definition()
    for attr_def in op_def.attributes.values():
        if not isinstance(attr_def, OptionalDef) and attr_def.default_value is not None:
            return _create
    # A test build without operands, against `create`'s (with the IRDL property defaults
    # given, as `_ready` does).
    props: dict[str, Attribute] = {}
    for name, prop_def in op_def.properties.items():
        if not isinstance(prop_def, OptionalDef) and prop_def.default_value is not None:
            props[name] = prop_def.default_value
    try:
        reference = cls.create(result_types=[i32], properties=props, location=UNKNOWN_LOC)
        built, _ = _build(cls, [], i32, props, {})
    except Exception:
        return _create
    ref_fields, new_fields = vars(reference), vars(built)
    if list(ref_fields) != list(new_fields):
        return _create
    for name, value in ref_fields.items():
        other = new_fields[name]
        if type(value) is not type(other):
            return _create
        if name == "results":
            if [(type(r), r.type, r.index, vars(r).keys()) for r in value] != [
                (type(r), r.type, r.index, vars(r).keys()) for r in other
            ]:
                return _create
        elif name not in ("_operands", "_operand_uses") and value != other:
            return _create
    return _build


def parse_optional_operation(self: Parser) -> Any:
    """Replacement for Parser.parse_optional_operation (the block and module loops), installed
    by tosa_xdsl.xdsl_patches: `parse_line` first, then xDSL's own parser for every line
    it declines and for other dialects' ops."""
    if _enabled.get():
        op = parse_line(self)
        if op is not None:
            return op
    return original(Parser, "parse_optional_operation")(self)
