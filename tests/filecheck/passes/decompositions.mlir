// RUN: tosa-opt %s -p tosa-optional-decompositions --split-input-file | filecheck %s
// RUN: tosa-opt %s -p 'tosa-optional-decompositions{float-kernel-padding=true}' --split-input-file | filecheck %s --check-prefix=FPAD

// CHECK-LABEL: func.func @depthwise_1x1
// CHECK-NOT: tosa.depthwise_conv2d
// CHECK: tosa.mul
// CHECK: tosa.add
func.func @depthwise_1x1(%arg0: tensor<1x3x4x2xf32>, %arg1: tensor<1x1x2x3xf32>) -> tensor<1x3x4x6xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b = "tosa.const"() <{values = dense<1.0> : tensor<6xf32>}> : () -> tensor<6xf32>
  %0 = tosa.depthwise_conv2d %arg0, %arg1, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x4x2xf32>, tensor<1x1x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4x6xf32>
  return %0 : tensor<1x3x4x6xf32>
}

// -----

// A bias that may hold -0.0 keeps the op (the conv adds the product to +0.0 first).
// CHECK-LABEL: func.func @depthwise_1x1_unknown_bias
// CHECK: tosa.depthwise_conv2d
func.func @depthwise_1x1_unknown_bias(%arg0: tensor<1x3x4x2xf32>, %arg1: tensor<1x1x2x3xf32>, %b: tensor<6xf32>) -> tensor<1x3x4x6xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %arg0, %arg1, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x4x2xf32>, tensor<1x1x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4x6xf32>
  return %0 : tensor<1x3x4x6xf32>
}

// -----

