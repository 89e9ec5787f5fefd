"""TOSA canonicalization patterns (as xDSL keeps its dialects' in
xdsl.transforms.canonicalization_patterns).

Each op class declares the patterns it is canonicalized with, by name, in its traits:
`traits = traits_def(Pure(), CanonicalizationPatterns("ReshapeIdentity", ...))`
(tosa_xdsl.dialects.tosa.traits); xDSL's `canonicalize` pass then finds them like those of any
other dialect. Every pattern class here has a no-argument constructor and is rooted at the op
classes in its `root`, so that a pattern can also be used on its own (tosa-reduce-transposes
reuses the transpose patterns).

Semantics
---------
Every pattern is exact bit for bit on every input (including -0.0 and NaN for floats) and
keeps ERROR_IF behaviour: a pattern never removes an op that could raise an ERROR_IF or
REQUIRE the replacement does not raise. Where upstream MLIR folds something that is not
exact in this sense, we don't; docs/passes.md lists those cases (e.g. float `x + 0.0`,
integer `negate(negate(x))`, float REDUCE_SUM over a size-1 axis, PAD into AVG_POOL2D).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops import activation as act
from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import elementwise_ternary as et
from tosa_xdsl.dialects.tosa.ops import elementwise_unary as eu
from tosa_xdsl.dialects.tosa.ops import reduction as red
from tosa_xdsl.dialects.tosa.ops import tensor as tn
from tosa_xdsl.dialects.tosa.ops import type_conversion as tc
from tosa_xdsl.interpreter.common import prop, tname
from tosa_xdsl.ir.enums import NanMode, NanModeAttr
from tosa_xdsl.passes._rewrite_utils import (
    array_prop,
    const_scalar,
    const_shape_values,
    const_tensor,
    i64_array,
    int_width,
    is_float,
    is_int,
    is_splat_bits,
    make_const,
    make_transpose,
    perms_of,
    splat_value,
    static_shape,
)

# ----------------------------------------------------------------------------- helpers


def _forward(rewriter: PatternRewriter, op: Operation, value: SSAValue) -> bool:
    """Replace `op`'s single result by `value` when the types are equal (never change a
    type: a use such as func.return would stop verifying)."""
    if value.type != op.results[0].type:
        return False
    rewriter.replace(op, [], [value])
    return True


def _has_dynamic(value: SSAValue) -> bool:
    return static_shape(value) is None


class _P(RewritePattern):
    """A pattern rooted at one op class (or a tuple of them); subclasses implement
    `rewrite(op, rewriter)`."""

    root: type[Operation] | tuple[type[Operation], ...]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        roots = self.root if isinstance(self.root, tuple) else (self.root,)
        if type(op) in roots:
            self.rewrite(op, rewriter)

    def rewrite(self, op, rewriter: PatternRewriter) -> None:  # pragma: no cover
        raise NotImplementedError


# ----------------------------------------------------------------------------- data layout


class ReshapeIdentity(_P):
    """reshape(x) -> x when the (static) input and output types are equal."""

    root = dl.ReshapeOp

    def rewrite(self, op, rewriter):
        if not _has_dynamic(op.input1):
            _forward(rewriter, op, op.input1)


class ReshapeReshape(_P):
    """reshape(reshape(x, s1), s2) -> reshape(x, s2) when s1 and s2 are constant, have no
    negative entries and equal products (so the inner ERROR_IF size check is implied by
    the outer one); -> x when that has x's type."""

    root = dl.ReshapeOp

    def rewrite(self, op, rewriter):
        inner = op.input1.owner
        if not isinstance(inner, dl.ReshapeOp):
            return
        s1, s2 = const_shape_values(inner.shape), const_shape_values(op.shape)
        if s1 is None or s2 is None or min(s1 + s2, default=0) < 0:
            return
        if math.prod(s1) != math.prod(s2):
            return
        x = inner.input1
        if x.type == op.output.type and not _has_dynamic(x):
            rewriter.replace(op, [], [x])
            return
        rewriter.replace(op, dl.ReshapeOp(operands=[x, op.shape], result_types=[op.output.type]))


