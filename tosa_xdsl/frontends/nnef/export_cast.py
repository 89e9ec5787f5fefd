"""TOSA CAST, SCATTER and ARGMAX -> NNEF 2.0 (export.py's `generic` defers here).

Recognisers of the importer's forms (read before anything is written, like export_layout.py),
so NNEF -> TOSA -> NNEF gives back the operator the model had:
- layout.cast<int> of a real (to_tosa/ops.py `_cast`): CAST(SELECT(0 > x, CEIL(x), FLOOR(x)))
  (truncation toward zero); layout.cast<bool>: LOGICAL_NOT(EQUAL(x, 0)).
- math.round (to_tosa/activations.py `_round`): SELECT(2^23 > ABS(x), CAST(CAST(x):i32):f32, x).
- layout.scatter{axis} (to_tosa/indexing.py `_scatter`): the data, indices and updates
  TRANSPOSEd to bring `axis` last and RESHAPEd to [N, K, 1] / [N, W] / [N, W, 1], one
  SCATTER, its result RESHAPEd and TRANSPOSEd back.

Any other CAST is written by what TOSA 1.0.1's CAST computes (2.13.1): int -> real and
bool -> int / real are `layout.cast`; -> bool is `!= 0`, `layout.cast<bool>`; real -> int
rounds to nearest, ties to even, and saturates at the int32 range, where the NNEF definition's
`int(x)` truncates and is undefined out of range: `math.round`, clamped to the reals that fit
(-2^31 .. 2^31 - 128, the largest f32 below 2^31), cast, and 2^31 - 1 selected where the
rounded value is 2^31 or more. Casts of i8/i16 (quantized storage, export_quant.py) are not
written here. A general SCATTER [N, K, C] is layout.scatter{axis=1} with the [N, W] index
reshaped to [N, W, 1] and tiled over C (the definition indexes every element)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tosa_xdsl.frontends.nnef.export_layout import GUARD, Forms, _shape, _single_use
from tosa_xdsl.frontends.nnef.export_quant import ExportError, elem
from tosa_xdsl.ir.dense import to_numpy

INT32_MAX = 2 ** 31 - 1
F32_BELOW_2_31 = 2147483520.0      # the largest f32 below 2^31: every f32 up to it fits an int32


@dataclass
class Cast:
    source: object
    to: str                     # "int" or "bool"


@dataclass
class Round:
    source: object


@dataclass
class Scatter:
    data: object
    indices: object
    updates: object
    axis: int


def _name(v):
    return getattr(v.owner, "name", None)


def _constant(v):
    """The data of a constant (through RESHAPEs of it), else None."""
    while _name(v) == "tosa.reshape":
        v = v.owner.operands[0]
    if _name(v) != "tosa.const":
        return None
    return to_numpy(v.owner.properties["values"])


def _only(v, name):
    """v's defining operation when it is `name` and v has this one use, else None."""
    return v.owner if _name(v) == name and _single_use(v) else None


def _truncation(op, forms: Forms):
    """CAST(SELECT(0 > x, CEIL(x), FLOOR(x))) f32 -> i32: layout.cast<int>(x)."""
    if elem(op.operands[0].type) != "f32" or elem(op.results[0].type) != "i32":
        return
    sel = _only(op.operands[0], "tosa.select")
    if sel is None:
        return
    neg, ceil, floor = (_only(v, n) for v, n in zip(sel.operands, ("tosa.greater", "tosa.ceil", "tosa.floor")))
    if neg is None or ceil is None or floor is None:
        return
    x = ceil.operands[0]
    zero = _constant(neg.operands[0])
    if floor.operands[0] is not x or neg.operands[1] is not x or zero is None or zero.size != 1 or zero.any():
        return
    forms.casts[op] = Cast(x, "int")
    forms.skipped |= {sel, neg, ceil, floor}


def _nonzero(op, forms: Forms):
    """LOGICAL_NOT(EQUAL(x, 0)): layout.cast<bool>(x)."""
    eq = _only(op.operands[0], "tosa.equal")
    if eq is None or elem(eq.operands[0].type) not in ("f32", "i32"):
        return
    zero = _constant(eq.operands[1])
    if zero is None or zero.size != 1 or zero.any() or _shape(eq.operands[0]) != _shape(op.results[0]):
        return
    forms.casts[op] = Cast(eq.operands[0], "bool")
    forms.skipped.add(eq)


def _round(op, forms: Forms):
    """SELECT(2^23 > ABS(x), CAST(CAST(x):i32):f32, x): math.round(x)."""
    small, back, x = op.operands
    if elem(x.type) != "f32":
        return
    gt, cast = _only(small, "tosa.greater"), _only(back, "tosa.cast")
    if gt is None or cast is None:
        return
    inner = _only(cast.operands[0], "tosa.cast")
    absolute = _only(gt.operands[1], "tosa.abs")
    bound = _constant(gt.operands[0])
    if inner is None or absolute is None or inner.operands[0] is not x or absolute.operands[0] is not x \
            or elem(inner.results[0].type) != "i32" or bound is None or bound.size != 1 \
            or float(bound.reshape(-1)[0]) != 2.0 ** 23 or _shape(x) != _shape(op.results[0]):
        return
    forms.rounds[op] = Round(x)
    forms.skipped |= {gt, cast, inner, absolute}


