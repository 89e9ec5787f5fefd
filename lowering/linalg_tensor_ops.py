"""`tosa-to-linalg`, the data/reduction half: reductions, ARGMAX, RESCALE, TABLE, RESIZE,
GATHER, FFT2D/RFFT2D, REVERSE, TILE and IDENTITY become linalg.generic (plus linalg.fill,
tensor.empty/expand_shape/extract) with arith/math bodies. Exported as `LOWERINGS` for the
pass shell in tosa_to_linalg.py (which checks static shapes first).

  reduce_*  tensor.empty + linalg.fill(init) + linalg.generic (reduction over `axis`, output
            map without it) + tensor.expand_shape back to the size-1 axis (spec 2.9)
  argmax    linalg.generic with two outputs (index i32, running max), compare + select
            in the spec's order: the first maximum wins; NaN per nan_mode (2.3.1)
  rescale   linalg.generic whose body is numerics_ir.apply_scale_32/16 + zero points + clip
            (2.13.2); compile-time multiplier/shift/zero points are folded into constants
  table     i8: tensor.extract %table[x + 128]; i16: the 513-entry interpolation (2.5.17)
  resize    linalg.generic over the output with linalg.index and the spec's index math
  gather    linalg.generic over [N, W, C] reading indices[n, w], tensor.extract values
  fft2d     naive DFT: linalg.generic over (n, oy, ox, iy, ix), reductions over iy, ix
  reverse   linalg.generic, input map d_axis -> (size - 1 - d_axis)
  tile      linalg.generic, input map d_i -> d_i mod in_shape[i]
  identity  the operand itself
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, math, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float8E4M3FNType,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    UnitAttr,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr
from xdsl.rewriter import Rewriter

from tosa_xdsl import dense
from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering import numerics_ir as nir
from tosa_xdsl.lowering.tosa_to_tensor import erase_dead_const_shapes
from tosa_xdsl.ops import reduction as red
from tosa_xdsl.ops.data_layout import ReverseOp, TileOp
from tosa_xdsl.ops.data_nodes import ConstOp, IdentityOp
from tosa_xdsl.ops.elementwise_binary import TableOp
from tosa_xdsl.ops.image import ResizeOp
from tosa_xdsl.ops.scatter_gather import GatherOp
from tosa_xdsl.ops.shape import ConstShapeOp
from tosa_xdsl.ops.tensor import ArgMaxOp, FFT2DOp, RFFT2DOp
from tosa_xdsl.ops.type_conversion import RescaleOp

PASS = "tosa-to-linalg"


# ------------------------------------------------------------------ shared helpers


def fail(op: Operation, message: str) -> LocatedError:
    return LocatedError(op, f"{PASS}: cannot lower '{op.name}': {message}")


def prop(op: Operation, name: str, default=None):
    """A property as a plain Python value (int, bool, enum string)."""
    attr = op.properties.get(name)
    if attr is None:
        attr = op.attributes.get(name)
    if attr is None:
        return default
    if isinstance(attr, IntegerAttr):
        if attr.type == IntegerType(1):
            return attr.value.data != 0
        return attr.value.data
    if isinstance(attr, UnitAttr):
        return True
    if isinstance(attr, EnumAttribute):
        return str(attr.data)
    return attr


def is_float(t: Attribute) -> bool:
    return not isinstance(t, IntegerType | IndexType)


def signless_int(op: Operation, t: Attribute, what: str) -> IntegerType:
    if not isinstance(t, IntegerType) or t.signedness.data != Signedness.SIGNLESS:
        raise fail(op, f"{what} must be a signless integer type, got {t}")
    return t


def const_values(value: SSAValue) -> np.ndarray | None:
    """The contents of a tosa.const (or arith.constant dense) operand, or None."""
    owner = value.owner
    if isinstance(owner, ConstOp):
        return np.asarray(dense.to_numpy(owner.values)).reshape(-1)
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        return np.asarray(dense.to_numpy(owner.value)).reshape(-1)
    return None


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


def expand_axis(src: SSAValue, out_shape: Sequence[int], axis: int) -> list[Operation]:
    """tensor.expand_shape of a rank-(r-1) tensor to `out_shape` (size 1 at `axis`); a rank-0
    source goes through tensor.reshape (xDSL's expand_shape verifier rejects the empty
    reassociation MLIR accepts there)."""
    elem = lb.element_type(src)
    out_t = TensorType(elem, list(out_shape))
    rank = len(out_shape)
    if rank == 1:
        shape_t = TensorType(IndexType(), [1])
        c = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(shape_t, [1]))
        return [c, tensor.ReshapeOp(src, c.result, out_t)]
    groups: list[list[int]] = []
    for d in range(rank):
        if d == axis:
            continue
        groups.append([d])
    # the size-1 axis joins its neighbour's group (the previous one, or the first)
    if axis == 0:
        groups[0].insert(0, 0)
    else:
        next(g for g in groups if g[-1] == axis - 1).append(axis)
    reassoc = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])
    return [tensor.ExpandShapeOp(src, [], reassoc, list(out_shape), out_t)]


def reduce_along(x: SSAValue, axis: int, out_elems: Sequence[Attribute], inits: Sequence[int | float],
                 body: lb.BodyFn) -> tuple[list[Operation], list[SSAValue]]:
    """Filled accumulators of x's shape without `axis` and a generic reducing over it."""
    shape = lb.shape_of(x)
    rank = len(shape)
    red_shape = [d for i, d in enumerate(shape) if i != axis]
    ops: list[Operation] = []
    accs: list[SSAValue] = []
    for elem, init in zip(out_elems, inits):
        e = lb.empty(red_shape, elem)
        c = lb.constant(init, elem)
        f = lb.fill(c.result, e.tensor)
        ops += [e, c, f]
        accs.append(f.res[0])
    out_map = lb.map_of(rank, [d for d in range(rank) if d != axis])
    kinds = "".join("r" if d == axis else "p" for d in range(rank))
    gen = lb.generic([x], accs, [lb.identity(rank)] + [out_map] * len(accs), lb.iterators(kinds), body)
    ops.append(gen)
    return ops, list(gen.res)


