"""Each pre-1.0 op spelling, upgraded to 1.0.1 and run by the interpreter, against numpy
written from the pre-1.0 specification's pseudo-code (../shared/spec/tosa-pre-1.0-spec.txt,
section numbers below), never from our own output.

The spellings are those MLIR printed: generic with I64ArrayAttr lists and dictionary
quantization_info (LLVM 14), `#tosa.*_quant<...>` (LLVM 15-18), `<{...}>` properties (LLVM 17)
and LLVM 18's `operands attr-dict : functional-type` custom form.
"""

from __future__ import annotations

import numpy as np
import pytest

from tosa_xdsl.frontends.legacy import upgrade_text
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(17)


def run_old(text: str, *inputs: np.ndarray) -> list[np.ndarray]:
    module = upgrade_text(text)
    return [np.asarray(r) for r in run(module, list(inputs))]


def ops_of(text: str) -> list[str]:
    return [op.name for op in upgrade_text(text).walk() if op.name.startswith("tosa.")]


def apply_scale_32(value: np.ndarray, multiplier: int, shift: int, double_round: bool) -> np.ndarray:
    """Pre-1.0 spec 1.7 apply_scale_32, on int64 numpy arrays."""
    v = value.astype(np.int64)
    rnd = np.full(v.shape, 1 << (shift - 1), np.int64)
    if double_round and shift > 31:
        rnd = np.where(v >= 0, rnd + (1 << 30), rnd - (1 << 30))
    return (v * multiplier + rnd) >> shift


# ---------------------------------------------------------------- 2.3.6 FULLY_CONNECTED


def test_fully_connected_f32_is_reshape_conv2d_reshape():
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    w = RNG.standard_normal((4, 3)).astype(np.float32)
    b = RNG.standard_normal(4).astype(np.float32)
    text = """
func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = tosa.fully_connected %x, %w, %b : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}"""
    (out,) = run_old(text, x, w, b)
    # 2.3.6: acc = bias[oc] + sum_ic input[n,ic] * weight[oc,ic]
    np.testing.assert_allclose(out, x @ w.T + b, rtol=1e-6)
    assert [n for n in ops_of(text) if n != "tosa.const_shape"] == [
        "tosa.reshape", "tosa.reshape", "tosa.const", "tosa.const", "tosa.conv2d", "tosa.reshape"]


def test_fully_connected_int8_conv_quant_zero_points():
    x = RNG.integers(-128, 128, (3, 5)).astype(np.int8)
    w = RNG.integers(-128, 128, (2, 5)).astype(np.int8)
    b = RNG.integers(-1000, 1000, 2).astype(np.int32)
    text = """
func.func @main(%x: tensor<3x5xi8>, %w: tensor<2x5xi8>, %b: tensor<2xi32>) -> tensor<3x2xi32> {
  %0 = "tosa.fully_connected"(%x, %w, %b) {quantization_info = #tosa.conv_quant<input_zp = -7, weight_zp = 3>} : (tensor<3x5xi8>, tensor<2x5xi8>, tensor<2xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}"""
    (out,) = run_old(text, x, w, b)
    expected = (x.astype(np.int64) + 7) @ (w.astype(np.int64) - 3).T + b
    np.testing.assert_array_equal(out, expected)


# ------------------------------------------------------------------------- 2.3.3 CONV2D


@pytest.mark.parametrize("quant", [
    "#tosa.conv_quant<input_zp = 5, weight_zp = -2>",  # LLVM 15-18
    "{input_zp = 5 : i32, weight_zp = -2 : i32}",       # LLVM 14 struct attribute
])
def test_conv2d_quantization_info_becomes_zero_point_operands(quant: str):
    x = RNG.integers(-128, 128, (1, 4, 4, 2)).astype(np.int8)
    w = RNG.integers(-128, 128, (3, 1, 1, 2)).astype(np.int8)
    b = np.array([1, -2, 3], np.int32)
    text = f"""
func.func @main(%x: tensor<1x4x4x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x4x4x3xi32> {{
  %0 = "tosa.conv2d"(%x, %w, %b) {{dilation = [1, 1], pad = [0, 0, 0, 0], quantization_info = {quant}, stride = [1, 1]}} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi32>
  return %0 : tensor<1x4x4x3xi32>
}}"""
    (out,) = run_old(text, x, w, b)
    expected = np.einsum("nhwc,oc->nhwo", x.astype(np.int64) - 5, w[:, 0, 0, :].astype(np.int64) + 2) + b
    np.testing.assert_array_equal(out, expected)


