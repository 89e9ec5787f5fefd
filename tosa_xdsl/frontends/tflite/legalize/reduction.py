"""Reductions and softmax: tfl.mean, tfl.sum, tfl.reduce_max/min/prod/any, tfl.softmax,
tfl.log_softmax, tfl.arg_max.

The guide's lower_reduce_op: one TOSA reduction per axis (keeping the dim), then a
reshape when keep_dims is false. The guide leaves MEAN and SOFTMAX as TODO; here they are
lowered as TensorFlow's current legalization does for floats (sum * 1/N; exp / sum) and,
for int8, with integer arithmetic that follows TFLite's kernels:
- mean/sum: RESCALE to i32 removing the input zero point, REDUCE_SUM, one RESCALE by
  s_in / (s_out * N) (TFLite's QuantizedMeanOrSum);
- softmax: the row maximum is subtracted in i32, exp(s_in * beta * d) for the 256 possible
  differences d is a GATHER from a constant table in Q16 (exact integers), summed per row,
  and each output is round(e * 2^16 ... ) computed as INTDIV(e * K + sum / 2, sum) with
  K = 1 / s_out, then the output zero point: the only rounding is that final division.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import AnyFloat, IntegerAttr, TensorType, i8, i16, i32
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import elementwise_unary as eu
from tosa_xdsl.dialects.tosa.ops import reduction as rd
from tosa_xdsl.dialects.tosa.ops import scatter_gather as sg
from tosa_xdsl.dialects.tosa.ops import tensor as tn
from tosa_xdsl.frontends.legalize_common import positive_axis, softmax_exp_table_q16
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes


def _axes(lg: Legalizer, rank: int) -> list[int]:
    axes = lg.constant(lg.operand(1), "axes").reshape(-1)
    out = sorted({positive_axis(int(a), rank) for a in axes})
    if any(not 0 <= a < rank for a in out):
        lg.fail(f"axis out of range for rank {rank}")
    return out


def reduce_axes(lg: Legalizer, cls, x: SSAValue, axes: list[int]) -> SSAValue:
    shape = list(x.type.get_shape())  # type: ignore[attr-defined]
    for a in axes:
        shape[a] = 1
        x = lg.emit(cls.create(operands=[x], result_types=[TensorType(x.type.element_type, shape)],  # type: ignore[attr-defined]
                               properties={"axis": IntegerAttr(a, i32)})).results[0]
    return x


def _mul(lg: Legalizer, x: SSAValue, y: SSAValue) -> SSAValue:
    """MUL with shift 0 (the only shift floats allow)."""
    return lg.emit(eb.MulOp.create(operands=[x, y, lg.const(np.zeros(1, np.int8), i8)], result_types=[x.type])).results[0]


def _mul_const(lg: Legalizer, x: SSAValue, value: float) -> SSAValue:
    rank = len(x.type.get_shape())  # type: ignore[attr-defined]
    return _mul(lg, x, lg.const(np.array([value], np.float32).reshape([1] * rank), x.type.element_type))  # type: ignore[attr-defined]


def _share_of_row_sum(lg: Legalizer, e: SSAValue, k: int) -> SSAValue:
    """Each row element's share of its row sum in units of 1/k, rounded to nearest:
    INTDIV(e * k + sum / 2, sum), the softmax kernels' only rounding. `e` is [rows, depth] i32."""
    s = reduce_axes(lg, rd.ReduceSumOp, e, [1])
    half = lg.emit(eb.ArithmeticRightShiftOp.create(
        operands=[s, lg.const(np.array([[1]]), i32)], result_types=[s.type],
        properties={"round": _false()})).results[0]
    num = lg.binary(eb.AddOp, _mul(lg, e, lg.const(np.array([[k]]), i32)), half, e.type)
    return lg.emit(eb.IntDivOp.create(operands=[num, s], result_types=[e.type])).results[0]


_REDUCERS = {"tfl.sum": rd.ReduceSumOp, "tfl.mean": rd.ReduceSumOp, "tfl.reduce_max": rd.ReduceMaxOp,
             "tfl.reduce_min": rd.ReduceMinOp, "tfl.reduce_prod": rd.ReduceProductOp,
             "tfl.reduce_any": rd.ReduceAnyOp}