// CHECK-LABEL: func.func @conv_1x1
// CHECK-NOT: tosa.conv2d
// CHECK: tosa.transpose %{{.*}} perms([0, 2, 1])
// CHECK: tosa.matmul {{.*}} -> tensor<1x12x3xi32>
// CHECK: tosa.add
func.func @conv_1x1(%arg0: tensor<1x3x4x5xi8>, %arg1: tensor<3x1x1x5xi8>) -> tensor<1x3x4x3xi32> {
  %izp = "tosa.const"() <{values = dense<7> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = "tosa.const"() <{values = dense<[1, 2, 3]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %0 = tosa.conv2d %arg0, %arg1, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x4x5xi8>, tensor<3x1x1x5xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x4x3xi32>
  return %0 : tensor<1x3x4x3xi32>
}

// -----

// CHECK-LABEL: func.func @conv_3x3_kept
// CHECK: tosa.conv2d
func.func @conv_3x3_kept(%arg0: tensor<1x3x4x5xi8>, %arg1: tensor<3x3x3x5xi8>) -> tensor<1x1x2x3xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = "tosa.const"() <{values = dense<[1, 2, 3]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %0 = tosa.conv2d %arg0, %arg1, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x4x5xi8>, tensor<3x3x3x5xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x2x3xi32>
  return %0 : tensor<1x1x2x3xi32>
}

// -----

// CHECK-LABEL: func.func @transpose_conv
// CHECK: %[[R1:.*]] = tosa.reverse %arg1 axis(1)
// CHECK: %[[R2:.*]] = tosa.reverse %[[R1]] axis(2)
// CHECK: tosa.conv2d %arg0, %[[R2]], {{.*}} pad([1, 2, 1, 2]) stride([1, 1]) dilation([1, 1])
func.func @transpose_conv(%arg0: tensor<1x4x4x2xi8>, %arg1: tensor<3x3x3x2xi8>) -> tensor<1x5x5x3xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = "tosa.const"() <{values = dense<[1, 2, 3]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %0 = tosa.transpose_conv2d %arg0, %arg1, %b, %zp, %zp {acc_type = i32, out_pad = array<i64: -1, 0, -1, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<3x3x3x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x3xi32>
  return %0 : tensor<1x5x5x3xi32>
}

// -----

// Stride 2, 3x3 kernel: pad the kernel to 4x4 with weight_zp, split it into 2x2 sub-kernels
// (12 = 3 OC x 2 x 2 output channels), one conv2d with the bias tiled per sub-kernel, then
// depth-to-space and a slice that drops the row of out_pad_top = -1.
// CHECK-LABEL: func.func @transpose_conv_s2_i8
// CHECK-NOT: tosa.transpose_conv2d
// CHECK: %[[P:.*]] = tosa.pad %arg1, %{{.*}}, %wzp : {{.*}} -> tensor<3x4x4x2xi8>
// CHECK: %[[R6:.*]] = tosa.reshape %[[P]], {{.*}} -> tensor<3x2x2x2x2x2xi8>
// CHECK: %[[T6:.*]] = tosa.transpose %[[R6]] perms([2, 4, 0, 1, 3, 5])
// CHECK: %[[R4:.*]] = tosa.reshape %[[T6]], {{.*}} -> tensor<12x2x2x2xi8>
// CHECK: %[[V1:.*]] = tosa.reverse %[[R4]] axis(1)
// CHECK: %[[V2:.*]] = tosa.reverse %[[V1]] axis(2)
// CHECK: %[[B:.*]] = tosa.tile %b, {{.*}} -> tensor<12xi32>
// CHECK: %[[C:.*]] = tosa.conv2d %arg0, %[[V2]], %[[B]], %izp, %wzp pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) {{.*}} -> tensor<1x4x5x12xi32>
// CHECK: %[[D6:.*]] = tosa.reshape %[[C]], {{.*}} -> tensor<1x4x5x2x2x3xi32>
// CHECK: %[[DT:.*]] = tosa.transpose %[[D6]] perms([0, 1, 3, 2, 4, 5])
// CHECK: %[[D4:.*]] = tosa.reshape %[[DT]], {{.*}} -> tensor<1x8x10x3xi32>
// CHECK: %[[S:.*]] = tosa.const_shape values(dense<[0, 1, 0, 0]>
// CHECK: tosa.slice %[[D4]], %[[S]], {{.*}} -> tensor<1x6x9x3xi32>
func.func @transpose_conv_s2_i8(%arg0: tensor<1x3x4x2xi8>, %arg1: tensor<3x3x3x2xi8>, %b: tensor<3xi32>) -> tensor<1x6x9x3xi32> {
  %izp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.transpose_conv2d %arg0, %arg1, %b, %izp, %wzp {acc_type = i32, out_pad = array<i64: -1, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x4x2xi8>, tensor<3x3x3x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x9x3xi32>
  return %0 : tensor<1x6x9x3xi32>
}

// -----

// Constant weights and bias are rearranged / tiled at compile time; stride (3, 1), a
// positive out_pad is covered by the conv's extra padding (no slice needed here).
// CHECK-LABEL: func.func @transpose_conv_s31_const
// CHECK-NOT: tosa.transpose_conv2d
// CHECK-NOT: tosa.reverse
// CHECK: tosa.const values(dense<[1, 2, 1, 2, 1, 2]> : tensor<6xi32>)
// CHECK: tosa.conv2d %arg0, {{.*}} pad([0, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) {{.*}} -> tensor<1x3x4x6xi32>
// CHECK: tosa.transpose %{{.*}} perms([0, 1, 3, 2, 4, 5])
// CHECK: tosa.reshape {{.*}} -> tensor<1x9x4x2xi32>
// CHECK-NOT: tosa.slice
func.func @transpose_conv_s31_const(%arg0: tensor<1x2x3x1xi8>) -> tensor<1x9x4x2xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<[[[[1], [2]], [[3], [4]], [[5], [6]]], [[[7], [8]], [[9], [10]], [[11], [12]]]]> : tensor<2x3x2x1xi8>}> : () -> tensor<2x3x2x1xi8>
  %b = "tosa.const"() <{values = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = tosa.transpose_conv2d %arg0, %w, %b, %zp, %zp {acc_type = i32, out_pad = array<i64: 0, 3, 0, 0>, stride = array<i64: 3, 1>} : (tensor<1x2x3x1xi8>, tensor<2x3x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x9x4x2xi32>
  return %0 : tensor<1x9x4x2xi32>
}

// -----

// Float with a 3x3 kernel and stride 2: the padded taps would compute 0 * x (NaN for
// x = inf), so only float-kernel-padding=true decomposes it.
// CHECK-LABEL: func.func @transpose_conv_s2_f32_padded
// CHECK: tosa.transpose_conv2d
// FPAD-LABEL: func.func @transpose_conv_s2_f32_padded
// FPAD-NOT: tosa.transpose_conv2d
// FPAD: tosa.pad %arg1
// FPAD: tosa.conv2d {{.*}} -> tensor<1x4x4x8xf32>
// FPAD: tosa.slice {{.*}} -> tensor<1x7x7x2xf32>
func.func @transpose_conv_s2_f32_padded(%arg0: tensor<1x3x3x2xf32>, %arg1: tensor<2x3x3x2xf32>, %b: tensor<2xf32>) -> tensor<1x7x7x2xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %arg0, %arg1, %b, %z, %z {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x3x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x2xf32>
  return %0 : tensor<1x7x7x2xf32>
}

// -----

// Float with a 4x4 kernel and stride 2: no padded taps, decomposed by default.
// CHECK-LABEL: func.func @transpose_conv_s2_f32_k4
// CHECK-NOT: tosa.transpose_conv2d
// CHECK-NOT: tosa.pad
// CHECK: tosa.conv2d {{.*}} pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(f32) {{.*}} -> tensor<1x4x4x8xf32>
// CHECK: tosa.slice {{.*}} -> tensor<1x7x7x2xf32>
func.func @transpose_conv_s2_f32_k4(%arg0: tensor<1x3x3x2xf32>, %arg1: tensor<2x4x4x2xf32>, %b: tensor<2xf32>) -> tensor<1x7x7x2xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %arg0, %arg1, %b, %z, %z {acc_type = f32, out_pad = array<i64: -1, 0, -1, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x3x2xf32>, tensor<2x4x4x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x2xf32>
  return %0 : tensor<1x7x7x2xf32>
}

// -----

// i16 x i8 -> i48: the depth-to-space would need RESHAPE/TRANSPOSE/SLICE of i48: kept.
// CHECK-LABEL: func.func @transpose_conv_s2_i16_kept
// CHECK: tosa.transpose_conv2d
func.func @transpose_conv_s2_i16_kept(%arg0: tensor<1x3x3x2xi16>, %arg1: tensor<2x3x3x2xi8>) -> tensor<1x7x7x2xi48> {
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = "tosa.const"() <{values = dense<[1, 2]> : tensor<2xi48>}> : () -> tensor<2xi48>
  %0 = tosa.transpose_conv2d %arg0, %arg1, %b, %izp, %wzp {acc_type = i48, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x3x2xi16>, tensor<2x3x3x2xi8>, tensor<2xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x7x7x2xi48>
  return %0 : tensor<1x7x7x2xi48>
}
