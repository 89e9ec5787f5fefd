// EXT-DYNAMIC: tosa-to-linalg(-named) and tosa-to-tensor lower `?` dims as upstream's
// TosaToLinalg / TosaToLinalgNamed / TosaToTensor do (mlir/test/Conversion/TosaToLinalg/
// tosa-to-linalg.mlir, tosa-to-linalg-named.mlir, TosaToTensor/tosa-to-tensor.mlir): the
// result's tensor.empty takes tensor.dim of the operand that gives each dynamic size. Two
// dynamic operand dims that may broadcast: upstream's arith.maxui size, and (our difference,
// docs/lowering.md) the operand read by tensor.extract at `minui(index, dim - 1)` instead of
// an scf.if-materialised broadcast. MLIR 22 parses and verifies every result.
// RUN: tosa-opt %s -p tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor | filecheck %s
// RUN: tosa-opt %s -p tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith --print-op-generic | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// MLIR-LABEL: func.func @abs_1d_dynamic
// MLIR:       tensor.empty(%{{.*}}) : tensor<?xf32>
// MLIR-LABEL: func.func @conv2d_dynamic_batch
// MLIR:       linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<?x5x5x3xf32>
// MLIR-LABEL: func.func @conv2d_dyn_w_h
// MLIR:       linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x?x?x3xf32>
// MLIR-LABEL: func.func @max_pool_dyn_w_h
// MLIR:       linalg.pooling_nhwc_max {{.*}} -> tensor<1x?x?x2xf32>
// MLIR-LABEL: func.func @test_dynamic_rfft2d
// MLIR:       tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x?x?xf32>
// MLIR-LABEL: func.func @conv3d_dynamic_batch
// MLIR:       linalg.conv_3d_ndhwc_dhwcf {{.*}} -> tensor<?x3x4x5x3xf32>
// MLIR-LABEL: func.func @transpose_conv2d_dynamic_batch
// MLIR:       tensor.extract %{{.*}} : tensor<?x2x2x1xf32>
// MLIR-LABEL: func.func @resize_dynamic_batch
// MLIR:       tensor.empty(%{{.*}}) : tensor<?x3x5x2xf32>
// MLIR-LABEL: func.func @reverse_dyn
// MLIR:       tensor.extract %{{.*}}[%{{.*}}] : tensor<?xi32>
// MLIR-LABEL: func.func @avg_pool_dyn
// MLIR:       linalg.pooling_nhwc_sum {{.*}} -> tensor<?x5x33x62xf32>
// MLIR-LABEL: func.func @depthwise_conv2d_dyn
// MLIR:       linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} -> tensor<?x5x5x3x11xf32>
// MLIR-LABEL: func.func @pad_dyn_inner
// MLIR:       tensor.empty(%{{.*}}) : tensor<2x?xf32>
// MLIR-LABEL: func.func @tile_dyn_input
// MLIR:       arith.remui
// MLIR-LABEL: func.func @gather_float_dyn
// MLIR:       tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?x2xf32>

