"""Scales recovered from the tables of the importer's integer forms (export_quant.py).

Integer TOSA keeps only ratios of scales, except where a table is built from an absolute
scale: the int8 softmax's GATHER table is `softmax_exp_table_q16(s_in)` (legalize_common.py),
round(2^16 * exp(-s_in * d)) for d = 0..255. Each entry bounds s_in to an interval; their
intersection holds every scale that rebuilds the table, and the export writes its midpoint
(checked: the re-import must build the identical table).

An int8 TABLE of a function of one value is table_contents(f, s_in, zp_in, s_out, zp_out), a
16-bit one table_contents_16 (513 entries, TOSA interpolates between them): table_function
searches f among the importer's functions and the parameters (see there), for both widths
with the importer's own builders (TableForm). sigmoid(x) = (1 + tanh(x / 2)) / 2 makes the
tables of the two functions the same at paired scales: sigmoid is preferred (for 16 bits the
output zero point 0 first, which tells TFLite's logistic from its tanh)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tosa_xdsl.frontends.legalize_common import (
    softmax_exp_table_q16,
    table_contents,
    table_contents_16,
)
from tosa_xdsl.frontends.nnef.to_tosa.integer_functions import FUNCTIONS


def softmax_input_scale(table: np.ndarray) -> float | None:
    """An input scale whose Q16 exp table is `table` (256 entries), or None."""
    t = np.asarray(table, np.int64).reshape(-1)
    if t.size != 256 or t[0] != 65536:
        return None
    lo, hi = 0.0, math.inf
    for d in range(1, 256):
        v = int(t[d])
        if v < 0 or v > 65536:
            return None
        # round(65536 * exp(-c d)) == v  <=>  (v - 0.5) / 65536 <= exp(-c d) < (v + 0.5) / 65536
        lo = max(lo, -math.log((v + 0.5) / 65536.0) / d) if v + 0.5 < 65536 else lo
        if v > 0:
            hi = min(hi, -math.log((v - 0.5) / 65536.0) / d)
    if not (lo < hi) or hi == math.inf:
        return None
    c = (lo + hi) / 2.0
    return c if c > 0 and np.array_equal(softmax_exp_table_q16(c), t) else None


# Functions of one value the importer writes as a TABLE (to_tosa/integer_functions.py's
# FUNCTIONS without attributes), in the order they are tried.
TABLE_FUNCTIONS = ("nn.sigmoid", "math.tanh", "math.exp", "math.log", "math.sqrt", "math.rsqrt", "math.rcp",
                   "math.log2", "math.sin", "math.cos", "nn.erf", "nn.silu", "nn.softplus", "nn.gelu", "nn.elu")


@dataclass(frozen=True)
class TableForm:
    """The importer's TABLE of one width: `build(f, s_in, zp_in, s_out, zp_out)` (the one
    source of truth, legalize_common), its entries' inputs q (before the zero point), the
    storage bounds, and the search's bound on work (zooms tried per table)."""
    size: int
    points: np.ndarray
    lo: int
    hi: int
    build: Callable
    budget: int

    def rebuild(self, f, s_in, zp, s_out, d) -> np.ndarray:
        with np.errstate(all="ignore"):
            return np.asarray(self.build(f, s_in, zp, s_out, d)).astype(np.int64)


# int8: the 256 levels; 16-bit: TOSA's interpolated TABLE, entry i at q = (i - 256) * 128
# (its 512 segments of 128 inputs), each entry biased by half the interpolation error
FORM8 = TableForm(256, np.arange(-128, 128, dtype=np.float64), -128, 127,
                  lambda f, s, zp, so, d: table_contents(f, s, zp, so, d), 150)
FORM16 = TableForm(513, (np.arange(513, dtype=np.float64) - 256.0) * 128.0, -32768, 32767, table_contents_16, 24)
FORMS = {f.size: f for f in (FORM8, FORM16)}


def _c_intervals(form, t, y, d, bias=0):
    """Per row of y (one row per candidate s_in): the interval (lo, hi) of c = 1/s_out with
    clip(round(c * y) + d - bias) == t entry by entry (half-way cases, of measure zero, left out)."""
    down = np.where(t == form.lo, -np.inf, t + bias - d - 0.5)
    up = np.where(t == form.hi, np.inf, t + bias - d + 0.5)
    with np.errstate(all="ignore"):
        lo = np.where(y > 0, down / y, np.where(y < 0, up / y, -np.inf)).max(1)
        hi = np.where(y > 0, up / y, np.where(y < 0, down / y, np.inf)).min(1)
    bad = ((y == 0) & ((down > 0) | (up < 0))).any(1)
    return np.maximum(lo, 0.0), np.where(bad, -np.inf, hi)


