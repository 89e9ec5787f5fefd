"""@quantize (draft 2.14) as integer TOSA, the way the TFLite legalization builds quantized
graphs (tosa-legalization-tf-tflite.md): a tensor quantized by `quant.zero_point_linear_quantize`
(signed, 8/16/32 bits, one zero point; per-channel scales allowed) is held as its integer
storage (i8 / i16 / i32) with its scale and zero point; an operator whose inputs and outputs are
all such tensors computes on the storage: CONV2D / DEPTHWISE_CONV2D / MATMUL with the zero
points as operands and i32 accumulators, then one RESCALE by in_scale * weight_scale[c] /
out_scale (multiplier and shift from the guide's compute_scale_32, legalize_common.py);
activations as clamps in the quantized domain; ADD on both sides rescaled to i32 with 20 bits
of headroom; pooling and data movement on the stored values.

Every other operator computes in reals: its quantized inputs are dequantized, the float
mapping (or road 2) runs, and the next quantization node requantizes, so any graph imports
with the definitions' meaning. The definitions' fake quantization (real in, real out) stays
available with `import_nnef(..., fake_quant=True)` and is what road 2 compiles.

Quantized graph inputs and outputs are integer (like LiteRT's int8 inputs and outputs);
variables hold storage values: a data file with integer items under a `real` declaration
(what Khronos' converter writes for quantized weights) is taken as the storage itself, real
data is quantized at import."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tosa_xdsl.frontends.legalize_common import (
    LegalizeError,
    compute_scale_16,
    compute_scale_32,
)
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.to_tosa.emit import STORAGE, Emitter, Value
from tosa_xdsl.frontends.nnef.to_tosa.ops import (
    MAPPINGS,
    Type,
    Unsupported,
    _aligned,
    _mul,
    _shift,
)
from tosa_xdsl.frontends.nnef.to_tosa.quant import dequantize, levels, quantize_int

QUANTIZE = "quant.zero_point_linear_quantize"


@dataclass(frozen=True)
class QParams:
    scales: tuple          # one, or one per channel along `axis`
    zp: int
    bits: int
    symmetric: bool
    axis: int              # the channel axis (meaningful with several scales)
    unsigned: bool = False  # u8, held in i8 storage: only RESCALE reads or writes it

    @property
    def storage(self) -> str:
        return STORAGE[self.bits]

    @property
    def per_tensor(self) -> bool:
        return len(self.scales) == 1

    @property
    def scale(self) -> float:
        return self.scales[0]

    @property
    def bounds(self) -> tuple[int, int]:
        return levels(self.bits, not self.unsigned, self.symmetric)


def qparams(node, rank: int) -> QParams | None:
    """The integer form of a quantization node's attributes, or None when integer TOSA cannot
    hold the tensor (unsigned, other widths, several zero points)."""
    return qparams_of(node.instance.env.values, rank)


def qparams_of(env: dict, rank: int) -> QParams | None:
    """qparams() of a zero_point_linear_quantize's attribute values."""
    if not all(k in env for k in ("bits", "scale", "zero_point")):
        return None
    bits, signed = env["bits"], env.get("signed", True)
    if bits not in STORAGE or (not signed and bits != 8):
        return None
    scales = env["scale"] if isinstance(env["scale"], list) else [env["scale"]]
    zps = env["zero_point"] if isinstance(env["zero_point"], list) else [env["zero_point"]]
    if len(set(zps)) != 1 or not scales:
        return None
    lo, hi = levels(bits, signed, False)
    if not (lo <= zps[0] <= hi) or (bits > 8 and zps[0] != 0):
        return None     # TOSA takes zero points of 8-bit values only (within their range)
    if len(set(scales)) == 1:
        scales = scales[:1]
    axis = env.get("channel_axis", 1)
    axis = 0 if len(scales) == 1 else axis + rank if axis < 0 else axis     # per tensor: no axis
    return QParams(tuple(float(s) for s in scales), int(zps[0]), bits, bool(env.get("symmetric", False)), axis,
                   not signed)


class QValue(Value):
    """A quantized tensor held as its integer storage."""
    __slots__ = ("q",)

    def __init__(self, v: Value, q: QParams):
        super().__init__(v.ssa, v.shape, v.dtype, v.explicit, zp=q.zp)
        self.q = q


