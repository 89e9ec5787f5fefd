// CONCAT (spec 2.10.1): the output has the inputs' rank (CONCAT#5 reads shape[axis], and the
// pseudocode reads each input at the output's positions) and their dims off the axis.
// RUN: tosa-opt %s -split-input-file -verify-diagnostics

func.func @output_rank(%a: tensor<2x2xf32>, %b: tensor<2x1xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'tosa.concat' op output rank 1 must equal the inputs' rank 2}}
  %0 = tosa.concat %a, %b {axis = 1 : i32} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @output_dim_off_axis(%a: tensor<2x2xf32>, %b: tensor<2x1xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{'tosa.concat' op output dim 0 is 4 but input1[0] dim 0 is 2; the output may differ from the inputs only along axis 1}}
  %0 = tosa.concat %a, %b {axis = 1 : i32} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