def _slope(f, form, tf, inner, s_in, zp) -> float:
    """c of the least-squares fit t = c f(s_in (q - zp)) + d over the unsaturated entries."""
    with np.errstate(all="ignore"):
        y = f((form.points - zp) * s_in)
    ok = inner & np.isfinite(y)
    if ok.sum() < 2 or np.var(y[ok]) == 0:
        return 0.0
    return float(np.cov(y[ok], tf[ok])[0, 1] / np.var(y[ok], ddof=1))


def _fit(f, form, tf, inner, zp, s) -> tuple[float, float, float]:
    """(mean squared residual, c, d) of the least-squares fit t = c f(s (q - zp)) + d over the
    unsaturated entries."""
    with np.errstate(all="ignore"):
        y = f((form.points - zp) * s)
    ok = inner & np.isfinite(y)
    if ok.sum() < 3 or np.var(y[ok]) == 0:
        return math.inf, 0.0, 0.0
    c = float(np.cov(y[ok], tf[ok])[0, 1] / np.var(y[ok], ddof=1))
    d = float(tf[ok].mean() - c * y[ok].mean())
    return float(np.mean((tf[ok] - c * y[ok] - d) ** 2)), c, d


def _polish(f, form, tf, inner, zp, s0, ratio) -> tuple[float, float, float]:
    """(s, c, d) of the best fit for s within s0 / ratio .. s0 * ratio (golden-section search
    on log s): a 16-bit table's intercept d must be known to a unit of 32768 (a grid fit's is not)."""
    a, b = math.log(s0 / ratio), math.log(s0 * ratio)
    g = (math.sqrt(5) - 1) / 2
    x1, x2 = b - g * (b - a), a + g * (b - a)
    r1, r2 = _fit(f, form, tf, inner, zp, math.exp(x1))[0], _fit(f, form, tf, inner, zp, math.exp(x2))[0]
    for _ in range(32):
        if r1 <= r2:
            b, x2, r2 = x2, x1, r1
            x1 = b - g * (b - a)
            r1 = _fit(f, form, tf, inner, zp, math.exp(x1))[0]
        else:
            a, x1, r1 = x1, x2, r2
            x2 = a + g * (b - a)
            r2 = _fit(f, form, tf, inner, zp, math.exp(x2))[0]
    s = math.exp((a + b) / 2)
    _, c, d = _fit(f, form, tf, inner, zp, s)
    return s, c, d


def _bias(form, f, t, s_ins, y, zp, d, inner):
    """Per row: the 16-bit TABLE's bias of each entry (round(c y + d) - entry), read from the
    builder at the row's least-squares c (0 for int8 tables, which have none)."""
    if form is FORM8:
        return 0
    ok = inner[None, :] & np.isfinite(y)
    yy = np.where(ok, y, 0.0)
    with np.errstate(all="ignore"):
        c = (yy * (t - d)).sum(1) / np.maximum((yy * yy).sum(1), 1e-300)
    out = np.zeros(y.shape)
    for i, (s, ci) in enumerate(zip(s_ins, c)):
        if ci > 0:
            out[i] = _row_bias(form, f, t, float(s), zp, float(ci), d, y[i])
    return out


def _row_bias(form, f, t, s_in, zp, c, d, y):
    got = form.rebuild(f, s_in, zp, 1.0 / c, d)
    with np.errstate(all="ignore"):
        b = np.round(c * y + d) - got
    return np.where(np.isfinite(b) & (t > form.lo) & (t < form.hi), b, 0.0)