@legalizes(*_REDUCERS)
def reduce(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    in_shape = lg.shape(x)
    axes = _axes(lg, len(in_shape))
    out_shape = lg.shape(lg.op.results[0])
    n = int(np.prod([in_shape[a] for a in axes])) if axes else 1
    cls = _REDUCERS[lg.op.name]
    qi, qo = lg.q(x), lg.q(lg.out_type())
    if not axes:
        return lg.reshape(lg.clamp(x, *_full_range(lg, x)) if qi is not None else x, out_shape)
    if qi is None:
        y = reduce_axes(lg, cls, x, axes)
        if lg.op.name == "tfl.mean":
            y = _mul_const(lg, y, 1.0 / n)
        return lg.reshape(y, out_shape)
    if lg.op.name in ("tfl.reduce_max", "tfl.reduce_min"):
        if (qi.scales[0], qi.zero_points[0]) != (qo.scales[0], qo.zero_points[0]):
            lg.fail("input and output quantization differ")
        return lg.reshape(reduce_axes(lg, cls, x, axes), out_shape)
    if lg.op.name not in ("tfl.sum", "tfl.mean"):
        lg.fail("quantized form is not supported")
    si, zi, so, zo = float(qi.scales[0]), int(qi.zero_points[0]), float(qo.scales[0]), int(qo.zero_points[0])
    x32 = lg.rescale(x, i32, 1.0, zi, 0)
    y = reduce_axes(lg, rd.ReduceSumOp, x32, axes)
    factor = si / so / (n if lg.op.name == "tfl.mean" else 1)
    y = lg.rescale(y, qo.storage_type, factor, 0, zo)
    return lg.reshape(y, out_shape)


def _full_range(lg: Legalizer, x: SSAValue) -> tuple[int, int]:
    q = lg.q(x)
    return q.qmin, q.qmax


@legalizes("tfl.arg_max", "tfl.arg_min")
def arg_max(lg: Legalizer) -> SSAValue:
    """ARGMAX; arg_min is ARGMAX of -x for floats and of ~x (= -x - 1, order-reversing and
    in range) for integers."""
    x = lg.operand(0)
    if lg.op.name == "tfl.arg_min":
        e = x.type.element_type  # type: ignore[attr-defined]
        if isinstance(e, AnyFloat):
            x = lg.emit(eu.NegateOp.create(operands=[x, lg.zp(0.0, e), lg.zp(0.0, e)], result_types=[x.type])).results[0]
        else:
            x = lg.unary(eu.BitwiseNotOp, x)
    rank = len(lg.shape(x))
    axis = positive_axis(int(lg.constant(lg.operand(1), "axis").reshape(-1)[0]), rank)
    out = lg.out_storage()
    y = lg.emit(tn.ArgMaxOp.create(operands=[x], result_types=[TensorType(i32, out.get_shape())],
                                   properties={"axis": IntegerAttr(axis, i32)})).results[0]
    return y if out.element_type == i32 else lg.cast(y, out.element_type)


@legalizes("tfl.softmax", "tfl.log_softmax")
def softmax(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    shape = lg.shape(x)
    axis = len(shape) - 1
    beta = float(lg.option("beta", 1.0)) if lg.op.name == "tfl.softmax" else 1.0
    if lg.q(x) is None:
        m = reduce_axes(lg, rd.ReduceMaxOp, x, [axis])
        d = lg.binary(eb.SubOp, x, m, x.type)
        if beta != 1.0:
            d = _mul_const(lg, d, beta)
        e = lg.unary(eu.ExpOp, d)
        s = reduce_axes(lg, rd.ReduceSumOp, e, [axis])
        if lg.op.name == "tfl.log_softmax":
            return lg.binary(eb.SubOp, d, lg.unary(eu.LogOp, s), x.type)
        return _mul(lg, e, lg.unary(eu.ReciprocalOp, s))
    if lg.op.name == "tfl.log_softmax":
        lg.fail("quantized log_softmax is not supported")
    if lg.q(x).width.data == 16:
        return _softmax_int16(lg, x, shape, beta)
    return _softmax_int8(lg, x, shape, beta)


def _softmax_int16(lg: Legalizer, x: SSAValue, shape: list[int], beta: float) -> SSAValue:
    """As TFLite's int16 kernel: the differences to the row maximum are mapped onto
    [-10, 0] in int16, exp is TOSA's interpolated i16 TABLE (Q15), the row sum is exact in
    i32 and each output one rounded INTDIV by it (outputs in units of 1/32768)."""
    from tosa_xdsl.frontends.legalize_common import table_contents_16

    qi, qo = lg.q(x), lg.q(lg.out_type())
    si, so, zo = float(qi.scales[0]), float(qo.scales[0]), int(qo.zero_points[0])
    k = int(round(1.0 / so))
    if zo != 0 or abs(k - 1.0 / so) > 1e-6 * k or k > 1 << 15:
        lg.fail(f"int16 softmax output must be 1/K-scaled with zero point 0, got {so}:{zo}")
    rows = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
    depth = shape[-1]
    if depth > 65535:
        lg.fail("softmax depth above 65535 would overflow the i32 sum")
    x32 = lg.reshape(lg.cast(x, i32), [rows, depth])
    m = reduce_axes(lg, rd.ReduceMaxOp, x32, [1])
    d = lg.binary(eb.SubOp, x32, m, x32.type)  # x - max, <= 0
    # d * s * beta in [-10, 0] -> int16 [-32768, 32767]: q = 32767 + d * s * beta * 65535 / 10
    step = 10.0 / 65535.0
    scaled = lg.rescale(d, i32, si * beta / step, 0, 0)
    shifted = lg.binary(eb.AddOp, scaled, lg.const(np.array([[32767]]), i32), scaled.type)
    q16 = lg.rescale(shifted, i16, 1.0, 0, 0)  # saturates below -10
    table = lg.const(table_contents_16(np.exp, step, 32767, 1.0 / 32768.0, 0), i16)
    e = lg.emit(eb.TableOp.create(operands=[q16, table], result_types=[TensorType(i32, [rows, depth])])).results[0]
    e = lg.rescale(e, i32, 1.0 / 128.0, 0, 0)  # Q15 exp, >= 0
    q = _share_of_row_sum(lg, e, k)
    return lg.reshape(lg.rescale(q, qo.storage_type, 1.0, 0, 0), shape)


def _softmax_int8(lg: Legalizer, x: SSAValue, shape: list[int], beta: float) -> SSAValue:
    qi, qo = lg.q(x), lg.q(lg.out_type())
    if qi.width.data != 8 or qo.width.data != 8:
        lg.fail("quantized softmax is implemented for int8 only")
    si, so, zo = float(qi.scales[0]), float(qo.scales[0]), int(qo.zero_points[0])
    rows = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
    depth = shape[-1]
    if depth > 32768:
        lg.fail("softmax depth above 32768 would overflow the i32 sum")
    x32 = lg.reshape(lg.cast(x, i32), [rows, depth])
    m = reduce_axes(lg, rd.ReduceMaxOp, x32, [1])
    neg_d = lg.binary(eb.SubOp, m, x32, x32.type)  # max - x in [0, 255]
    # exp(-s * beta * d) in Q16 for d = 0..255: a GATHER from one constant row
    values = lg.const(softmax_exp_table_q16(si * beta).reshape(1, 256, 1), i32)
    idx = lg.reshape(neg_d, [1, rows * depth])
    e = lg.emit(sg.GatherOp.create(operands=[values, idx], result_types=[TensorType(i32, [1, rows * depth, 1])])).results[0]
    e = lg.reshape(e, [rows, depth])
    k = int(round(1.0 / so))
    if abs(k - 1.0 / so) > 1e-6 * k or k > 1 << 14:
        lg.fail(f"output scale {so} is not 1/K for a small integer K")
    q = _share_of_row_sum(lg, e, k)
    # + zero point, saturated to int8 (RESCALE by exactly 1 saturates; CLAMP takes no i32)
    return lg.reshape(lg.rescale(q, qo.storage_type, 1.0, 0, zo), shape)


def _false():
    from xdsl.dialects.builtin import BoolAttr

    return BoolAttr.from_bool(False)
