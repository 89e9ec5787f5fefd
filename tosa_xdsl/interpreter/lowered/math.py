"""math, on scalars and tensors: computed in f32 (f64 for f64) and rounded to the op's type.

exp/log/tanh/erf/sin/cos/powf use numpy's libm-quality implementations, so results can
differ from a compiled MLIR program (LLVM intrinsics or polynomial approximations) in the
last ulp; sqrt, abs, ceil, floor, trunc, roundeven are exact. fma is computed in f64 and
rounded to the type (exact for f16/bf16; for f32 the double rounding can differ from a fused
result in rare halfway cases).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import math
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl.interpreter.lowered.common import (
    arr,
    compute_dtype,
    from_bits,
    sval,
    to_float,
    ubits,
    width,
)
from tosa_xdsl.interpreter.lowered.libm import (
    erf as _erf,  # one erf for math.erf and @erff
)
from tosa_xdsl.interpreter.values import dtype_of


def _unary(fn):
    def run(self, interpreter, op, args):
        t = op.results[0].type
        x = arr(args[0], t).astype(compute_dtype(t))
        return (to_float(fn(x), t),)

    return run


def _binary(fn):
    def run(self, interpreter, op, args):
        t = op.results[0].type
        cd = compute_dtype(t)
        a, b = (arr(v, t).astype(cd) for v in args)
        return (to_float(fn(a, b), t),)

    return run


def _ctlz(u: np.ndarray, w: int) -> np.ndarray:
    n = np.zeros(u.shape, np.int64)
    x = u.copy()
    length = np.zeros(u.shape, np.int64)  # bit length
    for s in (32, 16, 8, 4, 2, 1):
        big = x >= (np.uint64(1) << np.uint64(s))
        length = length + np.where(big, s, 0)
        x = np.where(big, x >> np.uint64(s), x)
    length = length + (x > 0)
    n = w - length
    return n


@register_impls
class LoweredMathFunctions(InterpreterFunctions):
    run_exp = impl(math.ExpOp)(_unary(np.exp))
    run_log = impl(math.LogOp)(_unary(np.log))
    run_sqrt = impl(math.SqrtOp)(_unary(np.sqrt))
    run_rsqrt = impl(math.RsqrtOp)(_unary(lambda x: 1 / np.sqrt(x)))
    run_tanh = impl(math.TanhOp)(_unary(np.tanh))
    run_erf = impl(math.ErfOp)(_unary(lambda x: _erf(x).astype(x.dtype)))
    run_sin = impl(math.SinOp)(_unary(np.sin))
    run_cos = impl(math.CosOp)(_unary(np.cos))
    run_tan = impl(math.TanOp)(_unary(np.tan))
    run_absf = impl(math.AbsFOp)(_unary(np.abs))
    run_ceil = impl(math.CeilOp)(_unary(np.ceil))
    run_floor = impl(math.FloorOp)(_unary(np.floor))
    run_trunc = impl(math.TruncOp)(_unary(np.trunc))
    run_roundeven = impl(math.RoundEvenOp)(_unary(np.rint))
    run_round = impl(math.RoundOp)(_unary(lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x)))
    run_powf = impl(math.PowFOp)(_binary(np.power))
    run_copysign = impl(math.CopySignOp)(_binary(np.copysign))

    @impl(math.FmaOp)
    def run_fma(self, interpreter, op, args):
        # one rounding: the product of two f32 is exact in f64, the sum rounded twice
        # (f64 then t) can differ from a fused result only in rare halfway cases
        t = op.results[0].type
        a, b, c = (arr(v, t).astype(np.float64) for v in args)
        return (to_float(a * b + c, t),)

    @impl(math.AbsIOp)
    def run_absi(self, interpreter, op, args):
        t = op.results[0].type
        w = width(t)
        v = sval(args[0], w)
        return (from_bits(np.abs(v).astype(np.uint64), t),)  # INT_MIN stays INT_MIN

    @impl(math.CountLeadingZerosOp)
    def run_ctlz(self, interpreter, op, args):
        t = op.results[0].type
        w = width(t)
        return (from_bits(_ctlz(ubits(args[0], w), w).astype(np.uint64), t),)

    @impl(math.CtPopOp)
    def run_ctpop(self, interpreter, op, args):
        t = op.results[0].type
        u = ubits(args[0], width(t))
        n = np.zeros(u.shape, np.uint64)
        for _ in range(width(t)):
            n = n + (u & np.uint64(1))
            u = u >> np.uint64(1)
        return (from_bits(n, t),)


_ = dtype_of
