"""affine.for / load / store / apply as xDSL's own constructors build them, through
`Operation.create` (compile time, issue 15).

xDSL's IRDL constructor (`irdl_op_init`) sorts every argument into operand groups, checks
each one's kind and derives `operandSegmentSizes` for every op it builds: ~35 µs per
affine.load against ~12 µs for `create` with the same operands, result types and properties.
The loop stage builds a few thousand of these ops for the example model
(convert-linalg-to-affine-loops, memref-copy-to-affine-loops). The ops are identical to the
constructors' (same operands, results, properties in the same order;
tests/codegen/test_compile_time.py compares them), so everything downstream is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, IndexType, IntegerAttr, i32
from xdsl.ir import Attribute, Block, Region, SSAValue


@lru_cache(maxsize=64)
def _step(step: int) -> IntegerAttr:
    return IntegerAttr.from_index_int_value(step)


@lru_cache(maxsize=64)
def _segments(lower: int, upper: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [lower, upper, 0])


def for_op(lower_operands: Sequence[SSAValue], upper_operands: Sequence[SSAValue], lower: AffineMapAttr,
           upper: AffineMapAttr, body: Block, step: int = 1) -> affine.ForOp:
    """`affine.ForOp.from_region(lower_operands, upper_operands, [], [], lower, upper,
    Region(body), step)`: a loop without iter_args."""
    return affine.ForOp.create(
        operands=[*lower_operands, *upper_operands],
        result_types=[],
        properties={"lowerBoundMap": lower, "upperBoundMap": upper, "step": _step(step),
                    "operandSegmentSizes": _segments(len(lower_operands), len(upper_operands))},
        regions=[Region(body)])


def load(memref: SSAValue, indices: Sequence[SSAValue], map_: AffineMapAttr) -> affine.LoadOp:
    """`affine.LoadOp(memref, indices, map_)`."""
    t = memref.type
    element: Attribute = t.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    return affine.LoadOp.create(operands=[memref, *indices], result_types=[element], properties={"map": map_})


def store(value: SSAValue, memref: SSAValue, indices: Sequence[SSAValue], map_: AffineMapAttr) -> affine.StoreOp:
    """`affine.StoreOp(value, memref, indices, map_)`."""
    return affine.StoreOp.create(operands=[value, memref, *indices], properties={"map": map_})


def apply(operands: Sequence[SSAValue], map_: AffineMapAttr) -> affine.ApplyOp:
    """`affine.ApplyOp(operands, map_)`."""
    return affine.ApplyOp.create(operands=list(operands), result_types=[IndexType()], properties={"map": map_})
