"""Scales recovered from the tables of the importer's integer forms (export_quant.py).

Integer TOSA keeps only ratios of scales, except where a table is built from an absolute
scale: the int8 softmax's GATHER table is `softmax_exp_table_q16(s_in)` (legalize_common.py),
round(2^16 * exp(-s_in * d)) for d = 0..255. Each entry bounds s_in to an interval; their
intersection holds every scale that rebuilds the table, and the export writes its midpoint
(checked: the re-import must build the identical table)."""

from __future__ import annotations

import math

import numpy as np

from tosa_xdsl.frontends.legalize_common import softmax_exp_table_q16


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
