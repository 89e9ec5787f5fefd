// convert-scf-to-cf: scf.while (which xDSL's pass lacks), scf.for, scf.if -> blocks + cf branches.
// RUN: tosa-opt %s -p convert-scf-to-cf | filecheck %s
// RUN: tosa-opt %s -p convert-scf-to-cf --print-op-generic | %mlir-opt-22 --convert-to-llvm --reconcile-unrealized-casts | filecheck %s --check-prefix=LLVM
// REQUIRES: mlir-opt-22

// CHECK-LABEL: func.func @while
// CHECK: cf.br ^[[BEFORE:bb[0-9]+]](%c0, %x : i32, i32)
// CHECK-NEXT: ^[[BEFORE]](%[[I:.*]]: i32, %[[V:.*]]: i32):
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[I]], %n : i32
// CHECK-NEXT: cf.cond_br %[[LT]], ^[[AFTER:bb[0-9]+]](%[[I]], %[[V]] : i32, i32), ^[[EXIT:bb[0-9]+]]
// CHECK-NEXT: ^[[AFTER]](%[[J:.*]]: i32, %[[W:.*]]: i32):
// CHECK-NEXT: %[[J1:.*]] = arith.addi %[[J]], %c1 : i32
// CHECK-NEXT: %[[W1:.*]] = arith.muli %[[W]], %c3 : i32
// CHECK-NEXT: cf.br ^[[BEFORE]](%[[J1]], %[[W1]] : i32, i32)
// CHECK-NEXT: ^[[EXIT]]:
// CHECK-NEXT: func.return %[[V]] : i32
// CHECK-NOT: scf.
// LLVM-LABEL: llvm.func @while
// LLVM: llvm.cond_br
// LLVM: llvm.br
func.func @while(%n: i32, %x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%i = %c0, %v = %x) : (i32, i32) -> (i32, i32) {
    %lt = arith.cmpi slt, %i, %n : i32
    scf.condition(%lt) %i, %v : i32, i32
  } do {
  ^bb0(%j: i32, %w: i32):
    %j1 = arith.addi %j, %c1 : i32
    %w1 = arith.muli %w, %c3 : i32
    scf.yield %j1, %w1 : i32, i32
  }
  func.return %r#1 : i32
}

// CHECK-LABEL: func.func @for_if
// CHECK: cf.br ^[[HEAD:bb[0-9]+]](%lb, %s0 : index, f32)
// CHECK-NEXT: ^[[HEAD]](%[[K:.*]]: index, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[K]], %ub : index
// CHECK-NEXT: cf.cond_br %[[C]], ^[[BODY:bb[0-9]+]], ^[[END:bb[0-9]+]]
// CHECK-NEXT: ^[[BODY]]:
// CHECK: cf.cond_br %p, ^[[THEN:bb[0-9]+]], ^[[ELSE:bb[0-9]+]]
// CHECK: ^[[THEN]]:
// CHECK: memref.load %buf[%[[K]]]
// CHECK: arith.addi %[[K]], %st : index
// CHECK: cf.br ^[[HEAD]](
// CHECK: ^[[END]]:
// CHECK-NEXT: func.return %[[ACC]] : f32
// LLVM-LABEL: llvm.func @for_if
func.func @for_if(%p: i1, %buf: memref<8xf32>, %lb: index, %ub: index, %st: index, %s0: f32) -> f32 {
  %r = scf.for %k = %lb to %ub step %st iter_args(%acc = %s0) -> (f32) {
    %t = scf.if %p -> (f32) {
      %e = memref.load %buf[%k] : memref<8xf32>
      %a = arith.addf %acc, %e : f32
      scf.yield %a : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %t : f32
  }
  func.return %r : f32
}