def storage_data(arr: np.ndarray, q: QParams) -> np.ndarray:
    """Storage values of a variable: integer data as written, real data quantized as the
    definition does (round half to even, clamp)."""
    arr = np.asarray(arr)
    lo, hi = q.bounds
    if arr.dtype.kind in "iu":
        out = np.clip(arr.astype(np.int64), lo, hi)
    else:
        scale = _broadcast(q.scales, arr.ndim, q.axis)
        out = np.clip(np.rint(arr.astype(np.float64) / scale) + q.zp, lo, hi).astype(np.int64)
    return _bits8(out) if q.unsigned else out


def _flag(b: bool) -> str:
    """A bool attribute's value in MLIR text."""
    return "true" if b else "false"


def _bits8(v):
    """u8 values as the i8 holding their bits."""
    return (np.asarray(v, np.int64) + 128) % 256 - 128


def real_data(arr: np.ndarray, q: QParams | None, node) -> np.ndarray:
    """Integer data of a quantized `real` variable, as reals: (q - zp) * scale."""
    env = node.instance.env.values
    scales = env["scale"] if isinstance(env["scale"], list) else [env["scale"]]
    zps = env["zero_point"] if isinstance(env["zero_point"], list) else [env["zero_point"]]
    axis = env.get("channel_axis", 1)
    axis = axis + arr.ndim if axis < 0 else axis
    return ((arr.astype(np.float64) - _broadcast(zps, arr.ndim, axis)) * _broadcast(scales, arr.ndim, axis)).astype(
        np.float32)


def _broadcast(values, rank, axis):
    vals = np.asarray(values, np.float64)
    if vals.size == 1 or rank == 0:
        return vals.reshape(-1)[0]
    shape = [1] * rank
    shape[axis] = vals.size
    return vals.reshape(shape)


# ------------------------------------------------------------------ emission helpers

def rescale(em: Emitter, x: Value, dtype: str, scales, in_zp: int, out_zp: int, axis: int | None = None,
            input_unsigned: bool = False, output_unsigned: bool = False) -> Value:
    """TOSA RESCALE by real factors (one, or one per channel along `axis`), multiplier and
    shift from compute_scale_32, DOUBLE_ROUND as the TFLite legalization uses; u8 sides
    flagged unsigned (their zero points stored as i8 bits). An i48 input (16-bit
    accumulators) takes a 16-bit multiplier (compute_scale_16, scale32 = false: TOSA's
    ERROR_IFs: no scale32 for i48, no DOUBLE_ROUND without it: SINGLE_ROUND)."""
    scales = [float(s) for s in (scales if isinstance(scales, (list, tuple)) else [scales])]
    rank = len(x.shape)
    if len(scales) > 1 and axis is not None and axis != rank - 1:
        perm = [a for a in range(rank) if a != axis] + [axis]
        y = rescale(em, em.transpose(x, perm), dtype, scales, in_zp, out_zp, rank - 1, input_unsigned,
                    output_unsigned)
        return em.transpose(y, [perm.index(a) for a in range(rank)])
    if not all(math.isfinite(s) and s >= 0 for s in scales):     # e.g. from a scale of inf
        raise Unsupported(f"rescale factors {scales}")
    scale32 = x.dtype != "i48"
    try:
        pairs = [(compute_scale_32 if scale32 else compute_scale_16)(s) for s in scales]
    except LegalizeError as err:
        raise Unsupported(str(err)) from None
    n = len(pairs)
    mult = em.const([m for m, _ in pairs], [n], "int" if scale32 else "i16")
    shift = em.const([s for _, s in pairs], [n], "i8")
    izp = em.const([_bits8(in_zp) if input_unsigned else in_zp], [1], x.dtype)
    ozp = em.const([_bits8(out_zp) if output_unsigned else out_zp], [1], dtype)
    y = em.op("tosa.rescale", [x, mult, shift, izp, ozp], x.shape, dtype,
              f"input_unsigned = {_flag(input_unsigned)}, output_unsigned = {_flag(output_unsigned)}, "
              f"per_channel = {_flag(n > 1)}, rounding_mode = {'DOUBLE_ROUND' if scale32 else 'SINGLE_ROUND'}, "
              f"scale32 = {_flag(scale32)}")
    y.zp = out_zp
    return y


