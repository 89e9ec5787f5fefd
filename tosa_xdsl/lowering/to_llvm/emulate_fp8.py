"""`arith-emulate-fp8`: arith/math on f8E4M3FN / f8E5M2 values -> integer code on their i8
bit patterns (plus f32 arithmetic where a value has to be computed).

MLIR 22 has no CPU lowering of `arith.extf`/`truncf`/`cmpf`/`maximumf`/... on fp8 values (LLVM
has no fp8 type), so `tosa-to-loops` output with fp8 rows could not reach LLVM IR through
upstream's standard passes. After this pass the only ops that still see an fp8 value are
`arith.bitcast` f8 <-> i8 at the boundary, `arith.select`, memref loads/stores/globals,
function signatures and region terminators (linalg.yield, scf.yield). MLIR 22 lowers all of
those: its LLVM type converter stores fp8 as i8, so the bitcast becomes i8 -> i8 (folded),
`memref.global` with an fp8 `dense<...>` becomes an i8 array, a load/store an i8 load/store and
`select` an i8 select (checked with MLIR 22's mlir-opt/mlir-translate; tests/test_emulate_fp8.py).
Values therefore stay fp8 in memory and in signatures; nothing outside arith/math changes.

Rewrites (scalars; an arith/math op on a shaped fp8 value is a located error):

* `arith.constant : f8` -> an i8 constant (the value's bits) + bitcast;
* `arith.extf f8 -> f16/bf16/f32/f64`: integer decode of sign / exponent / mantissa into f32
  bits (subnormals normalised by their leading bit; E5M2 S.11111.00 = inf, S.11111.xx NaN;
  E4M3FN S.1111.111 NaN, no inf; NaN -> sign | 0x7FC00000 as ml_dtypes gives), `arith.bitcast`
  to f32, then `extf`/`truncf` to the target (exact: every fp8 value is an f16/bf16 value);
* `arith.truncf f16/bf16/f32/f64 -> f8`: one round-to-nearest-even from the source's own bits,
  in the source's integer width (i64 for f64, so nothing goes through f32 and rounds twice):
  significand >> s with s = (source mantissa bits - m) + max(0, 1 - target exponent), rounded
  with `(sig + 2**(s-1) - 1 + lsb) >> s`, plus the rebiased exponent; a code above the largest
  finite one is NaN (E4M3FN: 0x7F) or inf (E5M2: 0x7C), a NaN source gives sign | 0x7F / 0x7E;
  signed zeros and subnormals fall out of the same formula. This is `arith.truncf` as the
  interpreter implements it, bit for bit: ml_dtypes for f16/bf16/f32 sources (NaN and E4M3FN
  overflow keep the sign), numerics.round_to_nearest_float for f64 (its E4M3FN NaN for a finite
  overflow is always +NaN 0x7F; a NaN's sign means nothing to TOSA, the emulation follows it anyway);
* `arith.sitofp`/`uitofp -> f8`: to f64 (exact up to 53 bits; wider integers are clamped to
  +-2**20 first, which keeps every overflow an overflow) and the f64 encode above: one rounding;
* `arith.negf` on f8: flip bit 7 (as the interpreter's negation, NaN included);
* every other arith/math op with an fp8 operand or result (cmpf, maximumf/minimumf/maxnumf/
  minnumf, addf..., fptosi, math.*): fp8 operands decoded to f32 (f64 for math.fma, as the
  interpreter computes fma), the same op on those types, fp8 results encoded from f32/f64.

The integer ops used (andi/ori/xori/shli/shrui/addi/subi/cmpi/select/maxsi/minsi/extui/trunci/
bitcast) all have shift amounts below the width, so nothing is poison.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    ShapedType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.ir.walk import all_ops

PASS_NAME = "arith-emulate-fp8"

i1, i8, i32, i64 = IntegerType(1), IntegerType(8), IntegerType(32), IntegerType(64)
f32, f64 = Float32Type(), Float64Type()


@dataclass(frozen=True)
class _Fp8:
    """An fp8 format: m mantissa bits, bias b, largest finite code, code on overflow, NaN."""

    m: int
    b: int
    max_finite: int
    overflow: int
    nan: int
    has_inf: bool


_FP8 = {
    Float8E4M3FNType: _Fp8(m=3, b=7, max_finite=0x7E, overflow=0x7F, nan=0x7F, has_inf=False),
    Float8E5M2Type: _Fp8(m=2, b=15, max_finite=0x7B, overflow=0x7C, nan=0x7E, has_inf=True),
}

# source float formats: (integer width, mantissa bits, exponent bits, bias)
_SRC = {Float16Type: (16, 10, 5, 15), BFloat16Type: (16, 7, 8, 127), Float32Type: (32, 23, 8, 127),
        Float64Type: (64, 52, 11, 1023)}


def _fp8(t: Attribute) -> _Fp8 | None:
    return _FP8.get(type(t))


class _Emit:
    """Builds integer/float ops before `anchor`."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor
        self.consts: dict[tuple[int, Attribute], SSAValue] = {}

    def add(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.anchor))
        return op.results[0]

    def c(self, v: int, t: IntegerType) -> SSAValue:
        w = t.width.data
        v &= (1 << w) - 1
        if w > 1 and v >= 1 << (w - 1):
            v -= 1 << w
        if (v, t) not in self.consts:  # one constant per value and type per rewritten op
            self.consts[(v, t)] = self.add(arith.ConstantOp(IntegerAttr(v, t)))
        return self.consts[(v, t)]

    # shorthands (second operand an int = a constant of the first operand's type)
    def _b(self, cls, a: SSAValue, b: SSAValue | int) -> SSAValue:
        if isinstance(b, int):
            b = self.c(b, a.type)
        return self.add(cls(a, b))

    def and_(self, a, b):
        return self._b(arith.AndIOp, a, b)

    def or_(self, a, b):
        return self._b(arith.OrIOp, a, b)

    def add_(self, a, b):
        return self._b(arith.AddiOp, a, b)

    def sub(self, a, b):
        return self._b(arith.SubiOp, a, b)

    def shl(self, a, b):
        return self._b(arith.ShLIOp, a, b)

    def shr(self, a, b):
        return self._b(arith.ShRUIOp, a, b)

    def maxs(self, a, b):
        return self._b(arith.MaxSIOp, a, b)

    def mins(self, a, b):
        return self._b(arith.MinSIOp, a, b)

    def cmp(self, pred: str, a, b) -> SSAValue:
        if isinstance(b, int):
            b = self.c(b, a.type)
        return self.add(arith.CmpiOp(a, b, pred))

    def sel(self, cond, a, b) -> SSAValue:
        return self.add(arith.SelectOp(cond, a, b))

    # ------------------------------------------------------------------ fp8 <-> f32 / iN
    def decode(self, v: SSAValue) -> SSAValue:
        """fp8 value -> the same value as f32 (exact)."""
        fmt = _fp8(v.type)
        m, b = fmt.m, fmt.b
        u = self.add(arith.ExtUIOp(self.add(arith.BitcastOp(v, i8)), i32))
        sign = self.shl(self.and_(u, 0x80), 24)
        a = self.and_(u, 0x7F)
        mant = self.and_(a, (1 << m) - 1)
        # normal: E<<23 | mant<<(23-m), rebiased
        normal = self.add_(self.shl(a, 23 - m), (127 - b) << 23)
        # subnormal: p = position of mant's leading bit; mant<<(23-p) puts it on the implicit
        # bit, which adds 1 to the exponent field: (p + 127 - b - m) << 23 completes it
        p = self.add(arith.ExtUIOp(self.cmp("uge", mant, 2), i32))
        for k in range(2, m):
            p = self.add_(p, self.add(arith.ExtUIOp(self.cmp("uge", mant, 1 << k), i32)))
        sub = self.add_(self.shl(mant, self.sub(self.c(23, i32), p)), self.shl(self.add_(p, 127 - b - m), 23))
        mag = self.sel(self.cmp("ult", a, 1 << m), sub, normal)
        mag = self.sel(self.cmp("eq", a, 0), self.c(0, i32), mag)
        if fmt.has_inf:  # S.11111.00 inf, S.11111.xx NaN
            special = self.sel(self.cmp("eq", a, 0x7C), self.c(0x7F800000, i32), self.c(0x7FC00000, i32))
            mag = self.sel(self.cmp("uge", a, 0x7C), special, mag)
        else:  # S.1111.111 NaN
            mag = self.sel(self.cmp("eq", a, 0x7F), self.c(0x7FC00000, i32), mag)
        return self.add(arith.BitcastOp(self.or_(mag, sign), f32))

    def encode(self, x: SSAValue, target: Attribute) -> SSAValue:
        """f16/bf16/f32/f64 value -> fp8 `target`, one round to nearest even."""
        fmt = _fp8(target)
        n, ms, es, bs = _SRC[type(x.type)]
        m, b = fmt.m, fmt.b
        it = IntegerType(n)
        bits = self.add(arith.BitcastOp(x, it))
        sign8 = self.and_(self.add(arith.TruncIOp(self.shr(bits, n - 8), i8)), 0x80)
        a = self.and_(bits, (1 << (n - 1)) - 1)
        e = self.shr(a, ms)
        mant = self.and_(a, (1 << ms) - 1)
        normal = self.cmp("ne", e, 0)
        sig = self.or_(mant, self.sel(normal, self.c(1 << ms, it), self.c(0, it)))
        eeff = self.sel(normal, e, self.c(1, it))  # subnormal sources share exponent 1
        # target biased exponent T = eeff - (bs - b); below 1 the result is subnormal and the
        # significand shifts 1 - T further (at most m + 2: beyond that it rounds to 0 anyway)
        extra = self.mins(self.maxs(self.sub(self.c(1 + bs - b, it), eeff), 0), m + 2)
        s = self.add_(extra, ms - m)
        half_m1 = self.sub(self.shl(self.c(1, it), self.sub(s, 1)), 1)
        lsb = self.and_(self.shr(sig, s), 1)
        q = self.shr(self.add_(self.add_(sig, half_m1), lsb), s)
        base = self.shl(self.maxs(self.sub(eeff, bs - b + 1), 0), m)  # (T - 1) << m, or 0
        code = self.add_(base, q)  # a carry out of the mantissa bumps the exponent: still right
        over = self.cmp("ugt", code, fmt.max_finite)
        nan = self.cmp("ugt", a, ((1 << es) - 1) << ms)
        mag = self.add(arith.TruncIOp(code, i8))
        mag = self.sel(over, self.c(fmt.overflow, i8), mag)
        mag = self.sel(nan, self.c(fmt.nan, i8), mag)
        if not fmt.has_inf and n == 64:  # numerics.round_to_nearest_float: finite overflow -> +NaN
            finite = self.cmp("ult", a, ((1 << es) - 1) << ms)
            sign8 = self.sel(finite, self.sel(over, self.c(0, i8), sign8), sign8)
        return self.add(arith.BitcastOp(self.or_(mag, sign8), target))


