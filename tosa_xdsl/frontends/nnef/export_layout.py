"""Recognisers of the importer's multi-operation layout forms, read before the export writes
anything (export.py skips their member operations and writes one NNEF operator at the last):
one source of truth for the float and the integer (quantized) export.

- Edge padding (to_tosa/ops.py `_pad_edges`, which integer_layout.py applies to stored
  values): per padded axis, in increasing order, CONCAT(piece, x, piece) with the pieces
  REVERSE(SLICE(x)) starting at 1 / s-1-a (REFLECT) or 0 / s-a (SYMMETRIC), or the edge
  element SLICE(x) (TILEd when more than one, REPLICATE). Consecutive axes of one padding
  become one `layout.pad{method}`, which re-imports as the same operations.
- Deconvolution (to_tosa/deconv.py): per group a TRANSPOSE_CONV2D of SLICEs of the NHWC
  input, of the NCX filter (zero-stuffed when dilated: RESHAPE, zero PAD, RESHAPE, SLICE)
  and of the bias, CONCATenated along C: one `nn.deconv{groups, dilation}`.
- Gather (to_tosa/indexing.py `_gather`): GATHER of the data RESHAPEd to [N, K, C] with the
  index RESHAPEd to [1, W] and TILEd over N, the result RESHAPEd to the definition's output
  extents: one `layout.gather{axis}` of the data and the index."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tosa_xdsl.ir.dense import to_numpy

# what an operand form none of the recognisers foresaw raises: no form there
GUARD = (KeyError, IndexError, ValueError, TypeError, AttributeError, ArithmeticError)


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
class Deconv:
    conv: object                # the first group's TRANSPOSE_CONV2D (attributes, zero points)
    x: object                   # the NHWC input, the NCX filter [IC, FC, KH, KW], the whole bias
    w: object
    bias: object
    dilation: list
    groups: int


@dataclass
class Forms:
    skipped: set = field(default_factory=set)     # member operations: written by their final one
    pads: dict = field(default_factory=dict)      # final CONCAT -> EdgePad
    gathers: dict = field(default_factory=dict)   # final operation -> Gather
    deconvs: dict = field(default_factory=dict)   # final operation -> Deconv
    casts: dict = field(default_factory=dict)     # final operation -> export_cast.Cast
    rounds: dict = field(default_factory=dict)    # final operation -> export_cast.Round
    scatters: dict = field(default_factory=dict)  # final operation -> export_cast.Scatter


def _shape_values(v) -> list[int] | None:
    op = v.owner
    if getattr(op, "name", None) != "tosa.const_shape":
        return None
    return [int(x) for x in to_numpy(op.properties["values"]).reshape(-1)]


def _shape(v) -> list[int]:
    """The extents, -1 for a run-time one."""
    return [d if d >= 0 else -1 for d in v.type.get_shape()]


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


def _fold(shape) -> int:
    return -1 if any(d < 0 for d in shape) else math.prod(shape)


def _edge_pads(block, forms: Forms):
    groups: dict = {}      # concat result -> (EdgePad, the group's final op)
    for op in block.ops:
        if op.name != "tosa.concat":
            continue
        try:
            step = _edge_step(op)
        except GUARD:
            step = None
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
        # a run-time extent (-1) folds into a `?` of K, C or W (the importer's one -1 per
        # reshape); the axes before `axis` make N, compile-time extents
        if n < 0 or _fold(ishape) != w:
            continue
        axis = next((a for a in range(len(ds)) if ds[a] == k and min(ds[:a], default=0) >= 0
                     and math.prod(ds[:a]) == n and _fold(ds[a + 1:]) == c
                     and ds[:a] + ishape + ds[a + 1:] == oshape), None)
        if axis is None:
            continue
        # the importer's shapes exactly (a reshape it would not write makes another TOSA)
        if (data is values) != (ds == [n, k, c]) or (index is idx) != (ishape == [1, w]) \
                or (final is op) != (oshape == [n, w, c]):
            continue
        forms.gathers[final] = Gather(data, index, axis)
        forms.skipped |= set(members) - {final}


def _part(v, axis, ops):
    """(source, start along axis) when v is a SLICE (of one use) keeping every other axis
    whole (its member appended to ops), else (v, 0)."""
    op = v.owner
    if getattr(op, "name", None) != "tosa.slice" or not _single_use(v):
        return v, 0
    start, size = _shape_values(op.operands[1]), _shape_values(op.operands[2])
    src = op.operands[0]
    full = _shape(src)
    if start is None or size is None or len(start) != len(full) or any(
            (start[i], size[i]) != (0, full[i]) for i in range(len(full)) if i != axis):
        return v, 0
    ops.append(op)
    return src, start[axis]


def _dilated(v, ops):
    """(filter, [dh, dw]) when v is to_tosa/deconv.py `dilate` of an NCX filter, else (v, [1, 1])."""
    chain, names = [], ("tosa.slice", "tosa.reshape", "tosa.pad", "tosa.reshape")
    u = v
    for name in names:
        if getattr(u.owner, "name", None) != name or not _single_use(u):
            return v, [1, 1]
        chain.append(u.owner)
        u = u.owner.operands[0]
    src = _shape(u)
    if len(src) != 4 or any(d < 0 for d in src):
        return v, [1, 1]
    ic, oc, kh, kw = src
    pads = _shape_values(chain[2].operands[1])
    if not pads or len(pads) != 12 or any(pads[i] for i in range(12) if i not in (7, 11)):
        return v, [1, 1]
    dh, dw = pads[7] + 1, pads[11] + 1
    value = chain[2].operands[2].owner
    if getattr(value, "name", None) != "tosa.const" or to_numpy(value.properties["values"]).any():
        return v, [1, 1]
    taps = [ic, oc, (kh - 1) * dh + 1, (kw - 1) * dw + 1]
    if _shape(chain[3].results[0]) != [ic, oc, kh, 1, kw, 1] or _shape(chain[1].results[0]) != [
            ic, oc, kh * dh, kw * dw] or _shape_values(chain[0].operands[1]) != [0, 0, 0, 0] or _shape(v) != taps:
        return v, [1, 1]
    ops += chain
    return u, [dh, dw]


def _deconv_group(conv):
    """(input, its channel start, filter, its row start, dilation, bias, its start, members)
    of one group's TRANSPOSE_CONV2D, or None."""
    ops = []
    weight = conv.operands[1]
    t = weight.owner
    if getattr(t, "name", None) != "tosa.transpose" or not _single_use(weight) or \
            [int(p) for p in t.properties["perms"].get_values()] != [1, 2, 3, 0]:
        return None
    ops.append(t)
    wg, dilation = _dilated(t.operands[0], ops)
    w, w0 = _part(wg, 0, ops)
    x, x0 = _part(conv.operands[0], 3, ops)
    b, b0 = _part(conv.operands[2], 0, ops)
    return x, x0, w, w0, dilation, b, b0, ops


