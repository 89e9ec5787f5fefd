"""Spec 2.9 Reduction Operators: REDUCE_ALL/ANY/MAX/MIN/PRODUCT/SUM along `axis`."""

from __future__ import annotations

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import ReductionOp, tosa_op_definition
from tosa_xdsl.dialects.tosa.ops.tensor import NAN_MODE


@tosa_op_definition
class ReduceAllOp(ReductionOp):
    name = "tosa.reduce_all"
    SPEC_NAME, SPEC_SECTION = "REDUCE_ALL", "2.9.1"


@tosa_op_definition
class ReduceAnyOp(ReductionOp):
    name = "tosa.reduce_any"
    SPEC_NAME, SPEC_SECTION = "REDUCE_ANY", "2.9.2"


@tosa_op_definition
class ReduceMaxOp(ReductionOp):
    name = "tosa.reduce_max"
    SPEC_NAME, SPEC_SECTION = "REDUCE_MAX", "2.9.3"
    CLAUSES = (syntax.int32("axis"), NAN_MODE)


@tosa_op_definition
class ReduceMinOp(ReductionOp):
    name = "tosa.reduce_min"
    SPEC_NAME, SPEC_SECTION = "REDUCE_MIN", "2.9.4"
    CLAUSES = (syntax.int32("axis"), NAN_MODE)


@tosa_op_definition
class ReduceProductOp(ReductionOp):
    name = "tosa.reduce_product"
    SPEC_NAME, SPEC_SECTION = "REDUCE_PRODUCT", "2.9.5"


@tosa_op_definition
class ReduceSumOp(ReductionOp):
    name = "tosa.reduce_sum"
    SPEC_NAME, SPEC_SECTION = "REDUCE_SUM", "2.9.6"


OPS = (ReduceAllOp, ReduceAnyOp, ReduceMaxOp, ReduceMinOp, ReduceProductOp, ReduceSumOp)