# ------------------------------------------------------------------ 2.9 reductions


def _float_extreme(t: Attribute, negative: bool) -> float:
    """-inf / +inf, or the largest finite value for fp8e4m3, which has no infinity (1.9)."""
    big = 448.0 if isinstance(t, Float8E4M3FNType) else float("inf")
    return -big if negative else big


def lower_reduction(op: Operation) -> None:
    x = op.input
    shape = lb.shape_of(x)
    axis = prop(op, "axis")
    if not 0 <= axis < len(shape):
        raise fail(op, f"axis {axis} is out of range for rank {len(shape)}")
    elem = lb.element_type(x)
    fp = is_float(elem)
    nan_mode = prop(op, "nan_mode", "PROPAGATE")
    acc_t = elem
    kind = type(op)
    if kind is red.ReduceSumOp:
        # bf16 accumulates in fp32 (the acc_t of REDUCE_SUM's bf16 row), rounded once at the end
        acc_t = f32 if isinstance(elem, BFloat16Type) else elem
        init: int | float = 0

        def combine(b, v, acc):
            return b.insert(arith.AddfOp(v, acc) if fp else arith.AddiOp(v, acc)).result
    elif kind is red.ReduceProductOp:
        acc_t = f32 if isinstance(elem, BFloat16Type) else elem
        init = 1

        def combine(b, v, acc):
            return b.insert(arith.MulfOp(acc, v) if fp else arith.MuliOp(acc, v)).result
    elif kind is red.ReduceAllOp:
        init = 1

        def combine(b, v, acc):
            return b.insert(arith.AndIOp(v, acc)).result
    elif kind is red.ReduceAnyOp:
        init = 0

        def combine(b, v, acc):
            return b.insert(arith.OrIOp(v, acc)).result
    else:
        is_max = kind is red.ReduceMaxOp
        if fp:
            # spec 2.9.3/2.9.4: NaN for IGNORE (so any number replaces it), else the extreme
            init = float("nan") if nan_mode == "IGNORE" else _float_extreme(elem, is_max)
        else:
            bits = elem.width.data
            init = -(1 << (bits - 1)) if is_max else (1 << (bits - 1)) - 1
        helper = nir.apply_max_s if is_max else nir.apply_min_s

        def combine(b, v, acc):
            return helper(b, acc, v, nan_mode)  # acc = apply_max_s(acc, value, nan_mode)

    def body(b, args):
        v, acc = args
        if acc_t != elem:
            v = b.insert(arith.ExtFOp(v, acc_t)).result
        return [combine(b, v, acc)]

    ops, (res,) = reduce_along(x, axis, [acc_t], [init], body)
    if acc_t != elem:
        rshape = lb.shape_of(res)
        more, res = lb.elementwise([res], rshape, elem,
                                   lambda b, a: [b.insert(arith.TruncFOp(a[0], elem)).result])
        ops += more
    out_shape = [1 if i == axis else d for i, d in enumerate(shape)]
    exp = expand_axis(res, out_shape, axis)
    Rewriter.replace_op(op, ops + exp, [exp[-1].results[0]])


