// Profiles and extensions (spec 1.6): type combinations and enum values allowed only by an enabled profile/extension.
// RUN: tosa-opt %s -p tosa-validate --split-input-file --verify-diagnostics -o /dev/null

// conv_i16_no_ext
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xi16>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi48>) -> tensor<1x16x16x3xi48> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi16>} : () -> tensor<1xi16>
      // expected-error @+1 {{'tosa.conv2d' op type combination (i16, i8, i48, i48) requires extension int16 (enabled: pro_int, pro_fp)}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi16>, tensor<3x1x1x2xi8>, tensor<3xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x16x16x3xi48>
      return %r : tensor<1x16x16x3xi48>
  }
}

// -----

// conv_i16_ext
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [int16]>} {
  func.func @main(%x: tensor<1x16x16x2xi16>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi48>) -> tensor<1x16x16x3xi48> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi16>} : () -> tensor<1xi16>
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi16>, tensor<3x1x1x2xi8>, tensor<3xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x16x16x3xi48>
      return %r : tensor<1x16x16x3xi48>
  }
}

// -----

// conv_i4_no_ext
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xi8>, %w: tensor<3x1x1x2xi4>, %b: tensor<3xi32>) -> tensor<1x16x16x3xi32> {
      // expected-error @+1 {{'tosa.const' op type combination (i4) requires extension int4 (enabled: pro_int, pro_fp)}}
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi4>} : () -> tensor<1xi4>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.conv2d' op type combination (i8, i4, i32, i32) requires extension int4 (enabled: pro_int, pro_fp)}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi8>, tensor<3x1x1x2xi4>, tensor<3xi32>, tensor<1xi8>, tensor<1xi4>) -> tensor<1x16x16x3xi32>
      return %r : tensor<1x16x16x3xi32>
  }
}

// -----

// conv_f32_int_only
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xf32>, %w: tensor<3x1x1x2xf32>, %b: tensor<3xf32>) -> tensor<1x16x16x3xf32> {
      // expected-error @+1 {{'tosa.const' op type combination (f32) requires profile pro_fp (enabled: pro_int)}}
      %wzp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      // expected-error @+1 {{'tosa.const' op type combination (f32) requires profile pro_fp (enabled: pro_int)}}
      %izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      // expected-error @+1 {{'tosa.conv2d' op type combination (f32, f32, f32, f32) requires profile pro_fp (enabled: pro_int)}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x3xf32>
      return %r : tensor<1x16x16x3xf32>
  }
}

// -----

// conv_i8_fp_only
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x16x16x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.conv2d' op type combination (i8, i8, i32, i32) requires profile pro_int (enabled: pro_fp)}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x16x3xi32>
      return %r : tensor<1x16x16x3xi32>
  }
}

// -----

// conv_bf16
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xbf16>, %w: tensor<3x1x1x2xbf16>, %b: tensor<3xbf16>) -> tensor<1x16x16x3xbf16> {
      // expected-error @+1 {{'tosa.const' op type combination (bf16) requires extension bf16 (enabled: pro_int, pro_fp)}}
      %wzp = "tosa.const"() {values = dense<0.0> : tensor<1xbf16>} : () -> tensor<1xbf16>
      // expected-error @+1 {{'tosa.const' op type combination (bf16) requires extension bf16 (enabled: pro_int, pro_fp)}}
      %izp = "tosa.const"() {values = dense<0.0> : tensor<1xbf16>} : () -> tensor<1xbf16>
      // expected-error @+1 {{'tosa.conv2d' op type combination (bf16, bf16, bf16, f32) requires extension bf16 (enabled: pro_int, pro_fp)}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xbf16>, tensor<3x1x1x2xbf16>, tensor<3xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x16x16x3xbf16>
      return %r : tensor<1x16x16x3xbf16>
  }
}

// -----

// conv_bf16_ext
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [bf16]>} {
  func.func @main(%x: tensor<1x16x16x2xbf16>, %w: tensor<3x1x1x2xbf16>, %b: tensor<3xbf16>) -> tensor<1x16x16x3xbf16> {
      %wzp = "tosa.const"() {values = dense<0.0> : tensor<1xbf16>} : () -> tensor<1xbf16>
      %izp = "tosa.const"() {values = dense<0.0> : tensor<1xbf16>} : () -> tensor<1xbf16>
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xbf16>, tensor<3x1x1x2xbf16>, tensor<3xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x16x16x3xbf16>
      return %r : tensor<1x16x16x3xbf16>
  }
}

// -----

// bitwise_and_i16_int_profile
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int], extensions = []>} {
  func.func @main(%a: tensor<2x3xi16>, %b: tensor<2x3xi16>) -> tensor<2x3xi16> {
      %r = tosa.bitwise_and %a, %b : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
      return %r : tensor<2x3xi16>
  }
}

// -----

// rfft_no_fft
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x8x8xf32>) -> tensor<1x8x5xf32> {
      // expected-error @+1 {{'tosa.rfft2d' op type combination (f32) requires extension fft (enabled: pro_int, pro_fp)}}
      %r, %i = tosa.rfft2d %x : (tensor<1x8x8xf32>) -> (tensor<1x8x5xf32>, tensor<1x8x5xf32>)
      return %r : tensor<1x8x5xf32>
  }
}

// -----

// cond_if_no_controlflow
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%c: tensor<i1>, %v: tensor<f32>) -> tensor<f32> {
      // expected-error @+1 {{'tosa.cond_if' op the operator requires extension controlflow (enabled: pro_int, pro_fp)}}
      %r1 = tosa.cond_if %c (%c1 = %c, %v1 = %v) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
      ^bb0(%c1: tensor<i1>, %v1: tensor<f32>):
        tosa.yield %v1 : tensor<f32>
      } else {
      ^bb0(%c1: tensor<i1>, %v1: tensor<f32>):
        tosa.yield %v1 : tensor<f32>
      }
      return %r1 : tensor<f32>
  }
}

// -----

// rescale_double_round
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<4xi8>) -> tensor<4xi8> {
      %zi = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %zo = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
      %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
      // expected-error @+1 {{'tosa.rescale' op rounding_mode DOUBLE_ROUND requires extension doubleround (enabled: pro_int, pro_fp)}}
      %r = tosa.rescale %x, %m, %s, %zi, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
      return %r : tensor<4xi8>
  }
}

// -----

// rescale_double_round_ext
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [doubleround]>} {
  func.func @main(%x: tensor<4xi8>) -> tensor<4xi8> {
      %zi = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %zo = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
      %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
      %r = tosa.rescale %x, %m, %s, %zi, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
      return %r : tensor<4xi8>
  }
}

// -----

// rescale_inexact_round
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<4xi8>) -> tensor<4xi8> {
      %zi = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %zo = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
      %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
      // expected-error @+1 {{'tosa.rescale' op rounding_mode INEXACT_ROUND requires extension inexactround (enabled: pro_int, pro_fp)}}
      %r = tosa.rescale %x, %m, %s, %zi, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = INEXACT_ROUND, scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
      return %r : tensor<4xi8>
  }
}

// -----

// rescale_multiplier_variable_fp_only
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_fp], extensions = []>} {
  func.func @main(%x: tensor<4xi8>, %m: tensor<1xi32>) -> tensor<4xi8> {
      %zi = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %zo = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.rescale' op type combination (i8, i8) requires profile pro_int (enabled: pro_fp)}}
      %r = tosa.rescale %x, %m, %s, %zi, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
      return %r : tensor<4xi8>
  }
}
