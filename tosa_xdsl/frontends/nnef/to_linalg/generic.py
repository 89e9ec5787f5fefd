"""One linalg.generic per @lower formula (see the package docstring): the loop dimensions and
iterator types, the output's indexing map (plain loop indices, row-major merges of them, or
pieces of an unrolled tensor-pack formula), the reduction's initial value, and the dispatch
to scf loops (loops.py) or counters (counted.py) where a generic does not fit."""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.extents import Dyn
from tosa_xdsl.frontends.nnef.semantics import Env, Unknown, identifiers
from tosa_xdsl.frontends.nnef.to_linalg.affine import Aff, Indexer
from tosa_xdsl.frontends.nnef.to_linalg.counted import counted_axes, counted_formula, counted_symbol
from tosa_xdsl.frontends.nnef.to_linalg.loops import loop_formula
from tosa_xdsl.frontends.nnef.to_linalg.reads import GenericBody
from tosa_xdsl.frontends.nnef.to_linalg.scalar import NULL, REDUCE_OPS, _elt
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value


def _mixed_radix(a: Aff, extents) -> list[int] | None:
    """The loop dims of an output index `c1*d1 + c2*d2 + ...` that enumerates the merged axis in
    row-major order (last coefficient 1, each coefficient the product of the later extents),
    outermost first; None otherwise."""
    if a.const != 0 or not a.coefs:
        return None
    terms = sorted(a.coefs, key=lambda kc: -kc[1])
    expect = 1
    for k, c in reversed(terms):
        if c != expect:
            return None
        expect *= extents[k]
    return [k for k, _ in terms]


def _empty(em: Emitter, out_type) -> Value:
    v = Value(em.fresh(), out_type.shape, out_type.dtype)
    em.lines.append(f"    {v.ssa} = tensor.empty() : {v.type}")
    return v


def _runtime_sizes(em: Emitter, env: Env, tensors, shape, low) -> list[str]:
    """The index values of an output's run-time extents (its `?` dims, in order), compiled from
    their symbolic form (draft 3.1: shape expressions as scalar code): an input's run-time
    extent is its `tensor.dim`, arithmetic on extents `arith` ops on index values."""
    sources = {}
    for name, v in tensors.items():
        shape_of = env.values.get(f"{name}.shape")
        if isinstance(v, Value) and isinstance(shape_of, list) and len(shape_of) == len(v.shape):
            for axis, d in enumerate(shape_of):
                if isinstance(d, Dyn) and v.shape[axis] is None:
                    sources.setdefault(d.key, (v, axis))
    made = {}

    def index(key) -> str:
        if key in made:
            return made[key]
        out = em.fresh()
        if key[0] == "const" and isinstance(key[1], int) and not isinstance(key[1], bool):
            em.lines.append(f"    {out} = arith.constant {key[1]} : index")
        elif key in sources:
            value, axis = sources[key]
            c = index(("const", axis))
            em.lines.append(f"    {out} = tensor.dim {value.ssa}, {c} : {value.type}")
        elif key[0] in ARITH_INDEX and len(key) == 3:
            a, b = index(key[1]), index(key[2])
            em.lines.append(f"    {out} = {ARITH_INDEX[key[0]]} {a}, {b} : index")
        else:
            raise NnefError(low.loc, "an output extent known only at run time that is neither an input's "
                            "extent nor arithmetic on them: road 2 does not compile it")
        made[key] = out
        return out
    return [index(d.key) for d in shape if isinstance(d, Dyn)]


# the operators of extents.dyn_binary's symbolic keys on index values (extents are non-negative,
# so floor division and the rounding-down modulo are the signed ones)
ARITH_INDEX = {"+": "arith.addi", "-": "arith.subi", "*": "arith.muli", "/": "arith.floordivsi",
               "\\": "arith.ceildivsi", "%": "arith.remsi", "<?": "arith.minsi", ">?": "arith.maxsi"}


