"""Pooling: tfl.max_pool_2d, tfl.average_pool_2d (float and quantized)."""

from __future__ import annotations

from xdsl.dialects.builtin import Float32Type, i32
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import tensor as tn
from tosa_xdsl.frontends.legalize_common import get_padding_values_from_pad_type
from tosa_xdsl.frontends.tflite.legalize.conv import _arr
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes


def _window(lg: Legalizer) -> dict:
    kernel = [lg.option("filter_height"), lg.option("filter_width")]
    stride = [lg.option("stride_h", 1), lg.option("stride_w", 1)]
    pad = get_padding_values_from_pad_type(lg.option("padding"), lg.shape(lg.operand(0))[1:3], kernel, stride, [1, 1])
    return {"kernel": _arr(kernel), "stride": _arr(stride), "pad": _arr(pad)}


def _activation(lg: Legalizer, y: SSAValue) -> SSAValue:
    act = lg.option("fused_activation_function", "NONE")
    q = lg.q(lg.out_type())
    if q is None:
        return lg.lower_fused_activation(y, act)
    return lg.lower_fused_activation(y, act, q.qmin, q.qmax, float(q.scales[0]), int(q.zero_points[0]))


@legalizes("tfl.max_pool_2d")
def max_pool_2d(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    qi, qo = lg.q(x), lg.q(lg.out_type())
    if qi is not None and (qi.scales[0], qi.zero_points[0]) != (qo.scales[0], qo.zero_points[0]):
        lg.fail("input and output quantization differ")
    y = lg.emit(tn.MaxPool2DOp.create(operands=[x], result_types=[lg.out_storage()], properties=_window(lg))).results[0]
    return _activation(lg, y)


@legalizes("tfl.average_pool_2d")
def average_pool_2d(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    qi, qo = lg.q(x), lg.q(lg.out_type())
    out = lg.out_storage()
    props = _window(lg)
    if qi is None:
        e = out.element_type
        props["acc_type"] = Float32Type()
        y = lg.emit(tn.AvgPool2DOp.create(operands=[x, lg.zp(0.0, e), lg.zp(0.0, e)], result_types=[out],
                                   properties=props)).results[0]
        return _activation(lg, y)
    props["acc_type"] = i32
    if (qi.scales[0], qi.zero_points[0]) != (qo.scales[0], qo.zero_points[0]):
        lg.fail("input and output quantization differ")
    # Same quantization in and out: TFLite averages the stored values (the zero point
    # cancels); TOSA's zero points would move the rounding, so they are 0 here.
    zi = zo = 0
    y = lg.emit(tn.AvgPool2DOp.create(operands=[x, lg.zp(zi, qi.storage_type), lg.zp(zo, qo.storage_type)],
                               result_types=[out], properties=props)).results[0]
    return _activation(lg, y)
