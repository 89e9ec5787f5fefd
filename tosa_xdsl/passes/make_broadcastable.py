"""`tosa-make-broadcastable`: give the operands of binary elementwise operators equal ranks.

TOSA broadcasts only between tensors of equal rank (spec 1.11.3); frontends produce numpy
style rank-mismatched operands. For ADD, SUB, MUL, INTDIV, POW, MAXIMUM, MINIMUM, the
bitwise, logical and shift operators, EQUAL, GREATER, GREATER_EQUAL and SELECT (all three
inputs), every operand whose rank is lower than the highest operand rank is reshaped by a
new `tosa.reshape` whose `tosa.const_shape` prepends 1s (numpy broadcasting step 1,
the legalization guide's `apply_rank_broadcast`):

    %r = tosa.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  becomes
    %s = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %b1 = tosa.reshape %b, %s : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
    %r = tosa.add %a, %b1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>

The result type is unchanged. Operators with an unranked operand are left alone, and so
is an operand with dynamic dims (a RESHAPE's shape must be static in TOSA 1.0.1; run
tosa-infer-shapes first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_xdsl.dialects.tosa.ops import comparison as cmp
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops.data_layout import ReshapeOp
from tosa_xdsl.dialects.tosa.ops.elementwise_ternary import SelectOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.ir.types import ShapeType

# operators and the names of the operands that broadcast
BROADCASTING: dict[type[Operation], tuple[str, ...]] = {
    **{cls: ("input1", "input2") for cls in (
        eb.AddOp, eb.SubOp, eb.MulOp, eb.IntDivOp, eb.PowOp, eb.MaximumOp, eb.MinimumOp,
        eb.ArithmeticRightShiftOp, eb.BitwiseAndOp, eb.BitwiseOrOp, eb.BitwiseXorOp,
        eb.LogicalAndOp, eb.LogicalOrOp, eb.LogicalXorOp, eb.LogicalLeftShiftOp,
        eb.LogicalRightShiftOp, cmp.EqualOp, cmp.GreaterOp, cmp.GreaterEqualOp)},
    SelectOp: ("input1", "input2", "input3"),
}


def const_shape(values: list[int]) -> ConstShapeOp:
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(values)]), values)
    return ConstShapeOp.create(properties={"values": attr}, result_types=[ShapeType(len(values))])


def make_broadcastable_op(op: Operation) -> bool:
    """Reshape the lower-rank operands of `op` (one of BROADCASTING); True if changed."""
    names = BROADCASTING[type(op)]
    values: list[SSAValue] = [getattr(op, n) for n in names]
    if not all(isinstance(v.type, TensorType) for v in values):
        return False
    rank = max(v.type.get_num_dims() for v in values)  # type: ignore[union-attr]
    changed = False
    for name, value in zip(names, values):
        t = value.type
        assert isinstance(t, TensorType)
        if t.get_num_dims() == rank or not t.has_static_shape():
            continue
        dims = [1] * (rank - t.get_num_dims()) + list(t.get_shape())
        shape_op = const_shape(dims)
        reshape = ReshapeOp.create(operands=[value, shape_op.output],
                                   result_types=[TensorType(t.element_type, dims)])
        for new in (shape_op, reshape):
            new.location = op.location  # pyright: ignore[reportAttributeAccessIssue]
        Rewriter.insert_op([shape_op, reshape], InsertPoint.before(op))
        operands = list(op.operands)
        operands[_OPERAND_INDEX[name]] = reshape.output
        op.operands = operands
        changed = True
    return changed


_OPERAND_INDEX = {"input1": 0, "input2": 1, "input3": 2}


@dataclass(frozen=True)
class TosaMakeBroadcastablePass(ModulePass):
    name: ClassVar[str] = "tosa-make-broadcastable"
    # The driver verifies this pass's input with lower-rank operands allowed to broadcast
    # (tosa_xdsl.verification.helpers.rank_broadcast_allowed) when it runs first.
    reads_rank_broadcast: ClassVar[bool] = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if type(inner) in BROADCASTING:
                make_broadcastable_op(inner)