// as upstream's test_abs_1d_dynamic
// CHECK-LABEL: func.func @abs_1d_dynamic
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[DIM:.*]] = tensor.dim %[[ARG0]], %[[ZERO]] : tensor<?xf32>
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?xf32>
// CHECK-NEXT:    %[[RESULT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[ARG0]] : tensor<?xf32>) outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK:           math.absf
// CHECK:         } -> tensor<?xf32>
// CHECK:         func.return %[[RESULT]] : tensor<?xf32>
func.func @abs_1d_dynamic(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tosa.abs %arg0 : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// as upstream's test_add_1d_broadcast_static_to_dynamic: the size-1 operand broadcasts
// through its map, the size is the dynamic operand's
// CHECK-LABEL: func.func @add_1d_broadcast_static_to_dynamic
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<1xf32>, %[[ARG1:.*]]: tensor<?xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[DIM:.*]] = tensor.dim %[[ARG1]], %[[ZERO]] : tensor<?xf32>
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[ARG0]], %[[ARG1]] : tensor<1xf32>, tensor<?xf32>) outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK:           arith.addf
func.func @add_1d_broadcast_static_to_dynamic(%arg0: tensor<1xf32>, %arg1: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tosa.add %arg0, %arg1 : (tensor<1xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// upstream's test_add_1d_all_dynamic computes the size the same way (maxui of the dims)
// CHECK-LABEL: func.func @add_1d_all_dynamic
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?xf32>, %[[ARG1:.*]]: tensor<?xf32>)
// CHECK:         %[[D0:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<?xf32>
// CHECK:         %[[D1:.*]] = tensor.dim %[[ARG1]], %{{.*}} : tensor<?xf32>
// CHECK-NEXT:    %[[MAX:.*]] = arith.maxui %[[D0]], %[[D1]] : index
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty(%[[MAX]]) : tensor<?xf32>
// CHECK:         %[[A1:.*]] = arith.subi %{{.*}}, %[[ONE:.*]] : index
// CHECK:         %[[B1:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[IA:.*]] = arith.minui %[[I]], %[[A1]] : index
// CHECK-NEXT:      %[[XA:.*]] = tensor.extract %[[ARG0]][%[[IA]]] : tensor<?xf32>
// CHECK:           %[[IB:.*]] = arith.minui %{{.*}}, %[[B1]] : index
// CHECK-NEXT:      %[[XB:.*]] = tensor.extract %[[ARG1]][%[[IB]]] : tensor<?xf32>
// CHECK-NEXT:      arith.addf %[[XA]], %[[XB]] : f32
func.func @add_1d_all_dynamic(%arg0: tensor<?xf32>, %arg1: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tosa.add %arg0, %arg1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// reductions: the accumulator takes the kept dims' tensor.dim, the expand_shape its output_shape
// CHECK-LABEL: func.func @reduce_sum_dynamic
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<3x?xf32>)
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[DIM:.*]] = tensor.dim %[[ARG0]], %[[C1]] : tensor<3x?xf32>
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<?xf32>) -> tensor<?xf32>
// CHECK:         %[[RED:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%[[ARG0]] : tensor<3x?xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = tensor.dim %[[RED]], %[[C0]] : tensor<?xf32>
// CHECK-NEXT:    tensor.expand_shape %[[RED]] {{\[\[}}0 : i64, 1 : i64]] output_shape [1, %[[D]]] : tensor<?xf32> into tensor<1x?xf32>
func.func @reduce_sum_dynamic(%arg0: tensor<3x?xf32>) -> tensor<1x?xf32> {
  %0 = tosa.reduce_sum %arg0 {axis = 0 : i32} : (tensor<3x?xf32>) -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}

// matmul: N and H from a, W from b (upstream's matmul_dyn_batch / matmul_dyn_independent_dim)
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-SAME:    (%[[A:.*]]: tensor<?x5x3xf32>, %[[B:.*]]: tensor<?x3x?xf32>)
// CHECK:         %[[N:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x5x3xf32>
// CHECK:         %[[W:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?x3x?xf32>
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty(%[[N]], %[[W]]) : tensor<?x5x?xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<?x5x?xf32>)
// CHECK:         linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<?x5x3xf32>, tensor<?x3x?xf32>) outs(%[[FILL]] : tensor<?x5x?xf32>)
func.func @matmul_dynamic(%a: tensor<?x5x3xf32>, %b: tensor<?x3x?xf32>) -> tensor<?x5x?xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<?x5x3xf32>, tensor<?x3x?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x5x?xf32>
  return %0 : tensor<?x5x?xf32>
}

// conv2d with a dynamic batch (upstream's conv2d_dyn): the bias init takes the input's dim 0
// CHECK-LABEL: func.func @conv2d_dynamic_batch
// CHECK-SAME:    (%[[X:.*]]: tensor<?x5x5x2xf32>
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x5x5x2xf32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x5x5x3xf32>
// CHECK:         %[[BIAS:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<?x5x5x3xf32>)
// CHECK:         linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%[[X]], %{{.*}} : tensor<?x5x5x2xf32>, tensor<3x1x1x2xf32>) outs(%[[BIAS]] : tensor<?x5x5x3xf32>)
func.func @conv2d_dynamic_batch(%x: tensor<?x5x5x2xf32>, %w: tensor<3x1x1x2xf32>, %b: tensor<3xf32>) -> tensor<?x5x5x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x5x5x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x5x5x3xf32>
  return %0 : tensor<?x5x5x3xf32>
}

