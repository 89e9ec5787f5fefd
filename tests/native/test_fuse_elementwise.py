"""linalg-fuse-elementwise-ops (tosa_xdsl/lowering/linalg_transforms/fuse_elementwise_ops.py),
differentially: fusion computes the same ops on the same values, so

* the linalg-on-tensors module before and after the pass gives the same bits in the interpreter,
* tosa-to-llvm (which runs the pass) gives natively the same bits as the TOSA interpreter for
  integer graphs (floats: the same as the pipeline without the pass),

on TOSA graphs with elementwise chains (broadcasts, clamps, int8 rescales, shifts, transposes
feeding elementwise ops), with a check that the pass really fused something.
"""

from __future__ import annotations

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse

from tosa_xdsl import jit
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering.pipelines import LLVM_STAGE, linalg_stage, loops_stage

LINALG = "tosa-to-linalg-pipeline{prefer-conv2d-kernel-layout-hwcf=true}"
UNFUSED = ",".join(linalg_stage(hwcf=True) + [p for p in loops_stage() if p != "linalg-fuse-elementwise-ops"]
                   + LLVM_STAGE)

CASES = {
    "f32_bias_add_clamp": """
func.func @main(%x: tensor<2x5x8xf32>, %b: tensor<1x1x8xf32>, %y: tensor<2x5x8xf32>) -> tensor<2x5x8xf32> {
  %0 = tosa.add %x, %b : (tensor<2x5x8xf32>, tensor<1x1x8xf32>) -> tensor<2x5x8xf32>
  %1 = tosa.add %y, %0 : (tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %2 = tosa.clamp %1 {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %3 = tosa.mul %2, %x, %s : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<1xi8>) -> tensor<2x5x8xf32>
  return %3 : tensor<2x5x8xf32>
}""",
    "i32_shift_mul_chain": """
func.func @main(%x: tensor<3x7xi32>, %y: tensor<1x7xi32>) -> tensor<3x7xi32> {
  %0 = tosa.sub %x, %y : (tensor<3x7xi32>, tensor<1x7xi32>) -> tensor<3x7xi32>
  %1 = tosa.arithmetic_right_shift %0, %y {round = true} : (tensor<3x7xi32>, tensor<1x7xi32>) -> tensor<3x7xi32>
  %2 = tosa.mul %1, %x, %s : (tensor<3x7xi32>, tensor<3x7xi32>, tensor<1xi8>) -> tensor<3x7xi32>
  %3 = tosa.abs %2 : (tensor<3x7xi32>) -> tensor<3x7xi32>
  return %3 : tensor<3x7xi32>
}""",
    "i8_rescale_add_rescale": """
func.func @main(%x: tensor<4x6xi8>, %y: tensor<4x6xi8>) -> tensor<4x6xi8> {
  %m = "tosa.const"() <{values = dense<1518500250> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sh = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z8 = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z32 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %a = tosa.rescale %x, %m, %sh, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4x6xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4x6xi32>
  %b = tosa.rescale %y, %m, %sh, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4x6xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4x6xi32>
  %c = tosa.add %a, %b : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  %d = tosa.rescale %c, %m, %sh, %z32, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4x6xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x6xi8>
  return %d : tensor<4x6xi8>
}""",
    "transpose_then_negate": """
func.func @main(%x: tensor<3x4x5xi16>) -> tensor<5x3x4xi16> {
  %0 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<3x4x5xi16>) -> tensor<5x3x4xi16>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %1 = tosa.negate %0, %z, %z : (tensor<5x3x4xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<5x3x4xi16>
  %2 = tosa.bitwise_not %1 : (tensor<5x3x4xi16>) -> tensor<5x3x4xi16>
  return %2 : tensor<5x3x4xi16>
}""",
    # constant weights: their HWCF transpose (conv) and the 1x1 conv's matmul transpose fold
    "i8_conv_constant_weights": """
func.func @main(%x: tensor<1x5x6x3xi8>) -> tensor<1x5x6x4xi32> {
  %w = "tosa.const"() <{values = dense<[[[[1, -2, 3]], [[4, 5, -6]]], [[[7, -8, 9]], [[-10, 11, 12]]], [[[13, 14, -15]], [[16, -17, 18]]], [[[-19, 20, 21]], [[22, 23, -24]]]]> : tensor<4x2x1x3xi8>}> : () -> tensor<4x2x1x3xi8>
  %w1 = "tosa.const"() <{values = dense<[[[[1, 2, 3, 4]]], [[[-5, 6, 7, 8]]], [[[9, -10, 11, 12]]], [[[13, 14, 15, -16]]]]> : tensor<4x1x1x4xi8>}> : () -> tensor<4x1x1x4xi8>
  %b = "tosa.const"() <{values = dense<[100, -200, 300, -400]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zx = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zw = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %zx, %zw {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x6x3xi8>, tensor<4x2x1x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x6x4xi32>
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sh = "tosa.const"() <{values = dense<36> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z32 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = tosa.rescale %0, %m, %sh, %z32, %zw {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x5x6x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x5x6x4xi8>
  %2 = tosa.conv2d %1, %w1, %b, %zw, %zw {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x6x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x6x4xi32>
  return %2 : tensor<1x5x6x4xi32>
}""",
}
SHIFT = '  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>\n'


def _src(name: str) -> str:
    text = CASES[name]
    head, _, rest = text.partition("{\n")
    return head + "{\n" + (SHIFT if "%s :" in rest or "%s)" in rest else "") + rest


def _inputs(module, seed):
    from tosa_xdsl.interpreter.values import dtype_of

    rng = np.random.default_rng(seed)
    fn = next(op for op in module.body.block.ops if op.name == "func.func")
    out = []
    for t in fn.function_type.inputs.data:
        dt, shape = dtype_of(t.element_type), tuple(t.get_shape())
        if np.issubdtype(dt, np.integer):
            hi = 4 if dt == np.int32 else np.iinfo(dt).max  # i32: shift amounts 0..4
            out.append(rng.integers(0 if dt == np.int32 else -hi, hi, shape, endpoint=True).astype(dt))
        else:
            out.append((rng.standard_normal(shape) * 4).astype(dt))
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_fused_equals_unfused(name):
    src = _src(name)
    inputs = _inputs(parse(src), len(name))
    unfused = lower(src, LINALG)
    fused = lower(src, LINALG + ",linalg-fuse-elementwise-ops")
    def count(m):
        return sum(op.name in ("linalg.generic", "linalg.transpose") for op in m.walk())

    assert count(fused) < count(unfused)
    assert_same(run(fused, inputs), run(unfused, inputs), f"{name}: fused vs unfused (interpreter)")
    native = jit.NativeModule(parse(src)).call(inputs)
    if all(np.issubdtype(r.dtype, np.integer) for r in native):
        assert_same(native, run(parse(src), inputs), f"{name}: native vs TOSA interpreter")
    else:
        assert_same(native, jit.NativeModule(parse(src), pipeline=UNFUSED).call(inputs), f"{name}: native fused vs unfused")
