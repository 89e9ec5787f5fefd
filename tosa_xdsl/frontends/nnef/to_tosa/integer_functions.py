"""Integer forms of activations between quantized tensors (to_tosa/integer.py's family of
element-wise functions): relu (clamps), leaky relu (two RESCALEs and a SELECT), functions
of one value as a TABLE, and softmax.

The legalization guide (tosa-legalization-tf-tflite.md) leaves tfl.leaky_relu,
tfl.logistic, tfl.tanh, tfl.softmax as "TODO" and gives get_table_const_tensor() only as a
name, with one worked TABLE (tfl.hard_swish, "TOSA Lowering ... If input/output tensors
are all quantized typed"); the forms here are the ones our TFLite frontend uses for the
same operators (tosa_xdsl/frontends/tflite/legalize/: activations.py, elementwise.py,
reduction.py), which follow TFLite's kernels and equal LiteRT's builtin int8 kernels:
- leaky relu: TFLite's QuantizeLeakyRelu: x - zp >= 0 ? rescale(x - zp, s_in / s_out) :
  rescale(x - zp, alpha * s_in / s_out), then + zp_out;
- a function f of one value: TFLite's LUT (dequantize the 256 levels, f in reals,
  requantize, saturate) as a 256-entry i8 TABLE (legalize_common.table_contents); 16-bit
  values: TOSA's interpolated 513-entry i16 TABLE (table_contents_16), i32 out, RESCALE 1/128;
- softmax (int8, output scale 1/K): the row maximum subtracted in i32, exp(-s_in * d) for
  the 256 differences d a GATHER from a Q16 table, each output INTDIV(e * K + sum / 2, sum)
  (TFLite's kernel rounds once, there);
- prelu: TFLite's int8 prelu kernel, two RESCALEs (x - zp, and (x - zp) * (alpha - zp_a)) and
  a SELECT.
"""

from __future__ import annotations

import math

import numpy as np

from tosa_xdsl.frontends.legalize_common import (
    quantized_activation_bounds,
    softmax_exp_table_q16,
    table_contents,
    table_contents_16,
)
from tosa_xdsl.frontends.nnef.to_tosa.integer import (
    WHOLE,
    QParams,
    QValue,
    handles,
    requantize,
    rescalable,
    rescale,
)
from tosa_xdsl.frontends.nnef.to_tosa.ops import F32_MAX, Unsupported

_EL = {"i8": "i8", "i16": "i16", "int": "i32"}


def _clamp(em, x, lo, hi, q: QParams):
    if lo <= q.bounds[0] and hi >= q.bounds[1]:
        return x
    el = _EL[x.dtype]
    return QValue(em.op("tosa.clamp", [x], x.shape, x.dtype, f"min_val = {lo} : {el}, max_val = {hi} : {el}"), q)


def _top(env):
    top = env.get("max")
    return math.inf if top is None or top >= F32_MAX else float(top)


@handles("nn.relu")
def _relu(em, env, ins, outs, oq):
    """relu (and relu{max}) as a clamp in the output's quantized domain (the legalization's
    quantized_activation_bounds); with `alpha`, the leaky relu below."""
    if env.get("alpha"):
        return _leaky_relu(em, env, ins, outs, oq)
    q = oq[0]
    x = requantize(em, ins[0], q)
    if not q.per_tensor and _top(env) != math.inf:
        raise Unsupported("relu{max} of per-channel scales (one clamp bound per channel)")
    lo, hi = quantized_activation_bounds(0.0, _top(env), *q.bounds, q.scale, q.zp)
    return [_clamp(em, x, lo, hi, q)]


def _const_like(em, x, value, dtype="int"):
    return em.const([value], [1] * len(x.shape), dtype) if x.shape else em.const(value, [], dtype)


def _leaky_relu(em, env, ins, outs, oq):
    """max(x, alpha * x) = x >= 0 ? x : alpha * x (the definition asserts 0 <= alpha <= 1):
    both sides RESCALEd from x - zp_in to i32, a SELECT on x - zp_in >= 0, one exact RESCALE
    (by 1) to the output with its zero point, and the `max` clamp (TFLite's leaky relu
    kernel; the guide's tfl.leaky_relu is TODO, its tf.LeakyRelu a MUL/GREATER/SELECT)."""
    x, q = ins[0], oq[0]
    alpha = float(env["alpha"])
    if not (x.q.per_tensor and q.per_tensor) or x.q.bits == 32 or x.q.unsigned:
        raise Unsupported("leaky relu of per-channel or 32-bit values")
    ratio = x.q.scale / q.scale
    pos = rescale(em, x, "int", ratio, x.q.zp, 0)
    neg = rescale(em, x, "int", alpha * ratio, x.q.zp, 0)
    centered = rescale(em, x, "int", 1.0, x.q.zp, 0)
    ge = em.op("tosa.greater_equal", [centered, _const_like(em, x, 0)], x.shape, "bool")
    y = em.op("tosa.select", [ge, pos, neg], x.shape, "int")
    y = QValue(rescale(em, y, q.storage, 1.0, 0, q.zp), q)
    if _top(env) == math.inf:
        return [y]
    _, hi = quantized_activation_bounds(0.0, _top(env), *q.bounds, q.scale, q.zp)
    return [_clamp(em, y, q.bounds[0], hi, q)]


