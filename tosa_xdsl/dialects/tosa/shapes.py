"""The output-size rules of the operators whose result shape follows from their attributes
(spec 2.3 convolutions and pools, 2.12 RESIZE): written once, used by the verifier (the
ERROR_IF that the declared size equals the rule), `tosa-infer-shapes` (refining `?` dims) and
the interpreter (the shape it computes). Each strided rule is `idiv_check(numerator,
divisor) + 1`: the spec requires the divisor to divide the numerator; `strided_size` gives
the quotient's floor + 1, and `divides` says whether idiv_check holds."""

from __future__ import annotations


def conv_numerator(size: int, kernel: int, pad_before: int, pad_after: int, dilation: int) -> int:
    """CONV2D/CONV3D/DEPTHWISE_CONV2D: I - 1 + pad_before + pad_after - (K - 1) * dilation."""
    return size - 1 + pad_before + pad_after - (kernel - 1) * dilation


def pool_numerator(size: int, kernel: int, pad_before: int, pad_after: int) -> int:
    """AVG_POOL2D/MAX_POOL2D: I + pad_before + pad_after - kernel."""
    return size + pad_before + pad_after - kernel


def resize_numerator(size: int, scale_n: int, offset: int, border: int) -> int:
    """RESIZE: (I - 1) * scale_n - offset + border (divided by scale_d)."""
    return (size - 1) * scale_n - offset + border


def strided_size(numerator: int, divisor: int) -> int:
    """`numerator / divisor + 1`, the output size when idiv_check holds (floor otherwise)."""
    return numerator // divisor + 1


def divides(numerator: int, divisor: int) -> bool:
    """idiv_check's condition (spec 4.4.2)."""
    return divisor > 0 and numerator % divisor == 0


def transpose_conv_size(size: int, kernel: int, out_pad_before: int, out_pad_after: int,
                        stride: int) -> int:
    """TRANSPOSE_CONV2D: (I - 1) * stride + out_pad_before + out_pad_after + K."""
    return (size - 1) * stride + out_pad_before + out_pad_after + kernel