# ------------------------------------------------------------------ 2.3.1 ARGMAX


def lower_argmax(op: ArgMaxOp) -> None:
    x = op.input
    shape = lb.shape_of(x)
    axis = prop(op, "axis")
    if not 0 <= axis < len(shape):
        raise fail(op, f"axis {axis} is out of range for rank {len(shape)}")
    elem = lb.element_type(x)
    fp = is_float(elem)
    ignore = prop(op, "nan_mode", "PROPAGATE") == "IGNORE"
    if fp:
        init = float("nan") if ignore else _float_extreme(elem, True)
    else:
        init = -(1 << (elem.width.data - 1))

    def body(b: Builder, args):
        v, idx_acc, max_acc = args
        if fp:
            if ignore:
                # NaN compares below every number: take v if it is a number and beats the
                # running max (or the max is still the initial NaN)
                beats = b.insert(arith.CmpfOp(v, max_acc, "ugt")).result
                is_num = b.insert(arith.CmpfOp(v, v, "ord")).result
                take = b.insert(arith.AndIOp(beats, is_num)).result
            else:
                # NaN compares above every number; the first NaN wins, later NaNs tie
                beats = b.insert(arith.CmpfOp(v, max_acc, "ogt")).result
                v_nan = b.insert(arith.CmpfOp(v, v, "uno")).result
                max_num = b.insert(arith.CmpfOp(max_acc, max_acc, "ord")).result
                first_nan = b.insert(arith.AndIOp(v_nan, max_num)).result
                take = b.insert(arith.OrIOp(beats, first_nan)).result
        else:
            # strictly greater: ties keep the first index
            take = b.insert(arith.CmpiOp(v, max_acc, "sgt")).result
        i = b.insert(arith.IndexCastOp(index(b, axis), i32)).result
        new_idx = b.insert(arith.SelectOp(take, i, idx_acc)).result
        new_max = b.insert(arith.SelectOp(take, v, max_acc)).result
        return [new_idx, new_max]

    ops, (res, _) = reduce_along(x, axis, [i32, elem], [0, init], body)
    Rewriter.replace_op(op, ops, [res])


# ------------------------------------------------------------------ 2.13.2 RESCALE


def _scalar_or_input(op, value: SSAValue, what: str, per_channel: bool, rank: int,
                     inputs: list, maps: list) -> int | tuple[int]:
    """A compile-time int (per-tensor constant) or the position of a generic input reading
    value[c] (c = the last dim when per_channel, else 0)."""
    vals = const_values(value)
    if vals is not None and not per_channel:
        if vals.size < 1:
            raise fail(op, f"{what} is empty")
        return int(vals[0])
    inputs.append(value)
    n = len(lb.shape_of(value))
    if n != 1:
        raise fail(op, f"{what} must be a rank-1 tensor")
    maps.append(lb.map_of(rank, [rank - 1] if per_channel else [AffineConstantExpr(0)]))
    return (len(inputs) - 1,)


