"""Integer forms of padding, resizing and reductions between quantized tensors (to_tosa/
integer.py's family of data movement and reductions).

- layout.pad: CONSTANT padding with the (zero) value as the input's zero point (the guide's
  tfl.pad: "trivial lowering tosa.PAD", whose pad value TFLite takes as the zero point),
  REFLECT / SYMMETRIC / REPLICATE as the float mapping's slices and concatenations of the
  stored values; a RESCALE where the output's parameters differ.
- image.nearest_* resizes: RESIZE NEAREST_NEIGHBOR on the stored values; image.linear_resize:
  RESIZE BILINEAR i8 -> i32 (i16 -> i48), whose result is the stored value times
  scale_y_n * scale_x_n, then one RESCALE by the inverse (the guide's lower_resize_op with
  quantized input: "RESIZE ... then RESCALE"), as our TFLite frontend lowers tfl.resize_*.
- math.sum_reduce / math.mean_reduce: the input zero point removed by a RESCALE to i32,
  REDUCE_SUM per axis, one RESCALE by s_in / s_out (/ N for the mean): TFLite's
  QuantizedMeanOrSum, as our TFLite frontend lowers tfl.mean / tfl.sum (the guide's
  tf.Mean is lower_reduce_op<REDUCE_MEAN>, tfl.mean a TODO).
- math.max_reduce / math.min_reduce: on the stored values (monotonic), then a RESCALE where
  the output's parameters differ.
"""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef.to_tosa.emit import Value
from tosa_xdsl.frontends.nnef.to_tosa.image import _axes as resize_axes
from tosa_xdsl.frontends.nnef.to_tosa.image import _coordinates, resize_params
from tosa_xdsl.frontends.nnef.to_tosa.integer import (
    WHOLE,
    QParams,
    QValue,
    handles,
    requantize,
    rescalable,
    rescale,
)
from tosa_xdsl.frontends.nnef.to_tosa.ops import MAPPINGS, Type, Unsupported


def _stored(x: QValue) -> Value:
    return Value(x.ssa, x.shape, x.dtype)


@handles("layout.pad")
def _pad(em, env, ins, outs, oq):
    x = ins[0]
    if x.q.unsigned or oq[0].unsigned:
        raise Unsupported("u8 padding")
    zero = em.const([x.q.zp], [1], x.dtype)
    y = MAPPINGS["layout.pad"](em, env, [_stored(x), zero], [Type(outs[0].shape, x.dtype)])[0]
    return [requantize(em, QValue(y, x.q), oq[0])]


def _resize(name):
    def f(em, env, ins, outs, oq):
        x = ins[0]
        if not x.q.per_tensor or x.q.bits == 32 or x.q.unsigned:
            raise Unsupported("resizing per-channel, 32-bit or u8 values")
        y = MAPPINGS[name](em, env, [_stored(x)], [Type(outs[0].shape, x.dtype)])[0]
        if y.dtype != x.dtype:      # BILINEAR: the stored values times the product of the scale_n
            y = rescale(em, y, x.dtype, 1.0 / _scale_n_product(env, x), 0, 0)
        return [requantize(em, QValue(y, x.q), oq[0])]
    return f


def _scale_n_product(env, x) -> int:
    """scale_y_n * scale_x_n of linear_resize's RESIZE (image.py's parameters)."""
    axes, sizes = resize_axes(env, x)
    return math.prod(resize_params(x.shape[a], size, *_coordinates(x.shape[a], size, env["coordinate_transform"]),
                                   None)[0] for a, size in zip(axes, sizes))


for _n in ("image.nearest_resize", "image.linear_resize", "image.nearest_upsample", "image.nearest_downsample"):
    handles(_n)(_resize(_n))


def _axes(env, rank):
    return sorted({a + rank if a < 0 else a for a in env.get("axes", range(rank))})


def mean_is_integer(env, x: QParams, y: QParams, shape) -> bool:
    """Whether math.mean_reduce of these parameters has the integer form below (decided when
    the graph is composed: the composite is kept whole only then)."""
    axes = env.get("axes", [])
    if not all(-len(shape) <= a < len(shape) for a in axes):
        return False
    count = math.prod(shape[a] for a in {a % len(shape) for a in axes})
    if count <= 0 or not (x.scale > 0 and y.scale > 0):
        return False
    return (x.per_tensor and y.per_tensor and x.bits in (8, 16) and y.bits in (8, 16) and not x.unsigned
            and not y.unsigned and count * (1 << x.bits) < 1 << 31      # the i32 sum cannot overflow
            and rescalable(x.scale / y.scale / count))


def _sum_mean(mean: bool):
    def f(em, env, ins, outs, oq):
        x, q = ins[0], oq[0]
        if not mean_is_integer(env, x.q, q, x.shape):
            raise Unsupported("summing per-channel, 32-bit or u8 values")
        axes = _axes(env, len(x.shape))
        y = rescale(em, x, "int", 1.0, x.q.zp, 0)
        shape = list(x.shape)
        for a in axes:
            shape[a] = 1
            y = em.op("tosa.reduce_sum", [y], list(shape), "int", f"axis = {a} : i32")
        count = math.prod(x.shape[a] for a in axes)
        factor = x.q.scale / q.scale / (count if mean else 1)
        return [QValue(em.reshape(rescale(em, y, q.storage, factor, 0, q.zp), outs[0].shape), q)]
    return f


handles("math.sum_reduce")(_sum_mean(False))
handles("math.mean_reduce")(_sum_mean(True))
WHOLE["math.mean_reduce"] = mean_is_integer


def _extremum(name):
    def f(em, env, ins, outs, oq):
        x = ins[0]
        if not x.q.per_tensor or x.q.unsigned:
            raise Unsupported("per-channel or u8 values")
        y = MAPPINGS[name](em, env, [_stored(x)], [Type(outs[0].shape, x.dtype)])[0]
        return [requantize(em, QValue(y, x.q), oq[0])]
    return f


handles("math.max_reduce")(_extremum("math.max_reduce"))
handles("math.min_reduce")(_extremum("math.min_reduce"))
