"""The vocabulary an op uses to declare its properties: a tuple of `Clause`s (in upstream's
keyword order), each a property name, its kind and its spelling details. The syntax engine
(syntax.py), the fast path (fast_parse.py) and `ops.base.tosa_op_definition` (which builds the
IRDL properties from them) all read these; nothing here parses or prints."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, TypeAttribute

if TYPE_CHECKING:
    from xdsl.dialects.utils import EnumAttribute

KEYWORD = "keyword"
ATTR_DICT = "attr-dict"
STYLES = (KEYWORD, ATTR_DICT)



class Kind(enum.Enum):
    """How a property's value is spelled inside its keyword clause."""

    ARRAY = "array"  # pad([0, 0, 0, 0])      <-> array<i64: 0, 0, 0, 0>
    TYPE = "type"  # acc_type(f32)            <-> acc_type = f32
    INT = "int"  # axis(1)                    <-> axis = 1 : i32
    BOOL = "bool"  # scale32(true)            <-> scale32 = true
    STRING = "string"  # domain_name("x")     <-> domain_name = "x"
    ENUM = "enum"  # rounding_mode<SINGLE_ROUND> <-> rounding_mode = SINGLE_ROUND
    ATTR = "attr"  # min_val(0.0 : f32), values(dense<...>)  <-> the attribute itself


@dataclass(frozen=True)
class Clause:
    """One property of an op in the custom syntax."""

    name: str
    kind: Kind
    optional: bool = False
    # Printed only when different from this value (MLIR's DefaultValuedAttr).
    default: Attribute | None = None
    # ARRAY element type (i64 for pad/stride/..., i32 for transpose perms).
    element: IntegerType = i64
    # ENUM attribute class.
    enum: type[EnumAttribute] | None = None
    # Left out of the attribute-dictionary form when equal to this value: MLIR 22 and the
    # translator elide DefaultValuedOptionalAttr values there (local_bound = false), while
    # current MLIR prints the keyword clause whenever the property is present.
    attr_dict_default: Attribute | None = None


def array(name: str, element: IntegerType = i64) -> Clause:
    return Clause(name, Kind.ARRAY, element=element)


def type_(name: str) -> Clause:
    return Clause(name, Kind.TYPE)


def int32(name: str) -> Clause:
    return Clause(name, Kind.INT)


def boolean(name: str, optional: bool = False, attr_dict_default: bool | None = None) -> Clause:
    default = None if attr_dict_default is None else BoolAttr.from_bool(attr_dict_default)
    return Clause(name, Kind.BOOL, optional=optional, attr_dict_default=default)


def string(name: str) -> Clause:
    return Clause(name, Kind.STRING)


def attr(name: str, optional: bool = False) -> Clause:
    return Clause(name, Kind.ATTR, optional=optional)


def enum_(name: str, enum_attr: type[EnumAttribute], default: Attribute | None = None) -> Clause:
    return Clause(name, Kind.ENUM, optional=default is not None, default=default, enum=enum_attr)


def property_constraint(clause: Clause):
    """The IRDL constraint of the property a clause spells (see ops.base.tosa_op_definition)."""
    from xdsl.irdl import AnyAttr, base

    # Element and value types as upstream's ODS (DenseI64ArrayAttr / DenseI32ArrayAttr,
    # I32Attr, BoolAttr): an `array<i24: ...>` or `axis = 1 : i7` is a verification error,
    # not a value the verifiers would misread.
    if clause.kind is Kind.ARRAY:
        return DenseArrayBase.constr(clause.element)
    if clause.kind is Kind.TYPE:
        return base(TypeAttribute)
    if clause.kind is Kind.INT:
        return IntegerAttr.constr(type=i32)
    if clause.kind is Kind.BOOL:
        return IntegerAttr.constr(type=i1)
    if clause.kind is Kind.STRING:
        return base(StringAttr)
    if clause.kind is Kind.ENUM:
        assert clause.enum is not None
        return base(clause.enum)
    return AnyAttr()
