"""Spec 2.18 Shape Operators: CONST_SHAPE, the producer of `!tosa.shape<N>` values."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IndexType, TensorType
from xdsl.irdl import prop_def, result_def, traits_def
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import TosaOp, chapter_ops, tosa_op_definition
from tosa_xdsl.ir.types import ShapeType


@tosa_op_definition
class ConstShapeOp(TosaOp):
    name = "tosa.const_shape"
    values = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(ShapeType)
    traits = traits_def(Pure(), ConstantLike())
    CLAUSES = (syntax.attr("values"),)

    def verify_structure(self) -> None:
        t = self.values.get_type()
        if not isinstance(t, TensorType) or not isinstance(t.element_type, IndexType) or t.get_num_dims() != 1:
            raise VerifyException(
                f"'{self.name}' op values must be a rank-1 tensor of index, got {t}"
            )
        rank = self.output.type.rank.data
        if t.get_shape()[0] != rank:
            raise VerifyException(
                f"'{self.name}' op has {t.get_shape()[0]} values but its result is !tosa.shape<{rank}>"
            )

    def shape_values(self) -> list[int]:
        return [int(v) for v in self.values.get_values()]


OPS = chapter_ops(globals())
