"""Tensor reads in a linalg.generic body: an affine access is an operand with its indexing map
(a bounds-checked `|e|` one reads a copy padded with the reduction's null element, a remapped
`|e <> lower : upper|` one a copy extended by a tosa.gather of the remapped rows, a read past
the tensor under a condition a zero-padded copy, a plain-index read of a first part a slice);
a computed (non-affine) one is a tensor.extract in the body (computed.py)."""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.extents import is_dyn
from tosa_xdsl.frontends.nnef.semantics import unparse
from tosa_xdsl.frontends.nnef.to_linalg.affine import Aff, GAff, RAff
from tosa_xdsl.frontends.nnef.to_linalg.computed import index_items, positions
from tosa_xdsl.frontends.nnef.to_linalg.scalar import Body, _elt
from tosa_xdsl.frontends.nnef.to_tosa.emit import Value


class GenericBody(Body):
    """A generic's body: its operands with their indexing maps, and the reads of its formula."""

    def operand(self, value: Value, exprs: list[Aff]) -> tuple[str, str]:
        nd = len(self.extents)
        value = self.tight(value, exprs)
        amap = f"affine_map<({', '.join(f'd{k}' for k in range(nd))}) -> ({', '.join(a.text() for a in exprs)})>"
        for a in exprs:
            if len(a.coefs) == 1 and a.coefs[0][1] == 1 and a.const == 0:
                self.dims_seen.add(a.coefs[0][0])
        for i, (v, m) in enumerate(self.operands):
            if v.ssa == value.ssa and m == amap:
                return self.args[i]
        self.operands.append((value, amap))
        arg = (f"%a{len(self.args)}", _elt(value.dtype))
        self.args.append(arg)
        return arg

    def whole_axis(self, x: Aff, size) -> bool:
        """A plain loop index over an axis known only at run time: the definitions bound such a
        loop by the axis' own (symbolic) extent, so it walks the axis whole."""
        plain = len(x.coefs) == 1 and x.coefs[0][1] == 1 and x.const == 0
        return plain and (is_dyn(size) or is_dyn(self.extents[x.coefs[0][0]]))

    def tight(self, value: Value, exprs: list[Aff]) -> Value:
        """A tensor read along an axis by a plain loop index covering only its first part (a
        piece of layout.split): linalg infers loop ranges from such operands, so the operand
        is the slice the loop reads."""
        size = list(value.shape)
        for k, a in enumerate(exprs):
            if len(a.coefs) == 1 and a.coefs[0][1] == 1 and a.const == 0 and not is_dyn(size[k]) \
                    and not is_dyn(self.extents[a.coefs[0][0]]) and self.extents[a.coefs[0][0]] < size[k]:
                size[k] = self.extents[a.coefs[0][0]]
        if size == list(value.shape):
            return value
        em = self.em
        return em.op("tosa.slice", [value, em.shape([0] * len(size)), em.shape(size)], size, value.dtype)

    # ---------------------------------------------------------------- values
    def access(self, e: A.Access):
        base, item = e.base, None
        if isinstance(base, A.Index) and isinstance(base.base, A.Ident) and not self.idx.uses_loop(base.index):
            # 'inputs[ni][...]' of a tensor pack, ni bound at compile time (an unrolled pack loop)
            base, item = base.base, self.compile_time(base.index)
        if not isinstance(base, A.Ident):
            raise NnefError(e.loc, "tensor packs are not supported in compiled formulas")
        name = base.name
        if name not in self.tensors:
            raise NnefError(e.loc, f"'{name}' is not an input of this operator (reading outputs is an update)")
        value = self.tensors[name]
        if value is None:
            return None
        if isinstance(value, list) and isinstance(item, int) and not isinstance(item, bool) \
                and -len(value) <= item < len(value):
            value = value[item]
        if isinstance(value, list) or (item is not None and not isinstance(self.tensors[name], list)):
            raise NnefError(e.loc, "tensor packs are indexed only by a compile-time item in compiled formulas")
        try:
            exprs = []
            for ix in e.indices:
                exprs.extend(self.idx.item(ix))
        except NnefError:
            return self.computed_access(e, value)
        bounded = [k for k, x in enumerate(exprs) if isinstance(x, GAff)]
        if any(not isinstance(x, Aff) for x in exprs):
            raise NnefError(e.loc, f"indices of '{unparse(e)}' are not integer-affine")
        if len(exprs) != len(value.shape):
            raise NnefError(e.loc, f"'{unparse(e)}' has {len(exprs)} indices for a rank-{len(value.shape)} tensor")
        if bounded:
            value, exprs = self.padded(e, value, exprs, bounded)
        for k, x in enumerate(exprs):
            if isinstance(x, RAff):
                value, exprs[k] = self.remapped(e, value, k, x)
        outside = [k for k, x in enumerate(exprs) if not isinstance(x, GAff) and not self.whole_axis(x, value.shape[k])
                   and (x.range(self.extents)[0] < 0 or x.range(self.extents)[1] >= value.shape[k])]
        if outside:
            # an access reaching outside the tensor, which the formula's condition selects away
            # (layout.pad's 'in range ? input[zi..] : value'; the draft leaves such reads
            # undefined): a zero-padded copy keeps the generic's reads in bounds
            value, exprs = self.padded(e, value, exprs, outside, fill=0)
        return self.operand(value, exprs)

    def computed_access(self, e: A.Access, value: Value):
        """A read at non-affine indices (computed.py): tensor.extract inside the generic; a
        guarded index out of range reads the reduction's null element (the term is skipped)."""
        items = index_items(self, e.indices)
        if len(items) != len(value.shape):
            raise NnefError(e.loc, f"'{unparse(e)}' has {len(items)} indices for a rank-{len(value.shape)} tensor")
        idx, guards = positions(self, items, value.shape)
        r = self.fresh()
        self.lines.append(f"      {r} = tensor.extract {value.ssa}[{', '.join(idx)}] : {value.type}")
        if not guards:
            return r, _elt(value.dtype)
        if self.pad_value is None:
            raise NnefError(e.loc, "a bounds-checked access is compiled only in a reducing formula "
                            "(+=, *=, <?=, >?=), where skipping equals reading the null element")
        ok = guards[0]
        for g in guards[1:]:
            ok = self.binop(e, "&&", (ok, "i1"), (g, "i1"))[0]
        return self.select(ok, (r, _elt(value.dtype)), self.const(self.pad_value, _elt(value.dtype)))

    def remapped(self, e, value: Value, axis: int, x: RAff):
        """A remapped-bounds read `|e <> lower : upper|` along `axis`: a copy extended over e's
        whole range, row j holding row remap(j), gathered with tosa.gather; e - (first row)
        then reads it affinely. A remap that still falls outside the tensor (e.g. REFLECT
        padding wider than the input) is a read the definition leaves undefined: an error."""
        lo, hi = x.range(self.extents)
        s = value.shape[axis]
        for j in {lo, hi} | ({-1, s} & set(range(lo, hi + 1))):     # each side is linear in j
            if not 0 <= x.remap(j, s) < s:
                raise NnefError(e.loc, f"remapped index {x.remap(j, s)} (from {j}) is outside the "
                                f"tensor's extent {s} in '{unparse(e)}'")
        rows = [x.remap(j, s) for j in range(lo, hi + 1)]
        plain = Aff(x.coefs, x.const)
        if rows == list(range(lo, hi + 1)):
            return value, plain
        em = self.em
        lead, trail = math.prod(value.shape[:axis]), math.prod(value.shape[axis + 1:])
        table = em.const(rows, [1, len(rows)], "int")
        if lead != 1:
            table = em.op("tosa.tile", [table, em.shape([lead, 1])], [lead, len(rows)], "int")
        flat = em.reshape(value, [lead, s, trail])
        got = em.op("tosa.gather", [flat, table], [lead, len(rows), trail], value.dtype)
        shape = list(value.shape)
        shape[axis] = len(rows)
        return em.reshape(got, shape), plain + Aff.constant(-lo)

    def padded(self, e, value: Value, exprs, bounded, fill=None):
        if fill is None and self.pad_value is None:
            raise NnefError(e.loc, "a bounds-checked access is compiled only in a reducing formula "
                            "(+=, *=, <?=, >?=), where skipping equals reading the null element")
        pads = [0] * (2 * len(exprs))
        new = list(exprs)
        for k in bounded:
            lo, hi = exprs[k].range(self.extents)
            before = max(0, -lo)
            after = max(0, hi - (value.shape[k] - 1))
            pads[2 * k], pads[2 * k + 1] = before, after
            new[k] = Aff(exprs[k].coefs, exprs[k].const) + Aff.constant(before)
        if not any(pads):
            return value, exprs
        shape = [None if n is None else n + pads[2 * k] + pads[2 * k + 1] for k, n in enumerate(value.shape)]
        fill = self.em.const([self.pad_value if fill is None else fill], [1], value.dtype)
        out = self.em.op("tosa.pad", [value, self.em.shape(pads), fill], shape, value.dtype)
        return out, new