class _SplatConstMoved(_P):
    """A data-movement op of a splat constant -> the splat constant of the (static) output
    type: moving equal elements around leaves them equal."""

    def rewrite(self, op, rewriter):
        s = splat_value(op.input1)
        if s is None or _has_dynamic(op.output):
            return
        rewriter.replace(op, make_const(np.asarray(s), op.output.type))


class ReshapeSplatConst(_SplatConstMoved):
    root = dl.ReshapeOp


class TransposeIdentity(_P):
    root = dl.TransposeOp

    def rewrite(self, op, rewriter):
        perms = perms_of(op)
        if perms is not None and perms == list(range(len(perms))):
            _forward(rewriter, op, op.input1)


class TransposeTranspose(_P):
    """transpose(transpose(x, p1), p2) -> transpose(x, [p1[p2[i]]]) (-> x for identity)."""

    root = dl.TransposeOp

    def rewrite(self, op, rewriter):
        inner = op.input1.owner
        if not isinstance(inner, dl.TransposeOp):
            return
        p1, p2 = perms_of(inner), perms_of(op)
        if p1 is None or p2 is None or len(p1) != len(p2):
            return
        if sorted(p1) != list(range(len(p1))) or sorted(p2) != list(range(len(p2))):
            return  # invalid perms: leave the ERROR_IF where it is
        composed = [p1[p2[i]] for i in range(len(p2))]
        x = inner.input1
        if composed == list(range(len(composed))) and _forward(rewriter, op, x):
            return
        rewriter.replace(op, make_transpose(x, composed, op.output.type))


class TransposeSplatConst(_SplatConstMoved):
    root = dl.TransposeOp


class SliceFull(_P):
    """slice(x, start=0..., size=shape(x)) -> x."""

    root = dl.SliceOp

    def rewrite(self, op, rewriter):
        shape = static_shape(op.input1)
        start, size = const_shape_values(op.start), const_shape_values(op.size)
        if shape is None or start is None or size is None:
            return
        if all(s == 0 for s in start) and tuple(size) == tuple(shape):
            _forward(rewriter, op, op.input1)


class PadZero(_P):
    root = dl.PadOp

    def rewrite(self, op, rewriter):
        padding = const_shape_values(op.padding)
        if padding is not None and all(p == 0 for p in padding):
            _forward(rewriter, op, op.input1)


class TileOnes(_P):
    root = dl.TileOp

    def rewrite(self, op, rewriter):
        multiples = const_shape_values(op.multiples)
        if multiples is not None and all(m == 1 for m in multiples):
            _forward(rewriter, op, op.input1)


class ReverseSize1(_P):
    """reverse along an axis of (static) size 1 -> x."""

    root = dl.ReverseOp

    def rewrite(self, op, rewriter):
        t = op.input1.type
        axis = prop(op, "axis")
        if isinstance(t, TensorType) and axis is not None and 0 <= axis < t.get_num_dims():
            if t.get_shape()[axis] == 1:
                _forward(rewriter, op, op.input1)


class ConcatSingle(_P):
    root = dl.ConcatOp

    def rewrite(self, op, rewriter):
        if len(op.input1) == 1:
            _forward(rewriter, op, op.input1[0])


# ----------------------------------------------------------------------------- conversion


class CastSameType(_P):
    """cast(x) -> x when input and output types are equal (and the input is signed)."""

    root = tc.CastOp

    def rewrite(self, op, rewriter):
        if not prop(op, "input_unsigned", False):
            _forward(rewriter, op, op.input)


