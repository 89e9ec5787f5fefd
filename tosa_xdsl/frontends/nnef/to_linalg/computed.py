"""Tensor accesses at computed indices: index expressions that are not affine in the loop
indices (image.nearest_resize's rounded real `int(r) <? s[axes] - 1`, image.linear_resize's
`|int(floor(r)) + j <> 0 : s[axes] - 1|`) or that read packs of indices from a tensor
(gather_nd's `indices[bi.., zi.., :]..`).

Each index item is an affine expression (Aff) or a `Computed` scalar: an i32 value compiled in
the body (inside a linalg.generic: from linalg.index, arith and tensor.extract). The read is a
tensor.extract at those indices. Out of range, the draft leaves a plain read undefined; we
clamp it into the tensor (native code must not read outside memory, and the library's
resizes clamp the upper end themselves). `|e|` marks a guarded read (the caller skips the
term: the reduction's null element, or the loop step), `|e <> lower : upper|` a remapped one
(lower where e < 0, upper where e >= extent, then clamped)."""

from __future__ import annotations

from dataclasses import dataclass

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.semantics import unparse
from tosa_xdsl.frontends.nnef.to_linalg.affine import Aff, GAff, RAff


@dataclass(frozen=True)
class Computed:
    """An index value computed in the body: (ssa, 'i32') or a Python int."""
    value: object
    guarded: bool = False
    lower: object = None        # remapped bounds: values like `value`
    upper: object = None


def index_items(body, indices) -> list:
    """The index items of an access: Aff where affine, Computed otherwise."""
    out = []
    for ix in indices:
        try:
            items = body.idx.item(ix)
        except NnefError:
            items = None
        if items is not None:
            out.extend(_item(ix, x) for x in items)
            continue
        if isinstance(ix, A.Expand):
            items = index_pack(body, ix.item)
            if ix.count is not None:
                n = body.compile_time_value(ix.count)
                if len(items) == 1 and isinstance(n, int):
                    items = items * n
                elif len(items) != n:
                    raise NnefError(ix.loc, f"pack length {len(items)} differs from the stated {n}")
            out.extend(items)
        else:
            items = index_pack(body, ix)
            if len(items) != 1:
                raise NnefError(ix.loc, f"the index '{unparse(ix)}' is a pack; expand it with '..'")
            out.extend(items)
    return out


def index_pack(body, e) -> list:
    """An index expression (a pack or one index) item by item."""
    try:
        v = body.idx.eval(e)
        return [_item(e, x) for x in (v if isinstance(v, list) else [v])]
    except NnefError:
        pass
    if isinstance(e, A.Substitute):
        base = index_pack(body, e.base)
        where = body.compile_time_value(e.index)
        values = index_pack(body, e.value)
        where = where if isinstance(where, list) else [where]
        if len(values) == 1:
            values = values * len(where)
        if len(values) != len(where):
            raise NnefError(e.loc, f"pack lengths differ in '{unparse(e)}'")
        for k, v in zip(where, values):
            base[k] = v
        return base
    if isinstance(e, A.Bounded):
        items = index_pack(body, e.index)
        if e.lower is None:
            return [Computed(_value(body, x), guarded=True) for x in items]
        lo, hi = _spread(e, index_pack(body, e.lower), len(items)), _spread(e, index_pack(body, e.upper), len(items))
        return [Computed(_value(body, x), lower=_value(body, a), upper=_value(body, b))
                for x, a, b in zip(items, lo, hi)]
    if isinstance(e, A.Access):
        return _read_pack(body, e)
    values = body.compile_pack(e)
    for v in values:
        if isinstance(v, tuple) and v[1] != "i32" or not isinstance(v, tuple) and (
                not isinstance(v, int) or isinstance(v, bool)):
            raise NnefError(e.loc, f"the index '{unparse(e)}' is not an integer")
    return [Computed(v) for v in values]


def _item(e, x):
    if isinstance(x, Aff):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return Aff.constant(x)
    raise NnefError(e.loc, f"index '{unparse(e)}' is not an integer")


def _spread(e, items, n):
    if len(items) == 1:
        return items * n
    if len(items) != n:
        raise NnefError(e.loc, f"pack lengths differ in '{unparse(e)}'")
    return items


def _value(body, x):
    """An index item as an i32 value (or a Python int)."""
    if isinstance(x, Computed):
        if x.guarded or x.lower is not None:
            raise NnefError(body.loc, "a bounds-checked index inside another index expression")
        return x.value
    if x.is_const:
        return x.const
    return body.aff_i32(x)


def _read_pack(body, e: A.Access) -> list:
    """A tensor read as an index: one read, or one per item of a pack index (gather_nd's
    `indices[bi.., zi.., :]`)."""
    values = pack_reads(body, e)
    if values is None:
        return [Computed(_int_read(body, e))]
    for v in values:
        if not isinstance(v, tuple) or v[1] != "i32":
            raise NnefError(e.loc, f"'{unparse(e)}' must read int indices")
    return [Computed(v) for v in values]


