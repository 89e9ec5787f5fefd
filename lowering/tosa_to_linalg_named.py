"""`tosa-to-linalg-named`: the TOSA tensor operators (spec 2.3) and TRANSPOSE (2.10.7) -> linalg
named ops on tensors, as upstream MLIR's pass of the same name, for every row of each
operator's Supported Data Types table.

  conv2d            [tensor.pad (input_zp)] + bias broadcast into an acc_type init
                    (linalg.generic, arith.extsi/extf) + linalg.conv_2d_nhwc_fhwc(_q)
                    (option prefer-conv2d-kernel-layout-hwcf: linalg.transpose of the weights to
                    HWCF + linalg.conv_2d_nhwc_hwcf(_q)) [+ acc -> output conversion]
  conv3d            as conv2d, weights transposed to DHWCF + linalg.conv_3d_ndhwc_dhwcf(_q)
  depthwise_conv2d  [tensor.pad] + linalg.fill 0 + linalg.depthwise_conv_2d_nhwc_hwcm(_q)
                    [+ conversion] + tensor.collapse_shape + bias add (linalg.generic)
  transpose_conv2d  one linalg.generic (loops n, oy, ox, oc, ky, kx, ic) reading the input with
                    tensor.extract; taps that fall between input rows/columns leave the
                    accumulator untouched (upstream decomposes the op first instead)
  matmul            linalg.fill 0 + linalg.batch_matmul / linalg.quantized_batch_matmul
  max_pool2d        [tensor.pad] + linalg.fill + linalg.pooling_nhwc_max; nan_mode = IGNORE:
                    a linalg.generic whose body is apply_max_s with NaN skipping
  avg_pool2d        [tensor.pad 0] + linalg.fill 0 + linalg.pooling_nhwc_sum in acc_type + a
                    linalg.generic that divides by the count of non-padding elements (floats:
                    arith.divf; integers: the spec's reciprocal_scale + apply_scale_32 +
                    output_zp + clip)
  transpose         tensor.empty + linalg.transpose

Zero points must be tosa.const values (they select the _q variants and become arith.constant
scalars); shapes must be static. Anything else stops the pass with a located diagnostic naming
the op, never a traceback and never a TOSA op silently left behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float8E4M3FNType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import (
    Conv2DNhwc_FhwcOp,
    Conv2DNhwc_HwcfOp,
    FillOp,
    IndexOp,
    TransposeOp as LinalgTransposeOp,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.irdl import IRDLOperation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl import numerics as nx
from tosa_xdsl.dense import to_numpy
from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.ir.enums import NanModeAttr
from tosa_xdsl.lowering import linalg_ops as named
from tosa_xdsl.lowering.linalg_build import (
    constant,
    empty,
    generic,
    identity,
    iterators,
    map_of,
    parallel,
)
from tosa_xdsl.lowering.numerics_ir import apply_clip_s, apply_scale_32, reciprocal_scale
from tosa_xdsl.lowering.static_shapes import require_static
from tosa_xdsl.ops.data_layout import TransposeOp
from tosa_xdsl.ops.data_nodes import ConstOp
from tosa_xdsl.ops.tensor import (
    AvgPool2DOp,
    Conv2DOp,
    Conv3DOp,
    DepthwiseConv2DOp,
    MatMulOp,
    MaxPool2DOp,
    TransposeConv2DOp,
)

PASS = "tosa-to-linalg-named"


def fail(op: Operation, message: str) -> LocatedError:
    return LocatedError(op, f"{PASS}: cannot lower '{op.name}': {message}")


# ------------------------------------------------------------------ small helpers


def _shape(v: SSAValue) -> tuple[int, ...]:
    return tuple(int(d) for d in v.type.get_shape())  # type: ignore[attr-defined]


def _elem(v: SSAValue) -> Attribute:
    return v.type.element_type  # type: ignore[attr-defined]


def _is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def _ints(op: Operation, name: str) -> list[int]:
    attr = op.properties.get(name)
    if not isinstance(attr, DenseArrayBase):
        raise fail(op, f"missing array attribute '{name}'")
    return [int(v) for v in attr.get_values()]


def _i64_tensor(values: Sequence[int]) -> DenseIntOrFPElementsAttr:
    """strides/dilations of the linalg conv and pooling ops: dense<...> : tensor<Nxi64>."""
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(values)]), list(values))


def _zero_point(op: Operation, value: SSAValue, what: str) -> int | float:
    """Element 0 of a zero-point operand, which must be a tosa.const (upstream's pass also
    fails on non-constant zero points: the _q variant is chosen at compile time)."""
    owner = value.owner
    if not isinstance(owner, ConstOp):
        raise fail(op, f"{what} must be a compile-time constant (tosa.const)")
    z = np.asarray(to_numpy(owner.values)).reshape(-1)
    if z.size == 0:
        raise fail(op, f"{what} is empty")
    t = _elem(value)
    if _is_float(t):
        zf = float(np.asarray(z[0]).astype(np.float64))
        if zf != 0.0:  # spec: zero points only for int8 (ERROR_IF otherwise)
            raise fail(op, f"{what} must be 0 for {t}, got {zf}")
        return 0.0
    return int(z[0])


def _convert(b: Builder, v: SSAValue, to: Attribute) -> SSAValue:
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


def _convert_tensor(v: SSAValue, to: Attribute, new_ops: list[Operation]) -> SSAValue:
    """An elementwise linalg.generic converting `v` to element type `to` (upstream: tosa.cast,
    which tosa-to-linalg then turns into the same generic)."""
    if _elem(v) == to:
        return v
    shape = _shape(v)
    init = empty(shape, to)
    gen = generic([v], [init.tensor], [identity(len(shape))] * 2, parallel(len(shape)),
                  lambda b, args: [_convert(b, args[0], to)])
    new_ops += [init, gen]
    return gen.res[0]


def _pad(x: SSAValue, low: Sequence[int], high: Sequence[int], value: int | float,
         new_ops: list[Operation]) -> SSAValue:
    """tensor.pad with a constant; no op when there is nothing to pad."""
    if not any(low) and not any(high):
        return x
    elem = _elem(x)
    shape = [s + lo + hi for s, lo, hi in zip(_shape(x), low, high)]
    c = constant(value, elem)
    block = Block(arg_types=[IndexType()] * len(shape))
    block.add_op(tensor.YieldOp(c.result))
    pad = tensor.PadOp(x, [], [], Region(block), list(low), list(high), TensorType(elem, shape))
    new_ops += [c, pad]
    return pad.result


def _fill(shape: Sequence[int], elem: Attribute, value: int | float, new_ops: list[Operation]) -> SSAValue:
    init = empty(shape, elem)
    c = constant(value, elem)
    f = FillOp([c.result], [init.tensor], [init.tensor.type])
    new_ops += [init, c, f]
    return f.res[0]


def _bias_init(bias: SSAValue, out_shape: Sequence[int], acc_t: Attribute, new_ops: list[Operation]) -> SSAValue:
    """bias [BC] (BC = OC or 1) broadcast along the last dim of an acc_t tensor (converted)."""
    rank = len(out_shape)
    init = empty(out_shape, acc_t)
    bmap = map_of(rank, [AffineConstantExpr(0) if _shape(bias)[0] == 1 and out_shape[-1] != 1 else rank - 1])
    gen = generic([bias], [init.tensor], [bmap, identity(rank)], parallel(rank),
                  lambda b, args: [_convert(b, args[0], acc_t)])
    new_ops += [init, gen]
    return gen.res[0]


def _zp_const(value: int, new_ops: list[Operation]) -> SSAValue:
    """A zero point as the scalar operand of a _q named op (i32, as upstream)."""
    c = constant(value, i32)
    new_ops.append(c)
    return c.result


def _transpose(x: SSAValue, perm: Sequence[int], new_ops: list[Operation]) -> SSAValue:
    shape = _shape(x)
    init = empty([shape[p] for p in perm], _elem(x))
    t = LinalgTransposeOp(x, init.tensor, DenseArrayBase.from_list(i64, list(perm)), init.tensor.type)
    new_ops += [init, t]
    return t.results[0]


def _index_constants(b: Builder):
    """c(v): an index arith.constant, one per value per body."""
    cache: dict[int, SSAValue] = {}

    def c(v: int) -> SSAValue:
        if v not in cache:
            cache[v] = b.insert(arith.ConstantOp.from_int_and_width(v, IndexType())).result
        return cache[v]

    return c


def _acc_type(op: Operation) -> Attribute:
    t = op.properties.get("acc_type")
    if t is None:
        raise fail(op, "missing acc_type")
    return t


# ------------------------------------------------------------------ convolutions


@dataclass(frozen=True)
class _ConvParts:
    x: SSAValue
    izp: int | float
    wzp: int | float
    acc_t: Attribute
    out_t: Attribute

    @property
    def quantized(self) -> bool:
        return self.izp != 0 or self.wzp != 0


def _conv_common(op, nd: int, new_ops: list[Operation]) -> _ConvParts:
    izp = _zero_point(op, op.input_zp, "input_zp")
    wzp = _zero_point(op, op.weight_zp, "weight_zp")
    pad = _ints(op, "pad")
    if len(pad) != 2 * nd or min(pad) < 0:
        raise fail(op, f"pad {pad} must be {2 * nd} non-negative values")
    # padded positions hold input_zp: (input_zp - input_zp) * w = 0 adds nothing, as the spec
    # skips them
    x = _pad(op.input, [0, *pad[0::2], 0], [0, *pad[1::2], 0], izp, new_ops)
    return _ConvParts(x, izp, wzp, _acc_type(op), _elem(op.output))


def _conv_named(cls_plain, cls_q, parts: _ConvParts, w: SSAValue, init: SSAValue, stride, dilation,
                new_ops: list[Operation]) -> SSAValue:
    ins = [parts.x, w]
    cls = cls_plain
    if parts.quantized:
        ins += [_zp_const(int(parts.izp), new_ops), _zp_const(int(parts.wzp), new_ops)]
        cls = cls_q
    conv = _build_named(cls, ins, init, {"strides": _i64_tensor(stride), "dilations": _i64_tensor(dilation)},
                        parts.quantized)
    new_ops.append(conv)
    return conv.res[0]


def _build_named(cls, ins: Sequence[SSAValue], init: SSAValue, properties: dict[str, Attribute],
                 quantized: bool):
    """A conv named op with OpDSL's hidden region built for mixed element types: xDSL's own
    conv_2d_nhwc_fhwc/hwcf builder only handles integer widening (f16 -> f32 asserts)."""
    region = named._mac_region(NamedOperation.body_arg_types((*ins, init)), quantized)
    op = cls.__new__(cls)
    IRDLOperation.__init__(op, operands=[list(ins), [init]], result_types=[[init.type]],
                           properties=properties, regions=[region])
    return op


def lower_conv2d(op: Conv2DOp, hwcf: bool = False) -> None:
    """Spec 2.3.3. The bias seeds the accumulator (upstream's form): for integers the sum is
    the spec's exactly (two's complement, the REQUIREs keep every partial sum in acc_t); for
    floats the bias is added first in acc_t instead of last in out_t, within the dot-product
    rule (1.10.3, which counts the bias as one more term)."""
    new_ops: list[Operation] = []
    parts = _conv_common(op, 2, new_ops)
    out_shape = _shape(op.output)
    init = _bias_init(op.bias, out_shape, parts.acc_t, new_ops)
    w: SSAValue = op.weight
    if hwcf:
        w = _transpose(w, [1, 2, 3, 0], new_ops)
        classes = (Conv2DNhwc_HwcfOp, named.Conv2DNhwcHwcfQOp)
    else:
        classes = (Conv2DNhwc_FhwcOp, named.Conv2DNhwcFhwcQOp)
    acc = _conv_named(*classes, parts, w, init, _ints(op, "stride"), _ints(op, "dilation"), new_ops)
    out = _convert_tensor(acc, parts.out_t, new_ops)
    Rewriter.replace_op(op, new_ops, [out])


def lower_conv3d(op: Conv3DOp) -> None:
    """Spec 2.3.4, as conv2d; linalg has only the DHWCF weight layout, hence the transpose."""
    new_ops: list[Operation] = []
    parts = _conv_common(op, 3, new_ops)
    init = _bias_init(op.bias, _shape(op.output), parts.acc_t, new_ops)
    w = _transpose(op.weight, [1, 2, 3, 4, 0], new_ops)  # OC,KD,KH,KW,IC -> KD,KH,KW,IC,OC
    acc = _conv_named(named.Conv3DNdhwcDhwcfOp, named.Conv3DNdhwcDhwcfQOp, parts, w, init,
                      _ints(op, "stride"), _ints(op, "dilation"), new_ops)
    out = _convert_tensor(acc, parts.out_t, new_ops)
    Rewriter.replace_op(op, new_ops, [out])


def lower_depthwise_conv2d(op: DepthwiseConv2DOp) -> None:
    """Spec 2.3.5 order: acc from 0, static_cast<out_t>(acc), then apply_add_s(out, bias)."""
    new_ops: list[Operation] = []
    parts = _conv_common(op, 2, new_ops)
    n, oh, ow, ocm = _shape(op.output)
    kh, kw, c, m = _shape(op.weight)
    if c * m != ocm:
        raise fail(op, f"output channels {ocm} != C * M = {c * m}")
    acc_init = _fill([n, oh, ow, c, m], parts.acc_t, 0, new_ops)
    acc = _conv_named(named.DepthwiseConv2DNhwcHwcmOp, named.DepthwiseConv2DNhwcHwcmQOp, parts,
                      op.weight, acc_init, _ints(op, "stride"), _ints(op, "dilation"), new_ops)
    acc = _convert_tensor(acc, parts.out_t, new_ops)
    collapse = tensor.CollapseShapeOp(
        operands=[acc], result_types=[TensorType(parts.out_t, [n, oh, ow, ocm])],
        properties={"reassociation": _reassoc([[0], [1], [2], [3, 4]])})
    new_ops.append(collapse)
    bias = op.bias
    out_init = empty([n, oh, ow, ocm], parts.out_t)
    bmap = map_of(4, [AffineConstantExpr(0) if _shape(bias)[0] == 1 and ocm != 1 else 3])
    add = arith.AddfOp if _is_float(parts.out_t) else arith.AddiOp
    gen = generic([collapse.result, bias], [out_init.tensor], [identity(4), bmap, identity(4)], parallel(4),
                  lambda b, args: [b.insert(add(args[0], args[1])).result])
    new_ops += [out_init, gen]
    Rewriter.replace_op(op, new_ops, [gen.res[0]])


def _reassoc(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def lower_transpose_conv2d(op: TransposeConv2DOp) -> None:
    """Spec 2.3.10 directly: out[n, oy, ox, oc] = bias + sum over (ky, kx, ic) of
    (x[n, iy, ix, ic] - input_zp) * (w[oc, ky, kx, ic] - weight_zp) where
    oy = iy * stride_y + out_pad_top + ky (same for x). Each output reads the input at
    iy = (oy - out_pad_top - ky) / stride_y, valid when that is an exact in-range quotient;
    invalid taps yield the accumulator unchanged (select), so no 0 * Inf = NaN appears that
    the spec would not produce, and integer results are exact."""
    new_ops: list[Operation] = []
    izp = _zero_point(op, op.input_zp, "input_zp")
    wzp = _zero_point(op, op.weight_zp, "weight_zp")
    acc_t, out_t = _acc_type(op), _elem(op.output)
    out_pad = _ints(op, "out_pad")
    stride = _ints(op, "stride")
    if len(out_pad) != 4 or len(stride) != 2 or min(stride) < 1:
        raise fail(op, f"out_pad {out_pad} / stride {stride} are malformed")
    n, ih, iw, ic = _shape(op.input)
    oc, kh, kw, _ = _shape(op.weight)
    out_shape = _shape(op.output)
    x = op.input
    in_t = _elem(op.input)
    init = _bias_init(op.bias, out_shape, acc_t, new_ops)
    is_f = _is_float(acc_t)

    def body(b: Builder, args: Sequence[SSAValue]) -> list[SSAValue]:
        w, acc = args
        c = _index_constants(b)

        d = [b.insert(IndexOp(k)).result for k in range(7)]  # n, oy, ox, oc, ky, kx, ic
        valid: SSAValue | None = None
        coords: list[SSAValue] = []
        for o, k, pad_before, s, size in ((d[1], d[4], out_pad[0], stride[0], ih),
                                          (d[2], d[5], out_pad[2], stride[1], iw)):
            t = b.insert(arith.SubiOp(o, k)).result
            if pad_before:
                t = b.insert(arith.SubiOp(t, c(pad_before))).result
            conds = [b.insert(arith.CmpiOp(t, c(0), "sge")).result]
            q = t
            if s != 1:
                r = b.insert(arith.RemSIOp(t, c(s))).result
                conds.append(b.insert(arith.CmpiOp(r, c(0), "eq")).result)
                q = b.insert(arith.DivSIOp(t, c(s))).result
            conds.append(b.insert(arith.CmpiOp(q, c(size), "slt")).result)
            # clamp so the read is in bounds even when the tap is invalid
            q = b.insert(arith.MaxSIOp(q, c(0))).result
            q = b.insert(arith.MinSIOp(q, c(size - 1))).result
            coords.append(q)
            for cond in conds:
                valid = cond if valid is None else b.insert(arith.AndIOp(valid, cond)).result
        xv = b.insert(tensor.ExtractOp(x, [d[0], coords[0], coords[1], d[6]], in_t)).result
        xa = _convert(b, xv, acc_t)
        wa = _convert(b, w, acc_t)
        sub, mul, add = ((arith.SubfOp, arith.MulfOp, arith.AddfOp) if is_f
                         else (arith.SubiOp, arith.MuliOp, arith.AddiOp))
        if izp:
            xa = b.insert(sub(xa, b.insert(constant(izp, acc_t)).result)).result
        if wzp:
            wa = b.insert(sub(wa, b.insert(constant(wzp, acc_t)).result)).result
        s = b.insert(add(acc, b.insert(mul(xa, wa)).result)).result
        assert valid is not None
        return [b.insert(arith.SelectOp(valid, s, acc)).result]

    wmap = map_of(7, [3, 4, 5, 6])
    omap = map_of(7, [0, 1, 2, 3])
    gen = generic([op.weight], [init], [wmap, omap], iterators("pppprrr"), body)
    new_ops.append(gen)
    out = _convert_tensor(gen.res[0], out_t, new_ops)
    Rewriter.replace_op(op, new_ops, [out])


# ------------------------------------------------------------------ matmul, transpose


def lower_matmul(op: MatMulOp) -> None:
    """Spec 2.3.7: acc_t is the output type (i32, i48, fp16, fp32); inputs are cast to it
    (extsi/extf) inside the named op, zero points subtracted there too."""
    new_ops: list[Operation] = []
    azp = _zero_point(op, op.a_zp, "a_zp")
    bzp = _zero_point(op, op.b_zp, "b_zp")
    out_t = _elem(op.output)
    init = _fill(_shape(op.output), out_t, 0, new_ops)
    ins = [op.a, op.b]
    cls: type[named.BatchMatmulOp] | type[named.QuantizedBatchMatmulOp] = named.BatchMatmulOp
    if azp != 0 or bzp != 0:
        ins += [_zp_const(int(azp), new_ops), _zp_const(int(bzp), new_ops)]
        cls = named.QuantizedBatchMatmulOp
    mm = cls(ins, [init], [init.type], hidden_region=cls.get_hidden_region(ins, [init]))
    new_ops.append(mm)
    Rewriter.replace_op(op, new_ops, [mm.res[0]])


def lower_transpose(op: TransposeOp) -> None:
    """Spec 2.10.7: output[index] = input1[perms applied to index] = linalg.transpose."""
    perms = _ints(op, "perms")
    rank = len(_shape(op.input1))
    if sorted(perms) != list(range(rank)):
        raise fail(op, f"perms {perms} is not a permutation of rank {rank}")
    new_ops: list[Operation] = []
    out = _transpose(op.input1, perms, new_ops)
    Rewriter.replace_op(op, new_ops, [out])


# ------------------------------------------------------------------ pooling


def _pool_geometry(op) -> tuple[list[int], list[int], list[int]]:
    kernel, stride, pad = _ints(op, "kernel"), _ints(op, "stride"), _ints(op, "pad")
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
    t = _elem(op.input)
    mode = op.properties.get("nan_mode")
    ignore = _is_float(t) and isinstance(mode, NanModeAttr) and str(mode.data) == "IGNORE"
    # spec 2.3.8: padded positions are skipped. PROPAGATE: padding with minimum_s never wins
    # (every window holds one input value, pad < kernel). IGNORE: NaN padding is skipped by
    # apply_max_s and the NaN seed stays only when the whole window is NaN.
    fill_value = float("nan") if ignore else _lowest(t)
    new_ops: list[Operation] = []
    x = _pad(op.input, [0, pad[0], pad[2], 0], [0, pad[1], pad[3], 0], fill_value, new_ops)
    out_shape = _shape(op.output)
    init = _fill(out_shape, t, fill_value, new_ops)
    window = empty(kernel, t)
    new_ops.append(window)
    if not ignore:
        pool = named.PoolingNhwcMaxOp([x, window.tensor], [init], [init.type],
                                      strides=_i64_tensor(stride), dilations=_i64_tensor([1, 1]))
        new_ops.append(pool)
        Rewriter.replace_op(op, new_ops, [pool.res[0]])
        return
    sy, sx = stride
    n_, oy, ox, c, ky, kx = (AffineDimExpr(i) for i in range(6))
    in_map = AffineMap(6, 0, (n_, oy * sy + ky, ox * sx + kx, c))

    def body(b: Builder, args: Sequence[SSAValue]) -> list[SSAValue]:
        v, _w, acc = args
        # apply_max_s(acc, v, IGNORE): a NaN operand yields the other one
        v_nan = b.insert(arith.CmpfOp(v, v, "uno")).result
        acc_nan = b.insert(arith.CmpfOp(acc, acc, "uno")).result
        m = b.insert(arith.MaximumfOp(acc, v)).result
        r = b.insert(arith.SelectOp(acc_nan, v, m)).result
        return [b.insert(arith.SelectOp(v_nan, acc, r)).result]

    gen = generic([x, window.tensor], [init], [in_map, map_of(6, [4, 5]), map_of(6, [0, 1, 2, 3])],
                  iterators("pppprr"), body)
    new_ops.append(gen)
    Rewriter.replace_op(op, new_ops, [gen.res[0]])


def _count_ops(b: Builder, kernel, stride, pad, in_hw) -> SSAValue:
    """The number of non-padding elements of the window at (oy, ox) (loop dims 1, 2), as an
    index: prod over y/x of min(o * s - pad_before + k, I) - max(o * s - pad_before, 0)."""
    c = _index_constants(b)
    count: SSAValue | None = None
    for dim, k, s, p, size in ((1, kernel[0], stride[0], pad[0], in_hw[0]),
                               (2, kernel[1], stride[1], pad[2], in_hw[1])):
        o = b.insert(IndexOp(dim)).result
        start = b.insert(arith.MuliOp(o, c(s))).result
        if p:
            start = b.insert(arith.SubiOp(start, c(p))).result
        end = b.insert(arith.AddiOp(start, c(k))).result
        end = b.insert(arith.MinSIOp(end, c(size))).result
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
    in_t = _elem(op.input)
    acc_t = _acc_type(op)
    izp = _zero_point(op, op.input_zp, "input_zp")
    ozp = _zero_point(op, op.output_zp, "output_zp")
    _, ih, iw, _ = _shape(op.input)
    out_shape = _shape(op.output)
    new_ops: list[Operation] = []
    # pad with 0 and subtract count * input_zp afterwards: only the valid positions count
    x = _pad(op.input, [0, pad[0], pad[2], 0], [0, pad[1], pad[3], 0], 0, new_ops)
    init = _fill(out_shape, acc_t, 0, new_ops)
    window = empty(kernel, acc_t)
    new_ops.append(window)
    pool = named.PoolingNhwcSumOp([x, window.tensor], [init], [init.type],
                                  strides=_i64_tensor(stride), dilations=_i64_tensor([1, 1]))
    new_ops.append(pool)
    out_init = empty(out_shape, in_t)
    new_ops.append(out_init)

    if _is_float(in_t):
        def body(b: Builder, args: Sequence[SSAValue]) -> list[SSAValue]:
            count = _count_ops(b, kernel, stride, pad, (ih, iw))
            ci = b.insert(arith.IndexCastOp(count, i32)).result
            cf = b.insert(arith.SIToFPOp(ci, acc_t)).result
            # acc / count in acc_t (count is exact there), then static_cast to in_out_t
            q = b.insert(arith.DivfOp(args[0], cf)).result
            return [_convert(b, q, in_t)]
    else:
        if acc_t != i32:
            raise fail(op, f"integer acc_type must be i32, got {acc_t}")
        lo, hi = nx.minimum_s(_tname(in_t)), nx.maximum_s(_tname(in_t))

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
            return [_convert(b, acc, in_t)]

    gen = generic([pool.res[0]], [out_init.tensor], [identity(4)] * 2, parallel(4), body)
    new_ops.append(gen)
    Rewriter.replace_op(op, new_ops, [gen.res[0]])


def _tname(t: Attribute) -> str:
    assert isinstance(t, IntegerType)
    return f"i{t.width.data}"


# ------------------------------------------------------------------ the pass


LOWERINGS = {
    Conv3DOp: lower_conv3d,
    DepthwiseConv2DOp: lower_depthwise_conv2d,
    TransposeConv2DOp: lower_transpose_conv2d,
    MatMulOp: lower_matmul,
    MaxPool2DOp: lower_max_pool2d,
    AvgPool2DOp: lower_avg_pool2d,
    TransposeOp: lower_transpose,
}


@dataclass(frozen=True)
class TosaToLinalgNamedPass(ModulePass):
    """tosa.conv2d/conv3d/depthwise_conv2d/transpose_conv2d/matmul/max_pool2d/avg_pool2d/
    transpose -> linalg named ops (+ tensor.pad, linalg.fill, linalg.generic)."""

    name: ClassVar[str] = "tosa-to-linalg-named"

    prefer_conv2d_kernel_layout_hwcf: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        consts: list[Operation] = []
        for o in list(op.walk()):
            if isinstance(o, Conv2DOp):
                lower = lambda c: lower_conv2d(c, self.prefer_conv2d_kernel_layout_hwcf)  # noqa: E731
            else:
                lower = LOWERINGS.get(type(o))
            if lower is None:
                continue
            require_static(o, PASS)
            consts.extend(v.owner for v in o.operands if isinstance(v.owner, ConstOp))
            lower(o)
        # the zero points were read at compile time: their tosa.const ops are now dead
        for c in dict.fromkeys(consts):
            if c.parent is not None and not c.results[0].uses:
                Rewriter.erase_op(c)


__all__ = ["TosaToLinalgNamedPass"]
