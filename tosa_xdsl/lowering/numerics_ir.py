"""The spec's chapter-4 numerics helpers as arith-IR builders.

`tosa_xdsl/numerics.py` computes the chapter-4 helpers on numpy arrays; this module *emits*
the same computations as arith (and math) ops, for the bodies of the linalg.generic ops the
lowering builds (RESCALE, AVG_POOL2D, TABLE, RESIZE, ...). Each builder takes an
`xdsl.builder.Builder` positioned inside the body and SSA scalars, and returns the SSA result:

    r = apply_scale_32(b, value_i32, multiplier_i32, shift_i8, double_round=True)

Integer parameters that are known at compile time may be passed as Python ints instead of
SSA values: they become `arith.constant`s, and DOUBLE_ROUND's `shift > 31` test is then
decided at compile time rather than emitted.

The helpers' REQUIREs (spec 4.3) are not checked in the IR: a REQUIRE that fails makes the
result unpredictable, so any value is allowed. Where the numpy version wraps silently
(static_cast) the IR wraps the same way, so valid inputs give bit-identical results.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerType, i8, i32, i64
from xdsl.ir import Attribute, SSAValue

Int = SSAValue | int


# ------------------------------------------------------------------ small pieces


def const(b: Builder, value: int | float, t: Attribute) -> SSAValue:
    """An arith.constant of type t; ints wrap to t's width (two's complement)."""
    if not isinstance(t, IntegerType | IndexType):
        return b.insert(arith.ConstantOp(FloatAttr(float(value), t))).result
    from tosa_xdsl.lowering.linalg_build import scalar_attr

    return b.insert(arith.ConstantOp(scalar_attr(int(value), t))).result


def width(v: SSAValue | Attribute) -> int:
    t = v.type if isinstance(v, SSAValue) else v
    assert isinstance(t, IntegerType), t
    return t.width.data


def as_value(b: Builder, v: Int, t: Attribute) -> SSAValue:
    """An SSA value for a Python int (a constant of type t) or v itself."""
    return const(b, v, t) if isinstance(v, int) else v


def sign_extend(b: Builder, v: SSAValue, t: IntegerType) -> SSAValue:
    """Spec 4.5.4 sign_extend<t>: extsi to a wider type, trunci to a narrower one (the
    static_cast the spec uses when it narrows), nothing when the widths agree."""
    w, wt = width(v), t.width.data
    if w == wt:
        return v
    op = arith.ExtSIOp(v, t) if w < wt else arith.TruncIOp(v, t)
    return b.insert(op).result


def zero_extend(b: Builder, v: SSAValue, t: IntegerType) -> SSAValue:
    """Spec 4.5.4 zero_extend<t>: the bits of v read as unsigned."""
    w, wt = width(v), t.width.data
    if w == wt:
        return v
    op = arith.ExtUIOp(v, t) if w < wt else arith.TruncIOp(v, t)
    return b.insert(op).result


def truncate(b: Builder, v: SSAValue, t: IntegerType) -> SSAValue:
    """Spec 4.5.4 truncate<t>: the low bits (static_cast to a narrower type)."""
    return sign_extend(b, v, t)


def _extend_int(b: Builder, v: Int, t: IntegerType, param_t: IntegerType) -> SSAValue:
    """A spec parameter of C type `param_t` (the call narrows it), sign-extended to t."""
    if isinstance(v, int):
        return const(b, v, t)
    return sign_extend(b, sign_extend(b, v, param_t), t)


# ------------------------------------------------------------------ 4.5.1 arithmetic helpers


def apply_max_s(b: Builder, a: SSAValue, c: SSAValue, nan_mode: str = "PROPAGATE") -> SSAValue:
    """Spec 4.5.1 apply_max_s: `a >= c ? a : c`, signed; for floats a NaN operand gives NaN
    (PROPAGATE) or the other operand (IGNORE).

    Floats are a compare and selects rather than arith.maximumf/maxnumf: the spec keeps `a`
    for a >= c, so max(-0.0, +0.0) is -0.0 where maximumf gives +0.0."""
    if isinstance(a.type, IntegerType):
        return b.insert(arith.MaxSIOp(a, c)).result
    return _fselect(b, a, c, "oge", nan_mode)


def apply_min_s(b: Builder, a: SSAValue, c: SSAValue, nan_mode: str = "PROPAGATE") -> SSAValue:
    """Spec 4.5.1 apply_min_s: `a < c ? a : c`, signed; NaN handling as apply_max_s."""
    if isinstance(a.type, IntegerType):
        return b.insert(arith.MinSIOp(a, c)).result
    return _fselect(b, a, c, "olt", nan_mode)


def _fselect(b: Builder, a: SSAValue, c: SSAValue, pred: str, nan_mode: str) -> SSAValue:
    # plain = a pred c ? a : c (ordered: false when either is NaN, which selects c)
    keep_a = b.insert(arith.CmpfOp(a, c, pred)).result
    plain = b.insert(arith.SelectOp(keep_a, a, c)).result
    if str(nan_mode) == "PROPAGATE":
        # compare_nan PROPAGATE: NaN if either is NaN; plain already is c when c is NaN
        a_nan = b.insert(arith.CmpfOp(a, a, "uno")).result
        return b.insert(arith.SelectOp(a_nan, a, plain)).result
    # compare_nan IGNORE: the operand that is not NaN (a when c is NaN; c when a is NaN,
    # which plain already gives)
    c_nan = b.insert(arith.CmpfOp(c, c, "uno")).result
    return b.insert(arith.SelectOp(c_nan, a, plain)).result


def apply_clip_s(b: Builder, value: SSAValue, min_value: int | float | SSAValue,
                 max_value: int | float | SSAValue, nan_mode: str = "PROPAGATE") -> SSAValue:
    """Spec 4.5.1 apply_clip_s: apply_min_s(apply_max_s(value, min_value), max_value), in
    value's type (bounds given as Python numbers become constants of that type)."""
    t = value.type
    lo = min_value if isinstance(min_value, SSAValue) else const(b, min_value, t)
    hi = max_value if isinstance(max_value, SSAValue) else const(b, max_value, t)
    return apply_min_s(b, apply_max_s(b, value, lo, nan_mode), hi, nan_mode)


