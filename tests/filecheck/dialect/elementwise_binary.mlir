// Round trip of spec chapter 2.5 Elementwise Binary Operators: ADD ... TABLE
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @add(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.add %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @add(
// KW-NEXT: %0 = tosa.add %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @add(
// AD-NEXT: %0 = tosa.add %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "add"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.add"(%arg0, %arg1) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @add_broadcast(%arg0: tensor<13x1x3xf32>, %arg1: tensor<1x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.add %arg0, %arg1 : (tensor<13x1x3xf32>, tensor<1x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @add_broadcast(
// KW-NEXT: %0 = tosa.add %arg0, %arg1 : (tensor<13x1x3xf32>, tensor<1x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @add_broadcast(
// AD-NEXT: %0 = tosa.add %arg0, %arg1 : (tensor<13x1x3xf32>, tensor<1x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "add_broadcast"
// GEN-NEXT: ^bb0(%arg0: tensor<13x1x3xf32>, %arg1: tensor<1x21x3xf32>):
// GEN-NEXT: %0 = "tosa.add"(%arg0, %arg1) : (tensor<13x1x3xf32>, tensor<1x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @arithmetic_right_shift(%arg0: tensor<13x21x3xi8>, %arg1: tensor<13x21x3xi8>) -> tensor<13x21x3xi8> {
  %0 = tosa.arithmetic_right_shift %arg0, %arg1 round(true) : (tensor<13x21x3xi8>, tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
  return %0 : tensor<13x21x3xi8>
}

// KW-LABEL: func.func @arithmetic_right_shift(
// KW-NEXT: %0 = tosa.arithmetic_right_shift %arg0, %arg1 round(true) : (tensor<13x21x3xi8>, tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @arithmetic_right_shift(
// AD-NEXT: %0 = tosa.arithmetic_right_shift %arg0, %arg1 {round = true} : (tensor<13x21x3xi8>, tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "arithmetic_right_shift"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi8>, %arg1: tensor<13x21x3xi8>):
// GEN-NEXT: %0 = "tosa.arithmetic_right_shift"(%arg0, %arg1) <{round = true}> : (tensor<13x21x3xi8>, tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @arithmetic_right_shift_no_round(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.arithmetic_right_shift %arg0, %arg1 round(false) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @arithmetic_right_shift_no_round(
// KW-NEXT: %0 = tosa.arithmetic_right_shift %arg0, %arg1 round(false) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @arithmetic_right_shift_no_round(
// AD-NEXT: %0 = tosa.arithmetic_right_shift %arg0, %arg1 {round = false} : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "arithmetic_right_shift_no_round"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.arithmetic_right_shift"(%arg0, %arg1) <{round = false}> : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @bitwise_and(%arg0: tensor<13x21x3xi16>, %arg1: tensor<13x21x3xi16>) -> tensor<13x21x3xi16> {
  %0 = tosa.bitwise_and %arg0, %arg1 : (tensor<13x21x3xi16>, tensor<13x21x3xi16>) -> tensor<13x21x3xi16>
  return %0 : tensor<13x21x3xi16>
}

// KW-LABEL: func.func @bitwise_and(
// KW-NEXT: %0 = tosa.bitwise_and %arg0, %arg1 : (tensor<13x21x3xi16>, tensor<13x21x3xi16>) -> tensor<13x21x3xi16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi16>
// KW-NEXT: }

// AD-LABEL: func.func @bitwise_and(
// AD-NEXT: %0 = tosa.bitwise_and %arg0, %arg1 : (tensor<13x21x3xi16>, tensor<13x21x3xi16>) -> tensor<13x21x3xi16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "bitwise_and"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi16>, %arg1: tensor<13x21x3xi16>):
// GEN-NEXT: %0 = "tosa.bitwise_and"(%arg0, %arg1) : (tensor<13x21x3xi16>, tensor<13x21x3xi16>) -> tensor<13x21x3xi16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @bitwise_or(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.bitwise_or %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @bitwise_or(
// KW-NEXT: %0 = tosa.bitwise_or %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @bitwise_or(
// AD-NEXT: %0 = tosa.bitwise_or %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "bitwise_or"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.bitwise_or"(%arg0, %arg1) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @bitwise_xor(%arg0: tensor<13x21x3xi8>, %arg1: tensor<13x21x3xi8>) -> tensor<13x21x3xi8> {
  %0 = tosa.bitwise_xor %arg0, %arg1 : (tensor<13x21x3xi8>, tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
  return %0 : tensor<13x21x3xi8>
}

// KW-LABEL: func.func @bitwise_xor(
// KW-NEXT: %0 = tosa.bitwise_xor %arg0, %arg1 : (tensor<13x21x3xi8>, tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @bitwise_xor(
// AD-NEXT: %0 = tosa.bitwise_xor %arg0, %arg1 : (tensor<13x21x3xi8>, tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "bitwise_xor"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi8>, %arg1: tensor<13x21x3xi8>):
// GEN-NEXT: %0 = "tosa.bitwise_xor"(%arg0, %arg1) : (tensor<13x21x3xi8>, tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @intdiv(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.intdiv %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @intdiv(
// KW-NEXT: %0 = tosa.intdiv %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @intdiv(
// AD-NEXT: %0 = tosa.intdiv %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "intdiv"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.intdiv"(%arg0, %arg1) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @logical_and(%arg0: tensor<13x21x3xi1>, %arg1: tensor<13x21x3xi1>) -> tensor<13x21x3xi1> {
  %0 = tosa.logical_and %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// KW-LABEL: func.func @logical_and(
// KW-NEXT: %0 = tosa.logical_and %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @logical_and(
// AD-NEXT: %0 = tosa.logical_and %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "logical_and"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi1>, %arg1: tensor<13x21x3xi1>):
// GEN-NEXT: %0 = "tosa.logical_and"(%arg0, %arg1) : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @logical_left_shift(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.logical_left_shift %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @logical_left_shift(
// KW-NEXT: %0 = tosa.logical_left_shift %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @logical_left_shift(
// AD-NEXT: %0 = tosa.logical_left_shift %arg0, %arg1 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "logical_left_shift"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.logical_left_shift"(%arg0, %arg1) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @logical_right_shift(%arg0: tensor<13x21x3xi16>, %arg1: tensor<13x21x3xi16>) -> tensor<13x21x3xi16> {
  %0 = tosa.logical_right_shift %arg0, %arg1 : (tensor<13x21x3xi16>, tensor<13x21x3xi16>) -> tensor<13x21x3xi16>
  return %0 : tensor<13x21x3xi16>
}

