"""Small, generic accessors for ERROR_IF checks: static dims, array attributes, element types,
constant zero points / shape operands, and the exception helper.

Shapes follow tosa_xdsl.ir.access (dynamic dim = DYNAMIC, unranked = None); `static_dim`
gives None for a dim that is not known statically. A check decides what the static
information decides and skips the rest (a None in its inputs means "not known, skip").
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl.ir.access import element_type
from tosa_xdsl.verification.constants import const_scalar, const_shape_values


def fail(op: Operation, message: str) -> None:
    """Raise the verifier error `'<op name>' op <message>`."""
    raise VerifyException(f"'{op.name}' op {message}")


def first_known(*candidates: int | None) -> int | None:
    """The first of several readings of one shape symbol that is known (static)."""
    for c in candidates:
        if c is not None:
            return c
    return None


def element(value: SSAValue | None) -> str | None:
    """The element type of a tensor value as MLIR spells it ('i8', 'f32', 'bf16', ...)."""
    if value is None:
        return None
    return str(element_type(value.type))


def array_attr(op: Operation, name: str, length: int | None = None) -> tuple[int, ...] | None:
    """The integers of a DenseArray property/attribute, None when absent. With `length`, an
    array of another length is an error (the Arguments table fixes it, e.g. pad is [4])."""
    attr = op.properties.get(name, op.attributes.get(name))
    if attr is None:
        return None
    if not isinstance(attr, DenseArrayBase):
        fail(op, f"{name} must be a dense array of integers, got {attr}")
    values = tuple(int(v) for v in attr.get_values())
    if length is not None and len(values) != length:
        fail(op, f"{name} must have {length} elements, got {len(values)}: {list(values)}")
    return values


def bool_attr(op: Operation, name: str, default: bool = False) -> bool:
    """A BoolAttr-like property (`true`/`false`, i1 IntegerAttr); `default` when absent."""
    attr = op.properties.get(name, op.attributes.get(name))
    if attr is None:
        return default
    value = getattr(attr, "value", None)
    if value is not None and hasattr(value, "data"):
        return bool(value.data)
    return bool(getattr(attr, "data", default))


def const_int(value: SSAValue | None) -> int | None:
    """The single integer of a constant tensor<1xT> (zero point, shift), else None."""
    if value is None:
        return None
    v = const_scalar(value)
    if v is None or isinstance(v, float):
        return None if v is None or not float(v).is_integer() else int(v)
    return int(v)


def const_value(value: SSAValue | None) -> int | float | None:
    """The single element of a constant tensor<1xT> (int or float zero point), else None."""
    if value is None:
        return None
    v = const_scalar(value)
    if isinstance(v, bool):
        return int(v)
    return v


def const_shape(value: SSAValue | None, length: int | None = None) -> tuple[int, ...] | None:
    """The integers of a `!tosa.shape` operand produced by tosa.const_shape, else None
    (also None when it has not `length` elements: the type's rank is checked elsewhere)."""
    if value is None:
        return None
    values = const_shape_values(value)
    if values is None or (length is not None and len(values) != length):
        return None
    return tuple(int(v) for v in values)


def power_of_two(n: int) -> bool:
    return n > 0 and (n & (n - 1)) == 0
