"""The TOSA 1.0.1 chapter-4 pseudocode helpers, vectorized with numpy.

One source of numeric truth for the interpreter, constant folding and the lowering's
tests: everything here follows the spec text (TOSA 1.0.1, chapter 4) and each
function cites the section it implements.

Conventions
-----------
* A TOSA element type is named by a short string: ``"bool"``, ``"i4"``, ``"i8"``, ``"i16"``,
  ``"i32"``, ``"i48"``, ``"ui8"``, ``"ui16"`` (the unsigned views RESCALE uses), ``"fp16"``,
  ``"bf16"``, ``"fp32"``, ``"fp8e4m3"``, ``"fp8e5m2"``, ``"fp64"``. Spec spellings
  (``"int8_t"``, ``"i8_t"``, ``"uint16_t"``, ``"fp8e4m3_t"``...) are accepted too.
* Values are numpy arrays (or scalars) in the *storage* dtype of `storage_dtype(t)`:
  i4 in int8, i48 in int64 (sign-extended from bit 47), bf16/fp8 as ml_dtypes types.
  Integer helpers compute in int64, the spec's own intermediate width, and return storage
  dtype arrays.
* ``require(cond, text)`` raises `TosaUnpredictable` (spec REQUIRE, 4.3) and
  ``error_if(cond, text)`` raises `TosaErrorIf` (spec ERROR_IF, 4.3); `cond` may be an array.
  Raising on the first failing check is allowed by the 4.3 implementation notes; a caller
  that needs "unpredictable overrides error" must run its REQUIRE checks first.
* No numpy warning or exception escapes for valid inputs: integer arithmetic that the spec
  defines as wrapping (static_cast, apply_mul_s) wraps silently; everything else is
  REQUIREd in range before it is narrowed.

Rounding to the small float formats is done here, not by ml_dtypes: ml_dtypes converts
float64 to bfloat16/fp8 through float32, which rounds twice (e.g. 1 + 2**-8 + 2**-30 gives
1.0 instead of 1 + 2**-7), and an int32 source can carry more than float32's 24 bits.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass

import ml_dtypes
import numpy as np

# --------------------------------------------------------------------------------------
# 4.3 Operator validation helpers
# --------------------------------------------------------------------------------------


class TosaNumericsError(Exception):
    """A spec check failed; `condition` is the text of the check (for diagnostics)."""

    def __init__(self, condition: str):
        super().__init__(condition)
        self.condition = condition


class TosaUnpredictable(TosaNumericsError):
    """REQUIRE failed: the graph result is tosa_unpredictable (spec 4.3)."""


class TosaErrorIf(TosaNumericsError):
    """ERROR_IF held: the graph result is tosa_error (spec 4.3)."""


# Who hears of a failed REQUIRE: None raises TosaUnpredictable; a callable is called with the
# condition text instead and computation goes on (tosa-run --allow-unpredictable).
_unpredictable_handler: ContextVar[Callable[[str], None] | None] = ContextVar(
    "tosa_unpredictable_handler", default=None
)


@contextlib.contextmanager
def on_unpredictable(handler: Callable[[str], None]) -> Iterator[None]:
    """Within this context a failed REQUIRE calls `handler(text)` instead of raising."""
    token = _unpredictable_handler.set(handler)
    try:
        yield
    finally:
        _unpredictable_handler.reset(token)


def require(cond, text: str) -> None:
    """Spec 4.3 REQUIRE: raise `TosaUnpredictable(text)` unless every element of cond holds
    (or report it to the handler installed with `on_unpredictable`)."""
    if not np.all(cond):
        handler = _unpredictable_handler.get()
        if handler is None:
            raise TosaUnpredictable(text)
        handler(text)


def error_if(cond, text: str) -> None:
    """Spec 4.3 ERROR_IF: raise `TosaErrorIf(text)` if any element of cond holds."""
    if np.any(cond):
        raise TosaErrorIf(text)


# --------------------------------------------------------------------------------------
# 1.9 Number formats: names, storage, ranges
# --------------------------------------------------------------------------------------

_ALIASES = {
    "bool_t": "bool", "i1": "bool",
    "i4_t": "i4", "int4_t": "i4", "int4": "i4",
    "i8_t": "i8", "int8_t": "i8", "int8": "i8",
    "i16_t": "i16", "int16_t": "i16", "int16": "i16",
    "i32_t": "i32", "int32_t": "i32", "int32": "i32",
    "i48_t": "i48", "int48_t": "i48", "int48": "i48",
    "i64_t": "i64", "int64_t": "i64", "int64": "i64",  # TOSA 1.1 EXT-INT64 (producers' index math)
    "uint8_t": "ui8", "uint8": "ui8", "u8": "ui8",
    "uint16_t": "ui16", "uint16": "ui16", "u16": "ui16",
    "uint32_t": "ui32", "uint32": "ui32",  # upstream's unsigned rows (verification/producer_types.py)
    "fp16_t": "fp16", "f16": "fp16", "float16": "fp16",
    "bf16_t": "bf16", "bfloat16": "bf16",
    "fp32_t": "fp32", "f32": "fp32", "float32": "fp32",
    "fp64_t": "fp64", "f64": "fp64", "float64": "fp64",
    "fp8e4m3_t": "fp8e4m3", "f8e4m3fn": "fp8e4m3", "f8E4M3FN": "fp8e4m3",
    "fp8e5m2_t": "fp8e5m2", "f8e5m2": "fp8e5m2", "f8E5M2": "fp8e5m2",
}


@dataclass(frozen=True)
class _Int:
    bits: int
    signed: bool
    storage: np.dtype


@dataclass(frozen=True)
class _Float:
    frac: int  # normal_frac<in_t>() (4.5.3): mantissa bits
    emin: int  # exponent of normal_min<in_t>() (4.5.3)
    max: float  # normal_max<in_t>() (4.5.3)
    has_inf: bool  # fp8e4m3 has no infinity (1.9)
    storage: np.dtype


_INTS = {
    "bool": _Int(1, False, np.dtype(np.bool_)),
    "i4": _Int(4, True, np.dtype(np.int8)),
    "i8": _Int(8, True, np.dtype(np.int8)),
    "i16": _Int(16, True, np.dtype(np.int16)),
    "i32": _Int(32, True, np.dtype(np.int32)),
    "i48": _Int(48, True, np.dtype(np.int64)),
    "i64": _Int(64, True, np.dtype(np.int64)),
    "ui8": _Int(8, False, np.dtype(np.uint8)),
    "ui16": _Int(16, False, np.dtype(np.uint16)),
    "ui32": _Int(32, False, np.dtype(np.uint32)),
}

_FLOATS = {
    "fp16": _Float(10, -14, 2.0**16 - 2.0**5, True, np.dtype(np.float16)),
    "bf16": _Float(7, -126, 2.0**128 - 2.0**120, True, np.dtype(ml_dtypes.bfloat16)),
    "fp32": _Float(23, -126, 2.0**128 - 2.0**104, True, np.dtype(np.float32)),
    "fp8e4m3": _Float(3, -6, 2.0**9 - 2.0**6, False, np.dtype(ml_dtypes.float8_e4m3fn)),
    "fp8e5m2": _Float(2, -14, 2.0**16 - 2.0**13, True, np.dtype(ml_dtypes.float8_e5m2)),
    "fp64": _Float(52, -1022, float(np.finfo(np.float64).max), True, np.dtype(np.float64)),
}


class UnknownElementType(ValueError):
    """A type no TOSA 1.0.1 table has (a producer's ui32, which the verifier lets through as
    upstream's does): the interpreter reports the op as unsupported."""

    def __init__(self, t: str):
        super().__init__(f"unknown TOSA element type {t!r}")
        self.type_text = t


def type_name(t: str) -> str:
    """Normalize a type spelling (spec or MLIR) to this module's short name."""
    t = _ALIASES.get(t, t)
    if t not in _INTS and t not in _FLOATS:
        raise UnknownElementType(t)
    return t


def is_floating_point(t: str) -> bool:
    """Spec 4.5.4 is_floating_point<type>() (fp64 included, for precise-mode callers)."""
    return type_name(t) in _FLOATS


def bit_width(t: str) -> int:
    """Width of an integer type in bits (bool counts as 1)."""
    return _INTS[type_name(t)].bits


def storage_dtype(t: str) -> np.dtype:
    """The numpy dtype that holds values of type t (i4 -> int8, i48 -> int64)."""
    t = type_name(t)
    return (_INTS.get(t) or _FLOATS[t]).storage


def _signed_range(bits: int) -> tuple[int, int]:
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def minimum_s(t: str) -> int:
    """Spec 4.5.4 minimum_s / table 5 (1.9). int4_t is -7: 1.9 excludes -8 for symmetry."""
    t = type_name(t)
    if t == "i4":
        return -7
    return _signed_range(_INTS[t].bits)[0]


def maximum_s(t: str) -> int:
    """Spec 4.5.4 maximum_s / table 5 (1.9)."""
    return _signed_range(_INTS[type_name(t)].bits)[1]


def minimum_u(t: str) -> int:
    """Spec 4.5.4 minimum_u (make_unsigned is defined for i8/i16 only, 4.5.2)."""
    _INTS[type_name(t)]
    return 0


def maximum_u(t: str) -> int:
    """Spec 4.5.4 maximum_u: 255 for i8/ui8, 65535 for i16/ui16."""
    return (1 << _INTS[type_name(t)].bits) - 1


# --------------------------------------------------------------------------------------
# 4.5.2 / 4.5.4 integer conversions
# --------------------------------------------------------------------------------------


def _i64(x) -> np.ndarray:
    return np.asarray(x).astype(np.int64)


def wrap(x, bits: int, signed: bool = True) -> np.ndarray:
    """Keep the low `bits` bits of int64 x, read back as signed or unsigned (two's complement)."""
    x = _i64(x)
    if bits >= 64:
        return x
    mask = np.int64((1 << bits) - 1)
    low = x & mask
    if not signed:
        return low
    sign = np.int64(1 << (bits - 1))
    return (low ^ sign) - sign


def sign_extend(x, in_t: str) -> np.ndarray:
    """Spec 4.5.4 sign_extend<int64_t>: the value of x read as a signed in_t, as int64."""
    return wrap(x, _INTS[type_name(in_t)].bits, signed=True)


def zero_extend(x, in_t: str) -> np.ndarray:
    """Spec 4.5.4 zero_extend<int64_t>: the bits of x read as an unsigned in_t, as int64."""
    return wrap(x, _INTS[type_name(in_t)].bits, signed=False)


def truncate(x, out_t: str) -> np.ndarray:
    """Spec 4.5.4 truncate<out_t>: the low sizeof(out_t) bits, in out_t's storage dtype.

    bool keeps only bit 0 (the reference model stores bool as 0/1)."""
    out_t = type_name(out_t)
    info = _INTS[out_t]
    return wrap(x, info.bits, signed=info.signed).astype(info.storage)


def static_cast(x, in_t: str, out_t: str) -> np.ndarray:
    """Spec 4.5.2 static_cast<out_t> between integer types.

    Sign-extends signed inputs, zero-extends unsigned (ui8/ui16) inputs, then truncates to
    out_t (signless types are read as signed). Float targets take the exact value when
    representable, otherwise round to nearest (`round_to_nearest_float`)."""
    in_t, out_t = type_name(in_t), type_name(out_t)
    v = _as_int64_value(x, in_t)
    if out_t in _FLOATS:
        return round_to_nearest_float(v, out_t)
    return truncate(v, out_t)


def _as_int64_value(x, in_t: str) -> np.ndarray:
    info = _INTS[in_t]
    if in_t == "bool":
        return (np.asarray(x) != 0).astype(np.int64)
    return wrap(x, info.bits, signed=info.signed)


def bitcast(x, in_t: str, out_t: str) -> np.ndarray:
    """Spec 4.5.2 bitcast<out_t>: same-width integer reinterpretation."""
    if bit_width(in_t) != bit_width(out_t):
        raise ValueError("bitcast needs types of the same width")
    return truncate(_i64(x), out_t)


# --------------------------------------------------------------------------------------
# 4.5.1 Arithmetic helpers
# --------------------------------------------------------------------------------------


def _float_op(fn, a, b, t: str):
    dt = storage_dtype(t)
    with np.errstate(all="ignore"):
        if dt in (np.float16, np.float32, np.float64):
            return fn(np.asarray(a, dt), np.asarray(b, dt)).astype(dt)
        # bf16/fp8: compute exactly in fp64 (one operation on two such values is exact
        # or rounds once there) and round once to the format.
        r = fn(np.asarray(a).astype(np.float64), np.asarray(b).astype(np.float64))
        return round_to_nearest_float(r, t)


def _checked(c: np.ndarray, t: str, what: str) -> np.ndarray:
    require((c >= minimum_s(t)) & (c <= maximum_s(t)), f"{what}: result out of range of {t}")
    return truncate(c, t)


def apply_add_s(a, b, t: str):
    """Spec 4.5.1 apply_add_s: float add; integer add REQUIREs no signed overflow."""
    t = type_name(t)
    if t in _FLOATS:
        return _float_op(np.add, a, b, t)
    return _checked(sign_extend(a, t) + sign_extend(b, t), t, "apply_add_s")


def apply_sub_s(a, b, t: str):
    """Spec 4.5.1 apply_sub_s: float subtract; integer subtract REQUIREs no signed overflow."""
    t = type_name(t)
    if t in _FLOATS:
        return _float_op(np.subtract, a, b, t)
    return _checked(sign_extend(a, t) - sign_extend(b, t), t, "apply_sub_s")


def apply_add_u(a, b, t: str):
    """Spec 4.5.1 apply_add_u: unsigned add, REQUIRE result <= maximum_u."""
    t = type_name(t)
    c = zero_extend(a, t) + zero_extend(b, t)
    require(c <= maximum_u(t), f"apply_add_u: result out of range of {t}")
    return truncate(c, t)


def apply_sub_u(a, b, t: str):
    """Spec 4.5.1 apply_sub_u: unsigned subtract, REQUIRE no wrap below zero."""
    t = type_name(t)
    c = zero_extend(a, t) - zero_extend(b, t)
    require(c >= 0, f"apply_sub_u: result out of range of {t}")
    return truncate(c, t)


def apply_mul_s(a, b, t: str):
    """Spec 4.5.1 apply_mul_s: float multiply; integer multiply keeps the low bits of the
    64-bit product (static_cast, no REQUIRE): i32*i32 wraps, as MUL's shift=0 path says."""
    t = type_name(t)
    if t in _FLOATS:
        return _float_op(np.multiply, a, b, t)
    with np.errstate(over="ignore"):
        # int64 wrap keeps the low 64 bits, which include the low bits we keep
        c = sign_extend(a, t) * sign_extend(b, t)
    return truncate(c, t)


def apply_intdiv_s(a, b, t: str):
    """Spec 4.5.1 apply_intdiv_s: divide truncating toward zero; REQUIRE result in range
    (INT32_MIN / -1). Division by zero is REQUIREd away by the caller (INTDIV, 2.5.6)."""
    t = type_name(t)
    a, b = sign_extend(a, t), sign_extend(b, t)
    require(b != 0, "apply_intdiv_s: division by zero")
    return _checked(_trunc_div(a, b), t, "apply_intdiv_s")


def _trunc_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # numpy // floors; C / truncates toward zero. |a|,|b| < 2**48 so abs cannot overflow.
    q = np.abs(a) // np.where(b == 0, 1, np.abs(b))
    return np.where((a < 0) != (b < 0), -q, q)


def apply_arith_rshift(a, b, t: str):
    """Spec 4.5.1 apply_arith_rshift: sign_extend<int32_t>(a) >> b, cast back to t.

    The shift amount is REQUIREd in 0..bits-1 by ARITHMETIC_RIGHT_SHIFT (2.5.2); it is
    clamped here only so numpy never sees an out-of-range shift."""
    t = type_name(t)
    c = sign_extend(a, t) >> np.clip(sign_extend(b, t), 0, 63)
    return truncate(c, t)


def apply_logical_rshift(a, b, t: str):
    """Spec 4.5.1 apply_logical_rshift: zero_extend<uint32_t>(a) >> b, cast back to t."""
    t = type_name(t)
    c = zero_extend(a, t) >> np.clip(sign_extend(b, t), 0, 63)
    return truncate(c, t)


def compare_nan(a, b, nan_mode: str = "PROPAGATE"):
    """Spec 4.5.1 compare_nan: the value for a pair with at least one NaN."""
    a, b = np.asarray(a), np.asarray(b)
    if str(nan_mode) == "PROPAGATE":
        return np.full(np.broadcast(a, b).shape, np.nan).astype(a.dtype)
    return np.where(np.isnan(a), b, a)


def _minmax(a, b, t: str, nan_mode: str, take_a_fn):
    t = type_name(t)
    if t in _FLOATS:
        dt = storage_dtype(t)
        a, b = np.asarray(a, dt), np.asarray(b, dt)
        with np.errstate(invalid="ignore"):
            plain = np.where(take_a_fn(a, b), a, b)
        nan = np.isnan(a) | np.isnan(b)
        if str(nan_mode) == "PROPAGATE":
            nan_val = np.array(np.nan).astype(dt)
        else:
            nan_val = np.where(np.isnan(a), b, a)
        return np.where(nan, nan_val, plain).astype(dt)
    return np.where(take_a_fn(sign_extend(a, t), sign_extend(b, t)), a, b).astype(storage_dtype(t))


def apply_max_s(a, b, t: str, nan_mode: str = "PROPAGATE"):
    """Spec 4.5.1 apply_max_s (a >= b keeps a; NaN per nan_mode PROPAGATE/IGNORE)."""
    return _minmax(a, b, t, nan_mode, lambda x, y: x >= y)


def apply_min_s(a, b, t: str, nan_mode: str = "PROPAGATE"):
    """Spec 4.5.1 apply_min_s (a < b keeps a; NaN per nan_mode PROPAGATE/IGNORE)."""
    return _minmax(a, b, t, nan_mode, lambda x, y: x < y)


def apply_max_u(a, b, t: str):
    """Spec 4.5.1 apply_max_u: compare as unsigned."""
    return np.where(zero_extend(a, t) >= zero_extend(b, t), a, b).astype(storage_dtype(t))


def apply_min_u(a, b, t: str):
    """Spec 4.5.1 apply_min_u: compare as unsigned."""
    return np.where(zero_extend(a, t) < zero_extend(b, t), a, b).astype(storage_dtype(t))


def apply_clip_s(value, min_val, max_val, t: str, nan_mode: str = "PROPAGATE"):
    """Spec 4.5.1 apply_clip_s: max with min_val, then min with max_val (REQUIRE min <= max,
    and for floats that neither bound is NaN)."""
    t = type_name(t)
    if t in _FLOATS:
        with np.errstate(invalid="ignore"):
            require(np.asarray(min_val) <= np.asarray(max_val), "apply_clip_s: min_val > max_val")
        require(~np.isnan(min_val) & ~np.isnan(max_val), "apply_clip_s: NaN bound")
    else:
        require(sign_extend(min_val, t) <= sign_extend(max_val, t), "apply_clip_s: min_val > max_val")
    value = apply_max_s(value, min_val, t, nan_mode)
    return apply_min_s(value, max_val, t, nan_mode)


def apply_clip_u(value, min_val, max_val, t: str):
    """Spec 4.5.1 apply_clip_u: unsigned clip (REQUIRE min <= max)."""
    require(zero_extend(min_val, t) <= zero_extend(max_val, t), "apply_clip_u: min_val > max_val")
    return apply_min_u(apply_max_u(value, min_val, t), max_val, t)


def count_leading_zeros_of(a, t: str) -> np.ndarray:
    """Leading zero bits of the `t`-wide bit pattern of a (math.ctlz at the type's width):
    the width for 0; 0 for values whose top bit is set."""
    bits = bit_width(t)
    x = wrap(a, bits, signed=False).astype(np.uint64)
    n = np.zeros(x.shape, np.int64)
    for step in (32, 16, 8, 4, 2, 1):  # binary search for the highest set bit, 64-bit wide
        top_empty = (x >> np.uint64(64 - step)) == 0
        n = np.where(top_empty, n + step, n)
        x = np.where(top_empty, x << np.uint64(step), x)
    return truncate(np.where(wrap(a, bits, signed=False) == 0, 64, n) - (64 - bits), t)


def count_leading_zeros(a) -> np.ndarray:
    """Spec 4.5.1 count_leading_zeros(int32_t): 32 for 0, 0 for negative values."""
    x = wrap(a, 32, signed=False)
    n = np.zeros(x.shape, np.int64)
    # binary search on the bit position: 16, 8, 4, 2, 1
    for step in (16, 8, 4, 2, 1):
        top_empty = (x >> (32 - step)) == 0
        n = np.where(top_empty, n + step, n)
        x = np.where(top_empty, (x << step) & 0xFFFFFFFF, x)
    return np.where(wrap(a, 32, signed=False) == 0, 32, n).astype(np.int32)


# --------------------------------------------------------------------------------------
# 4.5.4 idiv helpers
# --------------------------------------------------------------------------------------


def idiv(a, b):
    """Spec 4.5.4 idiv: integer divide truncating toward zero."""
    return _trunc_div(_i64(a), _i64(b))


def idiv_check(a, b):
    """Spec 4.5.4 idiv_check: ERROR_IF a is not a multiple of b, then the exact quotient."""
    a, b = _i64(a), _i64(b)
    error_if(a - _trunc_div(a, b) * b != 0, "idiv_check: input1 % input2 != 0")
    return _trunc_div(a, b)


def idiv_floor(a, b):
    """Spec 4.5.4 idiv_floor: integer divide rounding toward minus infinity."""
    return _i64(a) // _i64(b)


# --------------------------------------------------------------------------------------
# 4.5.5 Scaling helpers and RESCALE (2.13.2)
# --------------------------------------------------------------------------------------


def apply_scale_32(value, multiplier, shift, double_round=False) -> np.ndarray:
    """Spec 4.5.5 apply_scale_32: (value * multiplier + round) >> shift with 64-bit
    intermediates. REQUIREs multiplier >= 0, 2 <= shift <= 62 and
    -(1 << (shift-1)) <= value < (1 << (shift-1)). DOUBLE_ROUND (double_round=True) adds
    +-(1 << 30) to the rounding constant when shift > 31. Returns int32."""
    value = wrap(value, 32)  # the parameter is int32_t
    multiplier, shift = _i64(multiplier), _i64(shift)
    require(multiplier >= 0, "apply_scale_32: multiplier < 0")
    require((shift >= 2) & (shift <= 62), "apply_scale_32: shift out of 2..62")
    sh = np.clip(shift, 2, 62)
    require((value >= -(np.int64(1) << (sh - 1))) & (value < (np.int64(1) << (sh - 1))),
            "apply_scale_32: value out of range for shift")
    rnd = np.int64(1) << (sh - 1)
    if np.any(double_round):
        adj = np.where(value >= 0, np.int64(1 << 30), np.int64(-(1 << 30)))
        rnd = rnd + np.where(np.asarray(double_round) & (sh > 31), adj, 0)
    # |value| <= 2**31, multiplier < 2**31, round < 2**62: the sum fits int64
    result = (value * multiplier + rnd) >> sh
    return result.astype(np.int32)


def apply_scale_16(value, multiplier, shift) -> np.ndarray:
    """Spec 4.5.5 apply_scale_16: (int48 value * int16 multiplier + round) >> shift;
    REQUIREs multiplier >= 0, 2 <= shift <= 62 and the result in int32 range."""
    value = wrap(value, 48)
    multiplier = wrap(multiplier, 16)
    shift = _i64(shift)
    require(multiplier >= 0, "apply_scale_16: multiplier < 0")
    require((shift >= 2) & (shift <= 62), "apply_scale_16: shift out of 2..62")
    sh = np.clip(shift, 2, 62)
    # |value| <= 2**47, multiplier < 2**15: product + round < 2**63
    result = (value * multiplier + (np.int64(1) << (sh - 1))) >> sh
    require((result >= -(1 << 31)) & (result <= (1 << 31) - 1),
            "apply_scale_16: result out of int32 range")
    return result.astype(np.int32)


def reciprocal_scale(value) -> tuple[np.ndarray, np.ndarray]:
    """Spec 4.5.5 reciprocal_scale(uint32): (multiplier, shift) approximating 1/value."""
    value = _i64(value)
    require(value > 0, "reciprocal_scale: value <= 0")
    k = 32 - count_leading_zeros(np.maximum(value, 1) - 1).astype(np.int64)
    numerator = ((np.int64(1) << 30) + 1) << k
    return (numerator // np.maximum(value, 1)).astype(np.int32), (30 + k).astype(np.int8)


ROUNDING_MODES = ("SINGLE_ROUND", "INEXACT_ROUND", "DOUBLE_ROUND")


def rescale(x, multiplier, shift, input_zp, output_zp, *, in_t: str, out_t: str,
            scale32: bool, rounding_mode: str = "SINGLE_ROUND", per_channel: bool = False,
            input_unsigned: bool = False, output_unsigned: bool = False) -> np.ndarray:
    """Spec 2.13.2 RESCALE, the whole operator function (ERROR_IF checks included).

    INEXACT_ROUND is computed exactly as SINGLE_ROUND: the spec's precision rule says an
    exact SINGLE_ROUND result always meets the INEXACT_ROUND bound (see
    `rescale_inexact_bounds`). Returns out_t storage (ui8/ui16 outputs come back as
    uint8/uint16 when output_unsigned, i.e. the bits the spec writes).

    Note the spec pseudocode's `value = sign_extend<int48_t>(value)` is a typo for
    `in_value`; this reads in_value."""
    in_t, out_t = type_name(in_t), type_name(out_t)
    rounding_mode = str(rounding_mode)
    if rounding_mode not in ROUNDING_MODES:
        raise ValueError(f"unknown rounding_mode {rounding_mode!r}")
    in_zp = np.asarray(input_zp).reshape(-1)[0]
    out_zp = np.asarray(output_zp).reshape(-1)[0]
    in_zp_u = int(zero_extend(in_zp, in_t))
    out_zp_u = int(zero_extend(out_zp, out_t))
    error_if(in_t != "i8" and (in_t != "i16" or not input_unsigned) and in_zp_u != 0,
             "RESCALE: input_zp must be 0 for this input type")
    error_if(out_t != "i8" and (out_t != "i16" or not output_unsigned) and out_zp_u != 0,
             "RESCALE: output_zp must be 0 for this output type")
    error_if(in_t == "i16" and input_unsigned and in_zp_u not in (0, 32768),
             "RESCALE: uint16 input_zp must be 0 or 32768")
    error_if(out_t == "i16" and output_unsigned and out_zp_u not in (0, 32768),
             "RESCALE: uint16 output_zp must be 0 or 32768")
    error_if(scale32 and in_t == "i48", "RESCALE: scale32 with i48 input")
    error_if(not scale32 and rounding_mode == "DOUBLE_ROUND", "RESCALE: DOUBLE_ROUND needs scale32")
    error_if(input_unsigned and output_unsigned, "RESCALE: input and output both unsigned")
    error_if(out_t == "i32" and input_unsigned, "RESCALE: i32 output with unsigned input")
    error_if(in_t in ("i32", "i48") and (output_unsigned or input_unsigned),
             "RESCALE: unsigned with i32/i48 input")
    error_if(out_t == "i32" and output_unsigned, "RESCALE: unsigned i32 output")
    x = np.asarray(x)
    error_if(per_channel and x.ndim < 1, "RESCALE: per_channel needs rank >= 1")

    ext = zero_extend if input_unsigned else sign_extend
    value = ext(x, in_t) - ext(in_zp, in_t)
    mult = np.asarray(multiplier).reshape(-1)
    sh = np.asarray(shift).reshape(-1)
    # per channel: index c = last axis, which broadcasting does; per tensor: entry 0
    if not per_channel:
        mult, sh = mult[0], sh[0]
    if scale32:
        result = apply_scale_32(value, wrap(mult, 32), wrap(sh, 8),
                                rounding_mode == "DOUBLE_ROUND").astype(np.int64)
    else:
        result = apply_scale_16(value, wrap(mult, 16), wrap(sh, 8)).astype(np.int64)
    if output_unsigned:
        result = _checked(result + zero_extend(out_zp, out_t), "i32", "RESCALE output_zp add")
        result = np.clip(result.astype(np.int64), minimum_u(out_t), maximum_u(out_t))
        return truncate(result, "ui8" if bit_width(out_t) == 8 else "ui16")
    result = _checked(result + sign_extend(out_zp, out_t), "i32", "RESCALE output_zp add")
    # i4 (upstream's rows; the spec has no i4 RESCALE): upstream clips to the full range, -8
    low = -8 if out_t == "i4" else minimum_s(out_t)
    result = np.clip(result.astype(np.int64), low, maximum_s(out_t))
    return truncate(result, out_t)


def rescale_inexact_bounds(x, multiplier, shift, input_zp, output_zp, out_t: str):
    """Spec 2.13.2 precision requirements for INEXACT_ROUND: (out_ref_min_int,
    out_ref_max_int), the inclusive interval an implementation's output must lie in.
    x, input_zp are the (already sign/zero-extended) integer values."""
    x = _i64(x).astype(np.float64)
    with np.errstate(all="ignore"):
        out_ref = (x - float(input_zp)) * _i64(multiplier) * np.exp2(-_i64(shift).astype(np.float64))
        err = 0.5 + (3 * np.abs(out_ref) + np.abs(out_ref + output_zp)) * 2.0**(-23 - 1)
    lo = np.clip(np.ceil(out_ref - err + output_zp), minimum_s(out_t), maximum_s(out_t))
    hi = np.clip(np.floor(out_ref + err + output_zp), minimum_s(out_t), maximum_s(out_t))
    return lo.astype(np.int64), hi.astype(np.int64)


# --------------------------------------------------------------------------------------
# Elementwise integer operators whose arithmetic is pure helper composition
# --------------------------------------------------------------------------------------


def mul(a, b, shift, in_t: str, out_t: str | None = None):
    """Spec 2.5.14 MUL: float multiply, or integer product with the i32 rounding shift.

    shift > 0 (i32 only): (a * b + (1 << (shift-1))) >> shift, REQUIRE in int32 range;
    otherwise the low bits of the product in out_t (i8/i16 -> i32, i32 wraps)."""
    in_t = type_name(in_t)
    out_t = type_name(out_t or ("i32" if in_t in _INTS else in_t))
    shift = int(np.asarray(shift).reshape(-1)[0]) if np.size(shift) else 0
    require(0 <= shift <= 63, "MUL: shift out of 0..63")
    require(in_t == "i32" or shift == 0, "MUL: shift != 0 for non-i32 input")
    if in_t in _FLOATS:
        return apply_mul_s(a, b, in_t)
    if in_t == "i32" and shift > 0:
        with np.errstate(over="ignore"):
            product = sign_extend(a, "i32") * sign_extend(b, "i32")  # |p| <= 2**62
        product = (product + (np.int64(1) << (shift - 1))) >> shift
        return _checked(product, "i32", "MUL: shifted product")
    # an unsigned in_t (upstream's rows: ui8 x ui8 -> ui32) multiplies the unsigned values
    ext = zero_extend if in_t.startswith("ui") else sign_extend
    return apply_mul_s(ext(a, in_t), ext(b, in_t), out_t)


def arithmetic_right_shift(a, b, t: str, round: bool = False):
    """Spec 2.5.2 ARITHMETIC_RIGHT_SHIFT (REQUIRE 0 <= shift < bits; optional rounding)."""
    t = type_name(t)
    b64 = sign_extend(b, t)
    require((b64 >= 0) & (b64 <= bit_width(t) - 1), f"ARITHMETIC_RIGHT_SHIFT: shift out of range for {t}")
    result = sign_extend(apply_arith_rshift(a, b, t), t)
    if round:
        prev = sign_extend(apply_arith_rshift(a, np.maximum(b64 - 1, 0), t), t)
        result = result + ((b64 > 0) & ((prev & 1) != 0))
    # result + 1 cannot leave the type: the rounding bit is only set below the top
    return truncate(result, t)


def intdiv(a, b, t: str = "i32"):
    """Spec 2.5.6 INTDIV: REQUIRE b != 0, then apply_intdiv_s."""
    require(np.asarray(b) != 0, "INTDIV: division by zero")
    return apply_intdiv_s(a, b, t)


# --------------------------------------------------------------------------------------
# 1.12.5 / 2.5.17 TABLE
# --------------------------------------------------------------------------------------


def apply_lookup_s(table, value) -> np.ndarray:
    """Spec 1.12.5 apply_lookup_s: 513-entry int16 table, 9.7 fixed-point index with
    linear interpolation; REQUIRE the slope fits int16. Returns the 16.7 value as int32."""
    table = sign_extend(np.asarray(table).reshape(-1), "i16")
    require(table.size == 513, "TABLE: int16 table needs 513 entries")
    clipped = np.clip(_i64(value), -32768, 32767)
    index = (clipped + 32768) >> 7
    fraction = clipped & 0x7F
    base, nxt = table[index], table[index + 1]
    slope = nxt - base
    require((slope >= -32768) & (slope <= 32767), "apply_lookup_s: slope out of int16 range")
    return ((base << 7) + slope * fraction).astype(np.int32)


def table_lookup(x, table, in_t: str):
    """Spec 2.5.17 TABLE: i8 -> table[x + 128] (256 entries); i16 -> apply_lookup_s."""
    in_t = type_name(in_t)
    if in_t == "i8":
        table = np.asarray(table).reshape(-1)
        require(table.size == 256, "TABLE: int8 table needs 256 entries")
        return table.astype(np.int8)[sign_extend(x, "i8") + 128]
    return apply_lookup_s(table, sign_extend(x, "i16"))


def generate_lookup_table(reference) -> np.ndarray:
    """Spec 1.12.5 generate_lookup_table: 513 int16 entries from a vectorized function of
    the int32 inputs -256..256 (clipped to int16)."""
    values = _i64(reference(np.arange(-256, 257, dtype=np.int64)))
    return np.clip(values, -32768, 32767).astype(np.int16)


# --------------------------------------------------------------------------------------
# 4.5.4 Numeric conversion helpers and CAST (2.13.1)
# --------------------------------------------------------------------------------------


def round_to_nearest_int(f) -> np.ndarray:
    """Spec 4.5.4 round_to_nearest_int: round half to even (CAST, 2.13.1), as float64."""
    return np.rint(np.asarray(f).astype(np.float64))


def round_to_nearest_float(x, out_t: str) -> np.ndarray:
    """Spec 4.5.4 round_to_nearest_float: one round-to-nearest-even step from the exact
    value of x (any int or float array; ints up to 2**53) into out_t.

    Non-NaN values beyond the range become infinity of the right sign, or NaN for fp8e4m3,
    which has no infinity (1.9; OCP non-saturating mode, as 2.13.1 asks). Subnormals of
    out_t are produced (flush-to-zero is allowed by 2.13.1 but not required); -0.0 stays."""
    out_t = type_name(out_t)
    info = _FLOATS[out_t]
    x = np.asarray(x)
    v = x.astype(np.float64) if x.dtype != np.float64 else x
    if out_t == "fp64":
        return v
    with np.errstate(all="ignore"):
        if out_t in ("fp32", "fp16"):
            # numpy's float64 -> float32/float16 casts round once, to nearest even
            return v.astype(info.storage)
        finite = np.isfinite(v)
        _, e = np.frexp(np.where(finite, v, 1.0))  # v = m * 2**e, 0.5 <= |m| < 1
        e = np.maximum(e - 1, info.emin)  # exponent of the leading bit, subnormals pinned
        quantum = np.ldexp(1.0, e - info.frac)
        r = np.rint(v / quantum) * quantum  # exact scaling by powers of two; rint is RNE
        over = finite & (np.abs(r) > info.max)
        big = np.copysign(np.inf, v) if info.has_inf else np.full(v.shape, np.nan)
        r = np.where(over, big, np.where(finite, r, v))
        return r.astype(info.storage)  # exact: r is representable (or inf/nan)


def cast(x, in_t: str, out_t: str) -> np.ndarray:
    """Spec 2.13.1 CAST, operator function plus its precision rules.

    float -> int: REQUIRE no NaN (the result is unpredictable), round half to even,
    saturate to out_t. int -> float and float -> float: `round_to_nearest_float`.
    int -> int: sign-extend (zero-extend an unsigned `ui8`/`ui16` input, upstream's
    `input_unsigned`) or truncate. -> bool: value != 0."""
    in_t, out_t = type_name(in_t), type_name(out_t)
    x = np.asarray(x)
    if out_t == "bool":
        return (x != 0).astype(np.bool_)
    if in_t == "bool":
        x = (x != 0).astype(np.int64)
        in_t = "i32"
    if out_t in _FLOATS:
        if in_t in _INTS:
            return round_to_nearest_float(_as_int64_value(x, in_t), out_t)
        return round_to_nearest_float(x.astype(np.float64), out_t)
    if in_t in _FLOATS:
        v = x.astype(np.float64)
        require(~np.isnan(v), "CAST: NaN input to an integer output")
        # saturate to out_t's two's complement range (i4, no CAST row of the spec: -8 as upstream's
        # lowering); an unsigned out_t (upstream's rows) to 0 .. 2^bits - 1
        info = _INTS[out_t]
        lo, hi = _signed_range(info.bits) if info.signed else (0, (1 << info.bits) - 1)
        r = np.clip(round_to_nearest_int(np.nan_to_num(v, nan=0.0)), lo, hi)
        big = r >= 2.0**63  # i64: maximum_s rounds up to 2^63 as a float64, which int64 cannot hold
        out = np.where(big, 0.0, r).astype(np.int64)
        return truncate(np.where(big, np.int64(2**63 - 1), out), out_t)
    return truncate(_as_int64_value(x, in_t), out_t)


# --------------------------------------------------------------------------------------
# 4.5.3 Numeric accuracy helpers (for checking float results)
# --------------------------------------------------------------------------------------


def normal_min(t: str) -> float:
    """Spec 4.5.3 normal_min<in_t>()."""
    return 2.0 ** _FLOATS[type_name(t)].emin


def normal_max(t: str) -> float:
    """Spec 4.5.3 normal_max<in_t>()."""
    return _FLOATS[type_name(t)].max


def normal_frac(t: str) -> int:
    """Spec 4.5.3 normal_frac<in_t>(): mantissa bits."""
    return _FLOATS[type_name(t)].frac


def tosa_reference_ulp(ref, t: str) -> np.ndarray:
    """Spec 4.5.3 tosa_reference_ulp<in_t>(ref_value): 0 for zero/subnormal/inf/nan refs."""
    ref = np.abs(np.asarray(ref, np.float64))
    normal = np.isfinite(ref) & (ref >= np.finfo(np.float64).tiny)
    _, e = np.frexp(np.where(normal, ref, 1.0))
    pow2 = np.maximum(np.ldexp(1.0, e - 1), normal_min(t))
    return np.where(normal, pow2 * 2.0 ** -normal_frac(t), 0.0)


def tosa_reference_check_fp_bnd(test, ref, err_bnd, t: str) -> np.ndarray:
    """Spec 4.5.3 tosa_reference_check_fp_bnd: elementwise pass/fail of test vs ref."""
    t = type_name(t)
    test = np.asarray(test).astype(np.float64)
    ref = np.asarray(ref, np.float64)
    err = np.broadcast_to(np.asarray(err_bnd, np.float64), np.broadcast(test, ref).shape)
    require(~(np.isfinite(err) & (err < 0)), "tosa_reference_check_fp_bnd: err_bnd < 0")
    neg = ref < 0
    ref_a, test_a = np.where(neg, -ref, ref), np.where(neg, -test, test)
    with np.errstate(all="ignore"):
        ref_max, ref_min = ref_a + err, ref_a - err
        nmax = normal_max(t)
        ref_max = np.where(ref_max > nmax, np.inf, ref_max)
        ref_min = np.where(ref_min > nmax, np.inf, np.where(ref_min < -nmax, -np.inf, ref_min))
        ok = (test_a >= ref_min) & (test_a <= ref_max)
        if t in ("bf16", "fp16", "fp32"):
            ok = np.where(test_a == 0, ref_min < normal_min(t), ok)
        if t == "fp8e4m3":
            ok = np.where(np.isnan(test_a), ref_max == np.inf, ok)
    ok = np.where(~np.isfinite(err), True, ok)
    return np.where(np.isnan(ref), np.isnan(test), ok)


def tosa_reference_check_fp(test, ref, num_ulp, t: str) -> np.ndarray:
    """Spec 4.5.3 tosa_reference_check_fp: bound of num_ulp ulps of ref."""
    return tosa_reference_check_fp_bnd(test, ref, tosa_reference_ulp(ref, t) * num_ulp, t)


# --------------------------------------------------------------------------------------
# 2.12.1 RESIZE helpers
# --------------------------------------------------------------------------------------


def resize_output_size(in_size: int, scale_n: int, scale_d: int, offset: int, border: int) -> int:
    """Spec 2.12.1: OH = idiv_check((IH - 1) * scale_n - offset + border, scale_d) + 1 (the
    rule is tosa_xdsl.dialects.tosa.shapes'; idiv_check raises the ERROR_IF)."""
    from tosa_xdsl.dialects.tosa.shapes import resize_numerator

    return int(idiv_check(resize_numerator(in_size, scale_n, offset, border), scale_d)) + 1


def resize_check(in_hw, out_hw, scale, offset, border) -> None:
    """Spec 2.12.1 RESIZE's ERROR_IF conditions on sizes, scale, offset and border."""
    (ih, iw), (oh, ow) = in_hw, out_hw
    syn, syd, sxn, sxd = scale
    oy, ox = offset
    by, bx = border
    error_if(max(oh, ow, ih, iw) >= 16384, "RESIZE: image dimension >= 16384")
    error_if(min(syn, syd, sxn, sxd) <= 0, "RESIZE: scale <= 0")
    error_if(syn > (1 << 11) or sxn > (1 << 11), "RESIZE: scale numerator > 2048")
    error_if(syd >= 16 * syn or sxd >= 16 * sxn, "RESIZE: downscale beyond 1/16")
    error_if(oy < -syn or oy >= 16 * syn, "RESIZE: offset_y out of range")
    error_if(ox < -sxn or ox >= 16 * sxn, "RESIZE: offset_x out of range")
    error_if(by < -16 * syn or by >= syn, "RESIZE: border_y out of range")
    error_if(bx < -16 * sxn or bx >= sxn, "RESIZE: border_x out of range")
    error_if(oh != resize_output_size(ih, syn, syd, oy, by), "RESIZE: OH mismatch")
    error_if(ow != resize_output_size(iw, sxn, sxd, ox, bx), "RESIZE: OW mismatch")


@dataclass(frozen=True)
class ResizeAxis:
    """Per-output-coordinate sampling along one axis (spec 2.12.1 pseudocode)."""

    i0: np.ndarray  # apply_max_s(iy, 0)
    i1: np.ndarray  # apply_min_s(iy + 1, IH - 1)
    r: np.ndarray  # integer remainder ry = y - iy * scale_n (int mode's dy)
    scale_n: int

    def fraction(self, dtype=np.float32) -> np.ndarray:
        """Float mode's dy = ry / scale_n, computed in resize_t."""
        return (self.r.astype(dtype) / dtype(self.scale_n)).astype(dtype)

    def nearest(self, floating: bool) -> np.ndarray:
        """NEAREST_NEIGHBOR index: dy >= 0.5 (float) or 2 * dy >= scale_n (integer)."""
        if floating:
            return np.where(self.fraction() >= 0.5, self.i1, self.i0)
        return np.where(2 * self.r >= self.scale_n, self.i1, self.i0)


def resize_axis(out_size: int, in_size: int, scale_n: int, scale_d: int, offset: int) -> ResizeAxis:
    """Spec 2.12.1: y = o * scale_d + offset, iy = idiv_floor(y, scale_n), ry, iy0, iy1."""
    y = np.arange(out_size, dtype=np.int64) * scale_d + offset
    iy = idiv_floor(y, scale_n)
    ry = y - iy * scale_n
    return ResizeAxis(np.maximum(iy, 0), np.minimum(iy + 1, in_size - 1), ry, scale_n)


def resize(x, out_hw, scale, offset, border, mode: str, in_t: str, out_t: str | None = None):
    """Spec 2.12.1 RESIZE on an NHWC tensor (ERROR_IF checks included).

    Integer BILINEAR accumulates in int64 and returns out_t (i32 for i8, i48 for i16)
    unscaled, as the spec does; float modes compute in fp32 (fp64 for fp64 inputs) and
    round once to the input type (the spec allows a sequence of float operations within
    its error bound)."""
    in_t = type_name(in_t)
    floating = in_t in _FLOATS
    mode = str(mode).replace("NEAREST_NEIGHBOR", "NEAREST")
    x = np.asarray(x)
    n, ih, iw, c = x.shape
    oh, ow = out_hw
    resize_check((ih, iw), (oh, ow), scale, offset, border)
    ay = resize_axis(oh, ih, scale[0], scale[1], offset[0])
    ax = resize_axis(ow, iw, scale[2], scale[3], offset[1])
    if mode == "NEAREST":
        return x[:, ay.nearest(floating)[:, None], ax.nearest(floating)[None, :], :]
    if floating:
        ct = np.float64 if in_t == "fp64" else np.float32
        v = x.astype(ct)
        dy, dx = ay.fraction(ct)[:, None, None], ax.fraction(ct)[None, :, None]
        uy = ux = ct(1.0)
    else:
        out_t = type_name(out_t or ("i32" if in_t == "i8" else "i48"))
        v = sign_extend(x, in_t)
        dy, dx = ay.r[:, None, None], ax.r[None, :, None]
        uy, ux = np.int64(scale[0]), np.int64(scale[2])

    def g(iy, ix):
        return v[:, iy[:, None], ix[None, :], :]

    with np.errstate(all="ignore"):
        acc = (g(ay.i0, ax.i0) * (uy - dy) * (ux - dx) + g(ay.i0, ax.i1) * (uy - dy) * dx
               + g(ay.i1, ax.i0) * dy * (ux - dx) + g(ay.i1, ax.i1) * dy * dx)
    if floating:
        return round_to_nearest_float(acc, in_t)
    return truncate(acc, out_t)


_LIBM_ERF = np.vectorize(math.erf, otypes=[np.float64])


def erf_fp64(x: np.ndarray) -> np.ndarray:
    """erf in fp64: the C library's (Python's math.erf calls it), the function native code
    calls for math.erf, so tosa.erf, the lowered math.erf/erff and a JIT run agree bit for bit.
    The one erf of the interpreter."""
    return _LIBM_ERF(np.asarray(x, np.float64))
