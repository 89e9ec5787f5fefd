// EXT-DYNAMIC, the dims beyond tosa_to_linalg_dynamic.mlir: every input/output dim of the
// convolutions and pools (channel dims from the static weights, cast back to the declared
// `?`), the spatial dims of CONV3D, TRANSPOSE_CONV2D and RESIZE (the spec's output-size rules
// on tensor.dim values, as upstream's conv2d_dyn_w_h), GATHER's K and C and a per-channel
// RESCALE's channel dim; dynamic weights and bias (beyond upstream, which requires them
// static). The sizes checked are the spec's formulas; MLIR 22 parses and
// verifies every result.
// RUN: tosa-opt %s -p tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor | filecheck %s
// RUN: tosa-opt %s -p tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith --print-op-generic | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// conv2d, every input/output dim `?`: N is the input's tensor.dim 0; H = (H - 1 + 1 + 2 -
// (3 - 1) * 2) / 1 + 1 and W = (W - 1 - (2 - 1)) / 2 + 1 on the input's tensor.dim 1 and 2
// (spec 2.3.3, upstream's conv2d_dyn_w_h); OC is the weights' 3, the declared `?` comes back
// by tensor.cast
// CHECK-LABEL: func.func @conv2d_dyn_channels
// CHECK: %[[PAD:.*]] = tensor.pad %x low[0, 1, 0, 0] high[0, 2, 0, 0]
// CHECK: } : tensor<?x?x?x?xf32> to tensor<?x?x?x?xf32>
// CHECK: %[[N:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?x?x?xf32>
// CHECK: %[[IH:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?x?x?xf32>
// CHECK: %[[H1:.*]] = arith.subi %[[IH]], %{{.*}} : index
// CHECK: %[[PT:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[H2:.*]] = arith.addi %[[H1]], %[[PT]] : index
// CHECK-NEXT: %[[PB:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[H3:.*]] = arith.addi %[[H2]], %[[PB]] : index
// CHECK-NEXT: %[[KD:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[H4:.*]] = arith.subi %[[H3]], %[[KD]] : index
// CHECK: %[[OH:.*]] = arith.addi %[[H4]], %{{.*}} : index
// CHECK: %[[IW:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?x?x?xf32>
// CHECK: %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %{{.*}}, %[[S2]] : index
// CHECK: %[[OW:.*]] = arith.addi %[[Q]], %{{.*}} : index
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]], %[[OH]], %[[OW]]) : tensor<?x?x?x3xf32>
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}} ins(%b : tensor<3xf32>) outs(%[[INIT]] : tensor<?x?x?x3xf32>)
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[PAD]], %w : tensor<?x?x?x?xf32>, tensor<3x3x2x2xf32>) outs(%[[BIAS]] : tensor<?x?x?x3xf32>) -> tensor<?x?x?x3xf32>
// CHECK: %[[R:.*]] = tensor.cast %[[CONV]] : tensor<?x?x?x3xf32> to tensor<?x?x?x?xf32>
// CHECK: func.return %[[R]]
// MLIR-LABEL: func.func @conv2d_dyn_channels
// MLIR: linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<?x?x?x3xf32>
// MLIR: tensor.cast {{.*}} : tensor<?x?x?x3xf32> to tensor<?x?x?x?xf32>
func.func @conv2d_dyn_channels(%x: tensor<?x?x?x?xf32>, %w: tensor<3x3x2x2xf32>, %b: tensor<3xf32>) -> tensor<?x?x?x?xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 1>, pad = array<i64: 1, 2, 0, 0>, stride = array<i64: 1, 2>} : (tensor<?x?x?x?xf32>, tensor<3x3x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// max_pool2d with a dynamic channel dim (upstream's max_pool_dyn form): N and C of the
// output are the input's tensor.dim 0 and 3
// CHECK-LABEL: func.func @max_pool_dyn_channels
// CHECK: %[[N:.*]] = tensor.dim %x, %{{.*}} : tensor<?x4x4x?xf32>
// CHECK: %[[C:.*]] = tensor.dim %x, %{{.*}} : tensor<?x4x4x?xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]], %[[C]]) : tensor<?x2x2x?xf32>
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[INIT]] : tensor<?x2x2x?xf32>)
// CHECK: linalg.pooling_nhwc_max {{.*}} ins(%x, %{{.*}} : tensor<?x4x4x?xf32>, tensor<2x2xf32>) outs(%[[FILL]] : tensor<?x2x2x?xf32>)
// MLIR-LABEL: func.func @max_pool_dyn_channels
// MLIR: linalg.pooling_nhwc_max {{.*}} -> tensor<?x2x2x?xf32>
func.func @max_pool_dyn_channels(%x: tensor<?x4x4x?xf32>) -> tensor<?x2x2x?xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x4x4x?xf32>) -> tensor<?x2x2x?xf32>
  return %0 : tensor<?x2x2x?xf32>
}

