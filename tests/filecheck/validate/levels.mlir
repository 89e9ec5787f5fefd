// Level checks (spec 1.7): each case breaks one LEVEL_CHECK / level limit, or sits just inside it.
// RUN: tosa-opt %s -p tosa-validate --split-input-file --verify-diagnostics -o /dev/null

// conv_valid
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x16x16x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x16x3xi32>
      return %r : tensor<1x16x16x3xi32>
  }
}

// -----

// conv_stride_y
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x9001x16x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x2x16x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.conv2d' op failed level check: stride_y <= MAX_STRIDE (8192), got 9000}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 9000, 1>} : (tensor<1x9001x16x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x16x3xi32>
      return %r : tensor<1x2x16x3xi32>
  }
}

// -----

// conv_stride_x
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x8194x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x16x2x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.conv2d' op failed level check: stride_x <= MAX_STRIDE (8192), got 8193}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 8193>} : (tensor<1x16x8194x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x2x3xi32>
      return %r : tensor<1x16x2x3xi32>
  }
}

// -----

// conv_dilation_kh
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x8196x16x2xi8>, %w: tensor<3x2x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x2x16x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.conv2d' op failed level check: dilation_y * KH <= MAX_KERNEL (8192), got 16388}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 8194, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8196x16x2xi8>, tensor<3x2x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x16x3xi32>
      return %r : tensor<1x2x16x3xi32>
  }
}

// -----

// conv_pad_top
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x8209x16x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      // expected-error @+1 {{'tosa.conv2d' op failed level check: pad_top <= MAX_KERNEL (8192), got 8193}}
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 8193, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8209x16x3xi32>
      return %r : tensor<1x8209x16x3xi32>
  }
}

// -----

// conv_pad_right_level_none
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x16x8209x3xi32> {
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %r = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 8193>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x8209x3xi32>
      return %r : tensor<1x16x8209x3xi32>
  }
}

// -----

// maxpool_kernel
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x8193x16x1xf32>) -> tensor<1x1x16x1xf32> {
      // expected-error @+1 {{'tosa.max_pool2d' op failed level check: kernel_y <= MAX_KERNEL (8192), got 8193}}
      %r = tosa.max_pool2d %x {kernel = array<i64: 8193, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8193x16x1xf32>) -> tensor<1x1x16x1xf32>
      return %r : tensor<1x1x16x1xf32>
  }
}

// -----

// maxpool_pad
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x8194x1xf32>) -> tensor<1x15x8194x1xf32> {
      // expected-error @+2 {{'tosa.max_pool2d' op failed level check: kernel_x <= MAX_KERNEL (8192), got 8194}}
      // expected-error @+1 {{'tosa.max_pool2d' op failed level check: pad_right <= MAX_KERNEL (8192), got 8193}}
      %r = tosa.max_pool2d %x {kernel = array<i64: 2, 8194>, pad = array<i64: 0, 0, 0, 8193>, stride = array<i64: 1, 1>} : (tensor<1x16x8194x1xf32>) -> tensor<1x15x8194x1xf32>
      return %r : tensor<1x15x8194x1xf32>
  }
}

// -----

// avgpool_stride
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x8194x16x1xf32>) -> tensor<1x2x16x1xf32> {
      %izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      %ozp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      // expected-error @+1 {{'tosa.avg_pool2d' op failed level check: stride_y <= MAX_STRIDE (8192), got 8193}}
      %r = tosa.avg_pool2d %x, %izp, %ozp {acc_type = f32, kernel = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 8193, 1>} : (tensor<1x8194x16x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x16x1xf32>
      return %r : tensor<1x2x16x1xf32>
  }
}

// -----

// avgpool_valid
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x16x16x1xf32>) -> tensor<1x8x8x1xf32> {
      %izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      %ozp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      %r = tosa.avg_pool2d %x, %izp, %ozp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x16x16x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x1xf32>
      return %r : tensor<1x8x8x1xf32>
  }
}

// -----

