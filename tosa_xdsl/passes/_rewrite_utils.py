"""Small helpers shared by the TOSA rewrite passes (canonicalize, optional decompositions,
reduce-transposes): reading constants, building tosa ops, checking types."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    TensorType,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_xdsl.dialects.tosa.ops.data_layout import ReshapeOp, TransposeOp
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.ir.access import is_float, static_shape
from tosa_xdsl.ir.types import ShapeType
from tosa_xdsl.verification.constants import (
    const_scalar,
    const_shape_values,
    const_tensor,
)

__all__ = [
    "const_scalar", "const_shape_values", "const_tensor", "splat_value", "is_float",
    "is_int", "int_width", "static_shape", "same_type", "make_const", "make_const_shape",
    "make_reshape", "make_transpose", "array_prop", "perms_of", "elem", "tensor_like",
]


def elem(value: SSAValue | Attribute) -> Attribute | None:
    t = value.type if isinstance(value, SSAValue) else value
    return t.element_type if isinstance(t, TensorType) else None


def is_int(value: SSAValue | Attribute) -> bool:
    e = elem(value)
    return isinstance(e, IntegerType) and e.width.data > 1


def int_width(value: SSAValue | Attribute) -> int | None:
    e = elem(value)
    return e.width.data if isinstance(e, IntegerType) else None


def same_type(a: SSAValue, b: SSAValue) -> bool:
    return a.type == b.type


def splat_value(value: SSAValue) -> np.ndarray | None:
    """The single element (as a 0-d array of the storage dtype) of a non-empty constant
    whose elements are all bitwise equal, else None."""
    arr = const_tensor(value)
    if arr is None or arr.size == 0:
        return None
    flat = np.ascontiguousarray(arr).reshape(-1)
    raw = flat.view(np.uint8).reshape(flat.size, -1)
    if not (raw == raw[0]).all():
        return None
    return flat[0:1].reshape(())


def is_splat_bits(value: SSAValue, number: float | int, negative_zero: bool | None = None) -> bool:
    """Whether `value` is a splat constant equal to `number`; for floats `negative_zero`
    (when not None) also fixes the sign bit of a zero."""
    s = splat_value(value)
    if s is None:
        return False
    if is_float(value):
        f = float(np.asarray(s, np.float64))
        if math.isnan(f) or f != number:
            return False
        if negative_zero is not None and f == 0.0:
            return math.copysign(1.0, f) < 0 if negative_zero else math.copysign(1.0, f) > 0
        return True
    return int(s) == number


def tensor_like(shape: Sequence[int], element_type: Attribute) -> TensorType:
    return TensorType(element_type, list(shape))


def make_const(array: np.ndarray, tensor_type: Attribute) -> ConstOp:
    from tosa_xdsl.ir.dense import from_numpy

    return ConstOp(from_numpy(array, tensor_type))


def make_const_shape(values: Sequence[int]) -> ConstShapeOp:
    values = [int(v) for v in values]
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(values)]), values)
    return ConstShapeOp(properties={"values": attr}, result_types=[ShapeType(len(values))])


def make_reshape(x: SSAValue, result_type: TensorType) -> list[Operation]:
    """[const_shape, reshape] turning `x` into the (static) `result_type`."""
    shape = make_const_shape(result_type.get_shape())
    return [shape, ReshapeOp(operands=[x, shape.output], result_types=[result_type])]


def make_transpose(x: SSAValue, perms: Sequence[int], result_type: Attribute | None = None) -> TransposeOp:
    if result_type is None:
        t = x.type
        assert isinstance(t, TensorType)
        shape = t.get_shape()
        result_type = TensorType(t.element_type, [shape[p] for p in perms])
    return TransposeOp(operands=[x], result_types=[result_type],
                       properties={"perms": DenseArrayBase.from_list(i32, [int(p) for p in perms])})


def array_prop(op: Operation, name: str) -> list[int] | None:
    attr = op.properties.get(name)
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.iter_values()]
    return None


def perms_of(op: TransposeOp) -> list[int] | None:
    return array_prop(op, "perms")


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def zero_shift() -> ConstOp:
    return make_const(np.zeros(1, np.int8), TensorType(i8, [1]))
