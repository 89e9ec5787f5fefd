"""`tosa-optional-decompositions`: rewrite some tensor operators into simpler TOSA ops.

* DEPTHWISE_CONV2D with a 1x1 kernel, stride 1, no padding -> reshape + mul + reshape + add
  (integers: cast to i32 and subtract the zero points first).
* CONV2D with a 1x1 kernel, stride 1, no padding -> reshape + (reshape, transpose of the
  weights) + MATMUL (zero points carried over) + [cast] + reshape + add.
* TRANSPOSE_CONV2D with stride 1 -> CONV2D of the kernel reversed along KH and KW, with
  pad = KH-1+out_pad_top, ...
* TRANSPOSE_CONV2D with stride > 1 -> weights split into stride_y*stride_x reversed
  sub-kernels (pad/reshape/transpose/reshape/reverse, or a rearranged constant), bias tiled
  per sub-kernel, one stride-1 CONV2D with OC*sy*sx channels, depth-to-space
  (reshape/transpose/reshape) and a slice (see TransposeConvStrided and docs/passes.md).

Exactness (see docs/passes.md): integer results are bit-identical (i8 inputs with an i32
accumulator only; i16/i48 would need an i48 ADD/MUL that TOSA does not have). Floats:
the 1x1 depthwise and 1x1 conv decompositions compute the same products and sums (one
product per output for the depthwise case; the same IC-long dot product for the matmul),
so they are bit-identical whenever the implementation sums a dot product in one order
(ours does). The depthwise case needs a constant bias without -0.0 (the conv adds the
product to +0.0 first, the mul does not). TRANSPOSE_CONV2D -> CONV2D reorders a float
accumulation (the kernel is walked in reverse), so float results may differ within the
spec's dot-product precision bound. The strided TRANSPOSE_CONV2D decomposition is exact for
integers; for floats it reorders the sum (within the dot-product bound) and is applied only
when the strides divide the kernel (otherwise padded taps would compute 0 * inf = NaN),
unless the pass option float-kernel-padding is set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import tensor as tn
from tosa_xdsl.dialects.tosa.ops import type_conversion as tc
from tosa_xdsl.interpreter.common import tname
from tosa_xdsl.ir.access import element_type
from tosa_xdsl.passes._rewrite_utils import (
    array_prop,
    const_scalar,
    const_tensor,
    i64_array,
    is_float,
    make_const,
    make_const_shape,
    make_reshape,
    make_transpose,
    static_shape,
    zero_shift,
)


def _acc_elem(op: Operation):
    acc = op.properties.get("acc_type")
    return acc


def _int8_setup(op) -> bool:
    """i8 input/weight, i32 accumulator and output."""
    try:
        return (tname(op.input) == "i8" and tname(op.weight) == "i8" and tname(op.output) == "i32"
                and op.properties.get("acc_type") == i32)
    except Exception:
        return False


def _float_setup(op) -> bool:
    return is_float(op.input) and is_float(op.weight) and is_float(op.output)


def _no_negative_zero(value: SSAValue) -> bool:
    arr = const_tensor(value)
    if arr is None:
        return False
    a = arr.astype(np.float64)
    return not bool(((a == 0) & np.signbit(a)).any())


def _to_i32_minus_zp(x: SSAValue, zp: int, ops: list[Operation]) -> SSAValue:
    """cast(x -> i32) - zp, as new ops appended to `ops`."""
    shape = static_shape(x)
    cast = tc.CastOp.create(operands=[x], result_types=[TensorType(i32, list(shape))])
    ops.append(cast)
    value = cast.results[0]
    if zp != 0:
        c = make_const(np.array([zp], np.int32).reshape((1,) * len(shape)),
                       TensorType(i32, [1] * len(shape)))
        sub = eb.SubOp.create(operands=[value, c.output], result_types=[value.type])
        ops += [c, sub]
        value = sub.results[0]
    return value


def _add_bias(acc: SSAValue, bias: SSAValue, ops: list[Operation]) -> SSAValue:
    bshape = static_shape(bias)
    rank = len(static_shape(acc))
    rb = make_reshape(bias, TensorType(element_type(bias), [1] * (rank - 1) + [bshape[0]]))
    add = eb.AddOp.create(operands=[acc, rb[-1].results[0]], result_types=[acc.type])
    ops += [*rb, add]
    return add.results[0]


def _plain_1x1_shapes(op: Operation, cls: type[Operation]):
    """The static (input, weight, output, bias) shapes of a `cls` convolution with unit
    stride and no padding; None for any other op or when a shape is not static."""
    if type(op) is not cls:
        return None
    if array_prop(op, "stride") != [1, 1] or array_prop(op, "pad") != [0, 0, 0, 0]:
        return None
    shapes = tuple(static_shape(v) for v in (op.input, op.weight, op.output, op.bias))  # type: ignore[attr-defined]
    return None if None in shapes else shapes


class DepthwiseConv1x1(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        shapes = _plain_1x1_shapes(op, tn.DepthwiseConv2DOp)
        if shapes is None:
            return
        xs, ws, os_, bs = shapes
        kh, kw, c, m = ws
        n, h, w, c_in = xs
        if (kh, kw) != (1, 1) or c_in != c or tuple(os_) != (n, h, w, c * m) or bs[0] not in (1, c * m):
            return
        izp, wzp = const_scalar(op.input_zp), const_scalar(op.weight_zp)
        if izp is None or wzp is None:
            return
        ops: list[Operation] = []
        if _int8_setup(op):
            xv = _to_i32_minus_zp(op.input, int(izp), ops)
            wv = _to_i32_minus_zp(op.weight, int(wzp), ops)
            prod_elem = i32
        elif _float_setup(op) and izp == 0 and wzp == 0:
            if element_type(op.input) != element_type(op.output) or element_type(op.weight) != element_type(op.output):
                return
            if not _no_negative_zero(op.bias):
                return
            xv, wv, prod_elem = op.input, op.weight, element_type(op.output)
        else:
            return
        rx = make_reshape(xv, TensorType(element_type(xv), [n, h, w, c, 1]))
        rw = make_reshape(wv, TensorType(element_type(wv), [1, 1, 1, c, m]))
        shift = zero_shift()
        mul = eb.MulOp.create(operands=[rx[-1].results[0], rw[-1].results[0], shift.output],
                              result_types=[TensorType(prod_elem, [n, h, w, c, m])])
        ops += [*rx, *rw, shift, mul]
        back = make_reshape(mul.results[0], TensorType(prod_elem, [n, h, w, c * m]))
        ops += back
        out = _add_bias(back[-1].results[0], op.bias, ops)
        assert out.type == op.output.type
        rewriter.replace(op, ops, [out])


class Conv1x1ToMatMul(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        shapes = _plain_1x1_shapes(op, tn.Conv2DOp)
        if shapes is None:
            return
        xs, ws, os_, bs = shapes
        oc, kh, kw, ic = ws
        n, h, w, ic_in = xs
        if (kh, kw) != (1, 1) or ic != ic_in or tuple(os_) != (n, h, w, oc) or bs[0] not in (1, oc):
            return
        acc = op.properties.get("acc_type")
        if _int8_setup(op):
            mm_elem = i32
        elif _float_setup(op) and element_type(op.input) == element_type(op.weight):
            if const_scalar(op.input_zp) != 0 or const_scalar(op.weight_zp) != 0:
                return
            mm_elem = acc
            if tname(op.input) == "fp32" and tname(acc) != "fp32":
                return
        else:
            return
        ops: list[Operation] = []
        rows = n * h * w
        ra = make_reshape(op.input, TensorType(element_type(op.input), [1, rows, ic]))
        rb = make_reshape(op.weight, TensorType(element_type(op.weight), [1, oc, ic]))
        tb = make_transpose(rb[-1].results[0], [0, 2, 1])
        mm = tn.MatMulOp.create(
            operands=[ra[-1].results[0], tb.results[0], op.input_zp, op.weight_zp],
            result_types=[TensorType(mm_elem, [1, rows, oc])])
        ops += [*ra, *rb, tb, mm]
        value = mm.results[0]
        if mm_elem != element_type(op.output):
            cast = tc.CastOp.create(operands=[value], result_types=[TensorType(element_type(op.output), [1, rows, oc])])
            ops.append(cast)
            value = cast.results[0]
        back = make_reshape(value, TensorType(element_type(op.output), [n, h, w, oc]))
        ops += back
        out = _add_bias(back[-1].results[0], op.bias, ops)
        rewriter.replace(op, ops, [out])


class TransposeConvStride1(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if type(op) is not tn.TransposeConv2DOp or array_prop(op, "stride") != [1, 1]:
            return
        ws = static_shape(op.weight)
        out_pad = array_prop(op, "out_pad")
        if ws is None or out_pad is None or len(out_pad) != 4:
            return
        oc, kh, kw, ic = ws
        pt, pb, pl, pr = out_pad
        if pt <= -kh or pb <= -kh or pl <= -kw or pr <= -kw:
            return  # ERROR_IF: keep the op that reports it
        r1 = dl.ReverseOp.create(operands=[op.weight], result_types=[op.weight.type],
                                 properties={"axis": _i32_attr(1)})
        r2 = dl.ReverseOp.create(operands=[r1.results[0]], result_types=[op.weight.type],
                                 properties={"axis": _i32_attr(2)})
        props = {
            "pad": i64_array([kh - 1 + pt, kh - 1 + pb, kw - 1 + pl, kw - 1 + pr]),
            "stride": i64_array([1, 1]),
            "dilation": i64_array([1, 1]),
            "acc_type": op.properties["acc_type"],
        }
        if "local_bound" in op.properties:
            props["local_bound"] = op.properties["local_bound"]
        conv = tn.Conv2DOp.create(
            operands=[op.input, r2.results[0], op.bias, op.input_zp, op.weight_zp],
            result_types=[op.output.type], properties=props)
        rewriter.replace(op, [r1, r2, conv])


class TransposeConvStrided(RewritePattern):
    """TRANSPOSE_CONV2D with stride (sy, sx) != (1, 1) -> one CONV2D over sy*sx sub-kernels.

    Per dimension (y shown; x is the same): write oy - out_pad_top = sy*q + r, 0 <= r < sy.
    By 2.3.10 only taps ky = r + sy*j (j >= 0) meet a non-fractional input row, namely
    row q - j. With K' = ceil(KH/sy) and the kernel padded to sy*K' rows with weight_zp
    (so the padded taps contribute (weight_zp - weight_zp) * v = 0), phase r is the stride-1
    correlation of the input with the sub-kernel k_r[t] = w[r + sy*(K'-1-t)]:
        out[sy*q + r] = sum_t in[q - (K'-1) + t] * k_r[t].
    All sy*sx phases become OC*sy*sx output channels (channel (ry*sx + rx)*OC + oc) of one
    CONV2D whose bias is the original bias tiled sy*sx times (so the conv adds the bias to
    static_cast<out_t>(acc) exactly as 2.3.10 does). The conv computes q in [q0, q1) with
    q0 = floor(-out_pad_top/sy), q1 = ceil((OH - out_pad_top)/sy) via pad_top = K'-1-q0 >= 0,
    pad_bottom = q1 - IH >= 0 (rows outside the input contribute nothing, as in 2.3.10: acc
    stays 0 and the output is the bias, which also covers positive out_pad). Then
    depth-to-space (reshape, transpose, reshape) and a slice starting at
    (-out_pad_top) mod sy give exactly [N, OH, OW, OC].

    Weights: a constant weight is rearranged here (numpy, any element type); otherwise
    pad (weight_zp) + reshape + transpose + reshape + reverse(1) + reverse(2) ops are
    emitted (element types PAD/TRANSPOSE/REVERSE support: not i4). Bias: constant -> tiled
    constant; BC == 1 -> unchanged; otherwise TILE.

    Floats: when sy divides KH and sx divides KW no tap is padded, and the CONV2D computes
    exactly the products 2.3.10 computes (the others are skipped as padding), only summed in
    another order: within the dot-product bound, with the same inf/NaN behaviour. Otherwise
    the padded taps add products 0 * x, which are exact zeros for finite x but NaN for
    x = +-inf; that form is used only with the pass option float-kernel-padding=true
    (upstream's TosaDecomposeTransposeConv always zero-pads). i16 x i8 -> i48 is not decomposed: the
    depth-to-space would need RESHAPE/TRANSPOSE/SLICE of i48, which TOSA 1.0 lacks.
    """

    def __init__(self, float_kernel_padding: bool = False):
        self.float_kernel_padding = float_kernel_padding

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if type(op) is not tn.TransposeConv2DOp:
            return
        stride = array_prop(op, "stride")
        out_pad = array_prop(op, "out_pad")
        if stride is None or len(stride) != 2 or stride == [1, 1] or min(stride) < 1:
            return
        if out_pad is None or len(out_pad) != 4:
            return
        xs, ws, os_, bs = (static_shape(v) for v in (op.input, op.weight, op.output, op.bias))
        if None in (xs, ws, os_, bs):
            return
        sy, sx = stride
        oc, kh, kw, ic = ws
        n, ih, iw, ic_in = xs
        pt, pb, pl, pr = out_pad
        if pt <= -kh or pb <= -kh or pl <= -kw or pr <= -kw or ic != ic_in:
            return  # ERROR_IF: keep the op that reports it
        oh = (ih - 1) * sy + pt + pb + kh
        ow = (iw - 1) * sx + pl + pr + kw
        if tuple(os_) != (n, oh, ow, oc) or bs[0] not in (1, oc) or min(ih, iw, n, oc, ic, oh, ow) < 1:
            return
        if tname(op.output) == "i48":
            return  # depth-to-space needs RESHAPE/TRANSPOSE/SLICE of i48: not in TOSA 1.0
        out_elem = element_type(op.output)
        w_elem = element_type(op.weight)
        khs, kws = -(-kh // sy), -(-kw // sx)  # sub-kernel size K'
        khp, kwp = khs * sy, kws * sx
        if (khp, kwp) != (kh, kw) and is_float(op.input) and not self.float_kernel_padding:
            return  # a padded tap computes 0 * x, NaN for x = +-inf (see the class doc)
        c2 = oc * sy * sx
        ops: list[Operation] = []

        # ---- weights [OC, KH, KW, IC] -> [sy*sx*OC, K'h, K'w, IC]
        w_type = TensorType(w_elem, [c2, khs, kws, ic])
        wconst = const_tensor(op.weight)
        wzp = const_scalar(op.weight_zp)
        if wconst is not None and wzp is not None:
            wp = np.full((oc, khp, kwp, ic), wzp, dtype=wconst.dtype)
            wp[:, :kh, :kw, :] = wconst
            wr = wp.reshape(oc, khs, sy, kws, sx, ic).transpose(2, 4, 0, 1, 3, 5)
            wr = wr.reshape(c2, khs, kws, ic)[:, ::-1, ::-1, :]
            cw = make_const(np.ascontiguousarray(wr), w_type)
            ops.append(cw)
            weight = cw.output
        else:
            if tname(op.weight) in ("i4", "i48"):
                return
            weight = op.weight
            if (khp, kwp) != (kh, kw):
                padding = make_const_shape([0, 0, 0, khp - kh, 0, kwp - kw, 0, 0])
                pad = dl.PadOp.create(operands=[weight, padding.output, op.weight_zp],
                                      result_types=[TensorType(w_elem, [oc, khp, kwp, ic])])
                ops += [padding, pad]
                weight = pad.results[0]
            r6 = make_reshape(weight, TensorType(w_elem, [oc, khs, sy, kws, sx, ic]))
            t6 = make_transpose(r6[-1].results[0], [2, 4, 0, 1, 3, 5])
            r4 = make_reshape(t6.results[0], w_type)
            ops += [*r6, t6, *r4]
            weight = r4[-1].results[0]
            for axis in (1, 2):
                rev = dl.ReverseOp.create(operands=[weight], result_types=[w_type],
                                          properties={"axis": _i32_attr(axis)})
                ops.append(rev)
                weight = rev.results[0]

        # ---- bias, replicated per sub-kernel
        bconst = const_tensor(op.bias)
        if bs[0] == 1:
            bias = op.bias
        elif bconst is not None:
            cb = make_const(np.ascontiguousarray(np.tile(bconst, sy * sx)), TensorType(out_elem, [c2]))
            ops.append(cb)
            bias = cb.output
        else:
            mult = make_const_shape([sy * sx])
            tile = dl.TileOp.create(operands=[op.bias, mult.output],
                                    result_types=[TensorType(out_elem, [c2])])
            ops += [mult, tile]
            bias = tile.results[0]

        # ---- the conv over q in [q0, q1) x [p0, p1)
        q0, p0 = (-pt) // sy, (-pl) // sx
        q1, p1 = -(-(oh - pt) // sy), -(-(ow - pl) // sx)
        pad = [khs - 1 - q0, q1 - ih, kws - 1 - p0, p1 - iw]
        if min(pad) < 0:  # cannot happen for ERROR_IF-free ops; be safe
            return
        qn, pn = q1 - q0, p1 - p0
        props = {
            "pad": i64_array(pad),
            "stride": i64_array([1, 1]),
            "dilation": i64_array([1, 1]),
            "acc_type": op.properties["acc_type"],
        }
        if "local_bound" in op.properties:
            props["local_bound"] = op.properties["local_bound"]
        conv = tn.Conv2DOp.create(
            operands=[op.input, weight, bias, op.input_zp, op.weight_zp],
            result_types=[TensorType(out_elem, [n, qn, pn, c2])], properties=props)
        ops.append(conv)

        # ---- depth-to-space and slice
        r6 = make_reshape(conv.results[0], TensorType(out_elem, [n, qn, pn, sy, sx, oc]))
        t6 = make_transpose(r6[-1].results[0], [0, 1, 3, 2, 4, 5])
        r4 = make_reshape(t6.results[0], TensorType(out_elem, [n, qn * sy, pn * sx, oc]))
        ops += [*r6, t6, *r4]
        value = r4[-1].results[0]
        oy0, ox0 = -pt - q0 * sy, -pl - p0 * sx
        if (oy0, ox0) != (0, 0) or (qn * sy, pn * sx) != (oh, ow):
            start = make_const_shape([0, oy0, ox0, 0])
            size = make_const_shape([n, oh, ow, oc])
            sl = dl.SliceOp.create(operands=[value, start.output, size.output],
                                   result_types=[op.output.type])
            ops += [start, size, sl]
            value = sl.results[0]
        assert value.type == op.output.type
        rewriter.replace(op, ops, [value])


def _i32_attr(v: int):
    from xdsl.dialects.builtin import IntegerAttr

    return IntegerAttr(v, i32)


PATTERNS: tuple[RewritePattern, ...] = (DepthwiseConv1x1(), Conv1x1ToMatMul(), TransposeConvStride1(),
                                         TransposeConvStrided())


@dataclass(frozen=True)
class TosaOptionalDecompositionsPass(ModulePass):
    """Option float_kernel_padding (`float-kernel-padding=true`): also decompose float
    TRANSPOSE_CONV2D whose kernel must be zero-padded to a multiple of the stride (exact
    for finite inputs up to the sum order; a +-inf input can give NaN where the original
    gives a finite or infinite value)."""

    name: ClassVar[str] = "tosa-optional-decompositions"

    float_kernel_padding: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = list(PATTERNS[:-1]) + [TransposeConvStrided(self.float_kernel_padding)]
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns, dce_enabled=False),
                             apply_recursively=False).rewrite_module(op)
