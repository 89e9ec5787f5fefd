"""Spec 2.13 Type Conversion: CAST, RESCALE."""

from __future__ import annotations

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import (
    TosaOp,
    chapter_ops,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.ir.enums import RoundingModeAttr
from tosa_xdsl.ir.types import AnyTensor


@tosa_op_definition
class CastOp(TosaOp):
    """`input_unsigned` is upstream's (post-1.0) optional flag; absent means signed."""

    name = "tosa.cast"
    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), CanonicalizationPatterns("CastSameType"))
    CLAUSES = (syntax.boolean("input_unsigned", optional=True),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input", "output"))


@tosa_op_definition
class RescaleOp(TosaOp):
    """multiplier/shift are tensors (per channel or [1]); zero points are tensor<1xT>."""

    name = "tosa.rescale"
    input = operand_def(AnyTensor)
    multiplier = operand_def(AnyTensor)
    shift = operand_def(AnyTensor)
    input_zp = operand_def(AnyTensor)
    output_zp = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), CanonicalizationPatterns("RescaleIdentity"))
    CLAUSES = (
        syntax.boolean("scale32"),
        syntax.enum_("rounding_mode", RoundingModeAttr),
        syntax.boolean("per_channel"),
        syntax.boolean("input_unsigned"),
        syntax.boolean("output_unsigned"),
    )
    SAME_ELEMENT_TYPE = (("input", "input_zp"), ("output", "output_zp"))

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input", "output"))


OPS = chapter_ops(globals())
