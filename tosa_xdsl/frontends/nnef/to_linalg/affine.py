"""Index expressions of @lower formulas as affine expressions of the loop dimensions.

An index symbol bound by `i < n` is one loop dimension; bound by a pack `i < s` it is a pack
of dimensions (`i..` expands it). Compile-time symbols of the operator instance (attributes,
@using values) are constants; `i[axes]`, `i[a:b]`, substitution `i[axes] <- e`, lists, and a
select with a compile-time condition (`sx is 1 ? 0 : zi[px:px+rx]`) rearrange packs of them."""

from __future__ import annotations

from dataclasses import dataclass

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.semantics import Env, Unknown, identifiers, unparse


@dataclass(frozen=True)
class Aff:
    """sum(coef * d_k) + const."""
    coefs: tuple  # of (dim, coef) sorted
    const: int

    @staticmethod
    def dim(k):
        return Aff(((k, 1),), 0)

    @staticmethod
    def constant(c):
        return Aff((), int(c))

    def __add__(self, o):
        d = dict(self.coefs)
        for k, c in o.coefs:
            d[k] = d.get(k, 0) + c
        return Aff(tuple(sorted((k, c) for k, c in d.items() if c)), self.const + o.const)

    def scale(self, s):
        return Aff(tuple((k, c * s) for k, c in self.coefs if c * s), self.const * s)

    @property
    def is_const(self):
        return not self.coefs

    def text(self) -> str:
        parts = []
        for k, c in self.coefs:
            parts.append(f"d{k}" if c == 1 else f"d{k} * {c}" if c > 0 else f"d{k} * -{-c}")
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)

    def guarded(self) -> Aff:
        return GAff(self.coefs, self.const)

    def range(self, extents):
        lo = hi = self.const
        for k, c in self.coefs:
            span = c * (extents[k] - 1)
            lo += min(0, span)
            hi += max(0, span)
        return lo, hi


class GAff(Aff):
    """An index inside '|...|': bounds-checked."""


@dataclass(frozen=True)
class RAff(Aff):
    """An index inside '|e <> lower : upper|' (remapped bounds): e where it is inside the
    tensor, lower where it is below 0, upper where it is past the end; lower and upper as
    (a, b) meaning a * e + b (the library's remaps: 0, s - 1, -e, 2 * (s - 1) - e, ...)."""
    lower: tuple = (0, 0)
    upper: tuple = (0, 0)

    def remap(self, j: int, extent: int) -> int:
        (la, lb), (ua, ub) = self.lower, self.upper
        return la * j + lb if j < 0 else ua * j + ub if j >= extent else j


def _as_multiple(e, of: Aff, v) -> tuple:
    """(a, b) with v = a * of + b, for a remap bound v."""
    if not isinstance(v, Aff):
        raise NnefError(e.loc, f"the remap bound '{unparse(e)}' is not an integer index")
    if v.is_const:
        return 0, v.const
    ratios = {c / dict(of.coefs).get(k, 0) if dict(of.coefs).get(k) else None for k, c in v.coefs}
    if len(ratios) != 1 or None in ratios or set(dict(v.coefs)) != set(dict(of.coefs)):
        raise NnefError(e.loc, f"the remap bound '{unparse(e)}' is not a function of the remapped index")
    a = ratios.pop()
    if a != int(a):
        raise NnefError(e.loc, f"the remap bound '{unparse(e)}' is not an integer multiple of the index")
    a = int(a)
    return a, v.const - a * of.const


