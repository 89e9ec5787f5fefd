"""The guide's remaining small operators: add_n, floor_div, floor_mod, round, sin, cos,
fill, shape, rank, range, one_hot, batch_to_space_nd, space_to_batch_nd, mirror_pad,
l2_normalization, local_response_normalization, fake_quant, relu_n1_to_1 (elementwise.py);
and the operators whose output shape depends on the data (where, unique,
non_max_suppression_*): a located error saying so.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
)
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import comparison as cmp
from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import elementwise_ternary as et
from tosa_xdsl.dialects.tosa.ops import elementwise_unary as eu
from tosa_xdsl.dialects.tosa.ops import reduction as rd
from tosa_xdsl.frontends.legalize_common import positive_axis
from tosa_xdsl.frontends.tflite.legalize.activations import _float_only, _mul, _scalar
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes
from tosa_xdsl.frontends.tflite.legalize.reduction import reduce_axes

DATA_DEPENDENT = ("tfl.where", "tfl.unique", "tfl.non_max_suppression_v4", "tfl.non_max_suppression_v5",
                  "tfl.sparse_to_dense", "tfl.dynamic_update_slice")


@legalizes(*DATA_DEPENDENT)
def data_dependent(lg: Legalizer) -> SSAValue:
    lg.fail("its output shape depends on the input data; TOSA needs static shapes")
    raise AssertionError


@legalizes("tfl.add_n")
def add_n(lg: Legalizer) -> SSAValue:
    _float_only(lg)
    out = lg.out_storage()
    acc = lg.operand(0)
    for v in lg.operands[1:]:
        acc = lg.binary(eb.AddOp, acc, v, out)
    return acc if acc is not lg.operand(0) else lg.reshape(acc, out.get_shape())


@legalizes("tfl.floor_div", "tfl.floor_mod")
def floor_div_mod(lg: Legalizer) -> SSAValue:
    """The guide's lower_floor_div / lower_floor_mod (float): floor(a / b), a - b * floor(a / b)."""
    _float_only(lg)
    a, b = lg.operand(0), lg.operand(1)
    out = lg.out_storage()
    if not isinstance(out.element_type, AnyFloat):
        lg.fail("integer floor_div/floor_mod are not supported")
    q = lg.unary(eu.FloorOp, _mul(lg, a, lg.unary(eu.ReciprocalOp, b), out))
    if lg.op.name == "tfl.floor_div":
        return q
    return lg.binary(eb.SubOp, a, _mul(lg, q, b, out), out)


@legalizes("tfl.round")
def round_(lg: Legalizer) -> SSAValue:
    """The guide's lower_round_op: floor(x + 0.5) ... TFLite rounds half to even: do that."""
    _float_only(lg)
    x = lg.operand(0)
    fl = lg.unary(eu.FloorOp, x)
    frac = lg.binary(eb.SubOp, x, fl, x.type)
    up = lg.binary(eb.AddOp, fl, _scalar(lg, x, 1.0), x.type)
    half = _scalar(lg, x, 0.5)
    bt = TensorType(i1, x.type.get_shape())  # type: ignore[attr-defined]
    gt = lg.binary(cmp.GreaterOp, frac, half, bt)
    eq = lg.binary(cmp.EqualOp, frac, half, bt)
    # ties: the even one of floor and floor + 1
    fl_half = lg.unary(eu.FloorOp, _mul(lg, fl, half))
    fl_even = lg.binary(cmp.EqualOp, _mul(lg, fl_half, _scalar(lg, x, 2.0)), fl, bt)
    tie_pick = lg.emit(et.SelectOp.create(operands=[fl_even, fl, up], result_types=[x.type])).results[0]
    r = lg.emit(et.SelectOp.create(operands=[gt, up, fl], result_types=[x.type])).results[0]
    return lg.emit(et.SelectOp.create(operands=[eq, tie_pick, r], result_types=[x.type])).results[0]


@legalizes("tfl.sin", "tfl.cos")
def sin_cos(lg: Legalizer) -> SSAValue:
    _float_only(lg)
    return lg.unary(eu.SinOp if lg.op.name == "tfl.sin" else eu.CosOp, lg.operand(0))


@legalizes("tfl.fill")
def fill(lg: Legalizer) -> SSAValue:
    out = lg.out_storage()
    lg.require_small(lg.shape(lg.op.results[0]))
    value = lg.constant(lg.operand(1), "fill value").reshape(-1)[:1]
    return lg.const(np.broadcast_to(value, lg.shape(lg.op.results[0])).copy(), out.element_type)