def _unview(v):
    """(source, perm, members) of v = RESHAPE(TRANSPOSE(source, perm)) (either optional, one use each)."""
    members = []
    if _only(v, "tosa.reshape"):
        members.append(v.owner)
        v = v.owner.operands[0]
    perm = None
    if _only(v, "tosa.transpose"):
        members.append(v.owner)
        perm = [int(p) for p in v.owner.properties["perms"].get_values()]
        v = v.owner.operands[0]
    return v, perm, members


def _scatter(op, forms: Forms):
    """The importer's layout.scatter{axis}: transposes bringing axis last, [N, K, 1] views."""
    (data, p1, m1), (index, p2, m2), (update, p3, m3) = (_unview(v) for v in op.operands)
    rank = len(_shape(data))
    perm = p1 or list(range(rank))
    if (p2 or list(range(rank))) != perm or (p3 or list(range(rank))) != perm or len(perm) != rank:
        return
    axis = perm[-1]
    if perm != [a for a in range(rank) if a != axis] + [axis]:
        return
    ds, ishape, ushape = _shape(data), _shape(index), _shape(update)
    if min(ds + ishape, default=0) < 0 or len(ishape) != rank or ushape != ishape \
            or [d for a, d in enumerate(ds) if a != axis] != [d for a, d in enumerate(ishape) if a != axis]:
        return
    n = int(np.prod([ds[a] for a in perm[:-1]]))
    k, w = ds[axis], ishape[axis]
    if _shape(op.operands[0]) != [n, k, 1] or _shape(op.operands[1]) != [n, w] or _shape(op.operands[2]) != [n, w, 1]:
        return
    final, ms = op, m1 + m2 + m3 + [op]
    out = op.results[0]
    if _single_use(out) and next(iter(out.uses)).operation.name == "tosa.reshape":
        final = next(iter(out.uses)).operation
        out = final.results[0]
        if _single_use(out) and next(iter(out.uses)).operation.name == "tosa.transpose":
            t = next(iter(out.uses)).operation
            if [int(p) for p in t.properties["perms"].get_values()] == [perm.index(a) for a in range(rank)]:
                ms.append(final)
                final = t
                out = t.results[0]
    # the result back in the data's layout (a transposed result of equal extents is not)
    if _shape(out) != ds or (perm != list(range(rank)) and final.name != "tosa.transpose"):
        return
    forms.scatters[final] = Scatter(data, index, update, axis)
    forms.skipped |= set(ms) - {final}


RECOGNISERS = {"tosa.cast": _truncation, "tosa.logical_not": _nonzero, "tosa.select": _round,
               "tosa.scatter": _scatter}


def recognise_more(fn, forms: Forms):
    """Add the importer's cast, round and scatter forms to `forms` (an operand form none of
    the recognisers foresaw, e.g. unranked or mutated TOSA, is no form)."""
    for op in list(fn.body.block.ops):
        rec = RECOGNISERS.get(op.name)
        if rec is None or op in forms.skipped:
            continue
        trial = Forms()
        try:
            rec(op, trial)
        except GUARD:
            continue
        forms.casts.update(trial.casts)
        forms.rounds.update(trial.rounds)
        forms.scatters.update(trial.scatters)
        forms.skipped |= trial.skipped


def write_cast(ex, op) -> str:
    """A CAST outside the importer's forms, by what TOSA's CAST computes (module docstring)."""
    x = op.operands[0]
    src, dst = elem(x.type), elem(op.results[0].type)
    rank = len(_shape(x))
    name = ex.get(x)
    if src in ("i8", "i16") or dst in ("i8", "i16"):
        raise ExportError(f"a {src} -> {dst} cast outside the quantized patterns (i8/i16 are quantized storage "
                          "here, not NNEF integers)")
    if src == dst:
        return ex.emit(f"math.iden({name})")
    if dst == "i1":
        return ex.emit(f"layout.cast<bool>({name})")
    if dst == "f32":
        return ex.emit(f"layout.cast<real>({name})")
    if src == "i1":
        return ex.emit(f"layout.cast<int>({name})")
    # f32 -> i32: round to nearest (ties to even), saturating; NNEF's int() truncates and is
    # undefined outside the int range, so the value is clamped into it before the cast
    def const(value, dtype):
        return ex.variable(np.full([1] * rank, value, dtype=dtype))
    r = ex.emit(f"math.round({name})")
    low = ex.emit(f"math.max({r}, {const(-2.0 ** 31, np.float32)})")
    fits = ex.emit(f"math.min({low}, {const(F32_BELOW_2_31, np.float32)})")
    i = ex.emit(f"layout.cast<int>({fits})")
    big = ex.emit(f"math.ge({r}, {const(2.0 ** 31, np.float32)})")
    return ex.emit(f"math.select({big}, {const(INT32_MAX, np.int32)}, {i})")


def write_scatter(ex, op, shape) -> str:
    """SCATTER [N, K, C]: output[n, indices[n, w], c] = updates[n, w, c], the definition's
    layout.scatter{axis=1} with the index repeated along C."""
    values, indices, updates = op.operands
    n, w = _shape(indices)
    c = shape[2]
    if min(shape + [n, w]) < 0:
        raise ExportError("tosa.scatter with extents known only at run time")
    idx = ex.emit(f"layout.reshape{{shape=[{n}, {w}, 1]}}({ex.get(indices)})")
    if c != 1:
        idx = ex.emit(f"layout.tile{{axes=[2], repeats=[{c}]}}({idx})")
    return ex.emit(f"layout.scatter{{axis=1}}({ex.get(values)}, {idx}, {ex.get(updates)})")
