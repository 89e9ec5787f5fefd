"""Spec 2.11 Scatter/Gather Operators: GATHER, SCATTER."""

from __future__ import annotations

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from tosa_xdsl.dialects.tosa.ops.base import TosaOp, chapter_ops, tosa_op_definition
from tosa_xdsl.ir.types import AnyTensor


@tosa_op_definition
class GatherOp(TosaOp):
    name = "tosa.gather"
    values = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE = (("values", "output"),)


@tosa_op_definition
class ScatterOp(TosaOp):
    name = "tosa.scatter"
    values_in = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    input = operand_def(AnyTensor)
    values_out = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE = (("values_in", "input", "values_out"),)


OPS = chapter_ops(globals())