@legalizes("tfl.shape", "tfl.rank")
def shape(lg: Legalizer) -> SSAValue:
    s = lg.shape(lg.operand(0))
    out = lg.out_storage()
    value = np.array(s if lg.op.name == "tfl.shape" else len(s))
    return lg.const(value.reshape(out.get_shape()), out.element_type)


@legalizes("tfl.range")
def range_(lg: Legalizer) -> SSAValue:
    start, limit, delta = (lg.constant(lg.operand(i), n).reshape(-1)[0] for i, n in enumerate(("start", "limit", "delta")))
    out = lg.out_storage()
    if delta == 0:
        lg.fail("delta is 0")
    lg.require_small([abs((limit - start) / delta)])
    return lg.const(np.arange(start, limit, delta).reshape(out.get_shape()), out.element_type)


@legalizes("tfl.one_hot")
def one_hot(lg: Legalizer) -> SSAValue:
    """indices == iota along `axis`, then select(on, off)."""
    idx = lg.operand(0)
    depth = int(lg.constant(lg.operand(1), "depth").reshape(-1)[0])
    on, off = lg.operand(2), lg.operand(3)
    out = lg.out_storage()
    oshape = lg.shape(lg.op.results[0])
    axis = positive_axis(lg.option("axis", -1), len(oshape))
    ishape = lg.shape(idx)
    idx_r = lg.reshape(idx if idx.type.element_type == i32 else lg.cast(idx, i32), ishape[:axis] + [1] + ishape[axis:])  # type: ignore[attr-defined]
    lg.require_small([depth])
    iota_shape = [1] * len(oshape)
    iota_shape[axis] = depth
    iota = lg.const(np.arange(depth).reshape(iota_shape), i32)
    eq = lg.binary(cmp.EqualOp, idx_r, iota, TensorType(i1, oshape))
    on_r, off_r = lg.reshape(on, [1] * len(oshape)), lg.reshape(off, [1] * len(oshape))
    return lg.emit(et.SelectOp.create(operands=[eq, on_r, off_r], result_types=[out])).results[0]


@legalizes("tfl.space_to_batch_nd")
def space_to_batch_nd(lg: Legalizer) -> SSAValue:
    """The guide's lower_space_to_batch_nd_op: pad, reshape, transpose, reshape."""
    x = lg.operand(0)
    shape = lg.shape(x)
    block = [int(b) for b in lg.constant(lg.operand(1), "block_shape").reshape(-1)]
    pads = lg.constant(lg.operand(2), "paddings").astype(np.int64).reshape(-1, 2)
    m = len(block)
    full_pads = [0, 0] + [int(p) for p in pads.reshape(-1)] + [0, 0] * (len(shape) - 1 - m)
    padded = [shape[0]] + [shape[1 + i] + int(pads[i].sum()) for i in range(m)] + shape[1 + m:]
    e = x.type.element_type  # type: ignore[attr-defined]
    q = lg.q(x)
    zero = np.array([int(q.zero_points[0]) if q is not None else 0], np.int64 if isinstance(e, IntegerType) else np.float32)
    y = lg.emit(dl.PadOp.create(operands=[x, lg.shape_value(full_pads), lg.const(zero, e)],
                                result_types=[TensorType(e, padded)])).results[0]
    split = [shape[0]]
    for i in range(m):
        split += [padded[1 + i] // block[i], block[i]]
    split += shape[1 + m:]
    y = lg.reshape(y, split)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, len(split)))
    y = lg.transpose(y, perm)
    return lg.reshape(y, lg.shape(lg.op.results[0]))


@legalizes("tfl.batch_to_space_nd")
def batch_to_space_nd(lg: Legalizer) -> SSAValue:
    """The guide's lower_batch_to_space_nd_op: reshape, transpose, reshape, slice (crops)."""
    x = lg.operand(0)
    shape = lg.shape(x)
    block = [int(b) for b in lg.constant(lg.operand(1), "block_shape").reshape(-1)]
    crops = lg.constant(lg.operand(2), "crops").astype(np.int64).reshape(-1, 2)
    m = len(block)
    prod = int(np.prod(block))
    n = shape[0] // prod
    y = lg.reshape(x, block + [n] + shape[1:])
    perm = [m] + [i for j in range(m) for i in (m + 1 + j, j)] + list(range(2 * m + 1, m + len(shape)))
    y = lg.transpose(y, perm)
    full = [n] + [shape[1 + i] * block[i] for i in range(m)] + shape[1 + m:]
    y = lg.reshape(y, full)
    begin = [0] + [int(crops[i][0]) for i in range(m)] + [0] * (len(shape) - 1 - m)
    size = lg.shape(lg.op.results[0])
    t = y.type
    return lg.emit(dl.SliceOp.create(operands=[y, lg.shape_value(begin), lg.shape_value(size)],
                                     result_types=[TensorType(t.element_type, size)])).results[0]  # type: ignore[attr-defined]