def test_transpose_conv2d_drops_out_shape():
    x = RNG.standard_normal((1, 2, 2, 1)).astype(np.float32)
    w = RNG.standard_normal((1, 2, 2, 1)).astype(np.float32)
    b = np.zeros(1, np.float32)
    text = """
func.func @main(%x: tensor<1x2x2x1xf32>, %w: tensor<1x2x2x1xf32>, %b: tensor<1xf32>) -> tensor<1x4x4x1xf32> {
  %0 = tosa.transpose_conv2d %x, %w, %b {out_pad = array<i64: 0, 0, 0, 0>, out_shape = array<i64: 1, 4, 4, 1>, stride = array<i64: 2, 2>} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}"""
    (out,) = run_old(text, x, w, b)
    expected = np.zeros((1, 4, 4, 1), np.float32)
    for iy in range(2):
        for ix in range(2):
            for ky in range(2):
                for kx in range(2):
                    expected[0, iy * 2 + ky, ix * 2 + kx, 0] += x[0, iy, ix, 0] * w[0, ky, kx, 0]
    np.testing.assert_allclose(out, expected, rtol=1e-6)


# ------------------------------------------------------------------------- 2.3.7 MATMUL


def test_matmul_quant():
    a = RNG.integers(-128, 128, (1, 2, 3)).astype(np.int8)
    b = RNG.integers(-128, 128, (1, 3, 4)).astype(np.int8)
    text = """
func.func @main(%a: tensor<1x2x3xi8>, %b: tensor<1x3x4xi8>) -> tensor<1x2x4xi32> {
  %0 = "tosa.matmul"(%a, %b) <{quantization_info = #tosa.matmul_quant<a_zp = 1, b_zp = -1>}> : (tensor<1x2x3xi8>, tensor<1x3x4xi8>) -> tensor<1x2x4xi32>
  return %0 : tensor<1x2x4xi32>
}"""
    (out,) = run_old(text, a, b)
    np.testing.assert_array_equal(out, (a.astype(np.int64) - 1) @ (b.astype(np.int64) + 1))


# -------------------------------------------------------------------------- 2.4.1 CLAMP


def test_clamp_min_int_max_int_on_int8():
    x = np.arange(-128, 128, dtype=np.int8).reshape(16, 16)
    text = """
func.func @main(%x: tensor<16x16xi8>) -> tensor<16x16xi8> {
  %0 = "tosa.clamp"(%x) {max_fp = 3.40282347E+38 : f32, max_int = 100 : i64, min_fp = 0.0 : f32, min_int = -5 : i64} : (tensor<16x16xi8>) -> tensor<16x16xi8>
  return %0 : tensor<16x16xi8>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, np.clip(x, -5, 100))


def test_clamp_out_of_type_range_int_bounds_are_saturated():
    # LLVM-era graphs wrote min_int = -2147483648 on i8 clamps: values outside the type
    # can never be reached, so the 1.0 bound is the type's limit (same results).
    x = np.arange(-128, 128, dtype=np.int8)
    text = """
func.func @main(%x: tensor<256xi8>) -> tensor<256xi8> {
  %0 = tosa.clamp %x {max_fp = 6.0 : f32, max_int = 2147483647 : i64, min_fp = 0.0 : f32, min_int = -2147483648 : i64} : (tensor<256xi8>) -> tensor<256xi8>
  return %0 : tensor<256xi8>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, x)


def test_clamp_min_fp_max_fp_on_f16():
    x = np.linspace(-10, 10, 21).astype(np.float16)
    text = """
func.func @main(%x: tensor<21xf16>) -> tensor<21xf16> {
  %0 = tosa.clamp %x {max_fp = 6.0 : f32, max_int = 6 : i64, min_fp = 0.0 : f32, min_int = 0 : i64} : (tensor<21xf16>) -> tensor<21xf16>
  return %0 : tensor<21xf16>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, np.clip(x, 0, 6))


def test_relun_is_clamp_from_zero():
    x = np.linspace(-3, 9, 13).astype(np.float32)
    text = """
