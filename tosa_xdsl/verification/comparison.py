"""ERROR_IF checks of spec 2.8 Comparison Operators: output = broadcast of the inputs."""

from __future__ import annotations

from tosa_xdsl.dialects.tosa.ops.comparison import OPS
from tosa_xdsl.verification.helpers import BROADCAST_IDS, check_broadcast
from tosa_xdsl.verification.registry import spec_check


@spec_check(OPS, *(f"{c.SPEC_NAME}#1" for c in OPS), *BROADCAST_IDS)
def _comparison_broadcast(op):
    # 2.8.1-2.8.3 <OP>#1: ERROR_IF(shape != broadcast_shape(shape1, shape2))
    check_broadcast(op, (("input1", op.input1), ("input2", op.input2)), op.output)
