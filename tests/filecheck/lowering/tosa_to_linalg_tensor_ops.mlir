// tosa-to-linalg, the data/reduction half: reductions, argmax, rescale, table, resize,
// gather, fft2d/rfft2d, reverse, tile, identity (lowering/linalg_{reduction,tensor,type_conversion,table,
// scatter_gather,image,data_layout,data_nodes}.py).
// RUN: tosa-opt %s -p tosa-to-linalg | filecheck %s
// RUN: tosa-opt %s -p tosa-to-linalg,tosa-to-arith --print-op-generic | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// MLIR-COUNT-12: func.func

// CHECK-LABEL: func.func @reduce_sum
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x4xf32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%[[F]] : tensor<2x4xf32>)
// CHECK: arith.addf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0 : i64, 1 : i64], [2 : i64]] output_shape [2, 1, 4] : tensor<2x4xf32> into tensor<2x1x4xf32>
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// CHECK-LABEL: func.func @reduce_max
// nan_mode IGNORE: the accumulator starts as NaN; a >= b keeps a, a NaN operand gives the other
// CHECK: arith.constant 0x7E00 : f16
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: %[[GE:.*]] = arith.cmpf oge, %[[ACC:.*]], %[[V:.*]] : f16
// CHECK: %[[S:.*]] = arith.select %[[GE]], %[[ACC]], %[[V]] : f16
// CHECK: %[[VN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f16
// CHECK: arith.select %[[VN]], %[[ACC]], %[[S]] : f16
// CHECK: tensor.expand_shape
func.func @reduce_max(%x: tensor<2x3xf16>) -> tensor<2x1xf16> {
  %0 = tosa.reduce_max %x {axis = 1 : i32, nan_mode = IGNORE} : (tensor<2x3xf16>) -> tensor<2x1xf16>
  return %0 : tensor<2x1xf16>
}

// CHECK-LABEL: func.func @reduce_all
// CHECK: arith.constant true
// CHECK: iterator_types = ["reduction"]
// CHECK: arith.andi
// rank 0 -> rank 1 goes through tensor.reshape (xDSL rejects an empty reassociation)
// CHECK: tensor.reshape %{{.*}}(%{{.*}}) : (tensor<i1>, tensor<1xindex>) -> tensor<1xi1>
func.func @reduce_all(%x: tensor<5xi1>) -> tensor<1xi1> {
  %0 = tosa.reduce_all %x {axis = 0 : i32} : (tensor<5xi1>) -> tensor<1xi1>
  return %0 : tensor<1xi1>
}

