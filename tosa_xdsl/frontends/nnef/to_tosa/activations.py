"""Element-wise operators whose formulas are short expressions (nn activations, a few math
functions) -> TOSA compositions computing the same expression: `c ? a : b` is SELECT, a
division by a compile-time constant a multiplication by its reciprocal."""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef.to_tosa.ops import Unsupported, _mul, _shift, mapping


def _scalar(em, value, like):
    """A real constant broadcastable against `like` (same rank, extents 1)."""
    return em.const([float(value)], [1] * len(like.shape), "real") if like.shape else em.const(float(value), [], "real")


def _op(em, name, *args, attrs=""):
    return em.op(name, list(args), args[0].shape, args[0].dtype, attrs)


def _cmp(em, name, a, b):
    return em.op(name, [a, b], [max(p, q) for p, q in zip(a.shape, b.shape)], "bool")


def _scale(em, x, c, out):
    return _mul(em, x, _scalar(em, c, x), out)


def _elu(em, x, alpha, out):
    """x < 0 ? alpha * (exp(x) - 1) : x"""
    neg = _cmp(em, "tosa.greater", _scalar(em, 0.0, x), x)
    em1 = _op(em, "tosa.sub", _op(em, "tosa.exp", x), _scalar(em, 1.0, x))
    return em.op("tosa.select", [neg, _scale(em, em1, alpha, out), x], out.shape, "real")


@mapping("nn.prelu", how="TOSA greater+mul+select (alpha reshaped along the axis)")
def _prelu(em, env, ins, outs):
    x, alpha = ins
    axis = env.get("axis", 1)
    axis = axis + len(x.shape) if axis < 0 else axis
    shape = [1] * len(x.shape)
    shape[axis] = alpha.shape[0]
    a = em.reshape(alpha, shape)
    neg = _cmp(em, "tosa.greater", _scalar(em, 0.0, x), x)
    return [em.op("tosa.select", [neg, _mul(em, x, a, outs[0]), x], x.shape, "real")]


@mapping("nn.thresholded_relu", how="TOSA greater+select")
def _thresholded_relu(em, env, ins, outs):
    x = ins[0]
    above = _cmp(em, "tosa.greater", x, _scalar(em, env.get("theta", 0.0), x))
    zero = em.const([0.0], x.shape, "real")
    return [em.op("tosa.select", [above, x, zero], x.shape, "real")]


@mapping("nn.elu", how="TOSA exp+sub+mul+select")
def _elu_map(em, env, ins, outs):
    return [_elu(em, ins[0], env.get("alpha", 1.0), outs[0])]


@mapping("nn.selu", how="TOSA exp+sub+mul+select, times lambda")
def _selu(em, env, ins, outs):
    y = _elu(em, ins[0], env["alpha"], outs[0])
    return [_scale(em, y, env["lambda"], outs[0])]


@mapping("nn.silu", how="TOSA sigmoid+mul")
def _silu(em, env, ins, outs):
    x = ins[0]
    return [_mul(em, x, _op(em, "tosa.sigmoid", x), outs[0])]


@mapping("nn.softplus", how="TOSA exp+add+log")
def _softplus(em, env, ins, outs):
    x = ins[0]
    return [_op(em, "tosa.log", _op(em, "tosa.add", _op(em, "tosa.exp", x), _scalar(em, 1.0, x)))]


@mapping("nn.gelu", how="TOSA erf composition (TANH: tanh/pow, SIGMOID: sigmoid of 1.702x)")
def _gelu(em, env, ins, outs):
    x, out = ins[0], outs[0]
    kind = env.get("approximation", "")
    if kind == "TANH":      # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = _op(em, "tosa.mul", _op(em, "tosa.mul", x, x, _shift(em)), x, _shift(em))
        inner = _op(em, "tosa.add", x, _scale(em, cube, 0.044715, out))
        t = _op(em, "tosa.tanh", _scale(em, inner, math.sqrt(2.0 / math.pi), out))
    elif kind == "SIGMOID":  # x / (1 + exp(-1.702 x)) = x * sigmoid(1.702 x)
        return [_mul(em, x, _op(em, "tosa.sigmoid", _scale(em, x, 1.702, out)), out)]
    elif kind == "":         # 0.5 x (1 + erf(x / sqrt(2)))
        t = _op(em, "tosa.erf", _scale(em, x, 1.0 / math.sqrt(2.0), out))
    else:
        raise Unsupported(f"gelu approximation {kind}")
    half_x = _scale(em, x, 0.5, out)
    return [_mul(em, half_x, _op(em, "tosa.add", t, _scalar(em, 1.0, x)), out)]


@mapping("math.sign", how="TOSA greater+select (twice)")
def _sign(em, env, ins, outs):
    x = ins[0]
    zero = em.const([0], x.shape, x.dtype)
    one, minus = em.const([1], x.shape, x.dtype), em.const([-1], x.shape, x.dtype)
    pos, neg = _cmp(em, "tosa.greater", x, zero), _cmp(em, "tosa.greater", zero, x)
    inner = em.op("tosa.select", [neg, minus, zero], x.shape, x.dtype)
    return [em.op("tosa.select", [pos, one, inner], x.shape, x.dtype)]


@mapping("math.round", how="TOSA cast to int32 and back (ties to even) where |x| < 2^23")
def _round(em, env, ins, outs):
    # reals of magnitude 2^23 and more are integers already (and may not fit an int32)
    x = ins[0]
    back = em.op("tosa.cast", [em.op("tosa.cast", [x], x.shape, "int")], x.shape, "real")
    small = _cmp(em, "tosa.greater", _scalar(em, 2.0 ** 23, x), _op(em, "tosa.abs", x))
    return [em.op("tosa.select", [small, back, x], x.shape, "real")]


@mapping("math.log2", how="TOSA log times 1/log(2)")
def _log2(em, env, ins, outs):
    x = ins[0]
    return [_scale(em, _op(em, "tosa.log", x), 1.0 / math.log(2.0), outs[0])]


@mapping("math.rsqr", how="TOSA mul+reciprocal")
def _rsqr(em, env, ins, outs):
    x = ins[0]
    return [_op(em, "tosa.reciprocal", _mul(em, x, x, outs[0]))]


@mapping("math.tan", how="TOSA sin times reciprocal of cos")
def _tan(em, env, ins, outs):
    x = ins[0]
    return [_mul(em, _op(em, "tosa.sin", x), _op(em, "tosa.reciprocal", _op(em, "tosa.cos", x)), outs[0])]
