// Malformed TOSA syntax must be rejected with a located error (one case per chunk).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics

func.func @missing_required_clause(%arg0: tensor<13x21x3xf32>) -> tensor<13x3xi32> {
  // expected-error @+1 {{custom op 'tosa.argmax' expected 'axis'}}
  %0 = tosa.argmax %arg0 : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
  return %0 : tensor<13x3xi32>
}

// -----

func.func @missing_acc_type(%arg0: tensor<1x4x4x4xf32>, %arg1: tensor<8x1x1x4xf32>, %arg2: tensor<8xf32>, %arg3: tensor<1xf32>) -> tensor<1x4x4x8xf32> {
  // expected-error @+1 {{custom op 'tosa.conv2d' expected 'acc_type'}}
  %0 = tosa.conv2d %arg0, %arg1, %arg2, %arg3, %arg3 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

func.func @missing_clause_attr_dict(%arg0: tensor<13x21x3xi8>, %arg1: tensor<1xi32>, %arg2: tensor<1xi8>, %arg3: tensor<1xi32>) -> tensor<13x21x3xi32> {
  // expected-error @+1 {{custom op 'tosa.rescale' expected 'rounding_mode'}}
  %0 = tosa.rescale %arg0, %arg1, %arg2, %arg2, %arg3 {input_unsigned = false, output_unsigned = false, per_channel = false, scale32 = true} : (tensor<13x21x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// -----

func.func @unknown_clause(%arg0: tensor<13x21x3xf32>) -> tensor<13x3xi32> {
  // expected-error @+1 {{unexpected 'foo'}}
  %0 = tosa.argmax %arg0 axis(1) foo(2) : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
  return %0 : tensor<13x3xi32>
}

// -----

func.func @clause_twice(%arg0: tensor<13x21x3xf32>) -> tensor<13x3xi32> {
  // expected-error @+1 {{'axis' given twice}}
  %0 = tosa.argmax %arg0 axis(1) axis(1) : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
  return %0 : tensor<13x3xi32>
}

// -----

func.func @clause_twice_attr_dict(%arg0: tensor<13x21x3xf32>) -> tensor<13x3xi32> {
  // expected-error @+1 {{'axis' given twice}}
  %0 = tosa.argmax %arg0 {axis = 1 : i32, axis = 0 : i32} : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
  return %0 : tensor<13x3xi32>
}

// -----

func.func @clause_and_attr_dict_entry(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  // expected-error @+1 {{'min_val' given twice}}
  %0 = tosa.clamp %arg0 min_val(0.000000e+00 : f32) max_val(1.000000e+00 : f32) {min_val = 0.000000e+00 : f32} : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// -----

func.func @bad_enum_keyword(%arg0: tensor<13x21x3xf32>) -> tensor<13x3xi32> {
  // expected-error @+1 {{'nan_mode' must be one of PROPAGATE, IGNORE, got 'SOMETIMES'}}
  %0 = tosa.argmax %arg0 axis(1) nan_mode<SOMETIMES> : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
  return %0 : tensor<13x3xi32>
}

// -----

func.func @bad_enum_attr_dict(%arg0: tensor<13x21x3xi8>, %arg1: tensor<1xi32>, %arg2: tensor<1xi8>, %arg3: tensor<1xi32>) -> tensor<13x21x3xi32> {
  // expected-error @+1 {{'rounding_mode' must be one of SINGLE_ROUND, INEXACT_ROUND, DOUBLE_ROUND, got 'TRIPLE_ROUND'}}
  %0 = tosa.rescale %arg0, %arg1, %arg2, %arg2, %arg3 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = TRIPLE_ROUND, scale32 = true} : (tensor<13x21x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// -----

func.func @bad_resize_mode(%arg0: tensor<1x4x4x2xf32>, %arg1: !tosa.shape<4>, %arg2: !tosa.shape<2>) -> tensor<1x4x4x2xf32> {
  // expected-error @+1 {{'mode' must be one of NEAREST_NEIGHBOR, BILINEAR, got 'BICUBIC'}}
  %0 = tosa.resize %arg0, %arg1, %arg2, %arg2 mode<BICUBIC> : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

func.func @operand_count_mismatch(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.add' has 2 operands but the type lists 1}}
  %0 = tosa.add %arg0, %arg0 : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @variadic_count_mismatch(%arg0: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.concat' has 2 operands but the type lists 3}}
  %0 = tosa.concat %arg0, %arg0 axis(0) : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @result_count_mismatch(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{Operation has 2 results, but was given 1 to bind}}
  %0 = tosa.add %arg0, %arg0 : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0 : tensor<2xf32>
}

// -----

func.func @clause_value_kind(%arg0: tensor<13x21x3xf32>) -> tensor<13x3xi32> {
  // expected-error @+1 {{Expected integer literal}}
  %0 = tosa.argmax %arg0 axis(true) : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
  return %0 : tensor<13x3xi32>
}

// -----

// expected-error @+1 {{#tosa.target_env requires specification_version}}
module attributes {tosa.target_env = #tosa.target_env<level = none, profiles = [pro_int]>} {}

// -----

// expected-error @+1 {{unknown #tosa.target_env key 'colour'}}
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_int], colour = red>} {}

// -----

// expected-error @+1 {{unknown TOSA level '16k'}}
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "16k", profiles = [pro_int], extensions = []>} {}

// -----

// expected-error @+1 {{unknown TOSA profile 'pro_magic'}}
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_magic], extensions = []>} {}

// -----

// expected-error @+1 {{unknown TOSA extension 'warp_drive'}}
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_fp], extensions = [warp_drive]>} {}

// -----

// expected-error @+1 {{unsupported TOSA specification_version '2.0'}}
module attributes {tosa.target_env = #tosa.target_env<specification_version = "2.0", level = none, profiles = [pro_fp], extensions = []>} {}

// -----

// expected-error @+1 {{Expected integer literal}}
func.func @shape_negative_rank(%arg0: !tosa.shape<-1>) {
  return
}

// -----

// expected-error @+1 {{Expected integer literal}}
func.func @shape_not_a_rank(%arg0: !tosa.shape<x>) {
  return
}

// -----

func.func @cond_if_without_else(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = tosa.cond_if %arg0 (%arg2 = %arg1) : tensor<i1> (tensor<f32>) -> tensor<f32> {
  ^bb0(%arg2: tensor<f32>):
    tosa.yield %arg2 : tensor<f32>
  }
  // expected-error @+1 {{Expected 'else'}}
  return %0 : tensor<f32>
}

// -----

func.func @cond_if_input_types_missing(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tosa.cond_if' has 1 inputs but 0 input types}}
  %0 = tosa.cond_if %arg0 (%arg2 = %arg1) : tensor<i1> -> tensor<f32> {
  ^bb0(%arg2: tensor<f32>):
    tosa.yield %arg2 : tensor<f32>
  } else {
  ^bb0(%arg2: tensor<f32>):
    tosa.yield %arg2 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @while_loop_without_do(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = tosa.while_loop (%arg1 = %arg0) : (tensor<i32>) -> tensor<i32> {
    %1 = tosa.greater %arg1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %1 : tensor<i1>
  // expected-error @+1 {{Expected 'do'}}
  } {
  ^bb0(%arg1: tensor<i32>):
    tosa.yield %arg1 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @while_loop_without_assignments(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'(' expected}}
  %0 = tosa.while_loop %arg0 : (tensor<i32>) -> tensor<i32> {
    %1 = tosa.greater %arg0, %arg0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %1 : tensor<i1>
  } do {
  ^bb0(%arg1: tensor<i32>):
    tosa.yield %arg1 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

// expected-error @+1 {{tosa.variable initial value must be a tensor-typed dense attribute}}
tosa.variable @scalar_init = 3 : i8

// -----

// expected-error @+1 {{tosa.variable expects a ranked tensor type, got i8}}
tosa.variable @not_a_tensor : i8

// -----

// expected-error @+1 {{expect symbol name}}
tosa.variable no_at_sign : tensor<2xi8>

// -----

func.func @variable_write_without_comma(%arg0: tensor<2xi8>) {
  // expected-error @+1 {{Expected ','}}
  tosa.variable_write @v %arg0 : tensor<2xi8>
  return
}
