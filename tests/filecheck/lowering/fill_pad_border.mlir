// linalg-fill-pad-border (tosa_xdsl/lowering/linalg_transforms/fill_border.py; not in the default
// pipelines; meant after linalg-write-into-copy-target): the fill of a padded buffer %p whose interior subview is
// then written whole (a memref.copy into it, or an elementwise generic writing it without
// reading it) becomes fills of the border pieces: before and after the interior along each
// dim, the interior's range on the dims before it, everything on the dims after it.
// RUN: tosa-opt %s -p linalg-fill-pad-border | filecheck %s

// CHECK-LABEL: func.func @spatial_pad
// CHECK-NEXT:    %[[C:.*]] = arith.constant
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() : memref<1x6x6x8xf32>
// CHECK-NEXT:    %[[T:.*]] = memref.subview %[[P]][0, 0, 0, 0] [1, 1, 6, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x1x6x8xf32, strided<[288, 48, 8, 1]>>
// CHECK-NEXT:    linalg.fill ins(%[[C]] : f32) outs(%[[T]] : memref<1x1x6x8xf32, strided<[288, 48, 8, 1]>>)
// CHECK-NEXT:    %[[B:.*]] = memref.subview %[[P]][0, 5, 0, 0] [1, 1, 6, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x1x6x8xf32, strided<[288, 48, 8, 1], offset: 240>>
// CHECK-NEXT:    linalg.fill ins(%[[C]] : f32) outs(%[[B]]
// CHECK-NEXT:    %[[L:.*]] = memref.subview %[[P]][0, 1, 0, 0] [1, 4, 1, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x1x8xf32, strided<[288, 48, 8, 1], offset: 48>>
// CHECK-NEXT:    linalg.fill ins(%[[C]] : f32) outs(%[[L]]
// CHECK-NEXT:    %[[R:.*]] = memref.subview %[[P]][0, 1, 5, 0] [1, 4, 1, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x1x8xf32, strided<[288, 48, 8, 1], offset: 88>>
// CHECK-NEXT:    linalg.fill ins(%[[C]] : f32) outs(%[[R]]
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

// A channel pad written by an elementwise generic: one piece, the last 4 channels of each pixel.
// CHECK-LABEL: func.func @channel_pad_generic
// CHECK:         %[[E:.*]] = memref.subview %{{.*}}[0, 0, 0, 24] [1, 2, 3, 4] [1, 1, 1, 1] : memref<1x2x3x28xf32> to memref<1x2x3x4xf32, strided<[168, 84, 28, 1], offset: 24>>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[E]]
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
