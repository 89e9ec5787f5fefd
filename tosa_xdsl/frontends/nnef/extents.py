"""Extents known only at run time (draft 2.6.1, 3.1): a graph input's `s|10` / `~|10` extent, or
an operator output's data-dependent `~|k` one. At import such an extent is a `Dyn`: a symbolic
value with an identity (`key`: the graph symbol, or the expression that computed it from other
extents) and, where it can be derived, its static upper bound. Shape expressions compute with it
symbolically, so the definitions' output shapes still follow (`s`, `s + 2`, `(s - 3) / 2 + 1`);
the imported TOSA has a `?` there.

Comparisons are three-valued: `is` is the draft's compile-time identity (same symbol or same
expression); `==`, `<`, ... between extents that are not identical give RUNTIME (decided only at
run time), which an @assert accepts (TOSA's own run-time checks, e.g. broadcasting's ERROR_IF,
stand for it) and a `?:` branch cannot take. Anything else that needs the number itself (a
range over it, a compile-time pack length, a Python comparison) raises RunTimeExtent, which the
composer reports at the invocation."""

from __future__ import annotations

import itertools

_fresh = itertools.count()


class RunTimeExtent(Exception):
    """A compile-time computation needs the value of an extent known only at run time."""


class _Runtime:
    """A truth value decided only at run time."""
    __slots__ = ()

    def __repr__(self):
        return "RUNTIME"

    def __bool__(self):
        raise RunTimeExtent("a condition on an extent known only at run time")


RUNTIME = _Runtime()


class Dyn:
    __slots__ = ("bound", "key", "name")

    def __init__(self, key=None, bound=None, name: str | None = None):
        self.key = ("fresh", next(_fresh)) if key is None else key
        self.bound = bound if isinstance(bound, int) and not isinstance(bound, bool) and bound >= 0 else None
        self.name = name

    def __repr__(self):
        return self.name or "?"

    def __eq__(self, other):          # symbolic identity (Python-level shape comparisons)
        return isinstance(other, Dyn) and other.key == self.key

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.key)

    def _need(self, *_):
        raise RunTimeExtent(f"extent '{self!r}' is known only at run time")

    __bool__ = __index__ = __int__ = __float__ = __lt__ = __le__ = __gt__ = __ge__ = _need

    # arithmetic stays symbolic
    def __add__(self, o):
        return dyn_binary("+", self, o)

    def __radd__(self, o):
        return dyn_binary("+", o, self)

    def __sub__(self, o):
        return dyn_binary("-", self, o)

    def __rsub__(self, o):
        return dyn_binary("-", o, self)

    def __mul__(self, o):
        return dyn_binary("*", self, o)

    def __rmul__(self, o):
        return dyn_binary("*", o, self)

    def __floordiv__(self, o):
        return dyn_binary("/", self, o)

    def __rfloordiv__(self, o):
        return dyn_binary("/", o, self)

    def __mod__(self, o):
        return dyn_binary("%", self, o)

    def __rmod__(self, o):
        return dyn_binary("%", o, self)

    def __neg__(self):
        return dyn_binary("-", 0, self)


def is_dyn(d) -> bool:
    """A `?` extent: a Dyn, or None where a shape is already plain (the emitter's)."""
    return d is None or isinstance(d, Dyn)


def plain(shape):
    """The shape the emitter and TOSA see: None for every run-time extent."""
    return None if shape is None else [None if is_dyn(d) else d for d in shape]


def _key(v):
    return v.key if isinstance(v, Dyn) else ("const", v)


def _bound(v):
    return v.bound if isinstance(v, Dyn) else v if isinstance(v, int) and not isinstance(v, bool) else None


COMPARE = {"<", "<=", ">", ">=", "==", "!="}
LOGIC = {"&&", "||", "^", "=>"}


def involved(a, b) -> bool:
    return isinstance(a, Dyn) or isinstance(b, Dyn) or a is RUNTIME or b is RUNTIME


def dyn_binary(op: str, a, b):
    """`a op b` where a or b is a run-time extent (or a run-time truth value)."""
    if op in LOGIC:
        return _logic(op, a, b)
    if a is RUNTIME or b is RUNTIME:
        raise RunTimeExtent(f"'{op}' of a condition known only at run time")
    if isinstance(a, float) or isinstance(b, float) or isinstance(a, (str, list)) or isinstance(b, (str, list)):
        raise RunTimeExtent(f"'{op}' of an extent known only at run time and a {type(a if isinstance(b, Dyn) else b).__name__}")
    if op == "is":
        return _key(a) == _key(b)
    if op in COMPARE:
        if _key(a) == _key(b):
            return op in ("<=", ">=", "==")
        if isinstance(a, Dyn) and isinstance(b, int) and (op == ">=" and b <= 0 or op == ">" and b < 0):
            return True                 # an extent is never negative
        return RUNTIME
    # simplifications that keep the identity of the symbol
    if op in ("+", "-") and b == 0 and not isinstance(b, Dyn):
        return a
    if op == "+" and a == 0 and not isinstance(a, Dyn):
        return b
    if op in ("*", "/", "\\", "**") and b == 1 and not isinstance(b, Dyn):
        return a
    if op == "*" and a == 1 and not isinstance(a, Dyn):
        return b
    if op == "*" and (b == 0 and not isinstance(b, Dyn) or a == 0 and not isinstance(a, Dyn)):
        return 0
    if op == "-" and _key(a) == _key(b):
        return 0
    if op in ("<?", ">?") and _key(a) == _key(b):
        return a
    ba, bb = _bound(a), _bound(b)
    bound = None
    if ba is not None and bb is not None:
        if op in ("+", "*", "<?", ">?"):
            bound = {"+": ba + bb, "*": ba * bb, "<?": min(ba, bb), ">?": max(ba, bb)}[op]
        elif op in ("/", "\\") and not isinstance(b, Dyn) and bb > 0:
            bound = ba // bb if op == "/" else -(-ba // bb)
        elif op == "-" and not isinstance(b, Dyn):
            bound = max(ba - bb, 0)
        elif op == "%" and not isinstance(b, Dyn) and bb > 0:
            bound = bb - 1
    elif op == "<?":
        bound = ba if ba is not None else bb
    return Dyn((op, _key(a), _key(b)), bound)


def _logic(op, a, b):
    def known(x):
        return x is not RUNTIME and not isinstance(x, Dyn)
    if op == "&&":
        if (known(a) and not a) or (known(b) and not b):
            return False
        return RUNTIME
    if op == "||":
        if (known(a) and a) or (known(b) and b):
            return True
        return RUNTIME
    if op == "=>":
        if (known(a) and not a) or (known(b) and b):
            return True
        return RUNTIME
    return RUNTIME           # '^'
