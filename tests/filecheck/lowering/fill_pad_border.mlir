// linalg-fill-pad-border (tosa_xdsl/lowering/linalg_transforms/fill_border.py; not in the default
// pipelines; meant after linalg-write-into-copy-target): the fill of a padded buffer %p whose interior subview is
// then written whole (a memref.copy into it, or an elementwise generic writing it without
// reading it) becomes one loop nest that stores the pad value into the border only.
// RUN: tosa-opt %s -p linalg-fill-pad-border | filecheck %s

// A spatial pad: the interior is 4 runs of 4x8 = 32 elements, 48 apart, the first at 1*48 + 1*8 = 56
// in the 6x48 rows; gap g (0..4) is [g*48 + 56 - 48 + 32, g*48 + 56), from 0 for the first, to 288 for
// the last: [0, 56), [88, 104), [136, 152), [184, 200), [232, 288).
// CHECK-LABEL: func.func @spatial_pad
// CHECK-DAG:     %[[C:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[P:.*]] = memref.alloc() : memref<1x6x6x8xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C48:.*]] = arith.constant 48 : index
// CHECK-DAG:     %[[C56:.*]] = arith.constant 56 : index
// CHECK-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C288:.*]] = arith.constant 288 : index
// CHECK:         %[[V:.*]] = memref.collapse_shape %[[P]] {{\[}}[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : memref<1x6x6x8xf32> into memref<1x288xf32>
// CHECK-NEXT:    scf.for %[[G:.*]] = %[[C0]] to %[[C5]] step %[[C1]] {
// CHECK-NEXT:      %[[AT:.*]] = arith.muli %[[G]], %[[C48]] : index
// CHECK-NEXT:      %[[HI:.*]] = arith.addi %[[AT]], %[[C56]] : index
// CHECK-NEXT:      %[[LO:.*]] = arith.addi %[[AT]], %[[C40]] : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %[[G]], %[[C0]] : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.cmpi eq, %[[G]], %[[C4]] : index
// CHECK-NEXT:      %[[L:.*]] = arith.select %[[FIRST]], %[[C0]], %[[LO]] : index
// CHECK-NEXT:      %[[H:.*]] = arith.select %[[LAST]], %[[C288]], %[[HI]] : index
// CHECK-NEXT:      scf.for %[[E:.*]] = %[[L]] to %[[H]] step %[[C1]] {
// CHECK-NEXT:        memref.store %[[C]], %[[V]][%[[C0]], %[[E]]] : memref<1x288xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.*]] = memref.subview %[[P]][0, 1, 1, 0] [1, 4, 4, 8]
// CHECK-NEXT:    "memref.copy"(%{{.*}}, %[[S]])
// CHECK-NOT:     linalg.fill
func.func @spatial_pad(%x: memref<1x4x4x8xf32>) -> memref<1x6x6x8xf32> {
  %c = arith.constant 0.000000e+00 : f32
  %p = memref.alloc() : memref<1x6x6x8xf32>
  linalg.fill ins(%c : f32) outs(%p : memref<1x6x6x8xf32>)
  %s = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  "memref.copy"(%x, %s) : (memref<1x4x4x8xf32>, memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>) -> ()
  func.return %p : memref<1x6x6x8xf32>
}

// A box partial in two outer dims (not evenly spaced runs): a nest over the rows (dims 0, 1), each
// row in the box filled on its two edges of dim 2, a row outside it whole.
// CHECK-LABEL: func.func @two_outer_dims
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        arith.cmpi sge, %[[I]]
// CHECK-NEXT:        arith.cmpi slt, %[[I]]
// CHECK-NEXT:        arith.andi
// CHECK-NEXT:        arith.cmpi sge, %[[J]]
// CHECK-NEXT:        arith.cmpi slt, %[[J]]
// CHECK-NEXT:        arith.andi
// CHECK-NEXT:        %[[IN:.*]] = arith.andi
// CHECK-NEXT:        scf.if %[[IN]] {
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]], %{{.*}}] : memref<4x5x6xi8>
// CHECK:               scf.for
// CHECK-NEXT:            memref.store
// CHECK:             } else {
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            memref.store
func.func @two_outer_dims(%x: memref<2x3x3xi8>) -> memref<4x5x6xi8> {
  %c = arith.constant -3 : i8
  %p = memref.alloc() : memref<4x5x6xi8>
  linalg.fill ins(%c : i8) outs(%p : memref<4x5x6xi8>)
  %s = memref.subview %p[1, 1, 2] [2, 3, 3] [1, 1, 1] : memref<4x5x6xi8> to memref<2x3x3xi8, strided<[30, 6, 1], offset: 38>>
  "memref.copy"(%x, %s) : (memref<2x3x3xi8>, memref<2x3x3xi8, strided<[30, 6, 1], offset: 38>>) -> ()
  func.return %p : memref<4x5x6xi8>
}

// A pad of the last dim only (channels) keeps its whole fill: its border is a few elements per
// pixel, a strided loop that costs more than the contiguous fill (fill_border.py).
// CHECK-LABEL: func.func @channel_pad_generic
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<1x2x3x28xf32>)
// CHECK-NEXT:    memref.subview
// CHECK-NEXT:    linalg.generic
func.func @channel_pad_generic(%x: memref<1x2x3x24xf32>) -> memref<1x2x3x28xf32> {
  %c = arith.constant 0.000000e+00 : f32
  %p = memref.alloc() : memref<1x2x3x28xf32>
  linalg.fill ins(%c : f32) outs(%p : memref<1x2x3x28xf32>)
  %s = memref.subview %p[0, 0, 0, 0] [1, 2, 3, 24] [1, 1, 1, 1] : memref<1x2x3x28xf32> to memref<1x2x3x24xf32, strided<[168, 84, 28, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x2x3x24xf32>) outs(%s : memref<1x2x3x24xf32, strided<[168, 84, 28, 1]>>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %in : f32
    linalg.yield %r : f32
  }
  func.return %p : memref<1x2x3x28xf32>
}

// Not when the interior is read before it is written, nor when the write reads the output.
// CHECK-LABEL: func.func @kept
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<6x6xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<6x6xf32>)
func.func @kept(%x: memref<4x4xf32>, %o: memref<4x4xf32>) {
  %c = arith.constant 1.500000e+00 : f32
  %a = memref.alloc() : memref<6x6xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<6x6xf32>)
  %s = memref.subview %a[1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  "memref.copy"(%s, %o) : (memref<4x4xf32, strided<[6, 1], offset: 7>>, memref<4x4xf32>) -> ()
  "memref.copy"(%x, %s) : (memref<4x4xf32>, memref<4x4xf32, strided<[6, 1], offset: 7>>) -> ()
  %b = memref.alloc() : memref<6x6xf32>
  linalg.fill ins(%c : f32) outs(%b : memref<6x6xf32>)
  %t = memref.subview %b[1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x4xf32>) outs(%t : memref<4x4xf32, strided<[6, 1], offset: 7>>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  }
  func.return
}
