"""Spec 2.6 Elementwise Unary Operators: ABS ... SIN."""

from __future__ import annotations

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from tosa_xdsl.dialects.tosa.ops.base import (
    TosaOp,
    UnaryElementwiseOp,
    chapter_ops,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.ir.types import AnyTensor


@tosa_op_definition
class AbsOp(UnaryElementwiseOp):
    name = "tosa.abs"


@tosa_op_definition
class BitwiseNotOp(UnaryElementwiseOp):
    name = "tosa.bitwise_not"


@tosa_op_definition
class CeilOp(UnaryElementwiseOp):
    name = "tosa.ceil"


@tosa_op_definition
class ClzOp(UnaryElementwiseOp):
    name = "tosa.clz"


@tosa_op_definition
class CosOp(UnaryElementwiseOp):
    name = "tosa.cos"


@tosa_op_definition
class ExpOp(UnaryElementwiseOp):
    name = "tosa.exp"


@tosa_op_definition
class FloorOp(UnaryElementwiseOp):
    name = "tosa.floor"


@tosa_op_definition
class LogOp(UnaryElementwiseOp):
    name = "tosa.log"


@tosa_op_definition
class LogicalNotOp(UnaryElementwiseOp):
    name = "tosa.logical_not"


@tosa_op_definition
class NegateOp(TosaOp):
    """NEGATE takes its zero points as tensor<1xT> operands (non-zero only for i8)."""

    name = "tosa.negate"
    input1 = operand_def(AnyTensor)
    input1_zp = operand_def(AnyTensor)
    output_zp = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), CanonicalizationPatterns("NegateNegate"))
    SAME_ELEMENT_TYPE = (("input1", "input1_zp", "output_zp", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


@tosa_op_definition
class ReciprocalOp(UnaryElementwiseOp):
    name = "tosa.reciprocal"


@tosa_op_definition
class RsqrtOp(UnaryElementwiseOp):
    name = "tosa.rsqrt"


@tosa_op_definition
class SinOp(UnaryElementwiseOp):
    name = "tosa.sin"


OPS = chapter_ops(globals())
