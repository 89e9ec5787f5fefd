"""Small builders shared by the tosa-to-linalg(-named) patterns.

Every TOSA op that becomes a `linalg.generic` needs the same scaffolding: a `tensor.empty` (or
a filled one) for the result, indexing maps that broadcast size-1 dims, an iterator type per
loop, and a body block whose arguments are the operands' element types. These helpers build
that once, so each pattern only says what its body computes.

    out = empty(shape, f32)
    gen = generic([x, y], [out.tensor], [bmap(x), bmap(y), identity(rank)], parallel(rank),
                  lambda b, args: [b.insert(arith.AddfOp(args[0], args[1])).result])

`b` is an xDSL `Builder` positioned at the end of the body block; the callback returns the
values to `linalg.yield`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint

from tosa_xdsl.ir.access import element_type, static_shape  # noqa: F401 -- element_type shared

BodyFn = Callable[[Builder, Sequence[SSAValue]], Sequence[SSAValue]]


def shape_of(value: SSAValue) -> tuple[int, ...]:
    """The static shape of a tensor value the pass has already required to be static."""
    shape = static_shape(value)
    assert shape is not None, f"{value.type} is not a static tensor type"
    return shape


# ------------------------------------------------------------------ maps and iterators


def identity(rank: int) -> AffineMap:
    return AffineMap.identity(rank)


def map_of(n_dims: int, results: Sequence[AffineExpr | int]) -> AffineMap:
    """An affine map over `n_dims` loop dims; an int result is a dim position."""
    exprs = [AffineDimExpr(r) if isinstance(r, int) else r for r in results]
    return AffineMap(n_dims, 0, tuple(exprs))


def broadcast_map(operand_shape: Sequence[int], out_shape: Sequence[int]) -> AffineMap:
    """Equal ranks (TOSA broadcasting, after make-broadcastable): a size-1 operand dim that the
    result stretches reads index 0; every other dim is the loop dim itself."""
    rank = len(out_shape)
    assert len(operand_shape) == rank, (operand_shape, out_shape)
    exprs: list[AffineExpr] = []
    for d, (s, o) in enumerate(zip(operand_shape, out_shape)):
        exprs.append(AffineConstantExpr(0) if s == 1 and o != 1 else AffineDimExpr(d))
    return AffineMap(rank, 0, tuple(exprs))


def parallel(n: int) -> list[IteratorTypeAttr]:
    return [IteratorTypeAttr.parallel()] * n


def iterators(kinds: str) -> list[IteratorTypeAttr]:
    """'ppr' -> parallel, parallel, reduction."""
    return [IteratorTypeAttr.parallel() if k == "p" else IteratorTypeAttr.reduction() for k in kinds]


# ------------------------------------------------------------------ ops


def empty(shape: Sequence[int], elem: Attribute) -> tensor.EmptyOp:
    return tensor.EmptyOp([], TensorType(elem, list(shape)))


def scalar_attr(value: int | float, t: Attribute) -> Attribute:
    if isinstance(t, IntegerType | IndexType):
        if isinstance(t, IntegerType):
            w = t.width.data
            value = int(value) & ((1 << w) - 1)
            if w > 1 and value >= 1 << (w - 1):
                value -= 1 << w
            if w == 1:
                value = -value if value else 0  # i1 true is -1 as a signed value
        return IntegerAttr(int(value), t)
    assert isinstance(t, AnyFloat), t
    return FloatAttr(float(value), t)


def constant(value: int | float, t: Attribute) -> arith.ConstantOp:
    """A scalar arith.constant; ints wrap to the type's width (two's complement)."""
    return arith.ConstantOp(scalar_attr(value, t))


def fill(value: SSAValue, init: SSAValue) -> linalg.FillOp:
    return linalg.FillOp([value], [init], [init.type])


def generic(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    maps: Sequence[AffineMap],
    iterator_types: Sequence[IteratorTypeAttr],
    body: BodyFn,
) -> linalg.GenericOp:
    """A linalg.generic over `inputs`/`outputs` (tensors) whose body `body` builds."""
    arg_types = [element_type(v) for v in (*inputs, *outputs)]
    block = Block(arg_types=arg_types)
    b = Builder(InsertPoint.at_end(block))
    yielded = body(b, block.args)
    block.add_op(linalg.YieldOp(*yielded))
    return linalg.GenericOp(
        list(inputs),
        list(outputs),
        Region(block),
        [AffineMapAttr(m) for m in maps],
        list(iterator_types),
        [v.type for v in outputs],
    )


def elementwise(
    inputs: Sequence[SSAValue], out_shape: Sequence[int], out_elem: Attribute, body: BodyFn
) -> tuple[list[Operation], SSAValue]:
    """tensor.empty + a parallel linalg.generic with broadcasting input maps (the output block
    argument is passed to `body` last and is usually ignored)."""
    init = empty(out_shape, out_elem)
    rank = len(out_shape)
    maps = [broadcast_map(shape_of(v), out_shape) for v in inputs] + [identity(rank)]
    gen = generic(inputs, [init.tensor], maps, parallel(rank), body)
    return [init, gen], gen.res[0]


def const_values(value: SSAValue):
    """The elements (flat numpy array) of a tosa.const or dense arith.constant operand, or None
    when the value is only known at run time (zero points, shifts, multipliers...)."""
    import numpy as np
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
    from tosa_xdsl.ir import dense

    owner = value.owner
    if isinstance(owner, ConstOp):
        return np.asarray(dense.to_numpy(owner.values)).reshape(-1)
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        return np.asarray(dense.to_numpy(owner.value)).reshape(-1)
    return None

