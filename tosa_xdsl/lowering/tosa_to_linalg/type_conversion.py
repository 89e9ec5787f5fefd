"""`tosa-to-linalg` for spec 2.13.2 RESCALE (2.13.1 CAST is in linalg_elementwise.py): one
linalg.generic whose body is numerics_ir.apply_scale_32/16 + zero points + clip. A
compile-time (tosa.const) per-tensor multiplier, shift or zero point is folded into an
arith.constant; otherwise it becomes one more generic input, read per channel or at index 0.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, UnrealizedConversionCastOp, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops.type_conversion import RescaleOp
from tosa_xdsl.lowering import linalg_build as lb
from tosa_xdsl.lowering import numerics_ir as nir
from tosa_xdsl.lowering.preconditions import DynamicDims
from tosa_xdsl.lowering.tosa_to_linalg.common import fail, prop, signless_int


def _scalar_or_input(op, value: SSAValue, what: str, per_channel: bool, rank: int,
                     inputs: list, maps: list) -> int | tuple[int]:
    """A compile-time int (per-tensor constant) or the position of a generic input reading
    value[c] (c = the last dim when per_channel, else 0)."""
    vals = lb.const_values(value)
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
    shape = lb.dims_of(x)
    rank = len(shape)
    # unsigned tensors (upstream's rows): their bits, as upstream's
    # tosa-convert-integer-type-to-signless leaves them; input_unsigned / output_unsigned say
    # how the bits read, as for signless tensors
    in_t = signless_int(op, _signless(lb.element_type(x)), "input")
    out_t = signless_int(op, _signless(lb.element_type(op.output)), "output")
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
    if nc < 0:
        # a dynamic channel dim: the static per-channel parameters give its size (the verifier
        # requires multiplier and shift of shape [C]; NativeModule checks the run-time C)
        nc = lb.dims_of(op.multiplier)[0]
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

    ops: list[Operation] = []
    for i, v in enumerate(inputs):
        if _signless(lb.element_type(v)) != lb.element_type(v):
            cast = UnrealizedConversionCastOp.get([v], [lb.tensor_type(_signless(lb.element_type(v)), lb.dims_of(v))])
            ops.append(cast)
            inputs[i] = cast.results[0]
    if any(d < 0 for d in shape):  # upstream's form: tensor.empty(tensor.dim of the input)
        init_v = lb.dynamic_empty(shape, out_t, lambda d: lb.dim(x, d, ops), ops)
    else:
        init = lb.empty(shape, out_t)
        ops.append(init)
        init_v = init.tensor
    gen = lb.generic(inputs, [init_v], maps + [lb.identity(rank)], lb.parallel(rank), body)
    if out_t == lb.element_type(op.output):
        Rewriter.replace_op(op, [*ops, gen], [gen.res[0]])
        return
    back = UnrealizedConversionCastOp.get([gen.res[0]], [op.output.type])
    Rewriter.replace_op(op, [*ops, gen, back], [back.results[0]])


def _signless(t):
    """The signless integer type of the same width (others unchanged)."""
    return IntegerType(t.width.data) if isinstance(t, IntegerType) else t


LOWERINGS: dict[type[Operation], Callable[[Operation], None]] = {RescaleOp: lower_rescale}

# every dim of the input and output may be dynamic (upstream's rescale_i8_dyn_batch,
# rescale_dyn; a per-channel rescale's channel dim too: its size is the static parameters')
DYNAMIC: dict[type[Operation], DynamicDims] = {RescaleOp: DynamicDims(
    "input and output (the parameters stay static)", {("operand", 0): None, ("result", 0): None})}
