// canonicalize{test-convergence}: MLIR's greedy driver converges when a round changes
// nothing; transpose(transpose(x)) needs one changing round and one quiet one, so
// max-iterations=1 fails and 2 succeeds - in MLIR 22's mlir-opt as here.
// RUN: not tosa-opt %s -canonicalize="test-convergence max-iterations=1" 2>&1 | filecheck %s --check-prefix=FAIL
// RUN: tosa-opt %s -canonicalize="test-convergence max-iterations=2" | filecheck %s
// RUN: tosa-opt %s -canonicalize="max-iterations=1" | filecheck %s
// REQUIRES: mlir-opt-22
// RUN: not %mlir-opt-22 %s -canonicalize="test-convergence max-iterations=1"
// RUN: %mlir-opt-22 %s -canonicalize="test-convergence max-iterations=2" | filecheck %s

// FAIL: error: canonicalize did not converge within 1 iterations (test-convergence)
// CHECK-LABEL: func.func @double_transpose
// CHECK-NEXT: return %arg0
func.func @double_transpose(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.transpose %arg0 {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