func.func @main(%x: tensor<13xf32>) -> tensor<13xf32> {
  %0 = "tosa.reluN"(%x) {max_fp = 6.0 : f32, max_int = 6 : i64} : (tensor<13xf32>) -> tensor<13xf32>
  return %0 : tensor<13xf32>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, np.clip(x, 0, 6))


# ------------------------------------------------------------------------ 2.13.2 RESCALE


@pytest.mark.parametrize("double_round", [False, True])
def test_rescale_attributes_and_double_round(double_round: bool):
    x = np.concatenate([RNG.integers(-(2**31), 2**31 - 1, 60), [0, -1, 1, 2**31 - 1]]).astype(np.int32)
    multiplier, shift = 1518500250, 37  # shift > 31: double rounding matters
    dr = "true" if double_round else "false"
    text = f"""
func.func @main(%x: tensor<64xi32>) -> tensor<64xi8> {{
  %0 = "tosa.rescale"(%x) {{double_round = {dr}, input_zp = 0 : i32, multiplier = [{multiplier} : i32], output_zp = -3 : i32, per_channel = false, scale32 = true, shift = [{shift} : i32]}} : (tensor<64xi32>) -> tensor<64xi8>
  return %0 : tensor<64xi8>
}}"""
    (out,) = run_old(text, x)
    scaled = apply_scale_32(x, multiplier, shift, double_round)
    expected = np.clip(scaled - 3, -128, 127).astype(np.int8)
    np.testing.assert_array_equal(out, expected)


def test_rescale_per_channel_dense_arrays_int8_zero_points():
    x = RNG.integers(-128, 128, (4, 3)).astype(np.int8)
    mult, shifts = [1073741824, 1518500250, 2000000000], [30, 31, 33]
    text = """
func.func @main(%x: tensor<4x3xi8>) -> tensor<4x3xi8> {
  %0 = tosa.rescale %x {double_round = false, input_zp = 7 : i32, multiplier = array<i32: 1073741824, 1518500250, 2000000000>, output_zp = -9 : i32, per_channel = true, scale32 = true, shift = array<i8: 30, 31, 33>} : (tensor<4x3xi8>) -> tensor<4x3xi8>
  return %0 : tensor<4x3xi8>
}"""
    (out,) = run_old(text, x)
    expected = np.empty_like(x)
    for c in range(3):
        v = apply_scale_32(x[:, c].astype(np.int64) - 7, mult[c], shifts[c], False)
        expected[:, c] = np.clip(v - 9, -128, 127)
    np.testing.assert_array_equal(out, expected)


def test_rescale_scale16():
    x = RNG.integers(-(2**15), 2**15, 32).astype(np.int16)
    text = """
func.func @main(%x: tensor<32xi16>) -> tensor<32xi8> {
  %0 = "tosa.rescale"(%x) {double_round = false, input_zp = 0 : i32, multiplier = [19005 : i32], output_zp = 0 : i32, per_channel = false, scale32 = false, shift = [22 : i32]} : (tensor<32xi16>) -> tensor<32xi8>
  return %0 : tensor<32xi8>
}"""
    (out,) = run_old(text, x)
    v = (x.astype(np.int64) * 19005 + (1 << 21)) >> 22  # 1.7 apply_scale_16
    np.testing.assert_array_equal(out, np.clip(v, -128, 127))


# ------------------------------------------------------------------------ 2.5.14 MUL, INTDIV


def test_mul_shift_attribute_i32():
    a = RNG.integers(-(2**15), 2**15, 16).astype(np.int32)
    b = RNG.integers(-(2**15), 2**15, 16).astype(np.int32)
    text = """
func.func @main(%a: tensor<16xi32>, %b: tensor<16xi32>) -> tensor<16xi32> {
  %0 = "tosa.mul"(%a, %b) {shift = 5 : i32} : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
  return %0 : tensor<16xi32>
}"""
    (out,) = run_old(text, a, b)
    np.testing.assert_array_equal(out, apply_scale_32(a.astype(np.int64) * b, 1, 5, False))


def test_mul_f32_llvm18_form():
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    b = RNG.standard_normal((1, 3)).astype(np.float32)
    text = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}"""
    (out,) = run_old(text, a, b)
    np.testing.assert_array_equal(out, a * b)


def test_div_becomes_intdiv_truncating():
    a = np.array([7, -7, 7, -7, 0, 100], np.int32)
    b = np.array([2, 2, -2, -2, 3, 7], np.int32)
    text = """