class Indexer:
    def __init__(self, env: Env, loop: dict, locals_: dict | None = None):
        self.env = env
        self.loop = loop          # name -> Aff | list[Aff]
        self.locals = locals_ or {}   # loop-local name -> expression (with-clause)

    def const(self, e):
        try:
            return self.env.eval(e)
        except Unknown as u:
            raise NnefError(e.loc, f"'{u.name}' is not known in index expression '{unparse(e)}'") from None

    def uses_loop(self, e) -> bool:
        return bool(identifiers(e) & (set(self.loop) | set(self.locals)))

    def item(self, ix) -> list:
        """The indices an access item stands for: `i..`, `0 ..(n)` (n copies; a bool n is 0 or 1
        copies), or a single index."""
        if isinstance(ix, A.Expand):
            v = self.eval(ix.item)
            if ix.count is not None:
                n = self.const(ix.count)
                n = int(n) if n is not None else 0
                if isinstance(v, list):
                    if len(v) != n:
                        raise NnefError(ix.loc, f"pack length {len(v)} differs from the stated {n}")
                    return v
                return [v] * n
            return v if isinstance(v, list) else [v]
        v = self.eval(ix)
        return v if isinstance(v, list) else [v]

    def eval(self, e):
        """Aff, list[Aff] (a pack), or a compile-time value."""
        if not self.uses_loop(e):
            v = self.const(e)
            return _lift(v)
        if isinstance(e, A.Ident):
            if e.name in self.locals:
                return self.eval(self.locals[e.name])
            return self.loop[e.name]
        if isinstance(e, A.Bounded):
            if e.lower is not None:
                v, lo, hi = self.eval(e.index), self.eval(e.lower), self.eval(e.upper)

                def remapped(x, lo, hi):
                    if not isinstance(x, Aff):
                        raise NnefError(e.loc, f"index expression '{unparse(e.index)}' is not integer-affine")
                    return RAff(x.coefs, x.const, _as_multiple(e.lower, x, lo), _as_multiple(e.upper, x, hi))
                if isinstance(v, list):
                    n = len(v)
                    lo = lo if isinstance(lo, list) else [lo] * n
                    hi = hi if isinstance(hi, list) else [hi] * n
                    return [remapped(x, a, b) for x, a, b in zip(v, lo, hi)]
                return remapped(v, lo, hi)
            v = self.eval(e.index)
            return [x.guarded() for x in v] if isinstance(v, list) else v.guarded()
        if isinstance(e, A.Fold) and e.op == "+" and not e.cumulative:
            v = self.eval(e.arg)
            total = Aff.constant(0)
            for x in (v if isinstance(v, list) else [v]):
                total = total + x
            return total
        if isinstance(e, A.Binary) and e.op in ("+", "-", "*"):
            a, b = self.eval(e.lhs), self.eval(e.rhs)
            return _zip(e, a, b, lambda x, y: _arith(e, x, y))
        if isinstance(e, A.Unary) and e.op in ("-", "+"):
            a = self.eval(e.arg)
            return _zip(e, a, None, lambda x, _: x.scale(-1) if e.op == "-" else x)
        if isinstance(e, A.Index):
            base = self.eval(e.base)
            if not isinstance(base, list):
                raise NnefError(e.loc, f"'{unparse(e.base)}' is not a pack")
            if isinstance(e.index, A.Range):
                first = None if e.index.first is None else self.const(e.index.first)
                last = None if e.index.last is None else self.const(e.index.last)
                stride = None if e.index.stride is None else self.const(e.index.stride)
                return base[slice(first, last, stride)]
            idx = self.const(e.index)
            if isinstance(idx, list):
                if idx and all(isinstance(x, bool) for x in idx):
                    return [b for b, m in zip(base, idx) if m]
                return [base[i] for i in idx]
            return base[idx]
        if isinstance(e, A.Substitute):
            base = list(self.eval(e.base))
            idx = self.const(e.index)
            val = self.eval(e.value)
            if isinstance(idx, list):
                vals = val if isinstance(val, list) else [val] * len(idx)
                for i, v in zip(idx, vals):
                    base[i] = v
            else:
                base[idx] = val
            return base
        if isinstance(e, A.ListExpr):
            out = []
            for it in e.items:
                if isinstance(it, A.Expand):
                    v = self.eval(it.item)
                    if isinstance(v, Aff) and it.count is None:
                        out.append(v)
                        continue
                    if isinstance(v, list):
                        out.extend(v)
                    else:
                        out.extend([v] * int(self.const(it.count)))
                else:
                    out.append(self.eval(it))
            return out
        if isinstance(e, A.Select) and not self.uses_loop(e.cond):
            c = self.const(e.cond)
            t = self.eval(e.then)
            o = self.eval(e.other) if e.other is not None else None
            if isinstance(c, list):
                n = len(c)
                t = t if isinstance(t, list) else [t] * n
                o = o if isinstance(o, list) else [o] * n
                return [ti if ci else oi for ci, ti, oi in zip(c, t, o)]
            return t if c else o
        raise NnefError(e.loc, f"index expression '{unparse(e)}' is not affine in the loop indices")


def _lift(v):
    if isinstance(v, list):
        return [_lift(x) for x in v]
    if isinstance(v, bool) or not isinstance(v, int):
        return v
    return Aff.constant(v)


def _arith(e, x, y):
    if not isinstance(x, Aff) or not isinstance(y, Aff):
        raise NnefError(e.loc, f"index expression '{unparse(e)}' is not integer-affine")
    guard = isinstance(x, GAff) or isinstance(y, GAff)
    if e.op == "+":
        r = x + y
    elif e.op == "-":
        r = x + y.scale(-1)
    elif x.is_const:
        r = y.scale(x.const)
    elif y.is_const:
        r = x.scale(y.const)
    else:
        r = None
    if r is not None:
        return r.guarded() if guard else r
    raise NnefError(e.loc, f"index expression '{unparse(e)}' multiplies two loop indices (not affine)")


def _zip(e, a, b, f):
    if isinstance(a, list) or isinstance(b, list):
        n = len(a) if isinstance(a, list) else len(b)
        if isinstance(a, list) and isinstance(b, list) and len(a) != len(b):
            raise NnefError(e.loc, "pack lengths differ in index expression")
        return [f(a[i] if isinstance(a, list) else a, b[i] if isinstance(b, list) else b) for i in range(n)]
    return f(a, b)
