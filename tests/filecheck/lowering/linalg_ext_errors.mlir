// The linalg named ops tosa_xdsl adds to xDSL 0.74 (tosa_xdsl/dialects/linalg_ext.py): strides and
// dilations must hold one value per spatial dim, as upstream's `RankedI64ElementsAttr<[N]>`
// (mlir-opt 22 gives the same message); before, a wrong count was an internal error while the
// indexing maps were built from them (found by the fuzz campaign).
// RUN: tosa-opt %s -split-input-file -verify-diagnostics

func.func @depthwise_no_strides(%p: memref<1x6x6x8xf32>, %w: memref<3x3x8x1xf32>, %d: memref<1x4x4x8x1xf32>) {
  // expected-error@+1 {{attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2] (got shape [0])}}
  linalg.depthwise_conv_2d_nhwc_hwcm {strides = dense<> : tensor<0xi64>, dilations = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x6x6x8xf32>, memref<3x3x8x1xf32>) outs(%d : memref<1x4x4x8x1xf32>)
  func.return
}

// -----

func.func @pooling_three_strides(%p: memref<1x6x6x8xf32>, %w: memref<3x3xf32>, %d: memref<1x4x4x8xf32>) {
  // expected-error@+1 {{attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2] (got shape [3])}}
  linalg.pooling_nhwc_max {strides = dense<[1, 1, 1]> : tensor<3xi64>, dilations = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x6x6x8xf32>, memref<3x3xf32>) outs(%d : memref<1x4x4x8xf32>)
  func.return
}

// -----

func.func @conv3d_two_dilations(%p: memref<1x4x6x6x8xf32>, %w: memref<1x3x3x8x4xf32>, %d: memref<1x4x4x4x4xf32>) {
  // expected-error@+1 {{attribute 'dilations' failed to satisfy constraint: 64-bit signless int elements attribute of shape [3] (got shape [2])}}
  linalg.conv_3d_ndhwc_dhwcf {strides = dense<1> : tensor<3xi64>, dilations = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x4x6x6x8xf32>, memref<1x3x3x8x4xf32>) outs(%d : memref<1x4x4x4x4xf32>)
  func.return
}

// -----

func.func @quantized_conv_ok(%p: memref<1x6x6x8xi8>, %w: memref<4x3x3x8xi8>, %zp: i32, %d: memref<1x4x4x4xi32>) {
  linalg.conv_2d_nhwc_fhwc_q {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%p, %w, %zp, %zp : memref<1x6x6x8xi8>, memref<4x3x3x8xi8>, i32, i32) outs(%d : memref<1x4x4x4xi32>)
  func.return
}

// -----

// The body is built from the operands while the op is parsed: a mistyped `ins(` leaves none
// (an IndexError before; found by the fuzz campaign, seed 1904).
func.func @depthwise_mistyped_ins(%p: memref<1x6x6x8xf32>, %w: memref<3x3x8x1xf32>, %d: memref<1x4x4x8x1xf32>) {
  // expected-error@+1 {{'linalg.depthwise_conv_2d_nhwc_hwcm' expects 2 inputs and 1 output, got 0 and 0}}
  linalg.depthwise_conv_2d_nhwc_hwcm {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} in(%p, %w : memref<1x6x6x8xf32>, memref<3x3x8x1xf32>) outs(%d : memref<1x4x4x8x1xf32>)
  func.return
}

// -----

func.func @pooling_one_input(%p: memref<1x6x6x8xf32>, %d: memref<1x4x4x8xf32>) {
  // expected-error@+1 {{'linalg.pooling_nhwc_sum' expects 2 inputs and 1 output, got 1 and 1}}
  linalg.pooling_nhwc_sum {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%p : memref<1x6x6x8xf32>) outs(%d : memref<1x4x4x8xf32>)
  func.return
}

// -----

func.func @quantized_matmul_two_inputs(%a: memref<1x4x8xi8>, %b: memref<1x8x4xi8>, %o: memref<1x4x4xi32>) {
  // expected-error@+1 {{'linalg.quantized_batch_matmul' expects 4 inputs and 1 output, got 2 and 1}}
  linalg.quantized_batch_matmul ins(%a, %b : memref<1x4x8xi8>, memref<1x8x4xi8>) outs(%o : memref<1x4x4xi32>)
  func.return
}
