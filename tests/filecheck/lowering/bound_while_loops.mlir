// bound-while-loops (ours, no upstream pass): every scf.while counts its iterations in an
// extra i64 iter_arg and continues only while the count is below the bound global and no
// loop has set the flag global; the check that fails on the bound stores the loop's id
// (line << 32 | column: line 38, column 8 here = 163208757256) into the flag (docs/native.md).
// RUN: tosa-opt %s -p bound-while-loops | filecheck %s
// RUN: tosa-opt %s -p bound-while-loops --print-op-generic | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// CHECK: "memref.global"() <{sym_name = "tosa_xdsl_max_loop_iterations", type = memref<i64>, initial_value = dense<100000> : tensor<i64>, sym_visibility = "public"}> : () -> ()
// CHECK-NEXT: "memref.global"() <{sym_name = "tosa_xdsl_loop_limit_exceeded", type = memref<i64>, initial_value = dense<0> : tensor<i64>, sym_visibility = "public"}> : () -> ()
// CHECK-LABEL: func.func @loop(
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[R:.*]], %{{.*}} = scf.while (%[[I:.*]] = %x, %[[N:.*]] = %[[Z]]) : (i32, i64) -> (i32, i64) {
// CHECK: %[[C:.*]] = arith.cmpi slt, %[[I]], %lim : i32
// CHECK: %[[BOUND:.*]] = memref.load %{{.*}}[] : memref<i64>
// CHECK: %[[FLAG:.*]] = memref.load %{{.*}}[] : memref<i64>
// CHECK: %[[ID:.*]] = arith.constant 163208757256 : i64
// CHECK: %[[CLEAR:.*]] = arith.cmpi eq, %[[FLAG]], %{{.*}} : i64
// CHECK-NEXT: %[[UNDER:.*]] = arith.cmpi slt, %[[N]], %[[BOUND]] : i64
// CHECK-NEXT: %[[G0:.*]] = arith.andi %[[C]], %[[UNDER]] : i1
// CHECK-NEXT: %[[GO:.*]] = arith.andi %[[G0]], %[[CLEAR]] : i1
// CHECK: %[[OVER:.*]] = arith.xori %[[UNDER]], %{{.*}} : i1
// CHECK-NEXT: %[[H0:.*]] = arith.andi %[[C]], %[[OVER]] : i1
// CHECK-NEXT: %[[HIT:.*]] = arith.andi %[[H0]], %[[CLEAR]] : i1
// CHECK-NEXT: scf.if %[[HIT]] {
// CHECK-NEXT: memref.store %[[ID]], %{{.*}}[] : memref<i64>
// CHECK-NEXT: }
// CHECK-NEXT: scf.condition(%[[GO]]) %[[I]], %[[N]] : i32, i64
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[J:.*]]: i32, %[[M:.*]]: i64):
// CHECK: %[[M1:.*]] = arith.addi %[[M]], %{{.*}} : i64
// CHECK-NEXT: scf.yield %{{.*}}, %[[M1]] : i32, i64
// CHECK: func.return %[[R]] : i32
// MLIR-LABEL: func.func @loop
// MLIR: scf.while {{.*}} : (i32, i64) -> (i32, i64)
func.func @loop(%x: i32, %lim: i32) -> i32 {
  %one = arith.constant 1 : i32
  %r = scf.while (%i = %x) : (i32) -> i32 {
    %c = arith.cmpi slt, %i, %lim : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%j: i32):
    %k = arith.addi %j, %one : i32
    scf.yield %k : i32
  }
  return %r : i32
}
