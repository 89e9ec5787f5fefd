// tosa-narrow-f64-to-f32 without aggressive-rewrite refuses computing operators and
// precision-losing casts (upstream's tosa-narrow-f64-to-f32.mlir expected-errors).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -p tosa-narrow-f64-to-f32 -o /dev/null

func.func @test_f64_add_diagnostic(%arg0: tensor<13x21x1xf64>, %arg1: tensor<13x21x3xf64>) -> tensor<13x21x3xf64> {
  // expected-error @+1 {{failed to legalize operation 'tosa.add'}}
  %0 = tosa.add %arg0, %arg1 : (tensor<13x21x1xf64>, tensor<13x21x3xf64>) -> tensor<13x21x3xf64>
  return %0 : tensor<13x21x3xf64>
}

// -----

func.func @test_narrowing_cast(%arg0: tensor<4xf64>) -> tensor<4xf16> {
  // expected-error @+1 {{failed to legalize operation 'tosa.cast'}}
  %0 = tosa.cast %arg0 : (tensor<4xf64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
