"""Convolutions and fully connected: tfl.conv_2d, tfl.depthwise_conv_2d,
tfl.transpose_conv, tfl.fully_connected.

Float: one TOSA convolution with a f32 accumulator. Quantized (int8 with per-tensor or
per-channel weights, int16 activations x int8 weights): the convolution accumulates in
i32 (i48 for int16), then one RESCALE by input_scale * weight_scale[c] / output_scale
(per channel when the weights are), then the fused activation as a clamp in the output's
quantized domain (the guide's "If input/output tensors are all quantized typed").
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    IntegerType,
    TensorType,
    f32,
    i32,
    i64,
)
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import tensor as tn
from tosa_xdsl.frontends.legalize_common import (
    get_padding_values_from_pad_type,
)
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes

I48 = IntegerType(48)


def _arr(values) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def _bias(lg: Legalizer, index: int, channels: int, acc_elem) -> SSAValue:
    """The bias operand, or zeros when it is omitted; int16 models' i64 biases become i48."""
    if lg.has_operand(index):
        b = lg.operand(index)
        return b  # i48 for int16x8 (see constants.py), i32 for int8, float otherwise
    if isinstance(acc_elem, IntegerType):
        return lg.const(np.zeros(channels, np.int64), acc_elem)
    return lg.const(np.zeros(channels, np.float32), acc_elem)


def _conv_common(lg: Legalizer, cls, x: SSAValue, w: SSAValue, bias_index: int, out_shape: list[int],
                 props: dict, channels: int, activation: str) -> SSAValue:
    """conv -> [rescale] -> fused activation, for float or quantized operands."""
    xq, wq, oq = lg.q(x), lg.q(w), lg.q(lg.out_type())
    if xq is None and wq is None and oq is None:
        elem = x.type.element_type  # type: ignore[attr-defined]
        bias = _bias(lg, bias_index, channels, elem)
        zp = lg.zp(0.0, elem)
        wzp = lg.zp(0.0, w.type.element_type)  # type: ignore[attr-defined]
        conv = lg.emit(cls.create(operands=[x, w, bias, zp, wzp], result_types=[TensorType(elem, out_shape)],
                           properties={**props, "acc_type": f32 if isinstance(elem, Float32Type) else elem}))
        return lg.lower_fused_activation(conv.results[0], activation)
    if xq is None or wq is None or oq is None:
        lg.fail("mixes float and quantized operands (hybrid quantization is not supported)")
    if np.any(wq.zero_points != 0) and len(wq.scales) > 1:
        lg.fail("per-channel weights with non-zero zero points are not supported")
    in_bits = xq.width.data
    acc = I48 if in_bits == 16 else i32
    bias = _bias(lg, bias_index, channels, acc)
    conv = lg.emit(cls(
        operands=[x, w, bias, lg.zp(int(xq.zero_points[0]), xq.storage_type),
                  lg.zp(int(wq.zero_points[0]), wq.storage_type)],
        result_types=[TensorType(acc, out_shape)], properties={**props, "acc_type": acc}))
    scales = float(xq.scales[0]) * wq.scales / float(oq.scales[0])
    if len(scales) == 1:
        scales = float(scales[0])
    out = lg.rescale(conv.results[0], oq.storage_type, scales, 0, int(oq.zero_points[0]),
                     scale32=acc is not I48, double_round=True)
    return lg.lower_fused_activation(out, activation, oq.qmin, oq.qmax, float(oq.scales[0]), int(oq.zero_points[0]))


def _spatial(lg: Legalizer, x: SSAValue, kh: int, kw: int) -> tuple[list[int], list[int], list[int]]:
    stride = [lg.option("stride_h", 1), lg.option("stride_w", 1)]
    dilation = [lg.option("dilation_h_factor", 1), lg.option("dilation_w_factor", 1)]
    s = lg.shape(x)
    pad = get_padding_values_from_pad_type(lg.option("padding"), s[1:3], [kh, kw], stride, dilation)
    return pad, stride, dilation


@legalizes("tfl.conv_2d")
def conv_2d(lg: Legalizer) -> SSAValue:
    x, w = lg.operand(0), lg.operand(1)
    oc, kh, kw, _ = lg.shape(w)
    pad, stride, dilation = _spatial(lg, x, kh, kw)
    props = {"pad": _arr(pad), "stride": _arr(stride), "dilation": _arr(dilation)}
    return _conv_common(lg, tn.Conv2DOp, x, w, 2, lg.shape(lg.op.results[0]), props, oc,
                        lg.option("fused_activation_function", "NONE"))


