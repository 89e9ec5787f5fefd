"""Scales recovered from the tables of the importer's integer forms (export_quant.py).

Integer TOSA keeps only ratios of scales, except where a table is built from an absolute
scale: the int8 softmax's GATHER table is `softmax_exp_table_q16(s_in)` (legalize_common.py),
round(2^16 * exp(-s_in * d)) for d = 0..255. Each entry bounds s_in to an interval; their
intersection holds every scale that rebuilds the table, and the export writes its midpoint
(checked: the re-import must build the identical table).

An int8 TABLE of a function of one value is table_contents(f, s_in, zp_in, s_out, zp_out):
table_function searches f among the importer's functions and the parameters (see there)."""

from __future__ import annotations

import functools
import math

import numpy as np

from tosa_xdsl.frontends.legalize_common import softmax_exp_table_q16, table_contents
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
_Q = np.arange(-128, 128, dtype=np.float64)
REFINE_BUDGET = 150     # zooms tried per table (each a few ms): the search's bound on bad input


def _c_intervals(t, y, d):
    """Per row of y (one row per candidate s_in): the interval (lo, hi) of c = 1/s_out with
    clip(round(c * y) + d) == t entry by entry (half-way cases, of measure zero, left out)."""
    down = np.where(t == -128, -np.inf, t - d - 0.5)
    up = np.where(t == 127, np.inf, t - d + 0.5)
    with np.errstate(all="ignore"):
        lo = np.where(y > 0, down / y, np.where(y < 0, up / y, -np.inf)).max(1)
        hi = np.where(y > 0, up / y, np.where(y < 0, down / y, np.inf)).min(1)
    bad = ((y == 0) & ((down > 0) | (up < 0))).any(1)
    return np.maximum(lo, 0.0), np.where(bad, -np.inf, hi)


def _slope(f, tf, inner, s_in, zp) -> float:
    """c of the least-squares fit t = c f(s_in (q - zp)) + d over the unsaturated entries."""
    with np.errstate(all="ignore"):
        y = f((_Q - zp) * s_in)
    ok = inner & np.isfinite(y)
    if ok.sum() < 2 or np.var(y[ok]) == 0:
        return 0.0
    return float(np.cov(y[ok], tf[ok])[0, 1] / np.var(y[ok], ddof=1))


def _refine(f, t, tf, zp, d, centre):
    """(s_in, s_out) near s_in = centre rebuilding t with zero points zp, d, or None: zoom on
    the s_in whose interval of c = 1/s_out is least empty (the feasible s_in can be narrower
    than any fixed grid)."""
    s_ins = centre * np.geomspace(0.96, 1.04, 401)
    for _ in range(5):
        with np.errstate(all="ignore"):
            y = np.nan_to_num(f(np.outer(s_ins, _Q - zp)), nan=0.0, posinf=1e300, neginf=-1e300)
        lo, hi = _c_intervals(tf, y, d)
        hi = np.minimum(hi, 2 * lo + 1)
        gap = (lo - hi) / np.maximum(lo, 1e-300)
        i = int(np.argmin(gap))
        if gap[i] < 0:
            c = (lo[i] + hi[i]) / 2
            with np.errstate(all="ignore"):
                got = table_contents(f, float(s_ins[i]), zp, 1.0 / c, d)
            if np.array_equal(got.astype(np.int64), t):
                return float(s_ins[i]), float(1.0 / c)
        if not np.isfinite(gap[i]) or gap[i] > 0.05:
            return None
        j0, j1 = max(i - 2, 0), min(i + 2, len(s_ins) - 1)
        s_ins = np.geomspace(s_ins[j0], s_ins[j1], 101)
    return None


def table_function(table, zp_in: int | None) -> tuple | None:
    """(name, s_in, zp_in, s_out, zp_out) whose int8 TABLE (legalize_common.table_contents)
    is `table`, or None. `functions[name]` is the real function; zp_in is fixed when the rest
    of the graph fixes it. A coarse search (least squares of the unsaturated entries on f for
    log-spaced s_in and zero points), refined near the best fits; every answer is checked to
    rebuild the identical table (cached: an export and its re-export solve the same table)."""
    t = np.asarray(table, np.int64).reshape(-1)
    if t.size != 256 or t.min() < -128 or t.max() > 127:
        return None
    return _table_function(t.astype(np.int8).tobytes(), zp_in)


@functools.lru_cache(maxsize=64)
def _table_function(data: bytes, zp_in: int | None) -> tuple | None:
    t = np.frombuffer(data, np.int8).astype(np.int64)
    tf = t.astype(np.float64)
    inner = (t > -128) & (t < 127)
    if len(np.unique(t[inner])) < 3:       # a constant or two-level table: no function to tell
        return None
    zps = [zp_in] if zp_in is not None else list(range(-128, 128, 4))
    scales = np.geomspace(1e-3, 2.0, 160)
    fits = []
    with np.errstate(all="ignore"):
        for name in TABLE_FUNCTIONS:
            f = FUNCTIONS[name]({})
            for zp in zps:
                y = f(np.outer(scales, _Q - zp))                   # (scales, 256)
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
                        fits.append((res[i], name, zp, scales[i], mt[i] - c[i] * my[i]))
    # equal fits (sigmoid and tanh are one affine map apart) in TABLE_FUNCTIONS' order
    fits.sort(key=lambda r: (float(f"{r[0]:.6g}"), TABLE_FUNCTIONS.index(r[1])))
    budget, done = REFINE_BUDGET, set()
    # widening passes over the best fits (zero points ever farther from the fit's), so that a
    # near miss of the best fit does not use up the budget before the next fits are tried
    for zr, dr in ((0, 1), (2, 3), (4, 8)):
        for _, name, zp0, s0, d0 in fits[:12]:
            f = FUNCTIONS[name]({})
            near = [zp0] if zp_in is not None else [zp0 + k for k in sorted(range(-zr, zr + 1), key=abs)
                                                    if -128 <= zp0 + k <= 127]
            if name in ("math.log", "math.log2"):
                # log(s (q - zp)) = log s + log(q - zp): s_in only moves the intercept, which
                # the output zero point absorbs: for each zero point d, the s_in giving it
                c0 = _slope(f, tf, inner, s0, zp0)
                base = math.e if name == "math.log" else 2.0
                tries = [(d, s0 * base ** ((d0 - d) / c0)) for d in range(-128, 128)] if c0 > 0 and zr == 0 else []
                near = near[:1]
            else:
                tries = [(round(d0) + k, s0) for k in sorted(range(-dr, dr + 1), key=abs)
                         if -128 <= round(d0) + k <= 127]
            for zp in near:
                for d, centre in tries:
                    if (name, zp, d, centre) in done:
                        continue
                    if budget <= 0:
                        return None         # bounded work: a table no candidate fits gives up here
                    budget -= 1
                    done.add((name, zp, d, centre))
                    found = _refine(f, t, tf, zp, d, centre)
                    if found is not None:
                        return (name, found[0], zp, found[1], d)
    return None
