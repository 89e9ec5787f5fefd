"""Spec 2.7 Elementwise Ternary Operators: SELECT."""

from __future__ import annotations

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from tosa_xdsl.dialects.tosa.ops.base import (
    TosaOp,
    chapter_ops,
    require_bool,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.ir.types import AnyTensor


@tosa_op_definition
class SelectOp(TosaOp):
    """output = input1 ? input2 : input3, with input1 boolean."""

    name = "tosa.select"
    input1 = operand_def(AnyTensor)
    input2 = operand_def(AnyTensor)
    input3 = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), CanonicalizationPatterns("SelectConstCondition", "SelectNot"))
    SAME_ELEMENT_TYPE = (("input2", "input3", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "input2", "input3", "output"), broadcast=True)
        require_bool(self, "input1")


OPS = chapter_ops(globals())