@handles("nn.prelu")
def _prelu(em, env, ins, outs, oq):
    """x - zp_x >= 0 ? rescale(x - zp_x, s_x / s_out) : rescale((x - zp_x) * (alpha - zp_a),
    s_x * s_alpha / s_out), each RESCALE adding the output zero point (TFLite's int8 prelu
    kernel, as our TFLite frontend lowers tfl.prelu; the guide's is TODO), alpha reshaped
    along the axis."""
    x, alpha = ins
    q = oq[0]
    if not (x.q.per_tensor and alpha.q.per_tensor and q.per_tensor) or 32 in (x.q.bits, alpha.q.bits) \
            or x.q.unsigned or alpha.q.unsigned:
        raise Unsupported("prelu of per-channel or 32-bit values")
    axis = env.get("axis", 1)
    axis = axis + len(x.shape) if axis < 0 else axis
    shape = [1] * len(x.shape)
    shape[axis] = alpha.shape[0]
    x32 = rescale(em, x, "int", 1.0, x.q.zp, 0)
    a32 = em.reshape(rescale(em, alpha, "int", 1.0, alpha.q.zp, 0), shape)
    pos = rescale(em, x32, q.storage, x.q.scale / q.scale, 0, q.zp)
    prod = em.op("tosa.mul", [x32, a32, em.const([0], [1], "i8")], x.shape, "int")
    neg = rescale(em, prod, q.storage, x.q.scale * alpha.q.scale / q.scale, 0, q.zp)
    ge = em.op("tosa.greater_equal", [x32, _const_like(em, x, 0)], x.shape, "bool")
    return [QValue(em.op("tosa.select", [ge, pos, neg], x.shape, q.storage), q)]


@handles("math.abs")
def _abs(em, env, ins, outs, oq):
    """|x - zp_in| in i32 (ABS), one RESCALE by s_in / s_out to the output (TFLite's int8 abs
    kernel; the guide lowers tfl.abs trivially to ABS, for equal parameters)."""
    x, q = ins[0], oq[0]
    if not (x.q.per_tensor and q.per_tensor) or x.q.bits == 32 or x.q.unsigned:
        raise Unsupported("abs of per-channel or 32-bit values")
    centered = rescale(em, x, "int", 1.0, x.q.zp, 0)
    y = em.op("tosa.abs", [centered], x.shape, "int")
    return [QValue(rescale(em, y, q.storage, x.q.scale / q.scale, 0, q.zp), q)]


def _erf(v):
    return np.vectorize(math.erf)(v)


def _gelu(env):
    how = env.get("approximate") or ""
    if how == "TANH":
        return lambda v: 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)))
    if how == "SIGMOID":
        return lambda v: v / (1.0 + np.exp(-1.702 * v))
    return lambda v: 0.5 * v * (1.0 + _erf(v / math.sqrt(2.0)))


def _elu(env):
    alpha = float(env.get("alpha", 1.0))
    return lambda v: np.where(v < 0.0, alpha * np.expm1(np.minimum(v, 0.0)), v)


def _selu(env):
    alpha, lam = float(env.get("alpha", 1.67326319)), float(env.get("lambda", 1.05070102))
    return lambda v: lam * np.where(v < 0.0, alpha * np.expm1(np.minimum(v, 0.0)), v)


# the real function of each operator (the definitions' formulas), given its attributes
FUNCTIONS = {
    "nn.sigmoid": lambda env: lambda v: 1.0 / (1.0 + np.exp(-v)),
    "math.tanh": lambda env: np.tanh,
    "math.exp": lambda env: np.exp,
    "math.log": lambda env: np.log,
    "math.log2": lambda env: np.log2,
    "math.sqrt": lambda env: np.sqrt,
    "math.rsqrt": lambda env: lambda v: 1.0 / np.sqrt(v),
    "math.rcp": lambda env: lambda v: 1.0 / v,
    "math.sin": lambda env: np.sin,
    "math.cos": lambda env: np.cos,
    "nn.erf": lambda env: _erf,
    "nn.elu": _elu,
    "nn.selu": _selu,
    "nn.gelu": _gelu,
    "nn.silu": lambda env: lambda v: v / (1.0 + np.exp(-v)),
    "nn.softplus": lambda env: lambda v: np.logaddexp(0.0, v),
}