def _filled(em: Emitter, value, shape, dtype: str, sizes: list[str]) -> Value:
    """A tensor of run-time size holding `value` everywhere: tensor.empty + linalg.fill."""
    scalar = em.const(value, [], dtype)
    x = em.fresh()
    el = _elt(dtype)
    em.lines.append(f"    {x} = tensor.extract {scalar.ssa}[] : {scalar.type}")
    empty = Value(em.fresh(), shape, dtype)
    em.lines.append(f"    {empty.ssa} = tensor.empty({', '.join(sizes)}) : {empty.type}")
    out = Value(em.fresh(), shape, dtype)
    em.lines.append(f"    {out.ssa} = linalg.fill ins({x} : {el}) outs({empty.ssa} : {empty.type}) -> {empty.type}")
    return out


def _insert(em: Emitter, piece: Value, into: Value, offsets: list[int]) -> Value:
    res = Value(em.fresh(), into.shape, into.dtype)
    ones = ", ".join("1" for _ in offsets)
    em.lines.append(f"    {res.ssa} = tensor.insert_slice {piece.ssa} into {into.ssa}[{', '.join(map(str, offsets))}] "
                    f"[{', '.join(map(str, piece.shape))}] [{ones}] : {piece.type} into {into.type}")
    return res


def _walk(node):
    """Every syntax node below `node` (the AST dataclasses use slots)."""
    yield node
    for f in getattr(node, "__dataclass_fields__", {}):
        v = getattr(node, f, None)
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(x, tuple):
                for y in x:
                    yield from _walk(y)
            elif hasattr(x, "__dataclass_fields__"):
                yield from _walk(x)


def _pack_loop(low: A.Lowering, tensors) -> str | None:
    """The loop index that selects items of a tensor pack ('inputs[ni][...]', layout.concat),
    if any: such formulas are unrolled over the items (their bounds may differ per item)."""
    names = {n for n, _ in low.bounds}
    for node in _walk(low.value):
        if isinstance(node, A.Access) and isinstance(node.base, A.Index) and isinstance(node.base.base, A.Ident) \
                and isinstance(tensors.get(node.base.base.name), list) and isinstance(node.base.index, A.Ident) \
                and node.base.index.name in names:
            return node.base.index.name
    return None


def _data_dependent(low: A.Lowering, tensors) -> bool:
    """A formula reading a tensor at indices read from a tensor (layout.gather's
    `data[si.., index[ni..], ti..]`) is a generic with tensor.extract (computed.py), unless a
    guarded index in an '=' formula must skip the step: then scf loops (loops.py)."""
    if low.op != "=" or not any(isinstance(x, A.Bounded) for x in _walk(low.value)):
        return False
    for node in _walk(low.value):
        if isinstance(node, A.Access):
            for ix in node.indices:
                if any(isinstance(x, A.Access) or (isinstance(x, A.Index) and isinstance(x.base, A.Ident)
                                                   and x.base.name in tensors) for x in _walk(ix)):
                    return True
    return False


def _pack_target(low: A.Lowering, env: Env) -> bool:
    """An output axis indexed by a range or a compile-time pack (`idx[:,] = 0`, packed
    assignment into one tensor): written item by item in scf loops (loops.target_writes)."""
    names = {n for n, _ in low.bounds} | {n for n, _ in low.locals}
    for ix in low.target.indices:
        if isinstance(ix, A.Range):
            return True
        if not isinstance(ix, A.Expand) and not identifiers(ix) & names:
            try:
                if isinstance(env.eval(ix), list):
                    return True
            except (Unknown, NnefError):
                pass
    return False


def _unrolled(em, env: Env, low: A.Lowering, tensors, out_type, init, name: str) -> Value:
    """One formula per item of the tensor pack: `name` becomes a compile-time value, so jagged
    bounds (`zi < u ?? z[ni]`) and per-item offsets (`offs[ni] + zi`) are constants, and each
    piece writes its part of the output (tensor.insert_slice)."""
    bound = dict(low.bounds)[name]
    try:
        n = env.eval(bound)
    except Unknown as u:
        raise NnefError(bound.loc, f"'{u.name}' is not known in the bound of '{name}'") from None
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 4096:
        raise NnefError(bound.loc, f"the tensor-pack loop '{name}' needs a compile-time count, got {n}")
    rest = [(i, b) for i, b in low.bounds if i != name]
    current = init
    for k in range(n):
        inner = Env(env.dtypes)
        inner.values = {**env.values, name: k}
        piece = A.Lowering(low.loc, low.target, low.op, low.value, rest, low.condition, low.locals, None)
        current = _formula(em, inner, piece, tensors, out_type, current, partial_ok=True)
    if current is None:
        raise NnefError(low.loc, "a tensor-pack loop over no items leaves the output undefined")
    return current


def _formula(em: Emitter, env: Env, low: A.Lowering, tensors, out_type, init: Value | None,
             partial_ok: bool = False, param: A.Param | None = None) -> Value:
    pack_loop = _pack_loop(low, tensors)
    if pack_loop is not None and low.condition is None and low.op != ":=":
        # '=' pieces written into parts of the output, or a reduction over the items
        # (math.sum_n's `y[i..] += xs[k][i..], k < n`) accumulated item by item
        return _unrolled(em, env, low, tensors, out_type, init, pack_loop)
    reducing = low.op != "="
    if low.op == "=" and init is not None and not partial_ok:
        raise NnefError(low.loc, "a second '=' formula for the same output")
    loop: dict[str, object] = {}
    extents: list[int] = []
    for iname, bound in low.bounds:
        try:
            b = env.eval(bound)
        except Unknown as u:
            raise NnefError(bound.loc, f"'{u.name}' is not known in the bound of '{iname}'") from None
        if isinstance(b, list):
            loop[iname] = [Aff.dim(len(extents) + k) for k in range(len(b))]
            extents.extend(b)
        else:
            loop[iname] = Aff.dim(len(extents))
            extents.append(b)
    if any(not isinstance(n, Dyn) and (not isinstance(n, int) or n < 0) for n in extents):
        raise NnefError(low.loc, f"loop bounds must be non-negative integers, got {extents}")
    if counted_axes(param, env):
        # a data-dependent extent (2.6.1): written at a counter symbol (counted.py)
        if init is not None or param is None:
            raise NnefError(low.loc, "an output with a data-dependent extent takes one formula")
        return counted_formula(em, env, low, tensors, out_type, param, counted_symbol(low, env, out_type),
                               loop, extents)
    if low.condition is not None or low.op == ":=" or _data_dependent(low, tensors) or _pack_target(low, env):
        return loop_formula(em, env, low, tensors, out_type, init, loop, extents)
    idx = Indexer(env, loop, dict(low.locals))
    # output indices: each a plain loop dimension, or the constant 0 of a kept (size-1) axis
    out_exprs = []
    for ix in low.target.indices:
        out_exprs.extend(Aff(x.coefs, x.const) if isinstance(x, Aff) else x for x in idx.item(ix))
    if len(out_exprs) != len(out_type.shape):
        raise NnefError(low.target.loc, f"the output access has {len(out_exprs)} indices for rank {len(out_type.shape)}")
    out_dims, reduced_shape = [], []
    offsets, tile = [], []        # a piece of an unrolled formula writes part of the output
    for a, n in zip(out_exprs, out_type.shape):
        if not isinstance(a, Aff):
            raise NnefError(low.target.loc, "output indices must be integer-affine")
        if a.is_const:
            if partial_ok and 0 <= a.const < n:
                offsets.append(a.const)
                tile.append(1)
                continue
            if a.const != 0 or n != 1:
                raise NnefError(low.target.loc, "constant output indices are compiled only for size-1 axes")
            offsets.append(0)
            tile.append(1)
            continue
        if partial_ok and len(a.coefs) == 1 and a.coefs[0][1] == 1 and a.const > 0:
            k = a.coefs[0][0]
            if a.const + extents[k] > n:
                raise NnefError(low.target.loc, f"output index '{a.text()}' reaches past the extent {n}")
            out_dims.append(k)
            reduced_shape.append(extents[k])
            offsets.append(a.const)
            tile.append(extents[k])
            continue
        dims = _mixed_radix(a, extents)
        if dims is None and low.op != "=" and not partial_ok:
            # an output position that sums loop indices (nn.deconv's `stride * i + j - offset`):
            # a reduction scattered into the output, compiled as loops (loops.py)
            return loop_formula(em, env, low, tensors, out_type, init, loop, extents)
        if dims is None:
            raise NnefError(low.target.loc, f"output index '{a.text()}' is neither a loop index nor a "
                            "row-major merge of loop indices (not compiled yet)")
        for k in dims:
            if k in out_dims:
                raise NnefError(low.target.loc, "a loop index appears twice in the output access")
            out_dims.append(k)
            reduced_shape.append(extents[k])
        covered = math.prod(extents[k] for k in dims)
        offsets.append(0)
        tile.append(covered)
        if covered != n and not (partial_ok and covered < n):
            raise NnefError(low.loc, f"loop bounds {[extents[k] for k in dims]} of an output axis do not "
                            f"cover its extent {n}")
    partial = tile != list(out_type.shape)
    if partial and (reducing or low.condition is not None):
        raise NnefError(low.loc, "a partial write of the output is compiled only for '=' formulas")
    if not partial and low.op == "=" and init is not None:
        raise NnefError(low.loc, "a second '=' formula for the same output")
    base = None
    if partial:
        base = init if init is not None else _empty(em, out_type)
        if 0 in tile:
            return base
        init = None
    red_dims = [k for k in range(len(extents)) if k not in out_dims]
    if red_dims and not reducing:
        raise NnefError(low.loc, "an index used only on the right-hand side needs a reducing assignment (+= ...)")
    t = _elt(out_type.dtype)
    pad_value = NULL.get(low.op)
    body = GenericBody(em, env, idx, extents, tensors, pad_value, low.loc)
    body.locals = dict(low.locals)
    v = body.compile(low.value)
    if v is None:
        raise NnefError(low.value.loc, "the formula's value is null (resolve optional inputs with '??')")
    v = body.as_ssa(v, t)
    if v[1] != t:
        raise NnefError(low.value.loc, f"the formula computes {v[1]}, the output is {t}")
    # loop dimensions no operand determines get a shape-only operand (linalg infers loop ranges
    # from operand shapes)
    nd = len(extents)
    missing = [k for k in range(nd) if k not in body.dims_seen and k not in out_dims]
    if missing:
        probe = em.const([0], [extents[k] for k in missing], "bool")
        body.operand(probe, [Aff.dim(k) for k in missing])
    # the output operand
    sizes = _runtime_sizes(em, env, tensors, reduced_shape, low)
    if init is not None:
        outs = em.reshape(init, reduced_shape)
    elif reducing and sizes:
        outs = _filled(em, NULL[low.op], reduced_shape, out_type.dtype, sizes)
    elif reducing:
        outs = em.const([NULL[low.op]], reduced_shape, out_type.dtype)
    else:
        outs = Value(em.fresh(), reduced_shape, out_type.dtype)
        em.lines.append(f"    {outs.ssa} = tensor.empty({', '.join(sizes)}) : {outs.type}")
    out_map = f"affine_map<({', '.join(f'd{k}' for k in range(nd))}) -> ({', '.join(f'd{k}' for k in out_dims)})>"
    lines = list(body.lines)
    if reducing:
        key = (low.op, t)
        if key not in REDUCE_OPS:
            raise NnefError(low.loc, f"'{low.op}' on {t} is not supported")
        lines.append(f"      %r = {REDUCE_OPS[key]} %acc, {v[0]} : {t}")
        yielded = "%r"
    else:
        yielded = v[0]
    iters = ", ".join('"reduction"' if k in red_dims else '"parallel"' for k in range(nd))
    maps = ", ".join([m for _, m in body.operands] + [out_map])
    ins_ssa = ", ".join(v.ssa for v, _ in body.operands)
    ins_types = ", ".join(v.type for v, _ in body.operands)
    bb_args = ", ".join([f"{a}: {ty}" for a, ty in body.args] + [f"%acc: {t}"])
    res = em.fresh()
    ins_clause = f"ins({ins_ssa} : {ins_types}) " if body.operands else ""
    em.lines.append(f"    {res} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}} "
                    f"{ins_clause}outs({outs.ssa} : {outs.type}) {{")
    em.lines.append(f"    ^bb0({bb_args}):")
    em.lines.extend(lines)
    em.lines.append(f"      linalg.yield {yielded} : {t}")
    em.lines.append(f"    }} -> {outs.type}")
    out = Value(res, reduced_shape, out_type.dtype)
    if partial:
        return _insert(em, em.reshape(out, tile), base, offsets)
    return em.reshape(out, out_type.shape)