def requantize(em, x: QValue, q: QParams) -> QValue:
    """x in the parameters q: one RESCALE (per channel where either side has a scale per
    channel, along its channel axis: TOSA RESCALE's per_channel)."""
    if x.q == q or (x.q.per_tensor and q.per_tensor and (x.q.scale, x.q.zp, x.q.storage, x.q.unsigned)
                    == (q.scale, q.zp, q.storage, q.unsigned)):
        return QValue(x, q)
    if not x.q.per_tensor or not q.per_tensor:
        axis = x.q.axis if q.per_tensor else q.axis
        n = x.shape[axis] if 0 <= axis < len(x.shape) else -1
        ins = x.q.scales * n if x.q.per_tensor else x.q.scales
        outs = q.scales * n if q.per_tensor else q.scales
        if x.q.unsigned or q.unsigned or len(ins) != n or len(outs) != n or \
                (not x.q.per_tensor and not q.per_tensor and x.q.axis != q.axis):
            raise Unsupported("per-channel scales along different axes or of another length")
        return QValue(rescale(em, x, q.storage, [a / b for a, b in zip(ins, outs)], x.q.zp, q.zp, axis), q)
    if x.q.unsigned and q.unsigned:
        raise Unsupported("u8 to u8")
    if (x.q.unsigned or q.unsigned) and (x.q.storage != "i8" or q.storage != "i8"):
        raise Unsupported("u8 from or to other than i8")
    return QValue(rescale(em, x, q.storage, x.q.scale / q.scale, x.q.zp, q.zp, None, x.q.unsigned, q.unsigned), q)


def to_real(em, x: QValue) -> Value:
    """Dequantize: (q - zp) * scale in reals (u8 first widened by an unsigned RESCALE)."""
    if x.q.unsigned:
        wide = rescale(em, x, "i16", 1.0, x.q.zp, 0, None, input_unsigned=True)
        q32 = em.op("tosa.cast", [wide], x.shape, "int")
        return _mul(em, em.op("tosa.cast", [q32], x.shape, "real"), em.const([x.q.scale], [1] * len(x.shape), "real")
                    if x.shape else em.const(x.q.scale, [], "real"), Type(x.shape, "real"))
    q32 = x if x.dtype == "int" else em.op("tosa.cast", [x], x.shape, "int")
    return dequantize(em, q32, x.q.zp, list(x.q.scales) if not x.q.per_tensor else x.q.scale, x.q.axis,
                      Type(x.shape, "real"))


def from_real(em, x: Value, q: QParams, out_type) -> QValue:
    """Quantize reals as the definition does, into the storage type."""
    scales = list(q.scales) if not q.per_tensor else q.scale
    q32 = quantize_int(em, x, q.zp, scales, q.bits, not q.unsigned, q.symmetric, q.axis, out_type)
    if q.unsigned:
        # TOSA writes u8 only from a RESCALE of i8/i16: the level - 128 in i8, then + 128 unsigned
        shifted = em.op("tosa.add", [q32, em.const([-128], [1] * len(x.shape), "int") if x.shape
                                     else em.const(-128, [], "int")], x.shape, "int")
        return QValue(rescale(em, em.op("tosa.cast", [shifted], x.shape, "i8"), "i8", 1.0, 0, 128, None,
                              output_unsigned=True), q)
    if q.storage != "int":
        q32 = em.op("tosa.cast", [q32], q32.shape, q.storage)
    return QValue(q32, q)


# ------------------------------------------------------------------ integer operators

HANDLERS: dict[str, callable] = {}
# composites (nn.softmax, math.mean_reduce) with an integer form: name -> whether it takes
# (attribute values, input QParams, output QParams, input shape); the composer keeps them
# whole between quantized tensors only then (the emission has no @compose to fall back on)
WHOLE: dict[str, callable] = {}


def rescalable(factor: float) -> bool:
    """Whether a 32-bit RESCALE multiplies by `factor` (for the WHOLE predicates)."""
    try:
        return math.isfinite(factor) and factor >= 0 and compute_scale_32(factor) is not None
    except LegalizeError:
        return False


def _well_typed(env: dict) -> bool:
    """An output entry's attribute values, not yet checked against the definition: of the
    types zero_point_linear_quantize declares (a scale and zero point each a number or a
    list), positive scales (its assertion)."""
    def number(v, kind):
        return isinstance(v, kind) and not isinstance(v, bool) and (kind is int or math.isfinite(v))

    def numbers(v, kind):
        return number(v, kind) or (isinstance(v, list) and bool(v) and all(number(x, kind) for x in v))
    scale = env.get("scale")
    return (number(env.get("bits"), int) and numbers(scale, (int, float))
            and all(v > 0 for v in (scale if isinstance(scale, list) else [scale]))
            and numbers(env.get("zero_point"), int) and isinstance(env.get("signed", True), bool)
            and isinstance(env.get("symmetric", False), bool) and number(env.get("channel_axis", 1), int))


