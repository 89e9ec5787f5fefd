// tosa-to-linalg-named: TOSA tensor ops (spec 2.3) and TRANSPOSE -> linalg named ops on tensors.
// RUN: tosa-opt %s -p tosa-to-linalg-named --split-input-file | filecheck %s
// RUN: tosa-opt %s -p 'tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true}' --split-input-file | filecheck %s --check-prefix=HWCF
// Upstream MLIR reads the lowered IR (generic form; the named ops carry their regions):
// RUN: tosa-opt %s -p tosa-to-linalg-named,tosa-to-tensor,tosa-to-arith --split-input-file --print-op-generic | %mlir-opt-22 --allow-unregistered-dialect --split-input-file | filecheck %s --check-prefix=MLIR
// RUN: tosa-opt %s -p tosa-to-linalg-named,tosa-to-tensor,tosa-to-arith --split-input-file --print-op-generic | %iree-opt --allow-unregistered-dialect --split-input-file | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22, iree-opt
// MLIR-LABEL: func.func @conv2d_f32
// MLIR: linalg.conv_2d_nhwc_fhwc
// MLIR-LABEL: func.func @conv2d_i8_zp
// MLIR: linalg.conv_2d_nhwc_fhwc_q
// MLIR-LABEL: func.func @transpose_conv2d_i8
// MLIR: linalg.generic
// MLIR-LABEL: func.func @matmul_i8_zp
// MLIR: linalg.quantized_batch_matmul
// MLIR-LABEL: func.func @max_pool_ignore
// MLIR: arith.cmpf uno
// MLIR-LABEL: func.func @avg_pool_i8
// MLIR: linalg.pooling_nhwc_sum
// MLIR: math.ctlz

