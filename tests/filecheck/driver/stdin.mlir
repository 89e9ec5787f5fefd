// Input from stdin is named <stdin>; `-` means stdin too.
// RUN: not tosa-opt < %s 2>&1 | filecheck %s
// RUN: not tosa-opt - < %s 2>&1 | filecheck %s

func.func @f(%a: i32) -> i64 {
  func.return %a : i32
}
// CHECK: <stdin>:6:3: error:
