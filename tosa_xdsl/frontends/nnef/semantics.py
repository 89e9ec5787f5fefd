"""Compile-time semantics of SkriptND (draft 2.4-2.9): evaluation of attribute/shape
expressions with packs and null propagation, binding an invocation's attributes and input
shapes (binding order of 2.6.2, affine extents, pack lengths, rank capture), @using
intermediates interleaved with @assert checks (2.9) and their formatted messages, and the
output shapes. Errors are NnefError at the source location."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import Loc, NnefError
from tosa_xdsl.frontends.nnef.extents import RUNTIME, Dyn, dyn_binary, involved

MAX_PACK = 1 << 20   # no user input may build an unbounded pack


@dataclass
class TensorType:
    dtype: str              # "real" | "int" | "bool" | "str"
    shape: list


class Unknown(Exception):
    """An identifier is not (yet) known: the expression cannot be evaluated now (2.9)."""

    def __init__(self, name):
        self.name = name


def _is_pack(v):
    return isinstance(v, list)


def type_of(v) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "real"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list):
        return type_of(v[0]) if v else "any"
    return "any"


def _check_len(loc, n):
    if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n > MAX_PACK:
        raise NnefError(loc, f"invalid pack length {n!r}")
    return n


def _elementwise(loc, f, *args):
    packs = [a for a in args if _is_pack(a)]
    if not packs:
        return f(*args)
    n = len(packs[0])
    if any(len(p) != n for p in packs):
        raise NnefError(loc, f"pack lengths differ: {[len(p) for p in packs]}")
    return [f(*[a[i] if _is_pack(a) else a for a in args]) for i in range(n)]


def _div(loc, a, b, ceil=False):
    if isinstance(a, float) or isinstance(b, float):
        if ceil:
            raise NnefError(loc, "'\\' (ceil division) is defined for int only")
        return a / b if b != 0 else (math.copysign(math.inf, a) if a else math.nan)
    if b == 0:
        raise NnefError(loc, "division by zero in a compile-time expression")
    return -((-a) // b) if ceil else a // b


BINARY = {
    "+": lambda l, a, b: a + b,
    "-": lambda l, a, b: a - b,
    "*": lambda l, a, b: a * b,
    "/": lambda l, a, b: _div(l, a, b),
    "\\": lambda l, a, b: _div(l, a, b, True),
    "%": lambda l, a, b: a % b if b else (_ for _ in ()).throw(NnefError(l, "modulo by zero")),
    "**": lambda l, a, b: _pow(l, a, b),
    "<?": lambda l, a, b: min(a, b),
    ">?": lambda l, a, b: max(a, b),
    "<": lambda l, a, b: a < b, "<=": lambda l, a, b: a <= b,
    ">": lambda l, a, b: a > b, ">=": lambda l, a, b: a >= b,
    "==": lambda l, a, b: a == b, "!=": lambda l, a, b: a != b,
    "&&": lambda l, a, b: a and b, "||": lambda l, a, b: a or b,
    "^": lambda l, a, b: a != b, "=>": lambda l, a, b: (not a) or b,
    "is": lambda l, a, b: a == b,
}


def _symbolic(op, f):
    """Run-time extents (extents.py) compute symbolically; plain values as before."""
    return lambda l, a, b: dyn_binary(op, a, b) if involved(a, b) else f(l, a, b)


BINARY = {op: _symbolic(op, f) for op, f in BINARY.items()}


def _pow(loc, a, b):
    if isinstance(a, int) and isinstance(b, int):
        if b < 0 or abs(a) > 1 and b > 4096:
            raise NnefError(loc, "integer power out of range")
        return a ** b
    try:
        return float(a) ** float(b)
    except (OverflowError, ZeroDivisionError, ValueError):
        return math.nan


BUILTINS = {
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "sin": math.sin, "cos": math.cos,
    "tan": math.tan, "asin": math.asin, "acos": math.acos, "atan": math.atan, "sinh": math.sinh,
    "cosh": math.cosh, "tanh": math.tanh, "asinh": math.asinh, "acosh": math.acosh,
    "atanh": math.atanh, "round": lambda x: float(math.floor(x + 0.5)), "floor": lambda x: float(math.floor(x)),
    "ceil": lambda x: float(math.ceil(x)), "frac": lambda x: x - math.floor(x),
    "abs": abs, "sign": lambda x: (x > 0) - (x < 0) if isinstance(x, int) else float((x > 0) - (x < 0)),
}


def _cast(loc, tname, v):
    if isinstance(v, Dyn) and tname in ("int", "real"):
        return v
    if tname == "int":
        if isinstance(v, float) and not math.isfinite(v):
            raise NnefError(loc, "cannot cast inf/nan to int")
        return int(v)
    if tname == "real":
        return float(v)
    if tname == "bool":
        return bool(v)
    if tname == "str":
        return str(v)
    raise NnefError(loc, f"cannot cast to '{tname}'")


DEFAULTS = {"int": 0, "real": 0.0, "bool": False, "str": ""}


def fmt_value(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(fmt_value(x) for x in v) + "]"
    if v is RUNTIME:
        return "?"
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ("inf" if v > 0 else "-inf" if v < 0 else "nan")
    return str(v)


class Env:
    """Symbols of one operator instance: attributes, shape symbols, @using values, dtypes."""

    def __init__(self, dtypes=None):
        self.values: dict[str, object] = {}
        self.dtypes: dict[str, str] = dict(dtypes or {})

    def known(self, name):
        return name in self.values

    def eval(self, e: A.Expr):
        return Evaluator(self).eval(e)


class Evaluator:
    def __init__(self, env: Env):
        self.env = env
        self.depth = 0

    def eval(self, e):
        """Value of e; Python-level failures of ill-typed user expressions (e.g. adding a string
        and a number) become located errors."""
        self.depth += 1
        try:
            return self._eval(e)
        except (TypeError, ValueError, IndexError, KeyError, OverflowError, ZeroDivisionError,
                AttributeError) as err:
            if self.depth > 1:
                raise
            raise NnefError(getattr(e, "loc", None), f"cannot evaluate '{unparse(e)}': {err}") from None
        finally:
            self.depth -= 1

    def _eval(self, e):
        m = getattr(self, "e_" + type(e).__name__, None)
        if m is None:
            raise NnefError(e.loc, f"'{unparse(e)}' is not a compile-time expression")
        return m(e)

    def e_Literal(self, e):
        return e.value

    def e_Ident(self, e):
        if e.name not in self.env.values:
            raise Unknown(e.name)
        return self.env.values[e.name]

    def e_Member(self, e):
        key = f"{e.name}.{e.member}"
        if key not in self.env.values:
            raise Unknown(key)
        return self.env.values[key]

    def e_Format(self, e):
        out = []
        for p in e.parts:
            out.append(p if isinstance(p, str) else fmt_value(self.eval(p)))
        return "".join(out)

    def e_ListExpr(self, e):
        out = []
        for item in e.items:
            if isinstance(item, A.Expand) and isinstance(item.item, A.Zip):
                item = item.item
            if isinstance(item, A.Expand):
                v = self.eval(item.item)
                cnt = None if item.count is None else self.eval(item.count)
                if v is None or (item.count is not None and cnt is None):
                    return None
                if isinstance(cnt, bool):
                    cnt = int(cnt)
                if _is_pack(v):
                    if cnt is not None and cnt != len(v):
                        raise NnefError(item.loc, f"pack length {len(v)} differs from the stated {cnt}")
                    out.extend(v)
                else:
                    if cnt is None:
                        raise NnefError(item.loc, "expanding a non-pack item needs a length '..(n)'")
                    out.extend([v] * _check_len(item.loc, cnt))
            elif isinstance(item, A.Range):
                r = self.range(item, None)
                if r is None:
                    return None
                out.extend(r)
            elif isinstance(item, A.Zip):
                packs = [self.eval(x) for x in item.items]
                if any(p is None for p in packs):
                    return None
                if not all(_is_pack(p) for p in packs) or len({len(p) for p in packs}) != 1:
                    raise NnefError(item.loc, "zip needs packs of equal length")
                for t in zip(*packs):
                    out.extend(t)
            else:
                v = self.eval(item)
                if v is None:
                    return None
                if _is_pack(v) and len(v) == 1:
                    # a one-item pack stands for its item: layout.depth_to_space's `c` is bound by
                    # `c..(ncx)` and `c..(!ncx)` (exactly one has length 1) and used as the
                    # channel count in `[block_size.., c / (block_size * ..)]`
                    v = v[0]
                elif _is_pack(v):
                    raise NnefError(item.loc, f"a pack in a list must be expanded: write '{unparse(item)}..'")
                out.append(v)
            if len(out) > MAX_PACK:
                raise NnefError(e.loc, "list too long")
        return out

    def range(self, r: A.Range, length):
        first = None if r.first is None else self.eval(r.first)
        last = None if r.last is None else self.eval(r.last)
        stride = 1 if r.stride is None else self.eval(r.stride)
        if (r.first is not None and first is None) or (r.last is not None and last is None) or stride is None:
            return None
        if stride == 0:
            raise NnefError(r.loc, "range stride must not be zero")
        if length is None:
            if first is None or last is None:
                raise NnefError(r.loc, "a range needs its begin and end outside of indexing")
            n = max(0, -((first - last) // stride)) if stride > 0 else max(0, -((last - first) // -stride))
            _check_len(r.loc, n)
            return list(range(first, last, stride))
        if first is not None and first < 0:
            first += length
        if last is not None and last < 0:
            last += length
        return list(range(length))[slice(first, last, stride)]

    def e_Index(self, e):
        base = self.eval(e.base)
        if base is None:
            return None
        if not isinstance(base, (list, str)):
            raise NnefError(e.loc, f"'{unparse(e.base)}' is not a pack; it cannot be indexed")
        if isinstance(e.index, A.Range):
            idx = self.range(e.index, len(base))
            if idx is None:
                return None
            picked = [base[i] for i in idx]
            return "".join(picked) if isinstance(base, str) else picked
        idx = self.eval(e.index)
        if idx is None:
            return None
        if _is_pack(idx):
            if idx and all(isinstance(x, bool) for x in idx):
                if len(idx) != len(base):
                    raise NnefError(e.loc, f"mask length {len(idx)} differs from pack length {len(base)}")
                picked = [b for b, m in zip(base, idx) if m]
            else:
                picked = [self._at(e, base, i) for i in idx]
            return "".join(picked) if isinstance(base, str) else picked
        return self._at(e, base, idx)

    def _at(self, e, base, i):
        if not isinstance(i, int) or isinstance(i, bool):
            raise NnefError(e.loc, f"index must be int, got {type_of(i)}")
        if not -len(base) <= i < len(base):
            raise NnefError(e.loc, f"index {i} out of range for pack of length {len(base)}")
        return base[i]

    def e_Substitute(self, e):
        base = self.eval(e.base)
        idx = self.eval(e.index) if not isinstance(e.index, A.Range) else None
        val = self.eval(e.value)
        if base is None or val is None:
            return None
        if not _is_pack(base):
            raise NnefError(e.loc, "substitution needs a pack")
        out = list(base)
        if isinstance(e.index, A.Range):
            idx = self.range(e.index, len(base))
        if _is_pack(idx):
            vals = val if _is_pack(val) else [val] * len(idx)
            if len(vals) != len(idx):
                raise NnefError(e.loc, "substitution needs as many values as indices")
            for i, v in zip(idx, vals):
                self._at(e, base, i)
                out[i] = v
        else:
            self._at(e, base, idx)
            out[idx] = val
        return out

    def e_Unary(self, e):
        if e.op == "?":
            return self.eval(e.arg) is not None
        v = self.eval(e.arg)
        if v is None:
            return None
        if e.op == "!":
            return _elementwise(e.loc, lambda x: RUNTIME if x is RUNTIME else not x, v)
        if e.op == "-":
            return _elementwise(e.loc, lambda x: -x, v)
        return v

    def e_Binary(self, e):
        if e.op in ("&&", "||", "=>"):     # short-circuit on scalars (2.9: guards before use)
            a = self.eval(e.lhs)
            if a is None:
                return None
            if _is_pack(a):
                b = self.eval(e.rhs)
                return None if b is None else _elementwise(e.loc, lambda x, y: BINARY[e.op](e.loc, x, y), a, b)
            if e.op == "&&" and a is False:
                return False
            if e.op == "||" and a is True:
                return True
            if e.op == "=>" and a is False:
                return True
            b = self.eval(e.rhs)
            return None if b is None else _elementwise(e.loc, lambda x, y: BINARY[e.op](e.loc, x, y), a, b)
        a, b = self.eval(e.lhs), self.eval(e.rhs)
        if a is None or b is None:
            return None
        if e.op == "in":
            if not _is_pack(b):
                raise NnefError(e.loc, "'in' needs a pack on its right")
            return [x in b for x in a] if _is_pack(a) else a in b
        if e.op in ("+", "-", "*", "/", "\\", "%", "**", "<?", ">?") and (
                type_of(a) in ("bool", "str") or type_of(b) in ("bool", "str")) and e.op != "+":
            raise NnefError(e.loc, f"operator '{e.op}' needs int or real operands, got "
                            f"{type_of(a)} and {type_of(b)}")
        if e.op in ("&&", "||", "^", "=>") and (type_of(a) not in ("bool", "any") or type_of(b) not in ("bool", "any")):
            raise NnefError(e.loc, f"operator '{e.op}' needs bool operands, got {type_of(a)} and {type_of(b)}")
        return _elementwise(e.loc, lambda x, y: BINARY[e.op](e.loc, x, y), a, b)

    def e_Select(self, e):
        c = self.eval(e.cond)
        if c is None:
            return None
        if _is_pack(c):
            t = self.eval(e.then)
            o = self.eval(e.other) if e.other is not None else None
            if t is None or (e.other is not None and o is None):
                return None
            return _elementwise(e.loc, lambda ci, ti, oi: ti if ci else oi, c, t, o)
        if c:
            return self.eval(e.then)
        return self.eval(e.other) if e.other is not None else None

    def e_Coalesce(self, e):
        v = self.eval(e.value)
        return self.eval(e.fallback) if v is None else v

    def e_Fold(self, e):
        v = self.eval(e.arg)
        if v is None:
            return None
        if not _is_pack(v):
            v = [v]
        op = e.op
        if e.cumulative:
            out, acc = [], None
            for x in v:
                acc = x if acc is None else BINARY[op](e.loc, acc, x)
                out.append(acc)
            return out
        if op == "+":
            return sum(v) if v else 0
        if op == "*":
            r = 1
            for x in v:
                r *= x
            return r
        if op == "&&":
            return all(v)
        if op == "||":
            return any(v)
        if op in ("<?", ">?"):
            if not v:
                raise NnefError(e.loc, f"'{op} ..' of an empty pack")
            if any(isinstance(x, Dyn) for x in v):
                acc = v[0]
                for x in v[1:]:
                    acc = BINARY[op](e.loc, acc, x)
                return acc
            return min(v) if op == "<?" else max(v)
        if op == ":=":
            return v[0] if v and all(x == v[0] for x in v) else None
        if op == "!=":
            return len(set(map(repr, v))) == len(v)
        if op == "==":
            return all(x == v[0] for x in v)
        return all(BINARY[op](e.loc, a, b) for a, b in itertools.pairwise(v))

    def e_Call(self, e):
        name = e.name
        if name in ("int", "real", "bool", "str") or name in self.env.dtypes:
            tname = self.env.dtypes.get(name, name)
            if e.arg is None:
                return DEFAULTS.get(tname, 0)
            v = self.eval(e.arg)
            return None if v is None else _elementwise(e.loc, lambda x: _cast(e.loc, tname, x), v)
        f = BUILTINS.get(name)
        if f is None:
            raise NnefError(e.loc, f"unknown function '{name}'")
        v = self.eval(e.arg)
        if v is None:
            return None
        try:
            return _elementwise(e.loc, f, v)
        except (ValueError, OverflowError) as err:
            raise NnefError(e.loc, f"{name}: {err}") from None

    def e_Tilde(self, e):
        return None


def identifiers(e) -> set[str]:
    """Names an expression refers to (for the 'can it be evaluated now' test of 2.9)."""
    out: set[str] = set()

    def walk(x):
        if isinstance(x, A.Ident):
            out.add(x.name)
        elif isinstance(x, A.Member):
            out.add(f"{x.name}.{x.member}")
        elif isinstance(x, A.Expr):
            for f in x.__slots__:
                walk(getattr(x, f))
        elif isinstance(x, list):
            for y in x:
                walk(y)
    walk(e)
    return out


def unparse(e) -> str:
    """Source-like text of an expression (the default label of an @assert print)."""
    t = type(e).__name__
    if t == "Ident":
        return e.name
    if t == "Member":
        return f"{e.name}.{e.member}"
    if t == "Literal":
        return repr(e.value) if e.type == "str" else fmt_value(e.value)
    if t == "ListExpr":
        return "[" + ", ".join(unparse(i) for i in e.items) + "]"
    if t == "Expand":
        return unparse(e.item) + ".." + (f"({unparse(e.count)})" if e.count is not None else "")
    if t == "Range":
        parts = [unparse(e.first) if e.first else "", unparse(e.last) if e.last else ""]
        if e.stride is not None:
            parts.append(unparse(e.stride))
        return ":".join(parts)
    if t == "Index":
        return f"{unparse(e.base)}[{unparse(e.index)}]"
    if t == "Access":
        return f"{unparse(e.base)}[{', '.join(unparse(i) for i in e.indices)}]"
    if t == "Unary":
        return f"{e.op}{unparse(e.arg)}"
    if t == "Binary":
        return f"{unparse(e.lhs)} {e.op} {unparse(e.rhs)}"
    if t == "Select":
        return f"{unparse(e.cond)} ? {unparse(e.then)}" + (f" : {unparse(e.other)}" if e.other else "")
    if t == "Coalesce":
        return f"{unparse(e.value)} ?? {unparse(e.fallback)}"
    if t == "Fold":
        return f"{unparse(e.arg)} {e.op} {'...' if e.cumulative else '..'}"
    if t == "Call":
        return f"{e.name}({unparse(e.arg) if e.arg else ''})"
    if t == "Bounded":
        return f"|{unparse(e.index)}|"
    if t == "Zip":
        return "(" + ", ".join(unparse(i) for i in e.items) + ")"
    return "..."


# ------------------------------------------------------------------ instantiation

@dataclass
class Instance:
    """An operator invocation with every symbol bound: its env, output types."""
    op: A.Operator
    env: Env
    outputs: list = field(default_factory=list)   # TensorType or list of TensorType (packs)


def _check_assert(env: Env, a: A.Assert, where: Loc, opname: str, checked: set, force: bool):
    if id(a) in checked:
        return
    if not force and not all(env.known(n) for n in identifiers(a.cond)):
        return
    try:
        ok = env.eval(a.cond)
    except Unknown as u:
        if not force:
            return
        raise NnefError(a.loc, f"undefined identifier '{u.name}' in assertion") from None
    checked.add(id(a))
    if ok is None:                    # null: not checked (2.8)
        return
    oks = ok if _is_pack(ok) else [ok]
    # RUNTIME: decided by the extents at run time (TOSA's own checks there), accepted here
    if all(x is True or x is RUNTIME or isinstance(x, Dyn) or x == 1 for x in oks if x is not None):
        return
    message = env.eval(a.message) if a.message is not None else f"assertion failed: {unparse(a.cond)}"
    prints = []
    for label, p in a.prints:
        try:
            val = fmt_value(env.eval(p))
        except Unknown:
            val = "?"
        prints.append(f"{label or unparse(p)} = {val}")
    detail = f" ({', '.join(prints)})" if prints else ""
    raise NnefError(where, f"in '{opname}': {message}{detail}\n{a.loc}: note: assertion defined here")


def affine(e, env: Env):
    """(name, a, b) when e is a*x+b of one unknown identifier x with constant a, b."""
    ids = [n for n in identifiers(e) if not env.known(n)]
    if len(ids) != 1:
        return None
    x = ids[0]
    try:
        probe = Env(env.dtypes)
        probe.values = dict(env.values)
        probe.values[x] = 0
        b = probe.eval(e)
        probe.values[x] = 1
        a = probe.eval(e) - b
        probe.values[x] = 7
        if probe.eval(e) != 7 * a + b:
            return None
    except (NnefError, Unknown, TypeError):
        return None
    if not isinstance(a, int) or a == 0:
        return None
    return x, a, b


def bind_value(env: Env, e: A.Expr, value, loc: Loc, what: str):
    """Bind (an affine expression of) a fresh symbol, or check a prescribed value."""
    if isinstance(e, A.Ident) and not env.known(e.name):
        env.values[e.name] = value
        return
    ids = identifiers(e)
    if all(env.known(n) for n in ids):
        expect = env.eval(e)
        if expect is not None and not _may_equal(expect, value):
            raise NnefError(loc, f"{what}: expected {fmt_value(expect)} ({unparse(e)}), got {fmt_value(value)}")
        return
    aff = affine(e, env)
    if aff is None:
        raise NnefError(e.loc, f"cannot deduce '{unparse(e)}' from the input shape (not affine in one unknown)")
    x, a, b = aff
    if isinstance(value, Dyn):
        env.values[x] = (value - b) // a      # symbolic: checked at run time
        return
    if _is_pack(value) or (value - b) % a:
        raise NnefError(loc, f"{what}: {fmt_value(value)} does not fit '{unparse(e)}'")
    env.values[x] = (value - b) // a


def _may_equal(expect, value) -> bool:
    """Whether a prescribed extent (or pack of extents) can equal the given one: a run-time
    extent on either side may (the draft's agreement becomes a run-time check)."""
    if _is_pack(expect) and _is_pack(value):
        return len(expect) == len(value) and all(_may_equal(a, b) for a, b in zip(expect, value))
    if isinstance(expect, Dyn) or isinstance(value, Dyn):
        return not (_is_pack(expect) or _is_pack(value))
    return expect == value


def _extent_parts(extents):
    """Per extent: (expr, count_expr|None, is_pack)."""
    out = []
    for x in extents:
        if isinstance(x.expr, A.Expand):
            out.append((x, x.expr.item, x.expr.count, True))
        else:
            out.append((x, x.expr, None, False))
    return out


def can_bind(env: Env, p: A.Param) -> bool:
    spec = p.type
    if spec.shape is None:
        return True
    rank = spec.rank.name if spec.rank is not None else None

    class _View:      # the rank capture '^(r)' is bound first, from the tensor itself
        @staticmethod
        def known(n):
            return n == rank or env.known(n)
        values = env.values
    view = _View
    unknown_packs = 0
    for x, item, count, packed in _extent_parts(spec.shape):
        if packed:
            if count is None:
                if isinstance(item, A.Ident) and view.known(f"|{item.name}|") or (
                        isinstance(item, A.Ident) and view.known(item.name) and _is_pack(env.values[item.name])):
                    continue
                unknown_packs += 1
            elif not all(view.known(n) for n in identifiers(count)):
                unknown_packs += 1
    return unknown_packs <= 1


def bind_shape(env: Env, p: A.Param, shape: list[int], loc: Loc):
    spec = p.type
    if spec.rank is not None:
        bind_value(env, spec.rank, len(shape), loc, f"rank of '{p.name}'")
    env.values[f"{p.name}.shape"] = list(shape)
    env.values[f"{p.name}.rank"] = len(shape)
    if spec.shape is None:
        return
    parts = _extent_parts(spec.shape)
    lengths = []
    free = None
    for k, (x, item, count, packed) in enumerate(parts):
        if not packed:
            lengths.append(1)
            continue
        if count is None and isinstance(item, A.Ident) and env.known(item.name) and _is_pack(env.values[item.name]):
            lengths.append(len(env.values[item.name]))
        elif count is not None and all(env.known(n) for n in identifiers(count)):
            c = env.eval(count)
            if c is not None and int(c) < 0:    # e.g. top_k's `s..(axis + rank)` for an axis below -rank
                raise NnefError(loc, f"input '{p.name}': a pack of its shape has negative length {int(c)}")
            lengths.append(int(c) if c is not None else 0)
        else:
            lengths.append(None)
            free = k
    fixed = sum(n for n in lengths if n is not None)
    if free is not None:
        rest = len(shape) - fixed
        if rest < 0:
            raise NnefError(loc, f"input '{p.name}' has rank {len(shape)}, expected at least {fixed}")
        lengths[free] = rest
        x, item, count, _ = parts[free]
        if count is not None:
            bind_value(env, count, rest, loc, f"rank part of '{p.name}'")
        elif isinstance(item, A.Ident):
            env.values[f"|{item.name}|"] = rest
    if sum(lengths) != len(shape):
        raise NnefError(loc, f"input '{p.name}' has rank {len(shape)}, expected {sum(lengths)} "
                        f"(shape {fmt_value(shape)})")
    pos = 0
    empty = []
    for (x, item, count, packed), n in zip(parts, lengths):
        dims = shape[pos:pos + n]
        pos += n
        if item is None or isinstance(item, A.Tilde):
            continue
        if packed:
            if n == 0 and count is not None:
                # a zero-length occurrence (`c..(!ncx)` of layout.space_to_depth, `1..(0)` of
                # layout.stack) asserts nothing; the symbol may be bound by another occurrence
                empty.append(item)
            elif isinstance(item, A.Ident) and not env.known(item.name):
                env.values[item.name] = list(dims)
            elif count is not None and all(env.known(n) for n in identifiers(item)) \
                    and not _is_pack(env.eval(item)):
                for d in dims:      # a repeated scalar extent `e..(n)`
                    bind_value(env, item, d, loc, f"shape of '{p.name}'")
            else:
                bind_value(env, item, list(dims), loc, f"shape of '{p.name}'")
        else:
            bind_value(env, item, dims[0], loc, f"shape of '{p.name}'")
    for item in empty:
        if isinstance(item, A.Ident) and not env.known(item.name):
            env.values[item.name] = []


def eval_shape(env: Env, extents: list[A.Extent] | None, loc: Loc, item: int | None = None) -> list[int] | None:
    """A shape; `item` selects the item of per-item extents `..z` (a packed output's k-th tensor)."""
    if extents is None:
        return None
    out = []
    for x in extents:
        if x.bound is not None and (x.expr is None or isinstance(x.expr, A.Ident) and not env.known(x.expr.name)):
            # data-dependent (2.6.1): known at run time, below the bound
            try:
                bound = env.eval(x.bound)
            except Unknown:
                bound = None
            out.append(Dyn(bound=bound))
            continue
        if x.expr is None:
            raise NnefError(x.loc, "dynamic output extents '~' need an upper bound ('~|n')")
        if x.spread and item is not None:
            v = env.eval(x.expr)
            if not _is_pack(v) or not -len(v) <= item < len(v):
                raise NnefError(x.loc, f"per-item extent '{unparse(x.expr)}' has no item {item}")
            out.append(v[item])
        elif isinstance(x.expr, A.Expand):
            if x.expr.count is not None and not env.eval(x.expr.count):
                continue        # `e..(0)`: no extents (e.g. `c..(!ncx)`)
            v = env.eval(x.expr.item)
            if v is None:
                continue
            if _is_pack(v):
                out.extend(v)
            elif x.expr.count is None:
                # 2.2: expanding a non-packed item needs the length ("required in this case")
                raise NnefError(x.loc, f"extent '{unparse(x.expr)}' repeats one value: its length '..(n)' is required")
            else:
                out.extend([v] * int(env.eval(x.expr.count)))
        else:
            v = env.eval(x.expr)
            if v is None:
                continue
            if _is_pack(v):
                raise NnefError(x.loc, f"extent '{unparse(x.expr)}' is a pack; expand it with '..'")
            out.append(v)
    for d in out:
        if d is not None and not isinstance(d, Dyn) and (not isinstance(d, int) or isinstance(d, bool) or d < 0):
            raise NnefError(loc, f"invalid extent {fmt_value(d)} in shape {fmt_value(out)}")
    return out


# the abstract base types of generics (2.3) and the concrete types they admit
GENERIC_BASES = {"num": ("int", "real"), "arith": ("int", "real", "bool")}


def _attr_type_ok(tname, v, env: Env) -> bool:
    tname = env.dtypes.get(tname, tname)
    vals = v if _is_pack(v) else [v]
    for x in vals:
        t = type_of(x)
        if tname in ("type", "any") or t == "any":
            continue
        if tname == "num" and t in ("int", "real"):
            continue
        if tname == "arith" and t in ("int", "real", "bool"):
            continue
        if t != tname and not (tname == "real" and t == "int"):
            return False
    return True


def instantiate(op: A.Operator, opname: str, attribs: dict[str, object], inputs: list,
                where: Loc, types: list[str] | None = None) -> Instance:
    """Bind an invocation: attribute values (already evaluated), input TensorTypes (None for an
    omitted optional input, a list for a tensor pack), per draft 2.5-2.9."""
    env = Env()
    # generic types: explicit, deduced from inputs, or defaults
    explicit = list(types or [])
    for i, d in enumerate(op.dtypes):
        if i < len(explicit):
            env.dtypes[d.name] = explicit[i]
    for p, t in zip(op.inputs, inputs):
        tt = t[0] if isinstance(t, list) and t else t
        if isinstance(tt, TensorType) and p.type.name in [d.name for d in op.dtypes]:
            prev = env.dtypes.get(p.type.name)
            if prev is not None and prev != tt.dtype:
                raise NnefError(where, f"in '{opname}': generic type '{p.type.name}' bound to both "
                                f"{prev} and {tt.dtype}")
            env.dtypes[p.type.name] = tt.dtype
    for d in op.dtypes:
        if d.name not in env.dtypes and d.default:
            env.dtypes[d.name] = d.default
        # 2.3: `num` admits int and real, `arith` int, real and bool (a bool compared by
        # math.lt, bound to `Y: num`, reached TOSA as an invalid GREATER)
        allowed = GENERIC_BASES.get(d.base)
        if allowed is not None and env.dtypes.get(d.name, allowed[0]) not in allowed:
            raise NnefError(where, f"in '{opname}': generic type '{d.name}' is {d.base} "
                            f"({' or '.join(allowed)}), not {env.dtypes[d.name]}")
    declared = {p.name for p in op.attribs}
    for name in attribs:
        if name not in declared:
            raise NnefError(where, f"'{opname}' has no attribute '{name}'")
    deferred = []
    for p in op.attribs:
        if p.name in attribs:
            v = attribs[p.name]
            if v is None and not p.type.optional:
                raise NnefError(where, f"attribute '{p.name}' of '{opname}' is not optional; it got null")
            if v is not None and not _attr_type_ok(p.type.name, v, env):
                raise NnefError(where, f"attribute '{p.name}' of '{opname}' expects "
                                f"{p.type.name}{'..' if p.type.packed else ''}, got {type_of(v)} {fmt_value(v)}")
            if _is_pack(v) and not p.type.packed:
                raise NnefError(where, f"attribute '{p.name}' of '{opname}' is not a pack, got {fmt_value(v)}")
            if v is not None and p.type.packed and not _is_pack(v):
                deferred.append((p, v, True))
                continue
            env.values[p.name] = v
        elif p.type.optional:
            env.values[p.name] = None
        elif p.default is None:
            raise NnefError(where, f"attribute '{p.name}' of '{opname}' is required")
        else:
            deferred.append((p, p.default, False))
    # constant defaults first (they may fix pack lengths)
    later = []
    for p, v, uniform in deferred:
        if uniform:
            later.append((p, v, uniform))
            continue
        if all(env.known(n) for n in identifiers(v)) and not (p.type.packed and not isinstance(v, A.ListExpr)):
            env.values[p.name] = env.eval(v)
        else:
            later.append((p, v, uniform))
    for p in op.attribs:
        if (p.type.packed and isinstance(p.type.count, A.Ident) and env.known(p.name)
                and _is_pack(env.values[p.name]) and not env.known(p.type.count.name)):
            env.values[p.type.count.name] = len(env.values[p.name])
    # @using values computed from attributes alone may fix pack lengths of the input shapes
    # (`c..(ncx)` of layout.space_to_depth): evaluate those before binding
    for u in op.usings:
        if isinstance(u.target, A.Ident) and not env.known(u.target.name) \
                and all(env.known(n) for n in identifiers(u.value)):
            try:
                _bind_using(env, u, env.eval(u.value))
            except (NnefError, Unknown):
                pass        # evaluated again, with its diagnostics, after the inputs are bound
    # inputs in binding order
    pending = [(p, t) for p, t in zip(op.inputs, inputs)]
    if len(inputs) > len(op.inputs):
        raise NnefError(where, f"'{opname}' takes {len(op.inputs)} inputs, got {len(inputs)}")
    for p in op.inputs[len(inputs):]:
        if not p.type.optional and p.default is None:
            raise NnefError(where, f"input '{p.name}' of '{opname}' is required")
        pending.append((p, None))
    order = [x for x in pending if not x[0].type.optional]
    opt = [x for x in pending if x[0].type.optional]
    progress = True
    while order and progress:
        progress = False
        for x in list(order):
            if can_bind(env, x[0]):
                _bind_input(env, x[0], x[1], where, opname)
                order.remove(x)
                progress = True
    if order:
        raise NnefError(order[0][0].loc, f"cannot bind the shape of input '{order[0][0].name}' unambiguously")
    for p, t in opt:
        _bind_input(env, p, t, where, opname)
    # deferred attributes
    for p, v, uniform in later:
        if uniform:
            try:
                n = _pack_len(env, p)
            except NnefError:
                # the length does not apply to this instance (`scale: real..(s[channel_axis])`
                # of quant.* quantizing a scalar): the one value stays a uniform scalar
                env.values[p.name] = v
                continue
            if isinstance(n, Dyn):
                # a length known only at run time (a per-tensor `scale: real..(s[channel_axis])`
                # along a run-time extent): the one value stays a uniform scalar
                env.values[p.name] = v
                continue
            if n is None:
                raise NnefError(where, f"length of attribute pack '{p.name}' is unknown; give a list")
            env.values[p.name] = [v] * n
            continue
        try:
            val = env.eval(v)
        except Unknown as u:
            raise NnefError(p.loc, f"default of '{p.name}' uses unknown '{u.name}'") from None
        if val is not None and p.type.packed and not _is_pack(val):
            n = _pack_len(env, p)
            val = [val] * (n if n is not None else 1)
        if val is None and not p.type.optional:
            raise NnefError(where, f"attribute '{p.name}' of '{opname}' is required")
        env.values[p.name] = val
        if _is_pack(val) and isinstance(p.type.count, A.Ident) and not env.known(p.type.count.name):
            env.values[p.type.count.name] = len(val)
    for p in op.attribs:
        v = env.values.get(p.name)
        if p.type.packed and _is_pack(v):
            env.values[f"|{p.name}|"] = len(v)
            if p.type.count is not None:
                bind_value(env, p.type.count, len(v), where, f"length of attribute '{p.name}'")
    # @using interleaved with @assert (2.9)
    checked: set = set()
    for u in op.usings:
        for a in op.asserts:
            _check_assert(env, a, where, opname, checked, False)
        try:
            val = env.eval(u.value)
        except Unknown as x:
            raise NnefError(u.value.loc, f"undefined identifier '{x.name}'") from None
        _bind_using(env, u, val)
    for a in op.asserts:
        _check_assert(env, a, where, opname, checked, True)
    inst = Instance(op, env)
    for p in op.outputs:
        dtype = env.dtypes.get(p.type.name, p.type.name)
        try:
            spread = p.type.packed and any(x.spread for x in p.type.shape or [])
            shape = None if spread else eval_shape(env, p.type.shape, p.loc)
            n = env.eval(p.type.count) if p.type.packed and p.type.count is not None else None
            shapes = [eval_shape(env, p.type.shape, p.loc, k) for k in range(int(n or 0))] if spread else None
        except Unknown as x:
            raise NnefError(p.loc, f"undefined identifier '{x.name}' in the shape of '{p.name}'") from None
        if p.type.packed:
            if spread:      # per-item extents `..sizes` (layout.split)
                inst.outputs.append([TensorType(dtype, sh) for sh in shapes])
            else:
                inst.outputs.append([TensorType(dtype, shape)] * int(n or 0))
        else:
            inst.outputs.append(TensorType(dtype, shape))
    return inst


MAX_INDEXED_CONSTANT = 1 << 16


def constant_value(env: Env, p: A.Param, shape: list[int] | None):
    """The value of a @constant (2.7): its expression, or with index symbols (`I: real[n,n] =
    i == j ? 1.0 : 0.0, i < n, j < n`; a symbol bounded by a pack is a pack of indices) the
    row-major array of the expression at each index, checked against the declared shape."""
    if p.default is None:
        return None
    try:
        if not p.bounds:
            return env.eval(p.default)
        extents, packed = [], []
        for name, bound in p.bounds:
            b = env.eval(bound)
            packed.append(_is_pack(b))
            extents.append(list(b) if packed[-1] else [b])
    except Unknown as u:
        raise NnefError(p.loc, f"undefined identifier '{u.name}'") from None
    dims = [d for ext in extents for d in ext]
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims):
        raise NnefError(p.loc, f"the index bounds of constant '{p.name}' must be non-negative ints, got {dims}")
    if shape is not None and dims != list(shape):
        raise NnefError(p.loc, f"the index bounds {dims} of constant '{p.name}' differ from its shape {shape}")
    if math.prod(dims) > MAX_INDEXED_CONSTANT:
        raise NnefError(p.loc, f"constant '{p.name}' has {math.prod(dims)} elements to evaluate one by one "
                        f"(limit {MAX_INDEXED_CONSTANT})")
    inner = Env(env.dtypes)
    inner.values = dict(env.values)
    out = []
    for idx in itertools.product(*[range(d) for d in dims]):
        k = 0
        for (name, _), ext, pack in zip(p.bounds, extents, packed):
            part = list(idx[k:k + len(ext)])
            k += len(ext)
            inner.values[name] = part if pack else part[0]
        try:
            out.append(inner.eval(p.default))
        except Unknown as u:
            raise NnefError(p.loc, f"undefined identifier '{u.name}'") from None
    return out


def _pack_len(env, p):
    c = p.type.count
    if c is None:
        return env.values.get(f"|{p.name}|")
    try:
        return env.eval(c)
    except Unknown:
        return None


def _bind_input(env, p: A.Param, t, where, opname):
    if t is None:
        if not p.type.optional and p.default is None:
            raise NnefError(where, f"input '{p.name}' of '{opname}' is required")
        for n in identifiers([x.expr for x in p.type.shape or []]):
            env.values.setdefault(n, None)
        env.values[p.name] = None
        return
    if isinstance(t, list):
        if not p.type.packed:
            raise NnefError(where, f"input '{p.name}' of '{opname}' is not a pack")
        if p.type.count is not None:
            bind_value(env, p.type.count, len(t), where, f"length of input pack '{p.name}'")
        env.values[f"{p.name}.size"] = len(t)
        if not t:
            raise NnefError(where, f"input pack '{p.name}' of '{opname}' is empty")
        if len({len(item.shape) for item in t}) != 1:
            raise NnefError(where, f"tensors of input pack '{p.name}' differ in rank")
        if p.type.rank is not None:
            bind_value(env, p.type.rank, len(t[0].shape), where, f"rank of '{p.name}'")
        spread = [j for j, x in enumerate(p.type.shape or []) if x.spread]
        collected: dict[int, list] = {j: [] for j in spread}
        for i, item in enumerate(t):
            extents = []
            for j, x in enumerate(p.type.shape or []):
                if x.spread:
                    # a '..z' extent is distinct per pack item: bind a fresh symbol per item
                    fresh = f"{p.name}#{j}#{i}"
                    extents.append(A.Extent(x.loc, A.Ident(x.loc, fresh), None, False))
                else:
                    extents.append(x)
            item_param = A.Param(p.loc, p.name, A.TypeSpec(p.loc, p.type.name, shape=extents))
            bind_shape(env, item_param, item.shape, where)
            for j in spread:
                collected[j].append(env.values.pop(f"{p.name}#{j}#{i}"))
        for j in spread:
            x = p.type.shape[j]
            if isinstance(x.expr, A.Ident):
                env.values[x.expr.name] = collected[j]
        env.values[p.name] = True
        return
    if p.type.packed:
        raise NnefError(where, f"input '{p.name}' of '{opname}' is a tensor pack; pass a list")
    tname = env.dtypes.get(p.type.name, p.type.name)
    if tname in ("int", "real", "bool", "str") and t.dtype != tname:
        raise NnefError(where, f"input '{p.name}' of '{opname}' expects {tname}, got {t.dtype}")
    bind_shape(env, p, t.shape, where)
    env.values[p.name] = True


def _bind_using(env: Env, u: A.Using, val):
    if isinstance(u.target, A.Ident):
        if u.count is not None and _is_pack(val):
            bind_value(env, u.count, len(val), u.loc, f"length of '{u.target.name}'")
        env.values[u.target.name] = val
        return
    items = u.target.items
    if val is None:
        for it in items:
            for n in identifiers(it):
                env.values[n] = None
        return
    if not _is_pack(val):
        raise NnefError(u.loc, "only a pack can be decomposed")
    if len(items) == 1 and isinstance(items[0], A.Expand) and isinstance(items[0].item, A.Zip):
        names = [z.name for z in items[0].item.items]
        k = len(names)
        for i, n in enumerate(names):
            env.values[n] = val[i::k]
        return
    fixed = sum(1 for it in items if not isinstance(it, A.Expand))
    rest = len(val) - fixed
    pos = 0
    for it in items:
        if isinstance(it, A.Expand):
            env.values[it.item.name] = val[pos:pos + rest]
            pos += rest
        else:
            if pos >= len(val):
                raise NnefError(u.loc, "not enough items to decompose")
            env.values[it.name] = val[pos]
            pos += 1
