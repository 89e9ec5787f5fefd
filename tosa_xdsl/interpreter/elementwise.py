"""Spec 2.4 activation, 2.5 elementwise binary (but TABLE), 2.6 elementwise unary,
2.7 SELECT and 2.8 comparison operators.

Integer arithmetic follows the chapter-4 helpers in tosa_xdsl.numerics bit-exactly.
Floating point: ADD/SUB/MUL/MAXIMUM/MINIMUM are one correctly rounded operation in the
operand type (numerics.apply_*_s: fp16/fp32 natively, bf16 via fp64 and one rounding).
Transcendental and division-like functions (EXP, LOG, SIN, COS, ERF, SIGMOID, TANH, POW,
RECIPROCAL, RSQRT) are evaluated in fp64 and rounded once to the operand type, which keeps
the result within 0.5 ulp (+ the fp64 error, ~2**-52 relative) of the fp64 reference the
spec's precision requirements are stated against.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops import activation as act
from tosa_xdsl.dialects.tosa.ops import comparison as cmp
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import elementwise_ternary as et
from tosa_xdsl.dialects.tosa.ops import elementwise_unary as eu
from tosa_xdsl.interpreter.common import prop, rdtype, tname

_FLOAT_NATIVE = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def _unsigned(t: str) -> bool:
    """ui8/ui16/ui32: upstream's unsigned rows (verification/producer_types.py) compare and
    shift as unsigned values, as the spec's unsigned helpers do (apply_max_u, zero_extend)."""
    return t.startswith("ui")


def _extend(x, t: str) -> np.ndarray:
    """The value of integer x as int64: zero-extended for unsigned types, else sign-extended
    (bool is i1: true is -1, as upstream's signed arith.cmpi / maxsi read it)."""
    return nx.zero_extend(x, t) if _unsigned(t) else nx.sign_extend(x, t)


def broadcast_check(op, *arrays: np.ndarray) -> tuple[int, ...]:
    """Spec 1.11.3 broadcast_shape + ERROR_IF(shape != broadcast_shape(...)): equal ranks,
    each dim equal or 1, and the result type's static shape agreeing."""
    ranks = {a.ndim for a in arrays}
    nx.error_if(len(ranks) != 1, "rank(shape1) != rank(shape2)")
    try:
        out = shapes.broadcast([a.shape for a in arrays])
    except shapes.ShapeConflict:
        nx.error_if(True, "shape != broadcast_shape(shape1, shape2)")
    assert out is not None
    declared = op.results[0].type.get_shape() if hasattr(op.results[0].type, "get_shape") else None
    if declared is not None:
        nx.error_if(len(declared) != len(out) or any(d >= 0 and d != o for d, o in zip(declared, out)),
                    "shape != broadcast_shape(shape1, shape2)")
    return tuple(out)


def in_fp64(fn, x: np.ndarray, t: str) -> np.ndarray:
    """fn evaluated in fp64 on x, rounded once to type t."""
    with np.errstate(all="ignore"):
        r = fn(x.astype(np.float64))
    return nx.round_to_nearest_float(r, t)


def _fp64_unary(fn):
    """An implementation computing `fn` in fp64 on input1, rounded once to its type."""

    def run(self, interpreter, op, args):
        return (in_fp64(fn, args[0], tname(op.input1)),)

    return run


def _plain_binary(fn):
    """An implementation that is `fn(input1, input2)` after the broadcast check."""

    def run(self, interpreter, op, args):
        broadcast_check(op, *args)
        return (fn(*args),)

    return run


def _wrapping(op) -> bool:
    """ADD/SUB/MUL (ABS, NEGATE) on a producer-only integer type (WRAPPING_TYPES, same type in
    and out; verification/producer_types.py): no spec row, so upstream's semantics apply."""
    from xdsl.dialects.builtin import IntegerType

    from tosa_xdsl.verification.producer_types import WRAPPING_TYPES

    t = op.input1.type.get_element_type()
    return (isinstance(t, IntegerType) and str(t) in WRAPPING_TYPES
            and op.output.type.get_element_type() == t)