def _refine(form, f, t, tf, inner, zp, d, centre):
    """(s_in, s_out) near s_in = centre rebuilding t with zero points zp, d, or None: zoom on
    the s_in whose interval of c = 1/s_out is least empty (the feasible s_in can be narrower
    than any fixed grid)."""
    s_ins = centre * np.geomspace(0.96, 1.04, 401)
    for _ in range(5 if form is FORM8 else 7):
        with np.errstate(all="ignore"):
            y = np.nan_to_num(f(np.outer(s_ins, form.points - zp)), nan=0.0, posinf=1e300, neginf=-1e300)
        bias = _bias(form, f, t, s_ins, y, zp, d, inner)
        lo, hi = _c_intervals(form, tf, y, d, bias)
        hi = np.minimum(hi, 2 * lo + 1)
        gap = (lo - hi) / np.maximum(lo, 1e-300)
        i = int(np.argmin(gap))
        if gap[i] < 0:
            for _ in range(3):          # the bias read at the least-squares c may be off: again at c
                c = (lo[i] + hi[i]) / 2
                if np.array_equal(form.rebuild(f, float(s_ins[i]), zp, 1.0 / c, d), t):
                    return float(s_ins[i]), float(1.0 / c)
                if form is FORM8:
                    break
                b = _row_bias(form, f, t, float(s_ins[i]), zp, c, d, y[i])
                (lo_i,), (hi_i,) = _c_intervals(form, tf, y[i:i + 1], d, b)
                if not lo_i < hi_i:
                    break
                lo[i], hi[i] = lo_i, hi_i
        if not np.isfinite(gap[i]) or gap[i] > 0.05:
            return None
        j0, j1 = max(i - 2, 0), min(i + 2, len(s_ins) - 1)
        s_ins = np.geomspace(s_ins[j0], s_ins[j1], 101)
    return None


def table_function(table, zp_in: int | None) -> tuple | None:
    """(name, s_in, zp_in, s_out, zp_out) whose TABLE (legalize_common.table_contents, 256
    int8 entries, or table_contents_16, 513 int16 entries) is `table`, or None. zp_in is
    fixed when the rest of the graph fixes it (a 16-bit table's is 0 otherwise: TFLite's
    16-bit quantization is symmetric). A coarse search (least squares of the unsaturated
    entries on f for log-spaced s_in and zero points), refined near the best fits; every
    answer is checked to rebuild the identical table (cached: an export and its re-export
    solve the same table)."""
    t = np.asarray(table, np.int64).reshape(-1)
    form = FORMS.get(t.size)
    if form is None or t.min() < form.lo or t.max() > form.hi:
        return None
    return _table_function(t.astype(np.int16).tobytes(), zp_in)


def _twins(name, c, s, d):
    """sigmoid(x) = (1 + tanh(x / 2)) / 2: a fit of one is a fit of the other, with the same
    residual, at these parameters (so equal fits are tried in TABLE_FUNCTIONS' order)."""
    if name == "math.tanh":
        return [("nn.sigmoid", 2 * c, 2 * s, d - c)]
    if name == "nn.sigmoid":
        return [("math.tanh", c / 2, s / 2, d + c / 2)]
    return []


