"""ERROR_IF checks of spec 2.3 Tensor Operators: ARGMAX, AVG_POOL2D, CONV2D, CONV3D,
DEPTHWISE_CONV2D, FFT2D, MATMUL, MAX_POOL2D, RFFT2D, TRANSPOSE_CONV2D.

Rules (see registry.py for the id conventions):
- attributes (pad, stride, dilation, kernel, out_pad, axis) are always known and always checked;
- zero points are checked when produced by tosa.const, skipped otherwise;
- shape formulas are checked when every dim they use is static; the idiv_check part of a
  formula (spec 4.5.4, `ERROR_IF(input1 % input2 != 0)`) is an error as soon as the numerator
  is known, even when the output dim is dynamic, so those checks also decide idiv_check#1.
"""

from __future__ import annotations

from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops.tensor import (
    ArgMaxOp,
    AvgPool2DOp,
    Conv2DOp,
    Conv3DOp,
    DepthwiseConv2DOp,
    FFT2DOp,
    MatMulOp,
    MaxPool2DOp,
    RFFT2DOp,
    TransposeConv2DOp,
)
from tosa_xdsl.ir.access import DYNAMIC, format_shape, rank_of, shape_of, static_dim
from tosa_xdsl.verification.common import (
    array_attr,
    const_value,
    element,
    fail,
    first_known,
    power_of_two,
)
from tosa_xdsl.verification.registry import spec_check

IDIV_CHECK = "idiv_check#1"


# -- shared pieces ---------------------------------------------------------------------------


def zero_point_only_i8(op, zp_name: str, type_name: str, type_var: str) -> None:
    """`!is_same<type_var,i8_t>() && zp != 0`, the type read from operand `type_name`."""
    t = element(getattr(op, type_name))
    if t is None or t == "i8":
        return
    zp = const_value(getattr(op, zp_name))
    if zp is not None and zp != 0:
        fail(op, f"{zp_name} is {zp} but must be 0 for {type_var} = {t}: only i8 takes a "
                 f"zero point")


def check_divided_size(op, what: str, actual: int | None, numerator_text: str, numerator: int,
                       divisor_name: str, divisor: int, terms: dict[str, int]) -> None:
    """`actual != idiv_check(numerator, divisor) + 1` with the spec's idiv_check: a numerator
    that the divisor does not divide is an error whatever the output dim is."""
    if divisor < 1:  # decided by the op's own stride/scale condition
        return
    detail = ", ".join(f"{k} = {v}" for k, v in terms.items())
    if not shapes.divides(numerator, divisor):
        fail(op, f"{what}: {numerator_text} = {numerator} is not divisible by {divisor_name} = "
                 f"{divisor} (idiv_check; {detail})")
    expected = shapes.strided_size(numerator, divisor)
    if (actual is not None and actual != expected) or (actual is None and expected < 0):
        shown = "?" if actual is None else actual
        fail(op, f"{what} {shown} does not equal ({numerator_text}) / {divisor_name} + 1 = "
                 f"{expected} ({detail})")


def check_exact_size(op, what: str, actual: int | None, formula: str, expected: int,
                     terms: dict[str, int]) -> None:
    if (actual is not None and actual != expected) or (actual is None and expected < 0):
        detail = ", ".join(f"{k} = {v}" for k, v in terms.items())
        shown = "?" if actual is None else actual
        fail(op, f"{what} {shown} does not equal {formula} = {expected} ({detail})")


def at_least(op, name: str, values: tuple[int, ...] | None, labels: tuple[str, ...],
             minimum: int, what: str) -> None:
    if values is None:
        return
    bad = [f"{label} = {v}" for label, v in zip(labels, values) if v < minimum]
    if bad:
        fail(op, f"{what} must be >= {minimum}, got {', '.join(bad)} ({name} = {list(values)})")


PAD_2D = ("pad_top", "pad_bottom", "pad_left", "pad_right")
PAD_3D = ("pad_d0", "pad_d1") + PAD_2D
YX = ("_y", "_x")
DYX = ("_d", "_y", "_x")


