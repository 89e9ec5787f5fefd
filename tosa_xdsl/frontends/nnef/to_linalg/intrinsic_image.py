"""image.max_roi_pool, image.avg_roi_pool (draft 4.5.3, "intrinsic operators": attributes
and shapes only), image._cubic_grid_sample (4.5.4, no body) and image.cubic_resize (4.5.2,
no formulas)."""

from __future__ import annotations

import itertools
import math

import numpy as np

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.to_linalg.text import Text
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value, ttype
from tosa_xdsl.frontends.nnef.to_tosa.image import cubic_weights


def _nest(t: Text, bounds, carried, body):
    """Loops over the (lower, upper) index pairs `bounds`, outermost first, carrying
    `carried` [(init, type)]; `body(ivs, args)` returns the values to carry on. Returns the
    final values."""
    def level(k, args, ivs):
        if k == len(bounds):
            return body(ivs, args)
        with t.loop(bounds[k][0], bounds[k][1], [(a, ty) for a, (_, ty) in zip(args, carried)]) as lp:
            lp.yields = level(k + 1, lp.args, ivs + [lp.iv])
        return lp.results
    return level(0, [c for c, _ in carried], [])


def _to_index(t: Text, x: str) -> str:
    return t.cast("index_cast", t.cast("fptosi", x, "f32", "i32"), "i32", "index")


def _to_f32(t: Text, i: str) -> str:
    return t.cast("sitofp", t.cast("index_cast", i, "index", "i32"), "i32", "f32")


def roi_pool(em: Emitter, node, ins, kind: str) -> list[Value]:
    """ROI pooling as ONNX MaxRoiPool computes it (Caffe's Fast R-CNN layer), with spatial
    scale 1 and any number d of spatial axes; avg_roi_pool averages the same bins. Row r of
    `rois` is [start_0, .., start_d-1, end_0, .., end_d-1] in input pixels along the spatial
    axes in order (for images [y1, x1, y2, x2]; ONNX orders [x1, y1, x2, y2] after the batch
    index), `index[r]` the batch item (clamped into the batch). Per axis: start and end rounded
    half away from zero, the ROI's extent max(end - start + 1, 1), bin p covering
    [floor(p * extent / size), ceil((p + 1) * extent / size)) shifted by start and clipped to
    the input; an empty bin gives 0."""
    x, rois, index = ins
    sizes = list(node.instance.env.values["output_size"])
    b, c, *s = x.shape
    n, d = rois.shape[0], len(s)
    if d == 0:
        raise NnefError(node.loc, f"'{node.op}' needs at least one spatial axis")
    out_shape = [n, c, *sizes]
    otype = ttype(out_shape, "real")
    t = Text(em)
    out0 = t.zeros(out_shape, "real")
    zero = t.f32(0.0)

    def per_roi(ivs, args):
        r = ivs[0]
        bi = t.cast("index_cast", t.extract(index, [r]), "i32", "index")
        bi = t.max_index(t.min_index(bi, t.index(b - 1)), t.c0)
        starts, bins = [], []
        for a in range(d):
            lo = _to_index(t, t.math("round", t.extract(rois, [r, t.index(a)])))
            hi = _to_index(t, t.math("round", t.extract(rois, [r, t.index(d + a)])))
            ext = t.max_index(t.bin("addi", t.bin("subi", hi, lo, "index"), t.c1, "index"), t.c1)
            starts.append(lo)
            bins.append(t.bin("divf", _to_f32(t, ext), t.f32(float(sizes[a])), "f32"))

        def per_bin(ivs, args):
            ch, ps = ivs[0], ivs[1:]
            window = []
            for a in range(d):
                p = _to_f32(t, ps[a])
                lo = _to_index(t, t.math("floor", t.bin("mulf", p, bins[a], "f32")))
                hi = _to_index(t, t.math("ceil", t.bin("mulf", t.bin("addf", p, t.f32(1.0), "f32"), bins[a], "f32")))
                clip = [t.min_index(t.max_index(t.bin("addi", v, starts[a], "index"), t.c0), t.index(s[a]))
                        for v in (lo, hi)]
                window.append(clip)
            empty = t.or_(*[t.cmpi("sle", hi, lo) for lo, hi in window])
            init = t.f32(-math.inf) if kind == "max" else zero

            def add(ivs, acc):
                v = t.extract(x, [bi, ch, *ivs])
                return [t.bin("maximumf" if kind == "max" else "addf", acc[0], v, "f32")]
            acc = _nest(t, window, [(init, "f32")], add)[0]
            if kind == "avg":
                count = t.f32(1.0)
                for lo, hi in window:
                    count = t.bin("mulf", count, _to_f32(t, t.bin("subi", hi, lo, "index")), "f32")
                acc = t.bin("divf", acc, t.select(empty, t.f32(1.0), count, "f32"), "f32")
            v = t.select(empty, zero, acc, "f32")
            return [t.insert(v, args[0], otype, [r, ch, *ps])]
        return _nest(t, [(t.c0, t.index(c))] + [(t.c0, t.index(z)) for z in sizes], [(args[0], otype)], per_bin)

    res = _nest(t, [(t.c0, t.index(n))], [(out0, otype)], per_roi)[0]
    return [Value(res, out_shape, "real")]


