"""quant.* (draft 4.6: fake quantization, real in and real out) -> short TOSA compositions.

zero_point_linear_quantize: q = clamp(zp + round(x / scale), m, r); y = (q - zp) * scale. The
rounding is TOSA CAST's float -> int32 (round to nearest, ties to even: what road 2's
math.roundeven computes) and the clamp an int32 CLAMP. min_max_linear_quantize: q =
round((clamp(x, min, max) - min) / (max - min) * r); y = q / r * (max - min) + min, rounding
by a CAST to int32 and back. Division by a compile-time scale is a multiplication by its
reciprocal (1 ulp from the formula's division). Per-channel attributes become constants
shaped along `channel_axis`."""

from __future__ import annotations

import numpy as np

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.to_tosa.ops import Unsupported, _mul, mapping


def _per_channel(em, values, x, axis, dtype):
    """A constant broadcasting `values` (one per channel, or one) along x's channel axis."""
    vals = values if isinstance(values, list) else [values]
    rank = len(x.shape)
    if len(set(vals)) <= 1:
        return em.const([vals[0]], [1] * rank, dtype) if rank else em.const(vals[0], [], dtype)
    axis = axis + rank if axis < 0 else axis
    shape = [1] * rank
    shape[axis] = len(vals)
    return em.const(np.asarray(vals), shape, dtype)


def _cast(em, x, dtype):
    return em.op("tosa.cast", [x], x.shape, dtype)


def levels(bits: int, signed: bool, symmetric: bool) -> tuple[int, int]:
    """The definition's clamp range (m, r) of zero_point_linear_quantize."""
    r = 2 ** (bits - 1) - 1 if signed else 2 ** bits - 1
    m = 0 if not signed else (-r if symmetric else -r - 1)
    return m, r


def quantize_int(em, x, zero_point, scale, bits, signed, symmetric, axis, out):
    """The definition's `zp + int(round(x / sc)) >? m <? r` as an int32 value."""
    m, r = levels(bits, signed, symmetric)
    inv = [1.0 / v for v in scale] if isinstance(scale, list) else 1.0 / scale
    zp = _per_channel(em, zero_point, x, axis, "int")
    scaled = _mul(em, x, _per_channel(em, inv, x, axis, "real"), out)
    q = em.op("tosa.add", [_cast(em, scaled, "int"), zp], x.shape, "int")
    return em.op("tosa.clamp", [q], x.shape, "int", f"min_val = {m} : i32, max_val = {r} : i32")


def dequantize(em, q, zero_point, scale, axis, out):
    """`real(q - zp) * sc` of an int32 value."""
    zp = _per_channel(em, zero_point, q, axis, "int")
    centered = _cast(em, em.op("tosa.sub", [q, zp], q.shape, "int"), "real")
    return _mul(em, centered, _per_channel(em, scale, q, axis, "real"), out)


@mapping("quant.zero_point_linear_quantize", how="TOSA mul+cast(round)+add+clamp(i32)+sub+cast+mul")
def _zero_point(em, env, ins, outs):
    x = ins[0]
    bits, signed, symmetric = env["bits"], env.get("signed", True), env.get("symmetric", False)
    if bits > (32 if signed else 31):
        # the clamp levels m, r do not fit int (i32) for road 2 either: a diagnostic (located
        # at the entry by the emission), not an invalid module
        raise NnefError(None, f"quantization to {bits} {'signed' if signed else 'unsigned'} bits: its levels do "
                        "not fit 32-bit integers")
    if bits > 31:
        raise Unsupported("quantization to more than 31 bits")
    axis = env.get("channel_axis", 1)
    q = quantize_int(em, x, env["zero_point"], env["scale"], bits, signed, symmetric, axis, outs[0])
    return [dequantize(em, q, env["zero_point"], env["scale"], axis, outs[0])]


@mapping("quant.min_max_linear_quantize", how="TOSA maximum+minimum+sub+mul+cast(round)+cast+mul+add")
def _min_max(em, env, ins, outs):
    x = ins[0]
    bits, signed, symmetric = env["bits"], env.get("signed", True), env.get("symmetric", False)
    if bits > 24:
        raise Unsupported("quantization to more than 24 bits (levels not exact in f32)")
    r = float(2 ** bits - 1 - int(signed and symmetric))
    axis = env.get("channel_axis", 1)
    lo, hi = env["min"], env["max"]
    n = max(len(v) if isinstance(v, list) else 1 for v in (lo, hi))
    pairs = list(zip(*(v if isinstance(v, list) else [v] * n for v in (lo, hi))))
    # the definition's f32 arithmetic: sc = mx - mn
    spans = [float(np.float32(b) - np.float32(a)) for a, b in pairs]
    if any(s <= 0 for s in spans):
        raise Unsupported("min_max quantization with max <= min")
    mn = _per_channel(em, [a for a, _ in pairs], x, axis, "real")
    mx = _per_channel(em, [b for _, b in pairs], x, axis, "real")
    clamped = em.op("tosa.minimum", [em.op("tosa.maximum", [x, mn], x.shape, "real"), mx], x.shape, "real")
    shifted = em.op("tosa.sub", [clamped, mn], x.shape, "real")
    unit = _mul(em, shifted, _per_channel(em, [1.0 / s for s in spans], x, axis, "real"), outs[0])
    levels = _mul(em, unit, _per_channel(em, r, x, axis, "real"), outs[0])
    q = _cast(em, _cast(em, levels, "int"), "real")
    frac = _mul(em, q, _per_channel(em, 1.0 / r, x, axis, "real"), outs[0])
    y = _mul(em, frac, _per_channel(em, spans, x, axis, "real"), outs[0])
    return [em.op("tosa.add", [y, mn], x.shape, "real")]
