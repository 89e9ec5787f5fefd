"""Elementwise operators: add/sub/mul, the relus, (de)quantize, logistic/tanh, min/max and
float unary math.

Quantized add/sub rescale both sides to i32 with 20 bits of headroom (the guide's
input_shift = 20), add, and rescale to the output; quantized mul multiplies the
zero-point-corrected i32 values and rescales by s_a * s_b / s_out. Quantized logistic and
tanh are a TABLE of 256 entries computed from the scales (the guide's
get_table_const_tensor).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType, i8, i16, i32
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import activation as act
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import elementwise_unary as eu
from tosa_xdsl.frontends.legalize_common import table_contents, table_contents_16
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes


def _float_binary(lg: Legalizer, cls) -> SSAValue:
    a, b = lg.operand(0), lg.operand(1)
    out = lg.out_storage()
    if cls is eb.MulOp:
        a2, b2 = lg.apply_rank_broadcast(a, b), lg.apply_rank_broadcast(b, a)
        shift = lg.const(np.zeros(1, np.int8), i8)
        y = lg.emit(eb.MulOp.create(operands=[a2, b2, shift], result_types=[out])).results[0]
    else:
        y = lg.binary(cls, a, b, out)
    return lg.lower_fused_activation(y, lg.option("fused_activation_function", "NONE"))


def _quant_params(lg: Legalizer, v):
    q = lg.q(v)
    if q is None:
        lg.fail("mixes float and quantized operands")
    if len(q.scales) != 1:
        lg.fail("per-axis quantized activations are not supported")
    return float(q.scales[0]), int(q.zero_points[0]), q


def _out_activation(lg: Legalizer, y: SSAValue) -> SSAValue:
    s, z, q = _quant_params(lg, lg.out_type())
    return lg.lower_fused_activation(y, lg.option("fused_activation_function", "NONE"), q.qmin, q.qmax, s, z)


@legalizes("tfl.add", "tfl.sub")
def add_sub(lg: Legalizer) -> SSAValue:
    cls = eb.AddOp if lg.op.name == "tfl.add" else eb.SubOp
    if lg.q(lg.out_type()) is None:
        return _float_binary(lg, cls)
    a, b = lg.operand(0), lg.operand(1)
    sa, za, qa = _quant_params(lg, a)
    sb, zb, _ = _quant_params(lg, b)
    so, zo, qo = _quant_params(lg, lg.out_type())
    shift = 20 if qa.width.data == 8 else 15  # TFLite: left_shift 20 (int8), 15 (int16)
    max2 = 2.0 * max(sa, sb)
    ra = lg.rescale(a, i32, (1 << shift) * sa / max2, za, 0)
    rb = lg.rescale(b, i32, (1 << shift) * sb / max2, zb, 0)
    shape = lg.shape(lg.op.results[0])
    y = lg.binary(cls, ra, rb, TensorType(i32, shape))
    out = lg.rescale(y, qo.storage_type, max2 / (so * (1 << shift)), 0, zo)
    return _out_activation(lg, out)


@legalizes("tfl.mul")
def mul(lg: Legalizer) -> SSAValue:
    if lg.q(lg.out_type()) is None:
        return _float_binary(lg, eb.MulOp)
    a, b = lg.operand(0), lg.operand(1)
    sa, za, _ = _quant_params(lg, a)
    sb, zb, _ = _quant_params(lg, b)
    so, zo, qo = _quant_params(lg, lg.out_type())
    ra = lg.rescale(a, i32, 1.0, za, 0)
    rb = lg.rescale(b, i32, 1.0, zb, 0)
    ra, rb = lg.apply_rank_broadcast(ra, rb), lg.apply_rank_broadcast(rb, ra)
    shape = lg.shape(lg.op.results[0])
    y = lg.emit(eb.MulOp.create(operands=[ra, rb, lg.const(np.zeros(1, np.int8), i8)],
                         result_types=[TensorType(i32, shape)])).results[0]
    out = lg.rescale(y, qo.storage_type, sa * sb / so, 0, zo)
    return _out_activation(lg, out)


@legalizes("tfl.maximum", "tfl.minimum")
def max_min(lg: Legalizer) -> SSAValue:
    cls = eb.MaximumOp if lg.op.name == "tfl.maximum" else eb.MinimumOp
    a, b = lg.operand(0), lg.operand(1)
    if lg.q(lg.out_type()) is not None and (lg.q(a) != lg.q(lg.out_type()) or lg.q(b) != lg.q(lg.out_type())):
        lg.fail("quantized operands with different scales are not supported")
    out = lg.out_storage()
    if lg.q(lg.out_type()) is None:
        return lg.binary(cls, a, b, out)
    # TOSA's MAXIMUM/MINIMUM take i32: the same scale on both sides, so compare in i32
    y = lg.binary(cls, lg.cast(a, i32), lg.cast(b, i32), TensorType(i32, out.get_shape()))
    return lg.cast(y, out.element_type)


_RELU_BOUNDS = {"tfl.relu": "RELU", "tfl.relu6": "RELU6", "tfl.relu_n1_to_1": "RELU_N1_TO_1",
                "tfl.relu_0_to_1": "RELU_0_TO_1"}


@legalizes(*_RELU_BOUNDS)
def relu(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    kind = _RELU_BOUNDS[lg.op.name]
    if lg.q(lg.out_type()) is None:
        return lg.lower_fused_activation(x, kind)
    si, zi, _ = _quant_params(lg, x)
    so, zo, qo = _quant_params(lg, lg.out_type())
    if (si, zi) != (so, zo):
        x = lg.rescale(x, qo.storage_type, si / so, zi, zo)
    y = lg.lower_fused_activation(x, kind, qo.qmin, qo.qmax, so, zo)
    if y is x and x is lg.operand(0):  # nothing to clamp: still a new value for the result
        y = lg.clamp(x, qo.qmin, qo.qmax)
    return y


@legalizes("tfl.dequantize")
def dequantize(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    out = lg.out_storage()
    q = lg.q(x)
    if q is None:  # float16 weights: a cast (folded when constant)
        owner = x.owner
        if getattr(owner, "name", "") == "tosa.const":
            return lg.const(lg.constant(x, "input").astype(np.float32), out.element_type)
        return lg.cast(x, out.element_type)
    if len(q.scales) > 1:  # per-axis (weights): only constants
        arr = lg.constant(x, "per-axis quantized input").astype(np.float64)
        shape = [1] * arr.ndim
        shape[q.axis.data] = -1
        val = (arr - q.zero_points.reshape(shape)) * q.scales.reshape(shape)
        return lg.const(val.astype(np.float32), out.element_type)
    # (x - zp) * scale, as the guide's lower_dequantized_op
    xi = lg.cast(x, i32)
    xi = lg.binary(eb.SubOp, xi, lg.const(np.array([int(q.zero_points[0])] * 1).reshape([1] * len(lg.shape(x))), i32), xi.type)
    xf = lg.cast(xi, out.element_type)
    scale = lg.const(np.array([q.scales[0]], np.float32).reshape([1] * len(lg.shape(x))), out.element_type)
    return lg.emit(eb.MulOp.create(operands=[xf, scale, lg.const(np.zeros(1, np.int8), i8)], result_types=[out])).results[0]


@legalizes("tfl.quantize")
def quantize(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    qo = lg.q(lg.out_type())
    if qo is None:
        lg.fail("expects a quantized result type")
    so, zo = float(qo.scales[0]), int(qo.zero_points[0])
    qi = lg.q(x)
    if qi is not None:  # requantize
        si, zi = float(qi.scales[0]), int(qi.zero_points[0])
        return lg.rescale(x, qo.storage_type, si / so, zi, zo,
                          input_unsigned=not qi.is_signed, output_unsigned=not qo.is_signed)
    # float -> round(x / scale) + zp, saturated (the guide's lower_quantized_op)
    rank = len(lg.shape(x))
    ft = x.type
    inv = lg.const(np.array([1.0 / so], np.float32).reshape([1] * rank), ft.element_type)  # type: ignore[attr-defined]
    y = lg.emit(eb.MulOp.create(operands=[x, inv, lg.const(np.zeros(1, np.int8), i8)], result_types=[ft])).results[0]
    y = lg.binary(eb.AddOp, y, lg.const(np.array([float(zo)], np.float32).reshape([1] * rank), ft.element_type), ft)  # type: ignore[attr-defined]
    y = lg.clamp(y, qo.qmin, qo.qmax)  # saturate in float (CLAMP takes no i32)
    return lg.cast(y, qo.storage_type)  # CAST float -> int rounds to nearest, ties to even


def _table(lg: Legalizer, fn) -> SSAValue:
    x = lg.operand(0)
    si, zi, qi = _quant_params(lg, x)
    so, zo, qo = _quant_params(lg, lg.out_type())
    if qi.width.data == 16 and qo.width.data == 16:
        # i16 TABLE: 513 entries, interpolated result in i32 scaled by 2^7, then RESCALE
        with np.errstate(all="ignore"):
            table = lg.const(table_contents_16(fn, si, zi, so, zo), i16)
        out = lg.out_storage()
        y = lg.emit(eb.TableOp.create(operands=[x, table], result_types=[TensorType(i32, out.get_shape())])).results[0]
        return lg.rescale(y, out.element_type, 1.0 / 128.0, 0, 0)
    if qi.width.data != 8 or qo.width.data != 8:
        lg.fail("TABLE lowering is implemented for int8 and int16 only")
    with np.errstate(all="ignore"):  # log(0) etc. saturate in the table
        table = lg.const(table_contents(fn, si, zi, so, zo), i8)
    return lg.emit(eb.TableOp.create(operands=[x, table], result_types=[lg.out_storage()])).results[0]


_UNARY_FLOAT = {
    "tfl.logistic": (act.SigmoidOp, lambda x: 1.0 / (1.0 + np.exp(-x))),
    "tfl.tanh": (act.TanhOp, np.tanh),
    "tfl.exp": (eu.ExpOp, np.exp),
    "tfl.log": (eu.LogOp, np.log),
    "tfl.abs": (eu.AbsOp, np.abs),
    "tfl.neg": (eu.NegateOp, None),
    "tfl.floor": (eu.FloorOp, None),
    "tfl.ceil": (eu.CeilOp, None),
    "tfl.rsqrt": (eu.RsqrtOp, lambda x: 1.0 / np.sqrt(x)),
}


@legalizes(*_UNARY_FLOAT)
def unary(lg: Legalizer) -> SSAValue:
    cls, ref = _UNARY_FLOAT[lg.op.name]
    if lg.op.name == "tfl.abs" and lg.q(lg.out_type()) is not None:
        # exact, as TFLite: |x - zp_in| in i32, one RESCALE by s_in / s_out
        x = lg.operand(0)
        si, zi, _ = _quant_params(lg, x)
        so, zo, qo = _quant_params(lg, lg.out_type())
        a = lg.unary(eu.AbsOp, lg.rescale(x, i32, 1.0, zi, 0))
        return lg.rescale(a, qo.storage_type, si / so, 0, zo)
    if lg.q(lg.out_type()) is not None:
        if ref is None:
            lg.fail("quantized form is not supported")
        return _table(lg, ref)
    x = lg.operand(0)
    if cls is eu.NegateOp:
        e = x.type.element_type  # type: ignore[attr-defined]
        return lg.emit(eu.NegateOp.create(operands=[x, lg.zp(0.0, e), lg.zp(0.0, e)], result_types=[x.type])).results[0]
    return lg.unary(cls, x, lg.out_storage())