// dynamic H and W (upstream's conv2d_dyn_w_h): each output size is the spec's
// (I - 1 + pad_before + pad_after - (K - 1) * dilation) / stride + 1 on the input's tensor.dim
// (upstream: the same value, (I + pads - ((K - 1) * dilation + 1)) / stride + 1, with divui)
// CHECK-LABEL: func.func @conv2d_dyn_w_h
// CHECK-SAME:    (%[[X:.*]]: tensor<1x?x?x2xf32>
// CHECK:         %[[P:.*]] = tensor.pad %[[X]] low[0, 1, 0, 0] high[0, 2, 1, 0]
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[H:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<1x?x?x2xf32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[HM1:.*]] = arith.subi %[[H]], %[[ONE]] : index
// CHECK-NEXT:    %[[PB:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[H1:.*]] = arith.addi %[[HM1]], %[[PB]] : index
// CHECK-NEXT:    %[[PA:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[H2:.*]] = arith.addi %[[H1]], %[[PA]] : index
// CHECK-NEXT:    %[[KD:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[NUM:.*]] = arith.subi %[[H2]], %[[KD]] : index
// CHECK-NEXT:    %[[S:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divsi %[[NUM]], %[[S]] : index
// CHECK-NEXT:    %[[ONE2:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[OH:.*]] = arith.addi %[[Q]], %[[ONE2]] : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[W:.*]] = tensor.dim %[[X]], %[[C2]] : tensor<1x?x?x2xf32>
// CHECK:         %[[INIT:.*]] = tensor.empty(%[[OH]], %{{.*}}) : tensor<1x?x?x3xf32>
// CHECK:         %[[BIAS:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<1x?x?x3xf32>)
// CHECK:         linalg.conv_2d_nhwc_fhwc {strides = dense<[2, 1]> : tensor<2xi64>, dilations = dense<[2, 1]> : tensor<2xi64>} ins(%[[P]], %{{.*}} : tensor<1x?x?x2xf32>, tensor<3x3x2x2xf32>) outs(%[[BIAS]] : tensor<1x?x?x3xf32>)
func.func @conv2d_dyn_w_h(%x: tensor<1x?x?x2xf32>, %w: tensor<3x3x2x2xf32>, %b: tensor<3xf32>) -> tensor<1x?x?x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 1>, pad = array<i64: 1, 2, 0, 1>, stride = array<i64: 2, 1>} : (tensor<1x?x?x2xf32>, tensor<3x3x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x3xf32>
  return %0 : tensor<1x?x?x3xf32>
}

// dynamic H and W of a pooling (upstream's max_pool_dyn_w_h): (I + pad_before + pad_after -
// kernel) / stride + 1, the init filled with the lowest value
// CHECK-LABEL: func.func @max_pool_dyn_w_h
// CHECK-SAME:    (%[[X:.*]]: tensor<1x?x?x2xf32>
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[H:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<1x?x?x2xf32>
// CHECK-NEXT:    %[[K:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[NUM:.*]] = arith.subi %[[H]], %[[K]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[OH:.*]] = arith.addi %[[NUM]], %[[ONE]] : index
// CHECK:         arith.divsi %{{.*}}, %{{.*}} : index
// CHECK:         %[[INIT:.*]] = tensor.empty(%[[OH]], %{{.*}}) : tensor<1x?x?x2xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[INIT]] : tensor<1x?x?x2xf32>)
// CHECK:         linalg.pooling_nhwc_max {{.*}} outs(%[[FILL]] : tensor<1x?x?x2xf32>)
func.func @max_pool_dyn_w_h(%x: tensor<1x?x?x2xf32>) -> tensor<1x?x?x2xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 2>, pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 2>} : (tensor<1x?x?x2xf32>) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// as upstream's test_dynamic_rfft2d: the outputs are (N, H, W / 2 + 1) of the input's
// tensor.dim (divui + addi); H and W are read in the body (the angle's ay / H, ax / W and the
// imaginary-term test's H / 2, W / 2, here max(size / 2, 1))
// CHECK-LABEL: func.func @test_dynamic_rfft2d
// CHECK-SAME:    (%[[X:.*]]: tensor<?x?x?xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x?x?xf32>
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[H:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<?x?x?xf32>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[W:.*]] = tensor.dim %[[X]], %[[C2]] : tensor<?x?x?xf32>
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[HALF:.*]] = arith.divui %[[W]], %[[TWO]] : index
// CHECK-NEXT:    %[[OW:.*]] = arith.addi %[[HALF]], %[[ONE]] : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[N]], %[[H]], %[[OW]]) : tensor<?x?x?xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<?x?x?xf32>) outs(%{{.*}}, %{{.*}} : tensor<?x?x?xf32>, tensor<?x?x?xf32>)
// CHECK:           arith.remui %{{.*}}, %{{.*}} : index
func.func @test_dynamic_rfft2d(%arg0: tensor<?x?x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>) {
  %real, %imag = tosa.rfft2d %arg0 : (tensor<?x?x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>)
  return %real, %imag : tensor<?x?x?xf32>, tensor<?x?x?xf32>
}

