"""What the tosa-to-linalg chapter modules (linalg_reduction, linalg_tensor,
linalg_type_conversion, linalg_table, linalg_scatter_gather, linalg_image, linalg_data_layout,
linalg_data_nodes) share: the pass's diagnostic, reading an op's properties and tosa.const_shape
operands, index arithmetic inside a linalg.generic body, and the filled-accumulator reduction
that both the 2.9 reductions and ARGMAX are built on. (linalg_elementwise.py keeps its own
helpers.)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float8E4M3FNType,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
)
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.ir.access import is_float, prop  # noqa: F401 -- shared by the chapter modules
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering.preconditions import cannot_lower

PASS = "tosa-to-linalg"


fail = partial(cannot_lower, PASS)  # fail(op, reason) -> LocatedError "<PASS>: cannot lower '<op>': <reason>"


def signless_int(op: Operation, t: Attribute, what: str) -> IntegerType:
    if not isinstance(t, IntegerType) or t.signedness.data != Signedness.SIGNLESS:
        raise fail(op, f"{what} must be a signless integer type, got {t}")
    return t


def shape_values(op: Operation, value: SSAValue, what: str) -> list[int]:
    owner = value.owner
    if not isinstance(owner, ConstShapeOp):
        raise fail(op, f"{what} must be a tosa.const_shape value")
    return owner.shape_values()


def index(b: Builder, dim: int) -> SSAValue:
    return b.insert(IndexOp(dim)).result


def cidx(b: Builder, v: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(v, IndexType()))).result


def to_index(b: Builder, v: SSAValue) -> SSAValue:
    return b.insert(arith.IndexCastOp(v, IndexType())).result


def clamped_index(b: Builder, v: SSAValue, last: int | SSAValue) -> SSAValue:
    """`v` (an integer read from the graph's data) as an index clamped to [0, last] (`last`:
    the dim's size - 1, a constant or an index value for a dynamic dim).
    A data-dependent address must never leave its buffer in native code: the spec makes an
    out-of-range index a REQUIRE (the result is unpredictable, the interpreter reports it),
    so any in-range element is an allowed answer, and a wild read is not
    (docs/robustness.md)."""
    k = to_index(b, v)
    k = b.insert(arith.MaxSIOp(k, cidx(b, 0))).result
    bound = last if isinstance(last, SSAValue) else cidx(b, max(last, 0))
    return b.insert(arith.MinSIOp(k, bound)).result


def float_extreme(t: Attribute, negative: bool) -> float:
    """-inf / +inf, or the largest finite value for fp8e4m3, which has no infinity (1.9)."""
    big = 448.0 if isinstance(t, Float8E4M3FNType) else float("inf")
    return -big if negative else big


def reduce_along(x: SSAValue, axis: int, out_elems: Sequence[Attribute], inits: Sequence[int | float],
                 body: lb.BodyFn) -> tuple[list[Operation], list[SSAValue]]:
    """Filled accumulators of x's shape without `axis` and a generic reducing over it."""
    shape = lb.dims_of(x)
    rank = len(shape)
    red_shape = [d for i, d in enumerate(shape) if i != axis]
    kept = [i for i in range(rank) if i != axis]
    ops: list[Operation] = []
    accs: list[SSAValue] = []
    for elem, init in zip(out_elems, inits):
        if any(d < 0 for d in red_shape):  # the accumulator's dynamic sizes are x's tensor.dim
            e_v = lb.dynamic_empty(red_shape, elem, lambda d: lb.dim(x, kept[d], ops), ops)
        else:
            e = lb.empty(red_shape, elem)
            ops.append(e)
            e_v = e.tensor
        c = lb.constant(init, elem)
        f = lb.fill(c.result, e_v)
        ops += [c, f]
        accs.append(f.res[0])
    out_map = lb.map_of(rank, [d for d in range(rank) if d != axis])
    kinds = "".join("r" if d == axis else "p" for d in range(rank))
    gen = lb.generic([x], accs, [lb.identity(rank)] + [out_map] * len(accs), lb.iterators(kinds), body)
    ops.append(gen)
    return ops, list(gen.res)
