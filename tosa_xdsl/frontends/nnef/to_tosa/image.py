"""image.* resizes -> TOSA RESIZE where it computes what the definition computes.

The definitions sample input coordinate x = o * scale + offset (draft 4.5) and round it
(nearest) or interpolate between floor(x) and floor(x) + 1 (linear, both clamped into the
input). TOSA RESIZE samples y = (o * scale_d + offset) / scale_n in exact integer arithmetic,
takes floor(y + 1/2) for NEAREST and interpolates for BILINEAR, clamping into the input. So
with scale_n the common denominator of the definition's (rational) scale and offset, the
rounding modes are coordinate shifts: FLOOR = floor(x) = floor((x - 1/2) + 1/2),
ROUND_PREFER_CEIL = floor(x + 1/2), ROUND_PREFER_FLOOR = ceil(x - 1/2) = floor(x + 1/2 - 1/n)
and CEIL = floor(x + 1 - 1/n) (x is a multiple of 1/n; n even). Attribute values outside
RESIZE's ERROR_IF ranges (scale, offset, border) raise Unsupported: road 2 or a located error.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from tosa_xdsl.frontends.nnef.to_tosa.emit import as_nhwc
from tosa_xdsl.frontends.nnef.to_tosa.ops import Unsupported, mapping

HALF = Fraction(1, 2)


def _lcm(*v: int) -> int:
    out = 1
    for x in v:
        out = out * x // math.gcd(out, x)
    return out


def _coordinates(insize: int, size: int, transform: str) -> tuple[Fraction, Fraction]:
    """The definition's exact scale and offset of one axis."""
    if transform == "ALIGNED":
        scale = Fraction(0) if size <= 1 else Fraction(insize - 1, size - 1)
    else:
        scale = Fraction(insize, size)
    offset = scale / 2 - HALF if transform == "SYMMETRIC" else Fraction(0)
    return scale, offset


SHIFT = {   # rounding -> (shift of x in units of 1, extra shift in units of 1/n)
    "ROUND_PREFER_CEIL": (Fraction(0), 0), "ROUND_PREFER_FLOOR": (Fraction(0), -1),
    "FLOOR": (-HALF, 0), "CEIL": (HALF, -1), None: (Fraction(0), 0),
}


def resize_params(insize: int, outsize: int, scale: Fraction, offset: Fraction,
                  rounding: str | None) -> tuple[int, int, int, int]:
    """(scale_n, scale_d, offset, border) of one axis, checked against RESIZE's ERROR_IFs."""
    if scale <= 0:
        raise Unsupported("a zero resize scale")
    shift, ulps = SHIFT[rounding]
    n = _lcm(scale.denominator, offset.denominator, 2 if rounding else 1)
    d = int(scale * n)
    off = int((offset + shift) * n) + ulps
    border = (outsize - 1) * d - (insize - 1) * n + off
    ok = (n <= 1 << 11 and d < 16 * n and -n <= off < 16 * n and -16 * n <= border < n
          and max(insize, outsize) < 16384)
    if not ok:
        raise Unsupported("resize parameters outside TOSA RESIZE's ranges")
    return n, d, off, border


def _resize(em, x, axes, out_sizes, params, mode, outs):
    view, back = as_nhwc(em, x, axes)
    params = params + [(1, 1, 0, 0)] * (2 - len(params))
    (ny, dy, oy, by), (nx, dx, ox, bx) = params
    out = [view.shape[0]] + list(out_sizes) + [1] * (2 - len(out_sizes)) + [1]
    y = em.op("tosa.resize", [view, em.shape([ny, dy, nx, dx]), em.shape([oy, ox]), em.shape([by, bx])],
              out, "real", f"mode = {mode}")
    return [back(y)]


def _axes(env, x, key="size"):
    """The resized axes and their attribute values, without the axes left as they are (size
    equal to the extent, factor 1: every transform and rounding maps i to i there; ONNX
    converters list all four axes of an NCHW image)."""
    d = len(x.shape)
    axes, values = [], []
    for a, v in zip(env["axes"], env[key]):
        a = a + d if a < 0 else a
        if (key == "size" and v == x.shape[a]) or (key == "factor" and v == 1):
            continue
        axes.append(a)
        values.append(v)
    if len(axes) > 2:
        raise Unsupported("resizing more than two axes")
    return axes, values


