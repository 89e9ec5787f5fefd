"""ERROR_IF checks of spec 2.5-2.7: elementwise binary (OP#1 broadcast), unary (NEGATE zero
points), ternary (SELECT#1 broadcast). The broadcast itself is helpers.check_broadcast."""

from __future__ import annotations

from tosa_xdsl.dialects.tosa.ops.base import BinaryElementwiseOp
from tosa_xdsl.dialects.tosa.ops.elementwise_binary import OPS as BINARY_OPS
from tosa_xdsl.dialects.tosa.ops.elementwise_binary import MulOp
from tosa_xdsl.dialects.tosa.ops.elementwise_ternary import SelectOp
from tosa_xdsl.dialects.tosa.ops.elementwise_unary import NegateOp
from tosa_xdsl.ir.access import element_type
from tosa_xdsl.verification.constants import const_scalar
from tosa_xdsl.verification.helpers import BROADCAST_IDS, check_broadcast, fail
from tosa_xdsl.verification.registry import spec_check

# Every 2.5 operator with `shape != broadcast_shape(shape1, shape2)` (all but TABLE).
_BROADCASTING = tuple(c for c in BINARY_OPS if issubclass(c, BinaryElementwiseOp)) + (MulOp,)


@spec_check(_BROADCASTING, *(f"{c.SPEC_NAME}#1" for c in _BROADCASTING), *BROADCAST_IDS)
def _binary_broadcast(op):
    # 2.5.1-2.5.16 <OP>#1: ERROR_IF(shape != broadcast_shape(shape1, shape2))
    check_broadcast(op, (("input1", op.input1), ("input2", op.input2)), op.output)


@spec_check(NegateOp, "NEGATE#1", "NEGATE#2")
def _negate_zero_points(op):
    # 2.6.10 NEGATE#1/#2: ERROR_IF(!is_same<in_out_t,i8_t>() && input1_zp/output_zp != 0)
    t = element_type(op.input1.type)
    if str(t) == "i8":
        return
    for name in ("input1_zp", "output_zp"):
        zp = const_scalar(getattr(op, name))
        if zp is not None and zp != 0:
            fail(op, f"{name} is {zp} but zero points must be 0 for element type {t} "
                     f"(only i8 takes a zero point)")


@spec_check(SelectOp, "SELECT#1", *BROADCAST_IDS)
def _select_broadcast(op):
    # 2.7.1 SELECT#1: ERROR_IF(shape != broadcast_shape(broadcast_shape(shape1, shape2), shape3))
    check_broadcast(op, (("input1", op.input1), ("input2", op.input2), ("input3", op.input3)),
                    op.output)
