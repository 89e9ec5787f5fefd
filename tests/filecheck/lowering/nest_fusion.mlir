// convert-linalg-to-affine-loops{register-tiling=true fuse-init-and-epilogue=true} (tosa-to-loops
// sets it unless mark-parallel; tosa_xdsl/lowering/to_loops/nest_fusion.py): in a reduction's register-tiled nest
//   U step TU, V step TV { init block; R... { reduction block }; epilogue block }
// the init of its output (linalg.fill / a bias broadcast just before it) runs on each TU x TV
// block before the reduction loops and its elementwise consumer (through a reshape of the
// output: G's dims as affine functions of the output's) right after them; both ops are erased.
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true fuse-init-and-epilogue=true}" | filecheck %s

// CHECK-LABEL: func.func @matmul_bias_clamp
// CHECK:         %[[Y:.*]] = memref.alloc() : memref<1x2x3x16xf32>
// CHECK-NEXT:    %[[O:.*]] = memref.alloca() : memref<1x6x16xf32>
// CHECK-NEXT:    affine.for %[[B:.*]] = 0 to 1 {
// CHECK-NEXT:      affine.for %[[M:.*]] = 0 to 6 step 6 {
// CHECK-NEXT:        affine.for %[[N:.*]] = 0 to 16 step 16 {
//                      the init block: O[b, m .. m+5, n .. n+15] = 0
// CHECK-NEXT:          affine.for %[[MI:.*]] = affine_map<(d0) -> (d0)>(%[[M]]) to affine_map<(d0) -> ((d0 + 6))>(%[[M]]) {
// CHECK-NEXT:            affine.for %[[NI:.*]] = affine_map<(d0) -> (d0)>(%[[N]]) to affine_map<(d0) -> ((d0 + 16))>(%[[N]]) {
// CHECK-NEXT:              affine.store %{{.*}}, %[[O]][0, %[[MI]] + %[[M]] * -1, %[[NI]] + %[[N]] * -1] : memref<1x6x16xf32>
// CHECK-NEXT:            }
// CHECK-NEXT:          }
//                      the reduction
// CHECK-NEXT:          affine.for %[[K:.*]] = 0 to 5 {
// CHECK:                 arith.mulf
// CHECK-NEXT:            arith.addf
// CHECK:                 }
// CHECK-NEXT:          }
//                      the epilogue: Y[0, m floordiv 3, m mod 3, n] = clamp(O[b, m, n] + bias[n])
// CHECK-NEXT:          affine.for %[[ME:.*]] = affine_map<(d0) -> (d0)>(%[[M]]) to affine_map<(d0) -> ((d0 + 6))>(%[[M]]) {
// CHECK-NEXT:            affine.for %[[NE:.*]] = affine_map<(d0) -> (d0)>(%[[N]]) to affine_map<(d0) -> ((d0 + 16))>(%[[N]]) {
// CHECK-NEXT:              %[[V:.*]] = affine.load %[[O]][0, %[[ME]] + %[[M]] * -1, %[[NE]] + %[[N]] * -1] : memref<1x6x16xf32>
// CHECK-NEXT:              %[[BIAS:.*]] = affine.load %{{.*}}[%[[NE]]] : memref<16xf32>
// CHECK-NEXT:              arith.addf %[[V]], %[[BIAS]] : f32
// CHECK:                   arith.minimumf
// CHECK-NEXT:              affine.store %{{.*}}, %[[Y]][0, %[[ME]] floordiv 3, %[[ME]] mod 3, %[[NE]]] : memref<1x2x3x16xf32>
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return
func.func @matmul_bias_clamp(%a: memref<1x6x5xf32>, %w: memref<1x5x16xf32>, %bias: memref<16xf32>) -> memref<1x2x3x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %o = memref.alloc() : memref<1x6x16xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<1x6x16xf32>)
  linalg.batch_matmul ins(%a, %w : memref<1x6x5xf32>, memref<1x5x16xf32>) outs(%o : memref<1x6x16xf32>)
  %v = memref.expand_shape %o [[0], [1, 2], [3]] output_shape [1, 2, 3, 16] : memref<1x6x16xf32> into memref<1x2x3x16xf32>
  %y = memref.alloc() : memref<1x2x3x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v, %bias : memref<1x2x3x16xf32>, memref<16xf32>) outs(%y : memref<1x2x3x16xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %s = arith.addf %x, %b : f32
    %lo = arith.constant 0.000000e+00 : f32
    %c = arith.maximumf %s, %lo : f32
    %hi = arith.constant 6.000000e+00 : f32
    %d = arith.minimumf %c, %hi : f32
    linalg.yield %d : f32
  }
  memref.dealloc %o : memref<1x6x16xf32>
  func.return %y : memref<1x2x3x16xf32>
}

// A consumer that writes a buffer the reduction reads is not fused (the nest would read
// elements already overwritten): the generic keeps its own nest after the reduction's.
// CHECK-LABEL: func.func @consumer_overwrites_an_input
// CHECK:         affine.for %{{.*}} = 0 to 16 step 16 {
// CHECK:           affine.for %{{.*}} = 0 to 5 {
// CHECK:         memref.subview
// CHECK-NEXT:    affine.for
// CHECK:         affine.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<1x5x16xf32>
// CHECK-NOT:     linalg.
func.func @consumer_overwrites_an_input(%a: memref<1x6x5xf32>, %w: memref<1x5x16xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %o = memref.alloc() : memref<1x6x16xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<1x6x16xf32>)
  linalg.batch_matmul ins(%a, %w : memref<1x6x5xf32>, memref<1x5x16xf32>) outs(%o : memref<1x6x16xf32>)
  %v = memref.subview %o[0, 0, 0] [1, 5, 16] [1, 1, 1] : memref<1x6x16xf32> to memref<1x5x16xf32, strided<[96, 16, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : memref<1x5x16xf32, strided<[96, 16, 1]>>) outs(%w : memref<1x5x16xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %o : memref<1x6x16xf32>
  func.return
}

// Inside a loop's region (a WHILE_LOOP body) the nest is fused but keeps the output buffer: a
// scratch alloca there would grow the stack on every iteration.
// CHECK-LABEL: func.func @fused_in_a_loop_body
// CHECK-NOT:     memref.alloca
// CHECK:         scf.for
// CHECK-NOT:     memref.alloca
// CHECK-NOT:     linalg.
// CHECK:         func.return
func.func @fused_in_a_loop_body(%a: memref<1x6x5xf32>, %w: memref<1x5x16xf32>, %y: memref<1x6x16xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %o = memref.alloc() : memref<1x6x16xf32>
    linalg.fill ins(%zero : f32) outs(%o : memref<1x6x16xf32>)
    linalg.batch_matmul ins(%a, %w : memref<1x6x5xf32>, memref<1x5x16xf32>) outs(%o : memref<1x6x16xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : memref<1x6x16xf32>) outs(%y : memref<1x6x16xf32>) {
    ^bb0(%x: f32, %out: f32):
      %c = arith.maximumf %x, %zero : f32
      linalg.yield %c : f32
    }
    memref.dealloc %o : memref<1x6x16xf32>
  }
  func.return
}