// CHECK-LABEL: func.func @argmax
// CHECK: %[[I0:.*]] = arith.constant 0 : i32
// CHECK: linalg.fill ins(%[[I0]] : i32)
// CHECK: %[[MIN:.*]] = arith.constant -128 : i8
// CHECK: linalg.fill ins(%[[MIN]] : i8)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK: ^{{.*}}(%[[V:.*]]: i8, %[[IDX:.*]]: i32, %[[MAX:.*]]: i8):
// CHECK: %[[GT:.*]] = arith.cmpi sgt, %[[V]], %[[MAX]] : i8
// CHECK: %[[L:.*]] = linalg.index 0 : index
// CHECK: %[[LI:.*]] = arith.index_cast %[[L]] : index to i32
// CHECK: %[[NI:.*]] = arith.select %[[GT]], %[[LI]], %[[IDX]] : i32
// CHECK: %[[NM:.*]] = arith.select %[[GT]], %[[V]], %[[MAX]] : i8
// CHECK: linalg.yield %[[NI]], %[[NM]] : i32, i8
func.func @argmax(%x: tensor<3x4xi8>) -> tensor<4xi32> {
  %0 = tosa.argmax %x {axis = 0 : i32} : (tensor<3x4xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @rescale
// constant multiplier/shift/zero points are folded into the body (DOUBLE_ROUND, shift 40 > 31)
// CHECK: linalg.generic
// CHECK: %[[X:.*]] = arith.extsi %{{.*}} : i8 to i64
// CHECK: %[[ZI:.*]] = arith.constant -3 : i64
// CHECK: %[[V:.*]] = arith.subi %[[X]], %[[ZI]] : i64
// CHECK: %[[M:.*]] = arith.constant 1073741824 : i64
// CHECK: %[[SH:.*]] = arith.constant 40 : i64
// CHECK: %[[R:.*]] = arith.constant 549755813888 : i64
// CHECK: %[[POS:.*]] = arith.constant 1073741824 : i64
// CHECK: %[[NEG:.*]] = arith.constant -1073741824 : i64
// CHECK: %[[ADJ:.*]] = arith.select %{{.*}}, %[[POS]], %[[NEG]] : i64
// CHECK: %[[RND:.*]] = arith.addi %[[R]], %[[ADJ]] : i64
// CHECK: %[[P:.*]] = arith.muli %{{.*}}, %[[M]] : i64
// CHECK: %[[S:.*]] = arith.addi %[[P]], %[[RND]] : i64
// CHECK: %[[Q:.*]] = arith.shrsi %[[S]], %[[SH]] : i64
// CHECK: %[[Q32:.*]] = arith.trunci %[[Q]] : i64 to i32
// CHECK: %[[ZO:.*]] = arith.constant 5 : i32
// CHECK: %[[O:.*]] = arith.addi %[[Q32]], %[[ZO]] : i32
// CHECK: %[[LO:.*]] = arith.constant -128 : i32
// CHECK: %[[HI:.*]] = arith.constant 127 : i32
// CHECK: %[[C1:.*]] = arith.maxsi %[[O]], %[[LO]] : i32
// CHECK: %[[C2:.*]] = arith.minsi %[[C1]], %[[HI]] : i32
// CHECK: arith.trunci %[[C2]] : i32 to i8
func.func @rescale(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zi = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %zo = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.rescale %x, %m, %s, %zi, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// CHECK-LABEL: func.func @table_i8
// CHECK: %[[X:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[B:.*]] = arith.constant 128 : i32
// CHECK: %[[K:.*]] = arith.addi %[[X]], %[[B]] : i32
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK: tensor.extract %t[%[[KI]]] : tensor<256xi8>
func.func @table_i8(%x: tensor<6xi8>, %t: tensor<256xi8>) -> tensor<6xi8> {
  %0 = tosa.table %x, %t : (tensor<6xi8>, tensor<256xi8>) -> tensor<6xi8>
  return %0 : tensor<6xi8>
}

// CHECK-LABEL: func.func @resize
// CHECK-NOT: tosa.const_shape
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// y = oy * scale_y_d + offset_y; iy = floor(y / scale_y_n); dy = y - iy * scale_y_n
// CHECK: %[[OY:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[YD:.*]] = arith.muli %[[OY]], %{{.*}} : i64
// CHECK: %[[Y:.*]] = arith.addi %[[YD]], %{{.*}} : i64
// CHECK: %[[IY:.*]] = arith.floordivsi %[[Y]], %{{.*}} : i64
// CHECK: %[[IYN:.*]] = arith.muli %[[IY]], %{{.*}} : i64
// CHECK: arith.subi %[[Y]], %[[IYN]] : i64
// CHECK: arith.maxsi %[[IY]], %{{.*}} : i64
// CHECK: arith.minsi
// CHECK-COUNT-4: tensor.extract %x
// CHECK: arith.extsi %{{.*}} : i8 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i32
func.func @resize(%x: tensor<1x2x3x1xi8>) -> tensor<1x3x5x1xi32> {
  %s = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x2x3x1xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x5x1xi32>
  return %0 : tensor<1x3x5x1xi32>
}

// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK: %[[KR:.*]] = arith.index_cast %{{.*}} : i32 to index
// (clamped to [0, K-1] = [0, 4]: an out-of-range index must not read outside the buffer)
// CHECK: %[[KL:.*]] = arith.maxsi %[[KR]], %{{.*}} : index
// CHECK: %[[LAST:.*]] = arith.constant 4 : index
// CHECK: %[[K:.*]] = arith.minsi %[[KL]], %[[LAST]] : index
// CHECK: %[[N:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = linalg.index 2 : index
// CHECK: tensor.extract %v[%[[N]], %[[K]], %[[C]]] : tensor<2x5x3xf32>
func.func @gather(%v: tensor<2x5x3xf32>, %i: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func @reverse
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, ((d1 * -1) + 3))>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
func.func @reverse(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = tosa.reverse %x {axis = 1 : i32} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @tile
// CHECK-NOT: tosa.const_shape
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((d0 mod 2), d1)>, affine_map<(d0, d1) -> (d0, d1)>]
func.func @tile(%x: tensor<2x3xi16>) -> tensor<4x3xi16> {
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %x, %m : (tensor<2x3xi16>, !tosa.shape<2>) -> tensor<4x3xi16>
  return %0 : tensor<4x3xi16>
}

// CHECK-LABEL: func.func @rfft2d
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x4x5xf32>, tensor<1x4x5xf32>)
// CHECK: arith.remui %{{.*}}, %{{.*}} : index
// CHECK: math.cos %{{.*}} : f64
// CHECK: math.sin %{{.*}} : f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.negf
// CHECK: linalg.yield
func.func @rfft2d(%x: tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>) {
  %r, %i = tosa.rfft2d %x : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
  return %r, %i : tensor<1x4x5xf32>, tensor<1x4x5xf32>
}

// CHECK-LABEL: func.func @identity
// CHECK-NEXT: func.return %x : tensor<3xi32>
func.func @identity(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = tosa.identity %x : (tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
