"""layout.gather / layout.scatter -> TOSA GATHER / SCATTER, which index the middle axis of
[N, K, C] values with an [N, W] index tensor: the axes before the indexed one fold into N,
the ones after it into C (gather; its index has no batch axes, so it is tiled over N). For
scatter, whose indices vary along every axis but the indexed one, the trailing axes are
moved into N too (C = 1).

TOSA requires in-range indices (gather) and no index written twice (scatter: REQUIRE); the
definitions leave out-of-range reads undefined, and their sequential `:=` lets the last of
duplicated indices win, which TOSA does not promise."""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.to_tosa.ops import Unsupported, mapping


def _fold(shape):
    return None if None in shape else math.prod(shape)


def _axis(env, rank):
    axis = env["axis"]
    return axis + rank if axis < 0 else axis


@mapping("layout.gather", how="TOSA gather (leading axes folded into N, trailing into C; the index tiled over N)")
def _gather(em, env, ins, outs):
    data, index = ins
    if data.dtype == "bool":
        raise Unsupported("gather of bool")
    axis = _axis(env, len(data.shape))
    lead, k, trail = data.shape[:axis], data.shape[axis], data.shape[axis + 1:]
    if None in lead:
        raise NnefError(None, f"'layout.gather' cannot take {data.type}, with an extent known only at run time "
                        "before 'axis': the index is tiled over those axes (TILE's multiples are a compile-time shape)")
    # a run-time extent (None) elsewhere folds into a `?` of C, K or W (RESHAPE's one -1)
    n, c, w = math.prod(lead), _fold(trail), _fold(index.shape)
    values = em.reshape(data, [n, k, c])
    idx = em.reshape(index, [1, w])
    if n != 1:
        idx = em.op("tosa.tile", [idx, em.shape([n, 1])], [n, w], "int")
    y = em.op("tosa.gather", [values, idx], [n, w, c], data.dtype)
    return [em.reshape(y, outs[0].shape)]


@mapping("layout.scatter", how="TOSA scatter (other axes folded into N, C = 1; indices must be unique)")
def _scatter(em, env, ins, outs):
    data, indices, updates = ins
    if data.dtype == "bool":
        raise Unsupported("scatter of bool")
    d = len(data.shape)
    axis = _axis(env, d)
    perm = [a for a in range(d) if a != axis] + [axis]     # the indexed axis last
    inverse = [perm.index(a) for a in range(d)]
    n = math.prod(data.shape) // data.shape[axis]
    k, w = data.shape[axis], indices.shape[axis]
    values = em.reshape(em.transpose(data, perm), [n, k, 1])
    idx = em.reshape(em.transpose(indices, perm), [n, w])
    upd = em.reshape(em.transpose(updates, perm), [n, w, 1])
    y = em.op("tosa.scatter", [values, idx, upd], [n, k, 1], data.dtype)
    moved = [data.shape[a] for a in perm]
    return [em.transpose(em.reshape(y, moved), inverse)]