def lower_rescale(op: RescaleOp) -> None:
    x = op.input
    shape = lb.shape_of(x)
    rank = len(shape)
    in_t = signless_int(op, lb.element_type(x), "input")
    out_t = signless_int(op, lb.element_type(op.output), "output")
    scale32 = bool(prop(op, "scale32", False))
    per_channel = bool(prop(op, "per_channel", False))
    rounding = prop(op, "rounding_mode", "SINGLE_ROUND")
    in_u = bool(prop(op, "input_unsigned", False))
    out_u = bool(prop(op, "output_unsigned", False))
    if per_channel and rank < 1:
        raise fail(op, "per_channel needs an input of rank >= 1")
    if scale32 and in_t.width.data == 48:
        raise fail(op, "scale32 with an i48 input (ERROR_IF)")
    if not scale32 and rounding == "DOUBLE_ROUND":
        raise fail(op, "DOUBLE_ROUND needs scale32 (ERROR_IF)")
    nc = shape[-1] if per_channel else 1
    for v, what in ((op.multiplier, "multiplier"), (op.shift, "shift")):
        if lb.shape_of(v) != (nc,):
            raise fail(op, f"{what} must have shape [{nc}]")
    inputs: list[SSAValue] = [x]
    maps = [lb.identity(rank)]
    mult = _scalar_or_input(op, op.multiplier, "multiplier", per_channel, rank, inputs, maps)
    shift = _scalar_or_input(op, op.shift, "shift", per_channel, rank, inputs, maps)
    izp = _scalar_or_input(op, op.input_zp, "input_zp", False, rank, inputs, maps)
    ozp = _scalar_or_input(op, op.output_zp, "output_zp", False, rank, inputs, maps)
    if isinstance(shift, int) and not 2 <= shift <= 62:
        raise fail(op, f"shift {shift} is outside 2..62 (REQUIRE)")
    # INEXACT_ROUND is computed as SINGLE_ROUND: the spec's INEXACT_ROUND precision rule
    # (2.13.2) admits the exactly rounded result.
    double_round = scale32 and rounding == "DOUBLE_ROUND"
    in_ext = nir.zero_extend if in_u else nir.sign_extend
    out_ext = nir.zero_extend if out_u else nir.sign_extend

    def body(b: Builder, args):
        def arg(p, t):
            return p if isinstance(p, int) else args[p[0]]

        value = in_ext(b, args[0], i64)
        zp = izp if isinstance(izp, int) else None
        if zp is None:
            zp_v = in_ext(b, args[izp[0]], i64)
        else:
            # the constant is in_t's bits: extend it as the spec does
            w = in_t.width.data
            zp &= (1 << w) - 1
            if not in_u and zp >= 1 << (w - 1):
                zp -= 1 << w
            zp_v = nir.const(b, zp, i64) if zp != 0 else None
        if zp_v is not None:
            value = b.insert(arith.SubiOp(value, zp_v)).result
        m, s = arg(mult, i32), arg(shift, IntegerType(8))
        if scale32:
            result = nir.apply_scale_32(b, value, m, s, double_round)
        else:
            result = nir.apply_scale_16(b, value, m, s)
        if isinstance(ozp, int):
            w = out_t.width.data
            o = ozp & ((1 << w) - 1)
            if not out_u and o >= 1 << (w - 1):
                o -= 1 << w
            ozp_v = nir.const(b, o, i32) if o != 0 else None
        else:
            ozp_v = out_ext(b, args[ozp[0]], i32)
        if ozp_v is not None:
            result = b.insert(arith.AddiOp(result, ozp_v)).result  # apply_add_s<int32_t>
        # the clip compares as signed (as the reference model does): negatives -> 0 for
        # unsigned outputs
        if out_t.width.data >= 32:
            return [nir.sign_extend(b, result, out_t)]
        return [nir.saturate_s(b, result, out_t, unsigned=out_u)]

    init = lb.empty(shape, out_t)
    gen = lb.generic(inputs, [init.tensor], maps + [lb.identity(rank)], lb.parallel(rank), body)
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])


# ------------------------------------------------------------------ 2.5.17 TABLE


