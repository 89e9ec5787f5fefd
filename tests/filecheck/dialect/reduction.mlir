// Round trip of spec chapter 2.9 Reduction Operators: REDUCE_ALL ... REDUCE_SUM
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @reduce_all(%arg0: tensor<13x21x3xi1>) -> tensor<1x21x3xi1> {
  %0 = tosa.reduce_all %arg0 axis(0) : (tensor<13x21x3xi1>) -> tensor<1x21x3xi1>
  return %0 : tensor<1x21x3xi1>
}

// KW-LABEL: func.func @reduce_all(
// KW-NEXT: %0 = tosa.reduce_all %arg0 axis(0) : (tensor<13x21x3xi1>) -> tensor<1x21x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<1x21x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @reduce_all(
// AD-NEXT: %0 = tosa.reduce_all %arg0 {axis = 0 : i32} : (tensor<13x21x3xi1>) -> tensor<1x21x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<1x21x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reduce_all"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi1>):
// GEN-NEXT: %0 = "tosa.reduce_all"(%arg0) <{axis = 0 : i32}> : (tensor<13x21x3xi1>) -> tensor<1x21x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<1x21x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reduce_any(%arg0: tensor<13x21x3xi1>) -> tensor<13x1x3xi1> {
  %0 = tosa.reduce_any %arg0 axis(1) : (tensor<13x21x3xi1>) -> tensor<13x1x3xi1>
  return %0 : tensor<13x1x3xi1>
}

// KW-LABEL: func.func @reduce_any(
// KW-NEXT: %0 = tosa.reduce_any %arg0 axis(1) : (tensor<13x21x3xi1>) -> tensor<13x1x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x1x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @reduce_any(
// AD-NEXT: %0 = tosa.reduce_any %arg0 {axis = 1 : i32} : (tensor<13x21x3xi1>) -> tensor<13x1x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x1x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reduce_any"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi1>):
// GEN-NEXT: %0 = "tosa.reduce_any"(%arg0) <{axis = 1 : i32}> : (tensor<13x21x3xi1>) -> tensor<13x1x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<13x1x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reduce_max(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x1xf32> {
  %0 = tosa.reduce_max %arg0 axis(2) : (tensor<13x21x3xf32>) -> tensor<13x21x1xf32>
  return %0 : tensor<13x21x1xf32>
}

// KW-LABEL: func.func @reduce_max(
// KW-NEXT: %0 = tosa.reduce_max %arg0 axis(2) : (tensor<13x21x3xf32>) -> tensor<13x21x1xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x1xf32>
// KW-NEXT: }

// AD-LABEL: func.func @reduce_max(
// AD-NEXT: %0 = tosa.reduce_max %arg0 {axis = 2 : i32} : (tensor<13x21x3xf32>) -> tensor<13x21x1xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x1xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reduce_max"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.reduce_max"(%arg0) <{axis = 2 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<13x21x3xf32>) -> tensor<13x21x1xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x1xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reduce_max_nan_ignore(%arg0: tensor<13x21x3xf32>) -> tensor<13x1x3xf32> {
  %0 = tosa.reduce_max %arg0 axis(1) nan_mode<IGNORE> : (tensor<13x21x3xf32>) -> tensor<13x1x3xf32>
  return %0 : tensor<13x1x3xf32>
}

// KW-LABEL: func.func @reduce_max_nan_ignore(
// KW-NEXT: %0 = tosa.reduce_max %arg0 axis(1) nan_mode<IGNORE> : (tensor<13x21x3xf32>) -> tensor<13x1x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x1x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @reduce_max_nan_ignore(
// AD-NEXT: %0 = tosa.reduce_max %arg0 {axis = 1 : i32, nan_mode = IGNORE} : (tensor<13x21x3xf32>) -> tensor<13x1x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x1x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reduce_max_nan_ignore"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.reduce_max"(%arg0) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<13x21x3xf32>) -> tensor<13x1x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x1x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reduce_min(%arg0: tensor<13x21x3xi8>) -> tensor<13x1x3xi8> {
  %0 = tosa.reduce_min %arg0 axis(1) : (tensor<13x21x3xi8>) -> tensor<13x1x3xi8>
  return %0 : tensor<13x1x3xi8>
}

// KW-LABEL: func.func @reduce_min(
// KW-NEXT: %0 = tosa.reduce_min %arg0 axis(1) : (tensor<13x21x3xi8>) -> tensor<13x1x3xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x1x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @reduce_min(
// AD-NEXT: %0 = tosa.reduce_min %arg0 {axis = 1 : i32} : (tensor<13x21x3xi8>) -> tensor<13x1x3xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x1x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reduce_min"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi8>):
// GEN-NEXT: %0 = "tosa.reduce_min"(%arg0) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<13x21x3xi8>) -> tensor<13x1x3xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<13x1x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reduce_min_nan_ignore(%arg0: tensor<13x21x3xbf16>) -> tensor<13x21x1xbf16> {
  %0 = tosa.reduce_min %arg0 axis(2) nan_mode<IGNORE> : (tensor<13x21x3xbf16>) -> tensor<13x21x1xbf16>
  return %0 : tensor<13x21x1xbf16>
}

// KW-LABEL: func.func @reduce_min_nan_ignore(
// KW-NEXT: %0 = tosa.reduce_min %arg0 axis(2) nan_mode<IGNORE> : (tensor<13x21x3xbf16>) -> tensor<13x21x1xbf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x1xbf16>
// KW-NEXT: }

// AD-LABEL: func.func @reduce_min_nan_ignore(
// AD-NEXT: %0 = tosa.reduce_min %arg0 {axis = 2 : i32, nan_mode = IGNORE} : (tensor<13x21x3xbf16>) -> tensor<13x21x1xbf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x1xbf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reduce_min_nan_ignore"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xbf16>):
// GEN-NEXT: %0 = "tosa.reduce_min"(%arg0) <{axis = 2 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<13x21x3xbf16>) -> tensor<13x21x1xbf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x1xbf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reduce_product(%arg0: tensor<13x21x3xf32>) -> tensor<1x21x3xf32> {
  %0 = tosa.reduce_product %arg0 axis(0) : (tensor<13x21x3xf32>) -> tensor<1x21x3xf32>
  return %0 : tensor<1x21x3xf32>
}

// KW-LABEL: func.func @reduce_product(
// KW-NEXT: %0 = tosa.reduce_product %arg0 axis(0) : (tensor<13x21x3xf32>) -> tensor<1x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<1x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @reduce_product(
// AD-NEXT: %0 = tosa.reduce_product %arg0 {axis = 0 : i32} : (tensor<13x21x3xf32>) -> tensor<1x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<1x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reduce_product"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.reduce_product"(%arg0) <{axis = 0 : i32}> : (tensor<13x21x3xf32>) -> tensor<1x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<1x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reduce_sum(%arg0: tensor<13x21x3xi32>) -> tensor<13x1x3xi32> {
  %0 = tosa.reduce_sum %arg0 axis(1) : (tensor<13x21x3xi32>) -> tensor<13x1x3xi32>
  return %0 : tensor<13x1x3xi32>
}

// KW-LABEL: func.func @reduce_sum(
// KW-NEXT: %0 = tosa.reduce_sum %arg0 axis(1) : (tensor<13x21x3xi32>) -> tensor<13x1x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x1x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @reduce_sum(
// AD-NEXT: %0 = tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<13x21x3xi32>) -> tensor<13x1x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x1x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reduce_sum"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.reduce_sum"(%arg0) <{axis = 1 : i32}> : (tensor<13x21x3xi32>) -> tensor<13x1x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x1x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()
