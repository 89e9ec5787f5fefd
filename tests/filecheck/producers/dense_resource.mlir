// dense_resource constants: printed back as MLIR prints them (first-use order, one entry a line,
// uppercase hex, alignment header kept), read back by MLIR 22, folded as upstream's
// tosa-layerwise-constant-fold folds them (tosa-layerwise-constant-fold-dense-resource.mlir).
// RUN: tosa-opt %s | filecheck %s
// RUN: tosa-opt %s --tosa-syntax=attr-dict | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// RUN: tosa-opt %s -p tosa-layerwise-constant-fold | filecheck %s --check-prefix=FOLD
// REQUIRES: mlir-opt-22

// CHECK-LABEL: @main
// CHECK: dense_resource<weights> : tensor<2x2xf32>
// CHECK: dense_resource<"idx-64"> : tensor<2xi64>
// MLIR-LABEL: @main
// FOLD-LABEL: @main
func.func @main(%arg0: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi64>) {
  %w = "tosa.const"() <{values = dense_resource<weights> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  %i = "tosa.const"() <{values = dense_resource<"idx-64"> : tensor<2xi64>}> : () -> tensor<2xi64>
  // FOLD: tosa.const values(dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>)
  %t = tosa.transpose %w perms([1, 0]) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %s = tosa.add %arg0, %t : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %s, %i : tensor<2x2xf32>, tensor<2xi64>
}
// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       weights: "0x040000000000803F000000400000404000008040",
// CHECK-NEXT:       "idx-64": "0x080000000500000000000000FFFFFFFFFFFFFFFF"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
// MLIR: weights: "0x040000000000803F000000400000404000008040",
// MLIR-NEXT: "idx-64": "0x080000000500000000000000FFFFFFFFFFFFFFFF"
{-#
  dialect_resources: {
    builtin: {
      unused: "0x0400000000000000",
      "idx-64": "0x080000000500000000000000ffffffffffffffff",
      weights: "0x040000000000803f000000400000404000008040"
    }
  }
#-}
