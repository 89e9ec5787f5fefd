// -o writes the module to a file; --print-op-generic prints the generic form; the
// --tosa-syntax choices and mlir-opt's single-dash spellings are accepted.
// RUN: tosa-opt %s -o %t.out && filecheck %s < %t.out
// RUN: tosa-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: tosa-opt %s -mlir-print-op-generic -split-input-file | filecheck %s --check-prefix=GENERIC
// RUN: tosa-opt %s --tosa-syntax=attr-dict | filecheck %s
// RUN: tosa-opt %s --print-debuginfo | filecheck %s --check-prefix=LOC

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  func.return %0 : i32
}

// CHECK: func.func @f(%a: i32) -> i32 {
// CHECK-NEXT: %0 = arith.addi %a, %a : i32
// GENERIC: "func.func"() <{
// GENERIC: "arith.addi"(%a, %a)
// LOC: arith.addi %a, %a : i32 loc("{{.*}}output-options.mlir":10:8)
// LOC: func.return %0 : i32 loc("{{.*}}output-options.mlir":11:3)
