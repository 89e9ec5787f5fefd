// --threads N (docs/native.md, tosa_xdsl/lowering/to_loops/outline_parallel.py):
// convert-linalg-to-affine-loops{mark-parallel=true} marks the outermost loop of each nest whose
// trip count is not 1, if its dim is a bare result of every output map (a parallel dim);
// outline-parallel-loops{threads=N} moves the body of each marked loop into a private function
// @f__parallel_K(%lo, %hi, captures...) looping over iterations [lo, hi) (iv = k * step + lb) and
// calls it on [0, trip) with {tosa_xdsl.parallel_threads = N}; convert-to-llvm makes that call
// tosa_xdsl_parallel_for(@f__parallel_K__task, ctx, 0, trip, N).
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true}" | filecheck %s --check-prefix=MARK
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true},outline-parallel-loops{threads=3 min-work=0}" | filecheck %s --check-prefix=OUTLINE
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true},outline-parallel-loops{threads=1 min-work=0}" | filecheck %s --check-prefix=ONE
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true},outline-parallel-loops{threads=2}" | filecheck %s --check-prefix=SMALL
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true},outline-parallel-loops{threads=2 min-work=2406}" | filecheck %s --check-prefix=AT
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true},outline-parallel-loops{threads=2 min-work=2407}" | filecheck %s --check-prefix=ABOVE
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true},outline-parallel-loops{threads=3 min-work=0},lower-affine,convert-scf-to-cf,convert-to-llvm" | filecheck %s --check-prefix=LLVM
// RUN: tosa-opt %s -p "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true},outline-parallel-loops{threads=3 min-work=0},lower-affine,convert-scf-to-cf,convert-to-llvm" --print-op-generic | /usr/lib/llvm-22/bin/mlir-translate --mlir-to-llvmir | filecheck %s --check-prefix=LLVMIR

// A matmul, register tiled: the batch loop (trip 1) is skipped, the row loop (step 3) is marked.
// MARK-LABEL: func.func @matmul
// MARK:         affine.for %{{.*}} = 0 to 1 {
// MARK-NEXT:      affine.for %{{.*}} = 0 to 12 step 3 {
// MARK:           } {tosa_xdsl.parallel}
// MARK-NEXT:    }
// MARK-NEXT:    func.return
// The call runs iterations [0, 4) (12 rows, step 3); the three buffers (distinct arguments:
// noalias) are the captures; the batch loop's induction variable (one iteration) is rebuilt
// inside as its constant value.
// OUTLINE-LABEL: func.func @matmul(%a: memref<1x12x7xf32>, %b: memref<1x7x40xf32>, %o: memref<1x12x40xf32>)
// OUTLINE:         affine.for %{{.*}} = 0 to 1 {
// OUTLINE-NEXT:      %[[LO:.*]] = arith.constant 0 : index
// OUTLINE-NEXT:      %[[HI:.*]] = arith.constant 4 : index
// OUTLINE-NEXT:      func.call @matmul__parallel_0(%[[LO]], %[[HI]], %a, %b, %o) {tosa_xdsl.parallel_threads = 3 : i64}
// OUTLINE-NEXT:    }
// OUTLINE-NEXT:    func.return
// OUTLINE:       func.func private @matmul__parallel_0(%[[L:.*]]: index, %[[H:.*]]: index, %{{.*}}: memref<1x12x7xf32> {llvm.noalias}, %{{.*}}: memref<1x7x40xf32> {llvm.noalias}, %{{.*}}: memref<1x12x40xf32> {llvm.noalias}) attributes {llvm.linkage = #llvm.linkage<"internal">}
// OUTLINE-NEXT:    %[[B:.*]] = arith.constant 0 : index
// OUTLINE-NEXT:    affine.for %{{.*}} = affine_map<()[s0] -> ((s0 * 3))>()[%[[L]]] to affine_map<()[s0] -> ((s0 * 3))>()[%[[H]]] step 3 {
// OUTLINE-NEXT:      affine.for %{{.*}} = 0 to 40 step 40 {
// OUTLINE:                 affine.load %{{.*}}[%[[B]], %{{.*}}, %{{.*}}] : memref<1x12x7xf32>
// OUTLINE-NOT:     tosa_xdsl.parallel
// OUTLINE:         func.return
// ONE-LABEL: func.func @matmul
// ONE-NOT:   tosa_xdsl.parallel
// ONE-NOT:   func.call
// The default min-work (DEFAULT_MIN_WORK operations): this matmul's 24676 are done on the calling thread.
// SMALL-LABEL: func.func @matmul
// SMALL-NOT:   func.call
// SMALL:       func.return
func.func @matmul(%a: memref<1x12x7xf32>, %b: memref<1x7x40xf32>, %o: memref<1x12x40xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<1x12x7xf32>, memref<1x7x40xf32>) outs(%o : memref<1x12x40xf32>)
  func.return
}