// CHECK-LABEL: func.func @conv2d_f32
// CHECK-NOT: tosa.
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[P:.*]] = tensor.pad %x low[0, 1, 2, 0] high[0, 0, 1, 0]
// CHECK: tensor.yield %[[Z]] : f32
// CHECK: } : tensor<1x6x6x2xf32> to tensor<1x7x9x2xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x3x5x3xf32>
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]{{.*}} ins(%b : tensor<3xf32>) outs(%[[E]] : tensor<1x3x5x3xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_fhwc {strides = dense<[2, 1]> : tensor<2xi64>, dilations = dense<[1, 2]> : tensor<2xi64>} ins(%[[P]], %w : tensor<1x7x9x2xf32>, tensor<3x3x3x2xf32>) outs(%[[B]] : tensor<1x3x5x3xf32>)
// CHECK-NEXT: func.return %[[C]]
// HWCF-LABEL: func.func @conv2d_f32
// HWCF: %[[T:.*]] = linalg.transpose ins(%w:tensor<3x3x3x2xf32>) outs(%{{.*}}:tensor<3x3x2x3xf32>) permutation = [1, 2, 3, 0]
// HWCF: linalg.conv_2d_nhwc_hwcf {strides = dense<[2, 1]> : tensor<2xi64>, dilations = dense<[1, 2]> : tensor<2xi64>} ins(%{{.*}}, %[[T]] : tensor<1x7x9x2xf32>, tensor<3x3x2x3xf32>)
func.func @conv2d_f32(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x5x3xf32> {
  %izp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %wzp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 0, 2, 1>, stride = array<i64: 2, 1>} : (tensor<1x6x6x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x5x3xf32>
  return %0 : tensor<1x3x5x3xf32>
}

// -----

// CHECK-LABEL: func.func @conv2d_i8_zp
// CHECK-NOT: tosa.
// CHECK: %[[IZ:.*]] = arith.constant -3 : i8
// CHECK: %[[P:.*]] = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[IZ]] : i8
// CHECK: %[[B:.*]] = linalg.generic
// CHECK: %[[ZI:.*]] = arith.constant -3 : i32
// CHECK: %[[ZW:.*]] = arith.constant 5 : i32
// CHECK: linalg.conv_2d_nhwc_fhwc_q {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%[[P]], %w, %[[ZI]], %[[ZW]] : tensor<1x6x6x1xi8>, tensor<2x2x2x1xi8>, i32, i32) outs(%[[B]] : tensor<1x5x5x2xi32>)
// HWCF-LABEL: func.func @conv2d_i8_zp
// HWCF: linalg.conv_2d_nhwc_hwcf_q
func.func @conv2d_i8_zp(%x: tensor<1x4x4x1xi8>, %w: tensor<2x2x2x1xi8>, %b: tensor<2xi32>) -> tensor<1x5x5x2xi32> {
  %izp = tosa.const values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
  %wzp = tosa.const values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xi8>, tensor<2x2x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x2xi32>
  return %0 : tensor<1x5x5x2xi32>
}

// -----

// CHECK-LABEL: func.func @conv2d_f16_acc_f32
// CHECK-NOT: tensor.pad
// CHECK: tensor.empty() : tensor<1x2x2x1xf32>
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%x, %w : tensor<1x3x3x1xf16>, tensor<1x2x2x1xf16>) outs(%{{.*}} : tensor<1x2x2x1xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<1x2x2x1xf32>) outs(%{{.*}} : tensor<1x2x2x1xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @conv2d_f16_acc_f32(%x: tensor<1x3x3x1xf16>, %w: tensor<1x2x2x1xf16>, %b: tensor<1xf16>) -> tensor<1x2x2x1xf16> {
  %izp = tosa.const values(dense<0.0> : tensor<1xf16>) : () -> tensor<1xf16>
  %wzp = tosa.const values(dense<0.0> : tensor<1xf16>) : () -> tensor<1xf16>
  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xf16>, tensor<1x2x2x1xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x2x1xf16>
  return %0 : tensor<1x2x2x1xf16>
}

// -----

// CHECK-LABEL: func.func @conv2d_i16_i48
// CHECK: %[[ZI:.*]] = arith.constant 0 : i32
// CHECK: %[[ZW:.*]] = arith.constant 2 : i32
// CHECK: linalg.conv_2d_nhwc_fhwc_q {{.*}} ins(%x, %w, %[[ZI]], %[[ZW]] : tensor<1x3x3x1xi16>, tensor<1x1x1x1xi8>, i32, i32) outs(%{{.*}} : tensor<1x3x3x1xi48>)
func.func @conv2d_i16_i48(%x: tensor<1x3x3x1xi16>, %w: tensor<1x1x1x1xi8>, %b: tensor<1xi48>) -> tensor<1x3x3x1xi48> {
  %izp = tosa.const values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %wzp = tosa.const values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xi16>, tensor<1x1x1x1xi8>, tensor<1xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x3x3x1xi48>
  return %0 : tensor<1x3x3x1xi48>
}

// -----

// CHECK-LABEL: func.func @conv3d_i8
// CHECK-NOT: tosa.
// CHECK: %[[T:.*]] = linalg.transpose ins(%w:tensor<2x1x2x2x1xi8>) outs(%{{.*}}:tensor<1x2x2x1x2xi8>) permutation = [1, 2, 3, 4, 0]
// CHECK: linalg.conv_3d_ndhwc_dhwcf {strides = dense<1> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>} ins(%x, %[[T]] : tensor<1x2x3x3x1xi8>, tensor<1x2x2x1x2xi8>) outs(%{{.*}} : tensor<1x2x2x2x2xi32>)
func.func @conv3d_i8(%x: tensor<1x2x3x3x1xi8>, %w: tensor<2x1x2x2x1xi8>, %b: tensor<2xi32>) -> tensor<1x2x2x2x2xi32> {
  %izp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %wzp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.conv3d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x2x3x3x1xi8>, tensor<2x1x2x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2x2xi32>
  return %0 : tensor<1x2x2x2x2xi32>
}

// -----

// CHECK-LABEL: func.func @conv3d_i8_zp
// CHECK: %[[ZI:.*]] = arith.constant 4 : i32
// CHECK: %[[ZW:.*]] = arith.constant 0 : i32
// CHECK: linalg.conv_3d_ndhwc_dhwcf_q {{.*}} ins(%x, %{{.*}}, %[[ZI]], %[[ZW]] : tensor<1x2x3x3x1xi8>, tensor<1x2x2x1x2xi8>, i32, i32)
func.func @conv3d_i8_zp(%x: tensor<1x2x3x3x1xi8>, %w: tensor<2x1x2x2x1xi8>, %b: tensor<2xi32>) -> tensor<1x2x2x2x2xi32> {
  %izp = tosa.const values(dense<4> : tensor<1xi8>) : () -> tensor<1xi8>
  %wzp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.conv3d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x2x3x3x1xi8>, tensor<2x1x2x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2x2xi32>
  return %0 : tensor<1x2x2x2x2xi32>
}

// -----

// CHECK-LABEL: func.func @depthwise_f32
// CHECK: %[[P:.*]] = tensor.pad %x low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x4x2x3xf32>)
// CHECK: %[[D:.*]] = linalg.depthwise_conv_2d_nhwc_hwcm {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%[[P]], %w : tensor<1x5x5x2xf32>, tensor<2x2x2x3xf32>) outs(%[[F]] : tensor<1x4x4x2x3xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[D]] {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] : tensor<1x4x4x2x3xf32> into tensor<1x4x4x6xf32>
// CHECK: linalg.generic {{.*}} ins(%[[C]], %b : tensor<1x4x4x6xf32>, tensor<6xf32>)
// CHECK: arith.addf
func.func @depthwise_f32(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x3xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %izp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %wzp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %izp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x2x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  return %0 : tensor<1x4x4x6xf32>
}

// -----

// CHECK-LABEL: func.func @depthwise_i8_zp
// CHECK-NOT: tensor.pad
// CHECK: %[[ZI:.*]] = arith.constant 7 : i32
// CHECK: %[[ZW:.*]] = arith.constant 0 : i32
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm_q {{.*}} ins(%x, %w, %[[ZI]], %[[ZW]] : tensor<1x3x3x2xi8>, tensor<2x2x2x1xi8>, i32, i32) outs(%{{.*}} : tensor<1x2x2x2x1xi32>)
// CHECK: tensor.collapse_shape
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK: arith.addi
func.func @depthwise_i8_zp(%x: tensor<1x3x3x2xi8>, %w: tensor<2x2x2x1xi8>, %b: tensor<1xi32>) -> tensor<1x2x2x2xi32> {
  %izp = tosa.const values(dense<7> : tensor<1xi8>) : () -> tensor<1xi8>
  %wzp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xi8>, tensor<2x2x2x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  return %0 : tensor<1x2x2x2xi32>
}

// -----

// CHECK-LABEL: func.func @transpose_conv2d_i8
// CHECK-NOT: tosa.
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%b : tensor<1xi32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%w : tensor<1x2x2x1xi8>) outs(%[[B]] : tensor<1x4x4x1xi32>)
// CHECK: ^{{.*}}(%[[W:.*]]: i8, %[[ACC:.*]]: i32):
// CHECK: arith.remsi
// CHECK: arith.divsi
// CHECK: %[[X:.*]] = tensor.extract %x[
// CHECK: %[[XE:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK: %[[WE:.*]] = arith.extsi %[[W]] : i8 to i32
// CHECK: %[[ZP:.*]] = arith.constant 3 : i32
// CHECK: %[[XS:.*]] = arith.subi %[[XE]], %[[ZP]] : i32
// CHECK: %[[M:.*]] = arith.muli %[[XS]], %[[WE]] : i32
// CHECK: %[[S:.*]] = arith.addi %[[ACC]], %[[M]] : i32
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %[[S]], %[[ACC]] : i32
// CHECK: linalg.yield %[[R]] : i32
func.func @transpose_conv2d_i8(%x: tensor<1x2x2x1xi8>, %w: tensor<1x2x2x1xi8>, %b: tensor<1xi32>) -> tensor<1x4x4x1xi32> {
  %izp = tosa.const values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %wzp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.transpose_conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x2x2x1xi8>, tensor<1x2x2x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x1xi32>
  return %0 : tensor<1x4x4x1xi32>
}

// -----

// CHECK-LABEL: func.func @matmul_f32
// CHECK-NOT: tosa.
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x5xf32>)
// CHECK: linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%[[F]] : tensor<2x3x5xf32>)
func.func @matmul_f32(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %azp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %bzp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %azp, %bzp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_i8_zp
// CHECK: %[[A:.*]] = arith.constant 1 : i32
// CHECK: %[[B:.*]] = arith.constant -1 : i32
// CHECK: linalg.quantized_batch_matmul ins(%a, %b, %[[A]], %[[B]] : tensor<1x2x3xi8>, tensor<1x3x2xi8>, i32, i32) outs(%{{.*}} : tensor<1x2x2xi32>)
func.func @matmul_i8_zp(%a: tensor<1x2x3xi8>, %b: tensor<1x3x2xi8>) -> tensor<1x2x2xi32> {
  %azp = tosa.const values(dense<1> : tensor<1xi8>) : () -> tensor<1xi8>
  %bzp = tosa.const values(dense<-1> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
  return %0 : tensor<1x2x2xi32>
}

// -----

// CHECK-LABEL: func.func @matmul_i16
// CHECK: arith.constant 0 : i48
// CHECK: linalg.batch_matmul ins(%a, %b : tensor<1x2x3xi16>, tensor<1x3x2xi16>) outs(%{{.*}} : tensor<1x2x2xi48>)
func.func @matmul_i16(%a: tensor<1x2x3xi16>, %b: tensor<1x3x2xi16>) -> tensor<1x2x2xi48> {
  %azp = tosa.const values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %bzp = tosa.const values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %0 = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x2x3xi16>, tensor<1x3x2xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<1x2x2xi48>
  return %0 : tensor<1x2x2xi48>
}

// -----

// CHECK-LABEL: func.func @max_pool_f32
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[NINF]] : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32)
// CHECK: %[[W:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%[[P]], %[[W]] : tensor<1x6x6x1xf32>, tensor<2x2xf32>) outs(%[[F]] : tensor<1x3x3x1xf32>)
func.func @max_pool_f32(%x: tensor<1x4x4x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool_i8
// CHECK: arith.constant -128 : i8
// CHECK: tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: linalg.pooling_nhwc_max
func.func @max_pool_i8(%x: tensor<1x4x4x1xi8>) -> tensor<1x3x3x1xi8> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xi8>) -> tensor<1x3x3x1xi8>
  return %0 : tensor<1x3x3x1xi8>
}