def keeps_whole(name, env, in_entries, out_entries, shapes) -> bool:
    """Composer's keep_quantized: the entries' attribute values as QParams, asked to WHOLE."""
    f = WHOLE.get(name)
    if f is None or len(in_entries) != 1 or len(out_entries) != 1 or not shapes \
            or not all(_well_typed(e) for e in in_entries + out_entries):
        return False        # an ill-typed entry is reported where it is invoked
    x, y = qparams_of(in_entries[0], len(shapes[0])), qparams_of(out_entries[0], len(shapes[0]))
    return x is not None and y is not None and f(env, x, y, shapes[0])


def handles(*names):
    def deco(f):
        for n in names:
            HANDLERS[n] = f
        return f
    return deco


def _weight_scales(w: QValue, axis: int, channels: int) -> np.ndarray:
    if w.q.per_tensor:
        return np.full(channels, w.q.scale)
    if w.q.axis != axis or len(w.q.scales) != channels:
        raise Unsupported("weights quantized along another axis than the output channels")
    return np.asarray(w.q.scales)


def _bias(bias, x: QValue, ws: np.ndarray):
    """The bias must hold acc-scaled i32 values (scale in_scale * weight_scale, zero point 0),
    as TFLite's are; then the accumulator adds it as is."""
    if bias is None:
        return None
    if not isinstance(bias, QValue) or bias.q.storage != "int" or bias.q.zp != 0:
        raise Unsupported("bias not quantized to i32 at the accumulator's scale")
    bs = np.asarray(bias.q.scales) if not bias.q.per_tensor else np.full(len(ws), bias.q.scale)
    if len(bs) != len(ws) or not np.allclose(bs, x.q.scale * ws, rtol=1e-5):
        raise Unsupported("bias scale differs from input_scale * weight_scale")
    return bias


def _accumulating(name, weight_axis, out_axis):
    def f(em, env, ins, outs, oq):
        x, w = ins[0], ins[1]
        bias = ins[2] if len(ins) > 2 else None
        # 8-bit activations: i32 accumulators; 16-bit (TFLite's 16x8): i48 accumulators
        # (TOSA's CONV2D i16xi8 -> i48; MATMUL takes equal types: the weights as i16)
        if x.q.bits not in (8, 16) or w.q.bits != 8 or not x.q.per_tensor or oq[0].bits != x.q.bits:
            raise Unsupported("only 8-bit weights with 8- or 16-bit activations")
        rank = len(outs[0].shape)
        oaxis = out_axis(env, rank)
        channels = outs[0].shape[oaxis]
        if not oq[0].per_tensor and (oq[0].axis != oaxis or len(oq[0].scales) != channels):
            raise Unsupported("output scales per channel along another axis than the output channels")
        ws = _weight_scales(w, weight_axis(env, len(w.shape)), channels)
        if x.q.bits == 16:
            if bias is not None:
                raise Unsupported("a bias of 16-bit activations (an i48 accumulator operand)")
            if name == "nn.linear":
                if w.q.zp != 0:
                    raise Unsupported("weights with a zero point for i16 MATMUL (only i8 takes one)")
                w = QValue(em.op("tosa.cast", [w], w.shape, "i16"), w.q)
        bias = _bias(bias, x, ws)
        acc = MAPPINGS[name](em, env, [x, w, bias], outs)[0]
        scales = x.q.scale * ws / np.asarray(oq[0].scales)
        y = rescale(em, acc, oq[0].storage, list(scales) if len(set(scales)) > 1 else float(scales[0]), 0, oq[0].zp,
                    oaxis)
        return [QValue(y, oq[0])]
    return f


def _filter_out_axis(env, rank):
    return 0 if env.get("filter_format", "NCX") in ("NCX", "NXC") else rank - 1


handles("nn.conv")(_accumulating(
    "nn.conv", _filter_out_axis, lambda env, rank: 1 if env.get("data_format", "NCX") == "NCX" else rank - 1))
handles("nn.linear")(_accumulating("nn.linear", lambda env, rank: 0, lambda env, rank: rank - 1))


def _on_storage(name):
    """Operators that only select or move values: they run on the storage, then the result
    is requantized when its parameters differ (max commutes with the monotonic rescale)."""
    def f(em, env, ins, outs, oq):
        x = ins[0]
        if not x.q.per_tensor or (name == "nn.max_pool" and x.q.bits == 32):
            raise Unsupported("per-channel activations or i32 pooling")
        if name == "math.iden":     # the value itself (a u8 argument must meet RESCALEs only)
            return [requantize(em, x, oq[0])]
        y = MAPPINGS[name](em, env, [x], [Type(outs[0].shape, x.dtype)])[0]
        return [requantize(em, QValue(y, x.q), oq[0])]
    return f