def lower_table(op: TableOp) -> None:
    x, table = op.input1, op.table
    shape = lb.shape_of(x)
    in_t = signless_int(op, lb.element_type(x), "input1")
    out_t = lb.element_type(op.output)
    n = lb.shape_of(table)
    bits = in_t.width.data
    if bits == 8:
        if n != (256,):
            raise fail(op, "an i8 table must have 256 entries")

        def body(b: Builder, args):
            v = nir.sign_extend(b, args[0], i32)
            k = b.insert(arith.AddiOp(v, nir.const(b, 128, i32))).result
            return [b.insert(tensor.ExtractOp(table, [to_index(b, k)], out_t)).result]
    elif bits == 16:
        if n != (513,):
            raise fail(op, "an i16 table must have 513 entries")

        def body(b: Builder, args):
            # spec 1.12.5 apply_lookup_s: 9.7 fixed point index, linear interpolation
            v = nir.sign_extend(b, args[0], i32)
            biased = b.insert(arith.AddiOp(v, nir.const(b, 32768, i32))).result
            k = b.insert(arith.ShRSIOp(biased, nir.const(b, 7, i32))).result
            frac = b.insert(arith.AndIOp(v, nir.const(b, 0x7F, i32))).result
            k_idx = to_index(b, k)
            k1_idx = b.insert(arith.AddiOp(k_idx, cidx(b, 1))).result
            base = nir.sign_extend(b, b.insert(tensor.ExtractOp(table, [k_idx], in_t)).result, i32)
            nxt = nir.sign_extend(b, b.insert(tensor.ExtractOp(table, [k1_idx], in_t)).result, i32)
            slope = b.insert(arith.SubiOp(nxt, base)).result
            hi = b.insert(arith.ShLIOp(base, nir.const(b, 7, i32))).result
            lo = b.insert(arith.MuliOp(slope, frac)).result
            return [nir.sign_extend(b, b.insert(arith.AddiOp(hi, lo)).result, out_t)]
    else:
        raise fail(op, f"no TABLE row for {in_t}")
    ops, res = lb.elementwise([x], shape, out_t, body)
    Rewriter.replace_op(op, ops, [res])


# ------------------------------------------------------------------ 2.11.1 GATHER


def lower_gather(op: GatherOp) -> None:
    values, indices = op.values, op.indices
    n, k, c = lb.shape_of(values)
    out_shape = lb.shape_of(op.output)
    elem = lb.element_type(values)

    def body(b: Builder, args):
        kk = to_index(b, args[0])
        v = b.insert(tensor.ExtractOp(values, [index(b, 0), kk, index(b, 2)], elem)).result
        return [v]

    init = lb.empty(out_shape, elem)
    gen = lb.generic([indices], [init.tensor], [lb.map_of(3, [0, 1]), lb.identity(3)], lb.parallel(3), body)
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])


# ------------------------------------------------------------------ 2.12.1 RESIZE


def lower_resize(op: ResizeOp) -> None:
    x = op.input
    n, ih, iw, c = lb.shape_of(x)
    out_shape = lb.shape_of(op.output)
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

    def axis_math(b: Builder, o: SSAValue, sn: int, sd: int, off: int, size: int):
        # spec 2.12.1: y = oy * scale_d + offset; iy = floor(y / scale_n); dy = y - iy * scale_n
        y = b.insert(arith.AddiOp(b.insert(arith.MuliOp(o, nir.const(b, sd, i64))).result,
                                  nir.const(b, off, i64))).result
        iy = nir.idiv_floor(b, y, nir.const(b, sn, i64))
        ry = b.insert(arith.SubiOp(y, b.insert(arith.MuliOp(iy, nir.const(b, sn, i64))).result)).result
        i0 = b.insert(arith.MaxSIOp(iy, nir.const(b, 0, i64))).result
        i1 = b.insert(arith.MinSIOp(b.insert(arith.AddiOp(iy, nir.const(b, 1, i64))).result,
                                    nir.const(b, size - 1, i64))).result
        return i0, i1, ry

    def read(b, nn, yy, xx, cc):
        return b.insert(tensor.ExtractOp(x, [nn, to_index(b, yy), to_index(b, xx), cc], in_t)).result

    def body(b: Builder, args):
        nn, cc = index(b, 0), index(b, 3)
        oy = b.insert(arith.IndexCastOp(index(b, 1), i64)).result
        ox = b.insert(arith.IndexCastOp(index(b, 2), i64)).result
        y0, y1, ry = axis_math(b, oy, syn, syd, offset[0], ih)
        x0, x1, rx = axis_math(b, ox, sxn, sxd, offset[1], iw)
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
    init = lb.empty(out_shape, out_t)
    shapes = [op.scale.owner, op.offset.owner, op.border.owner]
    gen = lb.generic([], [init.tensor], [lb.identity(4)], lb.parallel(4), body)
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])
    erase_dead_const_shapes(list(dict.fromkeys(shapes)))


