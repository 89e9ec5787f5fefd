// Leading 1s do not make 3 and 4 broadcastable: still broadcast_shape's error, located.
// RUN: tosa-opt %s -p tosa-make-broadcastable --verify-diagnostics

func.func @mismatch(%a: tensor<2x4xf32>, %b: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{input1 dim 1 (4) and input2 dim 1 (3) cannot be broadcast}}
  %0 = tosa.add %a, %b : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
