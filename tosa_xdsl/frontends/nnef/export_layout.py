"""Recognisers of the importer's multi-operation layout forms, read before the export writes
anything (export.py skips their member operations and writes one NNEF operator at the last):
one source of truth for the float and the integer (quantized) export.

- Edge padding (to_tosa/ops.py `_pad_edges`, which integer_layout.py applies to stored
  values): per padded axis, in increasing order, CONCAT(piece, x, piece) with the pieces
  REVERSE(SLICE(x)) starting at 1 / s-1-a (REFLECT) or 0 / s-a (SYMMETRIC), or the edge
  element SLICE(x) (TILEd when more than one, REPLICATE). Consecutive axes of one padding
  become one `layout.pad{method}`, which re-imports as the same operations.
- Gather (to_tosa/indexing.py `_gather`): GATHER of the data RESHAPEd to [N, K, C] with the
  index RESHAPEd to [1, W] and TILEd over N, the result RESHAPEd to the definition's output
  extents: one `layout.gather{axis}` of the data and the index."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tosa_xdsl.ir.dense import to_numpy


@dataclass
class EdgePad:
    source: object              # the SSA value padded
    method: str                 # REFLECT, SYMMETRIC or REPLICATE
    pads: dict = field(default_factory=dict)   # axis -> (before, after)


@dataclass
class Gather:
    data: object                # the SSA values of layout.gather's operands
    index: object
    axis: int


@dataclass
class Forms:
    skipped: set = field(default_factory=set)     # member operations: written by their final one
    pads: dict = field(default_factory=dict)      # final CONCAT -> EdgePad
    gathers: dict = field(default_factory=dict)   # final operation -> Gather


def _shape_values(v) -> list[int] | None:
    op = v.owner
    if getattr(op, "name", None) != "tosa.const_shape":
        return None
    return [int(x) for x in to_numpy(op.properties["values"]).reshape(-1)]


def _shape(v) -> list[int]:
    return list(v.type.get_shape())


def _single_use(v) -> bool:
    return len(list(v.uses)) == 1


def _piece(v):
    """(source, start, size, reversed, extent along the axis, reverse/tile axis or None,
    member ops) when v is a slice of a tensor, optionally REVERSEd or TILEd, else None."""
    if not _single_use(v) or getattr(v.owner, "name", None) not in ("tosa.reverse", "tosa.tile", "tosa.slice"):
        return None
    op = v.owner
    ops, rev, axis, repeat = [op], False, None, None
    if op.name != "tosa.slice":
        inner = op.operands[0]
        if not _single_use(inner) or getattr(inner.owner, "name", None) != "tosa.slice":
            return None
        if op.name == "tosa.reverse":
            rev, axis = True, op.properties["axis"].value.data
        else:
            repeat = _shape_values(op.operands[1])
            if repeat is None:
                return None
        op = inner.owner
        ops.append(op)
    start, size = _shape_values(op.operands[1]), _shape_values(op.operands[2])
    if start is None or size is None:
        return None
    return op.operands[0], start, size, rev, axis, repeat, ops


def _edge_step(op):
    """(x, axis, method, before, after, member ops) when CONCAT `op` is one axis of the
    importer's edge padding of x, else None."""
    ins = list(op.operands)
    if len(ins) not in (2, 3):
        return None
    axis = op.properties["axis"].value.data
    for c in ([1] if len(ins) == 3 else [0, 1]):
        x = ins[c]
        shape = _shape(x)
        if not 0 <= axis < len(shape) or any(d < 0 for d in shape):
            continue
        s = shape[axis]
        sides = {"before": ins[0] if c == 1 else None, "after": ins[c + 1] if c + 1 < len(ins) else None}
        methods, amounts, members = set(), {"before": 0, "after": 0}, [op]
        for side, v in sides.items():
            p = _piece(v) if v is not None else None
            if v is not None and (p is None or p[0] is not x):
                break
            if p is None:
                continue
            _, start, size, rev, rev_axis, repeat, ops = p
            n = size[axis]
            if any(start[i] != 0 or size[i] != shape[i] for i in range(len(shape)) if i != axis) or n <= 0:
                break
            if rev:
                if rev_axis != axis:
                    break
                first = {"REFLECT": 1, "SYMMETRIC": 0} if side == "before" else {"REFLECT": s - 1 - n,
                                                                                  "SYMMETRIC": s - n}
                fits = {m for m, f in first.items() if f == start[axis]}
                amounts[side] = n
            else:
                if repeat is not None and (len(repeat) != len(shape) or any(
                        r != 1 for i, r in enumerate(repeat) if i != axis) or repeat[axis] < 2):
                    break
                edge = 0 if side == "before" else s - 1
                fits = {"REPLICATE"} if n == 1 and start[axis] == edge else set()
                amounts[side] = repeat[axis] if repeat is not None else 1
            methods = fits if not methods else methods & fits
            if not methods:
                break
            members += ops
        else:
            if len(methods) != 1:
                continue
            method = methods.pop()
            limit = s - 1 if method == "REFLECT" else s
            if max(amounts.values()) > limit:
                continue
            return x, axis, method, amounts["before"], amounts["after"], members
    return None


