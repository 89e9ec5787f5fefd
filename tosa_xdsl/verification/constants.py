"""Values a verifier can know statically: constants from tosa.const / tosa.const_shape.

ERROR_IF checks that need a value (a zero point, a shape, a shift) apply when that value is
produced by a constant op and are skipped otherwise (issue: "checks that need a value apply
when it is a constant in the IR").
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp


def const_shape_values(value: SSAValue) -> tuple[int, ...] | None:
    """The integers of a `!tosa.shape` value produced by tosa.const_shape, else None."""
    owner = value.owner
    if isinstance(owner, ConstShapeOp):
        # a malformed const_shape (`values = [1, 2]`) reports itself; its users skip it
        try:
            values = tuple(int(v) for v in owner.shape_values())
        except Exception:
            return None
        # values that disagree with their !tosa.shape<N> type: const_shape's own verifier
        # reports that; for its users the value is not known
        rank = getattr(getattr(value.type, "rank", None), "data", None)
        return values if rank is None or rank == len(values) else None
    return None


def const_tensor(value: SSAValue) -> np.ndarray | None:
    """The contents of a tensor produced by tosa.const (as a numpy array), else None."""
    owner = value.owner
    if not isinstance(owner, ConstOp):
        return None
    from tosa_xdsl.ir.dense import to_numpy

    try:
        return to_numpy(owner.values)
    except Exception:  # a dense_resource without data, an element type we cannot map
        return None


def const_scalar(value: SSAValue) -> int | float | bool | None:
    """The single element of a constant tensor<1xT> (zero points, shifts), else None."""
    array = const_tensor(value)
    if array is None or array.size != 1:
        return None
    return array.reshape(()).item()