def _reversed_slice(lg: Legalizer, x: SSAValue, dim: int, start: int, n: int) -> SSAValue:
    """x[..., start:start+n, ...] along `dim`, reversed along `dim`."""
    s = lg.shape(x)
    e = x.type.element_type  # type: ignore[attr-defined]
    begin = [0] * len(s)
    begin[dim] = start
    size = list(s)
    size[dim] = n
    sl = lg.emit(dl.SliceOp.create(operands=[x, lg.shape_value(begin), lg.shape_value(size)],
                                   result_types=[TensorType(e, size)])).results[0]
    return lg.emit(dl.ReverseOp.create(operands=[sl], result_types=[sl.type],
                                       properties={"axis": IntegerAttr(dim, i32)})).results[0]


@legalizes("tfl.mirror_pad")
def mirror_pad(lg: Legalizer) -> SSAValue:
    """Per dim: concat(reverse(slice before), x, reverse(slice after)) (the guide gives none)."""
    x = lg.operand(0)
    pads = lg.constant(lg.operand(1), "paddings").astype(np.int64).reshape(-1, 2)
    off = 1 if lg.option("mode", "REFLECT") == "REFLECT" else 0
    for d in range(len(lg.shape(x))):
        before, after = int(pads[d][0]), int(pads[d][1])
        if before == 0 and after == 0:
            continue
        s = lg.shape(x)
        if before + off > s[d] or after + off > s[d] or before < 0 or after < 0:
            lg.fail(f"paddings {before}, {after} do not fit dimension {d} of size {s[d]}")
        parts = []
        if before:
            parts.append(_reversed_slice(lg, x, d, off, before))
        parts.append(x)
        if after:
            parts.append(_reversed_slice(lg, x, d, s[d] - after - off, after))
        new = list(s)
        new[d] += before + after
        x = lg.emit(dl.ConcatOp.create(operands=parts, result_types=[TensorType(x.type.element_type, new)],  # type: ignore[attr-defined]
                                       properties={"axis": IntegerAttr(d, i32)})).results[0]
    return x


@legalizes("tfl.l2_normalization")
def l2_normalization(lg: Legalizer) -> SSAValue:
    """x * rsqrt(max(sum(x^2, last axis), eps)) (TFLite's float kernel)."""
    _float_only(lg)
    x = lg.operand(0)
    axis = len(lg.shape(x)) - 1
    ss = reduce_axes(lg, rd.ReduceSumOp, _mul(lg, x, x), [axis])
    ss = lg.binary(eb.MaximumOp, ss, _scalar(lg, ss, 1e-6), ss.type)
    y = _mul(lg, x, lg.unary(eu.RsqrtOp, ss))
    return lg.lower_fused_activation(y, lg.option("fused_activation_function", "NONE"))


@legalizes("tfl.fake_quant")
def fake_quant(lg: Legalizer) -> SSAValue:
    """The guide's lower_fake_quant_op: quantize and dequantize in float
    (clamp, scale, round half to even via CAST to i32, back)."""
    _float_only(lg)
    x = lg.operand(0)
    lo, hi = float(lg.option("min")), float(lg.option("max"))
    bits = int(lg.option("num_bits", 8))
    narrow = bool(lg.option("narrow_range", False))
    qmin, qmax = (1 if narrow else 0), (1 << bits) - 1
    scale = (hi - lo) / (qmax - qmin)
    zp = qmin - lo / scale
    nudged_zp = min(max(round(zp), qmin), qmax)
    nlo, nhi = (qmin - nudged_zp) * scale, (qmax - nudged_zp) * scale
    c = lg.clamp(x, nlo, nhi)
    t = lg.binary(eb.SubOp, c, _scalar(lg, x, nlo), x.type)
    q = lg.cast(lg.cast(_mul(lg, t, _scalar(lg, x, 1.0 / scale)), i32), x.type.element_type)  # type: ignore[attr-defined]
    return lg.binary(eb.AddOp, _mul(lg, q, _scalar(lg, x, scale)), _scalar(lg, x, nlo), x.type)


