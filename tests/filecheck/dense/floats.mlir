// RUN: python -m tosa_xdsl.ir.dense %s | filecheck %s
// Float dense constants: hex bit patterns in lists, NaN/Inf/-0.0, APFloat digits.
// CHECK lines are the tosa-tools translator's printing of this file (LLVM 24).

func.func @special_floats() -> () {
  %0 = "tosa.const"() <{values = dense<[0x7FC00000, 1.0, 0x7F800000, 0xFF800000, -0.0, 0x7FC00001]> : tensor<6xf32>}> : () -> tensor<6xf32>
  %1 = "tosa.const"() <{values = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
  %2 = "tosa.const"() <{values = dense<[0x7E00, 0xFC00, 1.5, 65504.0]> : tensor<4xf16>}> : () -> tensor<4xf16>
  %3 = "tosa.const"() <{values = dense<[0x7FC0, 0.1, -2.5]> : tensor<3xbf16>}> : () -> tensor<3xbf16>
  %4 = "tosa.const"() <{values = dense<[0x7F, 448.0, 500.0]> : tensor<3xf8E4M3FN>}> : () -> tensor<3xf8E4M3FN>
  %5 = "tosa.const"() <{values = dense<[0x7C, 57344.0, -0.0]> : tensor<3xf8E5M2>}> : () -> tensor<3xf8E5M2>
  %6 = "tosa.const"() <{values = dense<[3.4028235e38, 1234567.0, 0.123456789]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %7 = "tosa.const"() <{values = dense<[[0x7FF8000000000000], [0.1]]> : tensor<2x1xf64>}> : () -> tensor<2x1xf64>
  %8 = "tosa.const"() <{values = dense<[0.0, -0.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  return
}

// CHECK: values = dense<[0x7FC00000, 1.000000e+00, 0x7F800000, 0xFF800000, -0.000000e+00, 0x7FC00001]> : tensor<6xf32>
// CHECK: values = dense<0x7FC00000> : tensor<f32>
// CHECK: values = dense<[0x7E00, 0xFC00, 1.500000e+00, 6.550400e+04]> : tensor<4xf16>
// CHECK: values = dense<[0x7FC0, 1.000980e-01, -2.500000e+00]> : tensor<3xbf16>
// CHECK: values = dense<[0x7F, 4.480000e+02, 0x7F]> : tensor<3xf8E4M3FN>
// CHECK: values = dense<[0x7C, 5.734400e+04, -0.000000e+00]> : tensor<3xf8E5M2>
// CHECK: values = dense<[3.40282347E+38, 0x4996B438, 0.123456791]> : tensor<3xf32>
// CHECK: values = dense<[[0x7FF8000000000000], [1.000000e-01]]> : tensor<2x1xf64>
// CHECK: values = dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
