"""Spec 2.6 Elementwise Unary Operators: ABS ... SIN."""

from __future__ import annotations

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from tosa_xdsl.dialects.tosa.ops.base import (
    TosaOp,
    UnaryElementwiseOp,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.ir.types import AnyTensor


@tosa_op_definition
class AbsOp(UnaryElementwiseOp):
    name = "tosa.abs"
    SPEC_NAME, SPEC_SECTION = "ABS", "2.6.1"


@tosa_op_definition
class BitwiseNotOp(UnaryElementwiseOp):
    name = "tosa.bitwise_not"
    SPEC_NAME, SPEC_SECTION = "BITWISE_NOT", "2.6.2"


@tosa_op_definition
class CeilOp(UnaryElementwiseOp):
    name = "tosa.ceil"
    SPEC_NAME, SPEC_SECTION = "CEIL", "2.6.3"


@tosa_op_definition
class ClzOp(UnaryElementwiseOp):
    name = "tosa.clz"
    SPEC_NAME, SPEC_SECTION = "CLZ", "2.6.4"


@tosa_op_definition
class CosOp(UnaryElementwiseOp):
    name = "tosa.cos"
    SPEC_NAME, SPEC_SECTION = "COS", "2.6.5"


@tosa_op_definition
class ExpOp(UnaryElementwiseOp):
    name = "tosa.exp"
    SPEC_NAME, SPEC_SECTION = "EXP", "2.6.6"


@tosa_op_definition
class FloorOp(UnaryElementwiseOp):
    name = "tosa.floor"
    SPEC_NAME, SPEC_SECTION = "FLOOR", "2.6.7"


@tosa_op_definition
class LogOp(UnaryElementwiseOp):
    name = "tosa.log"
    SPEC_NAME, SPEC_SECTION = "LOG", "2.6.8"


@tosa_op_definition
class LogicalNotOp(UnaryElementwiseOp):
    name = "tosa.logical_not"
    SPEC_NAME, SPEC_SECTION = "LOGICAL_NOT", "2.6.9"


@tosa_op_definition
class NegateOp(TosaOp):
    """NEGATE takes its zero points as tensor<1xT> operands (non-zero only for i8)."""

    name = "tosa.negate"
    SPEC_NAME, SPEC_SECTION = "NEGATE", "2.6.10"
    input1 = operand_def(AnyTensor)
    input1_zp = operand_def(AnyTensor)
    output_zp = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    RANKS = {"input1_zp": 1, "output_zp": 1}
    SAME_ELEMENT_TYPE = (("input1", "input1_zp", "output_zp", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


@tosa_op_definition
class ReciprocalOp(UnaryElementwiseOp):
    name = "tosa.reciprocal"
    SPEC_NAME, SPEC_SECTION = "RECIPROCAL", "2.6.11"


@tosa_op_definition
class RsqrtOp(UnaryElementwiseOp):
    name = "tosa.rsqrt"
    SPEC_NAME, SPEC_SECTION = "RSQRT", "2.6.12"


@tosa_op_definition
class SinOp(UnaryElementwiseOp):
    name = "tosa.sin"
    SPEC_NAME, SPEC_SECTION = "SIN", "2.6.13"


OPS = (AbsOp, BitwiseNotOp, CeilOp, ClzOp, CosOp, ExpOp, FloorOp, LogOp, LogicalNotOp,
       NegateOp, ReciprocalOp, RsqrtOp, SinOp)
