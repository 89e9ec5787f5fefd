// Compile-time constants (spec 2.1, Compile Time Constant Status tables).
// RUN: tosa-opt %s -p tosa-validate --split-input-file --verify-diagnostics -o /dev/null

// conv_zp_variable
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>, %izp: tensor<1xi8>) -> tensor<1x16x16x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.conv2d' op expected compile time resolvable constant, but got variable value for operand #3 (input_zp, produced by a block argument): it is a compile-time constant under pro_fp, pro_int unless extension dynamic is enabled}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x16x3xi32>
      return %r : tensor<1x16x16x3xi32>
  }
}

// -----

// conv_zp_variable_dynamic
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [dynamic]>} {
  func.func @main(%x: tensor<1x16x16x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>, %izp: tensor<1xi8>) -> tensor<1x16x16x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x16x3xi32>
      return %r : tensor<1x16x16x3xi32>
  }
}

// -----

// reshape_shape_variable
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  // A graph's inputs are tensors (upstream's message; tests/filecheck/upstream/validate_options.mlir)
  // expected-error @+1 {{'func.func' op Function argument types must be a tensor type to be TOSA compliant, got !tosa.shape type}}
  func.func @main(%x: tensor<6xf32>, %s: !tosa.shape<2>) -> tensor<2x3xf32> {
      // expected-error @+1 {{'tosa.reshape' op expected compile time resolvable constant, but got variable value for operand #1 (shape, produced by a block argument): it is a compile-time constant under pro_fp, pro_int unless extension dynamic is enabled}}
      %r = tosa.reshape %x, %s : (tensor<6xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
  }
}

// -----

// reshape_valid
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<6xf32>) -> tensor<2x3xf32> {
      %s = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %r = tosa.reshape %x, %s : (tensor<6xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
  }
}

// -----

// mul_shift_variable
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>, %s: tensor<1xi8>) -> tensor<4xi32> {
      // expected-error @+1 {{'tosa.mul' op expected compile time resolvable constant, but got variable value for operand #2 (shift, produced by a block argument): it is a compile-time constant under pro_fp, pro_int unless extension dynamic is enabled}}
      %r = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
      return %r : tensor<4xi32>
  }
}

// -----

// rescale_multiplier_variable
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<4xi8>, %m: tensor<1xi32>) -> tensor<4xi8> {
      %zi = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %zo = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.rescale' op expected compile time resolvable constant, but got variable value for operand #1 (multiplier, produced by a block argument): it is a compile-time constant under pro_int unless extension dynamic is enabled}}
      %r = tosa.rescale %x, %m, %s, %zi, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
      return %r : tensor<4xi8>
  }
}
