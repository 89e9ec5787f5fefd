// Negative tests of the spec's ERROR_IF conditions of spec 2.8 (comparison) (tosa_xdsl/verification/comparison.py).
// Each case breaks one condition, named by its `// ERROR_IF: <id>` marker (ids as in
// tosa_xdsl.spec_tables; see docs/error-if.md).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

// ERROR_IF: EQUAL#1
func.func @equal_shape(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x2xi1> {
  // expected-error @+1 {{output dim 1 is 2 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.equal %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}

// -----

// ERROR_IF: GREATER#1
func.func @greater_shape(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x2xi1> {
  // expected-error @+1 {{output dim 1 is 2 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.greater %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}

// -----

// ERROR_IF: GREATER_EQUAL#1
func.func @greater_equal_shape(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x2xi1> {
  // expected-error @+1 {{output dim 1 is 2 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.greater_equal %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}
