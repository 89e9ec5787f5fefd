// --verify-diagnostics with mlir-opt's rules; every expectation here is met, so exit 0.
// The same file runs through the tosa-tools translator (native mlir) when present: the
// messages differ, so expectations use substrings both produce (the types).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o %t
// RUN: %if tosa-tt %{ %tosa-tt %s --split-input-file --verify-diagnostics -o %t %}

// Same line, and @+N.
func.func @same_line(%x: i32) -> i64 {
  func.return %x : i32 // expected-error {{i32}}
}

// -----

func.func @plus(%x: i32) -> i64 {
  // expected-error @+1 {{i64}}
  func.return %x : i32
}

// -----

// @-N. (A diagnostic satisfies only the first expectation it matches.)
func.func @minus(%x: i32) -> i64 {
  func.return %x : i32
  // expected-error @-1 {{i32}}
}

// -----

// @above: the previous line that holds no expectation.
func.func @a(%x: i32) -> i64 { func.return %x : i32 } func.func @b(%x: i16) -> i64 { func.return %x : i16 }
// expected-error @above {{i32}}
// expected-error @above {{i16}}

// -----

// @below skips lines that hold an expectation; two ops on one line give two errors.
// expected-error @below {{i32}}
// expected-error @below {{i16}}
func.func @a(%x: i32) -> i64 { func.return %x : i32 } func.func @b(%x: i16) -> i64 { func.return %x : i16 }

// -----

// -re: {{regex}} parts inside literal text.
func.func @re(%x: i32) -> i64 {
  // expected-error-re @+1 {{i{{[0-9]+}}}}
  func.return %x : i32
}

// -----

// A chunk without diagnostics and without expectations.
func.func @fine(%x: i32) -> i32 {
  func.return %x : i32
}

// -----

// Parse errors are diagnostics too; line numbers are file-absolute across chunks.
func.func @parse() {
  // expected-error @+1 {{}}
  func.return ]
}
