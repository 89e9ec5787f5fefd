"""Spec 2.14 Data Nodes: CONST, IDENTITY."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DenseResourceAttr
from xdsl.irdl import base, operand_def, prop_def, result_def, traits_def
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import (
    TosaOp,
    chapter_ops,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.ir.types import AnyTensor

# Constant data: a dense literal or a `dense_resource<blob>` reference (MLIR's ElementsAttr).
ElementsAttrConstr = base(DenseIntOrFPElementsAttr) | base(DenseResourceAttr)


@tosa_op_definition
class ConstOp(TosaOp):
    """`values` holds the constant; the attribute-dictionary printing style writes it generic,
    because older MLIR (and the tosa-tools translator) has no custom form for tosa.const."""

    name = "tosa.const"
    values = prop_def(ElementsAttrConstr)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), ConstantLike())
    CLAUSES = (syntax.attr("values"),)
    PRINTS_GENERIC_IN_ATTR_DICT_STYLE = True

    def __init__(self, values: DenseIntOrFPElementsAttr | DenseResourceAttr):
        super().__init__(properties={"values": values}, result_types=(values.get_type(),))

    def verify_structure(self) -> None:
        super().verify_structure()
        if self.values.get_type() != self.output.type:
            raise VerifyException(
                f"'{self.name}' op values type {self.values.get_type()} must equal result type "
                f"{self.output.type}"
            )
        if isinstance(self.values, DenseResourceAttr):
            # a blob whose size does not fit the type; a missing blob is an error where the
            # value is used (MLIR accepts elided resources)
            from tosa_xdsl.ir.resources import dense_resource_problem

            if (problem := dense_resource_problem(self.values, missing_ok=True)) is not None:
                raise VerifyException(f"'{self.name}' op {problem}")


@tosa_op_definition
class IdentityOp(TosaOp):
    name = "tosa.identity"
    input1 = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE = (("input1", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


OPS = chapter_ops(globals())