def _deconvs(block, forms: Forms):
    for op in block.ops:
        if op.name == "tosa.transpose_conv2d":
            part = _deconv_group(op)
            # one group: the whole input, filter and bias (the dilation's SLICE the only one)
            if part is None or part[4] == [1, 1] or sum(o.name == "tosa.slice" for o in part[7]) != 1 or \
                    _shape(part[2])[0] != _shape(part[0])[3] or _shape(part[5]) not in ([1], [_shape(part[2])[1]]):
                continue
            x, _, w, _, dilation, b, _, ops = part
            forms.deconvs[op] = Deconv(op, x, w, b, dilation, 1)
            forms.skipped |= set(ops)
            continue
        if op.name != "tosa.concat" or op.properties["axis"].value.data != 3 or len(op.operands) < 2:
            continue
        convs = [v.owner for v in op.operands]
        if any(getattr(c, "name", None) != "tosa.transpose_conv2d" or not _single_use(c.results[0]) for c in convs):
            continue
        parts = [_deconv_group(c) for c in convs]
        if any(p is None for p in parts):
            continue
        g = len(parts)
        x, _, w, _, dilation, b, _, _ = parts[0]
        xs, ws = _shape(x), _shape(w)
        if len(xs) != 4 or len(ws) != 4 or ws[0] != xs[3] or xs[3] % g:
            continue
        m, fc = xs[3] // g, ws[1]
        shared_bias = _shape(b) == [1]
        same = lambda a, c, name: str(a.properties[name]) == str(c.properties[name])
        if all(p[0] is x and p[1] == gi * m and p[2] is w and p[3] == gi * m and p[4] == dilation and p[5] is b
               and p[6] == (0 if shared_bias else gi * fc) and _shape(c.operands[0])[3] == m
               and same(c, convs[0], "out_pad") and same(c, convs[0], "stride")
               for gi, (p, c) in enumerate(zip(parts, convs))) and (shared_bias or _shape(b) == [fc * g]):
            forms.deconvs[op] = Deconv(convs[0], x, w, b, dilation, g)
            forms.skipped |= {o for p in parts for o in p[7]} | set(convs)


def _guarded(recogniser, block, forms: Forms):
    """`recogniser` on each operation alone: an operand form none foresaw (unranked or
    mutated TOSA) is no form; the export then writes (or refuses) those operations one by one."""
    for op in list(block.ops):
        trial = Forms()
        try:
            recogniser(_One(op), trial)
        except GUARD:
            continue
        for kind in ("pads", "gathers", "deconvs"):
            getattr(forms, kind).update(getattr(trial, kind))
        forms.skipped |= trial.skipped


class _One:
    """A block view holding one operation (for _guarded)."""

    def __init__(self, op):
        self.ops = [op]


def recognise(fn) -> Forms:
    forms = Forms()
    block = fn.body.block
    _edge_pads(block, forms)
    _guarded(_gathers, block, forms)
    _guarded(_deconvs, block, forms)
    return forms
