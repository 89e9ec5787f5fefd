"""Spec 2.4 Activation Functions: CLAMP, ERF, SIGMOID, TANH."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import (
    TosaOp,
    chapter_ops,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.dialects.tosa.ops.tensor import NAN_MODE
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.ir.types import AnyTensor


class ActivationOp(TosaOp, ABC):
    """`input` -> `output` of the same type (activations name their operand `input`)."""

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE: ClassVar = (("input", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input", "output"))


@tosa_op_definition
class ClampOp(ActivationOp):
    name = "tosa.clamp"
    traits = traits_def(Pure(), CanonicalizationPatterns("ClampFullRangeInt", "ClampClamp"))
    # min_val/max_val are typed attributes of the element type: `0.0 : f32`, `-1 : i8`.
    CLAUSES = (syntax.attr("min_val"), syntax.attr("max_val"), NAN_MODE)


@tosa_op_definition
class ErfOp(ActivationOp):
    name = "tosa.erf"


@tosa_op_definition
class SigmoidOp(ActivationOp):
    name = "tosa.sigmoid"


@tosa_op_definition
class TanhOp(ActivationOp):
    name = "tosa.tanh"


OPS = chapter_ops(globals())
