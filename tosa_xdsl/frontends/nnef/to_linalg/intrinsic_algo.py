"""algo.top_k and algo.nonmax_suppress (draft 4.7, "intrinsic operators"): the draft gives
their attributes and shapes only; the meaning is that of ONNX TopK and NonMaxSuppression,
which Khronos' onnx_to_sknd maps onto them attribute for attribute."""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.to_linalg.counted import MAX_BUFFER
from tosa_xdsl.frontends.nnef.to_linalg.text import Text
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value, ttype


def top_k(em: Emitter, node, ins) -> list[Value]:
    """values/indices of the min(k, m) largest (smallest) items along `axis`, in order, ties
    to the lower index first (ONNX TopK). `sorted = false` leaves the order unspecified in
    ONNX; this gives the sorted order then too. Selection by min(k, m) passes over the axis,
    each taking the best item strictly after the previous pick in the order (value, then
    index), so no mask is kept; NaN items are never picked after the first pass (NaN order is
    unspecified)."""
    env = node.instance.env.values
    x = ins[0]
    rank = len(x.shape)
    axis = env["axis"] + rank if env["axis"] < 0 else env["axis"]
    m = x.shape[axis]
    kk = min(env["k"], m)
    outer, inner = math.prod(x.shape[:axis]), math.prod(x.shape[axis + 1:])
    x3 = em.reshape(x, [outer, m, inner])
    vtype, itype = ttype([outer, kk, inner], "real"), ttype([outer, kk, inner], "int")
    t = Text(em)
    v0, i0 = t.zeros([outer, kk, inner], "real"), t.zeros([outer, kk, inner], "int")
    n_out, n_in, n_k, n_m = t.index(outer), t.index(inner), t.index(kk), t.index(m)
    inf, ninf, minus1 = t.f32(math.inf), t.f32(-math.inf), t.index(-1)
    with t.loop(t.c0, n_out, [(v0, vtype), (i0, itype)]) as lo:
        with t.loop(t.c0, n_in, [(lo.args[0], vtype), (lo.args[1], itype)]) as li:
            with t.loop(t.c0, n_k, [(li.args[0], vtype), (li.args[1], itype), (inf, "f32"), (minus1, "index")]) as lr:
                prev_key, prev_j = lr.args[2], lr.args[3]
                with t.loop(t.c0, n_m, [(t.i1(False), "i1"), (ninf, "f32"), (t.c0, "index")]) as lj:
                    found, best, best_j = lj.args
                    v = t.extract(x3, [lo.iv, lj.iv, li.iv])
                    key = v if env["largest"] else t.let(f"arith.negf {v} : f32")
                    after = t.or_(t.cmpf("ogt", prev_key, key),
                                  t.and_(t.cmpf("oeq", prev_key, key), t.cmpi("slt", prev_j, lj.iv)))
                    better = t.and_(after, t.or_(t.not_(found), t.cmpf("ogt", key, best)))
                    lj.yields = [t.or_(found, better), t.select(better, key, best, "f32"),
                                 t.select(better, lj.iv, best_j, "index")]
                _, key, j = lj.results
                v = t.extract(x3, [lo.iv, j, li.iv])
                j32 = t.cast("index_cast", j, "index", "i32")
                lr.yields = [t.insert(v, lr.args[0], vtype, [lo.iv, lr.iv, li.iv]),
                             t.insert(j32, lr.args[1], itype, [lo.iv, lr.iv, li.iv]), key, j]
            li.yields = lr.results[:2]
        lo.yields = li.results
    shape = list(x.shape)
    shape[axis] = kk
    return [em.reshape(Value(lo.results[0], [outer, kk, inner], "real"), shape),
            em.reshape(Value(lo.results[1], [outer, kk, inner], "int"), shape)]


