// Negative tests of the spec's ERROR_IF conditions of spec 2.10 (data layout) (tosa_xdsl/verification/data_layout.py).
// Each case breaks one condition, named by its `// ERROR_IF: <id>` marker (ids as in
// tosa_xdsl.spec_tables; see docs/error-if.md).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

// ERROR_IF: CONCAT#1
func.func @concat_empty() -> tensor<2xf32> {
  // expected-error @+1 {{input1 must hold at least one tensor}}
  %0 = tosa.concat axis(0) : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// ERROR_IF: CONCAT#2
func.func @concat_axis(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{axis 2 is out of range (must be 0 to 1)}}
  %0 = tosa.concat %a, %b axis(2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// ERROR_IF: CONCAT#3
func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{input1[1] has rank 3 but input1[0] has rank 2; all inputs must have the same rank}}
  %0 = tosa.concat %a, %b axis(1) : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// ERROR_IF: CONCAT#4
func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{input1[1] dim 0 is 4 but input1[0] dim 0 is 2; inputs may differ only along axis 1}}
  %0 = tosa.concat %a, %b axis(1) : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// ERROR_IF: CONCAT#5
func.func @concat_sum(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{output dim 1 is 6 but the inputs' dims 1 sum to 3 + 4 = 7}}
  %0 = tosa.concat %a, %b axis(1) : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// ERROR_IF: PAD#1
func.func @pad_rank(%a: tensor<2x5xf32>) -> tensor<2x5x1xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{same rank}}
  %0 = tosa.pad %a, %p, %c : (tensor<2x5xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x5x1xf32>
  return %0 : tensor<2x5x1xf32>
}

// -----

// ERROR_IF: PAD#2
func.func @pad_negative(%a: tensor<2x5xf32>) -> tensor<2x4xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, -1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{padding of dim 1 is (-1, 0); padding must not be negative}}
  %0 = tosa.pad %a, %p, %c : (tensor<2x5xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// ERROR_IF: PAD#3
func.func @pad_output(%a: tensor<2x5xf32>) -> tensor<2x7xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{output dim 1 is 7 but input dim 1 (5) + padding (1 + 2) = 8}}
  %0 = tosa.pad %a, %p, %c : (tensor<2x5xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// -----

// ERROR_IF: RESHAPE#1
func.func @reshape_size(%a: tensor<2x6xf32>) -> tensor<4x4xf32> {
  %s = tosa.const_shape {values = dense<[4, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{input1 [2, 6] has 12 elements but the new shape [4, 4] has 16}}
  %0 = tosa.reshape %a, %s : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// ERROR_IF: REVERSE#1
func.func @reverse_axis(%a: tensor<2x6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{axis 2 is out of range for input1 (must be 0 to 1)}}
  %0 = tosa.reverse %a axis(2) : (tensor<2x6xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// ERROR_IF: SLICE#1
func.func @slice_length(%a: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %b = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %n = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{start has 3 values but input1 has rank 2}}
  %0 = tosa.slice %a, %b, %n : (tensor<4x6xf32>, !tosa.shape<3>, !tosa.shape<2>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ERROR_IF: SLICE#2
func.func @slice_rank(%a: tensor<4x6xf32>) -> tensor<2x3x1xf32> {
  %b = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{same rank}}
  %0 = tosa.slice %a, %b, %n : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3x1xf32>
  return %0 : tensor<2x3x1xf32>
}

// -----

// ERROR_IF: SLICE#3
func.func @slice_start_negative(%a: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %b = tosa.const_shape {values = dense<[0, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{start[1] is -1; start must not be negative}}
  %0 = tosa.slice %a, %b, %n : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ERROR_IF: SLICE#4
func.func @slice_size_zero(%a: tensor<4x6xf32>) -> tensor<2x0xf32> {
  %b = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.const_shape {values = dense<[2, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{size[1] is 0; size must be positive}}
  %0 = tosa.slice %a, %b, %n : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

// ERROR_IF: SLICE#5
func.func @slice_out_of_bounds(%a: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %b = tosa.const_shape {values = dense<[0, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{start[1] + size[1] = 4 + 3 = 7 exceeds input1 dim 1 (6)}}
  %0 = tosa.slice %a, %b, %n : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ERROR_IF: SLICE#6
func.func @slice_output(%a: tensor<4x6xf32>) -> tensor<2x2xf32> {
  %b = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{output dim 1 is 2 but size[1] is 3}}
  %0 = tosa.slice %a, %b, %n : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// ERROR_IF: TILE#1
func.func @tile_rank(%a: tensor<2x3xf32>) -> tensor<2x6x1xf32> {
  %m = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{same rank}}
  %0 = tosa.tile %a, %m : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x6x1xf32>
  return %0 : tensor<2x6x1xf32>
}

// -----

// ERROR_IF: TILE#2
func.func @tile_output(%a: tensor<2x3xf32>) -> tensor<2x7xf32> {
  %m = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{output dim 1 is 7 but input1 dim 1 (3) * multiples[1] (2) = 6}}
  %0 = tosa.tile %a, %m : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// -----

// ERROR_IF: TRANSPOSE#1
func.func @transpose_rank(%a: tensor<2x3xf32>) -> tensor<3x2x1xf32> {
  // expected-error @+1 {{same rank}}
  %0 = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2x1xf32>
  return %0 : tensor<3x2x1xf32>
}

// -----

// ERROR_IF: TRANSPOSE#2
func.func @transpose_size(%a: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{input1 [2, 3] has 6 elements but the output [3, 3] has 9}}
  %0 = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// ERROR_IF: TRANSPOSE#3
func.func @transpose_perm_too_big(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{perms[0] is 2 but must be less than rank(input1) = 2}}
  %0 = tosa.transpose %a {perms = array<i32: 2, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// ERROR_IF: TRANSPOSE#4
func.func @transpose_perm_negative(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{perms[0] is -1; perms must not be negative}}
  %0 = tosa.transpose %a {perms = array<i32: -1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// ERROR_IF: TRANSPOSE#5
func.func @transpose_perm_repeated(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{perms[1] repeats perms[0] (1); perms must be a permutation}}
  %0 = tosa.transpose %a {perms = array<i32: 1, 1>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// ERROR_IF: TRANSPOSE#6
func.func @transpose_output(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{output dim 0 is 2 but input1 dim perms[0] = 1 is 3}}
  %0 = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
