"""ERROR_IF checks of spec 2.12 Image Operators: RESIZE.

scale = [scale_y_n, scale_y_d, scale_x_n, scale_x_d], offset = [offset_y, offset_x] and
border = [border_y, border_x] are `!tosa.shape` operands: a check that needs them applies when
they come from tosa.const_shape and is skipped otherwise. Image sizes are checked on static
dims. The output-size checks also decide the idiv_check helper's condition (idiv_check#1).
"""

from __future__ import annotations

from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops.image import ResizeOp
from tosa_xdsl.ir.access import static_dim
from tosa_xdsl.verification.common import const_shape, fail
from tosa_xdsl.verification.registry import spec_check
from tosa_xdsl.verification.tensor import IDIV_CHECK, check_divided_size

MAX_IMAGE_SIZE = 16384


def _scale(op):
    return const_shape(op.scale, 4)


@spec_check(ResizeOp, "RESIZE#1")
def _resize_image_size(op):
    # spec 2.12.1 RESIZE#1: max(OH,OW,IH,IW) >= 16384
    for sym, value, axis in (("IH", op.input, 1), ("IW", op.input, 2), ("OH", op.output, 1),
                             ("OW", op.output, 2)):
        d = static_dim(value, axis)
        if d is not None and d >= MAX_IMAGE_SIZE:
            fail(op, f"{sym} = {d} must be less than {MAX_IMAGE_SIZE} (max(OH,OW,IH,IW) >= 16384)")


@spec_check(ResizeOp, "RESIZE#2")
def _resize_scale_positive(op):
    # spec 2.12.1 RESIZE#2: scale_y_n <= 0 || scale_y_d <= 0 || scale_x_n <= 0 || scale_x_d <= 0
    scale = _scale(op)
    if scale is None:
        return
    names = ("scale_y_n", "scale_y_d", "scale_x_n", "scale_x_d")
    bad = [f"{n} = {v}" for n, v in zip(names, scale) if v <= 0]
    if bad:
        fail(op, f"scale values must be positive, got {', '.join(bad)} (scale = {list(scale)})")


def _valid_scale(op):
    """The constant scale when all four values are positive (RESIZE#2 decides the rest)."""
    scale = _scale(op)
    return scale if scale is not None and all(v > 0 for v in scale) else None


@spec_check(ResizeOp, "RESIZE#3")
def _resize_scale_numerator(op):
    # spec 2.12.1 RESIZE#3: scale_y_n > (1 << 11) || scale_x_n > (1 << 11)
    scale = _scale(op)
    if scale is None:
        return
    bad = [f"{n} = {v}" for n, v in (("scale_y_n", scale[0]), ("scale_x_n", scale[2]))
           if v > (1 << 11)]
    if bad:
        fail(op, f"{', '.join(bad)} must be at most 2048 (1 << 11)")


@spec_check(ResizeOp, "RESIZE#4")
def _resize_downscale(op):
    # spec 2.12.1 RESIZE#4: scale_y_d >= 16 * scale_y_n || scale_x_d >= 16 * scale_x_n
    scale = _valid_scale(op)
    if scale is None:
        return
    for a, n, d in (("y", scale[0], scale[1]), ("x", scale[2], scale[3])):
        if d >= 16 * n:
            fail(op, f"scale_{a}_d = {d} must be less than 16 * scale_{a}_n = {16 * n} "
                     f"(downscale is limited to 1/16)")


def _offset(op, k: int, a: str) -> None:
    scale, offset = _valid_scale(op), const_shape(op.offset, 2)
    if scale is None or offset is None:
        return
    n, o = scale[2 * k], offset[k]
    if o < -n or o >= 16 * n:
        fail(op, f"offset_{a} = {o} must be in [-scale_{a}_n, 16 * scale_{a}_n) = [{-n}, {16 * n})")


@spec_check(ResizeOp, "RESIZE#5")
def _resize_offset_y(op):
    # spec 2.12.1 RESIZE#5: offset_y < -scale_y_n || offset_y >= 16 * scale_y_n
    _offset(op, 0, "y")


@spec_check(ResizeOp, "RESIZE#6")
def _resize_offset_x(op):
    # spec 2.12.1 RESIZE#6: offset_x < -scale_x_n || offset_x >= 16 * scale_x_n
    _offset(op, 1, "x")


def _border(op, k: int, a: str) -> None:
    scale, border = _valid_scale(op), const_shape(op.border, 2)
    if scale is None or border is None:
        return
    n, b = scale[2 * k], border[k]
    if b < -16 * n or b >= n:
        fail(op, f"border_{a} = {b} must be in [-16 * scale_{a}_n, scale_{a}_n) = [{-16 * n}, {n})")


@spec_check(ResizeOp, "RESIZE#7")
def _resize_border_y(op):
    # spec 2.12.1 RESIZE#7: border_y < -16 * scale_y_n || border_y >= scale_y_n
    _border(op, 0, "y")


@spec_check(ResizeOp, "RESIZE#8")
def _resize_border_x(op):
    # spec 2.12.1 RESIZE#8: border_x < -16 * scale_x_n || border_x >= scale_x_n
    _border(op, 1, "x")


def _size(op, k: int) -> None:
    scale, offset, border = _valid_scale(op), const_shape(op.offset, 2), const_shape(op.border, 2)
    i_dim, o_dim = static_dim(op.input, 1 + k), static_dim(op.output, 1 + k)
    if scale is None or offset is None or border is None or i_dim is None:
        return
    a, i_sym = ("y", "IH") if k == 0 else ("x", "IW")
    n, d, o, b = scale[2 * k], scale[2 * k + 1], offset[k], border[k]
    text = f"({i_sym} - 1) * scale_{a}_n - offset_{a} + border_{a}"
    terms = {i_sym: i_dim, f"scale_{a}_n": n, f"scale_{a}_d": d, f"offset_{a}": o,
             f"border_{a}": b}
    check_divided_size(op, f"output {('height', 'width')[k]}", o_dim, text,
                       shapes.resize_numerator(i_dim, n, o, b), f"scale_{a}_d", d, terms)


@spec_check(ResizeOp, "RESIZE#9", IDIV_CHECK)
def _resize_output_height(op):
    # spec 2.12.1 RESIZE#9: OH != idiv_check((IH - 1) * scale_y_n - offset_y + border_y, scale_y_d) + 1
    _size(op, 0)


@spec_check(ResizeOp, "RESIZE#10", IDIV_CHECK)
def _resize_output_width(op):
    # spec 2.12.1 RESIZE#10: OW != idiv_check((IW - 1) * scale_x_n - offset_x + border_x, scale_x_d) + 1
    _size(op, 1)
