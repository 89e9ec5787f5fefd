"""Spec 2.11 Scatter/Gather Operators: GATHER, SCATTER (vectorized with numpy indexing).

Both REQUIRE every index in 0..K-1, and SCATTER that no (n, k) position is written twice;
a failed REQUIRE makes the graph result unpredictable (numerics.require). When the runner
is lenient about REQUIRE (allow_unpredictable), out-of-range indices are clamped and a
repeated index keeps its last write, so the run goes on with some value."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops import scatter_gather as SG


def _indices(indices, k: int) -> np.ndarray:
    idx = np.asarray(indices).astype(np.int64)
    nx.require((idx >= 0) & (idx < k), "0 <= k && k < K")
    return np.clip(idx, 0, max(k - 1, 0))


def gather(values, indices) -> np.ndarray:
    """GATHER (spec 2.11.1): output[n, w, c] = values[n, indices[n, w], c]."""
    values = np.asarray(values)
    n, k, c = values.shape
    idx = np.asarray(indices)
    nx.error_if(idx.ndim != 2 or idx.shape[0] != n, "indices shape != [N,W]")
    if idx.size == 0 or k == 0:
        nx.require(idx.size == 0, "0 <= k && k < K")
        return np.zeros((n, idx.shape[1], c), values.dtype)
    idx = _indices(idx, k)
    return np.take_along_axis(values, idx[:, :, None], axis=1)


def scatter(values_in, indices, input) -> np.ndarray:
    """SCATTER (spec 2.11.2): values_out = values_in with values_out[n, indices[n, w], c] =
    input[n, w, c]; REQUIRE each output position is modified at most once."""
    values_in, inp = np.asarray(values_in), np.asarray(input)
    n, k, c = values_in.shape
    idx = np.asarray(indices)
    nx.error_if(idx.ndim != 2 or idx.shape[0] != n, "indices shape != [N,W]")
    w = idx.shape[1]
    nx.error_if(inp.shape != (n, w, c), "input shape != [N,W,C]")
    out = values_in.copy()
    if idx.size == 0:
        return out
    if k == 0:
        nx.require(False, "0 <= k && k < K")
        return out
    idx = _indices(idx, k)
    if c > 0 and w > 1:
        s = np.sort(idx, axis=1)
        nx.require(~np.any(s[:, 1:] == s[:, :-1]), "output_modified[n,k,c] == false")
    out[np.arange(n)[:, None], idx, :] = inp
    return out


@register_impls
class ScatterGatherFunctions(InterpreterFunctions):
    @impl(SG.GatherOp)
    def run_gather(self, interpreter, op, args):
        values, indices = args
        return (gather(values, indices),)

    @impl(SG.ScatterOp)
    def run_scatter(self, interpreter, op, args):
        values_in, indices, inp = args
        return (scatter(values_in, indices, inp),)
