// A parse error is one located line (as mlir-opt), then the source line and a caret.
// RUN: not tosa-opt %s 2>&1 | filecheck %s --match-full-lines --strict-whitespace

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32 ]
  func.return %0 : i32
}

// CHECK:{{.*}}parse-error.mlir:5:32: error: {{.+}}
// CHECK-NEXT:  %0 = arith.addi %a, %a : i32 ]
// CHECK-NEXT:                               ^
// CHECK-NOT: Traceback
