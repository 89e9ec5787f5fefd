// Negative tests of the spec's ERROR_IF conditions of spec 2.9 (reduction) (tosa_xdsl/verification/reduction.py).
// Each case breaks one condition, named by its `// ERROR_IF: <id>` marker (ids as in
// tosa_xdsl.spec_tables; see docs/error-if.md).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

// ERROR_IF: REDUCE_ALL#1
func.func @reduce_all_axis(%a: tensor<2x5xi1>) -> tensor<2x5xi1> {
  // expected-error @+1 {{axis -1 is out of range for input rank 2 (must be 0 to 1)}}
  %0 = tosa.reduce_all %a axis(-1) : (tensor<2x5xi1>) -> tensor<2x5xi1>
  return %0 : tensor<2x5xi1>
}

// -----

// ERROR_IF: REDUCE_ALL#2
func.func @reduce_all_output(%a: tensor<2x5xi1>) -> tensor<2x5xi1> {
  // expected-error @+1 {{output dim 1 (the reduced axis) is 5 but must be 1}}
  %0 = tosa.reduce_all %a axis(1) : (tensor<2x5xi1>) -> tensor<2x5xi1>
  return %0 : tensor<2x5xi1>
}

// -----

// ERROR_IF: REDUCE_ANY#1
func.func @reduce_any_axis(%a: tensor<2x5xi1>) -> tensor<2x5xi1> {
  // expected-error @+1 {{axis -1 is out of range for input rank 2 (must be 0 to 1)}}
  %0 = tosa.reduce_any %a axis(-1) : (tensor<2x5xi1>) -> tensor<2x5xi1>
  return %0 : tensor<2x5xi1>
}

// -----

// ERROR_IF: REDUCE_ANY#2
func.func @reduce_any_output(%a: tensor<2x5xi1>) -> tensor<2x5xi1> {
  // expected-error @+1 {{output dim 1 (the reduced axis) is 5 but must be 1}}
  %0 = tosa.reduce_any %a axis(1) : (tensor<2x5xi1>) -> tensor<2x5xi1>
  return %0 : tensor<2x5xi1>
}

// -----

// ERROR_IF: REDUCE_MAX#1
func.func @reduce_max_axis(%a: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{axis -1 is out of range for input rank 2 (must be 0 to 1)}}
  %0 = tosa.reduce_max %a axis(-1) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// ERROR_IF: REDUCE_MAX#2
func.func @reduce_max_output(%a: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{output dim 1 (the reduced axis) is 5 but must be 1}}
  %0 = tosa.reduce_max %a axis(1) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// ERROR_IF: REDUCE_MIN#1
func.func @reduce_min_axis(%a: tensor<2x5xi32>) -> tensor<2x5xi32> {
  // expected-error @+1 {{axis -1 is out of range for input rank 2 (must be 0 to 1)}}
  %0 = tosa.reduce_min %a axis(-1) : (tensor<2x5xi32>) -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}

// -----

// ERROR_IF: REDUCE_MIN#2
func.func @reduce_min_output(%a: tensor<2x5xi32>) -> tensor<2x5xi32> {
  // expected-error @+1 {{output dim 1 (the reduced axis) is 5 but must be 1}}
  %0 = tosa.reduce_min %a axis(1) : (tensor<2x5xi32>) -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}

// -----

// ERROR_IF: REDUCE_PRODUCT#1
func.func @reduce_product_axis(%a: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{axis -1 is out of range for input rank 2 (must be 0 to 1)}}
  %0 = tosa.reduce_product %a axis(-1) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// ERROR_IF: REDUCE_PRODUCT#2
func.func @reduce_product_output(%a: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{output dim 1 (the reduced axis) is 5 but must be 1}}
  %0 = tosa.reduce_product %a axis(1) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// ERROR_IF: REDUCE_SUM#1
func.func @reduce_sum_axis(%a: tensor<2x5xi32>) -> tensor<2x5xi32> {
  // expected-error @+1 {{axis -1 is out of range for input rank 2 (must be 0 to 1)}}
  %0 = tosa.reduce_sum %a axis(-1) : (tensor<2x5xi32>) -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}

// -----

// ERROR_IF: REDUCE_SUM#2
func.func @reduce_sum_output(%a: tensor<2x5xi32>) -> tensor<2x5xi32> {
  // expected-error @+1 {{output dim 1 (the reduced axis) is 5 but must be 1}}
  %0 = tosa.reduce_sum %a axis(1) : (tensor<2x5xi32>) -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}