// KW-LABEL: func.func @logical_right_shift(
// KW-NEXT: %0 = tosa.logical_right_shift %arg0, %arg1 : (tensor<13x21x3xi16>, tensor<13x21x3xi16>) -> tensor<13x21x3xi16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi16>
// KW-NEXT: }

// AD-LABEL: func.func @logical_right_shift(
// AD-NEXT: %0 = tosa.logical_right_shift %arg0, %arg1 : (tensor<13x21x3xi16>, tensor<13x21x3xi16>) -> tensor<13x21x3xi16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "logical_right_shift"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi16>, %arg1: tensor<13x21x3xi16>):
// GEN-NEXT: %0 = "tosa.logical_right_shift"(%arg0, %arg1) : (tensor<13x21x3xi16>, tensor<13x21x3xi16>) -> tensor<13x21x3xi16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @logical_or(%arg0: tensor<13x21x3xi1>, %arg1: tensor<13x21x3xi1>) -> tensor<13x21x3xi1> {
  %0 = tosa.logical_or %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// KW-LABEL: func.func @logical_or(
// KW-NEXT: %0 = tosa.logical_or %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @logical_or(
// AD-NEXT: %0 = tosa.logical_or %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "logical_or"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi1>, %arg1: tensor<13x21x3xi1>):
// GEN-NEXT: %0 = "tosa.logical_or"(%arg0, %arg1) : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @logical_xor(%arg0: tensor<13x21x3xi1>, %arg1: tensor<13x21x3xi1>) -> tensor<13x21x3xi1> {
  %0 = tosa.logical_xor %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// KW-LABEL: func.func @logical_xor(
// KW-NEXT: %0 = tosa.logical_xor %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @logical_xor(
// AD-NEXT: %0 = tosa.logical_xor %arg0, %arg1 : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "logical_xor"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi1>, %arg1: tensor<13x21x3xi1>):
// GEN-NEXT: %0 = "tosa.logical_xor"(%arg0, %arg1) : (tensor<13x21x3xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @maximum(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.maximum %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @maximum(
// KW-NEXT: %0 = tosa.maximum %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @maximum(
// AD-NEXT: %0 = tosa.maximum %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "maximum"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.maximum"(%arg0, %arg1) <{nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @maximum_nan_ignore(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.maximum %arg0, %arg1 nan_mode<IGNORE> : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @maximum_nan_ignore(
// KW-NEXT: %0 = tosa.maximum %arg0, %arg1 nan_mode<IGNORE> : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @maximum_nan_ignore(
// AD-NEXT: %0 = tosa.maximum %arg0, %arg1 {nan_mode = IGNORE} : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "maximum_nan_ignore"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.maximum"(%arg0, %arg1) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @minimum_nan_propagate(%arg0: tensor<13x21x3xbf16>, %arg1: tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16> {
  %0 = tosa.minimum %arg0, %arg1 nan_mode<PROPAGATE> : (tensor<13x21x3xbf16>, tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
  return %0 : tensor<13x21x3xbf16>
}

// KW-LABEL: func.func @minimum_nan_propagate(
// KW-NEXT: %0 = tosa.minimum %arg0, %arg1 : (tensor<13x21x3xbf16>, tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xbf16>
// KW-NEXT: }

