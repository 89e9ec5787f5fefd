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

// %b is a function result too (not only read by ops after the copy): the copy stays.
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

// %b is also read after the copy (a residual's copy into a channel pad, an elementwise op):
// those readers read the interior %s instead, and %p lives until %b's deallocation did.
// CHECK-LABEL: func.func @read_after_the_copy
// CHECK:         %[[P:.*]] = memref.alloc() : memref<1x6x6x8xf32>
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    %[[S:.*]] = memref.subview %[[P]][0, 1, 1, 0]
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[S]] : memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>)
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} ins(%[[P]], %{{.*}} : memref<1x6x6x8xf32>
// CHECK-NEXT:    memref.subview %{{.*}}[0, 0, 0, 0] [1, 4, 4, 8]
// CHECK-NEXT:    "memref.copy"(%[[S]], %{{.*}}) : (memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>, memref<1x4x4x8xf32, strided<[384, 96, 12, 1]>>)
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[S]] : memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>)
// CHECK:         memref.dealloc %[[P]]
// CHECK-NEXT:    func.return
func.func @read_after_the_copy(%x: memref<1x4x4x8xf32>, %w: memref<3x3x8x1xf32>, %d: memref<1x4x4x8x1xf32>, %q: memref<1x4x4x12xf32>, %o: memref<1x4x4x8xf32>) {
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
  linalg.depthwise_conv_2d_nhwc_hwcm {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%p, %w : memref<1x6x6x8xf32>, memref<3x3x8x1xf32>) outs(%d : memref<1x4x4x8x1xf32>)
  memref.dealloc %p : memref<1x6x6x8xf32>
  %qs = memref.subview %q[0, 0, 0, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x4x4x12xf32> to memref<1x4x4x8xf32, strided<[384, 96, 12, 1]>>
  "memref.copy"(%b, %qs) : (memref<1x4x4x8xf32>, memref<1x4x4x8xf32, strided<[384, 96, 12, 1]>>) -> ()
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : memref<1x4x4x8xf32>) outs(%o : memref<1x4x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  memref.dealloc %b : memref<1x4x4x8xf32>
  func.return
}

// With readers after the copy, %p must not be written after it (here an op accumulates into
// it): the copy stays.
// CHECK-LABEL: func.func @padded_written_after_the_copy
// CHECK:         memref.copy
func.func @padded_written_after_the_copy(%x: memref<1x4x4x8xf32>, %o: memref<1x4x4x8xf32>, %y: memref<1x6x6x8xf32>) {
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
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : memref<1x6x6x8xf32>) outs(%p : memref<1x6x6x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : memref<1x4x4x8xf32>) outs(%o : memref<1x4x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  memref.dealloc %b : memref<1x4x4x8xf32>
  memref.dealloc %p : memref<1x6x6x8xf32>
  func.return
}
