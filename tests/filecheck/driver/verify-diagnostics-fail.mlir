// Mismatches are reported in mlir-opt's words, and the exit code is 1: an unexpected
// diagnostic right away, expectations that were not produced at the end (@unknown last).
// The same CHECK lines hold for the tosa-tools translator (native mlir-opt).
// RUN: not tosa-opt %s --split-input-file --verify-diagnostics -o %t 2>&1 | filecheck %s
// RUN: %if tosa-tt %{ not %tosa-tt %s --split-input-file --verify-diagnostics -o %t 2>&1 | filecheck %s %}

func.func @unexpected(%x: i32) -> i64 {
  func.return %x : i32
}
// CHECK: verify-diagnostics-fail.mlir:8:3: error: unexpected error: {{.*}}i32
// CHECK-NEXT: func.return %x : i32
// CHECK-NEXT: ^

// -----

func.func @wrong_text(%x: i32) -> i64 {
  // expected-error @+1 {{f64}}
  func.return %x : i32
}
// CHECK: verify-diagnostics-fail.mlir:18:3: error: unexpected error: {{.*}}i32

// -----

func.func @wrong_kind(%x: i32) -> i64 {
  // expected-warning @+1 {{i32}}
  func.return %x : i32
}
// CHECK: verify-diagnostics-fail.mlir:25:6: error: 'error' diagnostic emitted when expecting a 'warning'

// -----

func.func @not_produced(%x: i32) -> i32 {
  // expected-error @below {{never}}
  func.return %x : i32
  // expected-error @unknown {{nowhere}}
}

// CHECK: verify-diagnostics-fail.mlir:17:6: error: expected error "f64" was not produced
// CHECK-NEXT:  // expected-error @+1 {{[{][{]}}f64}}
// CHECK-NEXT:     ^~~
// CHECK: verify-diagnostics-fail.mlir:25:6: error: expected warning "i32" was not produced
// CHECK: verify-diagnostics-fail.mlir:33:6: error: expected error "never" was not produced
// CHECK: <unknown>:0: error: expected error "nowhere" was not produced
