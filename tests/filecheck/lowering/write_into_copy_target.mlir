// linalg-write-into-copy-target (tosa_xdsl/lowering/linalg_transforms/copy_elision.py; in
// tosa-to-loops after one-shot-bufferize): a generic that fully writes a fresh buffer %b which is
// then only copied into a subview %s of a padded buffer %p (filled with the pad value) writes %s
// directly; %p's alloc, fill (and the pad constant) and the subview move before the generic; the
// copy, %b and its dealloc disappear.
// RUN: tosa-opt %s -p linalg-write-into-copy-target | filecheck %s

// CHECK-LABEL: func.func @pad_of_relu
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() : memref<1x6x6x8xf32>
// CHECK-NEXT:    linalg.fill ins(%[[Z]] : f32) outs(%[[P]] : memref<1x6x6x8xf32>)
// CHECK-NEXT:    %[[S:.*]] = memref.subview %[[P]][0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1]
// CHECK-NEXT:    linalg.generic {{.*}} ins(%{{.*}} : memref<1x4x4x8xf32>) outs(%[[S]] : memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>)
// CHECK-NOT:     memref.copy
// CHECK:         func.return %[[P]]
func.func @pad_of_relu(%x: memref<1x4x4x8xf32>) -> memref<1x6x6x8xf32> {
  %b = memref.alloc() : memref<1x4x4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x4x4x8xf32>) outs(%b : memref<1x4x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.000000e+00 : f32
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %z = arith.constant 0.000000e+00 : f32
  %p = memref.alloc() : memref<1x6x6x8xf32>
  linalg.fill ins(%z : f32) outs(%p : memref<1x6x6x8xf32>)
  %s = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  "memref.copy"(%b, %s) : (memref<1x4x4x8xf32>, memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>) -> ()
  memref.dealloc %b : memref<1x4x4x8xf32>
  func.return %p : memref<1x6x6x8xf32>
}

// %b is read by something else too (a residual): the copy stays.
// CHECK-LABEL: func.func @buffer_also_read
// CHECK:         memref.copy
func.func @buffer_also_read(%x: memref<1x4x4x8xf32>) -> (memref<1x4x4x8xf32>, memref<1x6x6x8xf32>) {
  %b = memref.alloc() : memref<1x4x4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x4x4x8xf32>) outs(%b : memref<1x4x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %z = arith.constant 0.000000e+00 : f32
  %p = memref.alloc() : memref<1x6x6x8xf32>
  linalg.fill ins(%z : f32) outs(%p : memref<1x6x6x8xf32>)
  %s = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  "memref.copy"(%b, %s) : (memref<1x4x4x8xf32>, memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>) -> ()
  func.return %b, %p : memref<1x4x4x8xf32>, memref<1x6x6x8xf32>
}

// The generic reads its output (an accumulation, not a full overwrite): the copy stays.
// CHECK-LABEL: func.func @generic_reads_its_output
// CHECK:         memref.copy
func.func @generic_reads_its_output(%x: memref<1x4x4x8xf32>) -> memref<1x6x6x8xf32> {
  %b = memref.alloc() : memref<1x4x4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x4x4x8xf32>) outs(%b : memref<1x4x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  }
  %z = arith.constant 0.000000e+00 : f32
  %p = memref.alloc() : memref<1x6x6x8xf32>
  linalg.fill ins(%z : f32) outs(%p : memref<1x6x6x8xf32>)
  %s = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  "memref.copy"(%b, %s) : (memref<1x4x4x8xf32>, memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>) -> ()
  memref.dealloc %b : memref<1x4x4x8xf32>
  func.return %p : memref<1x6x6x8xf32>
}