def pack_reads(body, e: A.Access) -> list | None:
    """The reads of an access indexing one axis by a compile-time pack (a range `:` or a pack
    such as _nearest_grid_sample's `grid[ni, zi.., di]`): a pack of values, one read per item;
    None when no index is a pack."""
    axes = [p for p, ix in enumerate(e.indices) if is_pack_index(body, ix)]    # pack-valued indices
    if not axes:
        return None
    if len(axes) != 1:
        raise NnefError(e.loc, f"'{unparse(e)}' indexes more than one axis by a pack")
    p = axes[0]
    ix = e.indices[p]
    shape = body.tensor_shape(e.base.name) if isinstance(e.base, A.Ident) else None
    if shape is None:
        raise NnefError(e.loc, f"'{unparse(e)}' is not a read of a tensor")
    picks = pack_picks(body, ix, shape[sum(len(body.idx.item(x)) for x in e.indices[:p])])
    return [body.compile(A.Access(e.loc, e.base, [*e.indices[:p], A.Literal(ix.loc, int(k), "int"),
                                                  *e.indices[p + 1:]]))
            for k in picks]


def is_pack_index(body, ix) -> bool:
    """A range `:` or a compile-time pack as one index of an access."""
    if isinstance(ix, A.Range):
        return True
    if isinstance(ix, A.Expand) or body.idx.uses_loop(ix):
        return False
    try:
        return isinstance(body.compile_time_value(ix), list)
    except NnefError:       # a run-time value (a tensor read): one index
        return False


def pack_picks(body, ix, extent: int) -> list[int]:
    if isinstance(ix, A.Range):
        first = 0 if ix.first is None else body.compile_time_value(ix.first)
        last = extent if ix.last is None else body.compile_time_value(ix.last)
        stride = 1 if ix.stride is None else body.compile_time_value(ix.stride)
        return list(range(extent))[slice(first, last, stride)]
    return [int(p) for p in body.compile_time_value(ix)]


def _int_read(body, e: A.Access):
    v = body.compile(e)
    if not isinstance(v, tuple) or v[1] != "i32":
        raise NnefError(e.loc, f"'{unparse(e)}' must read int indices")
    return v


def to_index(body, v) -> str:
    """An i32 value (or a Python int) as an index SSA value."""
    if not isinstance(v, tuple):
        return body.cidx(int(v))
    s = body.fresh()
    body.lines.append(f"      {s} = arith.index_cast {v[0]} : i32 to index")
    return s


def in_range(body, s: str, n: int) -> str:
    zero, top = body.cidx(0), body.cidx(n)
    ge, lt, ok = body.fresh(), body.fresh(), body.fresh()
    body.lines += [f"      {ge} = arith.cmpi sge, {s}, {zero} : index",
                   f"      {lt} = arith.cmpi slt, {s}, {top} : index",
                   f"      {ok} = arith.andi {ge}, {lt} : i1"]
    return ok


def clamp(body, s: str, n: int) -> str:
    lo, hi = body.fresh(), body.fresh()
    body.lines += [f"      {lo} = arith.maxsi {s}, {body.cidx(0)} : index",
                   f"      {hi} = arith.minsi {lo}, {body.cidx(max(n - 1, 0))} : index"]
    return hi


def remap(body, s: str, item: Computed, n: int) -> str:
    """lower where s < 0, upper where s >= n, s otherwise."""
    lo, hi = to_index(body, item.lower), to_index(body, item.upper)
    below, above, a, b = body.fresh(), body.fresh(), body.fresh(), body.fresh()
    body.lines += [f"      {below} = arith.cmpi slt, {s}, {body.cidx(0)} : index",
                   f"      {above} = arith.cmpi sge, {s}, {body.cidx(n)} : index",
                   f"      {a} = arith.select {above}, {hi}, {s} : index",
                   f"      {b} = arith.select {below}, {lo}, {a} : index"]
    return b


def positions(body, items, shape) -> tuple[list[str], list[str]]:
    """Index SSA values for a tensor.extract/insert at `items` and the in-range conditions
    of the guarded ones (each index clamped, so the access itself is always in bounds)."""
    idx, guards = [], []
    for it, n in zip(items, shape):
        if isinstance(it, RAff):        # remapped bounds of an affine index (lower/upper: a * e + b)
            plain = Aff(it.coefs, it.const)
            (la, lb), (ua, ub) = it.lower, it.upper
            it = Computed(_value(body, plain), lower=_value(body, plain.scale(la) + Aff.constant(lb)),
                          upper=_value(body, plain.scale(ua) + Aff.constant(ub)))
        if isinstance(it, Aff):
            s = body.aff_index(it)
            guarded = isinstance(it, GAff)
        else:
            s = to_index(body, it.value)
            guarded = it.guarded
            if it.lower is not None:
                s = remap(body, s, it, n)
        if guarded:
            guards.append(in_range(body, s, n))
        idx.append(clamp(body, s, n))
    return idx, guards
