"""`tosa-to-linalg-named` for the spec 2.3 pooling operators:

  max_pool2d  [tensor.pad] + linalg.fill + linalg.pooling_nhwc_max; nan_mode = IGNORE:
              a linalg.generic whose body is apply_max_s with NaN skipping
  avg_pool2d  [tensor.pad 0] + linalg.fill 0 + linalg.pooling_nhwc_sum in acc_type + a
              linalg.generic that divides by the count of non-padding elements (floats:
              arith.divf; integers: the spec's reciprocal_scale + apply_scale_32 +
              output_zp + clip)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float8E4M3FNType, IntegerType, Signedness, UnrealizedConversionCastOp, i32
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import Rewriter

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects import linalg_ext as named
from tosa_xdsl.dialects.tosa.ops.tensor import AvgPool2DOp, MaxPool2DOp
from tosa_xdsl.ir.enums import NanModeAttr
from tosa_xdsl.lowering.linalg_build import (
    constant,
    dim,
    dims_of,
    dynamic_empty,
    element_type,
    empty,
    generic,
    identity,
    iterators,
    map_of,
    parallel,
    shape_of,
    tensor_type,
)
from tosa_xdsl.lowering.numerics_ir import (
    apply_clip_s,
    apply_scale_32,
    reciprocal_scale,
)
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg_named.common import (
    acc_type,
    fail,
    filled,
    i64_tensor,
    index_constants,
    int_array,
    is_float,
    is_unsigned,
    nhwc_output_sizes,
    padded,
    static_cast,
    zero_extended,
    zero_point,
)


def _pool_geometry(op) -> tuple[list[int], list[int], list[int]]:
    kernel, stride, pad = int_array(op, "kernel"), int_array(op, "stride"), int_array(op, "pad")
    if len(kernel) != 2 or len(stride) != 2 or len(pad) != 4 or min(pad) < 0 or min(kernel + stride) < 1:
        raise fail(op, f"kernel {kernel} / stride {stride} / pad {pad} are malformed")
    return kernel, stride, pad


def _lowest(t: Attribute) -> int | float:
    """minimum_s<t> (spec 4.x): the type's minimum integer, or -Inf (the most negative finite
    value for fp8e4m3, which has no infinity). Padding with it never wins a max."""
    if isinstance(t, IntegerType):
        return -(1 << (t.width.data - 1))
    return -448.0 if isinstance(t, Float8E4M3FNType) else float("-inf")


def lower_max_pool2d(op: MaxPool2DOp) -> None:
    """Spec 2.3.8 with apply_max_s (4.5.1) and its nan_mode."""
    kernel, stride, pad = _pool_geometry(op)
    t = element_type(op.input)
    mode = op.properties.get("nan_mode")
    ignore = is_float(t) and isinstance(mode, NanModeAttr) and str(mode.data) == "IGNORE"
    # spec 2.3.8: padded positions are skipped. PROPAGATE: padding with minimum_s never wins
    # (every window holds one input value, pad < kernel). IGNORE: NaN padding is skipped by
    # apply_max_s and the NaN seed stays only when the whole window is NaN.
    fill_value = float("nan") if ignore else _lowest(t)
    new_ops: list[Operation] = []
    src = op.input
    unsigned = isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED
    if unsigned:  # upstream's unsigned rows: the signless bits, maxui, padding 0 (upstream's
        # pooling_nhwc_max_unsigned)
        t, fill_value = IntegerType(t.width.data), 0
        new_ops.append(UnrealizedConversionCastOp.get([src], [tensor_type(t, dims_of(src))]))
        src = new_ops[-1].results[0]
    x = padded(src, [0, pad[0], pad[2], 0], [0, pad[1], pad[3], 0], fill_value, new_ops)
    out_shape = dims_of(op.output)
    # dynamic N/H/W: sized from the input's run-time dims (upstream's max_pool_dyn_*)
    init = filled(out_shape, t, fill_value, new_ops, nhwc_output_sizes(op, kernel, stride, pad, None, new_ops))
    window = empty(kernel, t)
    new_ops.append(window)
    if not ignore and not unsigned:
        pool = named.PoolingNhwcMaxOp([x, window.tensor], [init], [init.type],
                                      strides=i64_tensor(stride), dilations=i64_tensor([1, 1]))
        new_ops.append(pool)
        Rewriter.replace_op(op, new_ops, [pool.res[0]])
        return
    sy, sx = stride
    n_, oy, ox, c, ky, kx = (AffineDimExpr(i) for i in range(6))
    in_map = AffineMap(6, 0, (n_, oy * sy + ky, ox * sx + kx, c))

    def body(b: Builder, args: Sequence[SSAValue]) -> list[SSAValue]:
        v, _w, acc = args
        if unsigned:
            return [b.insert(arith.MaxUIOp(acc, v)).result]
        # apply_max_s(acc, v, IGNORE): a NaN operand yields the other one
        v_nan = b.insert(arith.CmpfOp(v, v, "uno")).result
        acc_nan = b.insert(arith.CmpfOp(acc, acc, "uno")).result
        m = b.insert(arith.MaximumfOp(acc, v)).result
        r = b.insert(arith.SelectOp(acc_nan, v, m)).result
        return [b.insert(arith.SelectOp(v_nan, acc, r)).result]

    gen = generic([x, window.tensor], [init], [in_map, map_of(6, [4, 5]), map_of(6, [0, 1, 2, 3])],
                  iterators("pppprr"), body)
    new_ops.append(gen)
    if unsigned:
        new_ops.append(UnrealizedConversionCastOp.get([gen.res[0]], [op.output.type]))
    Rewriter.replace_op(op, new_ops, [new_ops[-1].results[0]])


def _count_ops(b: Builder, kernel, stride, pad, in_hw) -> SSAValue:
    """The number of non-padding elements of the window at (oy, ox) (loop dims 1, 2), as an
    index: prod over y/x of min(o * s - pad_before + k, I) - max(o * s - pad_before, 0)."""
    c = index_constants(b)
    count: SSAValue | None = None
    for dim, k, s, p, size in ((1, kernel[0], stride[0], pad[0], in_hw[0]),
                               (2, kernel[1], stride[1], pad[2], in_hw[1])):
        o = b.insert(IndexOp(dim)).result
        start = b.insert(arith.MuliOp(o, c(s))).result
        if p:
            start = b.insert(arith.SubiOp(start, c(p))).result
        end = b.insert(arith.AddiOp(start, c(k))).result
        end = b.insert(arith.MinSIOp(end, size if isinstance(size, SSAValue) else c(size))).result
        start = b.insert(arith.MaxSIOp(start, c(0))).result
        extent = b.insert(arith.SubiOp(end, start)).result
        count = extent if count is None else b.insert(arith.MuliOp(count, extent)).result
    assert count is not None
    return count


def lower_avg_pool2d(op: AvgPool2DOp) -> None:
    """Spec 2.3.2: the sum over the valid positions, then per output element: floats
    acc / count in acc_t (count is exact there) and static_cast to in_out_t; integers
    apply_scale_32(acc, reciprocal_scale(count), double_round = false) + output_zp, clipped
    to in_out_t's range (bit-exact)."""
    kernel, stride, pad = _pool_geometry(op)
    in_t = element_type(op.input)
    acc_t = acc_type(op)
    izp = zero_point(op, op.input_zp, "input_zp")
    ozp = zero_point(op, op.output_zp, "output_zp")
    out_shape = dims_of(op.output)
    new_ops: list[Operation] = []
    # the window count clips at the input's H/W: its run-time size when dynamic
    ih, iw = (d if d >= 0 else dim(op.input, i + 1, new_ops) for i, d in enumerate(dims_of(op.input)[1:3]))
    src, unsigned = op.input, is_unsigned(op.input)
    if unsigned and not is_float(acc_t):
        # upstream's unsigned rows (zero points 0 by ERROR_IF): the zero-extended values,
        # the average clipped to the unsigned range and computed on signless bits
        src = zero_extended(src, acc_t, new_ops)
        in_t = IntegerType(in_t.width.data)
    # pad with 0 and subtract count * input_zp afterwards: only the valid positions count
    x = padded(src, [0, pad[0], pad[2], 0], [0, pad[1], pad[3], 0], 0, new_ops)
    init = filled(out_shape, acc_t, 0, new_ops, nhwc_output_sizes(op, kernel, stride, pad, None, new_ops))
    window = empty(kernel, acc_t)
    new_ops.append(window)
    pool = named.PoolingNhwcSumOp([x, window.tensor], [init], [init.type],
                                  strides=i64_tensor(stride), dilations=i64_tensor([1, 1]))
    new_ops.append(pool)
    if any(d < 0 for d in out_shape):  # upstream's avg_pool_dyn: the divide's init too,
        # sized afresh there (upstream's second tensor.dim)
        out_init_v = dynamic_empty(out_shape, in_t, nhwc_output_sizes(op, kernel, stride, pad, None, new_ops),
                                   new_ops)
    else:
        out_init = empty(out_shape, in_t)
        new_ops.append(out_init)
        out_init_v = out_init.tensor

    if is_float(in_t):
        def body(b: Builder, args: Sequence[SSAValue]) -> list[SSAValue]:
            count = _count_ops(b, kernel, stride, pad, (ih, iw))
            ci = b.insert(arith.IndexCastOp(count, i32)).result
            cf = b.insert(arith.SIToFPOp(ci, acc_t)).result
            # acc / count in acc_t (count is exact there), then static_cast to in_out_t
            q = b.insert(arith.DivfOp(args[0], cf)).result
            return [static_cast(b, q, in_t)]
    else:
        if acc_t != i32:
            raise fail(op, f"integer acc_type must be i32, got {acc_t}")
        lo, hi = (0, (1 << in_t.width.data) - 1) if unsigned else (nx.minimum_s(_tname(in_t)), nx.maximum_s(_tname(in_t)))
        if in_t.width.data not in (8, 16):
            # upstream's rows beyond the spec (i1/i4/i32/i48/i64/ui32): the type's full range
            # (i4: -8), as far as the i32 accumulator reaches (the interpreter's avg_pool2d)
            lo = 0 if unsigned else -(1 << (in_t.width.data - 1))
            lo, hi = max(lo, -(1 << 31)), min(hi, (1 << 31) - 1)

        def body(b: Builder, args: Sequence[SSAValue]) -> list[SSAValue]:
            count = _count_ops(b, kernel, stride, pad, (ih, iw))
            ci = b.insert(arith.IndexCastOp(count, i32)).result
            acc = args[0]
            if izp:
                # sum(x - zp) = sum(x) - count * zp (exact mod 2^32; the spec REQUIREs the
                # partial sums to fit)
                corr = b.insert(arith.MuliOp(ci, b.insert(constant(izp, i32)).result)).result
                acc = b.insert(arith.SubiOp(acc, corr)).result
            multiplier, shift = reciprocal_scale(b, ci)  # spec 4.5.5
            acc = apply_scale_32(b, acc, multiplier, shift, False)
            if ozp:
                acc = b.insert(arith.AddiOp(acc, b.insert(constant(ozp, i32)).result)).result
            acc = apply_clip_s(b, acc, lo, hi)
            return [static_cast(b, acc, in_t)]

    gen = generic([pool.res[0]], [out_init_v], [identity(4)] * 2, parallel(4), body)
    new_ops.append(gen)
    if unsigned:
        new_ops.append(UnrealizedConversionCastOp.get([gen.res[0]], [op.output.type]))
    Rewriter.replace_op(op, new_ops, [new_ops[-1].results[0]])


def _tname(t: Attribute) -> str:
    assert isinstance(t, IntegerType)
    return f"i{t.width.data}"


# Every dim of MAX_POOL2D's and AVG_POOL2D's input and output may be dynamic, as upstream's
# max_pool_dyn / avg_pool_dyn: the inits are sized by nhwc_output_sizes (N and C are the
# input's tensor.dim, H and W the spec's output-size rule on the input's tensor.dim values), the
# pad keeps dynamic dims, AVG_POOL2D's count clips at the input's run-time H/W
DYNAMIC: dict[type[Operation], DynamicDims] = {
    MaxPool2DOp: EVERY_DIM,
    AvgPool2DOp: DynamicDims("input and output (the zero points stay static)",
                             {("operand", 0): None, ("result", 0): None})}

LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {
    MaxPool2DOp: lower_max_pool2d,
    AvgPool2DOp: lower_avg_pool2d,
}
