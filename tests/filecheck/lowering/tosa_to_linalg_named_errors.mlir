// tosa-to-linalg-named stops with a located error naming the op it cannot lower.
// RUN: tosa-opt %s -p tosa-to-linalg-named --split-input-file --verify-diagnostics -o /dev/null

func.func @conv2d_nonconst_zp(%x: tensor<1x3x3x1xi8>, %w: tensor<1x1x1x1xi8>, %b: tensor<1xi32>, %izp: tensor<1xi8>) -> tensor<1x3x3x1xi32> {
  %wzp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  // expected-error @+1 {{tosa-to-linalg-named: cannot lower 'tosa.conv2d': input_zp must be a compile-time constant (tosa.const)}}
  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x1xi32>
  return %0 : tensor<1x3x3x1xi32>
}

// -----

func.func @avg_pool_nonconst_zp(%x: tensor<1x4x4x1xi8>, %ozp: tensor<1xi8>) -> tensor<1x2x2x1xi8> {
  %izp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  // expected-error @+1 {{tosa-to-linalg-named: cannot lower 'tosa.avg_pool2d': output_zp must be a compile-time constant (tosa.const)}}
  %0 = tosa.avg_pool2d %x, %izp, %ozp {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x1xi8>
  return %0 : tensor<1x2x2x1xi8>
}

// -----

func.func @conv2d_dynamic_zero_point(%x: tensor<1x4x4x?xf32>, %w: tensor<3x1x1x?xf32>, %b: tensor<3xf32>, %zp: tensor<?xf32>) -> tensor<1x4x4x3xf32> {
  %wzp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  // every dim of the input, weights, bias and output may be dynamic; a zero point may not
  // (one value by the spec): the diagnostic names the operand and the dim
  // expected-error @+1 {{tosa-to-linalg-named: cannot lower 'tosa.conv2d': operand #3 has a dynamic dimension 0 (tensor<?xf32>); 'tosa.conv2d' lowers dynamic sizes only in input, weights, bias and output (the zero points stay static)}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x?xf32>, tensor<3x1x1x?xf32>, tensor<3xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @transpose_unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{tosa-to-linalg-named: cannot lower 'tosa.transpose': operand #0 is an unranked tensor (tensor<*xf32>); static shapes are required}}
  %0 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @avg_pool_dynamic_zero_point(%x: tensor<1x4x4x?xf32>, %zp: tensor<?xf32>) -> tensor<1x2x2x?xf32> {
  // expected-error @+1 {{tosa-to-linalg-named: cannot lower 'tosa.avg_pool2d': operand #1 has a dynamic dimension 0 (tensor<?xf32>); 'tosa.avg_pool2d' lowers dynamic sizes only in input and output (the zero points stay static)}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<1x2x2x?xf32>
  return %0 : tensor<1x2x2x?xf32>
}

// -----

func.func @transpose_conv2d_nonconst_weight_zp(%x: tensor<1x2x2x1xi8>, %w: tensor<1x1x1x1xi8>, %b: tensor<1xi32>, %wzp: tensor<1xi8>) -> tensor<1x2x2x1xi32> {
  %izp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  // expected-error @+1 {{tosa-to-linalg-named: cannot lower 'tosa.transpose_conv2d': weight_zp must be a compile-time constant (tosa.const)}}
  %0 = tosa.transpose_conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x1xi32>
  return %0 : tensor<1x2x2x1xi32>
}