// conv3d and transpose_conv2d with a dynamic batch: the bias init takes the input's dim 0
// (as conv2d_dyn); the weights' transpose stays static
// CHECK-LABEL: func.func @conv3d_dynamic_batch
// CHECK-SAME:    (%[[X:.*]]: tensor<?x4x5x6x2xf32>
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x4x5x6x2xf32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x3x4x5x3xf32>
// CHECK:         %[[BIAS:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<?x3x4x5x3xf32>)
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%{{.*}}:tensor<3x2x2x2x2xf32>) outs(%{{.*}}:tensor<2x2x2x2x3xf32>) permutation = [1, 2, 3, 4, 0]
// CHECK-NEXT:    linalg.conv_3d_ndhwc_dhwcf {strides = dense<1> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>} ins(%[[X]], %[[WT]] : tensor<?x4x5x6x2xf32>, tensor<2x2x2x2x3xf32>) outs(%[[BIAS]] : tensor<?x3x4x5x3xf32>)
func.func @conv3d_dynamic_batch(%x: tensor<?x4x5x6x2xf32>, %w: tensor<3x2x2x2x2xf32>, %b: tensor<3xf32>) -> tensor<?x3x4x5x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<?x4x5x6x2xf32>, tensor<3x2x2x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3x4x5x3xf32>
  return %0 : tensor<?x3x4x5x3xf32>
}

// CHECK-LABEL: func.func @transpose_conv2d_dynamic_batch
// CHECK-SAME:    (%[[X:.*]]: tensor<?x2x2x1xf32>
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x2x2x1xf32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x4x4x2xf32>
// CHECK:         %[[BIAS:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<?x4x4x2xf32>)
// CHECK:         linalg.generic {{.*}} outs(%[[BIAS]] : tensor<?x4x4x2xf32>)
// CHECK:           tensor.extract %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<?x2x2x1xf32>
func.func @transpose_conv2d_dynamic_batch(%x: tensor<?x2x2x1xf32>, %w: tensor<2x2x2x1xf32>, %b: tensor<2xf32>) -> tensor<?x4x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x2x2x1xf32>, tensor<2x2x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x4x4x2xf32>
  return %0 : tensor<?x4x4x2xf32>
}