@legalizes("tfl.local_response_normalization")
def local_response_normalization(lg: Legalizer) -> SSAValue:
    """x / (bias + alpha * sum_{|c'-c| <= r} x[c']^2) ^ beta (float). The channel-window sum
    of squares is a 1x1 CONV2D with a constant banded [C, 1, 1, C] weight."""
    _float_only(lg)
    x = lg.operand(0)
    n, h, w, c = lg.shape(x)
    lg.require_small([c, c])
    r = int(lg.option("radius", 5))
    bias, alpha, beta = float(lg.option("bias", 1.0)), float(lg.option("alpha", 1.0)), float(lg.option("beta", 0.5))
    idx = np.arange(c)
    band = (np.abs(idx[:, None] - idx[None, :]) <= r).astype(np.float32).reshape(c, 1, 1, c)
    e = x.type.element_type  # type: ignore[attr-defined]
    from tosa_xdsl.dialects.tosa.ops import tensor as tn
    from tosa_xdsl.frontends.tflite.legalize.conv import _arr

    sq = _mul(lg, x, x)
    ss = lg.emit(tn.Conv2DOp.create(
        operands=[sq, lg.const(band, e), lg.const(np.zeros(c, np.float32), e), lg.zp(0.0, e), lg.zp(0.0, e)],
        result_types=[x.type],
        properties={"pad": _arr([0, 0, 0, 0]), "stride": _arr([1, 1]), "dilation": _arr([1, 1]), "acc_type": e})).results[0]
    base = lg.binary(eb.AddOp, _mul(lg, ss, _scalar(lg, x, alpha)), _scalar(lg, x, bias), x.type)
    denom = lg.binary(eb.PowOp, base, _scalar(lg, x, -beta), x.type)
    return _mul(lg, x, denom)


@legalizes("tfl.matrix_diag")
def matrix_diag(lg: Legalizer) -> SSAValue:
    """[..., N] -> [..., N, N] with the input on the diagonal: x[..., None] * I (float) or a
    SELECT against zero (integers)."""
    x = lg.operand(0)
    s = lg.shape(x)
    nn = s[-1]
    lg.require_small([nn, nn])
    out = lg.out_storage()
    col = lg.reshape(x, s + [1])
    eye_shape = [1] * len(s) + [nn]
    eye_shape[-2] = nn
    if isinstance(out.element_type, AnyFloat):
        return _mul(lg, col, lg.const(np.eye(nn, dtype=np.float32).reshape(eye_shape), out.element_type), out)
    mask = lg.const(np.eye(nn, dtype=bool).reshape(eye_shape), i1)
    zero = lg.const(np.zeros([1] * (len(s) + 1), np.int64), out.element_type)
    col_b = lg.emit(dl.TileOp.create(operands=[col, lg.shape_value([1] * len(s) + [nn])], result_types=[out])).results[0]
    return lg.emit(et.SelectOp.create(operands=[mask, col_b, zero], result_types=[out])).results[0]


@legalizes("tfl.reverse_sequence")
def reverse_sequence(lg: Legalizer) -> SSAValue:
    """Constant seq_lengths: per batch entry, reverse the first len[b] steps (SLICE, REVERSE,
    CONCAT), then CONCAT the batch back."""
    x = lg.operand(0)
    s = lg.shape(x)
    lengths = [int(v) for v in lg.constant(lg.operand(1), "seq_lengths").reshape(-1)]
    sd = positive_axis(lg.option("seq_dim"), len(s))
    bd = positive_axis(lg.option("batch_dim", 0), len(s))
    if len(lengths) != s[bd]:
        lg.fail(f"{len(lengths)} sequence lengths for a batch of {s[bd]}")
    e = x.type.element_type  # type: ignore[attr-defined]

    def sl(v: SSAValue, dim: int, start: int, n: int) -> SSAValue:
        vs = lg.shape(v)
        begin = [0] * len(vs)
        begin[dim] = start
        size = list(vs)
        size[dim] = n
        return lg.emit(dl.SliceOp.create(operands=[v, lg.shape_value(begin), lg.shape_value(size)],
                                         result_types=[TensorType(e, size)])).results[0]

    rows = []
    for b, n in enumerate(lengths):
        if not 0 <= n <= s[sd]:
            lg.fail(f"sequence length {n} outside [0, {s[sd]}]")
        row = sl(x, bd, b, 1)
        if n > 1:
            head = _reversed_slice(lg, row, sd, 0, n)
            parts = [head] + ([sl(row, sd, n, s[sd] - n)] if n < s[sd] else [])
            row = parts[0] if len(parts) == 1 else lg.emit(dl.ConcatOp.create(
                operands=parts, result_types=[row.type], properties={"axis": IntegerAttr(sd, i32)})).results[0]
        rows.append(row)
    if len(rows) == 1:
        return rows[0]
    return lg.emit(dl.ConcatOp.create(operands=rows, result_types=[lg.out_storage()],
                                      properties={"axis": IntegerAttr(bd, i32)})).results[0]
