"""ERROR_IF checks of spec 2.13 Type Conversion: RESCALE (CAST has no ERROR_IF in 1.0.1).

in_t / out_t are the (signless) element types of input / output; input_unsigned /
output_unsigned select the unsigned reading. Zero points are checked when they come from
tosa.const; an i16 zero point of an unsigned side is read zero-extended (dense<-32768> and
dense<32768> : tensor<1xi16> are both 32768).

Beyond the ERROR_IF lines, `_rescale_scale_arguments` checks what RESCALE's Arguments table
fixes for multiplier and shift (mul_t = i32 if scale32 else i16, shift is i8, both of length
NC = shape[rank - 1] if per_channel else 1): spec 2.2 tosa_execute_graph#3 ("operator input
tensors do not meet requirement of operator Arguments"), which the Supported Data Types check
leaves to this module.
"""

from __future__ import annotations

from tosa_xdsl.dialects.tosa.ops.type_conversion import RescaleOp
from tosa_xdsl.ir.access import rank_of, shape_of, static_dim
from tosa_xdsl.verification.common import (
    bool_attr,
    const_int,
    element,
    fail,
)
from tosa_xdsl.verification.registry import spec_check


def _flags(op) -> tuple[bool, bool]:
    return bool_attr(op, "input_unsigned"), bool_attr(op, "output_unsigned")


def _zp_may_be_nonzero(op, side: str) -> None:
    """RESCALE#1/#2: only i8 (either signedness) and unsigned i16 take a zero point."""
    t = element(getattr(op, side))
    unsigned = bool_attr(op, f"{side}_unsigned")
    if t in ("ui8", "ui16"):  # producers' unsigned storage (upstream accepts it): as i8 / u16
        t, unsigned = t[1:], True
    if t is None or t == "i8" or (t == "i16" and unsigned):
        return
    zp = const_int(getattr(op, f"{side}_zp"))
    if zp is not None and zp != 0:
        kind = "signed i16" if t == "i16" else t
        fail(op, f"{side}_zp is {zp} but must be 0 for {side} type {kind}: only i8/u8 (any "
                 f"value) and u16 (0 or 32768) take a zero point")


@spec_check(RescaleOp, "RESCALE#1")
def _rescale_input_zp(op):
    # spec 2.13.2 RESCALE#1: !is_same<in_t,i8_t>() && (!is_same<in_t,i16_t>() || input_unsigned == false) && input_zp != 0
    _zp_may_be_nonzero(op, "input")


@spec_check(RescaleOp, "RESCALE#2")
def _rescale_output_zp(op):
    # spec 2.13.2 RESCALE#2: !is_same<out_t,i8_t>() && (!is_same<out_t,i16_t>() || output_unsigned == false) && output_zp != 0
    _zp_may_be_nonzero(op, "output")


def _u16_zp(op, side: str) -> None:
    """RESCALE#3/#4: a u16 zero point is 0 or 32768."""
    t = element(getattr(op, side))
    if not (t == "ui16" or (t == "i16" and bool_attr(op, f"{side}_unsigned"))):
        return
    zp = const_int(getattr(op, f"{side}_zp"))
    if zp is None:
        return
    zp &= 0xFFFF  # zero_extend: the constant is stored as a signless i16
    if zp not in (0, 32768):
        fail(op, f"{side}_zp is {zp} but a u16 ({side}_unsigned = true, i16) zero point must be "
                 f"0 or 32768")


@spec_check(RescaleOp, "RESCALE#3")
def _rescale_input_u16_zp(op):
    # spec 2.13.2 RESCALE#3: is_same<in_t,i16_t>() && input_unsigned == true && input_zp != 0 && input_zp != 32768
    _u16_zp(op, "input")


@spec_check(RescaleOp, "RESCALE#4")
def _rescale_output_u16_zp(op):
    # spec 2.13.2 RESCALE#4: is_same<out_t,i16_t>() && output_unsigned == true && output_zp != 0 && output_zp != 32768
    _u16_zp(op, "output")


@spec_check(RescaleOp, "RESCALE#5")
def _rescale_scale32_i48(op):
    # spec 2.13.2 RESCALE#5: scale32 && is_same<in_t,i48_t>()
    if bool_attr(op, "scale32") and element(op.input) == "i48":
        fail(op, "scale32 must be false for an i48 input (a 48-bit value cannot be scaled with "
                 "the 32-bit multiplier)")