// tconv_kh
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x4x4x2xf32>, %w: tensor<3x8193x1x2xf32>, %b: tensor<3xf32>) -> tensor<1x8196x4x3xf32> {
      %izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      %wzp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      // expected-error @+1 {{'tosa.transpose_conv2d' op failed level check: KH <= MAX_KERNEL (8192), got 8193}}
      %r = tosa.transpose_conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x8193x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8196x4x3xf32>
      return %r : tensor<1x8196x4x3xf32>
  }
}

// -----

// tconv_out_pad
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x4x4x2xf32>, %w: tensor<3x1x1x2xf32>, %b: tensor<3xf32>) -> tensor<1x8197x4x3xf32> {
      %izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      %wzp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      // expected-error @+1 {{'tosa.transpose_conv2d' op failed level check: out_pad_bottom <= MAX_KERNEL (8192), got 8193}}
      %r = tosa.transpose_conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, out_pad = array<i64: 0, 8193, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8197x4x3xf32>
      return %r : tensor<1x8197x4x3xf32>
  }
}

// -----

// tconv_stride
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x4x4x2xf32>, %w: tensor<3x1x1x2xf32>, %b: tensor<3xf32>) -> tensor<1x4x24580x3xf32> {
      %izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      %wzp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
      // expected-error @+1 {{'tosa.transpose_conv2d' op failed level check: stride_x <= MAX_STRIDE (8192), got 8193}}
      %r = tosa.transpose_conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 8193>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x24580x3xf32>
      return %r : tensor<1x4x24580x3xf32>
  }
}

// -----

// rfft_h
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [fft]>} {
  func.func @main(%x: tensor<1x16384x2xf32>) -> tensor<1x16384x2xf32> {
      // expected-error @+1 {{'tosa.rfft2d' op failed level check: H <= MAX_KERNEL (8192), got 16384}}
      %r, %i = tosa.rfft2d %x : (tensor<1x16384x2xf32>) -> (tensor<1x16384x2xf32>, tensor<1x16384x2xf32>)
      return %r : tensor<1x16384x2xf32>
  }
}

// -----

// rfft_valid
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [fft]>} {
  func.func @main(%x: tensor<1x8x8xf32>) -> tensor<1x8x5xf32> {
      %r, %i = tosa.rfft2d %x : (tensor<1x8x8xf32>) -> (tensor<1x8x5xf32>, tensor<1x8x5xf32>)
      return %r : tensor<1x8x5xf32>
  }
}

// -----