# pure data movement: also for u8 values (their bits move as i8; RESCALE reads them)
MOVES = ("math.iden", "layout.reshape", "layout.flatten", "layout.unflatten", "layout.squeeze",
         "layout.unsqueeze", "layout.transpose", "layout.slice", "layout.tile", "layout.concat")
for _n in ("nn.max_pool",) + MOVES[:-1]:
    HANDLERS[_n] = _on_storage(_n)


@handles("nn.avg_pool")
def _avg_pool(em, env, ins, outs, oq):
    """TOSA AVG_POOL2D on the stored values (the same parameters in and out, borders not
    counted: TFLite's average pooling)."""
    x = ins[0]
    if not env.get("ignore_border", True) or x.q.bits != 8 or not x.q.per_tensor or x.q != oq[0]:
        raise Unsupported("average pooling that counts the border or changes the quantization")
    return [QValue(MAPPINGS["nn.avg_pool"](em, env, [Value(x.ssa, x.shape, x.dtype)], outs)[0], oq[0])]


def _add_sub(name):
    def f(em, env, ins, outs, oq):
        a, b = ins
        if not (a.q.per_tensor and b.q.per_tensor and oq[0].per_tensor) or a.q.bits != b.q.bits or a.q.bits == 32:
            raise Unsupported("per-channel or mixed-width operands")
        # the guide's add: both sides to i32 at 2 * max(scale) with 20 (8-bit) / 15 (16-bit)
        # bits of headroom, add, one rescale to the output (TFLite's kernel)
        shift = 20 if a.q.bits == 8 else 15
        top = 2.0 * max(a.q.scale, b.q.scale)
        ra = rescale(em, a, "int", (1 << shift) * a.q.scale / top, a.q.zp, 0)
        rb = rescale(em, b, "int", (1 << shift) * b.q.scale / top, b.q.zp, 0)
        ra, rb = _aligned(em, env, [ra, rb], len(outs[0].shape))
        y = em.op("tosa.add" if name == "math.add" else "tosa.sub", [ra, rb], outs[0].shape, "int")
        return [QValue(rescale(em, y, oq[0].storage, top / (oq[0].scale * (1 << shift)), 0, oq[0].zp), oq[0])]
    return f


HANDLERS["math.add"] = _add_sub("math.add")
HANDLERS["math.sub"] = _add_sub("math.sub")


@handles("math.mul")
def _mul_q(em, env, ins, outs, oq):
    """The guide's mul: both sides to i32 without their zero points, MUL, one rescale by
    scale_a * scale_b / scale_out."""
    a, b = ins
    if not (a.q.per_tensor and b.q.per_tensor and oq[0].per_tensor) or 32 in (a.q.bits, b.q.bits):
        raise Unsupported("per-channel or 32-bit operands")
    ra, rb = rescale(em, a, "int", 1.0, a.q.zp, 0), rescale(em, b, "int", 1.0, b.q.zp, 0)
    ra, rb = _aligned(em, env, [ra, rb], len(outs[0].shape))
    y = em.op("tosa.mul", [ra, rb, _shift(em)], outs[0].shape, "int")
    return [QValue(rescale(em, y, oq[0].storage, a.q.scale * b.q.scale / oq[0].scale, 0, oq[0].zp), oq[0])]


def _max_min(name):
    def f(em, env, ins, outs, oq):
        """The same parameters on both sides and out: compared on the stored values (TOSA's
        MAXIMUM/MINIMUM take i32, so via casts), as the TFLite legalization does."""
        a, b = ins
        if a.q != oq[0] or b.q != oq[0] or not oq[0].per_tensor:
            raise Unsupported("operands quantized differently from the result")
        wide = [x if x.dtype == "int" else em.op("tosa.cast", [x], x.shape, "int") for x in (a, b)]
        wa, wb = _aligned(em, env, wide, len(outs[0].shape))
        y = em.op(name, [wa, wb], outs[0].shape, "int")
        if oq[0].storage != "int":
            y = em.op("tosa.cast", [y], y.shape, oq[0].storage)
        return [QValue(y, oq[0])]
    return f