// resize with a dynamic batch (as upstream's resize_*_dyn batch cases): the output's
// tensor.empty takes the input's dim 0; the body reads the input at linalg.index 0
// CHECK-LABEL: func.func @resize_dynamic_batch
// CHECK-SAME:    (%[[X:.*]]: tensor<?x2x3x2xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x2x3x2xf32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x3x5x2xf32>
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[INIT]] : tensor<?x3x5x2xf32>)
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK:           tensor.extract %[[X]][%[[I0]], %{{.*}}, %{{.*}}, %{{.*}}] : tensor<?x2x3x2xf32>
func.func @resize_dynamic_batch(%x: tensor<?x2x3x2xf32>) -> tensor<?x3x5x2xf32> {
  %s = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.resize %x, %s, %o, %o {mode = NEAREST_NEIGHBOR} : (tensor<?x2x3x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x3x5x2xf32>
  return %0 : tensor<?x3x5x2xf32>
}

// as upstream's test_reshape_5d_down_d2d_auto
// CHECK-LABEL: func.func @reshape_5d_down_d2d_auto
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?x?x?x2x3xf32>)
// CHECK:         %[[COLLAPSED:.*]] = tensor.collapse_shape %[[ARG0]] {{\[\[}}0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : tensor<?x?x?x2x3xf32> into tensor<?xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[DIM:.*]] = tensor.dim %[[COLLAPSED]], %[[C0]] : tensor<?xf32>
// CHECK-NEXT:    %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:    %[[DIV:.*]] = arith.divsi %[[DIM]], %[[C6]] : index
// CHECK-NEXT:    %[[EXPANDED:.*]] = tensor.expand_shape %[[COLLAPSED]] {{\[\[}}0 : i64, 1 : i64, 2 : i64]] output_shape [%[[DIV]], 2, 3] : tensor<?xf32> into tensor<?x2x3xf32>
// CHECK-NEXT:    func.return %[[EXPANDED]] : tensor<?x2x3xf32>
func.func @reshape_5d_down_d2d_auto(%arg0: tensor<?x?x?x2x3xf32>) -> tensor<?x2x3xf32> {
  %s = tosa.const_shape {values = dense<[-1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.reshape %arg0, %s : (tensor<?x?x?x2x3xf32>, !tosa.shape<3>) -> tensor<?x2x3xf32>
  return %0 : tensor<?x2x3xf32>
}

// as upstream's test_reshape_3d_same_d2s_explicit: a tensor.cast to the static result
// CHECK-LABEL: func.func @reshape_3d_same_d2s_explicit
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<?x?x?xf32> into tensor<?xf32>
// CHECK:         arith.divsi
// CHECK-NEXT:    %[[E:.*]] = tensor.expand_shape %{{.*}} output_shape [2, 3, %{{.*}}] : tensor<?xf32> into tensor<2x3x?xf32>
// CHECK-NEXT:    tensor.cast %[[E]] : tensor<2x3x?xf32> to tensor<2x3x4xf32>
func.func @reshape_3d_same_d2s_explicit(%arg0: tensor<?x?x?xf32>) -> tensor<2x3x4xf32> {
  %s = tosa.const_shape {values = dense<[2, 3, -1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.reshape %arg0, %s : (tensor<?x?x?xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// concat along a dynamic axis (upstream's concat_axis_dyn): the size is the sum of the
// inputs' dims, each insert_slice at the running offset
// CHECK-LABEL: func.func @concat_axis_dynamic
// CHECK-SAME:    (%[[A:.*]]: tensor<?x3xf32>, %[[B:.*]]: tensor<?x3xf32>)
// CHECK:         %[[DA:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x3xf32>
// CHECK:         %[[DB:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?x3xf32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %{{.*}}, %[[DB]] : index
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty(%[[SUM]]) : tensor<?x3xf32>
// CHECK:         %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [%{{.*}}, 3] [1, 1] : tensor<?x3xf32> into tensor<?x3xf32>
// CHECK:         tensor.insert_slice %[[B]] into %[[I0]][%{{.*}}, 0] [%{{.*}}, 3] [1, 1] : tensor<?x3xf32> into tensor<?x3xf32>
func.func @concat_axis_dynamic(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = tosa.concat %a, %b {axis = 0 : i32} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// as upstream's rescale_i8_dyn_batch: the init takes the input's batch
// CHECK-LABEL: func.func @rescale_i8_dyn_batch
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?x2xi8>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[BATCH:.*]] = tensor.dim %[[ARG0]], %[[C0]] : tensor<?x2xi8>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[BATCH]]) : tensor<?x2xi8>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[ARG0]] : tensor<?x2xi8>) outs(%[[INIT]] : tensor<?x2xi8>)
// CHECK:           arith.trunci %{{.*}} : i32 to i8
func.func @rescale_i8_dyn_batch(%arg0: tensor<?x2xi8>) -> tensor<?x2xi8> {
  %m = "tosa.const"() <{values = dense<19689> : tensor<1xi16>}> : () -> tensor<1xi16>
  %s = "tosa.const"() <{values = dense<15> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<17> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<22> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<?x2xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x2xi8>
  return %0 : tensor<?x2xi8>
}

// as upstream's table8_dyn: the init takes the input's dim, the table is read by tensor.extract
// CHECK-LABEL: func.func @table8_dyn
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?xi8>, %[[TABLE:.*]]: tensor<256xi8>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[DIM:.*]] = tensor.dim %[[ARG0]], %[[C0]] : tensor<?xi8>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[DIM]]) : tensor<?xi8>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[ARG0]] : tensor<?xi8>) outs(%[[INIT]] : tensor<?xi8>)
// CHECK:           %[[X:.*]] = tensor.extract %[[TABLE]][%{{.*}}] : tensor<256xi8>
// CHECK-NEXT:      linalg.yield %[[X]] : i8
func.func @table8_dyn(%arg0: tensor<?xi8>, %arg1: tensor<256xi8>) -> tensor<?xi8> {
  %0 = tosa.table %arg0, %arg1 : (tensor<?xi8>, tensor<256xi8>) -> tensor<?xi8>
  return %0 : tensor<?xi8>
}

