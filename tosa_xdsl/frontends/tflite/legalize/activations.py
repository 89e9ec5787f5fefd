"""More elementwise operators: gelu, hard_swish, leaky_relu, prelu, elu, squared_difference,
div, sqrt, square, pow, comparisons, logical ops, select, cast, zeros_like.

Floats are composed from TOSA ops as TensorFlow's legalization does; int8 versions of the
activation functions are a TABLE computed from the scales (get_table_const_tensor), which
may differ from TFLite's arithmetic kernels by one LSB (counted in the tests).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import AnyFloat, IntegerType, TensorType, i1, i8, i32
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import activation as act
from tosa_xdsl.dialects.tosa.ops import comparison as cmp
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import elementwise_ternary as et
from tosa_xdsl.dialects.tosa.ops import elementwise_unary as eu
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes
from tosa_xdsl.frontends.tflite.legalize.elementwise import _table


def _scalar(lg: Legalizer, like: SSAValue, value: float) -> SSAValue:
    rank = len(like.type.get_shape())  # type: ignore[attr-defined]
    e = like.type.element_type  # type: ignore[attr-defined]
    return lg.const(np.array([value]).reshape([1] * rank), e)


def _mul(lg: Legalizer, a: SSAValue, b: SSAValue, t=None) -> SSAValue:
    a2, b2 = lg.apply_rank_broadcast(a, b), lg.apply_rank_broadcast(b, a)
    return lg.emit(eb.MulOp.create(operands=[a2, b2, lg.const(np.zeros(1, np.int8), i8)],
                                   result_types=[t or a.type])).results[0]


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf)(x)


_ACTIVATIONS = {
    "tfl.gelu": lambda approx: ((lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))))
                                if approx else (lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))))),
    "tfl.hard_swish": lambda _: (lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "tfl.elu": lambda _: (lambda x: np.where(x > 0, x, np.expm1(x))),
}


@legalizes("tfl.gelu")
def gelu(lg: Legalizer) -> SSAValue:
    approx = bool(lg.option("approximate", False))
    if lg.q(lg.out_type()) is not None:
        return _table(lg, _ACTIVATIONS["tfl.gelu"](approx))
    x = lg.operand(0)
    if approx:
        x3 = _mul(lg, _mul(lg, x, x), x)
        inner = lg.binary(eb.AddOp, x, _mul(lg, x3, _scalar(lg, x, 0.044715)), x.type)
        t = lg.unary(act.TanhOp, _mul(lg, inner, _scalar(lg, x, math.sqrt(2 / math.pi))))
    else:
        t = lg.unary(act.ErfOp, _mul(lg, x, _scalar(lg, x, 1 / math.sqrt(2))))
    one_plus = lg.binary(eb.AddOp, t, _scalar(lg, x, 1.0), x.type)
    return _mul(lg, _mul(lg, x, one_plus), _scalar(lg, x, 0.5))


@legalizes("tfl.hard_swish")
def hard_swish(lg: Legalizer) -> SSAValue:
    if lg.q(lg.out_type()) is not None:
        return _table(lg, _ACTIVATIONS["tfl.hard_swish"](None))
    x = lg.operand(0)
    r = lg.clamp(lg.binary(eb.AddOp, x, _scalar(lg, x, 3.0), x.type), 0.0, 6.0)
    return _mul(lg, _mul(lg, x, r), _scalar(lg, x, 1.0 / 6.0))


@legalizes("tfl.elu")
def elu(lg: Legalizer) -> SSAValue:
    if lg.q(lg.out_type()) is not None:
        return _table(lg, _ACTIVATIONS["tfl.elu"](None))
    x = lg.operand(0)
    em1 = lg.binary(eb.SubOp, lg.unary(eu.ExpOp, x), _scalar(lg, x, 1.0), x.type)
    gt = lg.binary(cmp.GreaterOp, x, _scalar(lg, x, 0.0), TensorType(i1, x.type.get_shape()))  # type: ignore[attr-defined]
    return lg.emit(et.SelectOp.create(operands=[gt, x, em1], result_types=[x.type])).results[0]


@legalizes("tfl.leaky_relu")
def leaky_relu(lg: Legalizer) -> SSAValue:
    alpha = float(lg.option("alpha", 0.2))
    qo = lg.q(lg.out_type())
    if qo is not None:
        # TFLite: x - zp >= 0 ? rescale(x - zp, s_in/s_out) : rescale(x - zp, alpha * s_in/s_out), + zp_out
        x = lg.operand(0)
        qi = lg.q(x)
        si, zi, so, zo = float(qi.scales[0]), int(qi.zero_points[0]), float(qo.scales[0]), int(qo.zero_points[0])
        out = lg.out_storage()
        t32 = TensorType(i32, out.get_shape())
        pos = lg.rescale(x, i32, si / so, zi, 0)
        neg = lg.rescale(x, i32, alpha * si / so, zi, 0)
        ge = lg.binary(cmp.GreaterEqualOp, lg.rescale(x, i32, 1.0, zi, 0),
                       lg.const(np.zeros([1] * len(out.get_shape()), np.int64), i32), TensorType(i1, out.get_shape()))
        y = lg.emit(et.SelectOp.create(operands=[ge, pos, neg], result_types=[t32])).results[0]
        return lg.rescale(y, qo.storage_type, 1.0, 0, zo)
    x = lg.operand(0)
    ax = _mul(lg, x, _scalar(lg, x, alpha))
    ge = lg.binary(cmp.GreaterEqualOp, x, _scalar(lg, x, 0.0), TensorType(i1, x.type.get_shape()))  # type: ignore[attr-defined]
    return lg.emit(et.SelectOp.create(operands=[ge, x, ax], result_types=[x.type])).results[0]


@legalizes("tfl.prelu")
def prelu(lg: Legalizer) -> SSAValue:
    x, alpha = lg.operand(0), lg.operand(1)
    qx, qa, qo = lg.q(x), lg.q(alpha), lg.q(lg.out_type())
    if qo is not None:
        # TFLite: x - zp >= 0 ? rescale(x - zp, s_x / s_out) : rescale((x - zp) * (a - zp_a), s_x * s_a / s_out)
        if qx is None or qa is None or len(qa.scales) != 1:
            lg.fail("hybrid or per-axis quantized prelu is not supported")
        sx, zx, sa, za = float(qx.scales[0]), int(qx.zero_points[0]), float(qa.scales[0]), int(qa.zero_points[0])
        so, zo = float(qo.scales[0]), int(qo.zero_points[0])
        out = lg.out_storage()
        t32 = TensorType(i32, out.get_shape())
        x32 = lg.rescale(x, i32, 1.0, zx, 0)
        a32 = lg.rescale(alpha, i32, 1.0, za, 0)
        pos = lg.rescale(x32, qo.storage_type, sx / so, 0, zo)
        neg = lg.rescale(_mul(lg, x32, a32, t32), qo.storage_type, sx * sa / so, 0, zo)
        ge = lg.binary(cmp.GreaterEqualOp, x32, lg.const(np.zeros([1] * len(out.get_shape()), np.int64), i32),
                       TensorType(i1, out.get_shape()))
        return lg.emit(et.SelectOp.create(operands=[ge, pos, neg], result_types=[out])).results[0]
    ax = _mul(lg, x, alpha, x.type)
    ge = lg.binary(cmp.GreaterEqualOp, x, _scalar(lg, x, 0.0), TensorType(i1, x.type.get_shape()))  # type: ignore[attr-defined]
    return lg.emit(et.SelectOp.create(operands=[ge, x, ax], result_types=[x.type])).results[0]


def _float_only(lg: Legalizer) -> None:
    if lg.q(lg.out_type()) is not None or any(lg.q(v) is not None for v in lg.operands):
        lg.fail("quantized form is not supported")


@legalizes("tfl.squared_difference")
def squared_difference(lg: Legalizer) -> SSAValue:
    out = lg.out_storage()
    qa, qb, qo = lg.q(lg.operand(0)), lg.q(lg.operand(1)), lg.q(lg.out_type())
    if qo is not None:
        # TFLite: both sides to a common scale with 7 bits of headroom, difference and
        # square in i32, one rescale to the output
        if qa is None or qb is None:
            lg.fail("mixes float and quantized operands")
        sa, sb, so = float(qa.scales[0]), float(qb.scales[0]), float(qo.scales[0])
        m2 = 2.0 * max(sa, sb)
        shift = 7
        ra = lg.rescale(lg.operand(0), i32, (1 << shift) * sa / m2, int(qa.zero_points[0]), 0)
        rb = lg.rescale(lg.operand(1), i32, (1 << shift) * sb / m2, int(qb.zero_points[0]), 0)
        t32 = TensorType(i32, out.get_shape())
        d = lg.binary(eb.SubOp, ra, rb, t32)
        d2 = _mul(lg, d, d, t32)
        return lg.rescale(d2, qo.storage_type, (m2 / (1 << shift)) ** 2 / so, 0, int(qo.zero_points[0]))
    d = lg.binary(eb.SubOp, lg.operand(0), lg.operand(1), out)
    return _mul(lg, d, d, out)


@legalizes("tfl.div")
def div(lg: Legalizer) -> SSAValue:
    _float_only(lg)
    out = lg.out_storage()
    a, b = lg.operand(0), lg.operand(1)
    if isinstance(out.element_type, IntegerType):
        y = lg.binary(eb.IntDivOp, a, b, out)
    else:  # TOSA has no float divide: a * (1 / b)
        y = _mul(lg, a, lg.unary(eu.ReciprocalOp, b), out)
    return lg.lower_fused_activation(y, lg.option("fused_activation_function", "NONE"))


@legalizes("tfl.sqrt")
def sqrt(lg: Legalizer) -> SSAValue:
    if lg.q(lg.out_type()) is not None:
        return _table(lg, np.sqrt)
    return lg.unary(eu.ReciprocalOp, lg.unary(eu.RsqrtOp, lg.operand(0)))


@legalizes("tfl.square")
def square(lg: Legalizer) -> SSAValue:
    _float_only(lg)
    x = lg.operand(0)
    return _mul(lg, x, x)


@legalizes("tfl.pow")
def pow_(lg: Legalizer) -> SSAValue:
    _float_only(lg)
    return lg.binary(eb.PowOp, lg.operand(0), lg.operand(1), lg.out_storage())


_COMPARE = {"tfl.equal": (cmp.EqualOp, False, False), "tfl.greater": (cmp.GreaterOp, False, False),
            "tfl.greater_equal": (cmp.GreaterEqualOp, False, False), "tfl.less": (cmp.GreaterOp, True, False),
            "tfl.less_equal": (cmp.GreaterEqualOp, True, False), "tfl.not_equal": (cmp.EqualOp, False, True)}


@legalizes(*_COMPARE)
def compare(lg: Legalizer) -> SSAValue:
    cls, swap, negate = _COMPARE[lg.op.name]
    a, b = lg.operand(0), lg.operand(1)
    qa, qb = lg.q(a), lg.q(b)
    if qa is not None or qb is not None:
        if qa is None or qb is None:
            lg.fail("mixes float and quantized operands")
        if (qa.scales[0], qa.zero_points[0]) == (qb.scales[0], qb.zero_points[0]):
            a, b = lg.cast(a, i32), lg.cast(b, i32)
        else:  # TFLite: both to a common scale, 8 bits of headroom, compare in i32
            sa, sb = float(qa.scales[0]), float(qb.scales[0])
            m2 = 2.0 * max(sa, sb)
            a = lg.rescale(a, i32, (1 << 8) * sa / m2, int(qa.zero_points[0]), 0)
            b = lg.rescale(b, i32, (1 << 8) * sb / m2, int(qb.zero_points[0]), 0)
    if swap:
        a, b = b, a
    out = lg.out_storage()
    y = lg.binary(cls, a, b, out)
    return lg.unary(eu.LogicalNotOp, y) if negate else y


_LOGICAL = {"tfl.logical_and": eb.LogicalAndOp, "tfl.logical_or": eb.LogicalOrOp}


@legalizes(*_LOGICAL)
def logical(lg: Legalizer) -> SSAValue:
    return lg.binary(_LOGICAL[lg.op.name], lg.operand(0), lg.operand(1), lg.out_storage())


@legalizes("tfl.logical_not")
def logical_not(lg: Legalizer) -> SSAValue:
    return lg.unary(eu.LogicalNotOp, lg.operand(0))


@legalizes("tfl.select", "tfl.select_v2")
def select(lg: Legalizer) -> SSAValue:
    c, a, b = lg.operand(0), lg.operand(1), lg.operand(2)
    out = lg.out_storage()
    qa, qb, qo = lg.q(a), lg.q(b), lg.q(lg.out_type())
    if qo is not None and (qa != qo or qb != qo):
        lg.fail("quantized operands with different scales are not supported")
    rank = len(out.get_shape())
    vals = []
    for v in (c, a, b):
        s = list(v.type.get_shape())  # type: ignore[attr-defined]
        vals.append(lg.reshape(v, [1] * (rank - len(s)) + s) if len(s) < rank else v)
    return lg.emit(et.SelectOp.create(operands=vals, result_types=[out])).results[0]


@legalizes("tfl.cast")
def cast(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    if lg.q(x) is not None or lg.q(lg.out_type()) is not None:
        lg.fail("cast of quantized values is not supported")
    out = lg.out_storage()
    if isinstance(x.type.element_type, AnyFloat) and isinstance(out.element_type, IntegerType):  # type: ignore[attr-defined]
        # TFLite truncates toward zero; TOSA CAST rounds to nearest: truncate first
        x = _trunc(lg, x)
    return lg.cast(x, out.element_type)


def _trunc(lg: Legalizer, x: SSAValue) -> SSAValue:
    fl = lg.unary(eu.FloorOp, x)
    ce = lg.unary(eu.CeilOp, x)
    ge = lg.binary(cmp.GreaterEqualOp, x, _scalar(lg, x, 0.0), TensorType(i1, x.type.get_shape()))  # type: ignore[attr-defined]
    return lg.emit(et.SelectOp.create(operands=[ge, fl, ce], result_types=[x.type])).results[0]


@legalizes("tfl.zeros_like")
def zeros_like(lg: Legalizer) -> SSAValue:
    out = lg.out_storage()
    lg.require_small(lg.shape(lg.op.results[0]))
    return lg.const(np.zeros(out.get_shape()), out.element_type)
