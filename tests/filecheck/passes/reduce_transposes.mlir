// RUN: tosa-opt %s -p tosa-reduce-transposes --split-input-file | filecheck %s

// CHECK-LABEL: func.func @sink_and_cancel
// CHECK-NOT: tosa.transpose
// CHECK: %[[A:.*]] = tosa.add %arg0, %arg1
// CHECK: %[[E:.*]] = tosa.exp %[[A]]
// CHECK: func.return %[[E]]
func.func @sink_and_cancel(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = tosa.transpose %arg0 {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = tosa.transpose %arg1 {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %2 = tosa.add %0, %1 : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %3 = tosa.exp %2 : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %4 = tosa.transpose %3 {perms = array<i32: 1, 2, 0>} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  return %4 : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @size1_and_const
// CHECK-NOT: tosa.transpose
// CHECK-DAG: tosa.const {{.*}}dense<{{\[\[}}1, 4], [2, 5], [3, 6]]>
// CHECK-DAG: tosa.reshape %arg0
func.func @size1_and_const(%arg0: tensor<1x3x1x4xi8>) -> (tensor<3x1x4x1xi8>, tensor<3x2xi8>) {
  %c = "tosa.const"() <{values = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>}> : () -> tensor<2x3xi8>
  %0 = tosa.transpose %arg0 {perms = array<i32: 1, 0, 3, 2>} : (tensor<1x3x1x4xi8>) -> tensor<3x1x4x1xi8>
  %1 = tosa.transpose %c {perms = array<i32: 1, 0>} : (tensor<2x3xi8>) -> tensor<3x2xi8>
  return %0, %1 : tensor<3x1x4x1xi8>, tensor<3x2xi8>
}

// -----

// A transpose feeding an op that is not elementwise stays.
// CHECK-LABEL: func.func @kept
// CHECK: tosa.transpose
func.func @kept(%arg0: tensor<2x3xi32>) -> tensor<1x2xi32> {
  %0 = tosa.transpose %arg0 {perms = array<i32: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %1 = tosa.reduce_sum %0 {axis = 0 : i32} : (tensor<3x2xi32>) -> tensor<1x2xi32>
  return %1 : tensor<1x2xi32>
}
