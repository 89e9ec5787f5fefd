"""Rules on compile-time-constant operands that the interpreter used to meet only when it ran,
so the lowered stages accepted graphs the interpreter refuses (issue 18). Decided here when
the operand is a tosa.const / tosa.const_shape; the run-time checks stay for the rest.
Messages are upstream's (TosaOps.cpp MulOp::verify, ReshapeOp::verify); the RESIZE mode
rule is the spec's Supported Data Types table (2.12.1), whose i16 -> i48 row is BILINEAR only.
"""

from __future__ import annotations

from tosa_xdsl.dialects.tosa.ops.base import error_if_check
from tosa_xdsl.dialects.tosa.ops.data_layout import ReshapeOp
from tosa_xdsl.dialects.tosa.ops.elementwise_binary import MulOp
from tosa_xdsl.dialects.tosa.ops.image import ResizeOp
from tosa_xdsl.ir.access import element_type, is_float
from tosa_xdsl.verification.common import const_int, fail
from tosa_xdsl.verification.constants import const_shape_values


@error_if_check(MulOp)
def _mul_float_shift(op) -> None:
    # spec 2.5.14: REQUIRE(is_same<in_t,int32_t>() || shift == 0); upstream's verifier
    # rejects a constant non-zero shift on a float MUL
    if is_float(element_type(op.input1.type)):
        shift = const_int(op.shift)
        if shift is not None and shift != 0:
            fail(op, "require shift to be 0 for float type")


@error_if_check(ReshapeOp)
def _reshape_placeholders(op) -> None:
    values = const_shape_values(op.shape)
    if values is not None and sum(1 for v in values if v == -1) > 1:
        fail(op, "expected at most one target dimension to be -1")


@error_if_check(ResizeOp)
def _resize_mode_types(op) -> None:
    mode = getattr(op.properties.get("mode"), "data", None)
    mode = getattr(mode, "value", mode)
    out = element_type(op.output.type)
    if str(mode).upper().endswith("NEAREST_NEIGHBOR") and str(out) == "i48":
        fail(op, "NEAREST_NEIGHBOR mode with i48 output is not a supported combination (spec "
                 "2.12.1 Supported Data Types: signed 16, nearest is i16 -> i16; i16 -> i48 is "
                 "bilinear only)")
