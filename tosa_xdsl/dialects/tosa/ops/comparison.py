"""Spec 2.8 Comparison Operators: EQUAL, GREATER, GREATER_EQUAL."""

from __future__ import annotations

from xdsl.irdl import traits_def
from xdsl.traits import Commutative, Pure

from tosa_xdsl.dialects.tosa.ops.base import ComparisonOp, tosa_op_definition


@tosa_op_definition
class EqualOp(ComparisonOp):
    name = "tosa.equal"
    SPEC_NAME, SPEC_SECTION = "EQUAL", "2.8.1"
    traits = traits_def(Pure(), Commutative())


@tosa_op_definition
class GreaterOp(ComparisonOp):
    name = "tosa.greater"
    SPEC_NAME, SPEC_SECTION = "GREATER", "2.8.2"


@tosa_op_definition
class GreaterEqualOp(ComparisonOp):
    name = "tosa.greater_equal"
    SPEC_NAME, SPEC_SECTION = "GREATER_EQUAL", "2.8.3"


OPS = (EqualOp, GreaterOp, GreaterEqualOp)