A_CUBIC = -0.75


def cubic_grid_sample(em: Emitter, node, ins) -> list[Value]:
    """Bicubic (d-cubic) sampling: the draft gives `_cubic_grid_sample` attributes only (no
    coefficient: ONNX GridSample's and PyTorch's A = -0.75, Keys' kernel). The grid's
    coordinates, padding and reflection are those of the draft's `_linear_grid_sample`
    formulas (4.5.4): `g = (grid[.., di] + 1) / 2` with the grid's last axis reversed,
    `x = aligned ? g * (s - 1) : g * s - 0.5`; taps floor(x) - 1 .. floor(x) + 2 weighted by
    the cubic kernel at their distance to x; ZEROS skips taps outside, REPLICATE clamps them,
    REFLECT remaps `|i <> -i : 2 * (s - 1) - i|` (about the border pixels' centres; then
    clamped for taps beyond one reflection)."""
    env = node.instance.env.values
    x, grid = ins
    n, c, *s = x.shape
    d = len(s)
    z = grid.shape[1:-1]
    if not 1 <= d <= 3:
        raise NnefError(node.loc, f"'{node.op}' is lowered for 1 to 3 spatial axes, not {d} (4^d taps unrolled)")
    padding, aligned = env["padding"], env["aligned"]
    out_shape = [n, c, *z]
    otype = ttype(out_shape, "real")
    t = Text(em)
    out0 = t.zeros(out_shape, "real")
    one, half, zero, A = t.f32(1.0), t.f32(0.5), t.f32(0.0), t.f32(A_CUBIC)

    def f(op, a, b):
        return t.bin(op, a, b, "f32")

    def kernel(u):
        """Keys' cubic at distance u: 1 - (A+3)u^2 + (A+2)u^3 for u <= 1, A(u^3 - 5u^2 + 8u - 4) for 1 < u < 2."""
        near = f("addf", f("mulf", f("mulf", f("subf", f("mulf", t.f32(A_CUBIC + 2), u), t.f32(A_CUBIC + 3)), u), u), one)
        far = f("subf", f("mulf", f("addf", f("mulf", f("subf", f("mulf", A, u), f("mulf", t.f32(5.0), A)), u),
                                     f("mulf", t.f32(8.0), A)), u), f("mulf", t.f32(4.0), A))
        return t.select(t.cmpf("ole", u, one), near, far, "f32")

    def per_point(ivs, args):
        ni, zs = ivs[0], ivs[1:]
        taps, valid = [], []          # per axis: 4 (index, weight), 4 in-range flags
        for a in range(d):
            g = t.extract(grid, [ni, *zs, t.index(d - 1 - a)])
            g = f("mulf", f("addf", g, one), half)
            pos = f("mulf", g, t.f32(float(s[a] - 1))) if aligned else f("subf", f("mulf", g, t.f32(float(s[a]))), half)
            fl = t.math("floor", pos)
            frac = f("subf", pos, fl)
            base = _to_index(t, fl)
            axis_taps, axis_valid = [], []
            for k in range(4):
                i = t.bin("addi", base, t.index(k - 1), "index")
                u = t.math("absf", f("subf", frac, t.f32(float(k - 1))))
                w = kernel(u)
                inside = t.and_(t.cmpi("sge", i, t.c0), t.cmpi("slt", i, t.index(s[a])))
                if padding == "REFLECT":
                    i = t.select(t.cmpi("slt", i, t.c0), t.bin("subi", t.c0, i, "index"), i, "index")
                    i = t.select(t.cmpi("sge", i, t.index(s[a])),
                                 t.bin("subi", t.index(2 * (s[a] - 1)), i, "index"), i, "index")
                i = t.max_index(t.min_index(i, t.index(s[a] - 1)), t.c0)
                axis_taps.append((i, w))
                axis_valid.append(inside)
            taps.append(axis_taps)
            valid.append(axis_valid)
        weights = []
        for combo in itertools.product(range(4), repeat=d):
            w = taps[0][combo[0]][1]
            for a in range(1, d):
                w = f("mulf", w, taps[a][combo[a]][1])
            if padding == "ZEROS":
                ok = t.and_(*[valid[a][combo[a]] for a in range(d)])
                w = t.select(ok, w, zero, "f32")
            weights.append(([taps[a][combo[a]][0] for a in range(d)], w))

        def per_channel(ivs, args):
            acc = zero
            for idx, w in weights:
                acc = f("addf", acc, f("mulf", w, t.extract(x, [ni, ivs[0], *idx])))
            return [t.insert(acc, args[0], otype, [ni, ivs[0], *zs])]
        return _nest(t, [(t.c0, t.index(c))], [(args[0], otype)], per_channel)

    res = _nest(t, [(t.c0, t.index(n))] + [(t.c0, t.index(e)) for e in z], [(out0, otype)], per_point)[0]
    return [Value(res, out_shape, "real")]


