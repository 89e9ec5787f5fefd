"""TOSA flatbuffer data types (`enum DType`) <-> MLIR element types, and the byte packing
of constant data as the serialization library writes it (tosa_serialization_handler's
ConvertXtoU8 functions):

- BOOL: one byte per element (0/1); INT8/16/32, INT64, FP16/32, BF16, FP8: little-endian
  element bits; INT48: six little-endian bytes per element; SHAPE: int64 per element;
- INT4: two elements per byte, the even-indexed element in the low nibble.

Data vectors may be longer than needed (the writer pads to 8 bytes); the excess is ignored.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute

from . import schema

_DTYPE_VALUE = {name: value for value, name in schema.ENUMS["DType"].items()}


def dtype_value(name: str) -> int:
    return _DTYPE_VALUE[name]


def dtype_name(value: int) -> str:
    return schema.ENUMS["DType"].get(value, f"<unknown DType {value}>")


def element_type(dtype: int) -> Attribute | None:
    """The MLIR element type of a DType value (None for types our dialect lacks)."""
    name = schema.ENUMS["DType"].get(dtype)
    if name in _INT_WIDTH:
        return IntegerType(_INT_WIDTH[name])
    return {"FP32": Float32Type(), "FP16": Float16Type(), "BF16": BFloat16Type(),
            "FP8E4M3": Float8E4M3FNType(), "FP8E5M2": Float8E5M2Type(),
            "SHAPE": IndexType()}.get(name or "")


_INT_WIDTH = {"BOOL": 1, "INT4": 4, "INT8": 8, "INT16": 16, "INT32": 32, "INT48": 48, "INT64": 64}
_WIDTH_INT = {w: n for n, w in _INT_WIDTH.items()}


def dtype_of(elt: Attribute) -> int | None:
    """The DType value of an MLIR element type (None when the flatbuffer has no such type)."""
    if isinstance(elt, IntegerType):
        if elt.signedness.data == Signedness.UNSIGNED and elt.width.data != 1:
            return None
        name = _WIDTH_INT.get(elt.width.data)
    elif isinstance(elt, IndexType):
        name = "SHAPE"
    else:
        name = {Float32Type: "FP32", Float16Type: "FP16", BFloat16Type: "BF16",
                Float8E4M3FNType: "FP8E4M3", Float8E5M2Type: "FP8E5M2"}.get(type(elt))
    return None if name is None else _DTYPE_VALUE[name]


# Element storage of the fixed-width types: numpy dtype of the bytes in the file.
_STORAGE = {"INT8": "<i1", "INT16": "<i2", "INT32": "<i4", "INT64": "<i8", "SHAPE": "<i8",
            "FP32": "<f4", "FP16": "<f2", "BF16": ml_dtypes.bfloat16,
            "FP8E4M3": ml_dtypes.float8_e4m3fn, "FP8E5M2": ml_dtypes.float8_e5m2}


def packed_size(dtype: int, count: int) -> int:
    name = dtype_name(dtype)
    if name == "INT4":
        return (count + 1) // 2
    if name == "BOOL":
        return count
    if name == "INT48":
        return 6 * count
    return np.dtype(_STORAGE[name]).itemsize * count


def unpack(data: memoryview | bytes, dtype: int, shape: tuple[int, ...]) -> np.ndarray:
    """Flatbuffer bytes -> numpy array of `shape` (the dtype dense.from_numpy expects).

    Raises ValueError when the data is too short or the type has no packing we know."""
    name = dtype_name(dtype)
    count = math.prod(shape)
    if name not in _STORAGE and name not in ("BOOL", "INT4", "INT48"):
        raise ValueError(f"no data packing known for type {name}")
    need = packed_size(dtype, count)
    if len(data) < need:
        raise ValueError(f"{name} data of {count} elements needs {need} bytes, has {len(data)}")
    raw = np.frombuffer(data, dtype=np.uint8, count=need)
    if name == "BOOL":
        return (raw != 0).reshape(shape)
    if name == "INT4":
        nib = np.empty(2 * need, dtype=np.uint8)
        nib[0::2], nib[1::2] = raw & 0xF, raw >> 4
        return ((nib[:count].astype(np.int8) << 4) >> 4).reshape(shape)
    if name == "INT48":
        wide = np.zeros((count, 8), dtype=np.uint8)
        wide[:, :6] = raw.reshape(count, 6)
        v = wide.view("<i8").reshape(count)
        return ((v << 16) >> 16).reshape(shape)
    return raw.view(_STORAGE[name]).reshape(shape)


def pack(values: np.ndarray, dtype: int) -> bytes:
    """numpy array (as dense.to_numpy returns it) -> flatbuffer bytes."""
    name = dtype_name(dtype)
    flat = np.ascontiguousarray(values).reshape(-1)
    if name == "BOOL":
        return flat.astype(np.uint8).tobytes()
    if name == "INT4":
        u = (flat.astype(np.int8) & 0xF).astype(np.uint8)
        if u.size % 2:
            u = np.append(u, np.uint8(0))
        return (u[0::2] | (u[1::2] << 4)).astype(np.uint8).tobytes()
    if name == "INT48":
        b = flat.astype("<i8").view(np.uint8).reshape(-1, 8)
        return np.ascontiguousarray(b[:, :6]).tobytes()
    storage = np.dtype(_STORAGE[name])
    return flat.astype(storage).tobytes()
