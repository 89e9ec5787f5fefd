// TensorFlow's own printing of tfl: the short same-type form and arith.constant.
// RUN: tosa-opt %s -p tosa-legalize-tfl | filecheck %s
// CHECK-LABEL: func.func @main
// CHECK: tosa.const
// CHECK: tosa.add
// CHECK: tosa.mul
// CHECK-NOT: tfl.
// CHECK-NOT: arith.
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = tfl.add %arg0, %cst {fused_activation_function = "NONE"} : tensor<4xf32>
  %1 = tfl.mul %0, %0 {fused_activation_function = "RELU6"} : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
