"""ERROR_IF checks of spec 2.9 Reduction Operators (REDUCE_ALL ... REDUCE_SUM)."""

from __future__ import annotations

from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops.reduction import OPS
from tosa_xdsl.ir.access import shape_of
from tosa_xdsl.verification.common import fail
from tosa_xdsl.verification.registry import spec_check


@spec_check(OPS, *(f"{c.SPEC_NAME}#{i}" for c in OPS for i in (1, 2)))
def _reduce_axis(op):
    # 2.9.x <OP>#1: ERROR_IF(axis < 0 || axis >= rank(shape1)); <OP>#2: ERROR_IF(shape[axis] != 1)
    axis = op.axis.value.data
    dims = shape_of(op.input)
    if dims is not None and not 0 <= axis < len(dims):
        fail(op, f"axis {axis} is out of range for input rank {len(dims)} "
                 f"(must be 0 to {len(dims) - 1})")
    if axis < 0:
        fail(op, f"axis {axis} must not be negative")
    out = shape_of(op.output)
    reduced = shapes.reduce_shape(out and (shapes.DYN,) * len(out), axis)
    if out is not None and reduced is not None and out[axis] >= 0 and out[axis] != reduced[axis]:
        fail(op, f"output dim {axis} (the reduced axis) is {out[axis]} but must be 1")