// resize_scale
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
      %s = tosa.const_shape {values = dense<[257, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
      %o = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
      // expected-error @+1 {{'tosa.resize' op failed level check: scale_y_n/scale_y_d <= MAX_SCALE (256), got 257}}
      %r = tosa.resize %x, %s, %o, %o {mode = NEAREST_NEIGHBOR} : (tensor<1x1x1x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1x1x1xf32>
      return %r : tensor<1x1x1x1xf32>
  }
}

// -----

// resize_scale_ok
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%x: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
      %s = tosa.const_shape {values = dense<[512, 2, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
      %o = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
      %r = tosa.resize %x, %s, %o, %o {mode = NEAREST_NEIGHBOR} : (tensor<1x1x1x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1x1x1xf32>
      return %r : tensor<1x1x1x1xf32>
  }
}

// -----

// rank_7
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%a: tensor<1x1x1x1x1x1x2xf32>, %b: tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32> {
      // expected-error @+3 {{'tosa.add' op failed level check: rank(input1) <= MAX_RANK (6), got 7}}
      // expected-error @+2 {{'tosa.add' op failed level check: rank(input2) <= MAX_RANK (6), got 7}}
      // expected-error @+1 {{'tosa.add' op failed level check: rank(output) <= MAX_RANK (6), got 7}}
      %r = tosa.add %a, %b : (tensor<1x1x1x1x1x1x2xf32>, tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32>
      return %r : tensor<1x1x1x1x1x1x2xf32>
  }
}

// -----

// rank_6
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%a: tensor<1x1x1x1x1x2xf32>, %b: tensor<1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x2xf32> {
      %r = tosa.add %a, %b : (tensor<1x1x1x1x1x2xf32>, tensor<1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x2xf32>
      return %r : tensor<1x1x1x1x1x2xf32>
  }
}

// -----

// rank_7_level_none
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%a: tensor<1x1x1x1x1x1x2xf32>, %b: tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32> {
      %r = tosa.add %a, %b : (tensor<1x1x1x1x1x1x2xf32>, tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32>
      return %r : tensor<1x1x1x1x1x1x2xf32>
  }
}

// -----

// concat_65
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%a0: tensor<1xf32>, %a1: tensor<1xf32>, %a2: tensor<1xf32>, %a3: tensor<1xf32>, %a4: tensor<1xf32>, %a5: tensor<1xf32>, %a6: tensor<1xf32>, %a7: tensor<1xf32>, %a8: tensor<1xf32>, %a9: tensor<1xf32>, %a10: tensor<1xf32>, %a11: tensor<1xf32>, %a12: tensor<1xf32>, %a13: tensor<1xf32>, %a14: tensor<1xf32>, %a15: tensor<1xf32>, %a16: tensor<1xf32>, %a17: tensor<1xf32>, %a18: tensor<1xf32>, %a19: tensor<1xf32>, %a20: tensor<1xf32>, %a21: tensor<1xf32>, %a22: tensor<1xf32>, %a23: tensor<1xf32>, %a24: tensor<1xf32>, %a25: tensor<1xf32>, %a26: tensor<1xf32>, %a27: tensor<1xf32>, %a28: tensor<1xf32>, %a29: tensor<1xf32>, %a30: tensor<1xf32>, %a31: tensor<1xf32>, %a32: tensor<1xf32>, %a33: tensor<1xf32>, %a34: tensor<1xf32>, %a35: tensor<1xf32>, %a36: tensor<1xf32>, %a37: tensor<1xf32>, %a38: tensor<1xf32>, %a39: tensor<1xf32>, %a40: tensor<1xf32>, %a41: tensor<1xf32>, %a42: tensor<1xf32>, %a43: tensor<1xf32>, %a44: tensor<1xf32>, %a45: tensor<1xf32>, %a46: tensor<1xf32>, %a47: tensor<1xf32>, %a48: tensor<1xf32>, %a49: tensor<1xf32>, %a50: tensor<1xf32>, %a51: tensor<1xf32>, %a52: tensor<1xf32>, %a53: tensor<1xf32>, %a54: tensor<1xf32>, %a55: tensor<1xf32>, %a56: tensor<1xf32>, %a57: tensor<1xf32>, %a58: tensor<1xf32>, %a59: tensor<1xf32>, %a60: tensor<1xf32>, %a61: tensor<1xf32>, %a62: tensor<1xf32>, %a63: tensor<1xf32>, %a64: tensor<1xf32>) -> tensor<65xf32> {
      // expected-error @+1 {{'tosa.concat' op failed level check: tensor_list_shape(input1) <= MAX_TENSOR_LIST_SIZE (64), got 65}}
      %r = tosa.concat %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %a20, %a21, %a22, %a23, %a24, %a25, %a26, %a27, %a28, %a29, %a30, %a31, %a32, %a33, %a34, %a35, %a36, %a37, %a38, %a39, %a40, %a41, %a42, %a43, %a44, %a45, %a46, %a47, %a48, %a49, %a50, %a51, %a52, %a53, %a54, %a55, %a56, %a57, %a58, %a59, %a60, %a61, %a62, %a63, %a64 {axis = 0 : i32} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<65xf32>
      return %r : tensor<65xf32>
  }
}

// -----