def _table(name):
    def f(em, env, ins, outs, oq):
        x, q = ins[0], oq[0]
        if not (x.q.per_tensor and q.per_tensor) or x.q.bits != q.bits or x.q.bits not in (8, 16):
            raise Unsupported("a TABLE of per-channel, mixed-width or 32-bit values")
        fn = FUNCTIONS[name](env)
        with np.errstate(all="ignore"):       # log(0), 1/0, sqrt(-1): saturated or 0 in the table
            if x.q.bits == 8:
                table = em.const(table_contents(fn, x.q.scale, x.q.zp, q.scale, q.zp, out_bits=8), [256], "i8")
                return [QValue(em.op("tosa.table", [x, table], x.shape, "i8"), q)]
            table = em.const(table_contents_16(fn, x.q.scale, x.q.zp, q.scale, q.zp), [513], "i16")
        # TOSA's i16 TABLE interpolates between entries: an i32 result scaled by 2^7
        y = em.op("tosa.table", [x, table], x.shape, "int")
        return [QValue(rescale(em, y, "i16", 1.0 / 128.0, 0, 0), q)]
    return f


for _n in FUNCTIONS:
    handles(_n)(_table(_n))


def softmax_is_integer(env, x: QParams, y: QParams, shape) -> bool:
    """Whether nn.softmax of these parameters has the integer form below (decided when the
    graph is composed, so the composite is kept whole only then): one axis, 8- or 16-bit
    values, the output scale 1/K (TFLite's: 1/256, 1/32768) and for 16 bits zero points 0."""
    axes = env.get("axes", [1])
    k = round(1.0 / y.scale) if y.scale > 0 else 0
    wide = x.bits == 16
    return (len(axes) == 1 and -len(shape) <= axes[0] < len(shape) and x.per_tensor and y.per_tensor
            and x.bits == y.bits and x.bits in (8, 16) and not x.unsigned and not y.unsigned
            and 0 < k <= (1 << 15 if wide else 1 << 14) and abs(k - 1.0 / y.scale) <= 1e-6 * k
            and shape[axes[0] % len(shape)] <= (65535 if wide else 32768)
            and (not wide or (y.zp == 0 and rescalable(x.scale * 65535.0 / 10.0))))


WHOLE["nn.softmax"] = softmax_is_integer


@handles("nn.softmax")
def _softmax(em, env, ins, outs, oq):
    """Softmax along one axis (moved last by a transpose), rows flattened: TFLite's kernels as
    our TFLite frontend lowers them (reduction.py, _softmax_int8 / _softmax_int16)."""
    x, q = ins[0], oq[0]
    if not softmax_is_integer(env, x.q, q, x.shape):
        raise Unsupported("softmax of these parameters")
    d = len(x.shape)
    axis = env.get("axes", [1])[0] % d
    perm = [a for a in range(d) if a != axis] + [axis]
    xt = em.transpose(x, perm)
    depth = x.shape[axis]
    rows = math.prod(xt.shape[:-1])
    x32 = em.reshape(em.op("tosa.cast", [xt], xt.shape, "int"), [rows, depth])
    m = em.op("tosa.reduce_max", [x32], [rows, 1], "int", "axis = 1 : i32")
    if x.q.bits == 8:
        neg_d = em.op("tosa.sub", [m, x32], [rows, depth], "int")        # max - x in [0, 255]
        values = em.const(softmax_exp_table_q16(x.q.scale).reshape(1, 256, 1), [1, 256, 1], "int")
        e = em.op("tosa.gather", [values, em.reshape(neg_d, [1, rows * depth])], [1, rows * depth, 1], "int")
        e = em.reshape(e, [rows, depth])
    else:
        # x - max mapped onto [-10, 0] as int16 (saturating below), exp as TOSA's interpolated
        # i16 TABLE in Q15 (TFLite's int16 kernel uses its own exp LUT: up to 1 LSB apart)
        step = 10.0 / 65535.0
        diff = em.op("tosa.sub", [x32, m], [rows, depth], "int")
        scaled = rescale(em, diff, "int", x.q.scale / step, 0, 0)
        shifted = em.op("tosa.add", [scaled, em.const([[32767]], [1, 1], "int")], [rows, depth], "int")
        q16 = rescale(em, shifted, "i16", 1.0, 0, 0)
        table = em.const(table_contents_16(np.exp, step, 32767, 1.0 / 32768.0, 0), [513], "i16")
        e = rescale(em, em.op("tosa.table", [q16, table], [rows, depth], "int"), "int", 1.0 / 128.0, 0, 0)
    s = em.op("tosa.reduce_sum", [e], [rows, 1], "int", "axis = 1 : i32")
    half = em.op("tosa.arithmetic_right_shift", [s, em.const([[1]], [1, 1], "int")], [rows, 1], "int",
                 "round = false")
    k = round(1.0 / q.scale)
    scaled = em.op("tosa.mul", [e, em.const([[k]], [1, 1], "int"), em.const([0], [1], "i8")], [rows, depth], "int")
    share = em.op("tosa.intdiv", [em.op("tosa.add", [scaled, half], [rows, depth], "int"), s], [rows, depth], "int")
    # + the zero point, saturated (a RESCALE by exactly 1)
    y = rescale(em, share, q.storage, 1.0, 0, q.zp)
    y = em.transpose(em.reshape(y, xt.shape), [perm.index(a) for a in range(d)])
    return [QValue(y, q)]