@legalizes("tfl.depthwise_conv_2d")
def depthwise_conv_2d(lg: Legalizer) -> SSAValue:
    x, w = lg.operand(0), lg.operand(1)
    _, kh, kw, cm = lg.shape(w)
    c = lg.shape(x)[3]
    if c == 0 or cm % c:
        lg.fail(f"filter channels {cm} are not a multiple of the input channels {c}")
    # TFLite [1, KH, KW, C*M] -> TOSA [KH, KW, C, M]
    w4 = lg.reshape(w, [kh, kw, c, cm // c])
    pad, stride, dilation = _spatial(lg, x, kh, kw)
    props = {"pad": _arr(pad), "stride": _arr(stride), "dilation": _arr(dilation)}
    lg.keep_quant(w4, w)
    return _conv_common(lg, tn.DepthwiseConv2DOp, x, w4, 2, lg.shape(lg.op.results[0]), props, cm,
                        lg.option("fused_activation_function", "NONE"))


@legalizes("tfl.transpose_conv")
def transpose_conv(lg: Legalizer) -> SSAValue:
    # operands: output_shape, weights [OC, KH, KW, IC], input, [bias]
    w, x = lg.operand(1), lg.operand(2)
    oc, kh, kw, _ = lg.shape(w)
    out_shape = lg.shape(lg.op.results[0])
    stride = [lg.option("stride_h", 1), lg.option("stride_w", 1)]
    in_hw = lg.shape(x)[1:3]
    out_pad = []
    for i, k in enumerate((kh, kw)):
        total = max(0, (in_hw[i] - 1) * stride[i] + k - out_shape[1 + i])
        if lg.option("padding") == "VALID":
            total = (in_hw[i] - 1) * stride[i] + k - out_shape[1 + i]
        before = total // 2
        out_pad += [-before, -(total - before)]
    props = {"out_pad": _arr(out_pad), "stride": _arr(stride)}
    return _conv_common(lg, tn.TransposeConv2DOp, x, w, 3, out_shape, props, oc,
                        lg.option("fused_activation_function", "NONE"))


@legalizes("tfl.fully_connected")
def fully_connected(lg: Legalizer) -> SSAValue:
    """[..., K] x [O, K] -> a 1x1 CONV2D on [N, 1, 1, K] (TOSA 1.0 has no FULLY_CONNECTED)."""
    x, w = lg.operand(0), lg.operand(1)
    if lg.option("weights_format", "DEFAULT") != "DEFAULT":
        lg.fail("shuffled weights are not supported")
    o, k = lg.shape(w)
    xs = lg.shape(x)
    n = int(np.prod(xs)) // k if k else 0
    if n * k != int(np.prod(xs)):
        lg.fail(f"input shape {xs} is not a multiple of the weights' depth {k}")
    qw = lg.q(w)
    if qw is not None and qw.width.data == 16:
        return _fully_connected_matmul(lg, x, w, n, k, o)
    x4 = lg.reshape(x, [n, 1, 1, k])
    w4 = lg.reshape(w, [o, 1, 1, k])
    lg.keep_quant(x4, x)
    lg.keep_quant(w4, w)
    props = {"pad": _arr([0, 0, 0, 0]), "stride": _arr([1, 1]), "dilation": _arr([1, 1])}
    y = _conv_common(lg, tn.Conv2DOp, x4, w4, 2, [n, 1, 1, o], props, o,
                     lg.option("fused_activation_function", "NONE"))
    return lg.reshape(y, lg.shape(lg.op.results[0]))


def _fully_connected_matmul(lg: Legalizer, x: SSAValue, w: SSAValue, n: int, k: int, o: int) -> SSAValue:
    """int16 x int16 (both activations, e.g. attention scores): MATMUL, which takes i16
    weights (CONV2D does not), accumulating in i48."""
    if lg.has_operand(2):
        lg.fail("int16 x int16 fully_connected with a bias is not supported")
    qx, qw, qo = lg.q(x), lg.q(w), lg.q(lg.out_type())
    a = lg.reshape(x, [1, n, k])
    b = lg.reshape(lg.transpose(lg.reshape(w, [o, k]), [1, 0]), [1, k, o])
    mm = lg.emit(tn.MatMulOp.create(
        operands=[a, b, lg.zp(int(qx.zero_points[0]), qx.storage_type), lg.zp(int(qw.zero_points[0]), qw.storage_type)],
        result_types=[TensorType(I48, [1, n, o])])).results[0]
    y = lg.rescale(mm, qo.storage_type, float(qx.scales[0] * qw.scales[0] / qo.scales[0]), 0,
                   int(qo.zero_points[0]), scale32=False)
    y = lg.lower_fused_activation(y, lg.option("fused_activation_function", "NONE"), qo.qmin, qo.qmax,
                                  float(qo.scales[0]), int(qo.zero_points[0]))
    return lg.reshape(y, lg.shape(lg.op.results[0]))