// as upstream's reverse_dyn: a dynamic axis reads the input by tensor.extract at
// (dim - 1) - index, the generic has only the output
// CHECK-LABEL: func.func @reverse_dyn
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?xi32>)
// CHECK:         %[[D0_1:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<?xi32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[D0_1]]) : tensor<?xi32>
// CHECK:         %[[D0_2:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<?xi32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%[[INIT]] : tensor<?xi32>)
// CHECK-DAG:       %[[I0:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[SUB1:.*]] = arith.constant 1 : index
// CHECK:           %[[RDIM_MINUS_C1:.*]] = arith.subi %[[D0_2]], %[[SUB1]] : index
// CHECK-NEXT:      %[[READ:.*]] = arith.subi %[[RDIM_MINUS_C1]], %[[I0]] : index
// CHECK-NEXT:      %[[X:.*]] = tensor.extract %[[ARG0]][%[[READ]]] : tensor<?xi32>
// CHECK-NEXT:      linalg.yield %[[X]] : i32
func.func @reverse_dyn(%arg0: tensor<?xi32>) -> tensor<?xi32> {
  %0 = tosa.reverse %arg0 {axis = 0 : i32} : (tensor<?xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// a static reversed axis keeps the affine map (3 - d1) beside a dynamic batch
// CHECK-LABEL: func.func @reverse_dyn_batch_static_axis
// CHECK:         %[[N:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x4xi32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x4xi32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, ((d1 * -1) + 3))>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<?x4xi32>) outs(%[[INIT]] : tensor<?x4xi32>)
func.func @reverse_dyn_batch_static_axis(%arg0: tensor<?x4xi32>) -> tensor<?x4xi32> {
  %0 = tosa.reverse %arg0 {axis = 1 : i32} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  return %0 : tensor<?x4xi32>
}

// as upstream's argmax_dyn_non_axis: both accumulators take the kept dim's tensor.dim
// CHECK-LABEL: func.func @argmax_dyn_non_axis
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<3x?xi8>)
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[DYN:.*]] = tensor.dim %[[ARG0]], %[[C1]] : tensor<3x?xi8>
// CHECK-NEXT:    %[[IDX_INIT:.*]] = tensor.empty(%[[DYN]]) : tensor<?xi32>
// CHECK-NEXT:    %[[IDX_MIN:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[IDX_FILL:.*]] = linalg.fill ins(%[[IDX_MIN]] : i32) outs(%[[IDX_INIT]] : tensor<?xi32>)
// CHECK:         %[[DYN2:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<3x?xi8>
// CHECK-NEXT:    %[[VAL_INIT:.*]] = tensor.empty(%[[DYN2]]) : tensor<?xi8>
// CHECK-NEXT:    %[[VAL_MIN:.*]] = arith.constant -128 : i8
// CHECK-NEXT:    %[[VAL_FILL:.*]] = linalg.fill ins(%[[VAL_MIN]] : i8) outs(%[[VAL_INIT]] : tensor<?xi8>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%[[ARG0]] : tensor<3x?xi8>) outs(%[[IDX_FILL]], %[[VAL_FILL]] : tensor<?xi32>, tensor<?xi8>)
func.func @argmax_dyn_non_axis(%arg0: tensor<3x?xi8>) -> tensor<?xi32> {
  %0 = tosa.argmax %arg0 {axis = 0 : i32} : (tensor<3x?xi8>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// as upstream's argmax_dyn_axis: reducing the dynamic dim leaves static accumulators
// CHECK-LABEL: func.func @argmax_dyn_axis
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<3x?xi8>)
// CHECK:         %[[IDX_INIT:.*]] = tensor.empty() : tensor<3xi32>
// CHECK:         %[[VAL_INIT:.*]] = tensor.empty() : tensor<3xi8>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[ARG0]] : tensor<3x?xi8>)
func.func @argmax_dyn_axis(%arg0: tensor<3x?xi8>) -> tensor<3xi32> {
  %0 = tosa.argmax %arg0 {axis = 1 : i32} : (tensor<3x?xi8>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// as upstream's avg_pool_dyn: the pad keeps the dynamic batch, the sum's and the divide's
// inits take the input's dim 0
// CHECK-LABEL: func.func @avg_pool_dyn
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?x6x34x62xf32>)
// CHECK:         %[[PAD:.*]] = tensor.pad %[[ARG0]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         } : tensor<?x6x34x62xf32> to tensor<?x8x36x62xf32>
// CHECK:         %[[BATCH:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<?x6x34x62xf32>
// CHECK-NEXT:    %[[POOLINIT:.*]] = tensor.empty(%[[BATCH]]) : tensor<?x5x33x62xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[POOLINIT]] : tensor<?x5x33x62xf32>)
// CHECK-NEXT:    %[[KERNEL:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT:    %[[POOL:.*]] = linalg.pooling_nhwc_sum {{.*}} ins(%[[PAD]], %[[KERNEL]] : tensor<?x8x36x62xf32>, tensor<4x4xf32>) outs(%[[FILL]] : tensor<?x5x33x62xf32>)
// CHECK:         %[[BATCH2:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<?x6x34x62xf32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[BATCH2]]) : tensor<?x5x33x62xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[POOL]] : tensor<?x5x33x62xf32>) outs(%[[INIT]] : tensor<?x5x33x62xf32>)
// CHECK:           arith.divf
func.func @avg_pool_dyn(%arg0: tensor<?x6x34x62xf32>) -> tensor<?x5x33x62xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %arg0, %zp, %zp {acc_type = f32, kernel = array<i64: 4, 4>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x6x34x62xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x5x33x62xf32>
  return %0 : tensor<?x5x33x62xf32>
}

// as upstream's depthwise_conv2d_dyn: the (N, H, W, C, M) accumulator and the bias add's
// init take the input's batch; the collapse keeps it dynamic
// CHECK-LABEL: func.func @depthwise_conv2d_dyn
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?x7x5x3xf32>, %[[W:.*]]: tensor<3x1x3x11xf32>, %[[B:.*]]: tensor<33xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[BATCH:.*]] = tensor.dim %[[ARG0]], %[[C0]] : tensor<?x7x5x3xf32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[BATCH]]) : tensor<?x5x5x3x11xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[INIT]] : tensor<?x5x5x3x11xf32>)
// CHECK-NEXT:    %[[DEPTH:.*]] = linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} ins(%[[ARG0]], %[[W]] : tensor<?x7x5x3xf32>, tensor<3x1x3x11xf32>) outs(%[[FILL]] : tensor<?x5x5x3x11xf32>)
// CHECK-NEXT:    %[[COLLAPSED:.*]] = tensor.collapse_shape %[[DEPTH]] {{\[\[}}0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] : tensor<?x5x5x3x11xf32> into tensor<?x5x5x33xf32>
// CHECK:         %[[BATCH2:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<?x7x5x3xf32>
// CHECK-NEXT:    %[[OUT:.*]] = tensor.empty(%[[BATCH2]]) : tensor<?x5x5x33xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[COLLAPSED]], %[[B]] : tensor<?x5x5x33xf32>, tensor<33xf32>) outs(%[[OUT]] : tensor<?x5x5x33xf32>)
// CHECK:           arith.addf
func.func @depthwise_conv2d_dyn(%arg0: tensor<?x7x5x3xf32>, %arg1: tensor<3x1x3x11xf32>, %arg2: tensor<33xf32>) -> tensor<?x5x5x33xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %arg0, %arg1, %arg2, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<?x7x5x3xf32>, tensor<3x1x3x11xf32>, tensor<33xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x5x5x33xf32>
  return %0 : tensor<?x5x5x33xf32>
}

