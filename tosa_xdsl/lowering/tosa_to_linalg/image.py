"""`tosa-to-linalg` for spec 2.12.1 RESIZE: one linalg.generic over the output whose body does
the spec's integer index math on linalg.index (floor division) and tensor.extracts the input.
NEAREST_NEIGHBOR picks one input; BILINEAR weighs four, in fp32 for floats (as the
interpreter does) and in the spec's exact int64 arithmetic for integers.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import f32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops.image import ResizeOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering import numerics_ir as nir
from tosa_xdsl.lowering.preconditions import EVERY_DIM, DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg.common import (
    fail,
    index,
    is_float,
    prop,
    shape_values,
    signless_int,
    to_index,
)
from tosa_xdsl.lowering.tosa_to_tensor import erase_dead_const_shapes


def lower_resize(op: ResizeOp) -> None:
    x = op.input
    if len(lb.dims_of(x)) != 4 or len(lb.dims_of(op.output)) != 4:
        raise fail(op, "input and output must be NHWC (rank 4)")  # --disable-verify input
    ih, iw = lb.dims_of(x)[1:3]  # any dim may be dynamic (DYNAMIC below)
    out_shape = lb.dims_of(op.output)
    scale = shape_values(op, op.scale, "scale")
    offset = shape_values(op, op.offset, "offset")
    border = shape_values(op, op.border, "border")
    if len(scale) != 4 or len(offset) != 2 or len(border) != 2:
        raise fail(op, "scale needs 4 values, offset and border 2")
    syn, syd, sxn, sxd = scale
    if min(scale) <= 0:
        raise fail(op, f"scale {scale} must be positive (ERROR_IF)")
    mode = prop(op, "mode", "NEAREST_NEIGHBOR")
    in_t = lb.element_type(x)
    out_t = lb.element_type(op.output)
    fp = is_float(in_t)
    if not fp:
        signless_int(op, in_t, "input")

    new_ops: list[Operation] = []
    # the last input row/column bounds the reads: a constant, or (dynamic H/W) the input's
    # tensor.dim - 1 as i64, built before the generic
    last_y, last_x = (size - 1 if size >= 0 else _last_i64(x, d, new_ops) for d, size in ((1, ih), (2, iw)))

    def axis_math(b: Builder, o: SSAValue, sn: int, sd: int, off: int, last: int | SSAValue):
        # spec 2.12.1: y = oy * scale_d + offset; iy = floor(y / scale_n); dy = y - iy * scale_n
        y = b.insert(arith.AddiOp(b.insert(arith.MuliOp(o, nir.const(b, sd, i64))).result,
                                  nir.const(b, off, i64))).result
        iy = nir.idiv_floor(b, y, nir.const(b, sn, i64))
        ry = b.insert(arith.SubiOp(y, b.insert(arith.MuliOp(iy, nir.const(b, sn, i64))).result)).result
        i0 = b.insert(arith.MaxSIOp(iy, nir.const(b, 0, i64))).result
        last_v = last if isinstance(last, SSAValue) else nir.const(b, last, i64)
        i1 = b.insert(arith.MinSIOp(b.insert(arith.AddiOp(iy, nir.const(b, 1, i64))).result, last_v)).result
        # The spec clamps iy0 from below and iy1 from above only; the other bounds keep a
        # native read inside the input whatever the offsets (a no-op where the spec's
        # coordinates are in range; docs/robustness.md)
        i0 = b.insert(arith.MinSIOp(i0, last_v)).result
        i1 = b.insert(arith.MaxSIOp(i1, nir.const(b, 0, i64))).result
        return i0, i1, ry

    def read(b, nn, yy, xx, cc):
        return b.insert(tensor.ExtractOp(x, [nn, to_index(b, yy), to_index(b, xx), cc], in_t)).result

    def body(b: Builder, args):
        nn, cc = index(b, 0), index(b, 3)
        oy = b.insert(arith.IndexCastOp(index(b, 1), i64)).result
        ox = b.insert(arith.IndexCastOp(index(b, 2), i64)).result
        y0, y1, ry = axis_math(b, oy, syn, syd, offset[0], last_y)
        x0, x1, rx = axis_math(b, ox, sxn, sxd, offset[1], last_x)
        if mode == "NEAREST_NEIGHBOR":
            # dy >= 0.5 is 2 * ry >= scale_n exactly (ry, scale_n are small integers)
            def pick(r, sn, i0, i1):
                twice = b.insert(arith.ShLIOp(r, nir.const(b, 1, i64))).result
                up = b.insert(arith.CmpiOp(twice, nir.const(b, sn, i64), "sge")).result
                return b.insert(arith.SelectOp(up, i1, i0)).result

            return [read(b, nn, pick(ry, syn, y0, y1), pick(rx, sxn, x0, x1), cc)]
        v00, v01 = read(b, nn, y0, x0, cc), read(b, nn, y0, x1, cc)
        v10, v11 = read(b, nn, y1, x0, cc), read(b, nn, y1, x1, cc)
        if fp:
            # computed in fp32 as the interpreter does: dy = ry / scale_n, then
            # v00 (1-dy)(1-dx) + v01 (1-dy) dx + v10 dy (1-dx) + v11 dy dx, rounded once
            def frac(r, sn):
                rf = b.insert(arith.SIToFPOp(r, f32)).result
                return b.insert(arith.DivfOp(rf, nir.const(b, float(sn), f32))).result

            def ext(v):
                return v if in_t == f32 else b.insert(arith.ExtFOp(v, f32)).result

            dy, dx = frac(ry, syn), frac(rx, sxn)
            one = nir.const(b, 1.0, f32)
            uy = b.insert(arith.SubfOp(one, dy)).result
            ux = b.insert(arith.SubfOp(one, dx)).result
            mul, add = arith.MulfOp, arith.AddfOp
            v00, v01, v10, v11 = (ext(v) for v in (v00, v01, v10, v11))
        else:
            # integer: the spec's exact int64 arithmetic with dy, dx in 1/scale_n units
            uy = b.insert(arith.SubiOp(nir.const(b, syn, i64), ry)).result
            ux = b.insert(arith.SubiOp(nir.const(b, sxn, i64), rx)).result
            dy, dx = ry, rx
            mul, add = arith.MuliOp, arith.AddiOp
            v00, v01, v10, v11 = (nir.sign_extend(b, v, i64) for v in (v00, v01, v10, v11))

        def term(v, wy, wx):
            return b.insert(mul(b.insert(mul(v, wy)).result, wx)).result

        acc = b.insert(add(term(v00, uy, ux), term(v01, uy, dx))).result
        acc = b.insert(add(acc, term(v10, dy, ux))).result
        acc = b.insert(add(acc, term(v11, dy, dx))).result
        if fp:
            return [acc if out_t == f32 else b.insert(arith.TruncFOp(acc, out_t)).result]
        return [nir.truncate(b, acc, out_t)]

    if mode not in ("NEAREST_NEIGHBOR", "BILINEAR"):
        raise fail(op, f"unknown mode {mode}")
    if not fp and mode == "BILINEAR" and out_t.width.data <= in_t.width.data:
        raise fail(op, f"integer BILINEAR needs a wider output than {in_t}, got {out_t}")
    if any(d < 0 for d in out_shape):
        # N and C are the input's tensor.dim, H and W the spec's output-size rule
        # (shapes.resize_numerator, strided_size) on the input's tensor.dim values
        sizes = lb.windowed_sizes(x, 2, lambda i, size: shapes.strided_size(
            shapes.resize_numerator(size, scale[2 * i], offset[i], border[i]), scale[2 * i + 1]), new_ops)
        init_v = lb.dynamic_empty(out_shape, out_t, sizes, new_ops)
    else:
        init = lb.empty(out_shape, out_t)
        new_ops.append(init)
        init_v = init.tensor
    shape_ops = [op.scale.owner, op.offset.owner, op.border.owner]
    gen = lb.generic([], [init_v], [lb.identity(4)], lb.parallel(4), body)
    new_ops.append(gen)
    Rewriter.replace_op(op, new_ops, [gen.res[0]])
    erase_dead_const_shapes(list(dict.fromkeys(shape_ops)))


def _last_i64(x: SSAValue, d: int, ops: list[Operation]) -> SSAValue:
    """x's run-time dim `d` minus one, as i64 (the index math's type)."""
    last = arith.SubiOp(lb.dim(x, d, ops), lb.index_constant(1, ops))
    cast = arith.IndexCastOp(last.result, i64)
    ops += [last, cast]
    return cast.result


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {ResizeOp: lower_resize}

# RESIZE: every dim may be dynamic: the output's tensor.empty takes N and C from the input's
# tensor.dim and H, W from the spec's output-size rule on them; the reads clamp at the run-time
# H - 1 / W - 1 (data-dependent addresses stay inside the input)
DYNAMIC: dict[type[Operation], DynamicDims] = {ResizeOp: EVERY_DIM}