// AD-LABEL: func.func @minimum_nan_propagate(
// AD-NEXT: %0 = tosa.minimum %arg0, %arg1 : (tensor<13x21x3xbf16>, tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xbf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "minimum_nan_propagate"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xbf16>, %arg1: tensor<13x21x3xbf16>):
// GEN-NEXT: %0 = "tosa.minimum"(%arg0, %arg1) <{nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<13x21x3xbf16>, tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xbf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @mul(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x1x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xf32>, tensor<13x1x3xf32>, tensor<1xi8>) -> tensor<13x21x3xf32>
  return %1 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @mul(
// KW-NEXT: %0 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xf32>, tensor<13x1x3xf32>, tensor<1xi8>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @mul(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xf32>, tensor<13x1x3xf32>, tensor<1xi8>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "mul"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x1x3xf32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %1 = "tosa.mul"(%arg0, %arg1, %0) : (tensor<13x21x3xf32>, tensor<13x1x3xf32>, tensor<1xi8>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%1) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @mul_i32_shift(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.const values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>, tensor<1xi8>) -> tensor<13x21x3xi32>
  return %1 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @mul_i32_shift(
// KW-NEXT: %0 = tosa.const  values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>, tensor<1xi8>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @mul_i32_shift(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xi32>, tensor<13x21x3xi32>, tensor<1xi8>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "mul_i32_shift"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>, %arg1: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %1 = "tosa.mul"(%arg0, %arg1, %0) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>, tensor<1xi8>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%1) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @mul_i8(%arg0: tensor<13x21x3xi8>, %arg1: tensor<13x21x3xi8>) -> tensor<13x21x3xi32> {
  %0 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xi8>, tensor<13x21x3xi8>, tensor<1xi8>) -> tensor<13x21x3xi32>
  return %1 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @mul_i8(
// KW-NEXT: %0 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xi8>, tensor<13x21x3xi8>, tensor<1xi8>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @mul_i8(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %1 = tosa.mul %arg0, %arg1, %0 : (tensor<13x21x3xi8>, tensor<13x21x3xi8>, tensor<1xi8>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "mul_i8"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi8>, %arg1: tensor<13x21x3xi8>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %1 = "tosa.mul"(%arg0, %arg1, %0) : (tensor<13x21x3xi8>, tensor<13x21x3xi8>, tensor<1xi8>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%1) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @pow(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.pow %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @pow(
// KW-NEXT: %0 = tosa.pow %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @pow(
// AD-NEXT: %0 = tosa.pow %arg0, %arg1 : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "pow"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.pow"(%arg0, %arg1) : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @sub(%arg0: tensor<13x21x3xf16>, %arg1: tensor<13x21x3xf16>) -> tensor<13x21x3xf16> {
  %0 = tosa.sub %arg0, %arg1 : (tensor<13x21x3xf16>, tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
  return %0 : tensor<13x21x3xf16>
}

// KW-LABEL: func.func @sub(
// KW-NEXT: %0 = tosa.sub %arg0, %arg1 : (tensor<13x21x3xf16>, tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// KW-NEXT: }

// AD-LABEL: func.func @sub(
// AD-NEXT: %0 = tosa.sub %arg0, %arg1 : (tensor<13x21x3xf16>, tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "sub"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf16>, %arg1: tensor<13x21x3xf16>):
// GEN-NEXT: %0 = "tosa.sub"(%arg0, %arg1) : (tensor<13x21x3xf16>, tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @table(%arg0: tensor<64xi8>, %arg1: tensor<256xi8>) -> tensor<64xi8> {
  %0 = tosa.table %arg0, %arg1 : (tensor<64xi8>, tensor<256xi8>) -> tensor<64xi8>
  return %0 : tensor<64xi8>
}

// KW-LABEL: func.func @table(
// KW-NEXT: %0 = tosa.table %arg0, %arg1 : (tensor<64xi8>, tensor<256xi8>) -> tensor<64xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<64xi8>
// KW-NEXT: }

// AD-LABEL: func.func @table(
// AD-NEXT: %0 = tosa.table %arg0, %arg1 : (tensor<64xi8>, tensor<256xi8>) -> tensor<64xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<64xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "table"
// GEN-NEXT: ^bb0(%arg0: tensor<64xi8>, %arg1: tensor<256xi8>):
// GEN-NEXT: %0 = "tosa.table"(%arg0, %arg1) : (tensor<64xi8>, tensor<256xi8>) -> tensor<64xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<64xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @table_i16(%arg0: tensor<4x16xi16>, %arg1: tensor<513xi16>) -> tensor<4x16xi32> {
  %0 = tosa.table %arg0, %arg1 : (tensor<4x16xi16>, tensor<513xi16>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}

// KW-LABEL: func.func @table_i16(
// KW-NEXT: %0 = tosa.table %arg0, %arg1 : (tensor<4x16xi16>, tensor<513xi16>) -> tensor<4x16xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<4x16xi32>
// KW-NEXT: }

// AD-LABEL: func.func @table_i16(
// AD-NEXT: %0 = tosa.table %arg0, %arg1 : (tensor<4x16xi16>, tensor<513xi16>) -> tensor<4x16xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<4x16xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "table_i16"
// GEN-NEXT: ^bb0(%arg0: tensor<4x16xi16>, %arg1: tensor<513xi16>):
// GEN-NEXT: %0 = "tosa.table"(%arg0, %arg1) : (tensor<4x16xi16>, tensor<513xi16>) -> tensor<4x16xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<4x16xi32>) -> ()
// GEN-NEXT: }) : () -> ()