// depthwise_conv2d with a `?` channel dim: C = 2 and M = 3 are the weights', C * M = 6
// (spec 2.3.5); the result is cast back to the declared type
// CHECK-LABEL: func.func @depthwise_dyn_channels
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} ins(%x, %w : tensor<1x3x3x?xi8>, tensor<1x1x2x3xi8>) {{.*}} -> tensor<1x3x3x2x3xi32>
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x3x3x6xi32>
// CHECK: %[[ADD:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3x3x6xi32>)
// CHECK: %[[R:.*]] = tensor.cast %[[ADD]] : tensor<1x3x3x6xi32> to tensor<1x3x3x?xi32>
// CHECK: func.return %[[R]]
// MLIR-LABEL: func.func @depthwise_dyn_channels
// MLIR: tensor.cast {{.*}} : tensor<1x3x3x6xi32> to tensor<1x3x3x?xi32>
func.func @depthwise_dyn_channels(%x: tensor<1x3x3x?xi8>, %w: tensor<1x1x2x3xi8>, %b: tensor<6xi32>) -> tensor<1x3x3x?xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x?xi8>, tensor<1x1x2x3xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x?xi32>
  return %0 : tensor<1x3x3x?xi32>
}

// conv3d with dynamic D, H, W: each is (I - 1 - (2 - 1) * 1) / 1 + 1 on the input's
// tensor.dim 1, 2, 3 (spec 2.3.4's output-size rule)
// CHECK-LABEL: func.func @conv3d_dyn_d_h_w
// CHECK: %[[ID:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x?x2xf32>
// CHECK: %[[D1:.*]] = arith.subi %[[ID]], %{{.*}} : index
// CHECK: %[[D2:.*]] = arith.subi %[[D1]], %{{.*}} : index
// CHECK: %[[OD:.*]] = arith.addi %[[D2]], %{{.*}} : index
// CHECK: %[[IH:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x?x2xf32>
// CHECK: %[[H1:.*]] = arith.subi %[[IH]], %{{.*}} : index
// CHECK: %[[H2:.*]] = arith.subi %[[H1]], %{{.*}} : index
// CHECK: %[[OH:.*]] = arith.addi %[[H2]], %{{.*}} : index
// CHECK: %[[IW:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x?x2xf32>
// CHECK: %[[W1:.*]] = arith.subi %[[IW]], %{{.*}} : index
// CHECK: %[[W2:.*]] = arith.subi %[[W1]], %{{.*}} : index
// CHECK: %[[OW:.*]] = arith.addi %[[W2]], %{{.*}} : index
// CHECK: %[[INIT:.*]] = tensor.empty(%[[OD]], %[[OH]], %[[OW]]) : tensor<1x?x?x?x3xf32>
// CHECK: linalg.conv_3d_ndhwc_dhwcf {{.*}} ins(%x, %{{.*}} : tensor<1x?x?x?x2xf32>, tensor<2x2x2x2x3xf32>) {{.*}} -> tensor<1x?x?x?x3xf32>
// MLIR-LABEL: func.func @conv3d_dyn_d_h_w
// MLIR: linalg.conv_3d_ndhwc_dhwcf {{.*}} -> tensor<1x?x?x?x3xf32>
func.func @conv3d_dyn_d_h_w(%x: tensor<1x?x?x?x2xf32>, %w: tensor<3x2x2x2x2xf32>, %b: tensor<3xf32>) -> tensor<1x?x?x?x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x?x?x?x2xf32>, tensor<3x2x2x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x?x3xf32>
  return %0 : tensor<1x?x?x?x3xf32>
}

