// Round trip of spec chapter 2.4 Activation Functions: CLAMP ERF SIGMOID TANH
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @clamp(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.clamp %arg0 min_val(0.000000e+00 : f32) max_val(6.000000e+00 : f32) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @clamp(
// KW-NEXT: %0 = tosa.clamp %arg0 min_val(0.000000e+00 : f32) max_val(6.000000e+00 : f32) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @clamp(
// AD-NEXT: %0 = tosa.clamp %arg0 {max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "clamp"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.clamp"(%arg0) <{max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @clamp_i8(%arg0: tensor<13x21x3xi8>) -> tensor<13x21x3xi8> {
  %0 = tosa.clamp %arg0 min_val(-128 : i8) max_val(127 : i8) : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
  return %0 : tensor<13x21x3xi8>
}

// KW-LABEL: func.func @clamp_i8(
// KW-NEXT: %0 = tosa.clamp %arg0 min_val(-128 : i8) max_val(127 : i8) : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @clamp_i8(
// AD-NEXT: %0 = tosa.clamp %arg0 {max_val = 127 : i8, min_val = -128 : i8} : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "clamp_i8"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi8>):
// GEN-NEXT: %0 = "tosa.clamp"(%arg0) <{max_val = 127 : i8, min_val = -128 : i8, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @clamp_nan_ignore(%arg0: tensor<4x5xf16>) -> tensor<4x5xf16> {
  %0 = tosa.clamp %arg0 min_val(-1.000000e+00 : f16) max_val(1.000000e+00 : f16) nan_mode<IGNORE> : (tensor<4x5xf16>) -> tensor<4x5xf16>
  return %0 : tensor<4x5xf16>
}

// KW-LABEL: func.func @clamp_nan_ignore(
// KW-NEXT: %0 = tosa.clamp %arg0 min_val(-1.000000e+00 : f16) max_val(1.000000e+00 : f16) nan_mode<IGNORE> : (tensor<4x5xf16>) -> tensor<4x5xf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<4x5xf16>
// KW-NEXT: }

// AD-LABEL: func.func @clamp_nan_ignore(
// AD-NEXT: %0 = tosa.clamp %arg0 {max_val = 1.000000e+00 : f16, min_val = -1.000000e+00 : f16, nan_mode = IGNORE} : (tensor<4x5xf16>) -> tensor<4x5xf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<4x5xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "clamp_nan_ignore"
// GEN-NEXT: ^bb0(%arg0: tensor<4x5xf16>):
// GEN-NEXT: %0 = "tosa.clamp"(%arg0) <{max_val = 1.000000e+00 : f16, min_val = -1.000000e+00 : f16, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x5xf16>) -> tensor<4x5xf16>
// GEN-NEXT: "func.return"(%0) : (tensor<4x5xf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @erf(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.erf %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @erf(
// KW-NEXT: %0 = tosa.erf %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @erf(
// AD-NEXT: %0 = tosa.erf %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "erf"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.erf"(%arg0) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @sigmoid(%arg0: tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16> {
  %0 = tosa.sigmoid %arg0 : (tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
  return %0 : tensor<13x21x3xbf16>
}

// KW-LABEL: func.func @sigmoid(
// KW-NEXT: %0 = tosa.sigmoid %arg0 : (tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xbf16>
// KW-NEXT: }

// AD-LABEL: func.func @sigmoid(
// AD-NEXT: %0 = tosa.sigmoid %arg0 : (tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xbf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "sigmoid"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xbf16>):
// GEN-NEXT: %0 = "tosa.sigmoid"(%arg0) : (tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xbf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @tanh(%arg0: tensor<13x21x3xf16>) -> tensor<13x21x3xf16> {
  %0 = tosa.tanh %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
  return %0 : tensor<13x21x3xf16>
}

// KW-LABEL: func.func @tanh(
// KW-NEXT: %0 = tosa.tanh %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// KW-NEXT: }

// AD-LABEL: func.func @tanh(
// AD-NEXT: %0 = tosa.tanh %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "tanh"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf16>):
// GEN-NEXT: %0 = "tosa.tanh"(%arg0) : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf16>) -> ()
// GEN-NEXT: }) : () -> ()
