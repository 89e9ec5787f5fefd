// Negative tests of the Supported Data Types tables (tosa_xdsl/verification/data_types.py):
// element types that form no row of the operator's table in any profile or extension.
// Marker id: supported_data_types (= tosa_execute_graph#6, spec 2.2).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

// (ADD/SUB/MUL on i1/i8/i16/ui8/ui16 with one type throughout are accepted, as upstream's
// verifier accepts them: tests/producers/test_wrapping_rows.py; INTDIV's ODS takes i32/i64 only)
// ERROR_IF: supported_data_types tosa_execute_graph#6
func.func @intdiv_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{operand/result element types (i8, i8) -> i8 are not a supported combination; supported: i32 (PRO-INT or PRO-FP)}}
  %0 = tosa.intdiv %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// ERROR_IF: supported_data_types
func.func @mul_i16_to_i8(%a: tensor<4xi16>, %b: tensor<4xi16>) -> tensor<4xi8> {
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{(in_t=i16, out_t=i8) are not a supported combination; supported: (in_t=f16, out_t=f16)}}
  %0 = tosa.mul %a, %b, %s : (tensor<4xi16>, tensor<4xi16>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// ERROR_IF: supported_data_types
func.func @mul_shift_i16(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %s = "tosa.const"() {values = dense<0> : tensor<1xi16>} : () -> tensor<1xi16>
  // expected-error @+1 {{shift element type is i16 but must be i8 (i8_t)}}
  %0 = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi16>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// ERROR_IF: supported_data_types
func.func @conv2d_acc_type(%a: tensor<1x4x4x4xf16>, %w: tensor<8x1x1x4xf16>, %b: tensor<8xf16>) -> tensor<1x4x4x8xf16> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  // expected-error @+1 {{with acc_type = i32 (in_t=f16, weight_t=f16, out_t=f16, acc_t=i32) are not a supported combination}}
  %0 = tosa.conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x4x4x4xf16>, tensor<8x1x1x4xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
  return %0 : tensor<1x4x4x8xf16>
}

// -----

// ERROR_IF: supported_data_types
func.func @table_size(%a: tensor<4xi8>, %t: tensor<513xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{table has 513 entries but TABLE_SIZE is 256 for input element type i8}}
  %0 = tosa.table %a, %t : (tensor<4xi8>, tensor<513xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// ERROR_IF: supported_data_types
// (upstream's verifier types INTDIV i32/i64 only; ARGMAX on i1, which it accepts, is accepted:
// tests/producers/test_upstream_rows.py)
func.func @intdiv_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{operand/result element types (i8, i8) -> i8 are not a supported combination; supported: i32 (PRO-INT or PRO-FP)}}
  %0 = tosa.intdiv %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// ERROR_IF: supported_data_types
// (upstream rejects index tensors too; CONCAT on i48, which it accepts, is accepted)
func.func @concat_list(%a: tensor<2xindex>, %b: tensor<2xindex>) -> tensor<4xindex> {
  // expected-error @+1 {{operand/result element types (index, index) -> index are not a supported combination}}
  %0 = tosa.concat %a, %b axis(0) : (tensor<2xindex>, tensor<2xindex>) -> tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

// ERROR_IF: supported_data_types
func.func @cast_same_type(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{operand/result element types (i8) -> i8 (in_t=i8, out_t=i8) are not a supported combination}}
  %0 = tosa.cast %a : (tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// ERROR_IF: supported_data_types
func.func @cond_if_condition_type(%c: tensor<i8>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{condition element type is i8 but must be i1 (bool_t)}}
  %0 = tosa.cond_if %c (%x = %a) : tensor<i8> (tensor<f32>) -> tensor<f32> {
    ^bb0(%x: tensor<f32>):
      tosa.yield %x : tensor<f32>
    } else {
    ^bb0(%x: tensor<f32>):
      tosa.yield %x : tensor<f32>
    }
  return %0 : tensor<f32>
}

// -----

// ERROR_IF: supported_data_types
module {
  // expected-error @+1 {{'tosa.variable' op operand/result element types type = i1 are not a supported combination}}
  tosa.variable @v : tensor<2xi1>
}
