"""Spec 2.9 Reduction Operators: REDUCE_ALL/ANY/MAX/MIN/PRODUCT/SUM along `axis`."""

from __future__ import annotations

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import (
    ReductionOp,
    chapter_ops,
    tosa_op_definition,
)
from tosa_xdsl.dialects.tosa.ops.tensor import NAN_MODE


@tosa_op_definition
class ReduceAllOp(ReductionOp):
    name = "tosa.reduce_all"


@tosa_op_definition
class ReduceAnyOp(ReductionOp):
    name = "tosa.reduce_any"


@tosa_op_definition
class ReduceMaxOp(ReductionOp):
    name = "tosa.reduce_max"
    CLAUSES = (syntax.int32("axis"), NAN_MODE)


@tosa_op_definition
class ReduceMinOp(ReductionOp):
    name = "tosa.reduce_min"
    CLAUSES = (syntax.int32("axis"), NAN_MODE)


@tosa_op_definition
class ReduceProductOp(ReductionOp):
    name = "tosa.reduce_product"


@tosa_op_definition
class ReduceSumOp(ReductionOp):
    name = "tosa.reduce_sum"


OPS = chapter_ops(globals())
