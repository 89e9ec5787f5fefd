"""Formulas over packs of tensors (draft 2.12): each becomes one formula per pack item, with
the item index a compile-time value, so every item is a tensor of its own (its own shape).

- `unroll..(ki -> k) ys[ki][...] = xs[ki][...] ...`: the unrolled index is the outermost loop,
  one formula per value of ki;
- `ys[ki][...] = ..., ki < k, ...`: a loop index selecting the item of a packed output is
  unrolled the same way (layout.split, layout.unstack);
- packed assignment `ys[...] = xs[...] + z[...]` (the whole pack on the left): the accesses of
  packs without an item index read and write item k. Its conditional or updating form is one
  atomic assignment of the whole pack per step (the draft's max_idx_2d with a packed output:
  `idx[] := [i, j], ... | x[i, j] > x[idx[]..]`): the pack is compiled as one tensor stacked
  along a new leading axis (`idx[:, ...]`, written item by item in the same step by
  loops.target_writes), every formula of that output on the stacked tensor, input packs of
  equal shapes stacked the same way, and the result split into its items.

(A loop index selecting items of an *input* pack while writing one output, layout.concat, is
generic.py's `_unrolled`: its pieces are written into parts of the same tensor.)"""

from __future__ import annotations

import dataclasses

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.semantics import Env, Unknown, unparse

MAX_ITEMS = 4096


def instances(low: A.Lowering, env: Env, out_types: dict, tensors: dict) -> list:
    """(output name, pack item or None, env, formula) for each formula to compile."""
    if low.unroll is not None:
        name, count = low.unroll
        n = _count(count, env, f"the unrolled index '{name}'")
        piece = dataclasses.replace(low, unroll=None)
        return [x for k in range(n) for x in instances(piece, _bind(env, name, k), out_types, tensors)]
    target = low.target
    base = target.base
    if isinstance(base, A.Index) and isinstance(base.base, A.Ident):
        out = base.base.name
        if out not in out_types:
            raise NnefError(target.loc, f"'{out}' is not an output of the operator")
        if not isinstance(out_types[out], list):
            raise NnefError(target.loc, f"output '{out}' is not a pack of tensors")
        bounds = dict(low.bounds)
        ix = base.index
        if isinstance(ix, A.Ident) and ix.name in bounds:      # a loop over the items: unrolled
            n = _count(bounds[ix.name], env, f"the pack index '{ix.name}'")
            rest = [(i, b) for i, b in low.bounds if i != ix.name]
            piece = dataclasses.replace(low, bounds=rest)
            return [x for k in range(n) for x in instances(piece, _bind(env, ix.name, k), out_types, tensors)]
        try:
            item = env.eval(ix)
        except Unknown as u:
            raise NnefError(ix.loc, f"'{u.name}' is not known in the pack index '{unparse(ix)}'") from None
        n = len(out_types[out])
        if not isinstance(item, int) or isinstance(item, bool) or not -n <= item < n:
            raise NnefError(ix.loc, f"pack index {item!r} is outside the output pack of {n} items")
        return [(out, item % n, env, dataclasses.replace(low, target=A.Access(target.loc, base.base, target.indices)))]
    if not isinstance(base, A.Ident) or base.name not in out_types:
        raise NnefError(low.loc, "a formula must assign an output of the operator")
    if not isinstance(out_types[base.name], list):
        return [(base.name, None, env, low)]
    # packed assignment: the whole pack at once
    packs = {base.name} | {n for n, v in tensors.items() if isinstance(v, list)}
    n = len(out_types[base.name])
    for p in packs - {base.name}:
        if len(tensors[p]) != n and _reads(low, p):
            raise NnefError(low.loc, f"pack '{p}' has {len(tensors[p])} items, the output pack {n}")
    return [(base.name, k, env, _item_of(low, packs, k)) for k in range(n)]


def atomic_packs(lowerings, out_types: dict) -> set[str]:
    """Packed outputs with a conditional or updating packed assignment: compiled stacked."""
    return {low.target.base.name for low in lowerings
            if isinstance(low.target.base, A.Ident) and isinstance(out_types.get(low.target.base.name), list)
            and low.unroll is None and (low.condition is not None or low.op == ":=")}


def stacked_formula(low: A.Lowering, names: set) -> A.Lowering:
    """`p[idx..]` -> `p[:, idx..]` for each stacked pack p: the write of every item at once, and
    the reads a pack of values (one per item)."""
    def stack(e):
        if isinstance(e, A.Access) and isinstance(e.base, A.Ident) and e.base.name in names:
            return A.Access(e.loc, e.base, [A.Range(e.loc, None, None, None), *e.indices])
        if isinstance(e, A.Access) and isinstance(e.base, A.Index) and isinstance(e.base.base, A.Ident) \
                and e.base.base.name in names:      # one item `p[k][idx..]`: `p[k, idx..]`
            return A.Access(e.loc, e.base.base, [e.base.index, *e.indices])
        return e
    return dataclasses.replace(low, target=stack(low.target), value=_map(low.value, stack),
                               condition=_map(low.condition, stack), locals=[(n, _map(v, stack)) for n, v in low.locals])


def _count(e, env: Env, what: str) -> int:
    try:
        n = env.eval(e)
    except Unknown as u:
        raise NnefError(e.loc, f"'{u.name}' is not known in the count of {what}") from None
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_ITEMS:
        raise NnefError(e.loc, f"{what} needs a compile-time count in [0, {MAX_ITEMS}], got {n!r}")
    return n


def _bind(env: Env, name: str, k: int) -> Env:
    inner = Env(env.dtypes)
    inner.values = {**env.values, name: k}
    return inner


def _reads(low: A.Lowering, name: str) -> bool:
    found = []
    _map(low.value, lambda e: found.append(e) or e if isinstance(e, A.Access) and isinstance(e.base, A.Ident)
         and e.base.name == name else e)
    return bool(found)


def _item_of(low: A.Lowering, packs: set, k: int) -> A.Lowering:
    """The formula for item k of a packed assignment: `p[...]` -> `p[k][...]` for each pack p,
    a list value `[i, j]` -> its item k."""
    def item(e):
        if isinstance(e, A.Access) and isinstance(e.base, A.Ident) and e.base.name in packs:
            return A.Access(e.loc, A.Index(e.base.loc, e.base, A.Literal(e.loc, k, "int")), e.indices)
        return e
    value = low.value
    if isinstance(value, A.ListExpr):
        if not 0 <= k < len(value.items):
            raise NnefError(value.loc, f"the value list has {len(value.items)} items, the output pack more")
        value = value.items[k]
    return dataclasses.replace(low, target=item(low.target), value=_map(value, item),
                               locals=[(n, _map(v, item)) for n, v in low.locals])


def _map(e, f):
    """`e` rebuilt bottom-up with f applied to every expression node."""
    if isinstance(e, list):
        return [_map(x, f) for x in e]
    if isinstance(e, tuple):
        return tuple(_map(x, f) for x in e)
    if not isinstance(e, A.Expr):
        return e
    changes = {}
    for fld in dataclasses.fields(e):
        v = getattr(e, fld.name)
        nv = _map(v, f)
        if nv is not v:
            changes[fld.name] = nv
    return f(dataclasses.replace(e, **changes) if changes else e)


def stack(em, items: list):
    """A pack of tensors of one shape as one tensor with a new leading axis (tosa.concat)."""
    parts = [em.reshape(x, [1, *x.shape]) for x in items]
    shape = [len(items), *items[0].shape]
    return parts[0] if len(parts) == 1 else em.op("tosa.concat", parts, shape, items[0].dtype, "axis = 0 : i32")