class RescaleIdentity(_P):
    """rescale(x) -> x for a signed integer rescale that is exactly the identity: same
    type, zero points 0, every multiplier == 1 << shift. apply_scale_32/16 then return
    (v * 2^s + 2^(s-1) [+- 2^30]) >> s == v. Only when no REQUIRE can fail: shift >= the
    input width (apply_scale_32's value range) and 2 <= shift, multiplier in range."""

    root = tc.RescaleOp

    def rewrite(self, op, rewriter):
        if op.input.type != op.output.type or not is_int(op.input):
            return
        width = int_width(op.input)
        if width not in (8, 16, 32):
            return
        if prop(op, "input_unsigned", False) or prop(op, "output_unsigned", False):
            return
        izp, ozp = const_scalar(op.input_zp), const_scalar(op.output_zp)
        mult, shift = const_tensor(op.multiplier), const_tensor(op.shift)
        if izp != 0 or ozp != 0 or mult is None or shift is None or mult.size == 0:
            return
        scale32 = bool(prop(op, "scale32", False))
        per_channel = bool(prop(op, "per_channel", False))
        shape = static_shape(op.input)
        if per_channel:
            if shape is None or len(shape) == 0 or mult.size != shape[-1] or shift.size != shape[-1]:
                return
        elif mult.size != 1 or shift.size != 1:
            return
        mult = mult.astype(np.int64).reshape(-1)
        shift = shift.astype(np.int64).reshape(-1)
        max_shift = 30 if scale32 else 14  # 1 << shift must be a positive int32 / int16
        if not scale32 and prop(op, "rounding_mode", "SINGLE_ROUND") == "DOUBLE_ROUND":
            return  # ERROR_IF
        if np.any(shift < max(2, width)) or np.any(shift > max_shift):
            return
        if np.any(mult != (np.int64(1) << shift)):
            return
        _forward(rewriter, op, op.input)


# ----------------------------------------------------------------------------- activation


def _bound(attr) -> float | int | None:
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)
    return None


def _clamp_eval(x: np.ndarray, lo, hi, t: str, nan_mode: str) -> np.ndarray:
    """CLAMP's operation function on probe values, as the interpreter computes it."""
    if nx.is_floating_point(t):
        lo_v = nx.round_to_nearest_float(np.float64(lo), t)
        hi_v = nx.round_to_nearest_float(np.float64(hi), t)
    else:
        lo_v, hi_v = nx.truncate(np.int64(lo), t), nx.truncate(np.int64(hi), t)
    return nx.apply_clip_s(x, lo_v, hi_v, t, nan_mode)


def _probes(t: str, bounds: list) -> np.ndarray:
    """Every value class a composition of clips can tell apart: the bounds, their
    neighbours, signed zeros, infinities, NaN, the type's extremes."""
    dt = nx.storage_dtype(t)
    if nx.is_floating_point(t):
        vals = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0]
        for b in bounds:
            vals += [b, math.nextafter(b, math.inf), math.nextafter(b, -math.inf)]
        arr = nx.round_to_nearest_float(np.array(vals, np.float64), t)
        extra = [np.nextafter(np.float32(b), np.float32(d)) for b in bounds for d in (np.inf, -np.inf)]
        arr2 = nx.round_to_nearest_float(np.array(extra, np.float64), t)
        return np.concatenate([arr, arr2]).astype(dt)
    lo, hi = nx.minimum_s(t), nx.maximum_s(t)
    vals = {lo, hi, 0, -1, 1}
    for b in bounds:
        vals |= {b, b - 1, b + 1}
    return np.array(sorted(v for v in vals if lo <= v <= hi), np.int64).astype(dt)


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).tobytes()


