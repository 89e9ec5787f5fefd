"""lower-affine runs a constant single-iteration affine.for as its body once (MLIR's affine
canonicalization, promoteIfSingleIteration): no loop is left, the induction variable is the
lower bound and iter_args flow through; loops with 0 or 2+ iterations stay loops. Checked by
running the module before and after the pass in the interpreter."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import scf

from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter.runner import build_interpreter
from tosa_xdsl.lowering.to_loops.lower_affine import LowerAffinePass

from codegen_model import parse

KERNEL = """
func.func @k(%a: memref<4xi32>, %out: memref<4xi32>) {
  %s = affine.for %i = 2 to 3 iter_args(%acc = %c0) -> (i32) {
    %x = affine.load %a[%i] : memref<4xi32>
    %y = arith.addi %acc, %x : i32
    affine.store %y, %out[%i - 2] : memref<4xi32>
    affine.yield %y : i32
  }
  affine.store %s, %out[1] : memref<4xi32>
  affine.for %j = 0 to 2 {
    %x = affine.load %a[%j] : memref<4xi32>
    affine.store %x, %out[%j + 2] : memref<4xi32>
  }
  affine.for %k = 5 to 5 {
    affine.store %c0, %out[0] : memref<4xi32>
  }
  func.return
}
"""


def run(module) -> np.ndarray:
    a = np.array([10, 20, 30, 40], np.int32)
    out = np.full(4, -1, np.int32)
    build_interpreter(module).call_op("k", (a, out))
    return out


def test_single_iteration_loop_becomes_its_body():
    text = KERNEL.replace("func.func @k(%a: memref<4xi32>, %out: memref<4xi32>) {",
                          "func.func @k(%a: memref<4xi32>, %out: memref<4xi32>) {\n  %c0 = arith.constant 7 : i32")
    before = parse(text)
    expected = run(before)
    np.testing.assert_array_equal(expected, [37, 37, 10, 20])  # 7 + a[2]; then a[0], a[1]
    LowerAffinePass().apply(make_context(), before)
    loops = [op for op in before.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 2  # the 0..2 and the empty 5..5 loop stay
    np.testing.assert_array_equal(run(before), expected)
