// RUN: tosa-opt %s -p canonicalize --split-input-file | filecheck %s

// CHECK-LABEL: func.func @add_zero_int
// CHECK-NOT: tosa.add
// CHECK: func.return %arg0
func.func @add_zero_int(%arg0: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %z = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %0 = tosa.add %arg0, %z : (tensor<2x3xi32>, tensor<1x1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// x + (-0.0) is the identity, x + (+0.0) is not (-0.0 + 0.0 == +0.0).
// CHECK-LABEL: func.func @add_zero_float
// CHECK: %[[Z:.*]] = tosa.const
// CHECK: %[[R:.*]] = tosa.add %arg0, %[[Z]]
// CHECK: func.return %[[R]], %arg0
func.func @add_zero_float(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %p = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %n = "tosa.const"() <{values = dense<-0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %0 = tosa.add %arg0, %p : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  %1 = tosa.add %arg0, %n : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @sub_mul
// CHECK-NOT: tosa.sub
// CHECK-NOT: tosa.mul
// CHECK: func.return %arg0, %arg0
func.func @sub_mul(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %o = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.sub %arg0, %z : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  %1 = tosa.mul %arg0, %o, %s : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @mul_shift_not_removed
// CHECK: tosa.mul
func.func @mul_shift_not_removed(%arg0: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %o = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %s = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %arg0, %o, %s : (tensor<2x3xi32>, tensor<1x1xi32>, tensor<1xi8>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = tosa.transpose %arg0 perms([2, 1, 0])
// CHECK-NEXT: func.return %arg0, %[[T]]
func.func @transposes(%arg0: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x3x2xf32>) {
  %0 = tosa.transpose %arg0 {perms = array<i32: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %2 = tosa.transpose %0 {perms = array<i32: 2, 0, 1>} : (tensor<3x2x4xf32>) -> tensor<4x3x2xf32>
  %3 = tosa.transpose %arg0 {perms = array<i32: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %3, %2 : tensor<2x3x4xf32>, tensor<4x3x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshapes
// CHECK: %[[S:.*]] = tosa.const_shape {{.*}}dense<[6, 4]>
// CHECK-NEXT: %[[R:.*]] = tosa.reshape %arg0, %[[S]]
// CHECK-NEXT: func.return %[[R]], %arg0
func.func @reshapes(%arg0: tensor<2x3x4xi8>) -> (tensor<6x4xi8>, tensor<2x3x4xi8>) {
  %s1 = tosa.const_shape {values = dense<[24]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s2 = tosa.const_shape {values = dense<[6, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s3 = tosa.const_shape {values = dense<[2, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.reshape %arg0, %s1 : (tensor<2x3x4xi8>, !tosa.shape<1>) -> tensor<24xi8>
  %1 = tosa.reshape %0, %s2 : (tensor<24xi8>, !tosa.shape<2>) -> tensor<6x4xi8>
  %2 = tosa.reshape %1, %s3 : (tensor<6x4xi8>, !tosa.shape<3>) -> tensor<2x3x4xi8>
  return %1, %2 : tensor<6x4xi8>, tensor<2x3x4xi8>
}

// -----

// CHECK-LABEL: func.func @noop_layout
// CHECK-NOT: tosa.
// CHECK: func.return %arg0, %arg0, %arg0, %arg0, %arg0
func.func @noop_layout(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %zero = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %ones = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %p0 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pc = "tosa.const"() <{values = dense<1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.slice %arg0, %zero, %size : (tensor<2x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xf32>
  %1 = tosa.pad %arg0, %p0, %pc : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x3xf32>
  %2 = tosa.tile %arg0, %ones : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
  %3 = tosa.concat %arg0 {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.reduce_max %arg0 {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %5 = tosa.reverse %arg0 {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %arg0 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @slice_not_full
// CHECK: tosa.slice
func.func @slice_not_full(%arg0: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %start = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.slice %arg0, %start, %size : (tensor<2x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @clamps
// CHECK-NEXT: %[[C:.*]] = tosa.clamp %arg0 min_val(0.000000e+00 : f32) max_val(3.000000e+00 : f32)
// CHECK-NEXT: func.return %[[C]]
func.func @clamps(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.clamp %arg0 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.clamp %0 {min_val = -1.0 : f32, max_val = 3.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Disjoint ranges: the composition is a constant, not one clamp; nothing to merge.
// CHECK-LABEL: func.func @clamps_disjoint
// CHECK: tosa.clamp
// CHECK: tosa.clamp
func.func @clamps_disjoint(%arg0: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %0 = tosa.clamp %arg0 {min_val = 0 : i8, max_val = 1 : i8} : (tensor<2x3xi8>) -> tensor<2x3xi8>
  %1 = tosa.clamp %0 {min_val = 5 : i8, max_val = 7 : i8} : (tensor<2x3xi8>) -> tensor<2x3xi8>
  return %1 : tensor<2x3xi8>
}

// -----

// CHECK-LABEL: func.func @selects
// CHECK-NEXT: %[[S:.*]] = tosa.select %arg2, %arg1, %arg0
// CHECK-NEXT: func.return %arg1, %[[S]]
func.func @selects(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<2x3xi1>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %k = "tosa.const"() <{values = dense<false> : tensor<1x1xi1>}> : () -> tensor<1x1xi1>
  %0 = tosa.select %k, %arg0, %arg1 : (tensor<1x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = tosa.logical_not %arg2 : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %1 = tosa.select %n, %arg0, %arg1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: %[[S:.*]] = tosa.reduce_sum %arg1
// CHECK-NEXT: %[[A:.*]] = tosa.const {{.*}}dense<0> : tensor<2x3xi32>
// CHECK-NEXT: func.return %arg0, %[[S]], %[[A]]
func.func @reductions(%arg0: tensor<2x1x3xi32>, %arg1: tensor<2x1x3xf32>) -> (tensor<2x1x3xi32>, tensor<2x1x3xf32>, tensor<2x3xi32>) {
  %0 = tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<2x1x3xi32>) -> tensor<2x1x3xi32>
  %1 = tosa.reduce_sum %arg1 {axis = 1 : i32} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  %2 = tosa.argmax %arg1 {axis = 1 : i32} : (tensor<2x1x3xf32>) -> tensor<2x3xi32>
  return %0, %1, %2 : tensor<2x1x3xi32>, tensor<2x1x3xf32>, tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @negates
// CHECK: %[[N:.*]] = tosa.negate %arg1
// CHECK-NEXT: %[[M:.*]] = tosa.negate %[[N]]
// CHECK-NEXT: func.return %arg0, %[[M]]
func.func @negates(%arg0: tensor<4xf32>, %arg1: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zi = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.negate %arg0, %zf, %zf : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %1 = tosa.negate %0, %zf, %zf : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %2 = tosa.negate %arg1, %zi, %zi : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %3 = tosa.negate %2, %zi, %zi : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %1, %3 : tensor<4xf32>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @pools
// CHECK-NEXT: %[[P:.*]] = tosa.max_pool2d %arg0 kernel([3, 3]) stride([2, 2]) pad([1, 0, 1, 0])
// CHECK-NEXT: func.return %arg0, %[[P]]
func.func @pools(%arg0: tensor<1x4x4x2xi8>) -> (tensor<1x4x4x2xi8>, tensor<1x2x2x2xi8>) {
  %0 = tosa.max_pool2d %arg0 {kernel = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8>
  %p = tosa.const_shape {values = dense<[0, 0, 1, 0, 1, 0, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %c = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.pad %arg0, %p, %c : (tensor<1x4x4x2xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x5x5x2xi8>
  %2 = tosa.max_pool2d %1 {kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x5x5x2xi8>) -> tensor<1x2x2x2xi8>
  return %0, %2 : tensor<1x4x4x2xi8>, tensor<1x2x2x2xi8>
}

// -----

// CHECK-LABEL: func.func @pad_into_conv
// CHECK-NOT: tosa.pad
// CHECK: tosa.conv2d %arg0, %arg1, {{.*}} pad([1, 1, 1, 1])
func.func @pad_into_conv(%arg0: tensor<1x3x3x2xi8>, %arg1: tensor<4x3x3x2xi8>) -> tensor<1x3x3x4xi32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %c = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %0 = tosa.pad %arg0, %p, %c : (tensor<1x3x3x2xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x5x5x2xi8>
  %1 = tosa.conv2d %0, %arg1, %b, %c, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xi8>, tensor<4x3x3x2xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x4xi32>
  return %1 : tensor<1x3x3x4xi32>
}

// -----

// The pad constant differs from input_zp: the padded taps would contribute.
// CHECK-LABEL: func.func @pad_into_conv_wrong_value
// CHECK: tosa.pad
func.func @pad_into_conv_wrong_value(%arg0: tensor<1x3x3x2xi8>, %arg1: tensor<4x3x3x2xi8>) -> tensor<1x3x3x4xi32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %c = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %0 = tosa.pad %arg0, %p, %c : (tensor<1x3x3x2xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x5x5x2xi8>
  %1 = tosa.conv2d %0, %arg1, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xi8>, tensor<4x3x3x2xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x4xi32>
  return %1 : tensor<1x3x3x4xi32>
}
