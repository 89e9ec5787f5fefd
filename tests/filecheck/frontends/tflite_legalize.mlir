// tosa-legalize-tfl from tfl MLIR text. Expected pads, shapes and multipliers are those
// Arm's tosa-converter-for-tflite emits for the same operators (face_detection_front's
// first conv: pad 1,2,1,2; an int8 ADD's 20-bit headroom rescale 1073741824 >> 31 of 2^20).
// RUN: tosa-opt %s -p tosa-legalize-tfl | filecheck %s

// CHECK-LABEL: func.func @conv_same
// CHECK: tosa.conv2d %x, %w, %b, %{{.*}}, %{{.*}} pad([1, 2, 1, 2]) stride([2, 2]) dilation([1, 1]) acc_type(f32)
// CHECK-SAME: -> tensor<1x64x64x24xf32>
// CHECK: tosa.clamp %{{.*}} min_val(0.000000e+00 : f32)
// CHECK-NOT: tfl.
func.func @conv_same(%x: tensor<1x128x128x3xf32>, %w: tensor<24x5x5x3xf32>, %b: tensor<24xf32>) -> tensor<1x64x64x24xf32> {
  %0 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "RELU", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<1x128x128x3xf32>, tensor<24x5x5x3xf32>, tensor<24xf32>) -> tensor<1x64x64x24xf32>
  func.return %0 : tensor<1x64x64x24xf32>
}

// CHECK-LABEL: func.func @add_int8
// CHECK-SAME: (%a: tensor<2x3xi8>, %b: tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK: tosa.rescale
// CHECK: tosa.rescale
// CHECK: tosa.add %{{.*}} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK: tosa.rescale %{{.*}} -> tensor<2x3xi8>
func.func @add_int8(%a: tensor<2x3x!quant.uniform<i8:f32, 0.5:-1>>, %b: tensor<2x3x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0:3>> {
  %0 = "tfl.add"(%a, %b) <{fused_activation_function = "NONE"}> : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-1>>, tensor<2x3x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0:3>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32, 1.0:3>>
}