def _edge_pads(block, forms: Forms):
    groups: dict = {}      # concat result -> (EdgePad, the group's final op)
    for op in block.ops:
        if op.name != "tosa.concat":
            continue
        step = _edge_step(op)
        if step is None:
            continue
        x, axis, method, before, after, members = step
        prev = groups.get(x)
        if prev is not None and prev[0].method == method and max(prev[0].pads) < axis \
                and all(u.operation in members for u in x.uses):
            pad = prev[0]                       # the next axis of the same layout.pad
            del forms.pads[prev[1]]
            forms.skipped.add(prev[1])
        else:
            pad = EdgePad(x, method)
        pad.pads[axis] = (before, after)
        forms.pads[op] = pad
        forms.skipped |= set(members) - {op}
        groups[op.results[0]] = (pad, op)


def _gathers(block, forms: Forms):
    for op in block.ops:
        if op.name != "tosa.gather":
            continue
        values, idx = op.operands
        n, k, c = _shape(values)
        _, w = _shape(idx)
        members = [op]
        # the index: [1, W] (a reshape of the NNEF index, or itself), tiled over N when N > 1
        if n != 1:
            if getattr(idx.owner, "name", None) != "tosa.tile" or not _single_use(idx) \
                    or _shape_values(idx.owner.operands[1]) != [n, 1]:
                continue
            members.append(idx.owner)
            idx = idx.owner.operands[0]
        index = idx
        if getattr(idx.owner, "name", None) == "tosa.reshape" and _single_use(idx):
            members.append(idx.owner)
            index = idx.owner.operands[0]
        data = values
        if getattr(values.owner, "name", None) == "tosa.reshape" and _single_use(values):
            members.append(values.owner)
            data = values.owner.operands[0]
        out = op.results[0]
        final = op
        if _single_use(out) and next(iter(out.uses)).operation.name == "tosa.reshape":
            final = next(iter(out.uses)).operation
            out = final.results[0]
        ds, ishape, oshape = _shape(data), _shape(index), _shape(out)
        if any(d < 0 for d in ds + ishape + oshape) or math.prod(ishape) != w:
            continue
        axis = next((a for a in range(len(ds)) if ds[a] == k and math.prod(ds[:a]) == n
                     and ds[:a] + ishape + ds[a + 1:] == oshape), None)
        if axis is None:
            continue
        # the importer's shapes exactly (a reshape it would not write makes another TOSA)
        if (data is values) != (ds == [n, k, c]) or (index is idx) != (ishape == [1, w]) \
                or (final is op) != (oshape == [n, w, c]):
            continue
        forms.gathers[final] = Gather(data, index, axis)
        forms.skipped |= set(members) - {final}


def recognise(fn) -> Forms:
    forms = Forms()
    block = fn.body.block
    _edge_pads(block, forms)
    _gathers(block, forms)
    return forms
