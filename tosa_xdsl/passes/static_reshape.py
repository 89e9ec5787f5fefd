"""Once tosa-infer-shapes has made a RESHAPE's result static, its `-1` ("inferred", as upstream
and torch-mlir's dynamic batch write it) is replaced by the dim it stands for: TOSA 1.0.1's
RESHAPE has ERROR_IF(shape[i] < 0), so a graph made static this way is conformant (the
reference model runs it)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_xdsl.dialects.tosa.ops.data_layout import ReshapeOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp


def resolve_inferred_reshape_dims(module: ModuleOp) -> int:
    """Point each static-result RESHAPE whose shape holds a -1 at a new const_shape of its
    result shape; the number rewritten."""
    from tosa_xdsl.passes.make_broadcastable import const_shape

    count = 0
    for op in [o for o in module.walk() if isinstance(o, ReshapeOp)]:
        owner = op.shape.owner
        t = op.output.type
        if not isinstance(owner, ConstShapeOp) or not isinstance(t, TensorType):
            continue
        dims = list(t.get_shape())
        if -1 not in owner.shape_values() or any(d < 0 for d in dims):
            continue
        new = const_shape(dims)
        Rewriter.insert_op(new, InsertPoint.before(op))
        op.operands = [op.operands[0], new.results[0]]
        if not owner.results[0].uses:
            Rewriter.erase_op(owner)
        count += 1
    return count