// concat_64
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = []>} {
  func.func @main(%a0: tensor<1xf32>, %a1: tensor<1xf32>, %a2: tensor<1xf32>, %a3: tensor<1xf32>, %a4: tensor<1xf32>, %a5: tensor<1xf32>, %a6: tensor<1xf32>, %a7: tensor<1xf32>, %a8: tensor<1xf32>, %a9: tensor<1xf32>, %a10: tensor<1xf32>, %a11: tensor<1xf32>, %a12: tensor<1xf32>, %a13: tensor<1xf32>, %a14: tensor<1xf32>, %a15: tensor<1xf32>, %a16: tensor<1xf32>, %a17: tensor<1xf32>, %a18: tensor<1xf32>, %a19: tensor<1xf32>, %a20: tensor<1xf32>, %a21: tensor<1xf32>, %a22: tensor<1xf32>, %a23: tensor<1xf32>, %a24: tensor<1xf32>, %a25: tensor<1xf32>, %a26: tensor<1xf32>, %a27: tensor<1xf32>, %a28: tensor<1xf32>, %a29: tensor<1xf32>, %a30: tensor<1xf32>, %a31: tensor<1xf32>, %a32: tensor<1xf32>, %a33: tensor<1xf32>, %a34: tensor<1xf32>, %a35: tensor<1xf32>, %a36: tensor<1xf32>, %a37: tensor<1xf32>, %a38: tensor<1xf32>, %a39: tensor<1xf32>, %a40: tensor<1xf32>, %a41: tensor<1xf32>, %a42: tensor<1xf32>, %a43: tensor<1xf32>, %a44: tensor<1xf32>, %a45: tensor<1xf32>, %a46: tensor<1xf32>, %a47: tensor<1xf32>, %a48: tensor<1xf32>, %a49: tensor<1xf32>, %a50: tensor<1xf32>, %a51: tensor<1xf32>, %a52: tensor<1xf32>, %a53: tensor<1xf32>, %a54: tensor<1xf32>, %a55: tensor<1xf32>, %a56: tensor<1xf32>, %a57: tensor<1xf32>, %a58: tensor<1xf32>, %a59: tensor<1xf32>, %a60: tensor<1xf32>, %a61: tensor<1xf32>, %a62: tensor<1xf32>, %a63: tensor<1xf32>) -> tensor<64xf32> {
      %r = tosa.concat %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %a20, %a21, %a22, %a23, %a24, %a25, %a26, %a27, %a28, %a29, %a30, %a31, %a32, %a33, %a34, %a35, %a36, %a37, %a38, %a39, %a40, %a41, %a42, %a43, %a44, %a45, %a46, %a47, %a48, %a49, %a50, %a51, %a52, %a53, %a54, %a55, %a56, %a57, %a58, %a59, %a60, %a61, %a62, %a63 {axis = 0 : i32} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<64xf32>
      return %r : tensor<64xf32>
  }
}

// -----

// nesting_6
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [controlflow]>} {
  func.func @main(%c: tensor<i1>, %v: tensor<f32>) -> tensor<f32> {
      %r1 = tosa.cond_if %c (%c1 = %c, %v1 = %v) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
      ^bb0(%c1: tensor<i1>, %v1: tensor<f32>):
        %r2 = tosa.cond_if %c1 (%c2 = %c1, %v2 = %v1) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
        ^bb0(%c2: tensor<i1>, %v2: tensor<f32>):
          %r3 = tosa.cond_if %c2 (%c3 = %c2, %v3 = %v2) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
          ^bb0(%c3: tensor<i1>, %v3: tensor<f32>):
            %r4 = tosa.cond_if %c3 (%c4 = %c3, %v4 = %v3) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
            ^bb0(%c4: tensor<i1>, %v4: tensor<f32>):
              %r5 = tosa.cond_if %c4 (%c5 = %c4, %v5 = %v4) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
              ^bb0(%c5: tensor<i1>, %v5: tensor<f32>):
                %r6 = tosa.cond_if %c5 (%c6 = %c5, %v6 = %v5) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
                ^bb0(%c6: tensor<i1>, %v6: tensor<f32>):
                  tosa.yield %v6 : tensor<f32>
                } else {
                ^bb0(%c6: tensor<i1>, %v6: tensor<f32>):
                  tosa.yield %v6 : tensor<f32>
                }
                tosa.yield %r6 : tensor<f32>
              } else {
              ^bb0(%c5: tensor<i1>, %v5: tensor<f32>):
                tosa.yield %v5 : tensor<f32>
              }
              tosa.yield %r5 : tensor<f32>
            } else {
            ^bb0(%c4: tensor<i1>, %v4: tensor<f32>):
              tosa.yield %v4 : tensor<f32>
            }
            tosa.yield %r4 : tensor<f32>
          } else {
          ^bb0(%c3: tensor<i1>, %v3: tensor<f32>):
            tosa.yield %v3 : tensor<f32>
          }
          tosa.yield %r3 : tensor<f32>
        } else {
        ^bb0(%c2: tensor<i1>, %v2: tensor<f32>):
          tosa.yield %v2 : tensor<f32>
        }
        tosa.yield %r2 : tensor<f32>
      } else {
      ^bb0(%c1: tensor<i1>, %v1: tensor<f32>):
        tosa.yield %v1 : tensor<f32>
      }
      return %r1 : tensor<f32>
  }
}

