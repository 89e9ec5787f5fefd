// Negative tests of the spec's ERROR_IF conditions of spec 4.4.6 broadcast helpers and 2.2 tosa_execute_graph (tosa_xdsl/verification/helpers.py).
// Each case breaks one condition, named by its `// ERROR_IF: <id>` marker (ids as in
// tosa_xdsl.spec_tables; see docs/error-if.md).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

// ERROR_IF: broadcast_shape#1
func.func @rank_mismatch(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{must have the same rank}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ERROR_IF: broadcast_shape#2
func.func @incompatible_dims(%a: tensor<2x3xi32>, %b: tensor<2x4xi32>) -> tensor<2x4xi1> {
  // expected-error @+1 {{input1 dim 1 (3) and input2 dim 1 (4) cannot be broadcast: dims must be equal or 1}}
  %0 = tosa.greater %a, %b : (tensor<2x3xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

// ERROR_IF: apply_broadcast#1
func.func @rank_mismatch_output(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<1x2x3xf32> {
  // expected-error @+1 {{must have the same rank}}
  %0 = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// ERROR_IF: apply_broadcast#3
func.func @input_not_one(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{output dim 1 is 6 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.maximum %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// ERROR_IF: tosa_execute_graph#3
func.func @input_rank_below_minimum(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{input1 must have rank 1 to MAX_RANK (Arguments table of REVERSE), got rank 0}}
  %0 = tosa.reverse %a axis(0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// ERROR_IF: tosa_execute_graph#3
func.func @zero_point_not_1(%a: tensor<4xi8>) -> tensor<4xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<2xi8>} : () -> tensor<2xi8>
  // expected-error @+1 {{input1_zp must have shape [1] (Arguments table of NEGATE), got [2]}}
  %0 = tosa.negate %a, %z, %z : (tensor<4xi8>, tensor<2xi8>, tensor<2xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// ERROR_IF: tosa_execute_graph#5
func.func @output_rank_below_minimum() -> tensor<f32> {
  // expected-error @+1 {{output must have rank 1 to MAX_RANK (Arguments table of CONCAT), got rank 0}}
  %0 = tosa.concat axis(0) : () -> tensor<f32>
  return %0 : tensor<f32>
}
