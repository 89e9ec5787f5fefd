"""The legalization guide's common functions (tosa-legalization-tf-tflite.md, "Common
Legalization Functions"), written once for every frontend (TFLite now, TF later).

`Emitter` builds TOSA 1.0.1 ops in front of the op being legalized: zero points,
multipliers and shifts are constant tensor operands, shapes `tosa.const_shape` values.
The chapter-4 arithmetic (what RESCALE computes) lives in `tosa_xdsl.numerics`; here is only
what the guide adds on top: compute_scale_32, the padding of a pad type, rank broadcast,
the fused activations, the TABLE contents of a quantized function.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    BoolAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops import activation as act
from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.dialects.tosa.ops import type_conversion as tc
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.ir.dense import from_numpy, numpy_dtype
from tosa_xdsl.ir.enums import RoundingMode, RoundingModeAttr
from tosa_xdsl.passes._rewrite_utils import make_const_shape


class LegalizeError(Exception):
    """An operator the legalization cannot lower (unsupported, data-dependent shape, ...)."""


# --- the guide's scalar helpers -------------------------------------------------------------


def compute_scale_32(scale: float) -> tuple[int, int]:
    """(multiplier, shift) with multiplier * 2^-shift == scale, multiplier in [2^30, 2^31).

    The guide's version; shifts outside RESCALE's [2, 62] are brought into range by
    halving the multiplier (tiny scales) or rejected (scales >= 2^30)."""
    if scale == 0.0:
        return 0, 2
    mantissa, exp = math.frexp(scale)
    shifted = round(mantissa * (1 << 31))
    if shifted == 1 << 31:
        shifted //= 2
        exp += 1
    shift = 31 - exp
    while shift > 62:  # below 2^-31: lose mantissa bits rather than overflow the shift
        shifted = (shifted + 1) >> 1 if shifted > 1 else shifted
        shift -= 1
    if shift < 2:
        raise LegalizeError(f"rescale factor {scale} is too large for a 32-bit RESCALE")
    return int(shifted), int(shift)


def compute_scale_16(scale: float) -> tuple[int, int]:
    """compute_scale_32 for a 16-bit multiplier (RESCALE scale32=false)."""
    m, s = compute_scale_32(scale)
    m16 = (m + (1 << 15)) >> 16
    s16 = s - 16
    if m16 == 1 << 15:
        m16 //= 2
        s16 -= 1
    if s16 < 2:
        raise LegalizeError(f"rescale factor {scale} is too large for a 16-bit RESCALE")
    return int(m16), int(s16)


def positive_axis(axis: int, rank: int) -> int:
    return axis + rank if axis < 0 else axis


def windowed_output_size(in_size: int, kernel: int, dilation: int, stride: int, padding: str) -> tuple[int, int, int]:
    """TensorFlow's GetWindowedOutputSizeVerboseV2: (output size, pad before, pad after)."""
    effective = (kernel - 1) * dilation + 1
    if padding == "VALID":
        out = (in_size - effective + stride) // stride
        return out, 0, 0
    if padding == "SAME":
        out = (in_size + stride - 1) // stride
        needed = max(0, (out - 1) * stride + effective - in_size)
        return out, needed // 2, needed - needed // 2
    raise LegalizeError(f"unsupported padding '{padding}'")


def get_padding_values_from_pad_type(padding: str, input_hw: Sequence[int], kernel_hw: Sequence[int],
                                     stride_hw: Sequence[int], dilation_hw: Sequence[int]) -> list[int]:
    """[top, bottom, left, right] for SAME/VALID over the two spatial dims (NHWC)."""
    pads: list[int] = []
    for i in range(2):
        _, before, after = windowed_output_size(input_hw[i], kernel_hw[i], dilation_hw[i], stride_hw[i], padding)
        pads += [before, after]
    return pads


def rank_broadcast_shape(a_shape: Sequence[int], b_shape: Sequence[int]) -> list[int] | None:
    """The guide's apply_rank_broadcast(): the shape `a` is reshaped to so that its rank
    matches `b` (None when `a` already has b's rank or more)."""
    if len(a_shape) >= len(b_shape):
        return None
    new = [1] * len(b_shape)
    if len(a_shape) <= 1:
        if a_shape:
            new[-1] = a_shape[0]
        return new
    adim = len(a_shape) - 1
    for bdim in range(len(b_shape) - 1, -1, -1):
        if adim < 0:
            break
        if a_shape[adim] == b_shape[bdim] or a_shape[adim] == 1 or b_shape[bdim] == 1:
            new[bdim] = a_shape[adim]
            adim -= 1
    if adim != -1:
        raise LegalizeError(f"shapes {list(a_shape)} and {list(b_shape)} do not broadcast")
    return new


