"""`tosa-to-linalg` for the spec 2.3 tensor operators that have no linalg named op (the others
are tosa-to-linalg-named's):

  argmax        linalg.generic with two outputs (index i32, running max), compare + select
                in the spec's order: the first maximum wins; NaN per nan_mode (2.3.1)
  fft2d/rfft2d  naive DFT: linalg.generic over (n, oy, ox, iy, ix), reductions over iy, ix
                (2.3.6, 2.3.9)
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    Signedness,
    UnrealizedConversionCastOp,
    f64,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops.tensor import ArgMaxOp, FFT2DOp, RFFT2DOp
from tosa_xdsl.interpreter.common import tname
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering import numerics_ir as nir
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims, checked_axis
from tosa_xdsl.lowering.tosa_to_linalg.common import (
    PASS,
    cidx,
    fail,
    float_extreme,
    index,
    is_float,
    prop,
    reduce_along,
)

# ------------------------------------------------------------------ 2.3.1 ARGMAX


def lower_argmax(op: ArgMaxOp) -> None:
    x = op.input
    shape = lb.dims_of(x)
    axis = checked_axis(op, prop(op, "axis"), len(shape), PASS)
    elem = lb.element_type(x)
    fp = is_float(elem)
    ignore = prop(op, "nan_mode", "PROPAGATE") == "IGNORE"
    pre: list[Operation] = []
    unsigned = isinstance(elem, IntegerType) and elem.signedness.data == Signedness.UNSIGNED
    if unsigned:  # upstream's unsigned rows: the signless bits (unrealized cast), compared unsigned
        elem = IntegerType(elem.width.data)
        pre.append(UnrealizedConversionCastOp.get([x], [lb.tensor_type(elem, shape)]))
        x = pre[-1].results[0]
    if fp:
        init = float("nan") if ignore else float_extreme(elem, True)
    else:
        init = 0 if unsigned else -(1 << (elem.width.data - 1))

    def body(b: Builder, args):
        v, idx_acc, max_acc = args
        if fp:
            if ignore:
                # NaN compares below every number: take v if it is a number and beats the
                # running max (or the max is still the initial NaN)
                beats = b.insert(arith.CmpfOp(v, max_acc, "ugt")).result
                is_num = b.insert(arith.CmpfOp(v, v, "ord")).result
                take = b.insert(arith.AndIOp(beats, is_num)).result
            else:
                # NaN compares above every number; the first NaN wins, later NaNs tie
                beats = b.insert(arith.CmpfOp(v, max_acc, "ogt")).result
                v_nan = b.insert(arith.CmpfOp(v, v, "uno")).result
                max_num = b.insert(arith.CmpfOp(max_acc, max_acc, "ord")).result
                first_nan = b.insert(arith.AndIOp(v_nan, max_num)).result
                take = b.insert(arith.OrIOp(beats, first_nan)).result
        else:
            # strictly greater: ties keep the first index
            take = b.insert(arith.CmpiOp(v, max_acc, "ugt" if unsigned else "sgt")).result
        i = b.insert(arith.IndexCastOp(index(b, axis), i32)).result
        new_idx = b.insert(arith.SelectOp(take, i, idx_acc)).result
        new_max = b.insert(arith.SelectOp(take, v, max_acc)).result
        return [new_idx, new_max]

    ops, (res, _) = reduce_along(x, axis, [i32, elem], [0, init], body)
    Rewriter.replace_op(op, pre + ops, [res])


# ------------------------------------------------------------------ 2.3.6 FFT2D / 2.3.9 RFFT2D


def _fft(op: Operation, real_in: SSAValue, imag_in: SSAValue | None, inverse: bool) -> None:
    n, h, w = lb.dims_of(real_in)
    out_shape = lb.dims_of(op.results[0])
    elem = lb.element_type(real_in)
    if not isinstance(elem, Float32Type | Float16Type | BFloat16Type):
        raise fail(op, f"element type {elem} is not a float type")
    sign = -1.0 if inverse else 1.0
    ops: list[Operation] = []
    # a dynamic H or W (upstream's test_dynamic_fft2d / rfft2d): the input's tensor.dim, used
    # in the body where a static size is a constant; RFFT2D's H/2 and W/2 as max(size / 2, 1)
    # (size 1 leaves ay = 0, whose remainder is 0 either way: the term is skipped as the
    # static `size > 1` test does, and no remainder by 0 is taken)
    dyn: dict[int, tuple[SSAValue, SSAValue | None]] = {}
    for d, size in ((1, h), (2, w)):
        if size < 0:
            v = lb.dim(real_in, d, ops)
            half = None
            if imag_in is None:
                two, one = lb.index_constant(2, ops), lb.index_constant(1, ops)
                q = arith.DivUIOp(v, two)
                mx = arith.MaxUIOp(q.result, one)
                ops += [q, mx]
                half = mx.result
            dyn[d] = (v, half)

    def body(b: Builder, args):
        # loops (n, oy, ox, iy, ix). The pseudocode's angle, in in_out_t as the spec writes
        # it: a = sign * 2 * pi() * (ay / H + ax / W), ay = iy*oy mod H, ax = ix*ox mod W
        # (ay / H and ax / W are exact; their sum is one rounding, the product another);
        # cos/sin of that value taken in f64 and rounded once to in_out_t, the interpreter's
        # `_spec_twiddles`. No twiddle is exactly 0 but sin(0), so `inf * cos(a)` is an
        # infinity where the spec says so (interpreter and JIT agree on NaN positions).
        oy, ox, iy, ix = (index(b, d) for d in (1, 2, 3, 4))

        def bin_(cls, x, y):
            return b.insert(cls(x, y)).result

        def size_v(d, size):
            return dyn[d][0] if d in dyn else cidx(b, size)

        ay = bin_(arith.RemUIOp, bin_(arith.MuliOp, iy, oy), size_v(1, h))
        ax = bin_(arith.RemUIOp, bin_(arith.MuliOp, ix, ox), size_v(2, w))

        def to_float(i):
            return b.insert(arith.SIToFPOp(b.insert(arith.IndexCastOp(i, i64)).result, elem)).result

        def ratio(i, d, size):
            # a dynamic size is a power of two (ERROR_IF otherwise): exact in every float type
            return bin_(arith.DivfOp, to_float(i), to_float(dyn[d][0]) if d in dyn else nir.const(b, float(size), elem))

        frac = bin_(arith.AddfOp, ratio(ay, 1, h), ratio(ax, 2, w))
        two_pi = float(nx.round_to_nearest_float(np.float64(2 * pymath.pi), tname(elem)))
        factor = nir.const(b, sign * two_pi, elem)  # sign * 2 * pi(), pi() in in_out_t
        a = b.insert(arith.ExtFOp(bin_(arith.MulfOp, factor, frac), f64)).result
        cos = b.insert(arith.TruncFOp(b.insert(math.CosOp(a)).result, elem)).result
        sin = b.insert(arith.TruncFOp(b.insert(math.SinOp(a)).result, elem)).result
        if imag_in is not None:
            vr, vi, acc_r, acc_i = args
        else:
            vr, acc_r, acc_i = args
            vi = None
        # sum_real += vr cos(a) + vi sin(a); sum_imag += -vr sin(a) + vi cos(a)
        re = b.insert(arith.MulfOp(vr, cos)).result
        im = b.insert(arith.NegfOp(b.insert(arith.MulfOp(vr, sin)).result)).result
        if vi is not None:
            re = b.insert(arith.AddfOp(re, b.insert(arith.MulfOp(vi, sin)).result)).result
            im = b.insert(arith.AddfOp(im, b.insert(arith.MulfOp(vi, cos)).result)).result
        new_i = b.insert(arith.AddfOp(acc_i, im)).result
        if imag_in is None and (h > 1 or w > 1 or dyn):
            # RFFT2D adds the imaginary term only if (H > 1 && ay % (H/2) > 0) ||
            # (W > 1 && ax % (W/2) > 0): skipped, not multiplied by 0 (inf * 0 is NaN)
            kept = [b.insert(arith.CmpiOp(bin_(arith.RemUIOp, v, dyn[d][1] if d in dyn else cidx(b, size // 2)),
                                          cidx(b, 0), "ne")).result
                    for v, d, size in ((ay, 1, h), (ax, 2, w)) if d in dyn or size > 1]
            cond = kept[0] if len(kept) == 1 else bin_(arith.OrIOp, kept[0], kept[1])
            new_i = b.insert(arith.SelectOp(cond, new_i, acc_i)).result
        return [b.insert(arith.AddfOp(acc_r, re)).result, new_i]

    outs = []
    for _ in range(2):
        if any(d < 0 for d in out_shape):
            e_v = lb.dynamic_empty(out_shape, elem, lambda d: _fft_out_size(real_in, d, imag_in is None, ops), ops)
        else:
            e = lb.empty(out_shape, elem)
            ops.append(e)
            e_v = e.tensor
        z = lb.constant(0.0, elem)
        f = lb.fill(z.result, e_v)
        ops += [z, f]
        outs.append(f.res[0])
    ins = [real_in] + ([imag_in] if imag_in is not None else [])
    in_map = lb.map_of(5, [0, 3, 4])
    out_map = lb.map_of(5, [0, 1, 2])
    gen = lb.generic(ins, outs, [in_map] * len(ins) + [out_map, out_map], lb.iterators("pppr" + "r"), body)
    ops.append(gen)
    Rewriter.replace_op(op, ops, list(gen.res))


def _fft_out_size(real_in: SSAValue, d: int, real_only: bool, ops: list[Operation]) -> SSAValue:
    """A dynamic output dim: the input's, RFFT2D's W is W / 2 + 1 (upstream's divui + addi)."""
    v = lb.dim(real_in, d, ops)
    if d == 2 and real_only:
        q = arith.DivUIOp(v, lb.index_constant(2, ops))
        add = arith.AddiOp(q.result, lb.index_constant(1, ops))
        ops += [q, add]
        return add.result
    return v


def lower_fft2d(op: FFT2DOp) -> None:
    _fft(op, op.input_real, op.input_imag, bool(prop(op, "inverse", False)))


def lower_rfft2d(op: RFFT2DOp) -> None:
    _fft(op, op.input_real, None, False)


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {
    ArgMaxOp: lower_argmax,
    FFT2DOp: lower_fft2d,
    RFFT2DOp: lower_rfft2d,
}

# ARGMAX: every dim may be dynamic (upstream's argmax_dyn_non_axis / argmax_dyn_axis): the
# accumulators' tensor.empty takes the input's tensor.dim of the kept dims
# FFT2D / RFFT2D: N, H and W may be dynamic (upstream's test_dynamic_fft2d / rfft2d): the
# outputs' tensor.empty from the input's tensor.dim (RFFT2D's W / 2 + 1), H and W read in the body
DYNAMIC: dict[type[Operation], DynamicDims] = {ArgMaxOp: EVERY_DIM, FFT2DOp: EVERY_DIM, RFFT2DOp: EVERY_DIM}
