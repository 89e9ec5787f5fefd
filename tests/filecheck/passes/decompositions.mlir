// RUN: tosa-opt %s -p tosa-optional-decompositions --split-input-file | filecheck %s

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
