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
from typing import Any

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
from xdsl.dialects.builtin import DYNAMIC_INDEX
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


def empty(shape: Sequence[int], elem: Attribute, dynamic_sizes: Sequence[SSAValue] = ()) -> tensor.EmptyOp:
    """`tensor.empty` of `shape`; `dynamic_sizes` gives one index value per dynamic (-1) dim."""
    return tensor.EmptyOp(list(dynamic_sizes), tensor_type(elem, shape))


def tensor_type(elem: Attribute, shape: Sequence[int]) -> TensorType:
    """A ranked tensor type; a dynamic dim (any negative size) is stored as MLIR's kDynamic
    (xDSL's DYNAMIC_INDEX), as the parser stores `?` (xDSL's verifiers compare with it)."""
    return TensorType(elem, [d if d >= 0 else DYNAMIC_INDEX for d in shape])


# ------------------------------------------------------------------ dynamic dims (EXT-DYNAMIC)


def dims_of(value: SSAValue) -> tuple[int, ...]:
    """The dims of a ranked tensor value, a dynamic one as DYNAMIC (-1)."""
    from tosa_xdsl.ir.access import shape_of as access_shape

    shape = access_shape(value)
    assert shape is not None, f"{value.type} is not a ranked tensor type"
    return shape


def is_dynamic(*values: SSAValue) -> bool:
    return any(d < 0 for v in values for d in dims_of(v))


def index_constant(v: int, ops: list[Operation]) -> SSAValue:
    c = arith.ConstantOp(IntegerAttr(v, IndexType()))
    ops.append(c)
    return c.result


def dim(value: SSAValue, d: int, ops: list[Operation]) -> SSAValue:
    """The run-time size of dim `d` of `value`: its constant when static, else `tensor.dim`
    (upstream's form: an index constant + tensor.dim)."""
    static = dims_of(value)[d]
    if static >= 0:
        return index_constant(static, ops)
    op = tensor.DimOp(value, index_constant(d, ops))
    ops.append(op)
    return op.result


def dynamic_empty(shape: Sequence[int], elem: Attribute, size_of, ops: list[Operation]) -> SSAValue:
    """`tensor.empty` of `shape` whose dynamic dims get `size_of(d)` (an index value built into
    `ops`); appended to `ops`."""
    sizes = [size_of(d) for d, s in enumerate(shape) if s < 0]
    e = empty(shape, elem, sizes)
    ops.append(e)
    return e.tensor


class IndexExpr:
    """An index SSA value whose +, -, * and // (by a positive int) append arith ops to `ops`:
    the output-size formulas of tosa/shapes.py, written for ints, then emit the same rule at
    run time from tensor.dim values (one source of truth for static and dynamic sizes)."""

    def __init__(self, value: SSAValue, ops: list[Operation]):
        self.value, self.ops = value, ops

    def _of(self, other: IndexExpr | int) -> SSAValue:
        return other.value if isinstance(other, IndexExpr) else index_constant(other, self.ops)

    def _emit(self, cls, lhs: SSAValue, rhs: SSAValue) -> IndexExpr:
        op = cls(lhs, rhs)
        self.ops.append(op)
        return IndexExpr(op.result, self.ops)

    def __add__(self, other):
        return self if isinstance(other, int) and other == 0 else self._emit(arith.AddiOp, self.value, self._of(other))

    def __sub__(self, other):
        return self if isinstance(other, int) and other == 0 else self._emit(arith.SubiOp, self.value, self._of(other))

    def __mul__(self, other):
        return self if isinstance(other, int) and other == 1 else self._emit(arith.MuliOp, self.value, self._of(other))

    # an int on the left (a static input size against a dynamic kernel size)
    def __radd__(self, other: int):
        return self + other

    def __rmul__(self, other: int):
        return self * other

    def __rsub__(self, other: int):
        return self._emit(arith.SubiOp, index_constant(other, self.ops), self.value)

    def __floordiv__(self, other: int):
        if other == 1:
            return self
        # signed division is floor division here: the shapes that reach native code passed
        # infer-shapes + verify (numerators >= 0), see NativeModule
        return self._emit(arith.DivSIOp, self.value, self._of(other))


def windowed_sizes(x: SSAValue, spatial: int, rule: Callable[[int, Any], Any], ops: list[Operation],
                   channels: int | Callable[[], SSAValue] | None = None) -> Callable[[int], SSAValue]:
    """size_of(d) for the output [N, spatial dims..., C] of a windowed op (convolutions, pools,
    RESIZE) reading `x` laid out the same way: N is x's dim 0; spatial dim d is
    `rule(d - 1, size)` on x's dim d (on its int when static, on an IndexExpr of its
    tensor.dim otherwise: the shapes.py formula runs on index values); C is `channels` (a
    static size, e.g. the weights' OC, or a builder of the value for dynamic weights) when
    given, else x's. A rule may give an IndexExpr for a static x (a dynamic kernel size). Each
    size is built once."""
    cache: dict[int, SSAValue] = {}
    last = spatial + 1

    def size_of(d: int) -> SSAValue:
        if d in cache:
            return cache[d]
        if 1 <= d <= spatial:
            size = dims_of(x)[d]
            out = rule(d - 1, size if size >= 0 else IndexExpr(dim(x, d, ops), ops))
            cache[d] = out.value if isinstance(out, IndexExpr) else index_constant(out, ops)
        elif d == last and channels is not None:
            cache[d] = index_constant(channels, ops) if isinstance(channels, int) else channels()
        else:
            cache[d] = dim(x, d, ops)
        return cache[d]

    return size_of


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
    if any(d < 0 for d in out_shape) or is_dynamic(*inputs):
        ops: list[Operation] = []
        return ops, dynamic_elementwise(inputs, (), out_shape, out_elem, body, ops)
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



