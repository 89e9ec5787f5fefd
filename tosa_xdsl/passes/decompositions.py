"""`tosa-optional-decompositions`: rewrite some tensor operators into simpler TOSA ops.

* DEPTHWISE_CONV2D with a 1x1 kernel, stride 1, no padding -> reshape + mul + reshape + add
  (integers: cast to i32 and subtract the zero points first).
* CONV2D with a 1x1 kernel, stride 1, no padding -> reshape + (reshape, transpose of the
  weights) + MATMUL (zero points carried over) + [cast] + reshape + add.
* TRANSPOSE_CONV2D with stride 1 -> CONV2D of the kernel reversed along KH and KW, with
  pad = KH-1+out_pad_top, ... (stride > 1 is not decomposed; see docs/passes.md).

Exactness (see docs/passes.md): integer results are bit-identical (i8 inputs with an i32
accumulator only; i16/i48 would need an i48 ADD/MUL that TOSA does not have). Floats:
the 1x1 depthwise and 1x1 conv decompositions compute the same products and sums (one
product per output for the depthwise case; the same IC-long dot product for the matmul),
so they are bit-identical whenever the implementation sums a dot product in one order
(ours does). The depthwise case needs a constant bias without -0.0 (the conv adds the
product to +0.0 first, the mul does not). TRANSPOSE_CONV2D -> CONV2D reorders a float
accumulation (the kernel is walked in reverse), so float results may differ within the
spec's dot-product precision bound.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.passes import ModulePass

from tosa_xdsl.interpreter.common import prop, tname
from tosa_xdsl.ops import data_layout as dl
from tosa_xdsl.ops import elementwise_binary as eb
from tosa_xdsl.ops import tensor as tn
from tosa_xdsl.ops import type_conversion as tc
from tosa_xdsl.passes._rewrite_utils import (
    array_prop,
    const_scalar,
    const_tensor,
    i64_array,
    is_float,
    make_const,
    make_reshape,
    make_transpose,
    static_shape,
    zero_shift,
)


def _elem(v: SSAValue):
    return v.type.element_type


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
    rb = make_reshape(bias, TensorType(_elem(bias), [1] * (rank - 1) + [bshape[0]]))
    add = eb.AddOp.create(operands=[acc, rb[-1].results[0]], result_types=[acc.type])
    ops += [*rb, add]
    return add.results[0]


def _plain_1x1(op) -> bool:
    w = static_shape(op.weight)
    return (array_prop(op, "stride") == [1, 1] and array_prop(op, "pad") == [0, 0, 0, 0]
            and w is not None)


class DepthwiseConv1x1(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if type(op) is not tn.DepthwiseConv2DOp or not _plain_1x1(op):
            return
        xs, ws, os_, bs = (static_shape(v) for v in (op.input, op.weight, op.output, op.bias))
        if None in (xs, ws, os_, bs):
            return
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
            if _elem(op.input) != _elem(op.output) or _elem(op.weight) != _elem(op.output):
                return
            if not _no_negative_zero(op.bias):
                return
            xv, wv, prod_elem = op.input, op.weight, _elem(op.output)
        else:
            return
        rx = make_reshape(xv, TensorType(_elem(xv), [n, h, w, c, 1]))
        rw = make_reshape(wv, TensorType(_elem(wv), [1, 1, 1, c, m]))
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
        if type(op) is not tn.Conv2DOp or not _plain_1x1(op):
            return
        xs, ws, os_, bs = (static_shape(v) for v in (op.input, op.weight, op.output, op.bias))
        if None in (xs, ws, os_, bs):
            return
        oc, kh, kw, ic = ws
        n, h, w, ic_in = xs
        if (kh, kw) != (1, 1) or ic != ic_in or tuple(os_) != (n, h, w, oc) or bs[0] not in (1, oc):
            return
        acc = op.properties.get("acc_type")
        if _int8_setup(op):
            mm_elem = i32
        elif _float_setup(op) and _elem(op.input) == _elem(op.weight):
            if const_scalar(op.input_zp) != 0 or const_scalar(op.weight_zp) != 0:
                return
            mm_elem = acc
            if tname(op.input) == "fp32" and tname(acc) != "fp32":
                return
        else:
            return
        ops: list[Operation] = []
        rows = n * h * w
        ra = make_reshape(op.input, TensorType(_elem(op.input), [1, rows, ic]))
        rb = make_reshape(op.weight, TensorType(_elem(op.weight), [1, oc, ic]))
        tb = make_transpose(rb[-1].results[0], [0, 2, 1])
        mm = tn.MatMulOp.create(
            operands=[ra[-1].results[0], tb.results[0], op.input_zp, op.weight_zp],
            result_types=[TensorType(mm_elem, [1, rows, oc])])
        ops += [*ra, *rb, tb, mm]
        value = mm.results[0]
        if mm_elem != _elem(op.output):
            cast = tc.CastOp.create(operands=[value], result_types=[TensorType(_elem(op.output), [1, rows, oc])])
            ops.append(cast)
            value = cast.results[0]
        back = make_reshape(value, TensorType(_elem(op.output), [n, h, w, oc]))
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


def _i32_attr(v: int):
    from xdsl.dialects.builtin import IntegerAttr

    return IntegerAttr(v, i32)


PATTERNS: tuple[RewritePattern, ...] = (DepthwiseConv1x1(), Conv1x1ToMatMul(), TransposeConvStride1())


class TosaOptionalDecompositionsPass(ModulePass):
    name = "tosa-optional-decompositions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(list(PATTERNS), dce_enabled=False),
                             apply_recursively=False).rewrite_module(op)