// -----

// CHECK-LABEL: func.func @max_pool_ignore
// CHECK-NOT: linalg.pooling_nhwc_max
// CHECK: %[[NAN:.*]] = arith.constant 0x7E00 : f16
// CHECK: %[[F:.*]] = linalg.fill ins(%[[NAN]] : f16)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, (d1 + d4), (d2 + d5), d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: ^{{.*}}(%[[V:.*]]: f16, %{{.*}}: f16, %[[ACC:.*]]: f16):
// CHECK: %[[VN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f16
// CHECK: %[[AN:.*]] = arith.cmpf uno, %[[ACC]], %[[ACC]] : f16
// CHECK: %[[M:.*]] = arith.maximumf %[[ACC]], %[[V]] : f16
// CHECK: %[[R:.*]] = arith.select %[[AN]], %[[V]], %[[M]] : f16
// CHECK: arith.select %[[VN]], %[[ACC]], %[[R]] : f16
func.func @max_pool_ignore(%x: tensor<1x3x3x1xf16>) -> tensor<1x2x2x1xf16> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, nan_mode = IGNORE, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xf16>) -> tensor<1x2x2x1xf16>
  return %0 : tensor<1x2x2x1xf16>
}

// -----

// CHECK-LABEL: func.func @avg_pool_f32
// CHECK: tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[S:.*]] = linalg.pooling_nhwc_sum {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<1x3x3x1xf32>) outs(%{{.*}} : tensor<1x3x3x1xf32>)
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: %[[N:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.divf %{{.*}}, %[[N]] : f32
func.func @avg_pool_f32(%x: tensor<1x4x4x1xf32>) -> tensor<1x3x3x1xf32> {
  %izp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %ozp = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %izp, %ozp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}

// -----

// CHECK-LABEL: func.func @avg_pool_i8
// CHECK: arith.constant 0 : i8
// CHECK: tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[S:.*]] = linalg.pooling_nhwc_sum {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x6x1xi8>, tensor<2x2xi32>) outs(%{{.*}} : tensor<1x3x3x1xi32>)
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<1x3x3x1xi32>) outs(%{{.*}} : tensor<1x3x3x1xi8>)
// CHECK: %[[IZ:.*]] = arith.constant -1 : i32
// CHECK: arith.muli %{{.*}}, %[[IZ]] : i32
// CHECK: math.ctlz
// CHECK: arith.constant 1073741825 : i64
// CHECK: arith.shrsi
// CHECK: arith.constant 2 : i32
// CHECK: arith.constant -128 : i32
// CHECK: arith.constant 127 : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
func.func @avg_pool_i8(%x: tensor<1x4x4x1xi8>) -> tensor<1x3x3x1xi8> {
  %izp = tosa.const values(dense<-1> : tensor<1xi8>) : () -> tensor<1xi8>
  %ozp = tosa.const values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.avg_pool2d %x, %izp, %ozp {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x1xi8>
  return %0 : tensor<1x3x3x1xi8>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xi32>
// CHECK: linalg.transpose ins(%x:tensor<2x3x4xi32>) outs(%[[E]]:tensor<4x2x3xi32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<2x3x4xi32>) -> tensor<4x2x3xi32> {
  %0 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
  return %0 : tensor<4x2x3xi32>
}