def _wrapped(fn, a: np.ndarray, b: np.ndarray, op) -> np.ndarray:
    """`fn` modulo 2^width on the operands' bits: what upstream's lowering (`arith.addi` /
    `subi` / `muli` on the signless bits, TosaToLinalg.cpp) computes; bool: xor, xor, and."""
    width = op.input1.type.get_element_type().width.data
    with np.errstate(over="ignore"):
        r = fn(np.asarray(a).astype(np.uint64), np.asarray(b).astype(np.uint64))
    return nx.truncate(r.astype(np.int64), tname(op.input1))  # low bits, sign-extended i4/i48


def _int_pow(a: np.ndarray, b: np.ndarray, t: str) -> np.ndarray:
    """POW on integers (upstream's rows; its lowering has none): math.ipowi's definition.
    x^e modulo 2^width for e >= 0 (square and multiply; int64 products wrap modulo 2^64,
    which keeps the low bits); e < 0: 1 for x = 1, +-1 for x = -1 (e odd: -1), else 0, and
    0^e unpredictable (REQUIRE, as the spec's float POW for 0 to a non-positive power).
    Unsigned exponents are never negative. i1: true is -1."""
    x, e = (nx.zero_extend(v, t) if t.startswith("ui") else nx.sign_extend(v, t) for v in np.broadcast_arrays(a, b))
    nx.require(~((x == 0) & (e < 0)), "value1 != 0 || value2 >= 0")
    result = np.ones_like(x)
    base, bits = x.copy(), e.copy()
    with np.errstate(over="ignore"):
        for _ in range(nx.bit_width(t)):
            result = np.where(bits & 1, result * base, result)
            base = base * base
            bits = bits >> 1
    special = np.where(x == 1, 1, np.where(x == -1, np.where(e & 1, -1, 1), 0))
    return nx.truncate(np.where(e < 0, special, result), t)