// -----

// nesting_7
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [controlflow]>} {
  func.func @main(%c: tensor<i1>, %v: tensor<f32>) -> tensor<f32> {
      %r1 = tosa.cond_if %c (%c1 = %c, %v1 = %v) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
      ^bb0(%c1: tensor<i1>, %v1: tensor<f32>):
        %r2 = tosa.cond_if %c1 (%c2 = %c1, %v2 = %v1) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
        ^bb0(%c2: tensor<i1>, %v2: tensor<f32>):
          %r3 = tosa.cond_if %c2 (%c3 = %c2, %v3 = %v2) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
          ^bb0(%c3: tensor<i1>, %v3: tensor<f32>):
            %r4 = tosa.cond_if %c3 (%c4 = %c3, %v4 = %v3) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
            ^bb0(%c4: tensor<i1>, %v4: tensor<f32>):
              %r5 = tosa.cond_if %c4 (%c5 = %c4, %v5 = %v4) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
              ^bb0(%c5: tensor<i1>, %v5: tensor<f32>):
                %r6 = tosa.cond_if %c5 (%c6 = %c5, %v6 = %v5) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
                ^bb0(%c6: tensor<i1>, %v6: tensor<f32>):
                  // expected-error @+1 {{'tosa.cond_if' op is nested 6 deep in control flow but MAX_NESTING of level 8K is 6}}
                  %r7 = tosa.cond_if %c6 (%c7 = %c6, %v7 = %v6) : tensor<i1> (tensor<i1>, tensor<f32>) -> tensor<f32> {
                  ^bb0(%c7: tensor<i1>, %v7: tensor<f32>):
                    tosa.yield %v7 : tensor<f32>
                  } else {
                  ^bb0(%c7: tensor<i1>, %v7: tensor<f32>):
                    tosa.yield %v7 : tensor<f32>
                  }
                  tosa.yield %r7 : tensor<f32>
                } else {
                ^bb0(%c6: tensor<i1>, %v6: tensor<f32>):
                  tosa.yield %v6 : tensor<f32>
                }
                tosa.yield %r6 : tensor<f32>
              } else {
              ^bb0(%c5: tensor<i1>, %v5: tensor<f32>):
                tosa.yield %v5 : tensor<f32>
              }
              tosa.yield %r5 : tensor<f32>
            } else {
            ^bb0(%c4: tensor<i1>, %v4: tensor<f32>):
              tosa.yield %v4 : tensor<f32>
            }
            tosa.yield %r4 : tensor<f32>
          } else {
          ^bb0(%c3: tensor<i1>, %v3: tensor<f32>):
            tosa.yield %v3 : tensor<f32>
          }
          tosa.yield %r3 : tensor<f32>
        } else {
        ^bb0(%c2: tensor<i1>, %v2: tensor<f32>):
          tosa.yield %v2 : tensor<f32>
        }
        tosa.yield %r2 : tensor<f32>
      } else {
      ^bb0(%c1: tensor<i1>, %v1: tensor<f32>):
        tosa.yield %v1 : tensor<f32>
      }
      return %r1 : tensor<f32>
  }
}
