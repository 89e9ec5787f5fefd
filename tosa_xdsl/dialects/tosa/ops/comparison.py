"""Spec 2.8 Comparison Operators: EQUAL, GREATER, GREATER_EQUAL."""

from __future__ import annotations

from xdsl.irdl import traits_def
from xdsl.traits import Commutative, Pure

from tosa_xdsl.dialects.tosa.ops.base import (
    ComparisonOp,
    chapter_ops,
    tosa_op_definition,
)


@tosa_op_definition
class EqualOp(ComparisonOp):
    name = "tosa.equal"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class GreaterOp(ComparisonOp):
    name = "tosa.greater"


@tosa_op_definition
class GreaterEqualOp(ComparisonOp):
    name = "tosa.greater_equal"


OPS = chapter_ops(globals())