# ------------------------------------------------------------------ 2.3.6 FFT2D / 2.3.9 RFFT2D


def _fft(op: Operation, real_in: SSAValue, imag_in: SSAValue | None, inverse: bool) -> None:
    n, h, w = lb.shape_of(real_in)
    out_shape = lb.shape_of(op.results[0])
    elem = lb.element_type(real_in)
    if not isinstance(elem, Float32Type | Float16Type | BFloat16Type):
        raise fail(op, f"element type {elem} is not a float type")
    sign = -1.0 if inverse else 1.0

    def body(b: Builder, args):
        # loops (n, oy, ox, iy, ix). The spec's angle a = sign * 2 pi ((iy*oy mod H)/H +
        # (ix*ox mod W)/W) = sign * 2 pi p / (H*W), with the integer phase
        # p = ((iy*oy mod H) * W + (ix*ox mod W) * H) mod (H*W). cos/sin are taken in f64 and
        # rounded to the element type; at quarter turns (4p a multiple of H*W) they are the
        # exact 0/+-1, so the terms the spec's RFFT2D skips are exactly zero here too.
        oy, ox, iy, ix = (index(b, d) for d in (1, 2, 3, 4))
        total = h * w

        def bin_(cls, x, y):
            return b.insert(cls(x, y)).result

        def part(i, o, size, other):
            r = bin_(arith.RemUIOp, bin_(arith.MuliOp, i, o), cidx(b, size))
            return bin_(arith.MuliOp, r, cidx(b, other))

        p = bin_(arith.RemUIOp, bin_(arith.AddiOp, part(iy, oy, h, w), part(ix, ox, w, h)), cidx(b, total))
        p64 = b.insert(arith.IndexCastOp(p, i64)).result
        pf = b.insert(arith.SIToFPOp(p64, f64)).result
        a = bin_(arith.MulfOp, pf, nir.const(b, sign * 2 * pymath.pi / total, f64))
        cos = b.insert(math.CosOp(a)).result
        sin = b.insert(math.SinOp(a)).result
        p4 = bin_(arith.MuliOp, p, cidx(b, 4))
        exact = b.insert(arith.CmpiOp(bin_(arith.RemUIOp, p4, cidx(b, total)), cidx(b, 0), "eq")).result
        quad = bin_(arith.DivUIOp, p4, cidx(b, total))

        def pick(q_pos: int, q_neg: int, scale: float):
            # +scale at quarter q_pos, -scale at q_neg, 0 at the other two
            pos = b.insert(arith.CmpiOp(quad, cidx(b, q_pos), "eq")).result
            neg = b.insert(arith.CmpiOp(quad, cidx(b, q_neg), "eq")).result
            v = b.insert(arith.SelectOp(neg, nir.const(b, -scale, f64), nir.const(b, 0.0, f64))).result
            return b.insert(arith.SelectOp(pos, nir.const(b, scale, f64), v)).result

        cos = b.insert(arith.SelectOp(exact, pick(0, 2, 1.0), cos)).result
        sin = b.insert(arith.SelectOp(exact, pick(1, 3, sign), sin)).result
        cos = b.insert(arith.TruncFOp(cos, elem)).result
        sin = b.insert(arith.TruncFOp(sin, elem)).result
        if imag_in is not None:
            vr, vi, acc_r, acc_i = args
        else:
            vr, acc_r, acc_i = args
            vi = None
        # sum_real += vr cos(a) + vi sin(a); sum_imag += -vr sin(a) + vi cos(a)
        re = b.insert(arith.MulfOp(vr, cos)).result
        im = b.insert(arith.NegfOp(b.insert(arith.MulfOp(vr, sin)).result)).result
        if vi is not None:
            re = b.insert(arith.AddfOp(re, b.insert(arith.MulfOp(vi, sin)).result)).result
            im = b.insert(arith.AddfOp(im, b.insert(arith.MulfOp(vi, cos)).result)).result
        return [b.insert(arith.AddfOp(acc_r, re)).result, b.insert(arith.AddfOp(acc_i, im)).result]

    ops: list[Operation] = []
    outs = []
    for _ in range(2):
        e = lb.empty(out_shape, elem)
        z = lb.constant(0.0, elem)
        f = lb.fill(z.result, e.tensor)
        ops += [e, z, f]
        outs.append(f.res[0])
    ins = [real_in] + ([imag_in] if imag_in is not None else [])
    in_map = lb.map_of(5, [0, 3, 4])
    out_map = lb.map_of(5, [0, 1, 2])
    gen = lb.generic(ins, outs, [in_map] * len(ins) + [out_map, out_map], lb.iterators("pppr" + "r"), body)
    ops.append(gen)
    Rewriter.replace_op(op, ops, list(gen.res))


