// Negative tests of the spec's ERROR_IF conditions of spec 2.5-2.7 (elementwise binary, unary, ternary) (tosa_xdsl/verification/elementwise.py).
// Each case breaks one condition, named by its `// ERROR_IF: <id>` marker (ids as in
// tosa_xdsl.spec_tables; see docs/error-if.md).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

// ERROR_IF: ADD#1
func.func @add_shape(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// ERROR_IF: ARITHMETIC_RIGHT_SHIFT#1
func.func @arithmetic_right_shift_shape(%a: tensor<2x3xi32>, %b: tensor<2x1xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.arithmetic_right_shift %a, %b round(false) : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// ERROR_IF: BITWISE_AND#1
func.func @bitwise_and_shape(%a: tensor<2x3xi32>, %b: tensor<2x1xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.bitwise_and %a, %b : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// ERROR_IF: BITWISE_OR#1
func.func @bitwise_or_shape(%a: tensor<2x3xi32>, %b: tensor<2x1xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.bitwise_or %a, %b : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// ERROR_IF: BITWISE_XOR#1
func.func @bitwise_xor_shape(%a: tensor<2x3xi32>, %b: tensor<2x1xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.bitwise_xor %a, %b : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// ERROR_IF: INTDIV#1
func.func @intdiv_shape(%a: tensor<2x3xi32>, %b: tensor<2x1xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.intdiv %a, %b : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// ERROR_IF: LOGICAL_AND#1
func.func @logical_and_shape(%a: tensor<2x3xi1>, %b: tensor<2x1xi1>) -> tensor<2x4xi1> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.logical_and %a, %b : (tensor<2x3xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

// ERROR_IF: LOGICAL_LEFT_SHIFT#1
func.func @logical_left_shift_shape(%a: tensor<2x3xi32>, %b: tensor<2x1xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.logical_left_shift %a, %b : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// ERROR_IF: LOGICAL_RIGHT_SHIFT#1
func.func @logical_right_shift_shape(%a: tensor<2x3xi32>, %b: tensor<2x1xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.logical_right_shift %a, %b : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// ERROR_IF: LOGICAL_OR#1
func.func @logical_or_shape(%a: tensor<2x3xi1>, %b: tensor<2x1xi1>) -> tensor<2x4xi1> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.logical_or %a, %b : (tensor<2x3xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

// ERROR_IF: LOGICAL_XOR#1
func.func @logical_xor_shape(%a: tensor<2x3xi1>, %b: tensor<2x1xi1>) -> tensor<2x4xi1> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.logical_xor %a, %b : (tensor<2x3xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

// ERROR_IF: MAXIMUM#1
func.func @maximum_shape(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.maximum %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// ERROR_IF: MINIMUM#1
func.func @minimum_shape(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.minimum %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// ERROR_IF: POW#1
func.func @pow_shape(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.pow %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// ERROR_IF: SUB#1
func.func @sub_shape(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 3}}
  %0 = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// ERROR_IF: MUL#1
func.func @mul_shape(%a: tensor<3x1xi32>, %b: tensor<1x5xi32>) -> tensor<3x4xi32> {
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{output dim 1 is 4 but broadcast_shape(input1, input2) dim 1 is 5}}
  %0 = tosa.mul %a, %b, %s : (tensor<3x1xi32>, tensor<1x5xi32>, tensor<1xi8>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}

// -----

// ERROR_IF: NEGATE#1
func.func @negate_input_zp(%a: tensor<4xi16>) -> tensor<4xi16> {
  %z = "tosa.const"() {values = dense<3> : tensor<1xi16>} : () -> tensor<1xi16>
  %o = "tosa.const"() {values = dense<0> : tensor<1xi16>} : () -> tensor<1xi16>
  // expected-error @+1 {{input1_zp is 3 but zero points must be 0 for element type i16}}
  %0 = tosa.negate %a, %z, %o : (tensor<4xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// ERROR_IF: NEGATE#2
func.func @negate_output_zp(%a: tensor<4xf32>) -> tensor<4xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %o = "tosa.const"() {values = dense<1.5> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{output_zp is 1.5 but zero points must be 0 for element type f32}}
  %0 = tosa.negate %a, %z, %o : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR_IF: SELECT#1
func.func @select_shape(%c: tensor<1x3xi1>, %a: tensor<2x1xf32>, %b: tensor<2x3xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{output dim 1 is 5 but broadcast_shape(input1, input2, input3) dim 1 is 3}}
  %0 = tosa.select %c, %a, %b : (tensor<1x3xi1>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