def _labels(prefix: str, suffixes: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(prefix + s for s in suffixes)


# -- 2.3.1 ARGMAX ----------------------------------------------------------------------------


@spec_check(ArgMaxOp, "ARGMAX#1")
def _argmax_axis(op):
    # spec 2.3.1 ARGMAX#1: axis < 0 || axis >= rank(shape1)
    r = rank_of(op.input)
    axis = op.axis.value.data
    if r is not None and (axis < 0 or axis >= r):
        fail(op, f"axis {axis} is out of range for input of rank {r}: it must be in [0, {r - 1}]")


@spec_check(ArgMaxOp, "ARGMAX#2")
def _argmax_output_shape(op):
    # spec 2.3.1 ARGMAX#2: flatten(left_shape, right_shape) != shape
    shape1, shape = shape_of(op.input), shape_of(op.output)
    axis = op.axis.value.data
    if shape1 is None or shape is None or not 0 <= axis < len(shape1):
        return
    expected = shapes.reduce_shape(shape1, axis, keep=False)
    assert expected is not None
    if len(shape) != len(expected):
        fail(op, f"output rank {len(shape)} must be input rank - 1 = {len(expected)} (input shape "
                 f"{format_shape(shape1)} without axis {axis} is {format_shape(expected)})")
    for i, (got, want) in enumerate(zip(shape, expected)):
        if DYNAMIC not in (got, want) and got != want:
            fail(op, f"output shape {format_shape(shape)} does not equal the input shape "
                     f"{format_shape(shape1)} without axis {axis}, {format_shape(expected)} "
                     f"(dim {i}: {got} != {want})")


# -- 2.3.2 AVG_POOL2D and 2.3.8 MAX_POOL2D ---------------------------------------------------


@spec_check(AvgPool2DOp, "AVG_POOL2D#1")
def _avg_pool_input_zp(op):
    # spec 2.3.2 AVG_POOL2D#1: !is_same<in_out_t,i8_t>() && input_zp != 0
    zero_point_only_i8(op, "input_zp", "input", "in_out_t")


@spec_check(AvgPool2DOp, "AVG_POOL2D#2")
def _avg_pool_output_zp(op):
    # spec 2.3.2 AVG_POOL2D#2: !is_same<in_out_t,i8_t>() && output_zp != 0
    zero_point_only_i8(op, "output_zp", "input", "in_out_t")


@spec_check((AvgPool2DOp, MaxPool2DOp), "AVG_POOL2D#3", "MAX_POOL2D#1")
def _pool_kernel(op):
    # spec 2.3.2 AVG_POOL2D#3, 2.3.8 MAX_POOL2D#1: kernel_y < 1 || kernel_x < 1
    at_least(op, "kernel", array_attr(op, "kernel", 2), _labels("kernel", YX), 1, "kernel size")


@spec_check((AvgPool2DOp, MaxPool2DOp), "AVG_POOL2D#4", "MAX_POOL2D#2")
def _pool_stride(op):
    # spec 2.3.2 AVG_POOL2D#4, 2.3.8 MAX_POOL2D#2: stride_y < 1 || stride_x < 1
    at_least(op, "stride", array_attr(op, "stride", 2), _labels("stride", YX), 1, "stride")


@spec_check((AvgPool2DOp, MaxPool2DOp), "AVG_POOL2D#5", "MAX_POOL2D#3")
def _pool_pad(op):
    # spec 2.3.2 AVG_POOL2D#5, 2.3.8 MAX_POOL2D#3: pad_top < 0 || pad_bottom < 0 || pad_left < 0 || pad_right < 0
    at_least(op, "pad", array_attr(op, "pad", 4), PAD_2D, 0, "padding")


def _pool_pad_vs_kernel(op, pads: tuple[str, str], pad_values: tuple[int, int], kernel_name: str,
                        kernel: int) -> None:
    bad = [f"{p} = {v}" for p, v in zip(pads, pad_values) if v >= kernel]
    if bad:
        fail(op, f"padding must be less than the kernel size: {', '.join(bad)} >= "
                 f"{kernel_name} = {kernel}")


@spec_check((AvgPool2DOp, MaxPool2DOp), "AVG_POOL2D#6", "MAX_POOL2D#4")
def _pool_pad_x(op):
    # spec 2.3.2 AVG_POOL2D#6, 2.3.8 MAX_POOL2D#4: pad_right >= kernel_x || pad_left >= kernel_x
    pad, kernel = array_attr(op, "pad", 4), array_attr(op, "kernel", 2)
    _pool_pad_vs_kernel(op, ("pad_left", "pad_right"), (pad[2], pad[3]), "kernel_x", kernel[1])


@spec_check((AvgPool2DOp, MaxPool2DOp), "AVG_POOL2D#7", "MAX_POOL2D#5")
def _pool_pad_y(op):
    # spec 2.3.2 AVG_POOL2D#7, 2.3.8 MAX_POOL2D#5: pad_top >= kernel_y || pad_bottom >= kernel_y
    pad, kernel = array_attr(op, "pad", 4), array_attr(op, "kernel", 2)
    _pool_pad_vs_kernel(op, ("pad_top", "pad_bottom"), (pad[0], pad[1]), "kernel_y", kernel[0])


def _pool_size(op, axis: int) -> None:
    """OH (axis 1) / OW (axis 2) of a pool: idiv_check(I + pad_a + pad_b - kernel, stride) + 1."""
    pad, kernel, stride = (array_attr(op, "pad", 4), array_attr(op, "kernel", 2),
                           array_attr(op, "stride", 2))
    k = axis - 1
    i_dim, o_dim = static_dim(op.input, axis), static_dim(op.output, axis)
    if i_dim is None:
        return
    yx = "yx"[k]
    i_sym, pads = ("IH", ("pad_top", "pad_bottom")) if k == 0 else ("IW", ("pad_left", "pad_right"))
    text = f"{i_sym} + {pads[0]} + {pads[1]} - kernel_{yx}"
    numerator = shapes.pool_numerator(i_dim, kernel[k], pad[2 * k], pad[2 * k + 1])
    terms = {i_sym: i_dim, pads[0]: pad[2 * k], pads[1]: pad[2 * k + 1],
             f"kernel_{yx}": kernel[k], f"stride_{yx}": stride[k]}
    check_divided_size(op, f"output {('height', 'width')[k]}", o_dim, text, numerator,
                       f"stride_{yx}", stride[k], terms)


@spec_check((AvgPool2DOp, MaxPool2DOp), "AVG_POOL2D#8", "MAX_POOL2D#6", IDIV_CHECK)
def _pool_output_height(op):
    # spec 2.3.2 AVG_POOL2D#8, 2.3.8 MAX_POOL2D#6: OH != idiv_check(IH + pad_top + pad_bottom - kernel_y, stride_y) + 1
    _pool_size(op, 1)


@spec_check((AvgPool2DOp, MaxPool2DOp), "AVG_POOL2D#9", "MAX_POOL2D#7", IDIV_CHECK)
def _pool_output_width(op):
    # spec 2.3.2 AVG_POOL2D#9, 2.3.8 MAX_POOL2D#7: OW != idiv_check(IW + pad_left + pad_right - kernel_x, stride_x) + 1
    _pool_size(op, 2)


# -- 2.3.3 CONV2D, 2.3.4 CONV3D, 2.3.5 DEPTHWISE_CONV2D, 2.3.10 TRANSPOSE_CONV2D --------------

_CONVS = (Conv2DOp, Conv3DOp, DepthwiseConv2DOp, TransposeConv2DOp)
_FORWARD_CONVS = (Conv2DOp, Conv3DOp, DepthwiseConv2DOp)


def _ids(n: int, *ops) -> tuple[str, ...]:
    return tuple(f"{o.SPEC_NAME}#{n}" for o in ops)


@spec_check(_CONVS, *_ids(1, *_CONVS))
def _conv_input_zp(op):
    # spec 2.3.3 CONV2D#1, 2.3.4 CONV3D#1, 2.3.5 DEPTHWISE_CONV2D#1, 2.3.10 TRANSPOSE_CONV2D#1: !is_same<in_t,i8_t>() && input_zp != 0
    zero_point_only_i8(op, "input_zp", "input", "in_t")


@spec_check(_CONVS, *_ids(2, *_CONVS))
def _conv_weight_zp(op):
    # spec 2.3.3 CONV2D#2, 2.3.4 CONV3D#2, 2.3.5 DEPTHWISE_CONV2D#2, 2.3.10 TRANSPOSE_CONV2D#2: !is_same<weight_t,i8_t>() && weight_zp != 0
    zero_point_only_i8(op, "weight_zp", "weight", "weight_t")


def _spatial(op) -> int:
    return 3 if isinstance(op, Conv3DOp) else 2


@spec_check(_FORWARD_CONVS, *_ids(3, *_FORWARD_CONVS))
def _conv_pad(op):
    # spec 2.3.3 CONV2D#3, 2.3.5 DEPTHWISE_CONV2D#3: pad_top < 0 || pad_bottom < 0 || pad_left < 0 || pad_right < 0; 2.3.4 CONV3D#3: also pad_d0 < 0 || pad_d1 < 0
    labels = PAD_3D if _spatial(op) == 3 else PAD_2D
    at_least(op, "pad", array_attr(op, "pad", len(labels)), labels, 0, "padding")


@spec_check(_FORWARD_CONVS, *_ids(4, *_FORWARD_CONVS))
def _conv_stride(op):
    # spec 2.3.3 CONV2D#4, 2.3.5 DEPTHWISE_CONV2D#4: stride_y < 1 || stride_x < 1; 2.3.4 CONV3D#4: also stride_d < 1
    suffixes = DYX if _spatial(op) == 3 else YX
    at_least(op, "stride", array_attr(op, "stride", len(suffixes)), _labels("stride", suffixes),
             1, "stride")


@spec_check(_FORWARD_CONVS, *_ids(5, *_FORWARD_CONVS))
def _conv_dilation(op):
    # spec 2.3.3 CONV2D#5, 2.3.5 DEPTHWISE_CONV2D#5: dilation_y < 1 || dilation_x < 1; 2.3.4 CONV3D#5: also dilation_d < 1
    suffixes = DYX if _spatial(op) == 3 else YX
    at_least(op, "dilation", array_attr(op, "dilation", len(suffixes)),
             _labels("dilation", suffixes), 1, "dilation")


# Per spatial axis of a forward convolution: (name of the output dim, input symbol, kernel
# symbol, pad symbols, attribute suffix).
_AXES_2D = (("height", "IH", "KH", ("pad_top", "pad_bottom"), "y"),
            ("width", "IW", "KW", ("pad_left", "pad_right"), "x"))
_AXES_3D = (("depth", "ID", "KD", ("pad_d0", "pad_d1"), "d"),) + _AXES_2D


def _kernel_dim(op, k: int) -> int | None:
    """The kernel size of spatial axis k: weight [OC,KH,KW,IC] / [OC,KD,KH,KW,IC] /
    depthwise [KH,KW,C,M]."""
    if isinstance(op, DepthwiseConv2DOp):
        return static_dim(op.weight, k)
    return static_dim(op.weight, 1 + k)


def _conv_size(op, k: int) -> None:
    axes = _AXES_3D if _spatial(op) == 3 else _AXES_2D
    n = len(axes)
    pad, stride, dilation = (array_attr(op, "pad", 2 * n), array_attr(op, "stride", n),
                             array_attr(op, "dilation", n))
    what, i_sym, k_sym, pads, s = axes[k]
    i_dim, k_dim, o_dim = static_dim(op.input, 1 + k), _kernel_dim(op, k), static_dim(op.output, 1 + k)
    if i_dim is None or k_dim is None or dilation[k] < 1:
        return
    text = f"{i_sym} - 1 + {pads[0]} + {pads[1]} - ({k_sym} - 1) * dilation_{s}"
    numerator = shapes.conv_numerator(i_dim, k_dim, pad[2 * k], pad[2 * k + 1], dilation[k])
    terms = {i_sym: i_dim, k_sym: k_dim, pads[0]: pad[2 * k], pads[1]: pad[2 * k + 1],
             f"dilation_{s}": dilation[k], f"stride_{s}": stride[k]}
    check_divided_size(op, f"output {what}", o_dim, text, numerator, f"stride_{s}", stride[k],
                       terms)


@spec_check(Conv3DOp, "CONV3D#6", IDIV_CHECK)
def _conv3d_output_depth(op):
    # spec 2.3.4 CONV3D#6: OD != idiv_check(ID - 1 + pad_d0 + pad_d1 - (KD - 1) * dilation_d, stride_d) + 1
    _conv_size(op, 0)


@spec_check(_FORWARD_CONVS, "CONV2D#6", "CONV3D#7", "DEPTHWISE_CONV2D#6", IDIV_CHECK)
def _conv_output_height(op):
    # spec 2.3.3 CONV2D#6, 2.3.4 CONV3D#7, 2.3.5 DEPTHWISE_CONV2D#6: OH != idiv_check(IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y, stride_y) + 1
    _conv_size(op, _spatial(op) - 2)


@spec_check(_FORWARD_CONVS, "CONV2D#7", "CONV3D#8", "DEPTHWISE_CONV2D#7", IDIV_CHECK)
def _conv_output_width(op):
    # spec 2.3.3 CONV2D#7, 2.3.4 CONV3D#8, 2.3.5 DEPTHWISE_CONV2D#7: OW != idiv_check(IW - 1 + pad_left + pad_right - (KW - 1) * dilation_x, stride_x) + 1
    _conv_size(op, _spatial(op) - 1)


@spec_check((Conv2DOp, Conv3DOp, TransposeConv2DOp), "CONV2D#8", "CONV3D#9", "TRANSPOSE_CONV2D#8")
def _conv_bias(op):
    # spec 2.3.3 CONV2D#8, 2.3.4 CONV3D#9, 2.3.10 TRANSPOSE_CONV2D#8: BC != OC && BC != 1
    bc = static_dim(op.bias, 0)
    oc = first_known(static_dim(op.output, -1), static_dim(op.weight, 0))
    if bc is not None and oc is not None and bc != oc and bc != 1:
        fail(op, f"bias has {bc} elements (BC) but must have OC = {oc} or 1")


@spec_check(DepthwiseConv2DOp, "DEPTHWISE_CONV2D#8")
def _depthwise_bias(op):
    # spec 2.3.5 DEPTHWISE_CONV2D#8: BC != C*M && BC != 1
    bc = static_dim(op.bias, 0)
    c, m = first_known(static_dim(op.input, 3), static_dim(op.weight, 2)), static_dim(op.weight, 3)
    cm = first_known(static_dim(op.output, 3), c * m if c is not None and m is not None else None)
    if bc is not None and cm is not None and bc != cm and bc != 1:
        fail(op, f"bias has {bc} elements (BC) but must have C*M = {cm} or 1")


@spec_check(TransposeConv2DOp, "TRANSPOSE_CONV2D#3")
def _transpose_conv_out_pad_y(op):
    # spec 2.3.10 TRANSPOSE_CONV2D#3: out_pad_top <= -KH || out_pad_bottom <= -KH
    out_pad, kh = array_attr(op, "out_pad", 4), static_dim(op.weight, 1)
    if kh is None:
        return
    bad = [f"{n} = {v}" for n, v in zip(("out_pad_top", "out_pad_bottom"), out_pad[:2]) if v <= -kh]
    if bad:
        fail(op, f"{', '.join(bad)} must be greater than -KH = {-kh}")


@spec_check(TransposeConv2DOp, "TRANSPOSE_CONV2D#4")
def _transpose_conv_out_pad_x(op):
    # spec 2.3.10 TRANSPOSE_CONV2D#4: out_pad_left <= -KW || out_pad_right <= -KW
    out_pad, kw = array_attr(op, "out_pad", 4), static_dim(op.weight, 2)
    if kw is None:
        return
    bad = [f"{n} = {v}" for n, v in zip(("out_pad_left", "out_pad_right"), out_pad[2:]) if v <= -kw]
    if bad:
        fail(op, f"{', '.join(bad)} must be greater than -KW = {-kw}")


@spec_check(TransposeConv2DOp, "TRANSPOSE_CONV2D#5")
def _transpose_conv_stride(op):
    # spec 2.3.10 TRANSPOSE_CONV2D#5: stride_y < 1 || stride_x < 1
    at_least(op, "stride", array_attr(op, "stride", 2), _labels("stride", YX), 1, "stride")


def _transpose_conv_size(op, k: int) -> None:
    out_pad, stride = array_attr(op, "out_pad", 4), array_attr(op, "stride", 2)
    what, i_sym, k_sym, _, s = _AXES_2D[k]
    pads = (("out_pad_top", "out_pad_bottom"), ("out_pad_left", "out_pad_right"))[k]
    i_dim, k_dim, o_dim = static_dim(op.input, 1 + k), static_dim(op.weight, 1 + k), static_dim(op.output, 1 + k)
    if i_dim is None or k_dim is None:
        return
    expected = shapes.transpose_conv_size(i_dim, k_dim, out_pad[2 * k], out_pad[2 * k + 1], stride[k])
    terms = {i_sym: i_dim, k_sym: k_dim, f"stride_{s}": stride[k], pads[0]: out_pad[2 * k],
             pads[1]: out_pad[2 * k + 1]}
    check_exact_size(op, f"output {what}", o_dim,
                     f"({i_sym} - 1) * stride_{s} + {pads[0]} + {pads[1]} + {k_sym}", expected, terms)


@spec_check(TransposeConv2DOp, "TRANSPOSE_CONV2D#6")
def _transpose_conv_output_height(op):
    # spec 2.3.10 TRANSPOSE_CONV2D#6: OH != (IH - 1) * stride_y + out_pad_top + out_pad_bottom + KH
    _transpose_conv_size(op, 0)


@spec_check(TransposeConv2DOp, "TRANSPOSE_CONV2D#7")
def _transpose_conv_output_width(op):
    # spec 2.3.10 TRANSPOSE_CONV2D#7: OW != (IW - 1) * stride_x + out_pad_left + out_pad_right + KW
    _transpose_conv_size(op, 1)


# -- 2.3.6 FFT2D, 2.3.9 RFFT2D ---------------------------------------------------------------


def _fft_power_of_two(op, axis: int, names: tuple[str, ...]) -> None:
    sym = "HW"[axis - 1]
    for name in names:
        d = static_dim(getattr(op, name), axis)
        if d is not None and not power_of_two(d):
            fail(op, f"{sym} = {d} ({name} dim {axis}) must be a power of two")


@spec_check((FFT2DOp, RFFT2DOp), "FFT2D#1", "RFFT2D#1")
def _fft_height(op):
    # spec 2.3.6 FFT2D#1, 2.3.9 RFFT2D#1: !power_of_two(H)
    names = (("input_real", "input_imag", "output_real", "output_imag") if isinstance(op, FFT2DOp)
             else ("input_real", "output_real", "output_imag"))
    _fft_power_of_two(op, 1, names)


@spec_check((FFT2DOp, RFFT2DOp), "FFT2D#2", "RFFT2D#2")
def _fft_width(op):
    # spec 2.3.6 FFT2D#2, 2.3.9 RFFT2D#2: !power_of_two(W)
    # (RFFT2D's outputs are [N,H,W/2+1]: only input_real carries W)
    names = (("input_real", "input_imag", "output_real", "output_imag") if isinstance(op, FFT2DOp)
             else ("input_real",))
    _fft_power_of_two(op, 2, names)


# -- 2.3.7 MATMUL ----------------------------------------------------------------------------


@spec_check(MatMulOp, "MATMUL#1")
def _matmul_zero_points(op):
    # spec 2.3.7 MATMUL#1: is_same<in_t,i8_t> && (A_zp != 0 || B_zp != 0)
    # The 1.0.1 text lacks the `!` every sibling has (CONV2D#1, AVG_POOL2D#1); the Arguments
    # table says "Must be zero for non-int8 types" and the reference model agrees: checked as
    # !is_same<in_t,i8_t>() && (A_zp != 0 || B_zp != 0).
    zero_point_only_i8(op, "a_zp", "a", "in_t")
    zero_point_only_i8(op, "b_zp", "b", "in_t")