def apply_clip_u(b: Builder, value: SSAValue, min_value: int | SSAValue, max_value: int | SSAValue) -> SSAValue:
    """Spec 4.5.1 apply_clip_u: the same clip comparing as unsigned (maxui/minui)."""
    t = value.type
    lo = as_value(b, min_value, t)
    hi = as_value(b, max_value, t)
    v = b.insert(arith.MaxUIOp(value, lo)).result
    return b.insert(arith.MinUIOp(v, hi)).result


def saturate_s(b: Builder, value: SSAValue, out_t: IntegerType, unsigned: bool = False) -> SSAValue:
    """Clip a wider signed integer to out_t's signed range (or 0..maximum_u<out_t> when
    `unsigned`), then truncate to out_t: the `static_cast<out_t>(apply_clip_s(...))` that
    ends RESCALE and the quantized ops."""
    bits = out_t.width.data
    lo, hi = (0, (1 << bits) - 1) if unsigned else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return truncate(b, apply_clip_s(b, value, lo, hi), out_t)


def count_leading_zeros(b: Builder, value: SSAValue) -> SSAValue:
    """Spec 4.5.1 count_leading_zeros(int32_t): math.ctlz (32 for 0)."""
    return b.insert(math.CountLeadingZerosOp(value)).result


# ------------------------------------------------------------------ 4.5.4 idiv helpers


def idiv(b: Builder, a: SSAValue, c: SSAValue) -> SSAValue:
    """Spec 4.5.4 idiv: truncating division (arith.divsi)."""
    return b.insert(arith.DivSIOp(a, c)).result


def idiv_floor(b: Builder, a: SSAValue, c: SSAValue) -> SSAValue:
    """Spec 4.5.4 idiv_floor: division rounding toward minus infinity (arith.floordivsi)."""
    return b.insert(arith.FloorDivSIOp(a, c)).result


# ------------------------------------------------------------------ 4.5.5 scaling helpers


def _rounding_constant(b: Builder, shift: Int, shift64: SSAValue) -> SSAValue:
    """int64_t round = 1 << (shift - 1)."""
    if isinstance(shift, int):
        return const(b, 1 << (shift - 1), i64)
    one = const(b, 1, i64)
    sm1 = b.insert(arith.SubiOp(shift64, one)).result
    return b.insert(arith.ShLIOp(one, sm1)).result


