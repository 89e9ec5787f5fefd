// Chunks are processed independently, line numbers stay file-absolute, the output has
// a marker line between chunks, and a failing chunk prints nothing.
// RUN: not tosa-opt %s --split-input-file 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=ERR < %t.err

func.func @ok1() {
  func.return
}

// -----

func.func @bad(%a: i32) -> i64 {
  func.return %a : i32
}

// -----

func.func @ok2() {
  func.return
}

// -----

func.func @bad_parse() {
  func.return }}
}

// CHECK: func.func @ok1()
// CHECK-NEXT: func.return
// CHECK: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: func.func @ok2()
// CHECK: // -----
// CHECK-NOT: func.func

// ERR: split-input-file.mlir:13:3: error:
// ERR: split-input-file.mlir:25:{{[0-9]+}}: error:
