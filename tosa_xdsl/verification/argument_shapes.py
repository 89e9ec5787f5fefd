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

from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops import SPEC_OPS
from tosa_xdsl.dialects.tosa.ops.base import error_if_check
from tosa_xdsl.ir.access import shape_of
from tosa_xdsl.verification.common import fail

# only symbols that occur in two places constrain anything
_RULES = {cls: shapes.arguments(cls) for cls in SPEC_OPS if len(shapes.arguments(cls)) > 1}


@error_if_check(*_RULES)
def _argument_shape_symbols(op) -> None:
    bindings = shapes.ArgumentBindings()
    pending: list[tuple[str, int, str, int]] = []
    for name, text in _RULES[type(op)]:
        value = getattr(op, name, None)
        dims = shape_of(value) if isinstance(value, SSAValue) else None
        if dims is None:
            continue
        try:
            bindings.bind(name, text, dims)
        except shapes.ShapeConflict as conflict:
            where = (f"both are '{text}' in the Arguments table of {op.SPEC_NAME}"
                     if not text.startswith("[") else
                     f"Arguments table of {op.SPEC_NAME}: {name} is {text}")
            fail(op, f"{conflict} ({where})")
        if text.startswith("["):
            symbols = text[1:-1].split(",")
            if len(symbols) == len(dims):
                pending += [(name, axis, e, d) for axis, (e, d) in enumerate(zip(symbols, dims))
                            if d != shapes.DYN and not e.isidentifier()]
    for label, axis, expression, d in pending:
        want = bindings.value(expression)
        if want != shapes.DYN and want != d:
            fail(op, f"{label} dim {axis} is {d}, expected {expression} = {want} (Arguments "
                     f"table of {op.SPEC_NAME})")