def apply_scale_32(b: Builder, value: SSAValue, multiplier: Int, shift: Int,
                   double_round: bool = False) -> SSAValue:
    """Spec 4.5.5 apply_scale_32 -> i32:

        round = 1 << (shift - 1)                          (i64)
        DOUBLE_ROUND and shift > 31: round += value >= 0 ? 1 << 30 : -(1 << 30)
        result = (sext64(value) * sext64(multiplier) + round) >> shift   (arith.shrsi)

    `value` is read as int32_t (a wider value is truncated, as the C call would), the
    multiplier as int32_t and the shift as int8_t. The REQUIREs (multiplier >= 0,
    2 <= shift <= 62, value in range for the shift) make the i64 arithmetic exact."""
    v64 = sign_extend(b, sign_extend(b, value, i32), i64)
    m64 = _extend_int(b, multiplier, i64, i32)
    s64 = _extend_int(b, shift, i64, i8)
    rnd = _rounding_constant(b, shift, s64)
    if double_round and (not isinstance(shift, int) or shift > 31):
        zero = const(b, 0, i64)
        nonneg = b.insert(arith.CmpiOp(v64, zero, "sge")).result
        adj = b.insert(arith.SelectOp(nonneg, const(b, 1 << 30, i64), const(b, -(1 << 30), i64))).result
        if not isinstance(shift, int):
            big = b.insert(arith.CmpiOp(s64, const(b, 31, i64), "sgt")).result
            adj = b.insert(arith.SelectOp(big, adj, zero)).result
        rnd = b.insert(arith.AddiOp(rnd, adj)).result
    prod = b.insert(arith.MuliOp(v64, m64)).result
    acc = b.insert(arith.AddiOp(prod, rnd)).result
    res = b.insert(arith.ShRSIOp(acc, s64)).result
    return truncate(b, res, i32)


def apply_scale_16(b: Builder, value: SSAValue, multiplier: Int, shift: Int) -> SSAValue:
    """Spec 4.5.5 apply_scale_16 -> i32: (sext64(value) * sext64(multiplier) + (1 << (shift
    - 1))) >> shift, value read as int48_t, multiplier as int16_t, shift as int8_t. The
    REQUIRE that the result fits int32 makes the final truncation exact."""
    if width(value) > 48:
        value = truncate(b, value, IntegerType(48))
    v64 = sign_extend(b, value, i64)
    m64 = _extend_int(b, multiplier, i64, IntegerType(16))
    s64 = _extend_int(b, shift, i64, i8)
    rnd = _rounding_constant(b, shift, s64)
    prod = b.insert(arith.MuliOp(v64, m64)).result
    acc = b.insert(arith.AddiOp(prod, rnd)).result
    res = b.insert(arith.ShRSIOp(acc, s64)).result
    return truncate(b, res, i32)


def reciprocal_scale(b: Builder, value: SSAValue) -> tuple[SSAValue, SSAValue]:
    """Spec 4.5.5 reciprocal_scale(uint32_t value) -> (multiplier: i32, shift: i8):

        k = 32 - count_leading_zeros(value - 1)
        multiplier = (((1 << 30) + 1) << k) / value       (i64, unsigned value)
        shift = 30 + k

    (REQUIRE value > 0.) `value` is an i32 holding the uint32_t."""
    v32 = truncate(b, value, i32) if width(value) > 32 else zero_extend(b, value, i32)
    vm1 = b.insert(arith.SubiOp(v32, const(b, 1, i32))).result
    clz = count_leading_zeros(b, vm1)
    k = b.insert(arith.SubiOp(const(b, 32, i32), clz)).result
    k64 = zero_extend(b, k, i64)
    num = b.insert(arith.ShLIOp(const(b, (1 << 30) + 1, i64), k64)).result
    mult = b.insert(arith.DivSIOp(num, zero_extend(b, v32, i64))).result
    shift = b.insert(arith.AddiOp(k, const(b, 30, i32))).result
    return truncate(b, mult, i32), truncate(b, shift, i8)


# ------------------------------------------------------------------ 4.5.1 rounding shift


def rounding_right_shift(b: Builder, value: SSAValue, shift: SSAValue) -> SSAValue:
    """ARITHMETIC_RIGHT_SHIFT with round=true (spec 2.5.2): (a >> s) + ((a >> (s-1)) & 1)
    when s > 0, in a's type."""
    t = value.type
    shifted = b.insert(arith.ShRSIOp(value, shift)).result
    one = const(b, 1, t)
    zero = const(b, 0, t)
    sm1 = b.insert(arith.SubiOp(shift, one)).result
    sm1 = b.insert(arith.MaxSIOp(sm1, zero)).result
    prev = b.insert(arith.ShRSIOp(value, sm1)).result
    bit = b.insert(arith.AndIOp(prev, one)).result
    pos = b.insert(arith.CmpiOp(shift, zero, "sgt")).result
    bit = b.insert(arith.SelectOp(pos, bit, zero)).result
    return b.insert(arith.AddiOp(shifted, bit)).result


__all__ = [
    "apply_clip_s",
    "apply_clip_u",
    "apply_max_s",
    "apply_min_s",
    "apply_scale_16",
    "apply_scale_32",
    "as_value",
    "const",
    "count_leading_zeros",
    "idiv",
    "idiv_floor",
    "reciprocal_scale",
    "rounding_right_shift",
    "saturate_s",
    "sign_extend",
    "truncate",
    "zero_extend",
]

