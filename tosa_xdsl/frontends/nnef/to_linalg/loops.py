"""Formulas that are not a linalg.generic — conditional assignments (`..., i < n | cond`) and
updates (`:=`) whose condition reads the output being written (argmax-like searches) — become
an scf.for nest over the index bounds carrying the output tensor: each step computes the
value and the condition with tensor.extract, and an scf.if inserts the (reduced) value
(tensor.insert) or keeps the tensor. Indices may be data (`x[idx[],]`): index_cast of the
value read. Bounds-checked accesses `|e|` skip the step when out of range."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.semantics import Env, unparse
from tosa_xdsl.frontends.nnef.to_linalg.affine import Aff, Indexer
from tosa_xdsl.frontends.nnef.to_linalg.computed import Computed, index_items, is_pack_index, pack_picks, positions
from tosa_xdsl.frontends.nnef.to_linalg.packs import stack
from tosa_xdsl.frontends.nnef.to_linalg.reads import GenericBody
from tosa_xdsl.frontends.nnef.to_linalg.scalar import NULL, REDUCE_OPS, _elt
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value


class LoopBody(GenericBody):
    """Body whose accesses are tensor.extract at index values built from the loop ivs."""

    def __init__(self, em, env, idx, extents, tensors, loc, ivs, out_name, out_ref):
        super().__init__(em, env, idx, extents, tensors, None, loc)
        self.ivs = ivs                      # loop dim -> SSA of its induction variable
        self.out_name = out_name
        self.out_ref = out_ref              # (ssa of the carried output tensor, its type)
        self.guards: list[str] = []         # in-range conditions of bounds-checked accesses
        self.stacked: dict[str, Value] = {}  # input packs read by a run-time item index

    def aff_value(self, a: Aff) -> str:
        acc = self.cidx(a.const)
        for k, c in a.coefs:
            term = self.ivs[k]
            if c != 1:
                m = self.fresh()
                self.lines.append(f"      {m} = arith.muli {term}, {self.cidx(c)} : index")
                term = m
            s = self.fresh()
            self.lines.append(f"      {s} = arith.addi {acc}, {term} : index")
            acc = s
        return acc

    def pack_item_access(self, e: A.Access):
        """`xs[k][i..]`, an item of an input pack chosen by a loop index or a value read at
        run time (math.argmax_n's `xs[y[i..]][i..]`): a read of the pack stacked along a new
        leading axis, the item index its first index (clamped: an item outside the pack is
        undefined in the draft)."""
        name = e.base.base.name
        items = self.tensors[name]
        if not items or any(x.shape != items[0].shape or x.dtype != items[0].dtype for x in items):
            raise NnefError(e.loc, f"the items of pack '{name}' differ in shape: '{unparse(e)}' needs a "
                            "compile-time item index")
        if name not in self.stacked:
            self.stacked[name] = stack(self.em, items)
        whole = self.stacked[name]
        at = index_items(self, [e.base.index, *e.indices])
        if len(at) != len(whole.shape):
            raise NnefError(e.loc, f"{len(at) - 1} indices for rank-{len(whole.shape) - 1} items of '{name}'")
        idx, guards = positions(self, at, whole.shape)
        self.guards.extend(guards)
        r = self.fresh()
        self.lines.append(f"      {r} = tensor.extract {whole.ssa}[{', '.join(idx)}] : {whole.type}")
        return r, _elt(whole.dtype)

    def aff_index(self, a: Aff) -> str:
        return self.aff_value(a)

    def tensor_shape(self, name: str):
        return self.out_ref[2] if name == self.out_name else super().tensor_shape(name)

    def aff_i32(self, a: Aff):
        return self.index_value(a)

    def index_value(self, a: Aff):
        v = self.aff_value(a)
        r = self.fresh()
        self.lines.append(f"      {r} = arith.index_cast {v} : index to i32")
        return r, "i32"

    def access(self, e: A.Access):
        if isinstance(e.base, A.Index) and isinstance(e.base.base, A.Ident) \
                and isinstance(self.tensors.get(e.base.base.name), list):
            return self.pack_item_access(e)
        if not isinstance(e.base, A.Ident):
            raise NnefError(e.loc, "tensor packs are not supported in compiled formulas")
        name = e.base.name
        if name == self.out_name:
            tensor_ssa, ttype, shape = self.out_ref
            el = ttype.split("x")[-1].rstrip(">") if "x" in ttype else ttype[7:-1]
        else:
            if name not in self.tensors:
                raise NnefError(e.loc, f"'{name}' is not an input of this operator")
            value = self.tensors[name]
            if value is None:
                return None
            if isinstance(value, list):
                raise NnefError(e.loc, "tensor packs are not supported in compiled formulas")
            tensor_ssa, ttype, shape, el = value.ssa, value.type, value.shape, _elt(value.dtype)
        items = index_items(self, e.indices)
        if len(items) != len(shape):
            raise NnefError(e.loc, f"{len(items)} indices for a rank-{len(shape)} tensor")
        idx, guards = positions(self, items, shape)
        self.guards.extend(guards)
        r = self.fresh()
        self.lines.append(f"      {r} = tensor.extract {tensor_ssa}[{', '.join(idx)}] : {ttype}")
        return r, el


def loop_formula(em: Emitter, env: Env, low: A.Lowering, tensors, out_type, init: Value | None,
                 loop, extents) -> Value:
    t = _elt(out_type.dtype)
    if init is None:
        if low.op == ":=":
            raise NnefError(low.loc, "an update ':=' needs an initializing '=' formula first")
        fill = NULL.get(low.op, 0)
        init = em.const([fill], out_type.shape, out_type.dtype)
    name = low.target.base.name
    nd = len(extents)
    ivs = {k: f"%i{k}" for k in range(nd)}
    carried = [f"%t{k}" for k in range(nd + 1)]
    ttype = init.type
    body = LoopBody(em, env, Indexer(env, loop, dict(low.locals)), extents, tensors, low.loc, ivs, name,
                    (carried[nd], ttype, out_type.shape))
    body.locals = dict(low.locals)
    # output indices: affine, or read from a tensor (layout.scatter's
    # `output[si.., indices[si.., mi, ti..], ti..]`; a write outside the output is skipped);
    # an axis indexed by a pack (`idx[:,] := [i, j]`) writes the value's items in one step
    writes, values = target_writes(body, low, out_type.shape, t)
    news, places = [], []
    for where, v in zip(writes, values):
        out_idx, guards = positions(body, [a if isinstance(a, Aff) else Computed(a.value, True, a.lower, a.upper)
                                           for a in where], out_type.shape)
        body.guards.extend(guards)
        if low.op in ("=", ":="):
            news.append(v[0])
        else:
            key = (low.op, t)
            if key not in REDUCE_OPS:
                raise NnefError(low.loc, f"'{low.op}' on {t} is not supported")
            cur = body.fresh()
            new = body.fresh()
            body.lines.append(f"      {cur} = tensor.extract {carried[nd]}[{', '.join(out_idx)}] : {ttype}")
            body.lines.append(f"      {new} = {REDUCE_OPS[key]} {cur}, {v[0]} : {t}")
            news.append(new)
        places.append(out_idx)
    conds = list(body.guards)
    if low.condition is not None:
        c = body.compile(low.condition)
        if c is None:
            raise NnefError(low.condition.loc, "the condition is null")
        conds.append(body.as_ssa(c, "i1")[0])
    cond = None
    for c in conds:
        if cond is None:
            cond = c
        else:
            s = body.fresh()
            body.lines.append(f"      {s} = arith.andi {cond}, {c} : i1")
            cond = s
    lines = []
    # the bounds live in the function's scope: fresh names, as two instances of one formula
    # (the operator used twice) are emitted into the same function
    c0, c1 = em.fresh(), em.fresh()
    lines.append(f"    {c0} = arith.constant 0 : index")
    lines.append(f"    {c1} = arith.constant 1 : index")
    result = em.fresh()
    bounds = [em.fresh() for _ in range(nd)]
    for k in range(nd):
        lines.append(f"    {bounds[k]} = arith.constant {extents[k]} : index")
    for k in range(nd):
        src = init.ssa if k == 0 else carried[k]
        res = result if k == 0 else f"%r{k}"
        lines.append(f"    {res} = scf.for {ivs[k]} = {c0} to {bounds[k]} step {c1} "
                     f"iter_args({carried[k + 1]} = {src}) -> ({ttype}) {{")
    if nd == 0:
        # no loop: one step on the initial tensor
        lines.append(f"    {carried[0]} = tensor.cast {init.ssa} : {ttype} to {ttype}")
    lines.extend(body.lines)
    ins, inserted = [], carried[nd]
    for new, out_idx in zip(news, places):
        nxt = body.fresh()
        ins.append(f"      {nxt} = tensor.insert {new} into {inserted}[{', '.join(out_idx)}] : {ttype}")
        inserted = nxt
    if cond is None:
        lines.extend(ins)
        final = inserted
    else:
        final = body.fresh()
        lines.append(f"      {final} = scf.if {cond} -> ({ttype}) {{")
        lines.extend(ins)
        lines.append(f"        scf.yield {inserted} : {ttype}")
        lines.append("      } else {")
        lines.append(f"        scf.yield {carried[nd]} : {ttype}")
        lines.append("      }")
    for k in reversed(range(nd)):
        inner = final if k == nd - 1 else f"%r{k + 1}"
        lines.append(f"      scf.yield {inner} : {ttype}")
        lines.append("    }")
    if nd == 0:
        lines.append(f"    {result} = tensor.cast {final} : {ttype} to {ttype}")
    em.lines.extend(lines)
    return Value(result, out_type.shape, out_type.dtype)


def target_writes(body, low: A.Lowering, shape, t: str) -> tuple[list, list]:
    """The positions a formula writes in one step and their values: one (the value at the
    target's indices), or, when one axis of the target is indexed by a pack (a range `:` or a
    compile-time pack: packed assignment into one tensor, `idx[:,] = 0`), one per item, the
    value a pack of as many items (or one, repeated)."""
    spread_at, items = None, []
    for ix in low.target.indices:
        if is_pack_index(body, ix):
            if spread_at is not None:
                raise NnefError(ix.loc, "only one axis of the output can be indexed by a pack")
            spread_at = len(items)
            items.append(ix)
        else:
            items.extend(index_items(body, [ix]))
    if len(items) != len(shape):
        raise NnefError(low.target.loc, "the output access must have one index per axis")
    if spread_at is None:
        writes, values = [items], [body.compile(low.value)]
    else:
        picks = pack_picks(body, items[spread_at], shape[spread_at])
        values = body.compile_pack(low.value)
        if len(values) == 1:
            values = values * len(picks)
        if len(values) != len(picks):
            raise NnefError(low.value.loc, f"the value '{unparse(low.value)}' has {len(values)} items for "
                            f"{len(picks)} positions")
        writes = [items[:spread_at] + [Aff.constant(p)] + items[spread_at + 1:] for p in picks]
    out = []
    for v in values:
        if v is None:
            raise NnefError(low.value.loc, "the formula's value is null (resolve optional inputs with '??')")
        v = body.as_ssa(v, t)
        if v[1] != t:
            raise NnefError(low.value.loc, f"the formula computes {v[1]}, the output is {t}")
        out.append(v)
    return writes, out
