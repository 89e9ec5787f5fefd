// The named pipelines: tosa-to-loops stops at memref + affine (or scf) loops + arith + math,
// which upstream MLIR 22 lowers to LLVM IR with its standard passes; tosa-to-llvm leaves the
// llvm dialect only, which MLIR 22 translates to LLVM IR directly.
// RUN: tosa-opt %s -p tosa-to-loops | filecheck %s --check-prefix=AFFINE
// RUN: tosa-opt %s -p 'tosa-to-loops{loops=scf}' | filecheck %s --check-prefix=SCF
// RUN: tosa-opt %s -p tosa-to-llvm | filecheck %s --check-prefix=LLVM
// RUN: tosa-opt %s -p tosa-to-loops --print-op-generic | %mlir-opt-22 --lower-affine --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | %mlir-translate-22 --mlir-to-llvmir | filecheck %s --check-prefix=UPSTREAM
// RUN: tosa-opt %s -p tosa-to-llvm --print-op-generic | %mlir-translate-22 --mlir-to-llvmir | filecheck %s --check-prefix=TRANSLATED
// REQUIRES: mlir-opt-22, mlir-translate-22

func.func @main(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.exp %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// The result became an out-param written by the one loop nest left: the add and the exp are
// fused (linalg-fuse-elementwise-ops), so there is no temporary buffer.
// AFFINE:      func.func @main(%a: memref<2x3xf32>, %b: memref<1x3xf32>, %[[OUT:.*]]: memref<2x3xf32>) attributes {tosa_xdsl.out_params = 1 : i64}
// AFFINE-NOT:    memref.alloc
// AFFINE:        affine.for %[[I:.*]] = 0 to 2 {
// AFFINE-NEXT:     affine.for %[[J:.*]] = 0 to 3 {
// AFFINE-NEXT:       affine.load %a[%[[I]], %[[J]]]
// AFFINE-NEXT:       affine.load %b[0, %[[J]]]
// AFFINE-NEXT:       arith.addf
// AFFINE-NEXT:       math.exp
// AFFINE-NEXT:       affine.store {{.*}}, %[[OUT]][%[[I]], %[[J]]]
// AFFINE-NOT:    memref.alloc
// AFFINE-NOT:    tosa.
// AFFINE-NOT:    linalg.

// SCF:         scf.for
// SCF:           scf.for
// SCF:             memref.load %a
// SCF-NOT:     affine.for

// LLVM:        llvm.func @main(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// LLVM:          llvm.fadd
// LLVM:          llvm.call_intrinsic "llvm.exp.f32"
// LLVM-NOT:    func.func
// LLVM-NOT:    memref.

// UPSTREAM:    define void @main(
// UPSTREAM:      fadd float
// UPSTREAM:      call float @llvm.exp.f32

// TRANSLATED:  define void @main(ptr %0, ptr %1, ptr %2)
// TRANSLATED:    fadd float
