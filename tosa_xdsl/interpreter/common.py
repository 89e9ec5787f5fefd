"""Small helpers shared by the interpreter's implementation modules (see __init__.py for the
registration convention)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_xdsl.interpreter.values import dtype_of
from tosa_xdsl.ir.access import attr_value, element_type, is_float, prop  # noqa: F401 -- the implementation modules' vocabulary

_FLOAT_NAMES = {
    Float16Type: "fp16", BFloat16Type: "bf16", Float32Type: "fp32", Float64Type: "fp64",
    Float8E4M3FNType: "fp8e4m3", Float8E5M2Type: "fp8e5m2",
}


@lru_cache(maxsize=None)
def _tname(t: Attribute) -> str:
    t = element_type(t)
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return "bool"
        if t.signedness.data == Signedness.UNSIGNED:
            return f"ui{width}"
        return f"i{width}"
    name = _FLOAT_NAMES.get(type(t))
    if name is None:
        raise NotImplementedError(f"no TOSA element type for {t}")
    return name


def tname(x: SSAValue | Attribute) -> str:
    """numerics' short name of the element type of a value or (tensor) type: "i8", "i48",
    "fp32", "bf16", "fp8e4m3", "bool", ..."""
    return _tname(x.type if isinstance(x, SSAValue) else x)


def rdtype(op: Operation, index: int = 0) -> np.dtype:
    """numpy dtype of result `index` of `op`."""
    return dtype_of(op.results[index].type)


def shape_arg(value: Any) -> tuple[int, ...]:
    """A `!tosa.shape` argument as a tuple of ints (also accepts an index tensor)."""
    if isinstance(value, tuple):
        return value
    return tuple(int(v) for v in np.asarray(value).reshape(-1))