@spec_check(RescaleOp, "RESCALE#6")
def _rescale_double_round(op):
    # spec 2.13.2 RESCALE#6: !scale32 && (rounding_mode == DOUBLE_ROUND)
    if not bool_attr(op, "scale32") and str(op.rounding_mode.data) == "DOUBLE_ROUND":
        fail(op, "rounding_mode DOUBLE_ROUND requires scale32 = true")


@spec_check(RescaleOp, "RESCALE#7")
def _rescale_both_unsigned(op):
    # spec 2.13.2 RESCALE#7: input_unsigned && output_unsigned
    if all(_flags(op)):
        fail(op, "input_unsigned and output_unsigned cannot both be true")


def _unsigned_not_allowed(op, side: str, t_side: str, t: str, why: str) -> None:
    if bool_attr(op, f"{side}_unsigned") and element(getattr(op, t_side)) == t:
        fail(op, f"{side}_unsigned must be false when {t_side} type is {t} ({why})")


@spec_check(RescaleOp, "RESCALE#8")
def _rescale_out_i32_input_unsigned(op):
    # spec 2.13.2 RESCALE#8: is_same<out_t,i32_t>() && input_unsigned
    _unsigned_not_allowed(op, "input", "output", "i32", "no unsigned input to i32 output")


@spec_check(RescaleOp, "RESCALE#9")
def _rescale_in_i32_output_unsigned(op):
    # spec 2.13.2 RESCALE#9: is_same<in_t,i32_t>() && output_unsigned
    _unsigned_not_allowed(op, "output", "input", "i32", "no i32 input to unsigned output")


@spec_check(RescaleOp, "RESCALE#10")
def _rescale_in_i48_output_unsigned(op):
    # spec 2.13.2 RESCALE#10: is_same<in_t,i48_t>() && output_unsigned
    _unsigned_not_allowed(op, "output", "input", "i48", "no i48 input to unsigned output")


@spec_check(RescaleOp, "RESCALE#11")
def _rescale_u48_input(op):
    # spec 2.13.2 RESCALE#11: is_same<in_t, i48_t> && input_unsigned
    _unsigned_not_allowed(op, "input", "input", "i48", "no support for u48 inputs")


@spec_check(RescaleOp, "RESCALE#12")
def _rescale_u32_input(op):
    # spec 2.13.2 RESCALE#12: is_same<in_t, i32_t> && input_unsigned
    _unsigned_not_allowed(op, "input", "input", "i32", "no support for u32 inputs")


@spec_check(RescaleOp, "RESCALE#13", "make_unsigned#1")
def _rescale_u32_output(op):
    # spec 2.13.2 RESCALE#13: is_same<out_t, i32_t> && output_unsigned
    # (also 4.5.2 make_unsigned#1, reached only through RESCALE's minimum_u/maximum_u<out_t>
    # when output_unsigned; out_t is i8, i16 or i32 in RESCALE's table)
    _unsigned_not_allowed(op, "output", "output", "i32", "no support for u32 outputs")


@spec_check(RescaleOp, "RESCALE#14")
def _rescale_per_channel_rank(op):
    # spec 2.13.2 RESCALE#14: per_channel && rank(input) < 1
    r = rank_of(op.input)
    if bool_attr(op, "per_channel") and r is not None and r < 1:
        fail(op, f"per_channel requires an input of rank >= 1, got rank {r}")


@spec_check(RescaleOp, "tosa_execute_graph#3")
def _rescale_scale_arguments(op):
    # spec 2.2 tosa_execute_graph#3 for RESCALE's Arguments: multiplier T<mul_t>[NC] (mul_t = scale32 ? i32_t : i16_t), shift T<i8_t>[NC], NC = per_channel ? shape[rank(shape) - 1] : 1
    scale32 = bool_attr(op, "scale32")
    mul_t = "i32" if scale32 else "i16"
    got = element(op.multiplier)
    if got is not None and got != mul_t:
        fail(op, f"multiplier element type must be {mul_t} (scale32 = {str(scale32).lower()}), "
                 f"got {got}")
    got = element(op.shift)
    if got is not None and got != "i8":
        fail(op, f"shift element type must be i8, got {got}")
    per_channel = bool_attr(op, "per_channel")
    if per_channel:
        shape = shape_of(op.input)
        nc = static_dim(op.input, -1)
        why = f"per_channel: NC = input dim {len(shape) - 1}" if shape else ""
    else:
        nc, why = 1, "per_channel = false: NC = 1"
    if nc is None:
        return
    for name in ("multiplier", "shift"):
        n = static_dim(getattr(op, name), 0)
        if n is not None and n != nc:
            fail(op, f"{name} has {n} elements but must have NC = {nc} ({why})")
