// one-shot-bufferize with dynamically shaped scf.if results and scf.while iter_args, as
// upstream's one-shot-bufferize{allow-return-allocs-from-loops} gives them: memref results /
// iter_args, a branch or an iteration yields a fresh alloc sized by memref.dim. The UPSTREAM
// lines check MLIR 22 on the same input; ours differ where docs/bufferization.md says: a
// buffer the block does not own (an argument) is copied before it is yielded or carried
// (upstream yields the argument and leaves the copy to ownership-based deallocation's
// clones), and deallocation is explicit (each owned buffer not handed over is freed).
// RUN: tosa-opt %s -p one-shot-bufferize | filecheck %s
// RUN: tosa-opt %s -p one-shot-bufferize --print-op-generic | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// RUN: %mlir-opt-22 %s --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map" | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: mlir-opt-22

// CHECK-LABEL: func.func @if_dynamic(
// CHECK-SAME: %c: i1, %x: memref<?x3xf32>, %y: memref<?x3xf32>) -> memref<?x3xf32> {
// CHECK-NEXT: %[[R:.*]] = scf.if %c -> (memref<?x3xf32>) {
// CHECK: %[[D:.*]] = memref.dim %x, %{{.*}} : memref<?x3xf32>
// CHECK-NEXT: %[[A:.*]] = memref.alloc(%[[D]]) : memref<?x3xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%x, %y : memref<?x3xf32>, memref<?x3xf32>) outs(%[[A]] : memref<?x3xf32>)
// CHECK: scf.yield %[[A]] : memref<?x3xf32>
// CHECK-NEXT: } else {
// CHECK: %[[D2:.*]] = memref.dim %x, %{{.*}} : memref<?x3xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc(%[[D2]]) : memref<?x3xf32>
// CHECK-NEXT: "memref.copy"(%x, %[[B]])
// CHECK-NEXT: scf.yield %[[B]] : memref<?x3xf32>
// CHECK-NEXT: }
// CHECK-NOT: memref.dealloc
// CHECK-NEXT: func.return %[[R]] : memref<?x3xf32>
// MLIR-LABEL: func.func @if_dynamic
// MLIR: scf.if %{{.*}} -> (memref<?x3xf32>)
// UPSTREAM-LABEL: func.func @if_dynamic
// UPSTREAM: %[[R:.*]] = scf.if %{{.*}} -> (memref<?x3xf32>) {
// UPSTREAM: %[[D:.*]] = memref.dim %arg1, %{{.*}} : memref<?x3xf32>
// UPSTREAM-NEXT: %[[A:.*]] = memref.alloc(%[[D]]) {{.*}}: memref<?x3xf32>
// UPSTREAM-NEXT: linalg.generic {{.*}} ins(%arg1, %arg2 : memref<?x3xf32>, memref<?x3xf32>) outs(%[[A]] : memref<?x3xf32>)
// UPSTREAM: scf.yield %[[A]] : memref<?x3xf32>
// UPSTREAM-NEXT: } else {
// UPSTREAM-NEXT: scf.yield %arg1 : memref<?x3xf32>
// UPSTREAM: return %[[R]] : memref<?x3xf32>
func.func @if_dynamic(%c: i1, %x: tensor<?x3xf32>, %y: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = scf.if %c -> (tensor<?x3xf32>) {
    %i0 = arith.constant 0 : index
    %d = tensor.dim %x, %i0 : tensor<?x3xf32>
    %e = tensor.empty(%d) : tensor<?x3xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x3xf32>, tensor<?x3xf32>) outs(%e : tensor<?x3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<?x3xf32>
    scf.yield %1 : tensor<?x3xf32>
  } else {
    scf.yield %x : tensor<?x3xf32>
  }
  return %0 : tensor<?x3xf32>
}

// The loop owns the buffer it carries: the init (an argument) is copied once; each
// iteration writes a new alloc, frees the buffer it received and yields the new one.
// CHECK-LABEL: func.func @while_dynamic(
// CHECK-SAME: %x0: memref<?x2xi32>, %n: i32) -> memref<?x2xi32> {
// CHECK: %[[D0:.*]] = memref.dim %x0, %{{.*}} : memref<?x2xi32>
// CHECK-NEXT: %[[INIT:.*]] = memref.alloc(%[[D0]]) : memref<?x2xi32>
// CHECK-NEXT: "memref.copy"(%x0, %[[INIT]])
// CHECK-NEXT: %{{.*}}, %[[R:.*]] = scf.while (%[[I:.*]] = %c0, %[[X:.*]] = %[[INIT]]) : (i32, memref<?x2xi32>) -> (i32, memref<?x2xi32>) {
// CHECK: scf.condition(%{{.*}}) %[[I]], %[[X]] : i32, memref<?x2xi32>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %[[XA:.*]]: memref<?x2xi32>):
// CHECK: %[[D:.*]] = memref.dim %[[XA]], %{{.*}} : memref<?x2xi32>
// CHECK-NEXT: %[[N:.*]] = memref.alloc(%[[D]]) : memref<?x2xi32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[XA]] : memref<?x2xi32>) outs(%[[N]] : memref<?x2xi32>)
// CHECK: memref.dealloc %[[XA]] : memref<?x2xi32>
// CHECK-NEXT: scf.yield %{{.*}}, %[[N]] : i32, memref<?x2xi32>
// CHECK-NEXT: }
// CHECK-NEXT: func.return %[[R]] : memref<?x2xi32>
// MLIR-LABEL: func.func @while_dynamic
// MLIR: scf.while {{.*}} : (i32, memref<?x2xi32>) -> (i32, memref<?x2xi32>)
// UPSTREAM-LABEL: func.func @while_dynamic
// UPSTREAM: %[[R:.*]]:2 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %arg0) : (i32, memref<?x2xi32>) -> (i32, memref<?x2xi32>) {
// UPSTREAM: scf.condition
// UPSTREAM: } do {
// UPSTREAM-NEXT: ^bb0(%{{.*}}: i32, %[[XA:.*]]: memref<?x2xi32>):
// UPSTREAM: %[[D:.*]] = memref.dim %[[XA]], %{{.*}} : memref<?x2xi32>
// UPSTREAM-NEXT: %[[N:.*]] = memref.alloc(%[[D]]) {{.*}}: memref<?x2xi32>
// UPSTREAM-NEXT: linalg.generic {{.*}} ins(%[[XA]] : memref<?x2xi32>) outs(%[[N]] : memref<?x2xi32>)
// UPSTREAM: scf.yield %{{.*}}, %[[N]] : i32, memref<?x2xi32>
// UPSTREAM: return %[[R]]#1 : memref<?x2xi32>
func.func @while_dynamic(%x0: tensor<?x2xi32>, %n: i32) -> tensor<?x2xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %x = %x0) : (i32, tensor<?x2xi32>) -> (i32, tensor<?x2xi32>) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %x : i32, tensor<?x2xi32>
  } do {
  ^bb0(%i: i32, %x: tensor<?x2xi32>):
    %i1 = arith.addi %i, %c1 : i32
    %i0 = arith.constant 0 : index
    %d = tensor.dim %x, %i0 : tensor<?x2xi32>
    %e = tensor.empty(%d) : tensor<?x2xi32>
    %x1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x2xi32>) outs(%e : tensor<?x2xi32>) {
    ^bb0(%a: i32, %o: i32):
      %s = arith.addi %a, %a : i32
      linalg.yield %s : i32
    } -> tensor<?x2xi32>
    scf.yield %i1, %x1 : i32, tensor<?x2xi32>
  }
  return %r#1 : tensor<?x2xi32>
}
