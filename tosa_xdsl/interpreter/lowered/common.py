"""Shared helpers for the lowered-stage implementations (not an implementation module).

Values: tensors are numpy arrays of exactly `dtype_of(type)` (as at the TOSA level); a scalar
(an element-typed SSA value: i32, f16, index, i1) is a numpy value of exactly `dtype_of` its
type — a 0-d array, or, inside a vectorised `linalg.generic` body, an array over the
iteration space (the same code serves both). Python ints/floats/bools are accepted as inputs
(xDSL's stock implementations produce them) and converted on use.

Integers are handled by their bits: `ubits(x, w)` is the value's low `w` bits as uint64,
`sval(x, w)` its signed (two's complement) reading as int64, `uval` its unsigned reading;
`from_bits(u, t)` stores bits back in `t`'s representation (sign-extended for signless and
signed types, i1 as bool). Arithmetic in uint64 wraps modulo 2**64, hence modulo 2**w.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerType, Signedness, TensorType
from xdsl.ir import Attribute

from tosa_xdsl.interpreter.values import dtype_of
from tosa_xdsl.ir.access import is_float


def elem(t: Attribute) -> Attribute:
    """Element type of a tensor/shaped type, or `t` itself."""
    if isinstance(t, TensorType):
        return t.element_type
    get = getattr(t, "get_element_type", None)
    return get() if get is not None else t


def width(t: Attribute) -> int:
    t = elem(t)
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    raise TypeError(f"{t} is not an integer type")


def is_unsigned(t: Attribute) -> bool:
    t = elem(t)
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def arr(x: Any, t: Attribute | None = None) -> np.ndarray:
    """`x` as a numpy array (of `dtype_of(t)` when x is a Python number)."""
    if isinstance(x, np.ndarray):
        return x
    if t is not None and not isinstance(x, np.generic):
        return np.asarray(x, dtype=dtype_of(t))
    return np.asarray(x)


def ubits(x: Any, w: int) -> np.ndarray:
    a = arr(x)
    if a.dtype == np.bool_:
        u = a.astype(np.uint64)
    elif a.dtype.kind == "f":
        raise TypeError("integer operation on a float value")
    else:
        u = a.astype(np.int64).astype(np.uint64) if a.dtype.kind == "i" else a.astype(np.uint64)
    if w < 64:
        u = u & np.uint64((1 << w) - 1)
    return u


def sval(x: Any, w: int) -> np.ndarray:
    """Signed reading of the low w bits, as int64."""
    u = ubits(x, w)
    if w == 64:
        return u.view(np.int64) if u.ndim else np.asarray(u).astype(np.int64)
    sb = np.int64(1 << (w - 1))
    s = u.astype(np.int64)
    return (s ^ sb) - sb


def uval(x: Any, w: int) -> np.ndarray:
    return ubits(x, w)


def from_bits(u: Any, t: Attribute) -> np.ndarray:
    """Integer bits (any int array, wrapped to t's width) in t's numpy representation."""
    t = elem(t)
    w = width(t)
    dtype = dtype_of(t)
    u = np.asarray(u)
    if u.dtype.kind == "i":
        u = u.astype(np.uint64)
    elif u.dtype == np.bool_:
        u = u.astype(np.uint64)
    if w < 64:
        u = u & np.uint64((1 << w) - 1)
    if w == 1:
        return u.astype(np.bool_)
    if is_unsigned(t):
        return u.astype(dtype)
    if w == 64:
        return u.astype(np.int64)
    sb = np.int64(1 << (w - 1))
    return ((u.astype(np.int64) ^ sb) - sb).astype(dtype)


def from_signed(v: Any, t: Attribute) -> np.ndarray:
    """An int64 (signed) value wrapped into t."""
    return from_bits(np.asarray(v).astype(np.int64).astype(np.uint64), t)


_NARROW = {"bfloat16": "bf16", "float8_e4m3fn": "fp8e4m3", "float8_e5m2": "fp8e5m2"}


def _round_once(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """float64/int -> bf16/fp8 in ONE round-to-nearest-even step: ml_dtypes converts through
    float32, which rounds twice (e.g. i32 0x01010001 -> bf16 would give 2**24, not 2**24 + 2**17)."""
    from tosa_xdsl.numerics import round_to_nearest_float

    return round_to_nearest_float(a, _NARROW[dtype.name])


def to_float(x: Any, t: Attribute) -> np.ndarray:
    """x stored in float type t (rounding to nearest even, once)."""
    dtype = dtype_of(t)
    a = arr(x)
    if a.dtype == dtype:
        return a
    if dtype.name in _NARROW and (a.dtype == np.float64 or a.dtype.kind in "iub"):
        return _round_once(a, dtype)
    return a.astype(dtype)


def compute_dtype(t: Attribute) -> np.dtype:
    """Where transcendental math on t is computed before rounding back: f32 for <= 32 bits."""
    dtype = dtype_of(t)
    return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)


def cast_to(x: Any, src: Attribute, dst: Attribute, unsigned: bool = False) -> np.ndarray:
    """OpDSL TypeFn.cast_signed / cast_unsigned of value x (of element type src) to dst."""
    src, dst = elem(src), elem(dst)
    fs, fd = is_float(src), is_float(dst)
    if not fs and not fd:
        ws = width(src)
        v = uval(x, ws) if unsigned else sval(x, ws)
        return from_bits(v, dst)
    if not fs and fd:
        v = uval(x, width(src)) if unsigned else sval(x, width(src))
        return int_to_float(v, dst)
    if fs and not fd:
        return float_to_int(x, dst, unsigned)
    return to_float(x, dst)


def int_to_float(v: np.ndarray, dst: Attribute) -> np.ndarray:
    dtype = dtype_of(dst)
    if dtype in (np.float16, np.float32, np.float64):
        return np.asarray(v).astype(dtype)
    # bf16/fp8: one rounding from the exact value (exact in float64 for |v| < 2**53)
    return _round_once(np.asarray(v).astype(np.float64), dtype)


def float_to_int(x: Any, dst: Attribute, unsigned: bool) -> np.ndarray:
    """fptosi/fptoui: round toward zero; out of range is poison in MLIR (here: saturated)."""
    w = width(dst)
    f = arr(x).astype(np.float64)
    f = np.where(np.isnan(f), 0.0, np.trunc(f))
    if unsigned:
        hi = float(2 ** w - 1) if w < 64 else 1.8446744073709550e19
        v = np.clip(f, 0.0, hi).astype(np.uint64)
    else:
        lo, hi = (-(2.0 ** (w - 1)), 2.0 ** (w - 1) - 1) if w < 64 else (-9.2233720368547758e18, 9.2233720368547748e18)
        v = np.clip(f, lo, hi).astype(np.int64)
    return from_bits(v, dst)


def result_shape(op, index: int, dynamic: list[int]) -> tuple[int, ...]:
    """Static shape of result `index`, with the dynamic sizes (in order) filled in."""
    shape = list(op.results[index].type.get_shape())
    it = iter(int(d) for d in dynamic)
    return tuple(next(it) if d < 0 else d for d in shape)


def mixed(static: Any, dynamic: list[Any]) -> list[int]:
    """MLIR's static/dynamic mixed lists: entries equal to kDynamic come from `dynamic`."""
    it = iter(dynamic)
    out = []
    for v in static.get_values():
        out.append(int(next(it)) if v == -(2 ** 63) else int(v))
    return out


def slice_of(x: np.ndarray, op, dyn: list[Any], result_shape: list[int] | None, what: str) -> np.ndarray:
    """The strided part of `x` that a slice op (tensor.extract_slice / insert_slice,
    memref.subview) addresses -- offsets, sizes and strides from its static lists and the
    dynamic operands `dyn` -- as a numpy *view* of `x` (bounds checked). With `result_shape`
    of a lower rank (a rank-reducing slice), the unit dims the result leaves out are dropped,
    still as a view."""
    no, ns = len(op.offsets), len(op.sizes)
    offsets = mixed(op.static_offsets, dyn[:no])
    sizes = mixed(op.static_sizes, dyn[no:no + ns])
    strides = mixed(op.static_strides, dyn[no + ns:])
    for d, (o, n, s) in enumerate(zip(offsets, sizes, strides)):
        if n > 0 and (o < 0 or o + (n - 1) * s >= x.shape[d]):
            raise IndexError(f"{what}: slice out of bounds in dimension {d} "
                             f"(offset {o}, size {n}, stride {s}, extent {x.shape[d]})")
    view = x[tuple(slice(o, o + (n - 1) * s + 1 if n > 0 else o, s) for o, n, s in zip(offsets, sizes, strides))]
    if result_shape is not None and len(result_shape) != view.ndim:
        drop, j = [], 0
        for d, n in enumerate(sizes):
            if j < len(result_shape) and result_shape[j] == n and (n != 1 or len(sizes) - d <= len(result_shape) - j):
                j += 1
            else:
                drop.append(d)
        view = view.squeeze(axis=tuple(drop))
    return view


def lookup_global(op, name: str, kind: type):
    """The `kind` op (memref.global, ml_program.global) named `name` in `op`'s module."""
    from xdsl.traits import SymbolTable

    module = op
    while module.parent_op() is not None:
        module = module.parent_op()
    decl = SymbolTable.lookup_symbol(module, name)
    if not isinstance(decl, kind):
        raise ValueError(f"no {kind.name} @{name}")
    return decl


def scalar_int(x: Any) -> int:
    return int(np.asarray(x))


class VectorizeFail(Exception):
    """Raised by an op that needs a scalar where a vectorised linalg body passed an array
    (e.g. scf.if on a per-element condition): the generic then runs point by point."""
