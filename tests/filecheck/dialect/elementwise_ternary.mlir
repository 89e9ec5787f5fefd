// Round trip of spec chapter 2.7 Elementwise Ternary Operators: SELECT
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @select(%arg0: tensor<13x21x3xi1>, %arg1: tensor<13x21x3xf32>, %arg2: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.select %arg0, %arg1, %arg2 : (tensor<13x21x3xi1>, tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @select(
// KW-NEXT: %0 = tosa.select %arg0, %arg1, %arg2 : (tensor<13x21x3xi1>, tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @select(
// AD-NEXT: %0 = tosa.select %arg0, %arg1, %arg2 : (tensor<13x21x3xi1>, tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "select"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi1>, %arg1: tensor<13x21x3xf32>, %arg2: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.select"(%arg0, %arg1, %arg2) : (tensor<13x21x3xi1>, tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @select_broadcast(%arg0: tensor<1x21x1xi1>, %arg1: tensor<13x21x3xi8>, %arg2: tensor<13x1x3xi8>) -> tensor<13x21x3xi8> {
  %0 = tosa.select %arg0, %arg1, %arg2 : (tensor<1x21x1xi1>, tensor<13x21x3xi8>, tensor<13x1x3xi8>) -> tensor<13x21x3xi8>
  return %0 : tensor<13x21x3xi8>
}

// KW-LABEL: func.func @select_broadcast(
// KW-NEXT: %0 = tosa.select %arg0, %arg1, %arg2 : (tensor<1x21x1xi1>, tensor<13x21x3xi8>, tensor<13x1x3xi8>) -> tensor<13x21x3xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @select_broadcast(
// AD-NEXT: %0 = tosa.select %arg0, %arg1, %arg2 : (tensor<1x21x1xi1>, tensor<13x21x3xi8>, tensor<13x1x3xi8>) -> tensor<13x21x3xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "select_broadcast"
// GEN-NEXT: ^bb0(%arg0: tensor<1x21x1xi1>, %arg1: tensor<13x21x3xi8>, %arg2: tensor<13x1x3xi8>):
// GEN-NEXT: %0 = "tosa.select"(%arg0, %arg1, %arg2) : (tensor<1x21x1xi1>, tensor<13x21x3xi8>, tensor<13x1x3xi8>) -> tensor<13x21x3xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()