def dynamic_elementwise(
    inputs: Sequence[SSAValue],
    scalars: Sequence[SSAValue],
    out_shape: Sequence[int],
    out_elem: Attribute,
    body: BodyFn,
    ops: list[Operation],
) -> SSAValue:
    """The broadcasting parallel generic of `elementwise` when some dims are dynamic.

    Each dynamic result dim gets its run-time size as upstream's TosaToLinalg computes it: a
    static non-1 operand size if there is one, the `tensor.dim` of the only dynamic operand,
    or `arith.maxui` of the dynamic operands' dims (TOSA broadcasting: equal or 1). A dynamic
    operand dim that is not the result's size by construction may be 1 at run time and then
    broadcasts; upstream materialises such an operand with an `scf.if` + broadcast generic,
    we read it inside the one generic with `tensor.extract` at `minui(index, dim - 1)` (0
    when the dim is 1: the same values, no copy, never a read outside the operand even for
    run-time shapes that break the ERROR_IF). Every other operand goes through its indexing map as in the static case.

    `body(b, elems)` gets the input elements, then the scalar (`tensor<1xT>`, read at index 0)
    elements, then the output element; it returns the values to yield."""
    rank = len(out_shape)
    shapes = [dims_of(v) for v in inputs]
    sizes: dict[int, SSAValue] = {}
    ambiguous: list[list[int]] = [[] for _ in inputs]
    for d in range(rank):
        col = [s[d] for s in shapes]
        dyn = [i for i, s in enumerate(col) if s < 0]
        big = [s for s in col if s > 1]
        target = out_shape[d] if out_shape[d] >= 0 else (big[0] if big else None)
        if target is not None:
            if target != 1:
                for i in dyn:
                    ambiguous[i].append(d)
            if out_shape[d] < 0:
                sizes[d] = index_constant(target, ops)
        elif not dyn:
            sizes[d] = index_constant(1, ops)
        elif len(dyn) == 1:
            sizes[d] = dim(inputs[dyn[0]], d, ops)
        else:
            size = dim(inputs[dyn[0]], d, ops)
            for i in dyn[1:]:
                m = arith.MaxUIOp(size, dim(inputs[i], d, ops))
                ops.append(m)
                size = m.result
            sizes[d] = size
            for i in dyn:
                ambiguous[i].append(d)
    init = dynamic_empty(out_shape, out_elem, lambda d: sizes[d], ops)
    # operands read through tensor.extract at min(index, dim - 1): 0 when the dim is 1 (the
    # broadcast), the index itself when it is the result's size; never outside the operand,
    # even for run-time shapes that break the ERROR_IF (native code must not read wild)
    last: dict[tuple[int, int], SSAValue] = {}
    for i, dims in enumerate(ambiguous):
        for d in dims:
            c = arith.SubiOp(dim(inputs[i], d, ops), index_constant(1, ops))
            ops.append(c)
            last[(i, d)] = c.result
    direct = [i for i in range(len(inputs)) if not ambiguous[i]]
    maps = [broadcast_map(shapes[i], out_shape) for i in direct]
    maps += [map_of(rank, [AffineConstantExpr(0)]) for _ in scalars] + [identity(rank)]
    gen_inputs = [inputs[i] for i in direct] + list(scalars)

    def wrapped(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        from xdsl.dialects.linalg.ops import IndexOp

        elems: list[SSAValue | None] = [None] * len(inputs)
        for k, i in enumerate(direct):
            elems[i] = args[k]
        zero = None
        for i in range(len(inputs)):
            if elems[i] is not None:
                continue
            if zero is None:
                zero = b.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).result
            idx: list[SSAValue] = []
            for d in range(rank):
                if shapes[i][d] == 1 and out_shape[d] != 1:
                    idx.append(zero)
                    continue
                here = b.insert(IndexOp(d)).result
                if (i, d) in last:
                    here = b.insert(arith.MinUIOp(here, last[(i, d)])).result
                idx.append(here)
            elems[i] = b.insert(tensor.ExtractOp(inputs[i], idx, element_type(inputs[i]))).result
        rest = list(args[len(direct):])
        return body(b, [*elems, *rest])

    gen = generic(gen_inputs, [init], maps, parallel(rank), wrapped)
    ops.append(gen)
    return gen.res[0]