// transpose_conv2d with dynamic H, W: OH = (IH - 1) * 2 + 0 + 1 + 3, OW = (IW - 1) * 1 + 3
// (spec 2.3.10); the taps' bounds are the input's run-time H and H - 1 (clamp), read in the body
// CHECK-LABEL: func.func @transpose_conv2d_dyn_h_w
// CHECK: %[[IH:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x1xf32>
// CHECK: %[[IH1:.*]] = arith.subi %[[IH]], %{{.*}} : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[T:.*]] = arith.muli %[[IH1]], %[[C2]] : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[T1:.*]] = arith.addi %[[T]], %[[C1]] : index
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[OH:.*]] = arith.addi %[[T1]], %[[C3]] : index
// CHECK: %[[IW:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x1xf32>
// CHECK: %[[IW1:.*]] = arith.subi %[[IW]], %{{.*}} : index
// CHECK: %[[K3:.*]] = arith.constant 3 : index
// CHECK: %[[OW:.*]] = arith.addi %[[IW1]], %[[K3]] : index
// CHECK: tensor.empty(%[[OH]], %[[OW]]) : tensor<1x?x?x2xf32>
// CHECK: %[[H:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x1xf32>
// CHECK: %[[HLAST:.*]] = arith.subi %[[H]], %{{.*}} : index
// CHECK: linalg.generic
// CHECK: arith.cmpi slt, %{{.*}}, %[[H]] : index
// CHECK: arith.minsi %{{.*}}, %[[HLAST]] : index
// CHECK: tensor.extract %x[{{.*}}] : tensor<1x?x?x1xf32>
// MLIR-LABEL: func.func @transpose_conv2d_dyn_h_w
// MLIR: tensor.empty(%{{.*}}, %{{.*}}) : tensor<1x?x?x2xf32>
func.func @transpose_conv2d_dyn_h_w(%x: tensor<1x?x?x1xf32>, %w: tensor<2x3x3x1xf32>, %b: tensor<2xf32>) -> tensor<1x?x?x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 1, 0, 0>, stride = array<i64: 2, 1>} : (tensor<1x?x?x1xf32>, tensor<2x3x3x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// resize with dynamic H, W, C: OH = ((IH - 1) * 4 - (-1) + 1) / 2 + 1, OW = ((IW - 1) * 3 - 0
// + 0) / 1 + 1 (spec 2.12.1), C the input's; the reads clamp at the run-time IH - 1, IW - 1
// CHECK-LABEL: func.func @resize_dyn_h_w
// CHECK: %[[HL:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[HL64:.*]] = arith.index_cast %[[HL]] : index to i64
// CHECK: %[[WL64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[IH:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x?xf32>
// CHECK: %[[IH1:.*]] = arith.subi %[[IH]], %{{.*}} : index
// CHECK: %[[SN:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[IH1]], %[[SN]] : index
// CHECK-NEXT: %[[OFF:.*]] = arith.constant -1 : index
// CHECK-NEXT: %[[T1:.*]] = arith.subi %[[T]], %[[OFF]] : index
// CHECK-NEXT: %[[BORDER:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[T2:.*]] = arith.addi %[[T1]], %[[BORDER]] : index
// CHECK-NEXT: %[[SD:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[T2]], %[[SD]] : index
// CHECK: %[[OH:.*]] = arith.addi %[[Q]], %{{.*}} : index
// CHECK: %[[IW:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x?xf32>
// CHECK: %[[W1:.*]] = arith.subi %[[IW]], %{{.*}} : index
// CHECK: %[[SX:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[W2:.*]] = arith.muli %[[W1]], %[[SX]] : index
// CHECK: %[[OW:.*]] = arith.addi %[[W2]], %{{.*}} : index
// CHECK: %[[C:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x?x?xf32>
// CHECK: tensor.empty(%[[OH]], %[[OW]], %[[C]]) : tensor<1x?x?x?xf32>
// CHECK: linalg.generic
// CHECK: arith.minsi %{{.*}}, %[[HL64]] : i64
// MLIR-LABEL: func.func @resize_dyn_h_w
// MLIR: tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<1x?x?x?xf32>
func.func @resize_dyn_h_w(%x: tensor<1x?x?x?xf32>) -> tensor<1x?x?x?xf32> {
  %s = tosa.const_shape {values = dense<[4, 2, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.resize %x, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x?x?x?xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x?x?x?xf32>
  return %0 : tensor<1x?x?x?xf32>
}

// gather with dynamic K and C: C is values' tensor.dim 2; the index is clamped to the
// run-time K - 1 (values' tensor.dim 1)
// CHECK-LABEL: func.func @gather_dyn_k_c
// CHECK: %[[K:.*]] = tensor.dim %v, %{{.*}} : tensor<2x?x?xf32>
// CHECK: %[[KL:.*]] = arith.subi %[[K]], %{{.*}} : index
// CHECK: %[[C:.*]] = tensor.dim %v, %{{.*}} : tensor<2x?x?xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[C]]) : tensor<2x4x?xf32>
// CHECK: linalg.generic {{.*}} ins(%i : tensor<2x4xi32>) outs(%[[INIT]] : tensor<2x4x?xf32>)
// CHECK: %[[IDX:.*]] = arith.minsi %{{.*}}, %[[KL]] : index
// CHECK: tensor.extract %v[%{{.*}}, %[[IDX]], %{{.*}}] : tensor<2x?x?xf32>
// MLIR-LABEL: func.func @gather_dyn_k_c
// MLIR: tensor.empty(%{{.*}}) : tensor<2x4x?xf32>
func.func @gather_dyn_k_c(%v: tensor<2x?x?xf32>, %i: tensor<2x4xi32>) -> tensor<2x4x?xf32> {
  %0 = tosa.gather %v, %i : (tensor<2x?x?xf32>, tensor<2x4xi32>) -> tensor<2x4x?xf32>
  return %0 : tensor<2x4x?xf32>
}

// per-channel rescale with a dynamic channel dim: the parameters are read at the channel
// index (their static size is the run-time C the verifier requires)
// CHECK-LABEL: func.func @rescale_per_channel_dyn_channel
// CHECK: %[[N:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?xi8>
// CHECK: %[[C:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?xi8>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]], %[[C]]) : tensor<?x?xi8>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%x, %{{.*}}, %{{.*}} : tensor<?x?xi8>, tensor<2xi16>, tensor<2xi8>) outs(%[[INIT]] : tensor<?x?xi8>)
// MLIR-LABEL: func.func @rescale_per_channel_dyn_channel
// MLIR: linalg.generic
func.func @rescale_per_channel_dyn_channel(%x: tensor<?x?xi8>) -> tensor<?x?xi8> {
  %m = "tosa.const"() <{values = dense<[19689, 16384]> : tensor<2xi16>}> : () -> tensor<2xi16>
  %s = "tosa.const"() <{values = dense<15> : tensor<2xi8>}> : () -> tensor<2xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.rescale %x, %m, %s, %zp, %zp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<?x?xi8>, tensor<2xi16>, tensor<2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x?xi8>
  return %0 : tensor<?x?xi8>
}

// conv2d with dynamic weights and bias: OH = (IH - 1 - (KH - 1) * 2) / 1 + 1 with KH the
// weights' tensor.dim 1, OW = (5 - 1 - (3 - 1)) + 1 = 3, OC the weights' tensor.dim 0; the
// bias is OC or 1 wide (BC), read at minui(oc, BC - 1)
// CHECK-LABEL: func.func @conv2d_dyn_weights_bias
// CHECK: %[[KH:.*]] = tensor.dim %w, %{{.*}} : tensor<?x?x3x2xf32>
// CHECK: %[[IH:.*]] = tensor.dim %x, %{{.*}} : tensor<1x?x5x2xf32>
// CHECK: %[[H1:.*]] = arith.subi %[[IH]], %{{.*}} : index
// CHECK: %[[K1:.*]] = arith.subi %[[KH]], %{{.*}} : index
// CHECK: %[[D2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[KD:.*]] = arith.muli %[[K1]], %[[D2]] : index
// CHECK-NEXT: %[[H2:.*]] = arith.subi %[[H1]], %[[KD]] : index
// CHECK: %[[OH:.*]] = arith.addi %[[H2]], %{{.*}} : index
// CHECK: %[[OW:.*]] = arith.constant 3 : index
// CHECK: %[[OC:.*]] = tensor.dim %w, %{{.*}} : tensor<?x?x3x2xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[OH]], %[[OW]], %[[OC]]) : tensor<1x?x?x?xf32>
// CHECK: %[[BC:.*]] = tensor.dim %b, %{{.*}} : tensor<?xf32>
// CHECK: %[[BL:.*]] = arith.subi %[[BC]], %{{.*}} : index
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<1x?x?x?xf32>)
// CHECK: %[[I:.*]] = linalg.index 3 : index
// CHECK-NEXT: %[[J:.*]] = arith.minui %[[I]], %[[BL]] : index
// CHECK-NEXT: tensor.extract %b[%[[J]]] : tensor<?xf32>
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%x, %w : tensor<1x?x5x2xf32>, tensor<?x?x3x2xf32>) outs(%[[BIAS]] : tensor<1x?x?x?xf32>) -> tensor<1x?x?x?xf32>
// MLIR-LABEL: func.func @conv2d_dyn_weights_bias
// MLIR: linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x?x?x?xf32>
func.func @conv2d_dyn_weights_bias(%x: tensor<1x?x5x2xf32>, %w: tensor<?x?x3x2xf32>, %b: tensor<?xf32>) -> tensor<1x?x?x?xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x?x5x2xf32>, tensor<?x?x3x2xf32>, tensor<?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x?xf32>
  return %0 : tensor<1x?x?x?xf32>
}

// identity forwards its operand; a result type with more `?` dims is a tensor.cast of it
// CHECK-LABEL: func.func @identity_dyn
// CHECK-NEXT: %[[C:.*]] = tensor.cast %x : tensor<?x3xf32> to tensor<?x?xf32>
// CHECK-NEXT: func.return %x, %[[C]] : tensor<?x3xf32>, tensor<?x?xf32>
// MLIR-LABEL: func.func @identity_dyn
// MLIR: tensor.cast
func.func @identity_dyn(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x?xf32>) {
  %0 = tosa.identity %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = tosa.identity %x : (tensor<?x3xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x3xf32>, tensor<?x?xf32>
}
