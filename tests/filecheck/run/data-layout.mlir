// RUN: tosa-run %s --print | filecheck %s

// Spec 2.10: PAD, SLICE, TRANSPOSE, REVERSE, TILE, RESHAPE, CONCAT on a 2x3 i32 tensor
// [[1, 2, 3], [4, 5, 6]].
func.func @main() -> (tensor<3x4xi32>, tensor<1x2xi32>, tensor<3x2xi32>, tensor<2x3xi32>, tensor<2x6xi32>, tensor<6xi32>, tensor<4x3xi32>) {
  %x = "tosa.const"() {values = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %padding = tosa.const_shape {values = dense<[1, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pc = "tosa.const"() {values = dense<-1> : tensor<1xi32>} : () -> tensor<1xi32>
  %p = tosa.pad %x, %padding, %pc : (tensor<2x3xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<3x4xi32>
  %start = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %x, %start, %size : (tensor<2x3xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xi32>
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %r = tosa.reverse %x {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %m = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %ti = tosa.tile %x, %m : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<2x6xi32>
  %shape = tosa.const_shape {values = dense<[6]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %re = tosa.reshape %x, %shape : (tensor<2x3xi32>, !tosa.shape<1>) -> tensor<6xi32>
  %c = tosa.concat %x, %x {axis = 0 : i32} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  return %p, %s, %t, %r, %ti, %re, %c : tensor<3x4xi32>, tensor<1x2xi32>, tensor<3x2xi32>, tensor<2x3xi32>, tensor<2x6xi32>, tensor<6xi32>, tensor<4x3xi32>
}
// CHECK: result #0: tensor<3x4xi32> = [[-1, -1, -1, -1], [1, 2, 3, -1], [4, 5, 6, -1]]
// CHECK: result #1: tensor<1x2xi32> = [[5, 6]]
// CHECK: result #2: tensor<3x2xi32> = [[1, 4], [2, 5], [3, 6]]
// CHECK: result #3: tensor<2x3xi32> = [[3, 2, 1], [6, 5, 4]]
// CHECK: result #4: tensor<2x6xi32> = [[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]
// CHECK: result #5: tensor<6xi32> = [1, 2, 3, 4, 5, 6]
// CHECK: result #6: tensor<4x3xi32> = [[1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 5, 6]]
