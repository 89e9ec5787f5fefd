// Round trip of spec chapter 2.11 Scatter/Gather Operators: GATHER SCATTER
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @gather(%arg0: tensor<2x10x4xf32>, %arg1: tensor<2x3xi32>) -> tensor<2x3x4xf32> {
  %0 = tosa.gather %arg0, %arg1 : (tensor<2x10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// KW-LABEL: func.func @gather(
// KW-NEXT: %0 = tosa.gather %arg0, %arg1 : (tensor<2x10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<2x3x4xf32>
// KW-NEXT: }

// AD-LABEL: func.func @gather(
// AD-NEXT: %0 = tosa.gather %arg0, %arg1 : (tensor<2x10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<2x3x4xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "gather"
// GEN-NEXT: ^bb0(%arg0: tensor<2x10x4xf32>, %arg1: tensor<2x3xi32>):
// GEN-NEXT: %0 = "tosa.gather"(%arg0, %arg1) : (tensor<2x10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<2x3x4xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @scatter(%arg0: tensor<2x10x4xi8>, %arg1: tensor<2x3xi32>, %arg2: tensor<2x3x4xi8>) -> tensor<2x10x4xi8> {
  %0 = tosa.scatter %arg0, %arg1, %arg2 : (tensor<2x10x4xi8>, tensor<2x3xi32>, tensor<2x3x4xi8>) -> tensor<2x10x4xi8>
  return %0 : tensor<2x10x4xi8>
}

// KW-LABEL: func.func @scatter(
// KW-NEXT: %0 = tosa.scatter %arg0, %arg1, %arg2 : (tensor<2x10x4xi8>, tensor<2x3xi32>, tensor<2x3x4xi8>) -> tensor<2x10x4xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<2x10x4xi8>
// KW-NEXT: }

// AD-LABEL: func.func @scatter(
// AD-NEXT: %0 = tosa.scatter %arg0, %arg1, %arg2 : (tensor<2x10x4xi8>, tensor<2x3xi32>, tensor<2x3x4xi8>) -> tensor<2x10x4xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<2x10x4xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "scatter"
// GEN-NEXT: ^bb0(%arg0: tensor<2x10x4xi8>, %arg1: tensor<2x3xi32>, %arg2: tensor<2x3x4xi8>):
// GEN-NEXT: %0 = "tosa.scatter"(%arg0, %arg1, %arg2) : (tensor<2x10x4xi8>, tensor<2x3xi32>, tensor<2x3x4xi8>) -> tensor<2x10x4xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<2x10x4xi8>) -> ()
// GEN-NEXT: }) : () -> ()