// A reduction over the leading dim: its first loop is a reduction, nothing is marked.
// MARK-LABEL: func.func @reduce_rows
// MARK-NOT:   tosa_xdsl.parallel
// MARK:       func.return
// OUTLINE-LABEL: func.func @reduce_rows
// OUTLINE-NOT:   func.call
// OUTLINE:       func.return
func.func @reduce_rows(%a: memref<6x5xi32>, %o: memref<5xi32>) {
  linalg.reduce ins(%a : memref<6x5xi32>) outs(%o : memref<5xi32>) dimensions = [0]
    (%x: i32, %acc: i32) {
      %s = arith.addi %x, %acc : i32
      linalg.yield %s : i32
    }
  func.return
}

// A run-time trip count: the call's upper bound is the dim; the buffer with a dynamic dim is
// passed as it is. An in-place elementwise op (the same buffer read and written through one
// map) is captured once.
// A run-time trip count counts as large: outlined whatever min-work says.
// SMALL-LABEL: func.func @dynamic
// SMALL:       func.call @dynamic__parallel_0
// OUTLINE-LABEL: func.func @dynamic(%a: memref<?x5xi32>)
// OUTLINE:         %[[N:.*]] = memref.dim %a, %{{.*}} : memref<?x5xi32>
// OUTLINE:         %[[Z:.*]] = arith.constant 0 : index
// OUTLINE-NEXT:    %[[T:.*]] = affine.apply affine_map<()[s0] -> (s0)> ()[%[[N]]]
// OUTLINE-NEXT:    func.call @dynamic__parallel_0(%[[Z]], %[[T]], %a) {tosa_xdsl.parallel_threads = 3 : i64} : (index, index, memref<?x5xi32>) -> ()
// OUTLINE:       func.func private @dynamic__parallel_0(%[[L:.*]]: index, %[[H:.*]]: index, %{{.*}}: memref<?x5xi32> {llvm.noalias})
// OUTLINE-NEXT:    affine.for %{{.*}} = %[[L]] to %[[H]] {
func.func @dynamic(%a: memref<?x5xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x5xi32>) outs(%a : memref<?x5xi32>) {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %x : i32
    linalg.yield %s : i32
  }
  func.return
}

// The work estimate (outline_parallel.work): every op counts 1 per execution, a loop its trip
// count times its body. Here 6 rows x (100 x (load, addi, store, yield) + the inner loop's
// yield) = 6 x 401 = 2406 operations: outlined at min-work=2406, serial at 2407.
// AT-LABEL: func.func @rows
// AT:         func.call @rows__parallel_0
// ABOVE-LABEL: func.func @rows
// ABOVE-NOT:   func.call
// ABOVE:       func.return
func.func @rows(%a: memref<6x100xi32>, %o: memref<6x100xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<6x100xi32>) outs(%o : memref<6x100xi32>) {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %x : i32
    linalg.yield %s : i32
  }
  func.return
}

// convert-to-llvm: the captures go to a stack context, the pool runs the task.
// LLVM-LABEL: llvm.func @matmul(
// LLVM:         %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// LLVM:         llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// LLVM:         %[[TASK:.*]] = llvm.mlir.addressof @matmul__parallel_0__task : !llvm.ptr
// LLVM-NEXT:    llvm.call @tosa_xdsl_parallel_for(%[[TASK]], %[[CTX]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
// LLVM:       llvm.func internal @matmul__parallel_0(%{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
// LLVM:       llvm.func internal @matmul__parallel_0__task(%[[LO:.*]]: i64, %[[HI:.*]]: i64, %[[C:.*]]: !llvm.ptr)
// LLVM:         llvm.call @matmul__parallel_0(%[[LO]], %[[HI]],
// LLVM:       llvm.func @tosa_xdsl_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64, i64)
// LLVMIR: define void @matmul(ptr %0, ptr %1, ptr %2)
// LLVMIR: call void @tosa_xdsl_parallel_for(ptr @matmul__parallel_0__task, ptr %{{.*}}, i64 0, i64 4, i64 3)
// LLVMIR: define internal void @matmul__parallel_0(i64 %0, i64 %1, ptr noalias %2, ptr noalias %3, ptr noalias %4)
// LLVMIR: define internal void @matmul__parallel_0__task(i64 %0, i64 %1, ptr %2)
// LLVMIR: declare void @tosa_xdsl_parallel_for(ptr, ptr, i64, i64, i64)