class ClampClamp(_P):
    """clamp(clamp(x, a1, b1, m1), a2, b2, m2) -> clamp(x, lo, hi, m) with lo, hi taken from
    the four bounds and m from the two nan modes. A candidate is accepted only if it agrees
    bit for bit with the composition on every probe value (bounds and their neighbours,
    +-0, +-inf, NaN): both sides are compositions of max/min with constants, so they are
    constant or the identity on each interval between those points."""

    root = act.ClampOp

    def rewrite(self, op, rewriter):
        inner = op.input.owner
        if not isinstance(inner, act.ClampOp) or op.input.type != inner.output.type:
            return
        t_attr = op.input.type
        if not isinstance(t_attr, TensorType):
            return
        try:
            t = tname(op.input)
        except Exception:
            return
        attrs = {
            "a1": inner.properties.get("min_val"), "b1": inner.properties.get("max_val"),
            "a2": op.properties.get("min_val"), "b2": op.properties.get("max_val"),
        }
        vals = {k: _bound(a) for k, a in attrs.items()}
        if any(v is None for v in vals.values()):
            return
        if any(isinstance(v, float) and math.isnan(v) for v in vals.values()):
            return
        if vals["b1"] < vals["a1"] or vals["b2"] < vals["a2"]:
            return  # an ERROR_IF clamp stays
        m1, m2 = prop(inner, "nan_mode", "PROPAGATE"), prop(op, "nan_mode", "PROPAGATE")
        lo_c = ["a1", "a2"] if vals["a1"] >= vals["a2"] else ["a2", "a1"]
        hi_c = ["b1", "b2"] if vals["b1"] <= vals["b2"] else ["b2", "b1"]
        try:
            probes = _probes(t, list(vals.values()))
            with np.errstate(all="ignore"):
                want = _clamp_eval(_clamp_eval(probes, vals["a1"], vals["b1"], t, m1),
                                   vals["a2"], vals["b2"], t, m2)
        except nx.TosaNumericsError:
            return
        for lo in lo_c:
            for hi in hi_c:
                if vals[hi] < vals[lo]:
                    continue
                for mode in dict.fromkeys((m1, m2, "PROPAGATE", "IGNORE")):
                    try:
                        with np.errstate(all="ignore"):
                            got = _clamp_eval(probes, vals[lo], vals[hi], t, mode)
                    except nx.TosaNumericsError:
                        continue
                    if _bits(got) == _bits(want):
                        new = act.ClampOp(
                            operands=[inner.input], result_types=[op.output.type],
                            properties={"min_val": attrs[lo], "max_val": attrs[hi],
                                        "nan_mode": NanModeAttr(NanMode(mode))})
                        rewriter.replace(op, new)
                        return


class ClampFullRangeInt(_P):
    """Integer clamp to the whole range of its type -> x."""

    root = act.ClampOp

    def rewrite(self, op, rewriter):
        if not is_int(op.input):
            return
        lo, hi = _bound(op.properties.get("min_val")), _bound(op.properties.get("max_val"))
        t = tname(op.input)
        if lo is not None and lo <= nx.minimum_s(t) and hi is not None and hi >= nx.maximum_s(t):
            _forward(rewriter, op, op.input)


# ----------------------------------------------------------------------------- elementwise


def _other_if_identity(op, check) -> SSAValue | None:
    """For x op c / c op x: the operand x whose partner satisfies `check`."""
    for x, c in ((op.input1, op.input2), (op.input2, op.input1)):
        if check(c) and x.type == op.output.type:
            return x
    return None


def _is_additive_identity(c: SSAValue) -> bool:
    # integers: 0; floats: only -0.0 (x + (+0.0) turns -0.0 into +0.0)
    if is_float(c):
        return is_splat_bits(c, 0.0, negative_zero=True)
    return is_int(c) and is_splat_bits(c, 0)


class AddZero(_P):
    root = eb.AddOp

    def rewrite(self, op, rewriter):
        x = _other_if_identity(op, _is_additive_identity)
        if x is not None:
            rewriter.replace(op, [], [x])


class SubZero(_P):
    """x - 0 -> x (integers; floats for +0.0 only: x - (+0.0) == x + (-0.0) == x)."""

    root = eb.SubOp

    def rewrite(self, op, rewriter):
        c = op.input2
        if op.input1.type != op.output.type:
            return
        ok = is_splat_bits(c, 0.0, negative_zero=False) if is_float(c) else (is_int(c) and is_splat_bits(c, 0))
        if ok:
            rewriter.replace(op, [], [op.input1])