// as upstream's pad_dyn_input: tensor.pad keeps the dynamic batch, the padding value is
// extracted before it
// CHECK-LABEL: func.func @pad_dyn_input
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?x2xf32>)
// CHECK:         %[[CST:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xf32>
// CHECK-NEXT:    tensor.pad %[[ARG0]] low[1, 3] high[2, 4] {
// CHECK:           tensor.yield %[[CST]] : f32
// CHECK-NEXT:    } : tensor<?x2xf32> to tensor<?x9xf32>
func.func @pad_dyn_input(%arg0: tensor<?x2xf32>) -> tensor<?x9xf32> {
  %p = tosa.const_shape {values = dense<[1, 2, 3, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %arg0, %p, %c : (tensor<?x2xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x9xf32>
  return %0 : tensor<?x9xf32>
}

// a dynamic inner dim (our difference, docs/lowering.md): the result is dim + low + high and
// one generic reads the input at index - low (clamped), the pad value outside it
// CHECK-LABEL: func.func @pad_dyn_inner
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<2x?xf32>)
// CHECK:         %[[CST:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xf32>
// CHECK:         %[[DIM:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<2x?xf32>
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.addi %[[DIM]], %[[C7]] : index
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[SIZE]]) : tensor<2x?xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[INIT]] : tensor<2x?xf32>)
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[I1:.*]] = linalg.index 1 : index
// CHECK:           %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[J:.*]] = arith.subi %[[I1]], %[[C3]] : index
// CHECK-NEXT:      %[[GE:.*]] = arith.cmpi sge, %[[J]], %{{.*}} : index
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[J]], %[[DIM]] : index
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK:           %[[X:.*]] = tensor.extract %[[ARG0]][%[[I0]], %{{.*}}] : tensor<2x?xf32>
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[IN]], %[[X]], %[[CST]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @pad_dyn_inner(%arg0: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, 3, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<1.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %arg0, %p, %c : (tensor<2x?xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// SLICE of a dynamic batch: upstream's one tensor.extract_slice with the static start and size
// (TOSA 1.0.1's sizes are positive: the result is static)
// CHECK-LABEL: func.func @slice_dyn_batch
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?x4xf32>)
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[ARG0]][1, 1] [1, 2] [1, 1] : tensor<?x4xf32> to tensor<1x2xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<1x2xf32>
func.func @slice_dyn_batch(%arg0: tensor<?x4xf32>) -> tensor<1x2xf32> {
  %0 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.slice %arg0, %0, %1 : (tensor<?x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  return %2 : tensor<1x2xf32>
}

// a dynamic inner dim (our difference, as PAD): one generic reads the input at index + start,
// a dynamic dim's index clamped to dim - 1 (a too small run-time input is a REQUIRE failure;
// native reads stay inside it)
// CHECK-LABEL: func.func @slice_dyn_inner
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<3x?xf32>)
// CHECK:         %[[DIM:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<3x?xf32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.subi %[[DIM]], %[[ONE]] : index
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty() : tensor<2x1xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[INIT]] : tensor<2x1xf32>)
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[Y:.*]] = arith.addi %[[I0]], %[[C1]] : index
// CHECK-NEXT:      %[[I1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[XI:.*]] = arith.minui %[[I1]], %[[LAST]] : index
// CHECK-NEXT:      %[[X:.*]] = tensor.extract %[[ARG0]][%[[Y]], %[[XI]]] : tensor<3x?xf32>
// CHECK-NEXT:      linalg.yield %[[X]] : f32
func.func @slice_dyn_inner(%arg0: tensor<3x?xf32>) -> tensor<2x1xf32> {
  %0 = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.slice %arg0, %0, %1 : (tensor<3x?xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x1xf32>
  return %2 : tensor<2x1xf32>
}

// as upstream's tile_dyn_input: the result's dynamic dim is the input's tensor.dim times the
// multiple; a repeated dynamic dim is read at index mod dim (a run-time value: tensor.extract)
// CHECK-LABEL: func.func @tile_dyn_input
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?x3xi8>)
// CHECK:         %[[DYN:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<?x3xi8>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.muli %[[DYN]], %[[C2]] : index
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[SIZE]]) : tensor<?x3xi8>
// CHECK:         %[[D:.*]] = tensor.dim %[[ARG0]], %{{.*}} : tensor<?x3xi8>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[INIT]] : tensor<?x3xi8>)
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[R:.*]] = arith.remui %[[I0]], %[[D]] : index
// CHECK-NEXT:      %[[I1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[X:.*]] = tensor.extract %[[ARG0]][%[[R]], %[[I1]]] : tensor<?x3xi8>
// CHECK-NEXT:      linalg.yield %[[X]] : i8
func.func @tile_dyn_input(%arg0: tensor<?x3xi8>) -> tensor<?x3xi8> {
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %arg0, %m : (tensor<?x3xi8>, !tosa.shape<2>) -> tensor<?x3xi8>
  return %0 : tensor<?x3xi8>
}

