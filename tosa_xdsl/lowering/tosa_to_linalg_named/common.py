"""What the tosa-to-linalg-named operator modules (named_convolution, named_pooling,
named_matmul, named_transpose) share: the pass's diagnostic, reading array properties,
acc_type and compile-time zero points, the scalar static_cast of a body, and the tensor.pad /
linalg.fill / linalg.transpose scaffolding around the named ops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.dialects.linalg.ops import TransposeOp as LinalgTransposeOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.ir.access import is_float  # noqa: F401 -- shared by the per-op modules
from tosa_xdsl.lowering.linalg_build import (
    const_values,
    constant,
    dim,
    dims_of,
    dynamic_empty,
    element_type,
    empty,
    tensor_type,
    windowed_sizes,
)
from tosa_xdsl.lowering.preconditions import cannot_lower

PASS = "tosa-to-linalg-named"


fail = partial(cannot_lower, PASS)  # fail(op, reason) -> LocatedError "<PASS>: cannot lower '<op>': <reason>"


def int_array(op: Operation, name: str) -> list[int]:
    attr = op.properties.get(name)
    if not isinstance(attr, DenseArrayBase):
        raise fail(op, f"missing array attribute '{name}'")
    return [int(v) for v in attr.get_values()]


def i64_tensor(values: Sequence[int]) -> DenseIntOrFPElementsAttr:
    """strides/dilations of the linalg conv and pooling ops: dense<...> : tensor<Nxi64>."""
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(values)]), list(values))


def zero_point(op: Operation, value: SSAValue, what: str) -> int | float:
    """Element 0 of a zero-point operand, which must be a tosa.const (upstream's pass also
    fails on non-constant zero points: the _q variant is chosen at compile time)."""
    z = const_values(value)
    if z is None:
        raise fail(op, f"{what} must be a compile-time constant (tosa.const)")
    if z.size == 0:
        raise fail(op, f"{what} is empty")
    t = element_type(value)
    if is_float(t):
        zf = float(np.asarray(z[0]).astype(np.float64))
        if zf != 0.0:  # spec: zero points only for int8 (ERROR_IF otherwise)
            raise fail(op, f"{what} must be 0 for {t}, got {zf}")
        return 0.0
    return int(z[0])


def static_cast(b: Builder, v: SSAValue, to: Attribute) -> SSAValue:
    """static_cast between element types in a body: sign_extend for integers (TOSA integers
    are signed), round-to-nearest-even truncf, exact extf."""
    src = v.type
    if src == to:
        return v
    if isinstance(src, IntegerType) and isinstance(to, IntegerType):
        op = arith.ExtSIOp(v, to) if src.width.data < to.width.data else arith.TruncIOp(v, to)
    elif isinstance(src, AnyFloat) and isinstance(to, AnyFloat):
        op = arith.ExtFOp(v, to) if src.bitwidth < to.bitwidth else arith.TruncFOp(v, to)
    elif isinstance(src, IntegerType) and isinstance(to, AnyFloat):
        op = arith.SIToFPOp(v, to)
    else:
        raise AssertionError(f"no conversion {src} -> {to}")
    return b.insert(op).results[0]


def padded(x: SSAValue, low: Sequence[int], high: Sequence[int], value: int | float,
           new_ops: list[Operation]) -> SSAValue:
    """tensor.pad with a constant; no op when there is nothing to pad."""
    if not any(low) and not any(high):
        return x
    elem = element_type(x)
    shape = [s + lo + hi if s >= 0 else -1 for s, lo, hi in zip(dims_of(x), low, high)]
    c = constant(value, elem)
    block = Block(arg_types=[IndexType()] * len(shape))
    block.add_op(tensor.YieldOp(c.result))
    pad = tensor.PadOp(x, [], [], Region(block), list(low), list(high), tensor_type(elem, shape))
    new_ops += [c, pad]
    return pad.result


def filled(shape: Sequence[int], elem: Attribute, value: int | float, new_ops: list[Operation],
           source: SSAValue | Callable[[int], SSAValue] | None = None) -> SSAValue:
    """A `linalg.fill`ed tensor.empty; a dynamic dim of `shape` is `source`'s tensor.dim there
    (or `source(d)` when it is a sizer such as `nhwc_output_sizes`)."""
    if any(d < 0 for d in shape):
        assert source is not None, "a dynamic filled tensor needs the value that sizes it"
        size_of = source if callable(source) else lambda d: dim(source, d, new_ops)
        init_v = dynamic_empty(shape, elem, size_of, new_ops)
        c = constant(value, elem)
        f = FillOp([c.result], [init_v], [init_v.type])
        new_ops += [c, f]
        return f.res[0]
    init = empty(shape, elem)
    c = constant(value, elem)
    f = FillOp([c.result], [init.tensor], [init.tensor.type])
    new_ops += [init, c, f]
    return f.res[0]


def zp_operand(value: int, new_ops: list[Operation]) -> SSAValue:
    """A zero point as the scalar operand of a _q named op (i32, as upstream)."""
    c = constant(value, i32)
    new_ops.append(c)
    return c.result


def transposed(x: SSAValue, perm: Sequence[int], new_ops: list[Operation]) -> SSAValue:
    shape = dims_of(x)
    if any(d < 0 for d in shape):
        # a dynamic dim of the result is the source's dim perm[d] (upstream's tensor.dim)
        init_v = dynamic_empty([shape[p] for p in perm], element_type(x),
                               lambda d: dim(x, perm[d], new_ops), new_ops)
        t = LinalgTransposeOp(x, init_v, DenseArrayBase.from_list(i64, list(perm)), init_v.type)
        new_ops.append(t)
        return t.results[0]
    init = empty([shape[p] for p in perm], element_type(x))
    t = LinalgTransposeOp(x, init.tensor, DenseArrayBase.from_list(i64, list(perm)), init.tensor.type)
    new_ops += [init, t]
    return t.results[0]


def index_constants(b: Builder):
    """c(v): an index arith.constant, one per value per body."""
    cache: dict[int, SSAValue] = {}

    def c(v: int) -> SSAValue:
        if v not in cache:
            cache[v] = b.insert(arith.ConstantOp.from_int_and_width(v, IndexType())).result
        return cache[v]

    return c


def acc_type(op: Operation) -> Attribute:
    t = op.properties.get("acc_type")
    if t is None:
        raise fail(op, "missing acc_type")
    return t


def nhwc_output_sizes(op: Operation, kernel: Sequence, stride: Sequence[int], pad: Sequence[int],
                      dilation: Sequence[int] | None, new_ops: list[Operation],
                      channels: int | Callable[[], SSAValue] | None = None) -> Callable[[int], SSAValue]:
    """size_of(d) for a convolution's or pooling's output [N, spatial..., C] (len(kernel)
    spatial dims): the spec's output-size rule (shapes.conv_numerator with `dilation`, else
    shapes.pool_numerator; shapes.strided_size) on the input's run-time dims; the channel dim is
    `channels` (the weights' OC / C*M) when given, else the input's (pooling). A kernel size
    may be an IndexExpr (dynamic weights)."""

    def rule(i: int, size):
        if dilation is None:
            num = shapes.pool_numerator(size, kernel[i], pad[2 * i], pad[2 * i + 1])
        else:
            num = shapes.conv_numerator(size, kernel[i], pad[2 * i], pad[2 * i + 1], dilation[i])
        return shapes.strided_size(num, stride[i])

    return windowed_sizes(op.operands[0], len(kernel), rule, new_ops, channels)


def is_unsigned(v: SSAValue) -> bool:
    t = element_type(v)
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def zero_extended(v: SSAValue, to: IntegerType, new_ops: list[Operation]) -> SSAValue:
    """An unsigned tensor (upstream's rows, verification/producer_types.py) as `to` values:
    its signless bits (an unrealized cast, as upstream) zero-extended by a linalg.generic, so
    the named ops' signed casts see the unsigned values."""
    from xdsl.dialects.builtin import UnrealizedConversionCastOp

    from tosa_xdsl.lowering.linalg_build import elementwise

    dims = dims_of(v)
    cast = UnrealizedConversionCastOp.get([v], [tensor_type(IntegerType(element_type(v).width.data), dims)])
    new_ops.append(cast)
    if element_type(v).width.data >= to.width.data:
        # ui32 -> i32 (or wider -> narrower): the named op's cast keeps the low bits, which
        # are the same for the unsigned and the signless reading
        return cast.results[0]
    ops, res = elementwise([cast.results[0]], dims, to, lambda b, a: [b.insert(arith.ExtUIOp(a[0], to)).result])
    new_ops += ops
    return res
