"""arith and math -> llvm (part of convert-to-llvm).

Each handler maps one source op onto llvm ops (upstream's arith-to-llvm / math-to-llvm /
math-to-libm forms where they are exact). Where MLIR leaves a case undefined (poison or
UB) we pick the value arith's interpreter gives, so a native run never traps and agrees
with the interpreter bit for bit:

* divsi/divui/remsi/remui/floordivsi/ceildivsi/ceildivui by zero give 0 (x86 `idiv` would
  trap); INT_MIN / -1 gives INT_MIN (and INT_MIN rem -1 gives 0).
* shli/shrui by >= the width give 0, shrsi by >= the width gives the sign fill.
* fptosi/fptoui out of range stay poison as upstream (llvm.fptosi); TOSA's CAST lowering
  clamps first (spec 2.13.1).

Intrinsics are emitted as `llvm.call_intrinsic "llvm.<name>.<type>"` with the type-mangled
name (xDSL's `llvm.intr.*` ops declare one unmangled function per name, which breaks when
one module uses an intrinsic at two types). Functions LLVM has no intrinsic for (tanh, erf,
tan, atan, ...) are libm calls (`tanhf`, `erff`, ...; f64 without the suffix), as upstream's
math-to-libm. libm and numpy may differ in the last ulp for these.

bf16/fp8 values are decoded to f32, computed, encoded (emitter.py); f16 is native (LLVM
promotes to f32 where the target has no f16 arithmetic, which rounds identically).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    f32,
    f64,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_xdsl.dialects.llvm_ext import FPToSIOp, FPToUIOp, UIToFPOp
from tosa_xdsl.lowering.to_llvm.emitter import (
    HANDLERS,
    Emitter,
    fail,
    handles,
    int_width,
    is_float,
    is_small_float,
    signed_int,
    value_type,
)


def _rt(op: Operation) -> Attribute:
    return op.results[0].type


def _suffix(t: Attribute) -> str:
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    return f"i{int_width(t)}"


def _compute_type(t: Attribute) -> Attribute:
    """The llvm float type an op on `t` computes in: f32 for bf16/fp8."""
    return f32 if is_small_float(t) else t


# ------------------------------------------------------------------------ constants


@handles(arith.ConstantOp)
def _constant(em: Emitter, op: arith.ConstantOp) -> None:
    t = _rt(op)
    attr = op.value
    if isinstance(attr, DenseIntOrFPElementsAttr) or not isinstance(attr, (IntegerAttr, FloatAttr)):
        raise fail(op, f"only scalar constants reach the LLVM stage (got {t}); "
                   "tensor/vector constants must be bufferized to memref.global first")
    if isinstance(attr, IntegerAttr):
        em.set(op.result, em.int_const(attr.value.data, t))
        return
    value = attr.value.data
    if is_small_float(t):
        import numpy as np

        from tosa_xdsl.interpreter.values import dtype_of

        bits = np.asarray(value, np.float64).astype(dtype_of(t)).reshape(1).view(
            np.uint16 if t.bitwidth == 16 else np.uint8)[0]
        em.set(op.result, em.int_const(int(bits), value_type(t, op)))
        return
    em.set(op.result, em.float_const(value, t))


# ------------------------------------------------------------------------ integers

_SIMPLE_INT = {
    arith.AddiOp: llvm.AddOp, arith.SubiOp: llvm.SubOp, arith.MuliOp: llvm.MulOp,
    arith.AndIOp: llvm.AndOp, arith.OrIOp: llvm.OrOp, arith.XOrIOp: llvm.XOrOp,
}


@handles(*_SIMPLE_INT)
def _int_binary(em: Emitter, op: Operation) -> None:
    a, b = (em.get(v) for v in op.operands)
    em.set(op.results[0], em.binop(_SIMPLE_INT[type(op)], a, b))


_MINMAX = {arith.MaxSIOp: "smax", arith.MinSIOp: "smin", arith.MaxUIOp: "umax", arith.MinUIOp: "umin"}


@handles(*_MINMAX)
def _int_minmax(em: Emitter, op: Operation) -> None:
    a, b = (em.get(v) for v in op.operands)
    t = a.type
    em.set(op.results[0], em.intrinsic(f"llvm.{_MINMAX[type(op)]}.{_suffix(t)}", [a, b], t))


def _safe_divisor(em: Emitter, a: SSAValue, b: SSAValue, signed: bool) -> tuple[SSAValue, SSAValue]:
    """(b with 0 -> 1 and, when signed, -1 -> 1 where a is INT_MIN; b == 0)."""
    t = b.type
    w = int_width(t)
    zero = em.icmp("eq", b, em.int_const(0, t))
    one = em.int_const(1, t)
    safe = em.select(zero, one, b)
    if signed:
        overflow = em.binop(llvm.AndOp, em.icmp("eq", a, em.int_const(1 << (w - 1), t)),
                            em.icmp("eq", b, em.int_const(-1, t)))
        safe = em.select(overflow, one, safe)
    return safe, zero


def _zero_if(em: Emitter, cond: SSAValue, v: SSAValue) -> SSAValue:
    return em.select(cond, em.int_const(0, v.type), v)


@handles(arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp)
def _div_rem(em: Emitter, op: Operation) -> None:
    a, b = (em.get(v) for v in op.operands)
    signed = isinstance(op, (arith.DivSIOp, arith.RemSIOp))
    safe, zero = _safe_divisor(em, a, b, signed)
    cls = {arith.DivSIOp: llvm.SDivOp, arith.DivUIOp: llvm.UDivOp,
           arith.RemSIOp: llvm.SRemOp, arith.RemUIOp: llvm.URemOp}[type(op)]
    em.set(op.results[0], _zero_if(em, zero, em.binop(cls, a, safe)))


def _floordiv(em: Emitter, a: SSAValue, safe: SSAValue) -> SSAValue:
    # truncated quotient, minus one where the remainder is non-zero and a, b differ in sign
    t = a.type
    q = em.binop(llvm.SDivOp, a, safe)
    r = em.binop(llvm.SRemOp, a, safe)
    zero = em.int_const(0, t)
    signs_differ = em.icmp("slt", em.binop(llvm.XOrOp, r, safe), zero)
    adjust = em.binop(llvm.AndOp, em.icmp("ne", r, zero), signs_differ)
    return em.binop(llvm.SubOp, q, em.add(llvm.ZExtOp(adjust, t)))


@handles(arith.FloorDivSIOp)
def _floordivsi(em: Emitter, op: Operation) -> None:
    a, b = (em.get(v) for v in op.operands)
    safe, zero = _safe_divisor(em, a, b, True)
    em.set(op.results[0], _zero_if(em, zero, _floordiv(em, a, safe)))


@handles(arith.CeilDivSIOp)
def _ceildivsi(em: Emitter, op: Operation) -> None:
    a, b = (em.get(v) for v in op.operands)
    safe, zero = _safe_divisor(em, a, b, True)
    q = _floordiv(em, a, safe)  # ceil = floor + (a != floor * b)
    inexact = em.icmp("ne", em.binop(llvm.MulOp, q, safe), a)
    q = em.binop(llvm.AddOp, q, em.add(llvm.ZExtOp(inexact, a.type)))
    em.set(op.results[0], _zero_if(em, zero, q))


@handles(arith.CeilDivUIOp)
def _ceildivui(em: Emitter, op: Operation) -> None:
    a, b = (em.get(v) for v in op.operands)
    safe, zero = _safe_divisor(em, a, b, False)
    q = em.binop(llvm.UDivOp, a, safe)
    inexact = em.icmp("ne", em.binop(llvm.URemOp, a, safe), em.int_const(0, a.type))
    q = em.binop(llvm.AddOp, q, em.add(llvm.ZExtOp(inexact, a.type)))
    em.set(op.results[0], _zero_if(em, zero, q))


@handles(arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp)
def _shift(em: Emitter, op: Operation) -> None:
    a, b = (em.get(v) for v in op.operands)
    t = a.type
    w = int_width(t)
    too_far = em.icmp("uge", b, em.int_const(w, t))
    if isinstance(op, arith.ShRSIOp):  # shifting by w - 1 is the sign fill
        amount = em.select(too_far, em.int_const(w - 1, t), b)
        em.set(op.results[0], em.binop(llvm.AShrOp, a, amount))
        return
    amount = em.select(too_far, em.int_const(0, t), b)
    cls = llvm.ShlOp if isinstance(op, arith.ShLIOp) else llvm.LShrOp
    em.set(op.results[0], _zero_if(em, too_far, em.binop(cls, a, amount)))


@handles(arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp)
def _int_resize(em: Emitter, op: Operation) -> None:
    v = em.get(op.operands[0])
    signed = not isinstance(op, arith.ExtUIOp)
    em.set(op.results[0], em.resize_int(v, int_width(_rt(op)), signed))


def _index_castui(em: Emitter, op: Operation) -> None:
    em.set(op.results[0], em.resize_int(em.get(op.operands[0]), int_width(_rt(op)), False))


@handles(arith.CmpiOp)
def _cmpi(em: Emitter, op: arith.CmpiOp) -> None:
    a, b = em.get(op.lhs), em.get(op.rhs)
    em.set(op.result, em.add(llvm.ICmpOp(a, b, IntegerAttr(op.predicate.value.data, 64))))


@handles(arith.SelectOp)
def _select(em: Emitter, op: arith.SelectOp) -> None:
    c, a, b = (em.get(v) for v in op.operands)
    if c.type != i1:
        raise fail(op, "only a scalar i1 condition reaches the LLVM stage")
    em.set(op.result, em.select(c, a, b))


# ------------------------------------------------------------------------ floats

_SIMPLE_FLOAT = {arith.AddfOp: llvm.FAddOp, arith.SubfOp: llvm.FSubOp,
                 arith.MulfOp: llvm.FMulOp, arith.DivfOp: llvm.FDivOp}
# IEEE 754-2019 maximum/minimum (NaN propagates) and maximumNumber/minimumNumber (NaN
# ignored), both ordering -0 < +0, as arith defines maximumf/minimumf/maxnumf/minnumf
_FLOAT_MINMAX = {arith.MaximumfOp: "maximum", arith.MinimumfOp: "minimum",
                 arith.MaxnumfOp: "maximumnum", arith.MinnumfOp: "minimumnum"}


def _float_op(em: Emitter, op: Operation, compute: Callable[[list[SSAValue]], SSAValue]) -> None:
    t = _rt(op)
    args = [em.to_compute(em.get(v), v.type) for v in op.operands]
    em.set(op.results[0], em.from_compute(compute(args), t))


@handles(*_SIMPLE_FLOAT)
def _float_binary(em: Emitter, op: Operation) -> None:
    # `contract` (linalg-fp-contract; unless fp-contract=off) is the only fast-math flag carried over: it lets
    # LLVM fuse a dot product's multiply and add into an FMA
    contract = arith.FastMathFlag.ALLOW_CONTRACT in op.fastmath.data  # pyright: ignore[reportAttributeAccessIssue]
    flags = llvm.FastMathAttr((llvm.FastMathFlag.ALLOW_CONTRACT,) if contract else None)
    _float_op(em, op, lambda a: em.add(_SIMPLE_FLOAT[type(op)](a[0], a[1], flags)))


@handles(*_FLOAT_MINMAX)
def _float_minmax(em: Emitter, op: Operation) -> None:
    name = _FLOAT_MINMAX[type(op)]
    _float_op(em, op, lambda a: em.intrinsic(f"llvm.{name}.{_suffix(a[0].type)}", a, a[0].type))


@handles(arith.NegfOp)
def _negf(em: Emitter, op: Operation) -> None:
    t = _rt(op)
    v = em.get(op.operands[0])
    if is_small_float(t):  # flip the sign bit (NaN payloads kept, as numpy's negative)
        w = int_width(v.type)
        em.set(op.results[0], em.binop(llvm.XOrOp, v, em.int_const(1 << (w - 1), v.type)))
    else:
        em.set(op.results[0], em.add(llvm.FNegOp(v)))


@handles(arith.CmpfOp)
def _cmpf(em: Emitter, op: arith.CmpfOp) -> None:
    pred = op.predicate.value.data
    if pred in (0, 15):  # false / true (xDSL's backend has no translation for these)
        em.set(op.result, em.int_const(1 if pred == 15 else 0, i1))
        return
    a, b = (em.to_compute(em.get(v), v.type) for v in (op.lhs, op.rhs))
    em.set(op.result, em.add(llvm.FCmpOp(a, b, IntegerAttr(pred, 64))))


def _float_to_float(em: Emitter, v: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """extf/truncf: exact widening or one rounding (RNE)."""
    if is_small_float(dst):
        x = em.decode(v, src) if is_small_float(src) else v
        return em.encode(x, dst)
    x = em.decode(v, src) if is_small_float(src) else v
    have, want = x.type.bitwidth, dst.bitwidth  # pyright: ignore[reportAttributeAccessIssue]
    if have == want:
        return x
    if isinstance(dst, Float16Type):
        return em.to_f16(x)
    return em.add(llvm.FPExtOp(x, dst) if want > have else llvm.FPTruncOp(x, dst))


@handles(arith.ExtFOp, arith.TruncFOp)
def _ext_trunc_f(em: Emitter, op: Operation) -> None:
    src = op.operands[0].type
    em.set(op.results[0], _float_to_float(em, em.get(op.operands[0]), src, _rt(op)))


@handles(arith.SIToFPOp, arith.UIToFPOp)
def _int_to_float(em: Emitter, op: Operation) -> None:
    v = em.get(op.operands[0])
    t = _rt(op)
    cls = llvm.SIToFPOp if isinstance(op, arith.SIToFPOp) else UIToFPOp
    if int_width(v.type) == 1 and isinstance(op, arith.SIToFPOp):
        pass  # i1 true is -1 signed: llvm.sitofp does the same
    if is_small_float(t) or isinstance(t, Float16Type):  # exact in f64 up to 2^53, then one rounding
        em.set(op.results[0], em.encode(em.add(cls(v, f64)), t))
    else:
        em.set(op.results[0], em.add(cls(v, t)))


@handles(arith.FPToSIOp, arith.FPToUIOp)
def _float_to_int(em: Emitter, op: Operation) -> None:
    src = op.operands[0].type
    x = em.to_compute(em.get(op.operands[0]), src)
    if isinstance(src, Float16Type):  # f16 -> int64 would be a libcall (__fixhfdi)
        x = em.add(llvm.FPExtOp(x, f32))
    cls = FPToSIOp if isinstance(op, arith.FPToSIOp) else FPToUIOp
    em.set(op.results[0], em.add(cls(x, value_type(_rt(op), op))))


@handles(arith.BitcastOp)
def _bitcast(em: Emitter, op: Operation) -> None:
    v = em.get(op.operands[0])
    want = value_type(_rt(op), op)
    em.set(op.results[0], v if v.type == want else em.bitcast(v, want))


# ------------------------------------------------------------------------ math

# LLVM intrinsics with exact IEEE semantics (or libm-backed: exp, log, sin, cos, pow)
_MATH_INTRINSIC = {
    math.ExpOp: "exp", math.Exp2Op: "exp2", math.LogOp: "log", math.Log2Op: "log2",
    math.Log10Op: "log10", math.SinOp: "sin", math.CosOp: "cos", math.SqrtOp: "sqrt",
    math.AbsFOp: "fabs", math.CeilOp: "ceil", math.FloorOp: "floor", math.TruncOp: "trunc",
    math.RoundEvenOp: "roundeven", math.RoundOp: "round", math.PowFOp: "pow",
    math.CopySignOp: "copysign",
}
# libm functions (math-to-libm); f32 names get the `f` suffix
_MATH_LIBM = {
    math.TanhOp: "tanh", math.ErfOp: "erf", math.TanOp: "tan", math.AtanOp: "atan",
    math.Atan2Op: "atan2", math.SinhOp: "sinh", math.CoshOp: "cosh", math.AsinOp: "asin",
    math.AcosOp: "acos", math.AsinhOp: "asinh", math.AcoshOp: "acosh", math.AtanhOp: "atanh",
    math.ExpM1Op: "expm1", math.Log1pOp: "log1p", math.CbrtOp: "cbrt",
}


@handles(*_MATH_INTRINSIC)
def _math_intrinsic(em: Emitter, op: Operation) -> None:
    name = _MATH_INTRINSIC[type(op)]
    _float_op(em, op, lambda a: em.intrinsic(f"llvm.{name}.{_suffix(a[0].type)}", a, a[0].type))


@handles(*_MATH_LIBM)
def _math_libm(em: Emitter, op: Operation) -> None:
    name = _MATH_LIBM[type(op)]

    def compute(a: list[SSAValue]) -> SSAValue:
        t = a[0].type
        if isinstance(t, Float16Type):  # libm has no f16: compute in f32, round once
            r = em.call(name + "f", [em.add(llvm.FPExtOp(x, f32)) for x in a], f32)
            return em.add(llvm.FPTruncOp(r, t))
        return em.call(name + ("f" if isinstance(t, Float32Type) else ""), a, t)

    _float_op(em, op, compute)


@handles(math.FmaOp)
def _fma(em: Emitter, op: Operation) -> None:
    """Fused in the type for f32/f64; f16/bf16/fp8 in f64 (the product is exact there) and
    rounded once more to the type, as the interpreter does (f16 fma is a libcall MCJIT cannot
    resolve)."""
    t = _rt(op)
    args = [em.to_compute(em.get(v), v.type) for v in op.operands]
    if isinstance(t, (Float32Type, Float64Type)):
        em.set(op.results[0], em.intrinsic(f"llvm.fma.{_suffix(t)}", args, t))
        return
    wide = [em.add(llvm.FPExtOp(a, f64)) for a in args]
    r = em.intrinsic("llvm.fma.f64", wide, f64)
    em.set(op.results[0], em.encode(r, t))


@handles(math.RsqrtOp)
def _rsqrt(em: Emitter, op: Operation) -> None:
    def compute(a: list[SSAValue]) -> SSAValue:
        t = a[0].type
        s = em.intrinsic(f"llvm.sqrt.{_suffix(t)}", a, t)
        return em.add(llvm.FDivOp(em.float_const(1.0, t), s))

    _float_op(em, op, compute)


@handles(math.AbsIOp)
def _absi(em: Emitter, op: Operation) -> None:
    v = em.get(op.operands[0])  # is_int_min_poison = false: |INT_MIN| = INT_MIN
    em.set(op.results[0], em.intrinsic(f"llvm.abs.{_suffix(v.type)}", [v, em.int_const(0, i1)], v.type))


@handles(math.CountLeadingZerosOp, math.CountTrailingZerosOp)
def _ctlz(em: Emitter, op: Operation) -> None:
    v = em.get(op.operands[0])  # is_zero_poison = false: ctlz(0) = width
    name = "ctlz" if isinstance(op, math.CountLeadingZerosOp) else "cttz"
    em.set(op.results[0], em.intrinsic(f"llvm.{name}.{_suffix(v.type)}", [v, em.int_const(0, i1)], v.type))


@handles(math.CtPopOp)
def _ctpop(em: Emitter, op: Operation) -> None:
    v = em.get(op.operands[0])
    em.set(op.results[0], em.intrinsic(f"llvm.ctpop.{_suffix(v.type)}", [v], v.type))


def _register_optional() -> None:
    index_castui = getattr(arith, "IndexCastUIOp", None)
    if index_castui is not None:
        HANDLERS[index_castui] = _index_castui


_register_optional()
_ = (is_float, signed_int)
