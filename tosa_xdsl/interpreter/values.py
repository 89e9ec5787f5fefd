"""How the interpreter represents TOSA values.

- a tensor is a numpy array whose dtype holds the element type exactly:
  i1 -> bool, i4/i8 -> int8, i16 -> int16, i32 -> int32, i48/i64 -> int64 (i48 values are kept
  within 48 bits by the operators), ui8/ui16 -> uint8/uint16, index -> int64,
  f16 -> float16, bf16 / f8E4M3FN / f8E5M2 -> the ml_dtypes types, f32 -> float32, f64 -> float64;
- a `!tosa.shape<N>` value is a tuple of N Python ints.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute

from tosa_xdsl.ir.access import element_type
from tosa_xdsl.ir.types import ShapeType

_FLOATS: dict[type, np.dtype] = {
    Float16Type: np.dtype(np.float16),
    BFloat16Type: np.dtype(ml_dtypes.bfloat16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
    Float8E4M3FNType: np.dtype(ml_dtypes.float8_e4m3fn),
    Float8E5M2Type: np.dtype(ml_dtypes.float8_e5m2),
}


def dtype_of(t: Attribute) -> np.dtype:
    """numpy dtype that stores elements of `t` (an element type or a tensor type)."""
    t = element_type(t)
    if isinstance(t, IntegerType):
        width = t.width.data
        unsigned = t.signedness.data == Signedness.UNSIGNED
        if width == 1:
            return np.dtype(np.bool_)
        for bits, (s, u) in ((8, (np.int8, np.uint8)), (16, (np.int16, np.uint16)),
                             (32, (np.int32, np.uint32)), (64, (np.int64, np.uint64))):
            if width <= bits:
                return np.dtype(u if unsigned else s)
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    dtype = _FLOATS.get(type(t))
    if dtype is not None:
        return dtype
    raise NotImplementedError(f"no numpy representation for element type {t}")


def bit_width(t: Attribute) -> int:
    """Bits of an integer element type (i48 -> 48), for wrapping and range checks."""
    t = element_type(t)
    if isinstance(t, IntegerType):
        return t.width.data
    raise TypeError(f"{t} is not an integer type")


def is_shape(t: Attribute) -> bool:
    return isinstance(t, ShapeType)


def check_value(value: object, t: Attribute) -> str | None:
    """Why `value` cannot stand for a value of type `t` (None when it can)."""
    if isinstance(t, ShapeType):
        if not isinstance(value, tuple) or len(value) != t.rank.data:
            return f"expected a shape of {t.rank.data} values"
        return None
    if not isinstance(value, np.ndarray):
        return f"expected a numpy array for {t}"
    if value.dtype != dtype_of(t):
        return f"expected dtype {dtype_of(t)} for {t}, got {value.dtype}"
    if isinstance(t, TensorType):
        shape = tuple(t.get_shape())
        if len(shape) != value.ndim or any(d >= 0 and d != v for d, v in zip(shape, value.shape)):
            return f"expected shape {list(shape)} for {t}, got {list(value.shape)}"
    return None