func.func @main(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %0 = "tosa.div"(%a, %b) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}"""
    (out,) = run_old(text, a, b)
    np.testing.assert_array_equal(out, np.trunc(a / b).astype(np.int32))  # 2.5.6 INTDIV
    assert "tosa.intdiv" in ops_of(text)


def test_negate_unary_quant():
    x = np.arange(-128, 128, dtype=np.int8)
    text = """
func.func @main(%x: tensor<256xi8>) -> tensor<256xi8> {
  %0 = "tosa.negate"(%x) {quantization_info = #tosa.unary_quant<input_zp = 3, output_zp = -4>} : (tensor<256xi8>) -> tensor<256xi8>
  return %0 : tensor<256xi8>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, np.clip(-(x.astype(np.int64) - 3) - 4, -128, 127))  # 2.6.9


# ----------------------------------------------------------------- 2.10 data layout ops


def test_reshape_new_shape_with_inferred_extent():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    text = """
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = "tosa.reshape"(%x) {new_shape = [-1, 4]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, x.reshape(-1, 4))


def test_slice_start_size_and_tile_multiples():
    x = np.arange(20, dtype=np.int32).reshape(4, 5)
    text = """
func.func @main(%x: tensor<4x5xi32>) -> tensor<4x6xi32> {
  %0 = "tosa.slice"(%x) {size = [2, 3], start = [1, 2]} : (tensor<4x5xi32>) -> tensor<2x3xi32>
  %1 = tosa.tile %0 {multiples = array<i64: 2, 2>} : (tensor<2x3xi32>) -> tensor<4x6xi32>
  return %1 : tensor<4x6xi32>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, np.tile(x[1:3, 2:5], (2, 2)))


def test_pad_tensor_padding_and_pad_quant_value():
    x = RNG.integers(-128, 128, (2, 3)).astype(np.int8)
    text = """
func.func @main(%x: tensor<2x3xi8>) -> tensor<5x4xi8> {
  %p = "tosa.const"() {value = dense<[[1, 2], [0, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tosa.pad"(%x, %p) {quantization_info = #tosa.pad_quant<input_zp = -42>} : (tensor<2x3xi8>, tensor<2x2xi32>) -> tensor<5x4xi8>
  return %0 : tensor<5x4xi8>
}"""
    (out,) = run_old(text, x)
    # 2.10.2 with pad_const = input_zp (MLIR's PAD with quantization_info and no pad_const)
    np.testing.assert_array_equal(out, np.pad(x, [[1, 2], [0, 1]], constant_values=-42))
    assert "tosa.const_shape" in ops_of(text)


def test_pad_with_scalar_pad_const_operand():
    x = np.ones((2, 2), np.float32)
    text = """
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x4xf32> {
  %p = "tosa.const"() {value = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %c = "tosa.const"() {value = dense<3.5> : tensor<f32>} : () -> tensor<f32>
  %0 = tosa.pad %x, %p, %c : (tensor<2x2xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, np.pad(x, [[0, 0], [1, 1]], constant_values=3.5))


def test_transpose_perms_tensor_becomes_attribute():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    text = """
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %p = "tosa.const"() {value = dense<[2, 0, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tosa.transpose"(%x, %p) : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, x.transpose(2, 0, 1))
    assert "tosa.const" not in ops_of(text)  # the perms constant is gone with its only user


# ------------------------------------------------------------------ 2.9 reductions, ARGMAX


def test_reduce_prod_and_argmax_without_nan_mode():
    x = RNG.integers(1, 4, (3, 4)).astype(np.float32)
    f = RNG.standard_normal((3, 4)).astype(np.float32)
    text = """
func.func @main(%x: tensor<3x4xf32>, %f: tensor<3x4xf32>) -> (tensor<1x4xf32>, tensor<4xi32>, tensor<3x1xf32>) {
  %0 = "tosa.reduce_prod"(%x) {axis = 0 : i64} : (tensor<3x4xf32>) -> tensor<1x4xf32>
  %1 = "tosa.argmax"(%f) {axis = 0 : i64} : (tensor<3x4xf32>) -> tensor<4xi32>
  %2 = "tosa.reduce_max"(%f) {axis = 1 : i64} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  return %0, %1, %2 : tensor<1x4xf32>, tensor<4xi32>, tensor<3x1xf32>
}"""
    prod, arg, mx = run_old(text, x, f)
    np.testing.assert_array_equal(prod, np.prod(x, axis=0, keepdims=True))
    np.testing.assert_array_equal(arg, np.argmax(f, axis=0))
    np.testing.assert_array_equal(mx, f.max(axis=1, keepdims=True))
    module = upgrade_text(text)
    modes = [str(op.properties.get("nan_mode")) for op in module.walk() if op.name in ("tosa.argmax", "tosa.reduce_max")]
    assert modes and all("PROPAGATE" in m for m in modes)


# ---------------------------------------------------------------------------- 2.12.1 RESIZE


def old_resize(x: np.ndarray, oh: int, ow: int, stride, offset, shift: int, mode: str) -> np.ndarray:
    """2.12.1 RESIZE of the pre-1.0 spec, integer (shift > 0) or float (shift == 0)."""
    n, ih, iw, c = x.shape
    is_float = shift == 0
    unit = 1.0 if is_float else (1 << shift)
    out = np.zeros((n, oh, ow, c), np.float64 if is_float else np.int64)
    for oy in range(oh):
        for ox in range(ow):
            y, xx = oy * stride[0] + offset[0], ox * stride[1] + offset[1]
            if is_float:
                iy, ix = int(np.floor(y)), int(np.floor(xx))
                dy, dx = y - iy, xx - ix
            else:
                iy, ix = y >> shift, xx >> shift
                dy, dx = y - (iy << shift), xx - (ix << shift)
            iy0, iy1 = max(iy, 0), min(iy + 1, ih - 1)
            ix0, ix1 = max(ix, 0), min(ix + 1, iw - 1)
            if mode == "BILINEAR":
                v = x.astype(out.dtype)
                acc = v[:, iy0, ix0] * (unit - dy) * (unit - dx) + v[:, iy0, ix1] * (unit - dy) * dx
                acc = acc + v[:, iy1, ix0] * dy * (unit - dx) + v[:, iy1, ix1] * dy * dx
                out[:, oy, ox] = acc
            else:
                out[:, oy, ox] = x[:, iy1 if dy >= unit / 2 else iy0, ix1 if dx >= unit / 2 else ix0]
    return out


@pytest.mark.parametrize("mode", ["BILINEAR", "NEAREST_NEIGHBOR"])
def test_resize_old_integer_stride_offset_shift(mode: str):
    x = RNG.integers(-128, 128, (1, 3, 4, 2)).astype(np.int8)
    out_t = "i32" if mode == "BILINEAR" else "i8"
    text = f"""
func.func @main(%x: tensor<1x3x4x2xi8>) -> tensor<1x5x7x2x{out_t}> {{
  %0 = "tosa.resize"(%x) {{mode = "{mode}", offset = [0, 0], offset_fp = [0.0 : f32, 0.0 : f32], output_size = [5, 7], shift = 10 : i32, stride = [512, 512], stride_fp = [0.0 : f32, 0.0 : f32]}} : (tensor<1x3x4x2xi8>) -> tensor<1x5x7x2x{out_t}>
  return %0 : tensor<1x5x7x2x{out_t}>
}}"""
    (out,) = run_old(text, x)
    expected = old_resize(x, 5, 7, (512, 512), (0, 0), 10, "BILINEAR" if mode == "BILINEAR" else "NEAREST")
    np.testing.assert_array_equal(out, expected)


def test_resize_old_float_stride_fp():
    x = RNG.standard_normal((1, 2, 3, 1)).astype(np.float32)
    text = """
func.func @main(%x: tensor<1x2x3x1xf32>) -> tensor<1x4x6x1xf32> {
  %0 = "tosa.resize"(%x) {mode = "BILINEAR", offset = [0, 0], offset_fp = [0.0 : f32, 0.0 : f32], output_size = [4, 6], shift = 0 : i32, stride = [0, 0], stride_fp = [0.5 : f32, 0.5 : f32]} : (tensor<1x2x3x1xf32>) -> tensor<1x4x6x1xf32>
  return %0 : tensor<1x4x6x1xf32>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_allclose(out, old_resize(x, 4, 6, (0.5, 0.5), (0.0, 0.0), 0, "BILINEAR"), rtol=1e-6)


def test_resize_llvm18_scale_offset_border_attributes():
    x = RNG.standard_normal((1, 2, 2, 1)).astype(np.float32)
    text = """
func.func @main(%x: tensor<1x2x2x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = tosa.resize %x {border = array<i64: 0, 0>, mode = "NEAREST_NEIGHBOR", offset = array<i64: 0, 0>, scale = array<i64: 2, 1, 2, 1>} : (tensor<1x2x2x1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}"""
    (out,) = run_old(text, x)
    # scale 2/1 with offset 0 is the old stride 1/2 (stride_fp 0.5)
    np.testing.assert_array_equal(out, old_resize(x, 3, 3, (0.5, 0.5), (0.0, 0.0), 0, "NEAREST"))


# -------------------------------------------------------- 2.14 data nodes, quant types, misc


def test_const_value_and_quant_uniform_types_become_storage_types():
    x = np.array([-100, 0, 50, 120], np.int8)
    text = """
func.func @main(%x: tensor<4x!quant.uniform<i8:f32, 0.1:-1>>) -> (tensor<4x!quant.uniform<i8:f32, 0.1:-1>>, tensor<4x!quant.uniform<i8<-127:127>:f32:0, {0.1:-1,0.2:3,0.3:0,1.0:1}>>) {
  %c = "tosa.const"() {value = dense<[1, 2, 3, 4]> : tensor<4xi8>} : () -> tensor<4x!quant.uniform<i8<-127:127>:f32:0, {0.1:-1,0.2:3,0.3:0,1.0:1}>>
  %0 = "tosa.clamp"(%x) {max_fp = 1.0 : f32, max_int = 60 : i64, min_fp = 0.0 : f32, min_int = -50 : i64} : (tensor<4x!quant.uniform<i8:f32, 0.1:-1>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-1>>
  return %0, %c : tensor<4x!quant.uniform<i8:f32, 0.1:-1>>, tensor<4x!quant.uniform<i8<-127:127>:f32:0, {0.1:-1,0.2:3,0.3:0,1.0:1}>>
}"""
    clamped, const = run_old(text, x)
    np.testing.assert_array_equal(clamped, np.clip(x, -50, 60))
    np.testing.assert_array_equal(const, [1, 2, 3, 4])
    module = upgrade_text(text)
    assert "quant" not in str(module)


def test_custom_identifier_becomes_operator_name():
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tosa.custom"(%x) {identifier = "my_op"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    module = upgrade_text(text)
    (custom,) = [op for op in module.walk() if op.name == "tosa.custom"]
    assert custom.properties["operator_name"].data == "my_op"  # pyright: ignore


def test_cond_if_body_upgraded():
    text = """
func.func @main(%c: tensor<i1>, %a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "tosa.cond_if"(%c, %a, %b) ({
  ^bb0(%x: tensor<2xi32>, %y: tensor<2xi32>):
    %1 = "tosa.div"(%x, %y) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    "tosa.yield"(%1) : (tensor<2xi32>) -> ()
  }, {
  ^bb0(%x: tensor<2xi32>, %y: tensor<2xi32>):
    %1 = "tosa.mul"(%x, %y) {shift = 0 : i32} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    "tosa.yield"(%1) : (tensor<2xi32>) -> ()
  }) : (tensor<i1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}"""
    a, b = np.array([9, -9], np.int32), np.array([2, 4], np.int32)
    (t,) = run_old(text, np.array(True), a, b)
    (f,) = run_old(text, np.array(False), a, b)
    np.testing.assert_array_equal(t, [4, -2])
    np.testing.assert_array_equal(f, a * b)


# ------------------------------------------------- MLIR-era conventions the spec left out


def test_rank_broadcast_of_llvm_era_elementwise_operands():
    # LLVM <= 17 accepted numpy-style rank broadcasting (prepended 1s); pre-1.0 and 1.0 need
    # equal ranks, so the upgrade reshapes the lower-rank operand.
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    b = RNG.standard_normal(3).astype(np.float32)
    text = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "tosa.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}"""
    (out,) = run_old(text, a, b)
    np.testing.assert_array_equal(out, a + b)


def test_mul_shift_is_ignored_below_int32():
    # pre-1.0 2.5.14: `if (in_t == int32_t && shift > 0)` scales, else plain product
    a = np.array([100, -7, 3], np.int16)
    b = np.array([2, 3, -4], np.int16)
    text = """
func.func @main(%a: tensor<3xi16>, %b: tensor<3xi16>) -> tensor<3xi32> {
  %0 = "tosa.mul"(%a, %b) {shift = 1 : i32} : (tensor<3xi16>, tensor<3xi16>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}"""
    (out,) = run_old(text, a, b)
    np.testing.assert_array_equal(out, a.astype(np.int32) * b)


def test_llvm14_builtin_func_and_struct_quantization_info():
    x = RNG.integers(-128, 128, (1, 2, 2, 1)).astype(np.int8)
    text = """
func @main(%x: tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xi8> {
  %0 = "tosa.negate"(%x) {quantization_info = {input_zp = 1 : i32, output_zp = 2 : i32}} : (tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xi8>
  return %0 : tensor<1x2x2x1xi8>
}"""
    (out,) = run_old(text, x)
    np.testing.assert_array_equal(out, np.clip(-(x.astype(np.int64) - 1) + 2, -128, 127))


def test_llvm18_cond_if_custom_form_with_captured_values():
    text = """
func.func @main(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  %0 = tosa.cond_if %c -> (tensor<f32>) {
    %1 = tosa.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  } else {
    %1 = tosa.sub %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}"""
    a, b = np.array(5.0, np.float32), np.array(2.0, np.float32)
    assert run_old(text, a, b, np.array(True))[0] == 7.0
    assert run_old(text, a, b, np.array(False))[0] == 3.0


def test_llvm18_variable_read_write_become_1_0_names():
    text = """
module {
  tosa.variable @v = dense<3.0> : tensor<f32>
  func.func @main(%x: tensor<f32>) -> tensor<f32> {
    %0 = tosa.variable.read @v : tensor<f32>
    %1 = tosa.add %0, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.variable.write @v, %1 : tensor<f32>
    return %1 : tensor<f32>
  }
}"""
    names = ops_of(text)
    assert "tosa.variable_read" in names and "tosa.variable_write" in names
    (out,) = run_old(text, np.array(1.5, np.float32))
    assert out == 4.5


def test_transpose_conv2d_two_element_out_pad_of_the_pre_1_0_spec():
    # 2.3.9 (pre-1.0): oy = iy * stride_y - out_pad_top + ky, writes outside [0, OH) dropped
    x = RNG.standard_normal((1, 2, 2, 1)).astype(np.float32)
    w = RNG.standard_normal((1, 2, 2, 1)).astype(np.float32)
    b = np.array([0.5], np.float32)
    text = """
func.func @main(%x: tensor<1x2x2x1xf32>, %w: tensor<1x2x2x1xf32>, %b: tensor<1xf32>) -> tensor<1x3x4x1xf32> {
  %0 = "tosa.transpose_conv2d"(%x, %w, %b) {out_pad = [1, 0], out_shape = [1, 3, 4, 1], stride = [2, 2]} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>) -> tensor<1x3x4x1xf32>
  return %0 : tensor<1x3x4x1xf32>
}"""
    (out,) = run_old(text, x, w, b)
    expected = np.full((1, 3, 4, 1), 0.5, np.float32)
    for iy in range(2):
        for ix in range(2):
            for ky in range(2):
                for kx in range(2):
                    oy, ox = iy * 2 - 1 + ky, ix * 2 - 0 + kx
                    if 0 <= oy < 3 and 0 <= ox < 4:
                        expected[0, oy, ox, 0] += x[0, iy, ix, 0] * w[0, ky, kx, 0]
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_rescale_of_unsigned_8_bit_data_becomes_signless_with_unsigned_flags():
    # The TFLite uint8-model pattern: u8 in -> i8 -> u8 out. 1.0 keeps the bits in signless
    # i8 tensors (the graph's signature becomes i8) and reads them unsigned by the flags.
    text = """
func.func @main(%x: tensor<5x!quant.uniform<u8:f32, 0.1:128>>) -> (tensor<5xi8>, tensor<5x!quant.uniform<u8:f32, 0.1:128>>) {
  %0 = "tosa.rescale"(%x) {double_round = false, input_zp = 128 : i32, multiplier = [1073741824 : i32], output_zp = -3 : i32, per_channel = false, scale32 = true, shift = [30 : i32]} : (tensor<5x!quant.uniform<u8:f32, 0.1:128>>) -> tensor<5xi8>
  %1 = "tosa.rescale"(%0) {double_round = false, input_zp = -3 : i32, multiplier = [1518500250 : i32], output_zp = 128 : i32, per_channel = false, scale32 = true, shift = [30 : i32]} : (tensor<5xi8>) -> tensor<5x!quant.uniform<u8:f32, 0.1:128>>
  return %0, %1 : tensor<5xi8>, tensor<5x!quant.uniform<u8:f32, 0.1:128>>
}"""
    u8 = np.array([0, 100, 128, 200, 255], np.uint8)
    signed, unsigned_bits = run_old(text, u8.view(np.int8))
    # 2.13.2 (pre-1.0): value - input_zp, apply_scale_32, + output_zp, clip to out_t
    mid = np.clip(apply_scale_32(u8.astype(np.int64) - 128, 1 << 30, 30, False) - 3, -128, 127)
    np.testing.assert_array_equal(signed, mid)
    back = np.clip(apply_scale_32(mid.astype(np.int64) + 3, 1518500250, 30, False) + 128, 0, 255)
    np.testing.assert_array_equal(np.asarray(unsigned_bits).view(np.uint8), back)
    module = upgrade_text(text)
    flags = [(bool(op.properties["input_unsigned"].value.data), bool(op.properties["output_unsigned"].value.data))
             for op in module.walk() if op.name == "tosa.rescale"]
    assert flags == [(True, False), (False, True)]


def reciprocal_scale(value: int) -> tuple[int, int]:
    """Pre-1.0 spec 1.8.2 reciprocal_scale."""
    k = (value - 1).bit_length()  # 32 - count_leading_zeros(value - 1)
    numerator = ((1 << 30) + 1) << k
    return numerator // value, 30 + k


def test_avg_pool2d_int8_unary_quant_with_padding():
    x = RNG.integers(-128, 128, (1, 4, 5, 2)).astype(np.int8)
    text = """
func.func @main(%x: tensor<1x4x5x2xi8>) -> tensor<1x4x5x2xi8> {
  %0 = "tosa.avg_pool2d"(%x) {kernel = [3, 3], pad = [1, 1, 1, 1], quantization_info = #tosa.unary_quant<input_zp = -3, output_zp = 5>, stride = [1, 1]} : (tensor<1x4x5x2xi8>) -> tensor<1x4x5x2xi8>
  return %0 : tensor<1x4x5x2xi8>
}"""
    (out,) = run_old(text, x)
    # 2.3.2 (pre-1.0): sum of (value - input_zp) over the window inside the input, then
    # apply_scale_32 by reciprocal_scale(count), + output_zp, clipped
    expected = np.zeros_like(x)
    for oy in range(4):
        for ox in range(5):
            ys = range(max(oy - 1, 0), min(oy + 2, 4))
            xs = range(max(ox - 1, 0), min(ox + 2, 5))
            count = len(ys) * len(xs)
            mult, shift = reciprocal_scale(count)
            for c in range(2):
                acc = sum(int(x[0, y, xx, c]) + 3 for y in ys for xx in xs)
                scaled = int(apply_scale_32(np.array([acc]), mult, shift, False)[0])
                expected[0, oy, ox, c] = min(max(scaled + 5, -128), 127)
    np.testing.assert_array_equal(out, expected)


def test_depthwise_conv2d_conv_quant():
    x = RNG.integers(-128, 128, (1, 3, 3, 2)).astype(np.int8)
    w = RNG.integers(-128, 128, (2, 2, 2, 1)).astype(np.int8)  # [KH, KW, C, M]
    b = np.array([10, -10], np.int32)
    text = """
func.func @main(%x: tensor<1x3x3x2xi8>, %w: tensor<2x2x2x1xi8>, %b: tensor<2xi32>) -> tensor<1x2x2x2xi32> {
  %0 = tosa.depthwise_conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, quantization_info = #tosa.conv_quant<input_zp = 4, weight_zp = -6>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xi8>, tensor<2x2x2x1xi8>, tensor<2xi32>) -> tensor<1x2x2x2xi32>
  return %0 : tensor<1x2x2x2xi32>
}"""
    (out,) = run_old(text, x, w, b)
    expected = np.zeros((1, 2, 2, 2), np.int64)
    for oy in range(2):
        for ox in range(2):
            for c in range(2):
                window = x[0, oy:oy + 2, ox:ox + 2, c].astype(np.int64) - 4
                expected[0, oy, ox, c] = b[c] + (window * (w[:, :, c, 0].astype(np.int64) + 6)).sum()
    np.testing.assert_array_equal(out, expected)