class MulOne(_P):
    """x * 1 with shift 0 -> x (i32, floats: exact; i8/i16 change type so never match)."""

    root = eb.MulOp

    def rewrite(self, op, rewriter):
        if const_scalar(op.shift) != 0:
            return
        x = _other_if_identity(op, lambda c: (is_float(c) or is_int(c)) and is_splat_bits(c, 1))
        if x is not None:
            rewriter.replace(op, [], [x])


class SelectConstCondition(_P):
    root = et.SelectOp

    def rewrite(self, op, rewriter):
        s = splat_value(op.input1)
        if s is None:
            return
        _forward(rewriter, op, op.input2 if bool(s) else op.input3)


class SelectNot(_P):
    """select(logical_not(c), a, b) -> select(c, b, a)."""

    root = et.SelectOp

    def rewrite(self, op, rewriter):
        n = op.input1.owner
        if not isinstance(n, eu.LogicalNotOp) or n.input1.type != op.input1.type:
            return
        rewriter.replace(op, et.SelectOp(operands=[n.input1, op.input3, op.input2],
                                         result_types=[op.output.type]))


class NegateNegate(_P):
    """negate(negate(x)) -> x for floats (zero points 0). Integer negation saturates
    (negate(-128 : i8) == 127), so there the pair is not the identity."""

    root = eu.NegateOp

    def rewrite(self, op, rewriter):
        inner = op.input1.owner
        if not isinstance(inner, eu.NegateOp) or not is_float(op.input1):
            return
        zps = (inner.input1_zp, inner.output_zp, op.input1_zp, op.output_zp)
        if all(const_scalar(z) == 0 for z in zps):
            _forward(rewriter, op, inner.input1)


# ----------------------------------------------------------------------------- reductions


class ReduceSize1(_P):
    """reduce_* over an axis of size 1 -> x. Not for float REDUCE_SUM (the accumulator
    starts at +0.0, so -0.0 becomes +0.0), nor float REDUCE_MAX/MIN with nan_mode IGNORE
    (conservative: the spec's IGNORE accumulator start is not relied upon)."""

    root = red.OPS

    def rewrite(self, op, rewriter):
        t = op.input.type
        axis = prop(op, "axis")
        if not isinstance(t, TensorType) or axis is None or not (0 <= axis < t.get_num_dims()):
            return
        if t.get_shape()[axis] != 1:
            return
        if is_float(op.input):
            if isinstance(op, red.ReduceSumOp):
                return
            if prop(op, "nan_mode", "PROPAGATE") != "PROPAGATE":
                return
        _forward(rewriter, op, op.input)


class ArgMaxSize1(_P):
    """argmax along an axis of size 1 -> constant 0."""

    root = tn.ArgMaxOp

    def rewrite(self, op, rewriter):
        t = op.input.type
        axis = prop(op, "axis")
        if not isinstance(t, TensorType) or axis is None or not (0 <= axis < t.get_num_dims()):
            return
        if t.get_shape()[axis] != 1 or _has_dynamic(op.output):
            return
        if t.get_num_dims() - 1 != op.output.type.get_num_dims():
            return
        rewriter.replace(op, make_const(np.zeros(static_shape(op.output), np.int64), op.output.type))


class MaxPool1x1(_P):
    """1x1 max_pool2d with stride 1 and no padding -> x (floats: nan_mode PROPAGATE only)."""

    root = tn.MaxPool2DOp

    def rewrite(self, op, rewriter):
        if (array_prop(op, "kernel") != [1, 1] or array_prop(op, "stride") != [1, 1]
                or array_prop(op, "pad") != [0, 0, 0, 0]):
            return
        if is_float(op.input) and prop(op, "nan_mode", "PROPAGATE") != "PROPAGATE":
            return
        _forward(rewriter, op, op.input)


# ----------------------------------------------------------------------------- PAD folding


