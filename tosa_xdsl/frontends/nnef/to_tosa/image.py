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

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.to_tosa.emit import MAX_CONST_ELEMENTS, as_nhwc
from tosa_xdsl.frontends.nnef.to_tosa.ops import (
    Type,
    Unsupported,
    _mul,
    _shift,
    mapping,
)

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
    # quantized values (to_tosa/integer_layout.py): BILINEAR widens i8 -> i32, i16 -> i48
    dtype = {"i8": "int", "i16": "i48"}.get(x.dtype, x.dtype) if mode == "BILINEAR" else x.dtype
    y = em.op("tosa.resize", [view, em.shape([ny, dy, nx, dx]), em.shape([oy, ox]), em.shape([by, bx])],
              out, dtype, f"mode = {mode}")
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
    if size * insize > MAX_CONST_ELEMENTS:       # the table is a constant of both roads
        raise NnefError(None, f"a cubic resize from {insize} to {size} needs a weight table of "
                        f"{size * insize} elements, too large to materialize (limit {MAX_CONST_ELEMENTS})")
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


@mapping("image._nearest_grid_sample", how="TOSA arithmetic on the grid (cast rounds), the padding as "
         "select/clamp of the indices, one gather of the flattened pixels")
def _nearest_grid_sample(em, env, ins, outs):
    """The definition's formula step by step: per spatial axis k (read from grid channel
    d-1-k), x = (g + 1) * 0.5 * s - 0.5 (or * (s - 1) when aligned), i = int(round(x)) (CAST
    rounds half to even, as road 2's math.roundeven); REPLICATE clamps i, REFLECT remaps
    i < 0 to -i and i > s - 1 to 2 (s - 1) - i (then clamps: the formula reflects once), ZEROS
    clamps for the read and zeroes the samples with an index outside. The flattened index
    picks pixels of the input viewed as [n, S, c] with one GATHER."""
    x, grid = ins
    n, c, sizes = x.shape[0], x.shape[1], x.shape[2:]
    d = len(sizes)
    z = grid.shape[1:-1]
    big = math.prod(z)
    if x.dtype != "real" or min(sizes, default=0) == 0 or big == 0:
        raise Unsupported("grid sampling of empty or non-real tensors")
    padding, aligned = env.get("padding", "ZEROS"), env.get("aligned", False)
    rows = [n, big]

    def const(v, dtype):
        return em.const([v], [1, 1], dtype)

    def int_op(name, a, b):
        return em.op(name, [a, b] + ([_shift(em)] if name == "tosa.mul" else []), rows, "int")

    flat, valid = None, None
    stride = 1
    for k in reversed(range(d)):
        s = sizes[k]
        gk = em.op("tosa.slice", [grid, em.shape([0] * (d + 1) + [d - 1 - k]), em.shape([n] + list(z) + [1])],
                   [n] + list(z) + [1], "real")
        g = em.reshape(gk, rows)
        g = em.op("tosa.add", [g, const(1.0, "real")], rows, "real")
        g = _mul(em, g, const(0.5, "real"), Type(rows, "real"))
        if aligned:
            r = _mul(em, g, const(float(s - 1), "real"), Type(rows, "real"))
        else:
            r = em.op("tosa.sub", [_mul(em, g, const(float(s), "real"), Type(rows, "real")), const(0.5, "real")],
                      rows, "real")
        i = em.op("tosa.cast", [r], rows, "int")
        if padding == "ZEROS":
            inside = em.op("tosa.logical_and", [em.op("tosa.greater_equal", [i, const(0, "int")], rows, "bool"),
                                                 em.op("tosa.greater", [const(s, "int"), i], rows, "bool")],
                           rows, "bool")
            valid = inside if valid is None else em.op("tosa.logical_and", [valid, inside], rows, "bool")
        elif padding == "REFLECT":
            neg = em.op("tosa.negate", [i, em.zp("int"), em.zp("int")], rows, "int")
            i = em.op("tosa.select", [em.op("tosa.greater", [const(0, "int"), i], rows, "bool"), neg, i], rows, "int")
            over = int_op("tosa.sub", const(2 * (s - 1), "int"), i)
            i = em.op("tosa.select", [em.op("tosa.greater", [i, const(s - 1, "int")], rows, "bool"), over, i],
                      rows, "int")
        i = em.op("tosa.clamp", [i], rows, "int", f"min_val = 0 : i32, max_val = {s - 1} : i32")
        term = i if stride == 1 else int_op("tosa.mul", i, const(stride, "int"))
        flat = term if flat is None else int_op("tosa.add", flat, term)
        stride *= s
    pixels = em.transpose(em.reshape(x, [n, c, stride]), [0, 2, 1])
    y = em.op("tosa.gather", [pixels, flat], [n, big, c], "real")
    y = em.transpose(y, [0, 2, 1])
    if valid is not None:
        mask = em.reshape(valid, [n, 1, big])
        y = em.op("tosa.select", [mask, y, em.const([0.0], [1, 1, 1], "real")], [n, c, big], "real")
    return [em.reshape(y, outs[0].shape)]
