// tosa-make-broadcastable: lower-rank operands get leading 1s through tosa.reshape.
// The input is rank-mismatched (not valid TOSA): read as it is when the pipeline starts with
// this pass (its reason to exist), and with --disable-verify; the second tosa-opt verifies
// the result.
// RUN: tosa-opt %s -p tosa-make-broadcastable --split-input-file | tosa-opt --split-input-file | filecheck %s
// RUN: tosa-opt %s --disable-verify -p tosa-make-broadcastable --split-input-file | tosa-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @add
// CHECK: %[[S:.*]] = tosa.const_shape values(dense<[1, 1, 3]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK: %[[R:.*]] = tosa.reshape %arg1, %[[S]] : (tensor<3xf32>, !tosa.shape<3>) -> tensor<1x1x3xf32>
// CHECK: tosa.add %arg0, %[[R]] : (tensor<4x2x3xf32>, tensor<1x1x3xf32>) -> tensor<4x2x3xf32>
func.func @add(%arg0: tensor<4x2x3xf32>, %arg1: tensor<3xf32>) -> tensor<4x2x3xf32> {
  %0 = tosa.add %arg0, %arg1 : (tensor<4x2x3xf32>, tensor<3xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// the first operand can be the lower-rank one; a rank-0 operand becomes all 1s
// CHECK-LABEL: func.func @sub_and_mul
// CHECK: %[[S:.*]] = tosa.const_shape values(dense<[1, 5]> : tensor<2xindex>)
// CHECK: %[[R:.*]] = tosa.reshape %arg1, %[[S]] : (tensor<5xi32>, !tosa.shape<2>) -> tensor<1x5xi32>
// CHECK: tosa.sub %[[R]], %arg0 : (tensor<1x5xi32>, tensor<2x5xi32>) -> tensor<2x5xi32>
// CHECK: %[[S2:.*]] = tosa.const_shape values(dense<1> : tensor<2xindex>)
// CHECK: %[[R2:.*]] = tosa.reshape %arg2, %[[S2]] : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
// CHECK: tosa.mul %arg0, %[[R2]], %{{.*}} : (tensor<2x5xi32>, tensor<1x1xi32>, tensor<1xi8>) -> tensor<2x5xi32>
func.func @sub_and_mul(%arg0: tensor<2x5xi32>, %arg1: tensor<5xi32>, %arg2: tensor<i32>) -> (tensor<2x5xi32>, tensor<2x5xi32>) {
  %0 = tosa.sub %arg1, %arg0 : (tensor<5xi32>, tensor<2x5xi32>) -> tensor<2x5xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.mul %arg0, %arg2, %shift : (tensor<2x5xi32>, tensor<i32>, tensor<1xi8>) -> tensor<2x5xi32>
  return %0, %1 : tensor<2x5xi32>, tensor<2x5xi32>
}

// -----

// comparisons, bitwise/logical/shift ops and SELECT (all three inputs)
// CHECK-LABEL: func.func @others
// CHECK: tosa.reshape %arg1, %{{.*}} -> tensor<1x3xf32>
// CHECK: tosa.greater_equal %arg0, %{{.*}} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK: tosa.reshape %arg3, %{{.*}} -> tensor<1x3xi32>
// CHECK: tosa.bitwise_xor %arg2, %{{.*}} : (tensor<2x3xi32>, tensor<1x3xi32>)
// CHECK: tosa.reshape %arg3, %{{.*}} -> tensor<1x3xi32>
// CHECK: tosa.logical_left_shift %{{.*}}, %arg2 : (tensor<1x3xi32>, tensor<2x3xi32>)
// CHECK: tosa.reshape %arg4, %{{.*}} -> tensor<1x1xi1>
// CHECK: tosa.reshape %arg1, %{{.*}} -> tensor<1x3xf32>
// CHECK: tosa.select %{{.*}}, %{{.*}}, %arg0 : (tensor<1x1xi1>, tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @others(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<2x3xi32>, %arg3: tensor<3xi32>, %arg4: tensor<i1>) -> (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xf32>) {
  %0 = tosa.greater_equal %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = tosa.bitwise_xor %arg2, %arg3 : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %2 = tosa.logical_left_shift %arg3, %arg2 : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = tosa.select %arg4, %arg1, %arg0 : (tensor<i1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xf32>
}

// -----

// equal ranks: untouched; TABLE is not a broadcasting op
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: tosa.reshape
// CHECK: tosa.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<1x3xf32>)
func.func @untouched(%arg0: tensor<2x3xf32>, %arg1: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
