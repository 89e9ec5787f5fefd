"""The shape symbols of the spec's Arguments tables, checked across an op's tensors.

Spec 2.2 tosa_execute_graph#3/#5: ERROR_IF(operator input/output tensors do not meet the
requirement of the operator Arguments). In an Arguments table the same symbol names the same
value: CAST's input and output are both `shape`; SCATTER's values_in and values_out are both
`[N,K,C]` and its input `[N,W,C]` shares N and C; RFFT2D's outputs are `[N,H,W/2+1]`. The
per-operator checks decide most of this with their own messages; this check runs after them
(it is imported last) and catches what they leave (CAST, REVERSE, TABLE, SCATTER, RFFT2D, ...),
so a result whose declared shape the operator cannot produce is a verification error, not a
surprise for the interpreter. Dynamic dimensions and unranked tensors are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from xdsl.ir import SSAValue

from tosa_xdsl import spec_tables as st
from tosa_xdsl.dialects.tosa.ops import SPEC_OPS
from tosa_xdsl.dialects.tosa.ops.base import error_if_check
from tosa_xdsl.ir.access import DYNAMIC, shape_of
from tosa_xdsl.verification.common import fail

_SYMBOL = re.compile(r"^[A-Za-z_]\w*$")
_EXPRESSION = re.compile(r"^[A-Za-z_0-9+*/ -]+$")


def _rules() -> dict[type, list[tuple[str, str]]]:
    """Per op class: (our operand/result name, its Arguments-table shape) of each tensor."""
    by_name = {c.SPEC_NAME: c for c in SPEC_OPS}
    rules: dict[type, list[tuple[str, str]]] = {}
    for spec in st.ops():
        cls = by_name.get(spec.name)
        if cls is None:
            continue
        definition = cls.get_irdl_definition()
        ours = {n for n, _ in definition.operands} | {n for n, _ in definition.results}
        entries = []
        for a in spec.arguments:
            if a.kind == "Attribute" or not a.type.startswith("T<") or a.shape in ("", "[1]"):
                continue
            name = a.name if a.name in ours else a.name.lower()
            if name in ours:
                entries.append((name, a.shape.replace(" ", "")))
        # only symbols that occur in two places constrain anything
        if len(entries) > 1:
            rules[cls] = entries
    return rules


_RULES = _rules()


def _dims(op, name: str) -> Iterator[tuple[str, tuple[int, ...]]]:
    value = getattr(op, name, None)
    if isinstance(value, SSAValue):
        dims = shape_of(value)
        if dims is not None:
            yield name, dims


def _fmt(dims: tuple[int, ...]) -> str:
    return "[" + ", ".join("?" if d == DYNAMIC else str(d) for d in dims) + "]"


@error_if_check(*_RULES)
def _argument_shape_symbols(op) -> None:
    whole: dict[str, tuple[str, tuple[int, ...]]] = {}
    bound: dict[str, tuple[str, int]] = {}
    pending: list[tuple[str, int, str, int]] = []
    for name, shape in _RULES[type(op)]:
        for label, dims in _dims(op, name):
            if not shape.startswith("["):  # a whole shape: `shape`, `shape1`
                if shape in whole:
                    first, other = whole[shape]
                    if len(other) != len(dims) or any(
                            a != b and DYNAMIC not in (a, b) for a, b in zip(other, dims)):
                        fail(op, f"{label} shape {_fmt(dims)} does not match {first} shape "
                                 f"{_fmt(other)} (both are '{shape}' in the Arguments table of "
                                 f"{op.SPEC_NAME})")
                else:
                    whole[shape] = (label, dims)
                continue
            symbols = shape[1:-1].split(",")
            if len(symbols) != len(dims):
                continue  # the rank checks report this
            for axis, (sym, d) in enumerate(zip(symbols, dims)):
                if d == DYNAMIC:
                    continue
                if _SYMBOL.match(sym):
                    if sym in bound and bound[sym][1] != d:
                        fail(op, f"{label} dim {axis} is {d} but {bound[sym][0]} gives "
                                 f"{sym} = {bound[sym][1]} (Arguments table of {op.SPEC_NAME}: "
                                 f"{label} is {shape})")
                    bound.setdefault(sym, (f"{label} dim {axis}", d))
                elif _EXPRESSION.match(sym):
                    pending.append((label, axis, sym, d))
    for label, axis, expression, d in pending:
        names = set(re.findall(r"[A-Za-z_]\w*", expression))
        if not names <= set(bound):
            continue
        python = re.sub(r"(?<!/)/(?!/)", "//", expression)
        want = eval(python, {"__builtins__": {}}, {k: v for k, (_, v) in bound.items()})  # noqa: S307
        if want != d:
            fail(op, f"{label} dim {axis} is {d}, expected {expression} = {want} (Arguments "
                     f"table of {op.SPEC_NAME})")
