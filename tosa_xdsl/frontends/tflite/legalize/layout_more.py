"""More data layout: strided_slice, gather, split / split_v, pack / unpack, tile,
reverse_v2, space_to_depth / depth_to_space, resize_bilinear / resize_nearest_neighbor.

All indices, sizes and axes must be constants (a data-dependent one is a located error),
as the guide's lower_*_op functions assume (`.as_constant()`).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.dialects.tosa.ops import image as im
from tosa_xdsl.dialects.tosa.ops import scatter_gather as sg
from tosa_xdsl.frontends.legalize_common import positive_axis
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes
from tosa_xdsl.ir.enums import ResizeMode, ResizeModeAttr


def _slice(lg: Legalizer, x: SSAValue, begin: list[int], size: list[int]) -> SSAValue:
    t = x.type
    return lg.emit(dl.SliceOp.create(operands=[x, lg.shape_value(begin), lg.shape_value(size)],
                                     result_types=[TensorType(t.element_type, size)])).results[0]  # type: ignore[attr-defined]


@legalizes("tfl.strided_slice")
def strided_slice(lg: Legalizer) -> SSAValue:
    """The guide's lower_strided_slice_op: SLICE, then for strides > 1 a reshape that
    splits each strided dim into (n, stride) and a SLICE keeping index 0, then a reshape
    to the output shape (shrink_axis / new_axis via that final reshape)."""
    x = lg.operand(0)
    shape = lg.shape(x)
    rank = len(shape)
    begin = [int(v) for v in lg.constant(lg.operand(1), "begin").reshape(-1)]
    end = [int(v) for v in lg.constant(lg.operand(2), "end").reshape(-1)]
    strides = [int(v) for v in lg.constant(lg.operand(3), "strides").reshape(-1)]
    if lg.option("ellipsis_mask", 0) or lg.option("new_axis_mask", 0) or lg.option("offset", False):
        lg.fail("ellipsis_mask / new_axis_mask / offset are not supported")
    bm, em, sm = lg.option("begin_mask", 0), lg.option("end_mask", 0), lg.option("shrink_axis_mask", 0)
    starts, sizes, steps = [], [], []
    for i in range(rank):
        b = begin[i] if i < len(begin) else 0
        e = end[i] if i < len(end) else shape[i]
        s = strides[i] if i < len(strides) else 1
        if s <= 0:
            lg.fail("negative strides are not supported")
        b = 0 if bm >> i & 1 else (b + shape[i] if b < 0 else b)
        e = shape[i] if em >> i & 1 else (e + shape[i] if e < 0 else e)
        if sm >> i & 1:
            e = b + 1
        b, e = min(max(b, 0), shape[i]), min(max(e, 0), shape[i])
        n = max(0, -(-(e - b) // s))
        starts.append(b)
        sizes.append(max(0, min(e - b, n * s)))
        steps.append(s)
    y = _slice(lg, x, starts, sizes)
    if any(s > 1 for s in steps):
        padded = [-(-sz // st) * st for sz, st in zip(sizes, steps)]
        if padded != sizes:
            pads = []
            for sz, p in zip(sizes, padded):
                pads += [0, p - sz]
            e = y.type.element_type  # type: ignore[attr-defined]
            zero = np.zeros(1, np.float32 if not isinstance(e, IntegerType) else np.int64)
            y = lg.emit(dl.PadOp.create(operands=[y, lg.shape_value(pads), lg.const(zero, e)],
                                        result_types=[TensorType(y.type.element_type, padded)])).results[0]  # type: ignore[attr-defined]
        split = []
        for p, st in zip(padded, steps):
            split += [p // st, st]
        y = lg.reshape(y, split)
        y = _slice(lg, y, [0] * len(split), [d if i % 2 == 0 else 1 for i, d in enumerate(split)])
    return lg.reshape(y, lg.shape(lg.op.results[0]))


@legalizes("tfl.gather")
def gather(lg: Legalizer) -> SSAValue:
    """params[..., idx, ...] along `axis` as TOSA GATHER on [N=outer, K=axis, C=inner]."""
    x, idx = lg.operand(0), lg.operand(1)
    shape = lg.shape(x)
    if lg.option("batch_dims", 0):
        lg.fail("batch_dims is not supported")
    axis = positive_axis(lg.option("axis", 0), len(shape))
    outer = int(np.prod(shape[:axis])) if axis else 1
    inner = int(np.prod(shape[axis + 1:])) if axis + 1 < len(shape) else 1
    ishape = lg.shape(idx)
    w = int(np.prod(ishape)) if ishape else 1
    values = lg.reshape(x, [outer, shape[axis], inner])
    i32_idx = idx if idx.type.element_type == i32 else lg.cast(idx, i32)  # type: ignore[attr-defined]
    flat = lg.reshape(i32_idx, [1, w])
    if outer > 1:  # TOSA GATHER takes one index row per batch: tile the indices
        flat = lg.emit(dl.TileOp.create(operands=[flat, lg.shape_value([outer, 1])],
                                        result_types=[TensorType(i32, [outer, w])])).results[0]
    e = values.type.element_type  # type: ignore[attr-defined]
    y = lg.emit(sg.GatherOp.create(operands=[values, flat], result_types=[TensorType(e, [outer, w, inner])])).results[0]
    return lg.reshape(y, lg.shape(lg.op.results[0]))


@legalizes("tfl.split", "tfl.split_v")
def split(lg: Legalizer) -> list[SSAValue]:
    if lg.op.name == "tfl.split":
        axis_v, x = lg.operand(0), lg.operand(1)
    else:
        x, axis_v = lg.operand(0), lg.operand(2)
    shape = lg.shape(x)
    axis = positive_axis(int(lg.constant(axis_v, "axis").reshape(-1)[0]), len(shape))
    outs, start = [], 0
    for r in lg.op.results:
        size = lg.shape(r)
        begin = [0] * len(shape)
        begin[axis] = start
        outs.append(_slice(lg, x, begin, size))
        start += size[axis]
    return outs


@legalizes("tfl.pack")
def pack(lg: Legalizer) -> SSAValue:
    out_shape = lg.shape(lg.op.results[0])
    axis = positive_axis(lg.option("axis", 0), len(out_shape))
    parts = []
    for v in lg.operands:
        s = lg.shape(v)
        parts.append(lg.reshape(v, s[:axis] + [1] + s[axis:]))
    if len(parts) == 1:
        return parts[0]
    return lg.emit(dl.ConcatOp.create(operands=parts, result_types=[lg.out_storage()],
                                      properties={"axis": IntegerAttr(axis, i32)})).results[0]


@legalizes("tfl.unpack")
def unpack(lg: Legalizer) -> list[SSAValue]:
    x = lg.operand(0)
    shape = lg.shape(x)
    axis = positive_axis(lg.option("axis", 0), len(shape))
    outs = []
    for i, r in enumerate(lg.op.results):
        begin = [0] * len(shape)
        begin[axis] = i
        size = list(shape)
        size[axis] = 1
        outs.append(lg.reshape(_slice(lg, x, begin, size), lg.shape(r)))
    return outs


@legalizes("tfl.tile")
def tile(lg: Legalizer) -> SSAValue:
    mult = [int(m) for m in lg.constant(lg.operand(1), "multiples").reshape(-1)]
    return lg.emit(dl.TileOp.create(operands=[lg.operand(0), lg.shape_value(mult)],
                                    result_types=[lg.out_storage()])).results[0]


@legalizes("tfl.reverse_v2")
def reverse_v2(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    rank = len(lg.shape(x))
    for a in sorted({positive_axis(int(v), rank) for v in lg.constant(lg.operand(1), "axis").reshape(-1)}):
        x = lg.emit(dl.ReverseOp.create(operands=[x], result_types=[x.type],
                                        properties={"axis": IntegerAttr(a, i32)})).results[0]
    return x


@legalizes("tfl.space_to_depth")
def space_to_depth(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    n, h, w, c = lg.shape(x)
    b = lg.option("block_size")
    y = lg.reshape(x, [n, h // b, b, w // b, b, c])
    y = lg.transpose(y, [0, 1, 3, 2, 4, 5])
    return lg.reshape(y, lg.shape(lg.op.results[0]))


@legalizes("tfl.depth_to_space")
def depth_to_space(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    n, h, w, c = lg.shape(x)
    b = lg.option("block_size")
    y = lg.reshape(x, [n, h, w, b, b, c // (b * b)])
    y = lg.transpose(y, [0, 1, 3, 2, 4, 5])
    return lg.reshape(y, lg.shape(lg.op.results[0]))


@legalizes("tfl.resize_bilinear", "tfl.resize_nearest_neighbor")
def resize(lg: Legalizer) -> SSAValue:
    """The guide's lower_resize_op for float inputs: TOSA RESIZE with scale/offset/border
    from align_corners / half_pixel_centers."""
    x = lg.operand(0)
    qi, qo = lg.q(x), lg.q(lg.out_type())
    if qi is not None and (qi.scales[0], qi.zero_points[0]) != (qo.scales[0], qo.zero_points[0]):
        lg.fail("quantized resize with different input and output quantization is not supported")
    if qi is not None and qi.width.data == 16 and lg.op.name == "tfl.resize_bilinear":
        lg.fail("int16 bilinear resize is not supported (TFLite's int16 kernel differs by up to 60 LSB)")
    _, ih, iw, _ = lg.shape(x)
    _, oh, ow, _ = lg.shape(lg.op.results[0])
    align = bool(lg.option("align_corners", False))
    half = bool(lg.option("half_pixel_centers", False))
    bilinear = lg.op.name == "tfl.resize_bilinear"
    scale, offset, border = [], [], []
    for i_size, o_size in ((ih, oh), (iw, ow)):
        # input coordinate = (out * scale_d + offset) / scale_n (spec RESIZE)
        if align and o_size > 1:
            sn, sd = 2 * (o_size - 1), 2 * (i_size - 1)
        else:
            sn, sd = 2 * o_size, 2 * i_size
        if bilinear:
            off = (sd - sn) // 2 if half else 0  # (out + 0.5) * in/out - 0.5
        elif align:
            off = 0  # TFLite rounds; TOSA's nearest rounds half up
        else:
            # TFLite floors ((out [+ 0.5]) * in/out); TOSA rounds: shift by half a step
            off = (sd // 2 if half else 0) - sn // 2
        scale += [sn, sd]
        offset.append(off)
        border.append((o_size - 1) * sd - (i_size - 1) * sn + off)
    mode = ResizeMode.BILINEAR if bilinear else ResizeMode.NEAREST_NEIGHBOR
    out = lg.out_storage()
    wide = bilinear and qi is not None  # integer bilinear: i8 -> i32 (i16 -> i48) scaled by scale_n^2
    acc = (IntegerType(48) if qi.width.data == 16 else i32) if wide else out.element_type
    y = lg.emit(im.ResizeOp.create(
        operands=[x, lg.shape_value(scale), lg.shape_value(offset), lg.shape_value(border)],
        result_types=[TensorType(acc, out.get_shape())], properties={"mode": ResizeModeAttr(mode)})).results[0]
    if not wide:
        return y
    # same scale and zero point in and out: the weighted sum / (scale_y_n * scale_x_n)
    return lg.rescale(y, out.element_type, 1.0 / (scale[0] * scale[2]), 0, 0, scale32=acc == i32)


@legalizes("tfl.embedding_lookup")
def embedding_lookup(lg: Legalizer) -> SSAValue:
    """The guide: rows of `value` picked by `lookup` = GATHER on [1, rows, row size]."""
    ids, table = lg.operand(0), lg.operand(1)
    if lg.q(table) != lg.q(lg.out_type()):
        lg.fail("quantized embedding tables with a requantized output are not supported")
    tshape = lg.shape(table)
    inner = int(np.prod(tshape[1:])) if len(tshape) > 1 else 1
    n = int(np.prod(lg.shape(ids))) if lg.shape(ids) else 1
    values = lg.reshape(table, [1, tshape[0], inner])
    idx = lg.reshape(ids if ids.type.element_type == i32 else lg.cast(ids, i32), [1, n])  # type: ignore[attr-defined]
    e = values.type.element_type  # type: ignore[attr-defined]
    y = lg.emit(sg.GatherOp.create(operands=[values, idx], result_types=[TensorType(e, [1, n, inner])])).results[0]
    return lg.reshape(y, lg.shape(lg.op.results[0]))


@legalizes("tfl.gather_nd")
def gather_nd(lg: Legalizer) -> SSAValue:
    """params[idx[..., 0], ..., idx[..., K-1], :] as one GATHER on the flattened leading K
    dims: the flat row index sum(idx_k * stride_k) is computed with TOSA MUL/ADD in i32."""
    from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb

    params, idx = lg.operand(0), lg.operand(1)
    ps, ishape = lg.shape(params), lg.shape(idx)
    k = ishape[-1]
    if k > len(ps) or k == 0:
        lg.fail(f"index depth {k} does not fit params of rank {len(ps)}")
    rows = int(np.prod(ps[:k]))
    inner = int(np.prod(ps[k:])) if k < len(ps) else 1
    n = int(np.prod(ishape[:-1])) if len(ishape) > 1 else 1
    strides = [int(np.prod(ps[i + 1:k])) for i in range(k)]
    idx32 = lg.reshape(idx if idx.type.element_type == i32 else lg.cast(idx, i32), [n, k])  # type: ignore[attr-defined]
    weighted = lg.emit(eb.MulOp.create(operands=[idx32, lg.const(np.array([strides]), i32), lg.const(np.zeros(1, np.int8), IntegerType(8))],
                                       result_types=[TensorType(i32, [n, k])])).results[0]
    from tosa_xdsl.dialects.tosa.ops import reduction as rd
    from tosa_xdsl.frontends.tflite.legalize.reduction import reduce_axes

    flat = lg.reshape(reduce_axes(lg, rd.ReduceSumOp, weighted, [1]), [1, n])
    values = lg.reshape(params, [1, rows, inner])
    e = values.type.element_type  # type: ignore[attr-defined]
    y = lg.emit(sg.GatherOp.create(operands=[values, flat], result_types=[TensorType(e, [1, n, inner])])).results[0]
    return lg.reshape(y, lg.shape(lg.op.results[0]))
