// RUN: tosa-opt %s -p convert-scf-to-cf,convert-to-llvm | filecheck %s
// RUN: tosa-opt %s -p convert-scf-to-cf,convert-to-llvm --print-op-generic | /usr/lib/llvm-22/bin/mlir-translate --mlir-to-llvmir | filecheck %s --check-prefix=LLVMIR

// CHECK-LABEL: llvm.func @kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: llvm.cond_br
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: llvm.load %[[P]] : !llvm.ptr -> i32
// CHECK: llvm.sdiv
// CHECK: llvm.call_intrinsic "llvm.smax.i32"
// Multi-index load: row stride 4 of memref<2x4xf32>
// CHECK: llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.call_intrinsic "llvm.exp.f32"
// CHECK: llvm.call @tanhf
// CHECK: llvm.fptosi %{{.*}} : f32 to i32
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
// CHECK: llvm.call @malloc
// CHECK: llvm.call @free
// CHECK: llvm.return
// CHECK-DAG: llvm.func @tanhf(f32) -> f32
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @free(!llvm.ptr)

// LLVMIR: define void @kernel(ptr %0, ptr %1, ptr %2)
// LLVMIR: sdiv i32
// LLVMIR: call i32 @llvm.smax.i32
// LLVMIR: fptosi float %{{.*}} to i32
// LLVMIR: call ptr @malloc(i64 32)
// LLVMIR: call void @free(ptr
func.func @kernel(%a: memref<8xi32>, %f: memref<2x4xf32>, %out: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c3 = arith.constant 3 : i32
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xi32>
    %d = arith.divsi %x, %c3 : i32
    %m = arith.maxsi %d, %x : i32
    %j = arith.remui %i, %c8 : index
    %row = arith.divui %i, %c8 : index
    %v = memref.load %f[%c1, %c1] : memref<2x4xf32>
    %e = math.exp %v : f32
    %t = math.tanh %e : f32
    %k = arith.fptosi %t : f32 to i32
    %s = arith.addi %m, %k : i32
    memref.store %s, %out[%i] : memref<8xi32>
  }
  %tmp = memref.alloc() : memref<8xi32>
  memref.dealloc %tmp : memref<8xi32>
  func.return
}