HANDLERS["math.max"] = _max_min("tosa.maximum")
HANDLERS["math.min"] = _max_min("tosa.minimum")


@handles("layout.concat")
def _concat_q(em, env, ins, outs, oq):
    """Each item requantized to the result's parameters (a RESCALE where they differ), then
    concatenated."""
    items = [requantize(em, x, oq[0]) for x in ins[0]]
    return [QValue(MAPPINGS["layout.concat"](em, env, [items], [Type(outs[0].shape, oq[0].storage)])[0], oq[0])]


# ------------------------------------------------------------------ the graph's plan

class Plan:
    """Which tensors of a composed graph are quantized (by @quantize entries) and, with
    `integer`, how their integer forms flow through the emission."""

    def __init__(self, g, integer: bool):
        self.integer = integer
        self.after: dict[int, object] = {}      # id(tensor before quantization) -> quantization node
        self.done: set[int] = set()             # quantization nodes already accounted for
        self.raw: dict[int, QValue] = {}        # id(tensor before quantization) -> its quantized value

        def scan(nodes):
            for n in nodes:
                if getattr(n, "quantizes", None) and n.op == QUANTIZE:
                    self.after[id(n.inputs[0])] = n
                for sub, _ in n.branches or []:
                    scan(sub)
        scan(g.nodes)

    def q_of(self, t) -> QParams | None:
        node = self.after.get(id(t))
        return qparams(node, len(t.type.shape)) if node is not None and self.integer else None

    def variable(self, em, t, data) -> Value | None:
        """The value of a variable with data; None to let the caller build a real constant
        (after `real_data` for integer items under a quantized real declaration)."""
        node = self.after.get(id(t))
        if node is None:
            return None
        q = self.q_of(t)
        if q is None:
            return None
        v = QValue(em.const(storage_data(data, q), t.type.shape, q.storage), q)
        self.bind(node, t, v)
        return v

    def real_variable_data(self, t, data):
        node = self.after.get(id(t))
        arr = np.asarray(data)
        if node is not None and t.type.dtype == "real" and arr.dtype.kind in "iu":
            return real_data(arr, None, node)
        return data

    def argument(self, t, ssa: str) -> Value | None:
        q = self.q_of(t)
        if q is None:
            return None
        v = QValue(Value(ssa, t.type.shape, q.storage), q)
        self.bind(self.after[id(t)], t, v)
        return v

    def bind(self, node, t, v: QValue):
        self.done.add(id(node))
        self.raw[id(t)] = v
        self.values[id(node.outputs[0])] = v

    def emit(self, em, node, values, get) -> bool:
        """Emit `node` the integer way when it is one; False to leave it to the float path."""
        self.values = values
        if id(node) in self.done:
            return True
        if node.op == QUANTIZE and getattr(node, "quantizes", None):
            q = self.q_of(node.inputs[0])
            if q is None:
                return False
            x = get(node.inputs[0], values)
            v = None
            if isinstance(x, QValue):
                try:
                    v = requantize(em, x, q) if x.q != q else x
                except Unsupported:     # e.g. u8 to u8, scales per channel along another axis
                    x = to_real(em, x)
            if v is None:
                v = from_real(em, x, q, node.outputs[0].type)
            values[id(node.outputs[0])] = v
            return True
        ins = [get(t, values) for t in node.inputs]
        f = HANDLERS.get(node.op)
        qnodes = [self.after.get(id(t)) for t in node.outputs]
        oq = [self.q_of(t) for t in node.outputs]
        tensors = [x for v in ins if v is not None for x in (v if isinstance(v, list) else [v])]
        if f is None or any(q is None for q in oq) or not all(isinstance(v, QValue) for v in tensors):
            return False
        if node.op not in MOVES and any(q.unsigned for q in oq + [v.q for v in tensors]):
            return False        # u8 values compute in reals (to_real widens them by a RESCALE)
        try:
            outs = f(em, node.instance.env.values, ins, [t.type for t in node.outputs], oq)
        except Unsupported as err:
            if node.op in WHOLE:    # kept whole for its integer form: no @compose left to expand
                raise NnefError(node.loc, f"'{node.op}' has no integer form here ({err}); please report") from None
            return False
        for t, qn, v in zip(node.outputs, qnodes, outs):
            self.bind(qn, t, v)
        return True

    @staticmethod
    def real(em, v):
        """A value the float path can take: quantized ones dequantized."""
        if isinstance(v, list):
            return [Plan.real(em, x) for x in v]
        return to_real(em, v) if isinstance(v, QValue) else v
