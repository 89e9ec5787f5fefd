// Round trip of spec chapter 2.8 Comparison Operators: EQUAL GREATER GREATER_EQUAL
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @equal(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>) -> tensor<13x21x3xi1> {
  %0 = tosa.equal %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// KW-LABEL: func.func @equal(
// KW-NEXT: %0 = tosa.equal %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @equal(
// AD-NEXT: %0 = tosa.equal %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "equal"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.equal"(%arg0, %arg1) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @greater(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>) -> tensor<13x21x3xi1> {
  %0 = tosa.greater %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// KW-LABEL: func.func @greater(
// KW-NEXT: %0 = tosa.greater %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @greater(
// AD-NEXT: %0 = tosa.greater %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "greater"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.greater"(%arg0, %arg1) : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @greater_equal(%arg0: tensor<13x21x3xf16>, %arg1: tensor<13x21x3xf16>) -> tensor<13x21x3xi1> {
  %0 = tosa.greater_equal %arg0, %arg1 : (tensor<13x21x3xf16>, tensor<13x21x3xf16>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// KW-LABEL: func.func @greater_equal(
// KW-NEXT: %0 = tosa.greater_equal %arg0, %arg1 : (tensor<13x21x3xf16>, tensor<13x21x3xf16>) -> tensor<13x21x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @greater_equal(
// AD-NEXT: %0 = tosa.greater_equal %arg0, %arg1 : (tensor<13x21x3xf16>, tensor<13x21x3xf16>) -> tensor<13x21x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "greater_equal"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf16>, %arg1: tensor<13x21x3xf16>):
// GEN-NEXT: %0 = "tosa.greater_equal"(%arg0, %arg1) : (tensor<13x21x3xf16>, tensor<13x21x3xf16>) -> tensor<13x21x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()
