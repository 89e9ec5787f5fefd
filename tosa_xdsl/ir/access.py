"""Reading types, shapes and properties off IR: one module, one convention, used everywhere
(verifiers, passes, interpreter, lowering).

The convention for shapes: a shape is a tuple of ints, a dynamic dimension is `DYNAMIC` (-1,
as MLIR's `?`), and the shape of an unranked tensor (or of a non-tensor) is None. xDSL keeps
dynamic dims as INT64_MIN internally: nothing outside this module sees that value.
`static_dim` is the accessor for checks that need a known size: None when the dim is dynamic,
out of range or the tensor unranked ("not known, skip").
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue

DYNAMIC = -1

Shape = tuple[int, ...] | None


def type_of(x: SSAValue | Attribute) -> Attribute:
    """The type of a value, or `x` itself when it is a type."""
    return x.type if isinstance(x, SSAValue) else x


def element_type(x: SSAValue | Attribute) -> Attribute:
    """The element type of a (ranked or unranked) tensor or memref value/type; the type
    itself otherwise."""
    t = type_of(x)
    if isinstance(t, (TensorType, UnrankedTensorType, MemRefType)):
        return t.element_type
    return t


def shape_of(x: SSAValue | Attribute | None) -> Shape:
    """The dims of a ranked tensor value/type (dynamic = DYNAMIC); None when unranked or not
    a tensor."""
    if x is None:
        return None
    t = type_of(x)
    if isinstance(t, TensorType):
        return tuple(d if d >= 0 else DYNAMIC for d in t.get_shape())
    return None


def rank_of(x: SSAValue | Attribute | None) -> int | None:
    shape = shape_of(x)
    return None if shape is None else len(shape)


def static_dim(x: SSAValue | Attribute | None, index: int) -> int | None:
    """Dim `index` (negative counts from the end) when known statically, else None."""
    shape = shape_of(x)
    if shape is None or not -len(shape) <= index < len(shape) or shape[index] == DYNAMIC:
        return None
    return shape[index]


def is_static(shape: Shape) -> bool:
    return shape is not None and all(d != DYNAMIC for d in shape)


def static_shape(x: SSAValue | Attribute | None) -> Shape:
    """The shape of a ranked tensor with no dynamic dim, else None."""
    shape = shape_of(x)
    return shape if is_static(shape) else None


def format_shape(shape: Shape) -> str:
    """`[2, ?, 3]` as the diagnostics spell a shape; `*` when unranked."""
    if shape is None:
        return "*"
    return "[" + ", ".join("?" if d == DYNAMIC else str(d) for d in shape) + "]"


def is_float(x: SSAValue | Attribute) -> bool:
    """True when the element type of a value/type (or the type itself) is a float type."""
    return isinstance(element_type(x), AnyFloat)


def attr_value(attr: Attribute | None) -> Any:
    """An attribute as a plain Python value: IntegerAttr -> int (i1 -> bool), FloatAttr ->
    float, StringAttr -> str, enum -> its string, UnitAttr -> True, DenseArrayBase -> list;
    None -> None; anything else unchanged."""
    if attr is None:
        return None
    if isinstance(attr, IntegerAttr):
        if isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
            return bool(attr.value.data)
        return int(attr.value.data)
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, UnitAttr):
        return True
    if isinstance(attr, EnumAttribute):
        return str(attr.data)
    if isinstance(attr, DenseArrayBase):
        return [int(v) if not isinstance(v, float) else v for v in attr.get_values()]
    return attr


def prop(op: Operation, name: str, default: Any = None) -> Any:
    """Property (or, for generic-form input, attribute) `name` of `op` as a plain Python
    value (see `attr_value`); `default` when absent."""
    attr = op.properties.get(name)
    if attr is None:
        attr = op.attributes.get(name)
    if attr is None:
        return default
    return attr_value(attr)
