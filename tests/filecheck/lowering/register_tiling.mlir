// convert-linalg-to-affine-loops{register-tiling=true} (tosa-to-loops and tosa-to-llvm set it;
// tosa_xdsl/lowering/to_loops/register_tiling.py): a reduction's nest becomes
//   P..., U step TU, V step TV, R..., V in [v, v+TV) { body at u, u+1, ..., u+TU-1 }
// (V: the output's contiguous dim, TV <= 64 dividing it, split into two loops when it is no
// multiple of 8; U: the innermost other parallel dim, TU * TV <= 128, unrolled and jammed). Only parallel loops move: each output element keeps its
// summation order. Elementwise ops (no reduction) keep the plain nest.
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true}" | filecheck %s

// CHECK-LABEL: func.func @matmul
// CHECK:      affine.for %[[B:.*]] = 0 to 1 {
// CHECK-NEXT:   affine.for %[[M:.*]] = 0 to 12 step 3 {
// CHECK-NEXT:     affine.for %[[N:.*]] = 0 to 40 step 40 {
// CHECK-NEXT:       affine.for %[[K:.*]] = 0 to 7 {
// CHECK-NEXT:         affine.for %[[NI:.*]] = affine_map<(d0) -> (d0)>(%[[N]]) to affine_map<(d0) -> ((d0 + 40))>(%[[N]]) {
// CHECK-NEXT:           %[[M0:.*]] = affine.apply affine_map<(d0) -> (d0)> (%[[M]])
// CHECK-NEXT:           affine.load %{{.*}}[%[[B]], %[[M0]], %[[K]]]
// CHECK-NEXT:           affine.load %{{.*}}[%[[B]], %[[K]], %[[NI]]]
// CHECK-NEXT:           affine.load %{{.*}}[%[[B]], %[[M0]], %[[NI]]]
// CHECK-NEXT:           arith.mulf
// CHECK-NEXT:           arith.addf
// CHECK-NEXT:           affine.store %{{.*}}, %{{.*}}[%[[B]], %[[M0]], %[[NI]]]
// CHECK-NEXT:           %[[M1:.*]] = affine.apply affine_map<(d0) -> ((d0 + 1))> (%[[M]])
// CHECK:                affine.store %{{.*}}, %{{.*}}[%[[B]], %[[M1]], %[[NI]]]
// CHECK-NEXT:           %[[M2:.*]] = affine.apply affine_map<(d0) -> ((d0 + 2))> (%[[M]])
// CHECK:                affine.store %{{.*}}, %{{.*}}[%[[B]], %[[M2]], %[[NI]]]
// CHECK-NEXT:         }
func.func @matmul(%a: memref<1x12x7xf32>, %b: memref<1x7x40xf32>, %o: memref<1x12x40xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<1x12x7xf32>, memref<1x7x40xf32>) outs(%o : memref<1x12x40xf32>)
  func.return
}

// A V tile that is no multiple of 8 lanes (28): two sibling loops over [n, n+24) and
// [n+24, n+28), each with the jammed body (rows by 4: 4 x 28 <= 128).
// CHECK-LABEL: func.func @matmul_split
// CHECK:          affine.for %[[K:.*]] = 0 to 7 {
// CHECK-NEXT:       affine.for %[[NI:.*]] = affine_map<(d0) -> (d0)>(%[[N:.*]]) to affine_map<(d0) -> ((d0 + 24))>(%[[N]]) {
// CHECK-COUNT-4:      arith.addf
// CHECK:            }
// CHECK-NEXT:       affine.for %[[NJ:.*]] = affine_map<(d0) -> ((d0 + 24))>(%[[N]]) to affine_map<(d0) -> ((d0 + 28))>(%[[N]]) {
// CHECK-COUNT-4:      arith.addf
// CHECK:            }
// CHECK-NEXT:     }
func.func @matmul_split(%a: memref<1x12x7xf32>, %b: memref<1x7x28xf32>, %o: memref<1x12x28xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<1x12x7xf32>, memref<1x7x28xf32>) outs(%o : memref<1x12x28xf32>)
  func.return
}

// 49 rows: no row tile divides 49 next to a V tile of 64 (TU * TV <= 128 allows 2), so the
// V tile narrows to 16 and the rows are jammed by 7 (weights loaded once per 7 rows, not per row).
// CHECK-LABEL: func.func @matmul_49_rows
// CHECK:      affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT:   affine.for %[[M:.*]] = 0 to 49 step 7 {
// CHECK-NEXT:     affine.for %[[N:.*]] = 0 to 64 step 16 {
// CHECK-NEXT:       affine.for %[[K:.*]] = 0 to 9 {
// CHECK-NEXT:         affine.for %{{.*}} = affine_map<(d0) -> (d0)>(%[[N]]) to affine_map<(d0) -> ((d0 + 16))>(%[[N]]) {
// CHECK-COUNT-7:        arith.addf
// CHECK-NEXT:           affine.store
// CHECK-NEXT:         }
func.func @matmul_49_rows(%a: memref<1x49x9xf32>, %b: memref<1x9x64xf32>, %o: memref<1x49x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<1x49x9xf32>, memref<1x9x64xf32>) outs(%o : memref<1x49x64xf32>)
  func.return
}

// A contiguous output dim shorter than a vector (3 columns): unrolled into the reduction
// loop's body under a single-iteration step-3 loop (the outputs are invariant in the K loop).
// CHECK-LABEL: func.func @matmul_short_v
// CHECK:          affine.for %[[M:.*]] = 0 to 5 {
// CHECK-NEXT:       affine.for %[[N:.*]] = 0 to 3 step 3 {
// CHECK-NEXT:         affine.for %[[K:.*]] = 0 to 7 {
// CHECK-NEXT:           %[[N0:.*]] = affine.apply affine_map<(d0) -> (d0)> (%[[N]])
// CHECK:                affine.store %{{.*}}, %{{.*}}[%{{.*}}, %[[M]], %[[N0]]]
// CHECK-NEXT:           %[[N1:.*]] = affine.apply affine_map<(d0) -> ((d0 + 1))> (%[[N]])
// CHECK:                affine.store %{{.*}}, %{{.*}}[%{{.*}}, %[[M]], %[[N1]]]
// CHECK-NEXT:           %[[N2:.*]] = affine.apply affine_map<(d0) -> ((d0 + 2))> (%[[N]])
// CHECK:                affine.store %{{.*}}, %{{.*}}[%{{.*}}, %[[M]], %[[N2]]]
// CHECK-NEXT:         }
func.func @matmul_short_v(%a: memref<1x5x7xf32>, %b: memref<1x7x3xf32>, %o: memref<1x5x3xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<1x5x7xf32>, memref<1x7x3xf32>) outs(%o : memref<1x5x3xf32>)
  func.return
}

// No reduction: the plain nest.
// CHECK-LABEL: func.func @elementwise
// CHECK:      affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT:   affine.for %{{.*}} = 0 to 64 {
// CHECK-NOT:  step
func.func @elementwise(%a: memref<4x64xf32>, %o: memref<4x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x64xf32>) outs(%o : memref<4x64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  func.return
}
