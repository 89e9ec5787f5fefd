"""ERROR_IF checks of spec 2.4 Activation Functions (CLAMP; ERF, SIGMOID, TANH have none)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType

from tosa_xdsl.dialects.tosa.ops.activation import ClampOp
from tosa_xdsl.dialects.tosa.ops.base import error_if_check
from tosa_xdsl.ir.access import element_type
from tosa_xdsl.verification.helpers import fail
from tosa_xdsl.verification.registry import spec_check


def _attr_value(attr) -> int | float | None:
    """The number of a typed attribute; signless integers read as signed (two's complement), but
    i1 as false < true: MLIR 22's ClampOp::verify accepts min_val = false, max_val = true and
    rejects the reverse (tests/producers/test_upstream_rows.py)."""
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, IntegerAttr):
        v = attr.value.data
        t = attr.type
        if isinstance(t, IntegerType) and t.width.data == 1:
            return v & 1
        if isinstance(t, IntegerType) and t.width.data > 1 and not t.signedness.data.name == "UNSIGNED":
            w = t.width.data
            if v >= 1 << (w - 1):
                v -= 1 << w
        return v
    return None


@error_if_check(ClampOp)
def _clamp_attribute_types(op):
    # Spec 2.4.1 types min_val and max_val as in_out_t; upstream's ClampOp::verify rejects any
    # other attribute kind or type with this message. Runs before the bounds check (which
    # compares the two values) so a `max_val = @f` never reaches it.
    elt = element_type(op.input.type)
    kind = IntegerAttr if isinstance(elt, IntegerType) else FloatAttr
    for attr in (op.min_val, op.max_val):
        if not isinstance(attr, kind) or attr.type != elt:
            fail(op, "min/max attributes types are incompatible with input/output element types.")


@spec_check(ClampOp, "CLAMP#1", "CLAMP#2")
def _clamp_bounds(op):
    # 2.4.1 CLAMP#1: ERROR_IF(max_val < min_val); CLAMP#2: ERROR_IF(isNaN(min_val) || isNaN(max_val))
    lo, hi = _attr_value(op.min_val), _attr_value(op.max_val)
    for name, v in (("min_val", lo), ("max_val", hi)):
        if isinstance(v, float) and math.isnan(v):
            fail(op, f"{name} is NaN; min_val and max_val must not be NaN")
    if lo is not None and hi is not None and hi < lo:
        fail(op, f"max_val ({hi}) is less than min_val ({lo})")