def table_contents(fn: Callable[[np.ndarray], np.ndarray], in_scale: float, in_zp: int, out_scale: float,
                   out_zp: int, in_bits: int = 8, out_bits: int = 8) -> np.ndarray:
    """get_table_const_tensor(): the 256-entry TABLE of an int8 function, computed as
    TFLite computes its lookup tables (dequantize, apply in float, requantize, saturate)."""
    if in_bits != 8:
        raise LegalizeError("only 8-bit tables are built")
    q = np.arange(-128, 128, dtype=np.int64)
    x = (q - in_zp).astype(np.float64) * in_scale
    y = fn(x)
    lo, hi = -(1 << (out_bits - 1)), (1 << (out_bits - 1)) - 1
    y = np.nan_to_num(y / out_scale, nan=0.0, posinf=hi - out_zp, neginf=lo - out_zp)
    out = np.clip(np.round(y) + out_zp, lo, hi)
    return out.astype(np.int8)


def table_contents_16(fn: Callable[[np.ndarray], np.ndarray], in_scale: float, in_zp: int, out_scale: float,
                      out_zp: int) -> np.ndarray:
    """The 513-entry TABLE of an int16 function (TOSA interpolates between entry i and
    i+1 for the 128 inputs (i - 256) * 128 + [0, 128)); as TensorFlow's
    getTosaConst16bitTable, each entry is biased by half the interpolation error at the
    midpoint of its segment, so the linear interpolation is centred on the function."""
    q = (np.arange(513, dtype=np.float64) - 256.0) * 128.0
    x = (q - in_zp) * in_scale
    step = 128.0 * in_scale
    f = lambda v: fn(v) / out_scale + out_zp
    sample = np.round(f(x[:-1]))
    interp = np.round((f(x[1:]) + sample) / 2.0)
    mid = np.round(f(x[:-1] + step / 2.0))
    bias = np.round((interp - mid) / 2.0)
    table = np.concatenate([sample - bias, np.round(f(x[-1:]))])
    return np.clip(table, -32768, 32767).astype(np.int16)


def softmax_exp_table_q16(scale_beta: float) -> np.ndarray:
    """exp(-scale_beta * d) in Q16 (round(2^16 * e)) for the 256 differences d = max - x of
    int8 softmax: exact integers, GATHERed by d (the int8 softmax of the TFLite frontend and
    of the NNEF importer)."""
    return np.round(np.exp(-scale_beta * np.arange(256, dtype=np.float64)) * 65536.0).astype(np.int64)


# --- building TOSA ----------------------------------------------------------------------


def quantized_activation_bounds(lo: float, hi: float, qmin: int, qmax: int, scale: float, zp: int) -> tuple[int, int]:
    """A clamp to the reals [lo, hi] (hi may be inf) in the quantized domain of (scale, zp),
    within the storage range [qmin, qmax]."""
    qlo = max(qmin, zp + round(lo / scale))
    qhi = qmax if hi == math.inf else min(qmax, zp + round(hi / scale))
    return qlo, qhi


def _float_max(elem: Attribute) -> float:
    return float(np.finfo(numpy_dtype(elem)).max)