def _is_f8(t: Attribute) -> bool:
    return _fp8(t) is not None


def _shaped_f8(t: Attribute) -> bool:
    return isinstance(t, ShapedType) and _is_f8(t.get_element_type())


def _to_float(em: _Emit, x: SSAValue, t: Attribute) -> SSAValue:
    """A float value to float type t (extf/truncf/nothing)."""
    if x.type == t:
        return x
    wide = {Float16Type: 16, BFloat16Type: 16, Float32Type: 32, Float64Type: 64}
    cls = arith.ExtFOp if wide[type(t)] > wide[type(x.type)] else arith.TruncFOp
    return em.add(cls(x, t))


def _rewrite(op: Operation) -> None:
    em = _Emit(op)
    res = op.results[0] if op.results else None
    if isinstance(op, arith.ConstantOp):
        assert isinstance(op.value, FloatAttr)
        from tosa_xdsl.interpreter.values import dtype_of

        code = int(np.asarray(op.value.value.data, np.float64).astype(dtype_of(res.type)).view(np.uint8))
        new = em.add(arith.BitcastOp(em.c(code, i8), res.type))
    elif isinstance(op, arith.ExtFOp):
        new = _to_float(em, em.decode(op.operands[0]), res.type)
    elif isinstance(op, arith.TruncFOp):
        new = em.encode(op.operands[0], res.type)
    elif isinstance(op, (arith.SIToFPOp, arith.UIToFPOp)) and _is_f8(res.type):
        v = op.operands[0]
        w = v.type.width.data
        if w > 53:  # |v| >= 2**17 overflows every fp8 type: clamping keeps it an overflow
            if isinstance(op, arith.SIToFPOp):
                v = em.maxs(em.mins(v, 1 << 20), -(1 << 20))
            else:
                v = em._b(arith.MinUIOp, v, 1 << 20)
        new = em.encode(em.add(type(op)(v, f64)), res.type)
    elif isinstance(op, arith.NegfOp):
        bits = em.add(arith.BitcastOp(op.operands[0], i8))
        new = em.add(arith.BitcastOp(em.add(arith.XOrIOp(bits, em.c(0x80, i8))), res.type))
    else:
        wide = f64 if isinstance(op, math.FmaOp) else f32
        operands = [_to_float(em, em.decode(v), wide) if _is_f8(v.type) else v for v in op.operands]
        types = [wide if _is_f8(r.type) else r.type for r in op.results]
        clone = type(op).create(operands=operands, result_types=types, properties=dict(op.properties),
                                attributes=dict(op.attributes))
        Rewriter.insert_op(clone, InsertPoint.before(op))
        for old, r in zip(op.results, clone.results):
            if _is_f8(old.type):
                r = em.encode(r, old.type)
            old.replace_all_uses_with(r)
        Rewriter.erase_op(op)
        return
    res.replace_all_uses_with(new)
    Rewriter.erase_op(op)


def _needs(op: Operation) -> bool:
    dialect = op.name.split(".", 1)[0]
    if dialect not in ("arith", "math") or isinstance(op, (arith.BitcastOp, arith.SelectOp)):
        return False
    types = [v.type for v in (*op.operands, *op.results)]
    if any(_shaped_f8(t) for t in types):
        raise LocatedError(op, f"{PASS_NAME}: '{op.name}' on a shaped fp8 value is not supported "
                               "(the pass rewrites scalar arith/math)")
    return any(_is_f8(t) for t in types)


@dataclass(frozen=True)
class EmulateFp8Pass(ModulePass):
    """arith/math on f8E4M3FN / f8E5M2 values -> integer code on their i8 bits (module doc)."""

    name: ClassVar[str] = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in [o for o in all_ops(op) if _needs(o)]:
            _rewrite(o)