def _spatial_padding(pad_op: dl.PadOp) -> list[int] | None:
    """[top, bottom, left, right] of a constant NHWC padding with N and C unpadded."""
    padding = const_shape_values(pad_op.padding)
    if padding is None or len(padding) != 8 or min(padding) < 0:
        return None
    if padding[0] or padding[1] or padding[6] or padding[7]:
        return None
    return list(padding[2:6])


def _finite_weights(w: SSAValue) -> bool:
    """The weights are a constant (or a widening float cast of one) with no inf/NaN."""
    arr = const_tensor(w)
    if arr is None and isinstance(w.owner, tc.CastOp):
        src = w.owner.input
        if is_float(src) and is_float(w):
            wide = nx.bit_width(tname(w)) >= nx.bit_width(tname(src))
            if wide:
                arr = const_tensor(src)
    if arr is None:
        return False
    return bool(np.isfinite(arr.astype(np.float64)).all())


class FoldPadIntoConv(_P):
    """conv2d/depthwise_conv2d(pad(x, p, c)) -> conv(x, pad + p) when only H/W are padded
    and c equals input_zp: padded taps then contribute (c - zp) * w == 0 exactly as the
    conv's own skipped taps do. Floats additionally need c == +0.0 and finite constant
    weights (0 * inf would be NaN where the conv skips the tap)."""

    root = (tn.Conv2DOp, tn.DepthwiseConv2DOp)

    def rewrite(self, op, rewriter):
        pad_op = op.input.owner
        if not isinstance(pad_op, dl.PadOp):
            return
        extra = _spatial_padding(pad_op)
        pad = array_prop(op, "pad")
        if extra is None or pad is None or len(pad) != 4 or min(pad) < 0:
            return
        c, zp = splat_value(pad_op.pad_const), const_scalar(op.input_zp)
        if c is None or zp is None:
            return
        if is_float(op.input):
            if not is_splat_bits(pad_op.pad_const, 0.0, negative_zero=False) or zp != 0:
                return
            if not _finite_weights(op.weight):
                return
        elif not is_int(op.input) or int(c) != int(zp):
            return
        props = dict(op.properties)
        props["pad"] = i64_array([a + b for a, b in zip(pad, extra)])
        new = type(op)(operands=[pad_op.input1, *op.operands[1:]],
                       result_types=[op.output.type], properties=props)
        rewriter.replace(op, new)


class FoldPadIntoMaxPool(_P):
    """max_pool2d(pad(x, p, c)) -> max_pool2d(x, pad + p) when only H/W are padded, c is
    the lowest value (-inf / int min, which never wins the max, as the pool's own padding)
    and the new pads stay below the kernel (ERROR_IF pad >= kernel). Floats: PROPAGATE."""

    root = tn.MaxPool2DOp

    def rewrite(self, op, rewriter):
        pad_op = op.input.owner
        if not isinstance(pad_op, dl.PadOp):
            return
        extra = _spatial_padding(pad_op)
        pad, kernel = array_prop(op, "pad"), array_prop(op, "kernel")
        if extra is None or pad is None or kernel is None or len(pad) != 4 or len(kernel) != 2:
            return
        if is_float(op.input):
            if prop(op, "nan_mode", "PROPAGATE") != "PROPAGATE":
                return
            if not is_splat_bits(pad_op.pad_const, -math.inf):
                return
        elif is_int(op.input):
            if not is_splat_bits(pad_op.pad_const, nx.minimum_s(tname(op.input))):
                return
        else:
            return
        new_pad = [a + b for a, b in zip(pad, extra)]
        if new_pad[0] >= kernel[0] or new_pad[1] >= kernel[0] or new_pad[2] >= kernel[1] or new_pad[3] >= kernel[1]:
            return
        props = dict(op.properties)
        props["pad"] = i64_array(new_pad)
        rewriter.replace(op, tn.MaxPool2DOp(operands=[pad_op.input1], result_types=[op.output.type],
                                            properties=props))
