// Round trip of spec chapter 2.14 Data Nodes: CONST IDENTITY
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @const_f32() -> tensor<2x3xf32> {
  %0 = tosa.const values(dense<[[1.000000e+00, 2.500000e+00, -3.000000e+00], [0.000000e+00, 1.000000e-03, 6.550400e+04]]> : tensor<2x3xf32>) : () -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// KW-LABEL: func.func @const_f32(
// KW-NEXT: %0 = tosa.const  values(dense<{{\[\[}}1.000000e+00, 2.500000e+00, -3.000000e+00], [0.000000e+00, 1.000000e-03, 6.550400e+04]]> : tensor<2x3xf32>) : () -> tensor<2x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<2x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @const_f32(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<{{\[\[}}1.000000e+00, 2.500000e+00, -3.000000e+00], [0.000000e+00, 1.000000e-03, 6.550400e+04]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<2x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_f32"
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<{{\[\[}}1.000000e+00, 2.500000e+00, -3.000000e+00], [0.000000e+00, 1.000000e-03, 6.550400e+04]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<2x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @const_i1() -> tensor<4xi1> {
  %0 = tosa.const values(dense<[true, false, false, true]> : tensor<4xi1>) : () -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// KW-LABEL: func.func @const_i1(
// KW-NEXT: %0 = tosa.const  values(dense<[true, false, false, true]> : tensor<4xi1>) : () -> tensor<4xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<4xi1>
// KW-NEXT: }

// AD-LABEL: func.func @const_i1(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<[true, false, false, true]> : tensor<4xi1>}> : () -> tensor<4xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<4xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_i1"
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<[true, false, false, true]> : tensor<4xi1>}> : () -> tensor<4xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<4xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @const_i4() -> tensor<3xi4> {
  %0 = tosa.const values(dense<[-8, 0, 7]> : tensor<3xi4>) : () -> tensor<3xi4>
  return %0 : tensor<3xi4>
}

// KW-LABEL: func.func @const_i4(
// KW-NEXT: %0 = tosa.const  values(dense<[-8, 0, 7]> : tensor<3xi4>) : () -> tensor<3xi4>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<3xi4>
// KW-NEXT: }

// AD-LABEL: func.func @const_i4(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<[-8, 0, 7]> : tensor<3xi4>}> : () -> tensor<3xi4>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<3xi4>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_i4"
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<[-8, 0, 7]> : tensor<3xi4>}> : () -> tensor<3xi4>
// GEN-NEXT: "func.return"(%0) : (tensor<3xi4>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @const_i48() -> tensor<2xi48> {
  %0 = tosa.const values(dense<[-140737488355328, 140737488355327]> : tensor<2xi48>) : () -> tensor<2xi48>
  return %0 : tensor<2xi48>
}

// KW-LABEL: func.func @const_i48(
// KW-NEXT: %0 = tosa.const  values(dense<[-140737488355328, 140737488355327]> : tensor<2xi48>) : () -> tensor<2xi48>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<2xi48>
// KW-NEXT: }

// AD-LABEL: func.func @const_i48(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<[-140737488355328, 140737488355327]> : tensor<2xi48>}> : () -> tensor<2xi48>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<2xi48>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_i48"
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<[-140737488355328, 140737488355327]> : tensor<2xi48>}> : () -> tensor<2xi48>
// GEN-NEXT: "func.return"(%0) : (tensor<2xi48>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @const_bf16() -> tensor<2xbf16> {
  %0 = tosa.const values(dense<[1.000000e+00, -2.000000e+00]> : tensor<2xbf16>) : () -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// KW-LABEL: func.func @const_bf16(
// KW-NEXT: %0 = tosa.const  values(dense<[1.000000e+00, -2.000000e+00]> : tensor<2xbf16>) : () -> tensor<2xbf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<2xbf16>
// KW-NEXT: }

// AD-LABEL: func.func @const_bf16(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<[1.000000e+00, -2.000000e+00]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<2xbf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_bf16"
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<[1.000000e+00, -2.000000e+00]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
// GEN-NEXT: "func.return"(%0) : (tensor<2xbf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @const_f8() -> tensor<2xf8E4M3FN> {
  %0 = tosa.const values(dense<[1.000000e+00, 4.480000e+02]> : tensor<2xf8E4M3FN>) : () -> tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}

// KW-LABEL: func.func @const_f8(
// KW-NEXT: %0 = tosa.const  values(dense<[1.000000e+00, 4.480000e+02]> : tensor<2xf8E4M3FN>) : () -> tensor<2xf8E4M3FN>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<2xf8E4M3FN>
// KW-NEXT: }

// AD-LABEL: func.func @const_f8(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<[1.000000e+00, 4.480000e+02]> : tensor<2xf8E4M3FN>}> : () -> tensor<2xf8E4M3FN>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<2xf8E4M3FN>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_f8"
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<[1.000000e+00, 4.480000e+02]> : tensor<2xf8E4M3FN>}> : () -> tensor<2xf8E4M3FN>
// GEN-NEXT: "func.return"(%0) : (tensor<2xf8E4M3FN>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @const_rank0() -> tensor<i32> {
  %0 = tosa.const values(dense<42> : tensor<i32>) : () -> tensor<i32>
  return %0 : tensor<i32>
}

// KW-LABEL: func.func @const_rank0(
// KW-NEXT: %0 = tosa.const  values(dense<42> : tensor<i32>) : () -> tensor<i32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<i32>
// KW-NEXT: }

// AD-LABEL: func.func @const_rank0(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<42> : tensor<i32>}> : () -> tensor<i32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<i32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_rank0"
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<42> : tensor<i32>}> : () -> tensor<i32>
// GEN-NEXT: "func.return"(%0) : (tensor<i32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @identity(%arg0: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.identity %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @identity(
// KW-NEXT: %0 = tosa.identity %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @identity(
// AD-NEXT: %0 = tosa.identity %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "identity"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.identity"(%arg0) : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()
