// mlir-opt's ways of naming passes, as upstream's RUN lines write them, read by tosa-opt:
// a pass flag with quoted options (a bare boolean option is true), --pass-pipeline with op
// anchors, and `=1` for a boolean. The expected results are the spec's: a TRANSPOSE with
// identity perms is its input (2.10.7 output[index] = input1[index]), and
// transpose(transpose(x, [1,0]), [1,0]) is x.
// RUN: tosa-opt %s -split-input-file -canonicalize="test-convergence" | filecheck %s
// RUN: tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(canonicalize{test-convergence max-iterations=3}))' | filecheck %s
// RUN: tosa-opt %s -split-input-file -p 'canonicalize{test-convergence=1 top-down=0}' | filecheck %s
// RUN: tosa-opt %s -split-input-file -p 'canonicalize{region-simplify=disabled}' | filecheck %s
// RUN: not tosa-opt %s -canonicalize -pass-pipeline='builtin.module(cse)' 2>&1 | filecheck %s --check-prefix=MIXED
// RUN: not tosa-opt %s -p 'canonicalize{region-simplify=sometimes}' 2>&1 | filecheck %s --check-prefix=BADOPT

// MIXED: tosa-opt: error: '--pass-pipeline' cannot be used with individual pass options
// BADOPT: error: canonicalize: region-simplify must be one of normal, aggressive, disabled, got 'sometimes'

// CHECK-LABEL: func.func @identity_transpose
// CHECK-NEXT: func.return %arg0
func.func @identity_transpose(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.transpose %arg0 {perms = array<i32: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @double_transpose
// CHECK-NEXT: func.return %arg0
func.func @double_transpose(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.transpose %arg0 {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
