// Verifier errors are located at the op NAME (col 8 for `  %0 = ...`, col 3 here), every
// failing op is reported (not only the first), with mlir-opt's "see current operation" note.
// RUN: not tosa-opt %s 2>&1 | filecheck %s

func.func @f(%a: i32) -> i64 {
  func.return %a : i32
}

func.func @g(%a: i16) -> i64 {
  %0 = arith.constant 1 : i16
  func.return %a : i16
}

// CHECK: verify-error.mlir:6:3: error: {{.*}}expected [i64], got [i32]
// CHECK-NEXT: func.return %a : i32
// CHECK-NEXT: ^
// CHECK-NEXT: verify-error.mlir:6:3: note: see current operation: "func.return"
// CHECK: verify-error.mlir:11:3: error: {{.*}}expected [i64], got [i16]
// CHECK-NOT: Traceback
