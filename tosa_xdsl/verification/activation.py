"""ERROR_IF checks of spec 2.4 Activation Functions (CLAMP; ERF, SIGMOID, TANH have none)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType

from tosa_xdsl.dialects.tosa.ops.activation import ClampOp
from tosa_xdsl.verification.helpers import fail
from tosa_xdsl.verification.registry import spec_check


def _attr_value(attr) -> int | float | None:
    """The number of a typed attribute; signless integers read as signed (two's complement)."""
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, IntegerAttr):
        v = attr.value.data
        t = attr.type
        if isinstance(t, IntegerType) and t.width.data > 1 and not t.signedness.data.name == "UNSIGNED":
            w = t.width.data
            if v >= 1 << (w - 1):
                v -= 1 << w
        return v
    return None


@spec_check(ClampOp, "CLAMP#1", "CLAMP#2")
def _clamp_bounds(op):
    # 2.4.1 CLAMP#1: ERROR_IF(max_val < min_val); CLAMP#2: ERROR_IF(isNaN(min_val) || isNaN(max_val))
    lo, hi = _attr_value(op.min_val), _attr_value(op.max_val)
    for name, v in (("min_val", lo), ("max_val", hi)):
        if isinstance(v, float) and math.isnan(v):
            fail(op, f"{name} is NaN; min_val and max_val must not be NaN")
    if lo is not None and hi is not None and hi < lo:
        fail(op, f"max_val ({hi}) is less than min_val ({lo})")
