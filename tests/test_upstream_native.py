"""A second, independent native path: our `tosa-to-loops` output lowered to LLVM IR by
upstream MLIR 22's own passes (lower-affine, scf-to-cf, memref/func/arith/math to LLVM with the
bare-pointer calling convention) and `mlir-translate`, then compiled by LLVM (llvmlite MCJIT)
and called. Its results must equal the TOSA-level interpreter's bit for bit — so our loops mean the same thing to
upstream as to us, and our own LLVM stage (tosa_xdsl/jit.py) is not the only judge."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from mlir22_native import BIN, run_main

from tosa_xdsl.interpreter import run
from tosa_xdsl.printing import print_ir

UPSTREAM_TO_LLVM = ["--lower-affine", "--convert-scf-to-cf", "--expand-strided-metadata",
                    "--finalize-memref-to-llvm", "--convert-func-to-llvm=use-bare-ptr-memref-call-conv",
                    "--convert-to-llvm", "--reconcile-unrealized-casts"]

GRAPHS = {
    # elementwise chain with broadcasting, a reduction, a cast: f32 and i32 paths
    "chain": ("""func.func @main(%a: tensor<3x4xf32>, %b: tensor<1x4xf32>) -> (tensor<3x1xf32>, tensor<3x4xi32>) {
  %0 = tosa.add %a, %b : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %1 = tosa.clamp %0 {max_val = 2.0 : f32, min_val = -2.0 : f32} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = tosa.reduce_sum %1 {axis = 1 : i32} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %3 = tosa.cast %1 : (tensor<3x4xf32>) -> tensor<3x4xi32>
  return %2, %3 : tensor<3x1xf32>, tensor<3x4xi32>
}""", [((3, 4), np.float32), ((1, 4), np.float32)]),
    # quantized convolution: zero points, i32 accumulator, then RESCALE to i8
    "conv_i8": ("""func.func @main(%x: tensor<1x5x5x3xi8>, %w: tensor<4x3x3x3xi8>) -> tensor<1x3x3x4xi8> {
  %b = "tosa.const"() {values = dense<[1, -2, 3, 400]> : tensor<4xi32>} : () -> tensor<4xi32>
  %izp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x4xi32>
  %m = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %z1 = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %c, %m, %s, %z0, %z1 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x3x3x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x3x4xi8>
  return %r : tensor<1x3x3x4xi8>
}""", [((1, 5, 5, 3), np.int8), ((4, 3, 3, 3), np.int8)]),
    # control flow and data movement
    "while_pad": ("""func.func @main(%a: tensor<2x3xi32>) -> tensor<4x5xi32> {
  %r = tosa.while_loop (%x = %a) : (tensor<2x3xi32>) -> tensor<2x3xi32> {
    %lim = "tosa.const"() {values = dense<100> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
    %g = tosa.greater %lim, %x : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %g2 = tosa.reduce_all %g {axis = 0 : i32} : (tensor<2x3xi1>) -> tensor<1x3xi1>
    %g3 = tosa.reduce_all %g2 {axis = 1 : i32} : (tensor<1x3xi1>) -> tensor<1x1xi1>
    tosa.yield %g3 : tensor<1x1xi1>
  } do {
  ^bb0(%x: tensor<2x3xi32>):
    %y = tosa.add %x, %x : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    tosa.yield %y : tensor<2x3xi32>
  }
  %p = tosa.const_shape {values = dense<[1, 1, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v = "tosa.const"() {values = dense<-7> : tensor<1xi32>} : () -> tensor<1xi32>
  %o = tosa.pad %r, %p, %v : (tensor<2x3xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<4x5xi32>
  return %o : tensor<4x5xi32>
}""", [((2, 3), np.int32)]),
}


def _inputs(specs, seed):
    rng = np.random.default_rng(seed)
    out = []
    for shape, dtype in specs:
        if np.issubdtype(dtype, np.integer):
            lo = 1 if dtype == np.int32 else np.iinfo(dtype).min
            out.append(rng.integers(lo, min(np.iinfo(dtype).max, 60), shape, endpoint=True).astype(dtype))
        else:
            out.append((rng.standard_normal(shape) * 2).astype(dtype))
    return out


def upstream_native(src: str, inputs: list, tmp_path: Path) -> list[np.ndarray]:
    loops = print_ir(lower(src, "tosa-to-loops{validation=false}"), style="generic")
    fn_type = parse(src).body.block.first_op.function_type
    outs = [np.zeros(tuple(t.get_shape()), _dtype(t)) for t in fn_type.outputs.data]
    return run_main(loops, UPSTREAM_TO_LLVM, inputs, outs)


def _dtype(t):
    from tosa_xdsl.interpreter.values import dtype_of

    return dtype_of(t.element_type)


@pytest.mark.skipif(not (BIN / "mlir-opt").exists(), reason="MLIR 22 not installed")
@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("seed", [0, 1])
def test_upstream_llvm_path_matches_tosa_level(name, seed, tmp_path):
    src, specs = GRAPHS[name]
    inputs = _inputs(specs, seed)
    want = run(parse(src), inputs)
    got = upstream_native(src, inputs, tmp_path)
    # bit-exact, floats included: the f32 sum of "chain" runs in the same order in both
    assert_same(got, want, name)