def nonmax_suppress(em: Emitter, node, ins) -> list[Value]:
    """ONNX NonMaxSuppression (as onnxruntime computes it): per batch item and class, the
    boxes scoring above `score_threshold` (strictly; all boxes when it is null) in decreasing
    score (ties: lower box index first), each kept unless its IoU with a box kept before
    exceeds `iou_threshold`, at most `max_outputs_per_class` per class; the rows
    [batch, class, box] in that order, a data-dependent extent (the declared `~`) of at most
    b * c * max_outputs_per_class. Boxes are CORNERS [y1, x1, y2, x2] (either corner
    first) or CENTER [x, y, width, height]; an empty box or intersection suppresses nothing.
    Each round picks the best remaining candidate and then removes the candidates it
    suppresses (the same result as checking each candidate against the kept ones)."""
    env = node.instance.env.values
    boxes, scores = ins
    b, n, _ = boxes.shape
    c = scores.shape[1]
    max_out = env["max_outputs_per_class"]
    iou_thr = float(env["iou_threshold"])
    score_thr = env.get("score_threshold")
    bound = b * c * max_out
    if bound * 3 > MAX_BUFFER:
        raise NnefError(node.loc, f"the output's upper bound [{bound}, 3] is too large")
    rounds = min(max_out, n)
    otype = ttype([bound, 3], "int")
    rtype = ttype([n], "bool")
    t = Text(em)
    out0, removed0 = t.zeros([bound, 3], "int"), t.zeros([n], "bool")
    center = env["box_format"] == "CENTER"
    half = t.f32(0.5)

    def extent(bi, j):
        """(min0, max0, min1, max1) of box j."""
        v = [t.extract(boxes, [bi, j, t.index(k)]) for k in range(4)]
        if center:
            h0, h1 = t.bin("mulf", v[2], half, "f32"), t.bin("mulf", v[3], half, "f32")
            return (t.bin("subf", v[0], h0, "f32"), t.bin("addf", v[0], h0, "f32"),
                    t.bin("subf", v[1], h1, "f32"), t.bin("addf", v[1], h1, "f32"))
        return (t.bin("minimumf", v[0], v[2], "f32"), t.bin("maximumf", v[0], v[2], "f32"),
                t.bin("minimumf", v[1], v[3], "f32"), t.bin("maximumf", v[1], v[3], "f32"))

    def suppressed(a, z):
        """IoU(a, z) > iou_threshold, false for an empty intersection or box."""
        lo0, hi0 = t.bin("maximumf", a[0], z[0], "f32"), t.bin("minimumf", a[1], z[1], "f32")
        lo1, hi1 = t.bin("maximumf", a[2], z[2], "f32"), t.bin("minimumf", a[3], z[3], "f32")
        overlap = t.and_(t.cmpf("ogt", hi0, lo0), t.cmpf("ogt", hi1, lo1))
        inter = t.bin("mulf", t.bin("subf", hi0, lo0, "f32"), t.bin("subf", hi1, lo1, "f32"), "f32")
        area_a = t.bin("mulf", t.bin("subf", a[1], a[0], "f32"), t.bin("subf", a[3], a[2], "f32"), "f32")
        area_z = t.bin("mulf", t.bin("subf", z[1], z[0], "f32"), t.bin("subf", z[3], z[2], "f32"), "f32")
        union = t.bin("subf", t.bin("addf", area_a, area_z, "f32"), inter, "f32")
        zero = t.f32(0.0)
        ok = t.and_(overlap, t.cmpf("ogt", area_a, zero), t.cmpf("ogt", area_z, zero), t.cmpf("ogt", union, zero))
        iou = t.bin("divf", inter, union, "f32")
        return t.and_(ok, t.cmpf("ogt", iou, t.f32(iou_thr)))

    with t.loop(t.c0, t.index(b), [(out0, otype), (t.c0, "index")]) as lb:
        with t.loop(t.c0, t.index(c), [(lb.args[0], otype), (lb.args[1], "index")]) as lc:
            with t.loop(t.c0, t.index(rounds), [(lc.args[0], otype), (lc.args[1], "index"),
                                                (removed0, rtype)]) as lr:
                out, count, removed = lr.args
                with t.loop(t.c0, t.index(n), [(t.i1(False), "i1"), (t.f32(-math.inf), "f32"),
                                               (t.c0, "index")]) as lj:
                    found, best, best_j = lj.args
                    s = t.extract(scores, [lb.iv, lc.iv, lj.iv])
                    live = t.not_(t.extract((removed, rtype), [lj.iv]))
                    if score_thr is not None:
                        live = t.and_(live, t.cmpf("ogt", s, t.f32(float(score_thr))))
                    else:     # NaN scores are never picked
                        live = t.and_(live, t.cmpf("ord", s, s))
                    better = t.and_(live, t.or_(t.not_(found), t.cmpf("ogt", s, best)))
                    lj.yields = [t.or_(found, better), t.select(better, s, best, "f32"),
                                 t.select(better, lj.iv, best_j, "index")]
                found, _, pick = lj.results

                def keep():
                    row = [t.cast("index_cast", x, "index", "i32") for x in (lb.iv, lc.iv, pick)]
                    o = out
                    for k, v in enumerate(row):
                        o = t.insert(v, o, otype, [count, t.index(k)])
                    a = extent(lb.iv, pick)
                    gone = t.insert(t.i1(True), removed, rtype, [pick])
                    with t.loop(t.c0, t.index(n), [(gone, rtype)]) as ls:
                        z = extent(lb.iv, ls.iv)
                        was = t.extract((ls.args[0], rtype), [ls.iv])
                        ls.yields = [t.insert(t.or_(was, suppressed(a, z)), ls.args[0], rtype, [ls.iv])]
                    return [o, t.bin("addi", count, t.c1, "index"), ls.results[0]]

                lr.yields = t.if_(found, [otype, "index", rtype], keep, lambda: [out, count, removed])
            lc.yields = lr.results[:2]
        lb.yields = lc.results
    res = em.fresh()
    t.line(f"{res} = tensor.extract_slice {lb.results[0]}[0, 0] [{lb.results[1]}, 3] [1, 1] : {otype} to "
           f"{ttype([None, 3], 'int')}")
    return [Value(res, [None, 3], "int")]