def _resize_to(em, env, x, outs, rounding, mode):
    axes, sizes = _axes(env, x)
    params = []
    for a, size in zip(axes, sizes):
        scale, offset = _coordinates(x.shape[a], size, env["coordinate_transform"])
        params.append(resize_params(x.shape[a], size, scale, offset, rounding))
    return _resize(em, x, axes, sizes, params, mode, outs)


@mapping("image.nearest_resize", how="TOSA resize NEAREST (every coordinate transform and rounding method; "
         "other axes folded into N)")
def _nearest_resize(em, env, ins, outs):
    return _resize_to(em, env, ins[0], outs, env["rounding_method"], "NEAREST_NEIGHBOR")


@mapping("image.linear_resize", how="TOSA resize BILINEAR (other axes folded into N)")
def _linear_resize(em, env, ins, outs):
    return _resize_to(em, env, ins[0], outs, None, "BILINEAR")


def _by_factor(em, env, x, outs, up: bool):
    """nearest_upsample reads input[o / factor] (floor), nearest_downsample input[o * factor]."""
    axes, factors = _axes(env, x, "factor")
    sizes = [x.shape[a] * f if up else x.shape[a] // f for a, f in zip(axes, factors)]
    params = [resize_params(x.shape[a], n, Fraction(1, f) if up else Fraction(f), Fraction(0), "FLOOR")
              for a, f, n in zip(axes, factors, sizes)]
    return _resize(em, x, axes, sizes, params, "NEAREST_NEIGHBOR", outs)


@mapping("image.nearest_upsample", how="TOSA resize NEAREST (scale factor/1, floor)")
def _nearest_upsample(em, env, ins, outs):
    return _by_factor(em, env, ins[0], outs, True)


@mapping("image.nearest_downsample", how="TOSA resize NEAREST (scale 1/factor)")
def _nearest_downsample(em, env, ins, outs):
    return _by_factor(em, env, ins[0], outs, False)


def cubic_weights(insize: int, size: int, transform: str, a: float) -> np.ndarray:
    """[size, insize]: output o's weights over the input along one axis. The draft gives
    cubic_resize no formulas; this is linear_resize's scheme with four taps: the coordinate
    r = o * scale + offset of the definitions, taps floor(r) - 1 .. floor(r) + 2 clamped into
    the input (as linear_resize's `|.. <> 0 : s - 1|`), Keys' cubic kernel with `coeff_a`
    (ONNX Resize cubic, exclude_outside = 0; antialias is not applied, as linear_resize's
    formula does not apply it)."""
    scale, offset = _coordinates(insize, size, transform)
    w = np.zeros((size, insize))
    for o in range(size):
        r = o * scale + offset
        base = math.floor(r)
        t = float(r - base)
        for j in (-1, 0, 1, 2):
            d = abs(t - j)
            k = ((a + 2) * d - (a + 3)) * d * d + 1 if d <= 1 else ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
            w[o, min(max(base + j, 0), insize - 1)] += k
    return w


@mapping("image.cubic_resize", how="TOSA matmul per resized axis by the cubic (Keys, coeff_a) weights, "
         "the other axes folded into its rows")
def _cubic_resize(em, env, ins, outs):
    """Cubic interpolation is linear in the input and separable: per resized axis, one MATMUL
    of the input (that axis last, the others as rows) by the compile-time weight matrix."""
    x = ins[0]
    d = len(x.shape)
    for a, size in zip(env["axes"], env["size"]):
        a = a + d if a < 0 else a
        if size == x.shape[a] or x.shape[a] == 0:
            continue        # the identity: every transform samples the pixels themselves
        w = cubic_weights(x.shape[a], size, env["coordinate_transform"], float(env["coeff_a"]))
        perm = [i for i in range(d) if i != a] + [a]
        xt = em.transpose(x, perm)
        rows = math.prod(xt.shape[:-1])
        lhs = em.reshape(xt, [1, rows, x.shape[a]])
        rhs = em.const(w.T.astype(np.float32), [1, x.shape[a], size], "real")
        y = em.op("tosa.matmul", [lhs, rhs, em.zp("real"), em.zp("real")], [1, rows, size], "real")
        y = em.reshape(y, xt.shape[:-1] + [size])
        x = em.transpose(y, [perm.index(i) for i in range(d)])
    if x is ins[0]:
        x = em.op("tosa.identity", [x], x.shape, x.dtype)
    return [x]
