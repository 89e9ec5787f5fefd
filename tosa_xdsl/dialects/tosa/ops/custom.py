"""Spec 2.15 Custom Operators: CUSTOM, an implementation-defined operator."""

from __future__ import annotations

from xdsl.irdl import traits_def, var_operand_def, var_result_def

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import TosaOp, chapter_ops, tosa_op_definition
from tosa_xdsl.ir.types import AnyTensor


@tosa_op_definition
class CustomOp(TosaOp):
    """`operator_name` in `domain_name`; `implementation_attrs` is an opaque string."""

    name = "tosa.custom"
    input_list = var_operand_def(AnyTensor)
    output_list = var_result_def(AnyTensor)
    traits = traits_def()
    CLAUSES = (syntax.string("operator_name"), syntax.string("domain_name"), syntax.string("implementation_attrs"))


OPS = chapter_ops(globals())
