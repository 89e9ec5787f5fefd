// linalg on memrefs -> loop nests: affine.for + affine.load/store, or scf.for + memref.load/store
// (affine.apply for compound subscripts); loops in the op's dim order, except that the output's
// innermost dims move inside trailing reduction loops (conv: f innermost, vectorisable; every
// output element keeps its summation order); body inlined, linalg.index -> the induction variable.
// RUN: tosa-opt %s -p convert-linalg-to-affine-loops | filecheck %s --check-prefix=AFF
// RUN: tosa-opt %s -p convert-linalg-to-loops | filecheck %s --check-prefix=SCF
// RUN: tosa-opt %s -p convert-linalg-to-affine-loops,lower-affine | filecheck %s --check-prefix=LOW
// RUN: tosa-opt %s -p convert-linalg-to-loops --print-op-generic | %mlir-opt-22 --lower-affine --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | filecheck %s --check-prefix=LLVM
// REQUIRES: mlir-opt-22

// AFF-LABEL: func.func @conv
// AFF-NEXT: affine.for %[[N:.*]] = 0 to 1 {
// AFF-NEXT: affine.for %[[OH:.*]] = 0 to 2 {
// AFF-NEXT: affine.for %[[OW:.*]] = 0 to 2 {
// AFF-NEXT: affine.for %[[KH:.*]] = 0 to 3 {
// AFF-NEXT: affine.for %[[KW:.*]] = 0 to 3 {
// AFF-NEXT: affine.for %[[C:.*]] = 0 to 2 {
// AFF-NEXT: affine.for %[[F:.*]] = 0 to 3 {
// AFF-NEXT: %[[X:.*]] = affine.load %x[%[[N]], %[[OH]] * 2 + %[[KH]], %[[OW]] * 2 + %[[KW]], %[[C]]] : memref<1x5x5x2xf32>
// AFF-NEXT: %[[W:.*]] = affine.load %w[%[[F]], %[[KH]], %[[KW]], %[[C]]] : memref<3x3x3x2xf32>
// AFF-NEXT: %[[O:.*]] = affine.load %o[%[[N]], %[[OH]], %[[OW]], %[[F]]] : memref<1x2x2x3xf32>
// AFF-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[W]] : f32
// AFF-NEXT: %[[S:.*]] = arith.addf %[[M]], %[[O]] : f32
// AFF-NEXT: affine.store %[[S]], %o[%[[N]], %[[OH]], %[[OW]], %[[F]]] : memref<1x2x2x3xf32>
// AFF-NOT: linalg.

// SCF-LABEL: func.func @conv
// SCF: %[[C0:.*]] = arith.constant 0 : index
// SCF: %[[C1:.*]] = arith.constant 1 : index
// SCF: %[[C2:.*]] = arith.constant 2 : index
// SCF: %[[C3:.*]] = arith.constant 3 : index
// SCF: scf.for %[[N:.*]] = %[[C0]] to %[[C1]] step %[[C1]] {
// SCF-NEXT: scf.for %[[OH:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// SCF-NEXT: scf.for %[[OW:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// SCF-NEXT: scf.for %[[KH:.*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// SCF-NEXT: scf.for %[[KW:.*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// SCF-NEXT: scf.for %[[C:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// SCF-NEXT: scf.for %[[F:.*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// SCF-NEXT: %[[H:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 2) + d1))> (%[[OH]], %[[KH]])
// SCF-NEXT: %[[WW:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 2) + d1))> (%[[OW]], %[[KW]])
// SCF-NEXT: memref.load %x[%[[N]], %[[H]], %[[WW]], %[[C]]] : memref<1x5x5x2xf32>
// SCF-NEXT: memref.load %w[%[[F]], %[[KH]], %[[KW]], %[[C]]]
// SCF-NEXT: memref.load %o[%[[N]], %[[OH]], %[[OW]], %[[F]]]
// SCF-NEXT: arith.mulf
// SCF-NEXT: arith.addf
// SCF-NEXT: memref.store %{{.*}}, %o[%[[N]], %[[OH]], %[[OW]], %[[F]]] : memref<1x2x2x3xf32>
// SCF-NEXT: }

// LOW-LABEL: func.func @conv
// LOW-NOT: affine.
// LOW: %[[T:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// LOW-NEXT: arith.addi %[[T]], %{{.*}} : index
// LOW: memref.load %x[
// LOW: memref.store
// LLVM: llvm.func @conv
// LLVM: llvm.fmul
// LLVM: llvm.fadd
// LLVM: llvm.store
func.func @conv(%x: memref<1x5x5x2xf32>, %w: memref<3x3x3x2xf32>, %o: memref<1x2x2x3xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : memref<1x5x5x2xf32>, memref<3x3x3x2xf32>) outs(%o : memref<1x2x2x3xf32>)
  func.return
}

