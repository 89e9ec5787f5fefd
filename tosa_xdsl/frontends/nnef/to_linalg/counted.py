"""Formulas writing an output whose extent is data-dependent (draft 2.12 "Data dependent output
shapes", 2.6.1): the output declares the axis as a new symbol with an upper bound
(`index: int[d, k|(s * ..)]`), and in the formula that symbol is the *next* position to write,
a counter starting at 0 that each step whose condition holds advances.

Compiled as the scf.for nest of loops.py carrying, besides the output buffer (its upper-bound
shape, zero-filled), the counter; the result is the buffer's first `count` entries along the
axis: a tensor.extract_slice of dynamic size, so the output type has a `?` extent. A target
indexed by a range along one axis (`index[:, k] = i`, packed assignment into one tensor) writes
the items of the value pack one per position, in the same step."""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.extents import is_dyn
from tosa_xdsl.frontends.nnef.semantics import Env, Unknown
from tosa_xdsl.frontends.nnef.to_linalg.affine import Aff, Indexer
from tosa_xdsl.frontends.nnef.to_linalg.computed import Computed, positions
from tosa_xdsl.frontends.nnef.to_linalg.loops import LoopBody, target_writes
from tosa_xdsl.frontends.nnef.to_linalg.scalar import _elt
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value, ttype

MAX_BUFFER = 1 << 24


def counted_axes(param: A.Param | None, env: Env) -> list[int]:
    """The axes a declared output leaves data-dependent (`k|bound` with `k` a new symbol, or
    `~|bound`, 2.6.1): those the formula counts. Other `?` extents of the output come from
    the inputs' run-time extents and are plain loop bounds."""
    if param is None:
        return []
    out = []
    for k, x in enumerate(param.type.shape or []):
        if isinstance(x.expr, A.Expand) or x.spread:
            return []
        if x.bound is not None and (x.expr is None or isinstance(x.expr, A.Tilde)
                                    or isinstance(x.expr, A.Ident) and not env.known(x.expr.name)):
            out.append(k)
    return out


def counted_symbol(low: A.Lowering, env: Env, out_type) -> str | None:
    """The counter symbol of a formula whose output has a data-dependent extent: an index of
    the target that is neither a loop index nor a known symbol."""
    if not any(is_dyn(d) for d in out_type.shape):
        return None
    bounds = {n for n, _ in low.bounds}
    for ix in low.target.indices:
        if isinstance(ix, A.Ident) and ix.name not in bounds and not env.known(ix.name) \
                and ix.name not in dict(low.locals):
            return ix.name
    raise NnefError(low.target.loc, "an output with a data-dependent extent must be written at its counter "
                    "symbol (the next position, draft 2.12)")