// a dynamic batch repeated once, a static dim repeated: the affine map (d1 mod 3)
// CHECK-LABEL: func.func @tile_dyn_batch_static_repeat
// CHECK:         %[[N:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x3xi8>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x6xi8>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 mod 3))>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<?x3xi8>) outs(%[[INIT]] : tensor<?x6xi8>)
func.func @tile_dyn_batch_static_repeat(%arg0: tensor<?x3xi8>) -> tensor<?x6xi8> {
  %m = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %arg0, %m : (tensor<?x3xi8>, !tosa.shape<2>) -> tensor<?x6xi8>
  return %0 : tensor<?x6xi8>
}

// as upstream's gather_float_dyn / gather_float_all_dynamic (N and W): the init takes N from
// the values' dim 0 and W from the indices' dim 1
// CHECK-LABEL: func.func @gather_float_dyn
// CHECK-SAME:    (%[[ARG0:.*]]: tensor<?x3x2xf32>, %[[ARG1:.*]]: tensor<?x?xi32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[BATCH:.*]] = tensor.dim %[[ARG0]], %[[C0]] : tensor<?x3x2xf32>
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[INDEX:.*]] = tensor.dim %[[ARG1]], %[[C1]] : tensor<?x?xi32>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[BATCH]], %[[INDEX]]) : tensor<?x?x2xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[ARG1]] : tensor<?x?xi32>) outs(%[[INIT]] : tensor<?x?x2xf32>)
// CHECK:           %[[X:.*]] = tensor.extract %[[ARG0]][%{{.*}}, %{{.*}}, %{{.*}}] : tensor<?x3x2xf32>
// CHECK-NEXT:      linalg.yield %[[X]] : f32
func.func @gather_float_dyn(%arg0: tensor<?x3x2xf32>, %arg1: tensor<?x?xi32>) -> tensor<?x?x2xf32> {
  %0 = tosa.gather %arg0, %arg1 : (tensor<?x3x2xf32>, tensor<?x?xi32>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}