@register_impls
class ElementwiseFunctions(InterpreterFunctions):
    # ------------------------------------------------------------------ 2.4 activation

    @impl(act.ClampOp)
    def run_clamp(self, interpreter, op, args):
        (x,) = args
        t = tname(op.input)
        lo, hi = prop(op, "min_val"), prop(op, "max_val")
        if t.startswith(("fp", "bf")):
            nx.error_if(np.isnan(lo) or np.isnan(hi), "isNaN(min_val) || isNaN(max_val)")
            nx.error_if(hi < lo, "max_val < min_val")
            lo_v = nx.round_to_nearest_float(np.float64(lo), t)
            hi_v = nx.round_to_nearest_float(np.float64(hi), t)
        elif _unsigned(t):  # upstream's unsigned rows: bounds and values compare unsigned
            nx.error_if(hi < lo, "max_val < min_val")
            return (np.clip(x, nx.truncate(np.int64(lo), t), nx.truncate(np.int64(hi), t)).astype(x.dtype),)
        elif t == "bool":
            # upstream's i1 row: its verifier orders the bounds false < true, its lowering clips
            # with maxsi/minsi (true is -1), so min_val = false, max_val = true gives true
            # everywhere (MLIR 22 run natively: tests/producers/test_upstream_rows.py)
            lo_v, hi_v = (np.bool_(bool(int(v) & 1)) for v in (lo, hi))
            nx.error_if(hi_v < lo_v, "max_val < min_val")
            return (nx.apply_min_s(nx.apply_max_s(x, lo_v, t), hi_v, t).astype(x.dtype, copy=False),)
        else:
            nx.error_if(hi < lo, "max_val < min_val")
            lo_v = nx.truncate(np.int64(lo), t)
            hi_v = nx.truncate(np.int64(hi), t)
        out = nx.apply_clip_s(x, lo_v, hi_v, t, prop(op, "nan_mode", "PROPAGATE"))
        return (np.asarray(out).astype(x.dtype, copy=False),)

    @impl(act.ErfOp)
    def run_erf(self, interpreter, op, args):
        return (in_fp64(nx.erf_fp64, args[0], tname(op.input)),)

    @impl(act.SigmoidOp)
    def run_sigmoid(self, interpreter, op, args):
        return (in_fp64(lambda v: 1.0 / (1.0 + np.exp(-v)), args[0], tname(op.input)),)

    @impl(act.TanhOp)
    def run_tanh(self, interpreter, op, args):
        return (in_fp64(np.tanh, args[0], tname(op.input)),)

    # ------------------------------------------------------------------ 2.5 binary

    @impl(eb.AddOp)
    def run_add(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        if _wrapping(op):
            return (_wrapped(np.add, a, b, op),)
        return (nx.apply_add_s(a, b, tname(op.input1)),)

    @impl(eb.SubOp)
    def run_sub(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        if _wrapping(op):
            return (_wrapped(np.subtract, a, b, op),)
        return (nx.apply_sub_s(a, b, tname(op.input1)),)

    @impl(eb.MulOp)
    def run_mul(self, interpreter, op, args):
        a, b, shift = args
        broadcast_check(op, a, b)
        if _wrapping(op):
            nx.require(int(np.asarray(shift).reshape(-1)[0]) == 0, "is_same<in_t,int32_t>() || shift == 0")
            return (_wrapped(np.multiply, a, b, op),)
        in_t, out_t = tname(op.input1), tname(op.output)
        s = np.asarray(shift).reshape(-1)
        nx.error_if(s.size != 1, "shape(shift) != [1]")
        sv = int(s[0])
        nx.require(0 <= sv <= 63, "0 <= shift && shift <= 63")
        nx.require(in_t == "i32" or sv == 0, "is_same<in_t,int32_t>() || shift == 0")
        out = nx.mul(a, b, s, in_t, out_t)
        return (np.asarray(out).astype(rdtype(op), copy=False),)

    @impl(eb.IntDivOp)
    def run_intdiv(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        t = tname(op.input1)
        nx.require(b != 0, "value2 != 0")
        a64, b64 = nx.sign_extend(a, t), nx.sign_extend(b, t)
        q = nx.idiv(a64, np.where(b64 == 0, 1, b64))
        nx.require((q >= nx.minimum_s(t)) & (q <= nx.maximum_s(t)),
                   "apply_intdiv_s: result in range of in_out_t")
        return (nx.truncate(q, t),)

    @impl(eb.ArithmeticRightShiftOp)
    def run_arithmetic_right_shift(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        t = tname(op.input1)
        top = nx.bit_width(t) - 1
        nx.require((b >= 0) & (b <= top), f"0 <= value2 && value2 <= {top}")
        a64, b64 = _extend(a, t), _extend(b, t)  # unsigned: a logical shift (zero_extend)
        b64 = np.clip(b64, 0, top)
        result = a64 >> b64
        if prop(op, "round", False):
            prev = a64 >> np.maximum(b64 - 1, 0)
            result = result + ((b64 > 0) & ((prev & 1) != 0))
        return (nx.truncate(result, t),)

    @impl(eb.LogicalLeftShiftOp)
    def run_logical_left_shift(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        t = tname(op.input1)
        top = nx.bit_width(t) - 1
        nx.require((b >= 0) & (b <= top), f"0 <= value2 && value2 <= {top}")
        b64 = np.clip(_extend(b, t), 0, top)
        return (nx.truncate(nx.sign_extend(a, t) << b64, t),)

    @impl(eb.LogicalRightShiftOp)
    def run_logical_right_shift(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        t = tname(op.input1)
        top = nx.bit_width(t) - 1
        nx.require((b >= 0) & (b <= top), f"0 <= value2 && value2 <= {top}")
        b64 = np.clip(_extend(b, t), 0, top)
        return (nx.truncate(nx.zero_extend(a, t) >> b64, t),)

    # Bitwise and logical ops are numpy's own, after the broadcast check (2.5.3-2.5.5, 2.5.7,
    # 2.5.10, 2.5.11; LOGICAL_XOR on booleans is inequality).
    run_bitwise_and = impl(eb.BitwiseAndOp)(_plain_binary(np.bitwise_and))
    run_bitwise_or = impl(eb.BitwiseOrOp)(_plain_binary(np.bitwise_or))
    run_bitwise_xor = impl(eb.BitwiseXorOp)(_plain_binary(np.bitwise_xor))
    run_logical_and = impl(eb.LogicalAndOp)(_plain_binary(np.logical_and))
    run_logical_or = impl(eb.LogicalOrOp)(_plain_binary(np.logical_or))
    run_logical_xor = impl(eb.LogicalXorOp)(_plain_binary(np.not_equal))

    @impl(eb.MaximumOp)
    def run_maximum(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        t = tname(op.input1)
        if _unsigned(t):
            return (nx.apply_max_u(a, b, t),)
        return (nx.apply_max_s(a, b, t, prop(op, "nan_mode", "PROPAGATE")),)

    @impl(eb.MinimumOp)
    def run_minimum(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        t = tname(op.input1)
        if _unsigned(t):
            return (nx.apply_min_u(a, b, t),)
        return (nx.apply_min_s(a, b, t, prop(op, "nan_mode", "PROPAGATE")),)

    @impl(eb.PowOp)
    def run_pow(self, interpreter, op, args):
        a, b = args
        broadcast_check(op, a, b)
        t = tname(op.input1)
        if not t.startswith(("fp", "bf")):
            return (_int_pow(a, b, t),)
        a64, b64 = np.broadcast_arrays(a.astype(np.float64), b.astype(np.float64))
        with np.errstate(invalid="ignore"):
            nx.require(~(a64 < 0), "value1 >= 0")
            nx.require((a64 > 0) | (b64 > 0) | np.isnan(a64) | np.isnan(b64), "value1 > 0 || value2 > 0")
        nx.require(~np.isnan(a64) & ~np.isnan(b64), "!isnan(value1) && !isnan(value2)")
        nx.require(np.isfinite(a64) & np.isfinite(b64), "is_finite(value1) && is_finite(value2)")
        with np.errstate(all="ignore"):
            r = np.power(a64, b64)
        return (nx.round_to_nearest_float(r, t),)

    # ------------------------------------------------------------------ 2.6 unary

    @impl(eu.AbsOp)
    def run_abs(self, interpreter, op, args):
        (x,) = args
        t = tname(op.input1)
        if x.dtype in _FLOAT_NATIVE:
            return (np.abs(x),)
        if t.startswith(("fp", "bf")):
            return (in_fp64(np.abs, x, t),)
        if _unsigned(t):
            return (x,)  # every unsigned value is its own absolute value
        v = nx.sign_extend(x, t)
        if _wrapping(op):  # upstream's math.absi: modulo 2^width (i8 -128 -> -128, i1 true -> true)
            return (nx.truncate(np.abs(v), t),)
        r = np.where(v < 0, -v, v)
        nx.require(r <= nx.maximum_s(t), "apply_sub_s(0, value1) in range of in_out_t")
        return (nx.truncate(r, t),)

    @impl(eu.BitwiseNotOp)
    def run_bitwise_not(self, interpreter, op, args):
        return (np.invert(args[0]),)

    run_ceil = impl(eu.CeilOp)(_fp64_unary(np.ceil))
    run_floor = impl(eu.FloorOp)(_fp64_unary(np.floor))
    run_cos = impl(eu.CosOp)(_fp64_unary(np.cos))
    run_sin = impl(eu.SinOp)(_fp64_unary(np.sin))
    run_exp = impl(eu.ExpOp)(_fp64_unary(np.exp))
    run_log = impl(eu.LogOp)(_fp64_unary(np.log))

    @impl(eu.ClzOp)
    def run_clz(self, interpreter, op, args):
        t = tname(op.input1)
        if t != "i32":  # upstream's rows: math.ctlz at the type's width
            return (nx.count_leading_zeros_of(args[0], t),)
        return (nx.count_leading_zeros(args[0]).astype(args[0].dtype),)

    @impl(eu.LogicalNotOp)
    def run_logical_not(self, interpreter, op, args):
        return (np.logical_not(args[0]),)

    @impl(eu.NegateOp)
    def run_negate(self, interpreter, op, args):
        x, in_zp, out_zp = args
        t = tname(op.input1)
        izp = np.asarray(in_zp).reshape(-1)
        ozp = np.asarray(out_zp).reshape(-1)
        nx.error_if(izp.size != 1 or ozp.size != 1, "shape(input1_zp) != [1] || shape(output_zp) != [1]")
        if t != "i8":
            nx.error_if(izp[0] != 0, "!is_same<in_out_t,i8_t>() && input1_zp != 0")
            nx.error_if(ozp[0] != 0, "!is_same<in_out_t,i8_t>() && output_zp != 0")
        if t.startswith(("fp", "bf")):
            return (np.negative(x) if x.dtype in _FLOAT_NATIVE else in_fp64(np.negative, x, t),)
        if _wrapping(op) and t not in ("i8", "i16"):
            # upstream's rows (zero points 0 by ERROR_IF): -x saturated to the type's range, as
            # upstream's lowering does for every signless width (unsigned: 0 for every x)
            v, w = -_extend(x, t), nx.bit_width(t)
            lo, hi = (0, (1 << w) - 1) if _unsigned(t) else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
            return (nx.truncate(np.clip(v, lo, hi), t),)
        # acc_t is i32 for i8/i16/i32 (each step REQUIREs no i32 overflow)
        v = nx.sign_extend(x, t) - int(nx.sign_extend(izp[0], t))
        nx.require((v >= nx.minimum_s("i32")) & (v <= nx.maximum_s("i32")),
                   "apply_sub_s<acc_t>(value1, input1_zp) in range")
        v = -v
        nx.require(v <= nx.maximum_s("i32"), "apply_sub_s<acc_t>(0, value) in range")
        v = v + int(nx.sign_extend(ozp[0], t))
        nx.require((v >= nx.minimum_s("i32")) & (v <= nx.maximum_s("i32")),
                   "apply_add_s<acc_t>(value, output_zp) in range")
        lo, hi = np.iinfo(x.dtype).min, np.iinfo(x.dtype).max
        return (nx.truncate(np.clip(v, lo, hi), t),)

    @impl(eu.ReciprocalOp)
    def run_reciprocal(self, interpreter, op, args):
        return (in_fp64(lambda v: 1.0 / v, args[0], tname(op.input1)),)

    @impl(eu.RsqrtOp)
    def run_rsqrt(self, interpreter, op, args):
        return (in_fp64(lambda v: np.where(v < 0, np.nan, 1.0 / np.sqrt(v)), args[0], tname(op.input1)),)

    # ------------------------------------------------------------------ 2.7 / 2.8

    @impl(et.SelectOp)
    def run_select(self, interpreter, op, args):
        c, a, b = args
        broadcast_check(op, c, a, b)
        return (np.where(c, a, b).astype(a.dtype, copy=False),)

    @impl(cmp.EqualOp)
    def run_equal(self, interpreter, op, args):
        broadcast_check(op, *args)
        return (np.equal(*args),)

    # numpy compares unsigned dtypes as unsigned (upstream's rows: ugt/uge) and other integer
    # dtypes as signed; bool (i1) is signed too, as upstream's arith.cmpi sgt reads it
    @impl(cmp.GreaterOp)
    def run_greater(self, interpreter, op, args):
        broadcast_check(op, *args)
        return (np.greater(*_signed_bools(args)),)

    @impl(cmp.GreaterEqualOp)
    def run_greater_equal(self, interpreter, op, args):
        broadcast_check(op, *args)
        return (np.greater_equal(*_signed_bools(args)),)


def _signed_bools(args):
    """i1 operands as their signed values (true = -1)."""
    return [-a.astype(np.int8) if a.dtype == np.bool_ else a for a in args]