def lower_fft2d(op: FFT2DOp) -> None:
    _fft(op, op.input_real, op.input_imag, bool(prop(op, "inverse", False)))


def lower_rfft2d(op: RFFT2DOp) -> None:
    _fft(op, op.input_real, None, False)


# ------------------------------------------------------------------ 2.10 REVERSE, TILE; 2.14 IDENTITY


def lower_reverse(op: ReverseOp) -> None:
    x = op.input1
    shape = lb.shape_of(x)
    axis = prop(op, "axis")
    rank = len(shape)
    if not 0 <= axis < rank:
        raise fail(op, f"axis {axis} is out of range for rank {rank}")
    exprs: list[AffineExpr] = [AffineDimExpr(d) for d in range(rank)]
    exprs[axis] = AffineDimExpr(axis) * -1 + (shape[axis] - 1)
    init = lb.empty(shape, lb.element_type(x))
    gen = lb.generic([x], [init.tensor], [lb.map_of(rank, exprs), lb.identity(rank)], lb.parallel(rank),
                     lambda b, a: [a[0]])
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])


def lower_tile(op: TileOp) -> None:
    x = op.input1
    shape = lb.shape_of(x)
    out_shape = lb.shape_of(op.output)
    rank = len(shape)
    multiples = shape_values(op, op.multiples, "multiples")
    if len(multiples) != rank or any(s * m != o for s, m, o in zip(shape, multiples, out_shape)):
        raise fail(op, f"multiples {multiples} of {list(shape)} do not give {list(out_shape)}")
    exprs: list[AffineExpr] = [AffineDimExpr(d) if m == 1 else AffineDimExpr(d) % s
                               for d, (s, m) in enumerate(zip(shape, multiples))]
    init = lb.empty(out_shape, lb.element_type(x))
    gen = lb.generic([x], [init.tensor], [lb.map_of(rank, exprs), lb.identity(rank)], lb.parallel(rank),
                     lambda b, a: [a[0]])
    shapes = [op.multiples.owner]
    Rewriter.replace_op(op, [init, gen], [gen.res[0]])
    erase_dead_const_shapes(shapes)


def lower_identity(op: IdentityOp) -> None:
    if op.input1.type != op.output.type:
        raise fail(op, f"input type {op.input1.type} differs from the result type {op.output.type}")
    Rewriter.replace_op(op, [], [op.input1])


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {
    **{cls: lower_reduction for cls in red.OPS},
    ArgMaxOp: lower_argmax,
    RescaleOp: lower_rescale,
    TableOp: lower_table,
    GatherOp: lower_gather,
    ResizeOp: lower_resize,
    FFT2DOp: lower_fft2d,
    RFFT2DOp: lower_rfft2d,
    ReverseOp: lower_reverse,
    TileOp: lower_tile,
    IdentityOp: lower_identity,
}

