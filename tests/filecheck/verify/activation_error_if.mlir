// Negative tests of the spec's ERROR_IF conditions of spec 2.4 (activation functions) (tosa_xdsl/verification/activation.py).
// Each case breaks one condition, named by its `// ERROR_IF: <id>` marker (ids as in
// tosa_xdsl.spec_tables; see docs/error-if.md).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

// ERROR_IF: CLAMP#1
func.func @clamp_max_below_min(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{max_val (-2) is less than min_val (3)}}
  %0 = tosa.clamp %a {min_val = 3 : i8, max_val = -2 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// ERROR_IF: CLAMP#2
func.func @clamp_nan(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{min_val is NaN; min_val and max_val must not be NaN}}
  %0 = tosa.clamp %a {min_val = 0x7FC00000 : f32, max_val = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
