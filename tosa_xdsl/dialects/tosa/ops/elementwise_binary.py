"""Spec 2.5 Elementwise Binary Operators: ADD ... TABLE."""

from __future__ import annotations

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Commutative, Pure

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import (
    BinaryElementwiseOp,
    TosaOp,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.dialects.tosa.ops.tensor import NAN_MODE
from tosa_xdsl.ir.types import AnyTensor


@tosa_op_definition
class AddOp(BinaryElementwiseOp):
    name = "tosa.add"
    SPEC_NAME, SPEC_SECTION = "ADD", "2.5.1"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class ArithmeticRightShiftOp(BinaryElementwiseOp):
    name = "tosa.arithmetic_right_shift"
    SPEC_NAME, SPEC_SECTION = "ARITHMETIC_RIGHT_SHIFT", "2.5.2"
    CLAUSES = (syntax.boolean("round"),)


@tosa_op_definition
class BitwiseAndOp(BinaryElementwiseOp):
    name = "tosa.bitwise_and"
    SPEC_NAME, SPEC_SECTION = "BITWISE_AND", "2.5.3"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class BitwiseOrOp(BinaryElementwiseOp):
    name = "tosa.bitwise_or"
    SPEC_NAME, SPEC_SECTION = "BITWISE_OR", "2.5.4"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class BitwiseXorOp(BinaryElementwiseOp):
    name = "tosa.bitwise_xor"
    SPEC_NAME, SPEC_SECTION = "BITWISE_XOR", "2.5.5"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class IntDivOp(BinaryElementwiseOp):
    name = "tosa.intdiv"
    SPEC_NAME, SPEC_SECTION = "INTDIV", "2.5.6"


@tosa_op_definition
class LogicalAndOp(BinaryElementwiseOp):
    name = "tosa.logical_and"
    SPEC_NAME, SPEC_SECTION = "LOGICAL_AND", "2.5.7"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class LogicalLeftShiftOp(BinaryElementwiseOp):
    name = "tosa.logical_left_shift"
    SPEC_NAME, SPEC_SECTION = "LOGICAL_LEFT_SHIFT", "2.5.8"


@tosa_op_definition
class LogicalRightShiftOp(BinaryElementwiseOp):
    name = "tosa.logical_right_shift"
    SPEC_NAME, SPEC_SECTION = "LOGICAL_RIGHT_SHIFT", "2.5.9"


@tosa_op_definition
class LogicalOrOp(BinaryElementwiseOp):
    name = "tosa.logical_or"
    SPEC_NAME, SPEC_SECTION = "LOGICAL_OR", "2.5.10"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class LogicalXorOp(BinaryElementwiseOp):
    name = "tosa.logical_xor"
    SPEC_NAME, SPEC_SECTION = "LOGICAL_XOR", "2.5.11"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class MaximumOp(BinaryElementwiseOp):
    name = "tosa.maximum"
    SPEC_NAME, SPEC_SECTION = "MAXIMUM", "2.5.12"
    traits = traits_def(Pure(), Commutative())
    CLAUSES = (NAN_MODE,)


@tosa_op_definition
class MinimumOp(BinaryElementwiseOp):
    name = "tosa.minimum"
    SPEC_NAME, SPEC_SECTION = "MINIMUM", "2.5.13"
    traits = traits_def(Pure(), Commutative())
    CLAUSES = (NAN_MODE,)


@tosa_op_definition
class MulOp(TosaOp):
    """MUL takes its result `shift` as a tensor<1xi8> operand (non-zero only for i32)."""

    name = "tosa.mul"
    SPEC_NAME, SPEC_SECTION = "MUL", "2.5.14"
    input1 = operand_def(AnyTensor)
    input2 = operand_def(AnyTensor)
    shift = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    RANKS = {"shift": 1}
    SAME_ELEMENT_TYPE = (("input1", "input2"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "input2", "output"))


@tosa_op_definition
class PowOp(BinaryElementwiseOp):
    name = "tosa.pow"
    SPEC_NAME, SPEC_SECTION = "POW", "2.5.15"


@tosa_op_definition
class SubOp(BinaryElementwiseOp):
    name = "tosa.sub"
    SPEC_NAME, SPEC_SECTION = "SUB", "2.5.16"


@tosa_op_definition
class TableOp(TosaOp):
    name = "tosa.table"
    SPEC_NAME, SPEC_SECTION = "TABLE", "2.5.17"
    input1 = operand_def(AnyTensor)
    table = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    RANKS = {"table": 1}
    SAME_ELEMENT_TYPE = (("input1", "table"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


OPS = (AddOp, ArithmeticRightShiftOp, BitwiseAndOp, BitwiseOrOp, BitwiseXorOp, IntDivOp,
       LogicalAndOp, LogicalLeftShiftOp, LogicalRightShiftOp, LogicalOrOp, LogicalXorOp,
       MaximumOp, MinimumOp, MulOp, PowOp, SubOp, TableOp)
