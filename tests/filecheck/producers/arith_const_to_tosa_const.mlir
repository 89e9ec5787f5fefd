// tosa-arith-const-to-tosa-const: cases and expected IR of upstream's
// mlir/test/Dialect/Tosa/tosa-arith-const-to-tosa-const.mlir.
// RUN: tosa-opt %s --split-input-file -p tosa-arith-const-to-tosa-const | filecheck %s

// CHECK-LABEL: @rewrite_f32_tensor
// CHECK: %[[CST:.*]] = tosa.const values(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : () -> tensor<2xf32>
// CHECK: return %[[CST]]
func.func @rewrite_f32_tensor() -> tensor<2xf32> {
  %c = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

// CHECK-LABEL: @rewrite_i1_tensor
// CHECK: tosa.const values(dense<[true, false]> : tensor<2xi1>) : () -> tensor<2xi1>
func.func @rewrite_i1_tensor() -> tensor<2xi1> {
  %c = arith.constant dense<[true, false]> : tensor<2xi1>
  return %c : tensor<2xi1>
}

// -----

// CHECK-LABEL: @rewrite_rank0_tensor
// CHECK: tosa.const values(dense<1.234500e+00> : tensor<f32>) : () -> tensor<f32>
func.func @rewrite_rank0_tensor() -> tensor<f32> {
  %c = arith.constant dense<1.234500e+00> : tensor<f32>
  return %c : tensor<f32>
}

// -----

// CHECK-LABEL: @preserve_scalar_i32
// CHECK: arith.constant 42 : i32
func.func @preserve_scalar_i32() -> i32 {
  %c = arith.constant 42 : i32
  return %c : i32
}

// -----

// CHECK-LABEL: @preserve_index_tensor
// CHECK: arith.constant dense<[0, 1]> : tensor<2xindex>
func.func @preserve_index_tensor() -> tensor<2xindex> {
  %c = arith.constant dense<[0, 1]> : tensor<2xindex>
  return %c : tensor<2xindex>
}

// -----

// CHECK-LABEL: @rewrite_resource_tensor
// CHECK: tosa.const values(dense_resource<blob1> : tensor<1xf32>) : () -> tensor<1xf32>
func.func @rewrite_resource_tensor() -> tensor<1xf32> {
  %c = arith.constant dense_resource<"blob1"> : tensor<1xf32>
  return %c : tensor<1xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F"
    }
  }
#-}
