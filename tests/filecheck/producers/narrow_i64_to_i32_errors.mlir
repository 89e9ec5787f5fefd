// tosa-narrow-i64-to-i32 refuses what upstream's full conversion refuses, located at the op
// (upstream's tosa-narrow-i64-to-i32.mlir expected-errors).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -p tosa-narrow-i64-to-i32 -o /dev/null

func.func @test_i64_argmax_large_axis_dim(%arg0: tensor<1x2x2147483650xi8>) -> tensor<1x2xi64> {
  // expected-error @+1 {{failed to legalize operation 'tosa.argmax'}}
  %0 = tosa.argmax %arg0 axis(2) : (tensor<1x2x2147483650xi8>) -> tensor<1x2xi64>
  return %0 : tensor<1x2xi64>
}

// -----

func.func @test_add(%arg0: tensor<13x21x1xi64>, %arg1: tensor<13x21x3xi64>) -> tensor<13x21x3xi64> {
  // expected-error @+1 {{failed to legalize operation 'tosa.add'}}
  %0 = tosa.add %arg0, %arg1 : (tensor<13x21x1xi64>, tensor<13x21x3xi64>) -> tensor<13x21x3xi64>
  return %0 : tensor<13x21x3xi64>
}

// -----

func.func @test_clamp_max_outside_i32_range(%arg0: tensor<100xi64>) -> tensor<100xi64> {
  // expected-error @+1 {{failed to legalize operation 'tosa.clamp'}}
  %1 = tosa.clamp %arg0 min_val(-2147483648 : i64) max_val(2147483648 : i64) : (tensor<100xi64>) -> tensor<100xi64>
  return %1 : tensor<100xi64>
}

// -----

func.func @test_narrowing_cast(%arg0: tensor<4xi64>) -> tensor<4xi8> {
  // expected-error @+1 {{failed to legalize operation 'tosa.cast'}}
  %0 = tosa.cast %arg0 : (tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @test_missing_blob() -> tensor<2xi64> {
  // expected-error @+1 {{cannot narrow 'tosa.const': dense_resource<gone> has no blob}}
  %0 = "tosa.const"() <{values = dense_resource<gone> : tensor<2xi64>}> : () -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