def counted_formula(em: Emitter, env: Env, low: A.Lowering, tensors, out_type, param: A.Param, symbol: str,
                    loop, extents) -> Value:
    if low.op != "=":
        raise NnefError(low.loc, f"a formula with a counter symbol must assign with '=', not '{low.op}'")
    dyn = counted_axes(param, env)
    if len(dyn) != 1:
        raise NnefError(low.loc, "only one data-dependent extent per output is compiled")
    if sum(is_dyn(d) for d in out_type.shape) != 1:
        raise NnefError(low.loc, "a data-dependent output extent beside extents known only at run time is "
                        "not compiled (its upper-bound buffer would need run-time sizes)")
    axis = dyn[0]
    bound = _bound(param, symbol, env)
    shape = list(out_type.shape)
    shape[axis] = bound
    if math.prod(shape) > MAX_BUFFER:
        raise NnefError(low.loc, f"the output's upper-bound shape {shape} is too large")
    t = _elt(out_type.dtype)
    init = em.const([0], shape, out_type.dtype)
    btype = init.type
    nd = len(extents)
    ivs = {k: em.fresh() for k in range(nd)}
    tensors_c = [em.fresh() for _ in range(nd + 1)]
    counts_c = [em.fresh() for _ in range(nd + 1)]
    count = counts_c[nd]
    marker = A.Call(low.loc, "__counter__", None)      # not affine: read through Computed
    locals_ = dict(low.locals)
    locals_[symbol] = marker
    body = LoopBody(em, env, Indexer(env, loop, locals_), extents, tensors, low.loc, ivs, low.target.base.name,
                    (tensors_c[nd], btype, shape))
    body.locals = dict(low.locals)
    body.locals[symbol] = marker
    body.local_values[symbol] = (count, "i32")
    body.local_packs[symbol] = [(count, "i32")]
    writes, values = target_writes(body, low, shape, t)
    cond = None
    if low.condition is not None:
        c = body.compile(low.condition)
        if c is None:
            raise NnefError(low.condition.loc, "the condition is null")
        cond = body.as_ssa(c, "i1")[0]
    guards = list(body.guards)
    inserts, current = [], tensors_c[nd]
    for where, v in zip(writes, values):
        idx, g = positions(body, [w if isinstance(w, Aff) else Computed(w.value, True, w.lower, w.upper)
                                  for w in where], shape)
        guards.extend(g)
        nxt = body.fresh()
        inserts.append(f"        {nxt} = tensor.insert {v[0]} into {current}[{', '.join(idx)}] : {btype}")
        current = nxt
    for g in guards:
        if cond is None:
            cond = g
        else:
            s = body.fresh()
            body.lines.append(f"      {s} = arith.andi {cond}, {g} : i1")
            cond = s
    one, next_count = body.fresh(), body.fresh()
    inserts += [f"        {one} = arith.constant 1 : i32", f"        {next_count} = arith.addi {count}, {one} : i32"]
    c0, c1, zero = em.fresh(), em.fresh(), em.fresh()
    lines = [f"    {c0} = arith.constant 0 : index", f"    {c1} = arith.constant 1 : index",
             f"    {zero} = arith.constant 0 : i32"]
    ns = [em.fresh() for _ in range(nd)]
    lines += [f"    {n} = arith.constant {e} : index" for n, e in zip(ns, extents)]
    result = em.fresh()
    for k in range(nd):
        src_t, src_c = (init.ssa, zero) if k == 0 else (tensors_c[k], counts_c[k])
        res = result if k == 0 else f"{tensors_c[k]}r"
        lines.append(f"    {res}:2 = scf.for {ivs[k]} = {c0} to {ns[k]} step {c1} iter_args({tensors_c[k + 1]} = "
                     f"{src_t}, {counts_c[k + 1]} = {src_c}) -> ({btype}, i32) {{")
    lines.extend(body.lines)
    final = body.fresh()
    if cond is None:
        lines += [x[2:] for x in inserts]
        lines.append(f"      scf.yield {current}, {next_count} : {btype}, i32")
    else:
        lines.append(f"      {final}:2 = scf.if {cond} -> ({btype}, i32) {{")
        lines += inserts
        lines.append(f"        scf.yield {current}, {next_count} : {btype}, i32")
        lines.append("      } else {")
        lines.append(f"        scf.yield {tensors_c[nd]}, {count} : {btype}, i32")
        lines.append("      }")
        lines.append(f"      scf.yield {final}#0, {final}#1 : {btype}, i32")
    for k in reversed(range(1, nd)):
        lines.append("    }")
        lines.append(f"      scf.yield {tensors_c[k]}r#0, {tensors_c[k]}r#1 : {btype}, i32")
    lines.append("    }")
    n_idx, out = em.fresh(), em.fresh()
    offsets = ", ".join("0" for _ in shape)
    sizes = ", ".join(n_idx if k == axis else str(d) for k, d in enumerate(shape))
    strides = ", ".join("1" for _ in shape)
    result_type = ttype(out_type.shape, out_type.dtype)
    lines += [f"    {n_idx} = arith.index_cast {result}#1 : i32 to index",
              f"    {out} = tensor.extract_slice {result}#0[{offsets}] [{sizes}] [{strides}] : {btype} to {result_type}"]
    em.lines.extend(lines)
    return Value(out, out_type.shape, out_type.dtype)


def _bound(param: A.Param, symbol: str, env: Env) -> int:
    for x in param.type.shape or []:
        if x.bound is not None and isinstance(x.expr, A.Ident) and x.expr.name == symbol:
            try:
                n = env.eval(x.bound)
            except Unknown as u:
                raise NnefError(x.bound.loc, f"'{u.name}' is not known in the upper bound of '{symbol}'") from None
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise NnefError(x.bound.loc, f"the upper bound of '{symbol}' must be a non-negative int, got {n!r}")
            return n
    raise NnefError(param.loc, f"output '{param.name}' declares no upper bound for '{symbol}'")
