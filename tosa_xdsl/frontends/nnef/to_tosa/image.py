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


def _axes(env, x):
    d = len(x.shape)
    axes = [a + d if a < 0 else a for a in env["axes"]]
    if len(axes) > 2:
        raise Unsupported("resizing more than two axes")
    return axes


@mapping("image.nearest_resize", how="TOSA resize NEAREST (every coordinate transform and rounding method; "
         "other axes folded into N)")
def _nearest_resize(em, env, ins, outs):
    x = ins[0]
    axes = _axes(env, x)
    params = []
    for a, size in zip(axes, env["size"]):
        scale, offset = _coordinates(x.shape[a], size, env["coordinate_transform"])
        params.append(resize_params(x.shape[a], size, scale, offset, env["rounding_method"]))
    return _resize(em, x, axes, env["size"], params, "NEAREST_NEIGHBOR", outs)


@mapping("image.linear_resize", how="TOSA resize BILINEAR (other axes folded into N)")
def _linear_resize(em, env, ins, outs):
    x = ins[0]
    axes = _axes(env, x)
    params = []
    for a, size in zip(axes, env["size"]):
        scale, offset = _coordinates(x.shape[a], size, env["coordinate_transform"])
        params.append(resize_params(x.shape[a], size, scale, offset, None))
    return _resize(em, x, axes, env["size"], params, "BILINEAR", outs)


@mapping("image.nearest_upsample", how="TOSA resize NEAREST (scale factor/1, floor)")
def _nearest_upsample(em, env, ins, outs):
    x = ins[0]
    axes = _axes(env, x)
    params = [resize_params(x.shape[a], x.shape[a] * f, Fraction(1, f), Fraction(0), "FLOOR")
              for a, f in zip(axes, env["factor"])]
    return _resize(em, x, axes, [x.shape[a] * f for a, f in zip(axes, env["factor"])], params, "NEAREST_NEIGHBOR", outs)


@mapping("image.nearest_downsample", how="TOSA resize NEAREST (scale 1/factor)")
def _nearest_downsample(em, env, ins, outs):
    x = ins[0]
    axes = _axes(env, x)
    params = [resize_params(x.shape[a], x.shape[a] // f, Fraction(f), Fraction(0), "FLOOR")
              for a, f in zip(axes, env["factor"])]
    return _resize(em, x, axes, [x.shape[a] // f for a, f in zip(axes, env["factor"])], params, "NEAREST_NEIGHBOR", outs)
