"""Spec 2.5 Elementwise Binary Operators: ADD ... TABLE."""

from __future__ import annotations

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Commutative, Pure

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import (
    BinaryElementwiseOp,
    TosaOp,
    chapter_ops,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.dialects.tosa.ops.tensor import NAN_MODE
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.ir.types import AnyTensor


@tosa_op_definition
class AddOp(BinaryElementwiseOp):
    name = "tosa.add"
    traits = traits_def(Pure(), Commutative(), CanonicalizationPatterns("AddZero"))


@tosa_op_definition
class ArithmeticRightShiftOp(BinaryElementwiseOp):
    name = "tosa.arithmetic_right_shift"
    CLAUSES = (syntax.boolean("round"),)


@tosa_op_definition
class BitwiseAndOp(BinaryElementwiseOp):
    name = "tosa.bitwise_and"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class BitwiseOrOp(BinaryElementwiseOp):
    name = "tosa.bitwise_or"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class BitwiseXorOp(BinaryElementwiseOp):
    name = "tosa.bitwise_xor"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class IntDivOp(BinaryElementwiseOp):
    name = "tosa.intdiv"


@tosa_op_definition
class LogicalAndOp(BinaryElementwiseOp):
    name = "tosa.logical_and"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class LogicalLeftShiftOp(BinaryElementwiseOp):
    name = "tosa.logical_left_shift"


@tosa_op_definition
class LogicalRightShiftOp(BinaryElementwiseOp):
    name = "tosa.logical_right_shift"


@tosa_op_definition
class LogicalOrOp(BinaryElementwiseOp):
    name = "tosa.logical_or"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class LogicalXorOp(BinaryElementwiseOp):
    name = "tosa.logical_xor"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class MaximumOp(BinaryElementwiseOp):
    name = "tosa.maximum"
    traits = traits_def(Pure(), Commutative())
    CLAUSES = (NAN_MODE,)


@tosa_op_definition
class MinimumOp(BinaryElementwiseOp):
    name = "tosa.minimum"
    traits = traits_def(Pure(), Commutative())
    CLAUSES = (NAN_MODE,)


@tosa_op_definition
class MulOp(TosaOp):
    """MUL takes its result `shift` as a tensor<1xi8> operand (non-zero only for i32)."""

    name = "tosa.mul"
    input1 = operand_def(AnyTensor)
    input2 = operand_def(AnyTensor)
    shift = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), CanonicalizationPatterns("MulOne"))
    SAME_ELEMENT_TYPE = (("input1", "input2"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "input2", "output"), broadcast=True)


@tosa_op_definition
class PowOp(BinaryElementwiseOp):
    name = "tosa.pow"


@tosa_op_definition
class SubOp(BinaryElementwiseOp):
    name = "tosa.sub"
    traits = traits_def(Pure(), CanonicalizationPatterns("SubZero"))


@tosa_op_definition
class TableOp(TosaOp):
    name = "tosa.table"
    input1 = operand_def(AnyTensor)
    table = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE = (("input1", "table"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


OPS = chapter_ops(globals())