@functools.lru_cache(maxsize=64)
def _table_function(data: bytes, zp_in: int | None) -> tuple | None:
    t = np.frombuffer(data, np.int16).astype(np.int64)
    form = FORMS[t.size]
    tf = t.astype(np.float64)
    inner = (t > form.lo) & (t < form.hi)
    if len(np.unique(t[inner])) < 3:       # a constant or two-level table: no function to tell
        return None
    wide = form is FORM16
    zps = [zp_in] if zp_in is not None else [0] if wide else list(range(-128, 128, 4))
    # the inputs' range 128 * s_in from 0.128 to 256 (int8 levels), the same for 16 bits
    scales = np.geomspace(1e-3, 2.0, 160) * (128.0 / -form.lo)
    fits = []
    with np.errstate(all="ignore"):
        for name in TABLE_FUNCTIONS:
            f = FUNCTIONS[name]({})
            for zp in zps:
                y = f(np.outer(scales, form.points - zp))                   # (scales, entries)
                ok = np.isfinite(y) & inner
                n = ok.sum(1)
                yy = np.where(ok, y, 0.0)
                tt = np.where(ok, tf, 0.0)
                my, mt = yy.sum(1) / np.maximum(n, 1), tt.sum(1) / np.maximum(n, 1)
                cov = (np.where(ok, (y - my[:, None]) * (tf - mt[:, None]), 0.0)).sum(1)
                var = (np.where(ok, (y - my[:, None]) ** 2, 0.0)).sum(1)
                c = cov / var
                res = (np.where(ok, (tf - mt[:, None] - c[:, None] * (y - my[:, None])) ** 2, 0.0)).sum(1)
                res = np.where((n >= max(3, inner.sum() // 2)) & (var > 0) & (c > 0), res / np.maximum(n, 1), np.inf)
                for i in np.argsort(res)[:2]:
                    if np.isfinite(res[i]):
                        fits.append((res[i], name, zp, float(scales[i]), float(c[i]), float(mt[i] - c[i] * my[i])))
    if wide:
        fits.sort(key=lambda r: r[0])
        # the best fits polished (a 16-bit table's intercept d must be known to a unit of 32768,
        # a grid fit's is not), residuals at the polished scale
        polished = []
        for _, name, zp, s0, _, _ in fits[:12]:
            f = FUNCTIONS[name]({})
            s, c0, d0 = _polish(f, form, tf, inner, zp, s0, scales[1] / scales[0])
            polished.append((_fit(f, form, tf, inner, zp, s)[0], name, zp, s, c0, d0))
        fits = polished
    fits = [(r, nm, zp, s, d) for r, name, zp, s0, c0, d0 in fits
            for nm, _, s, d in [(name, c0, s0, d0)] + _twins(name, c0, s0, d0)]
    # equal fits in TABLE_FUNCTIONS' order; 16 bits: output zero point 0 first (TFLite's)
    fits.sort(key=lambda r: (float(f"{r[0]:.6g}"), wide and round(r[4]) != 0, TABLE_FUNCTIONS.index(r[1])))
    budget, done = form.budget, set()
    lo_d, hi_d = form.lo, form.hi
    # widening passes over the best fits (zero points ever farther from the fit's), so that a
    # near miss of the best fit does not use up the budget before the next fits are tried
    for zr, dr in ((0, 1), (2, 3), (4, 8)):
        for _, name, zp0, s0, d0 in fits[:12]:
            f = FUNCTIONS[name]({})
            near = [zp0] if zp_in is not None or wide else [zp0 + k for k in sorted(range(-zr, zr + 1), key=abs)
                                                            if -128 <= zp0 + k <= 127]
            if name in ("math.log", "math.log2"):
                # log(s (q - zp)) = log s + log(q - zp): s_in only moves the intercept, which
                # the output zero point absorbs: for each zero point d, the s_in giving it
                c0 = _slope(f, form, tf, inner, s0, zp0)
                base = math.e if name == "math.log" else 2.0
                ds = range(-128, 128) if not wide else sorted({0, min(max(round(d0), lo_d), hi_d)})
                tries = [(d, s0 * base ** ((d0 - d) / c0)) for d in ds] if c0 > 0 and zr == 0 else []
                near = near[:1]
            else:
                tries = [(round(d0) + k, s0) for k in sorted(range(-dr, dr + 1), key=abs)
                         if lo_d <= round(d0) + k <= hi_d]
            for zp in near:
                for d, centre in tries:
                    if (name, zp, d, centre) in done:
                        continue
                    if budget <= 0:
                        return None         # bounded work: a table no candidate fits gives up here
                    budget -= 1
                    done.add((name, zp, d, centre))
                    found = _refine(form, f, t, tf, inner, zp, d, centre)
                    if found is not None:
                        return _preferred(form, t, tf, inner, (name, found[0], zp, found[1], d))
    return None


def _preferred(form, t, tf, inner, found):
    """found, or its sigmoid/tanh twin where that rebuilds the table too and is preferred:
    sigmoid (tried first), but for 16 bits the output zero point nearer 0 (TFLite's int16
    quantization is symmetric: its logistic and tanh both have zero point 0)."""
    name, s_in, zp, s_out, d = found
    for twin, _, s2, d2 in _twins(name, 1.0 / s_out, s_in, d):
        better = abs(round(d2)) < abs(d) or (abs(round(d2)) == abs(d) and twin == "nn.sigmoid") \
            if form is FORM16 else twin == "nn.sigmoid"
        f = FUNCTIONS[twin]({})
        for k in (0, -1, 1) if better else ():
            if form.lo <= round(d2) + k <= form.hi:
                got = _refine(form, f, t, tf, inner, zp, round(d2) + k, s2)
                if got is not None:
                    return (twin, got[0], zp, got[1], round(d2) + k)
    return found