// A reduction dim first: the nest keeps d0 (reduction) outside d1; linalg.index 0 -> the outer IV.
// AFF-LABEL: func.func @generic_index
// AFF-NEXT: affine.for %[[R:.*]] = 0 to 3 {
// AFF-NEXT: affine.for %[[P:.*]] = 0 to 4 {
// AFF-NEXT: %[[ACC:.*]] = affine.load %o[%[[P]]] : memref<4xi32>
// AFF-NEXT: %[[I:.*]] = arith.index_cast %[[R]] : index to i32
// AFF-NEXT: %[[S:.*]] = arith.addi %[[ACC]], %[[I]] : i32
// AFF-NEXT: affine.store %[[S]], %o[%[[P]]] : memref<4xi32>
// SCF-LABEL: func.func @generic_index
// SCF: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// SCF-NEXT: scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// SCF-NEXT: memref.load %o[%[[P]]] : memref<4xi32>
// SCF-NEXT: arith.index_cast %[[R]] : index to i32
// LLVM: llvm.func @generic_index
func.func @generic_index(%a: memref<3x4xf32>, %o: memref<4xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a : memref<3x4xf32>) outs(%o : memref<4xi32>) {
  ^bb0(%x: f32, %acc: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %s = arith.addi %acc, %ii : i32
    linalg.yield %s : i32
  }
  func.return
}

// A scalar operand (fill's value, a zero point) is used as it is; no load of the unused output.
// AFF-LABEL: func.func @fill
// AFF-NEXT: %[[V:.*]] = arith.constant 1.5
// AFF-NEXT: affine.for %[[I:.*]] = 0 to 2 {
// AFF-NEXT: affine.for %[[J:.*]] = 0 to 3 {
// AFF-NEXT: affine.store %[[V]], %o[%[[I]], %[[J]]] : memref<2x3xf32>
// AFF-NEXT: }
// SCF-LABEL: func.func @fill
// SCF-NOT: memref.load
// SCF: memref.store
// LLVM: llvm.func @fill
func.func @fill(%o: memref<2x3xf32>) {
  %c = arith.constant 1.5 : f32
  linalg.fill ins(%c : f32) outs(%o : memref<2x3xf32>)
  func.return
}

// linalg.reduce: input identity, init without the reduced dims; the output's dim (d0) moves
// inside the reduction loop (d1), so each output element still sums d1 = 0, 1, 2, 3 in order.
// AFF-LABEL: func.func @reduce
// AFF-NEXT: affine.for %[[J:.*]] = 0 to 4 {
// AFF-NEXT: affine.for %[[I:.*]] = 0 to 3 {
// AFF-NEXT: affine.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// AFF-NEXT: affine.load %o[%[[I]]] : memref<3xf32>
// AFF-NEXT: arith.maximumf
// AFF-NEXT: affine.store %{{.*}}, %o[%[[I]]] : memref<3xf32>
// LLVM: llvm.func @reduce
func.func @reduce(%a: memref<3x4xf32>, %o: memref<3xf32>) {
  linalg.reduce ins(%a : memref<3x4xf32>) outs(%o : memref<3xf32>) dimensions = [1]
  (%x: f32, %acc: f32) {
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  }
  func.return
}

// Dynamic size: memref.dim, a symbol upper bound in the affine form.
// AFF-LABEL: func.func @dyn
// AFF-NEXT: %[[Z:.*]] = arith.constant 0 : index
// AFF-NEXT: %[[D:.*]] = memref.dim %a, %[[Z]] : memref<?x4xf32>
// AFF-NEXT: affine.for %[[I:.*]] = 0 to %[[D]] {
// AFF-NEXT: affine.for %[[J:.*]] = 0 to 4 {
// SCF-LABEL: func.func @dyn
// SCF: %[[D:.*]] = memref.dim %a
// SCF: scf.for %{{.*}} = %{{.*}} to %[[D]] step
// LOW-LABEL: func.func @dyn
// LOW: %[[D:.*]] = memref.dim %a
// LOW: scf.for %{{.*}} = %{{.*}} to %[[D]] step
// LLVM: llvm.func @dyn
func.func @dyn(%a: memref<?x4xf32>, %o: memref<?x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x4xf32>) outs(%o : memref<?x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  func.return
}
