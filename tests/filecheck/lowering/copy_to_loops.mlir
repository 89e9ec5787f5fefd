// memref-copy-to-affine-loops (tosa_xdsl/lowering/to_loops/copy_to_loops.py; in tosa-to-llvm
// before outline-loop-nests): a strided static memref.copy becomes an affine nest whose
// innermost loop runs over the stretch contiguous in both layouts (collapse_shape views of the
// source and the destination); a contiguous copy (one memcpy) and a dynamic one stay.
// RUN: tosa-opt %s -p memref-copy-to-affine-loops | filecheck %s

// A spatial pad's interior: W and C are contiguous in both, so [1*4, 4*8] (the leading
// size-1 dim joins H's group).
// CHECK-LABEL: func.func @pad_interior
// CHECK-NEXT:    %[[S:.*]] = memref.subview
// CHECK-NEXT:    %[[A:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : memref<1x4x4x8xf32> into memref<4x32xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.collapse_shape %[[S]] {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>> into memref<4x32xf32, strided<[48, 1], offset: 56>>
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 32 {
// CHECK-NEXT:        %[[V:.*]] = affine.load %[[A]][%[[I]], %[[J]]] : memref<4x32xf32>
// CHECK-NEXT:        affine.store %[[V]], %[[B]][%[[I]], %[[J]]] : memref<4x32xf32, strided<[48, 1], offset: 56>>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     memref.copy
func.func @pad_interior(%b: memref<1x4x4x8xf32>, %p: memref<1x6x6x8xf32>) {
  %s = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  "memref.copy"(%b, %s) : (memref<1x4x4x8xf32>, memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>) -> ()
  func.return
}

// A channel pad: only C is contiguous in the destination: [1*64*64, 24] -> [4096, 24].
// CHECK-LABEL: func.func @channel_pad
// CHECK:         memref.collapse_shape %{{.*}} {{\[}}[0 : i64, 1 : i64, 2 : i64], [3 : i64]] : memref<1x64x64x24xf32> into memref<4096x24xf32>
// CHECK-NEXT:    memref.collapse_shape %{{.*}} {{\[}}[0 : i64, 1 : i64, 2 : i64], [3 : i64]] : memref<1x64x64x24xf32, strided<[114688, 1792, 28, 1]>> into memref<4096x24xf32, strided<[28, 1]>>
// CHECK-NEXT:    affine.for %{{.*}} = 0 to 4096 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 24 {
// CHECK-NOT:     memref.copy
func.func @channel_pad(%b: memref<1x64x64x24xf32>, %p: memref<1x64x64x28xf32>) {
  %s = memref.subview %p[0, 0, 0, 0] [1, 64, 64, 24] [1, 1, 1, 1] : memref<1x64x64x28xf32> to memref<1x64x64x24xf32, strided<[114688, 1792, 28, 1]>>
  "memref.copy"(%b, %s) : (memref<1x64x64x24xf32>, memref<1x64x64x24xf32, strided<[114688, 1792, 28, 1]>>) -> ()
  func.return
}

// Contiguous on both sides (one llvm.memcpy later) and dynamic: unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK:         "memref.copy"(%{{.*}}, %{{.*}}) : (memref<2x3xf32>, memref<2x3xf32, strided<[3, 1], offset: 6>>) -> ()
// CHECK-NEXT:    "memref.copy"(%{{.*}}, %{{.*}}) : (memref<?x3xf32>, memref<?x3xf32>) -> ()
// CHECK-NOT:     affine.for
func.func @unchanged(%a: memref<2x3xf32>, %c: memref<4x3xf32>, %d: memref<?x3xf32>, %e: memref<?x3xf32>) {
  %s = memref.subview %c[2, 0] [2, 3] [1, 1] : memref<4x3xf32> to memref<2x3xf32, strided<[3, 1], offset: 6>>
  "memref.copy"(%a, %s) : (memref<2x3xf32>, memref<2x3xf32, strided<[3, 1], offset: 6>>) -> ()
  "memref.copy"(%d, %e) : (memref<?x3xf32>, memref<?x3xf32>) -> ()
  func.return
}