class Emitter:
    """Inserts TOSA ops before `anchor` (the op being legalized) and returns their values."""

    # Constants the legalization materialises itself (fill, zeros_like, one_hot's iota, ...)
    # are capped, so a shape read from a file cannot make us allocate gigabytes.
    MAX_CONST_ELEMENTS = 1 << 24

    def __init__(self, anchor: Operation):
        self.anchor = anchor

    def require_small(self, shape: Sequence[int]) -> None:
        n = 1
        for d in shape:
            n *= max(int(d), 0)
        if n > self.MAX_CONST_ELEMENTS:
            raise LegalizeError(f"would materialise a constant of {n} elements (limit {self.MAX_CONST_ELEMENTS})")

    def emit(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, _before(self.anchor))
        return op

    # constants
    def const(self, array: np.ndarray, elem: Attribute, shape: Sequence[int] | None = None) -> SSAValue:
        arr = np.asarray(array)
        t = TensorType(elem, list(arr.shape if shape is None else shape))
        return self.emit(ConstOp(from_numpy(arr.reshape(t.get_shape()), t))).results[0]

    def zp(self, value: float, elem: Attribute) -> SSAValue:
        """A [1]-shaped zero point (TOSA 1.0: zero points are operands)."""
        return self.const(np.array([value]), elem)

    def shape_value(self, values: Sequence[int]) -> SSAValue:
        return self.emit(make_const_shape([int(v) for v in values])).results[0]

    # layout
    def reshape(self, x: SSAValue, shape: Sequence[int]) -> SSAValue:
        t = x.type
        assert isinstance(t, TensorType)
        if list(t.get_shape()) == list(shape):
            return x
        return self.emit(dl.ReshapeOp.create(operands=[x, self.shape_value(shape)],
                                      result_types=[TensorType(t.element_type, list(shape))])).results[0]

    def transpose(self, x: SSAValue, perms: Sequence[int]) -> SSAValue:
        t = x.type
        assert isinstance(t, TensorType)
        s = t.get_shape()
        return self.emit(dl.TransposeOp(
            operands=[x], result_types=[TensorType(t.element_type, [s[p] for p in perms])],
            properties={"perms": DenseArrayBase.from_list(i32, [int(p) for p in perms])})).results[0]

    def apply_rank_broadcast(self, a: SSAValue, b: SSAValue) -> SSAValue:
        new = rank_broadcast_shape(a.type.get_shape(), b.type.get_shape())  # type: ignore[attr-defined]
        return a if new is None else self.reshape(a, new)

    # type conversion
    def cast(self, x: SSAValue, elem: Attribute) -> SSAValue:
        t = x.type
        assert isinstance(t, TensorType)
        return self.emit(tc.CastOp.create(operands=[x], result_types=[TensorType(elem, t.get_shape())])).results[0]

    def rescale(self, x: SSAValue, out_elem: Attribute, scale: float | Sequence[float], in_zp: int, out_zp: int,
                *, double_round: bool = True, scale32: bool = True, input_unsigned: bool = False,
                output_unsigned: bool = False, shape: Sequence[int] | None = None) -> SSAValue:
        """RESCALE by a real factor (one, or one per channel of the last axis)."""
        t = x.type
        assert isinstance(t, TensorType)
        scales = [float(scale)] if isinstance(scale, (int, float)) else [float(s) for s in scale]
        pairs = [compute_scale_32(s) if scale32 else compute_scale_16(s) for s in scales]
        in_elem, per_channel = t.element_type, len(scales) > 1
        mult = self.const(np.array([m for m, _ in pairs]), i32 if scale32 else i16)
        shift = self.const(np.array([s for _, s in pairs]), i8)
        # 48-bit accumulators and 32-bit results take only SINGLE_ROUND.
        rounding = RoundingMode.DOUBLE_ROUND if double_round and scale32 else RoundingMode.SINGLE_ROUND
        out_shape = list(t.get_shape()) if shape is None else list(shape)
        op = tc.RescaleOp(
            operands=[x, mult, shift, self.zp(in_zp, in_elem), self.zp(out_zp, out_elem)],
            result_types=[TensorType(out_elem, out_shape)],
            properties={"scale32": BoolAttr.from_bool(scale32), "rounding_mode": RoundingModeAttr(rounding),
                        "per_channel": BoolAttr.from_bool(per_channel),
                        "input_unsigned": BoolAttr.from_bool(input_unsigned),
                        "output_unsigned": BoolAttr.from_bool(output_unsigned)})
        return self.emit(op).results[0]

    def clamp(self, x: SSAValue, lo: float, hi: float) -> SSAValue:
        t = x.type
        assert isinstance(t, TensorType)
        e = t.element_type
        if isinstance(e, AnyFloat):
            mn, mx = FloatAttr(float(lo), e), FloatAttr(float(hi), e)
        else:
            mn, mx = IntegerAttr(int(lo), e), IntegerAttr(int(hi), e)
        return self.emit(act.ClampOp.create(operands=[x], result_types=[t],
                                     properties={"min_val": mn, "max_val": mx})).results[0]

    def unary(self, cls: type[Operation], x: SSAValue, result_type: Attribute | None = None) -> SSAValue:
        return self.emit(cls.create(operands=[x], result_types=[result_type or x.type])).results[0]

    def binary(self, cls: type[Operation], a: SSAValue, b: SSAValue, result_type: Attribute) -> SSAValue:
        a2 = self.apply_rank_broadcast(a, b)
        b2 = self.apply_rank_broadcast(b, a)
        return self.emit(cls.create(operands=[a2, b2], result_types=[result_type])).results[0]

    def lower_fused_activation(self, x: SSAValue, activation: str, qmin: int | None = None,
                               qmax: int | None = None, scale: float = 1.0, zp: int = 0) -> SSAValue:
        """NONE / RELU / RELU6 / RELU_N1_TO_1 / TANH on a float value, or on a quantized
        value (storage type, with its scale and zero point) as a clamp in that domain."""
        if activation == "NONE":
            return x
        t = x.type
        assert isinstance(t, TensorType)
        bounds = {"RELU": (0.0, math.inf), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0),
                  "RELU_0_TO_1": (0.0, 1.0)}.get(activation)
        if isinstance(t.element_type, AnyFloat):
            if activation == "TANH":
                return self.unary(act.TanhOp, x)
            if bounds is None:
                raise LegalizeError(f"fused activation {activation} is not supported")
            top = _float_max(t.element_type)
            return self.clamp(x, bounds[0], min(bounds[1], top))
        if bounds is None:
            raise LegalizeError(f"fused activation {activation} on quantized values is not supported")
        assert qmin is not None and qmax is not None
        lo, hi = quantized_activation_bounds(bounds[0], bounds[1], qmin, qmax, scale, zp)
        if lo <= qmin and hi >= qmax:
            return x
        return self.clamp(x, lo, hi)


def _before(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


def int_type(bits: int) -> IntegerType:
    return {8: i8, 16: i16, 32: i32, 64: i64}.get(bits) or IntegerType(bits)