def cubic_resize(em: Emitter, node, ins) -> list[Value]:
    """Road 2 for cubic_resize: per resized axis, each output position sums its (at most 4)
    taps of the input times Keys' weights, the taps and weights compile-time tables from
    road 1's `cubic_weights` (one scheme for both roads: linear_resize's coordinates, taps
    clamped into the input, `coeff_a`)."""
    env = node.instance.env.values
    x = ins[0]
    d = len(x.shape)
    for a, size in zip(env["axes"], env["size"]):
        a = a + d if a < 0 else a
        if size != x.shape[a] and x.shape[a] != 0:
            w = cubic_weights(x.shape[a], size, env["coordinate_transform"], float(env["coeff_a"]))
            x = _resample_axis(em, x, a, w)
    if x is ins[0]:
        x = em.op("tosa.identity", [x], x.shape, x.dtype)
    return [x]


def _resample_axis(em: Emitter, x: Value, a: int, w: np.ndarray) -> Value:
    """x with axis `a` replaced by w @ (that axis), w [size, s] having at most 4 non-zero
    weights per row: scf loops reading the taps from compile-time tables."""
    size, s = w.shape
    taps = np.zeros((size, 4), np.int32)
    weights = np.zeros((size, 4), np.float32)
    for o in range(size):
        cols = np.nonzero(w[o])[0][:4]
        taps[o, :len(cols)], weights[o, :len(cols)] = cols, w[o, cols]
    outer, inner = math.prod(x.shape[:a]), math.prod(x.shape[a + 1:])
    x3 = em.reshape(x, [outer, s, inner])
    tap_t, weight_t = em.const(taps, [size, 4], "int"), em.const(weights, [size, 4], "real")
    otype = ttype([outer, size, inner], "real")
    t = Text(em)
    out0 = t.zeros([outer, size, inner], "real")

    def point(ivs, args):
        acc = t.f32(0.0)
        for k in range(4):
            i = t.cast("index_cast", t.extract(tap_t, [ivs[1], t.index(k)]), "i32", "index")
            v = t.extract(x3, [ivs[0], i, ivs[2]])
            acc = t.bin("addf", acc, t.bin("mulf", t.extract(weight_t, [ivs[1], t.index(k)]), v, "f32"), "f32")
        return [t.insert(acc, args[0], otype, ivs)]
    res = _nest(t, [(t.c0, t.index(n)) for n in (outer, size, inner)], [(out0, otype)], point)[0]
    shape = list(x.shape)
    shape[a] = size
    return em.reshape(Value(res, [outer, size, inner], "real"), shape)
