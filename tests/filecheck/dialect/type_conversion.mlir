// Round trip of spec chapter 2.13 Type Conversion: CAST RESCALE
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @cast(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf16> {
  %0 = tosa.cast %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf16>
  return %0 : tensor<13x21x3xf16>
}

// KW-LABEL: func.func @cast(
// KW-NEXT: %0 = tosa.cast %arg0  : (tensor<13x21x3xf32>) -> tensor<13x21x3xf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// KW-NEXT: }

// AD-LABEL: func.func @cast(
// AD-NEXT: %0 = tosa.cast %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "cast"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.cast"(%arg0) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @cast_i1_to_i32(%arg0: tensor<13x21x3xi1>) -> tensor<13x21x3xi32> {
  %0 = tosa.cast %arg0 : (tensor<13x21x3xi1>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @cast_i1_to_i32(
// KW-NEXT: %0 = tosa.cast %arg0  : (tensor<13x21x3xi1>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @cast_i1_to_i32(
// AD-NEXT: %0 = tosa.cast %arg0 : (tensor<13x21x3xi1>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "cast_i1_to_i32"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi1>):
// GEN-NEXT: %0 = "tosa.cast"(%arg0) : (tensor<13x21x3xi1>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @cast_fp8(%arg0: tensor<4x32xf8E4M3FN>) -> tensor<4x32xbf16> {
  %0 = tosa.cast %arg0 : (tensor<4x32xf8E4M3FN>) -> tensor<4x32xbf16>
  return %0 : tensor<4x32xbf16>
}

// KW-LABEL: func.func @cast_fp8(
// KW-NEXT: %0 = tosa.cast %arg0  : (tensor<4x32xf8E4M3FN>) -> tensor<4x32xbf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<4x32xbf16>
// KW-NEXT: }

// AD-LABEL: func.func @cast_fp8(
// AD-NEXT: %0 = tosa.cast %arg0 : (tensor<4x32xf8E4M3FN>) -> tensor<4x32xbf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<4x32xbf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "cast_fp8"
// GEN-NEXT: ^bb0(%arg0: tensor<4x32xf8E4M3FN>):
// GEN-NEXT: %0 = "tosa.cast"(%arg0) : (tensor<4x32xf8E4M3FN>) -> tensor<4x32xbf16>
// GEN-NEXT: "func.return"(%0) : (tensor<4x32xbf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @cast_f8e5m2(%arg0: tensor<4x32xf32>) -> tensor<4x32xf8E5M2> {
  %0 = tosa.cast %arg0 : (tensor<4x32xf32>) -> tensor<4x32xf8E5M2>
  return %0 : tensor<4x32xf8E5M2>
}

// KW-LABEL: func.func @cast_f8e5m2(
// KW-NEXT: %0 = tosa.cast %arg0  : (tensor<4x32xf32>) -> tensor<4x32xf8E5M2>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<4x32xf8E5M2>
// KW-NEXT: }

// AD-LABEL: func.func @cast_f8e5m2(
// AD-NEXT: %0 = tosa.cast %arg0 : (tensor<4x32xf32>) -> tensor<4x32xf8E5M2>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<4x32xf8E5M2>
// AD-NEXT: }

// GEN-LABEL: sym_name = "cast_f8e5m2"
// GEN-NEXT: ^bb0(%arg0: tensor<4x32xf32>):
// GEN-NEXT: %0 = "tosa.cast"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32xf8E5M2>
// GEN-NEXT: "func.return"(%0) : (tensor<4x32xf8E5M2>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @rescale(%arg0: tensor<13x21x3xi8>) -> tensor<13x21x3xi32> {
  %0 = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %1 = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.const values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
  %3 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %4 = tosa.rescale %arg0, %0, %1, %2, %3 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<13x21x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<13x21x3xi32>
  return %4 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @rescale(
// KW-NEXT: %0 = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
// KW-NEXT: %1 = tosa.const  values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %2 = tosa.const  values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %3 = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
// KW-NEXT: %4 = tosa.rescale %arg0, %0, %1, %2, %3 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<13x21x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %4 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @rescale(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %2 = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %3 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
// AD-NEXT: %4 = tosa.rescale %arg0, %0, %1, %2, %3 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<13x21x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %4 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "rescale"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi8>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %2 = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %3 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
// GEN-NEXT: %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, scale32 = true}> : (tensor<13x21x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%4) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @rescale_per_channel(%arg0: tensor<2x3xi16>) -> tensor<2x3xi8> {
  %0 = tosa.const values(dense<[16384, 16384, 8192]> : tensor<3xi16>) : () -> tensor<3xi16>
  %1 = tosa.const values(dense<[14, 14, 13]> : tensor<3xi8>) : () -> tensor<3xi8>
  %2 = tosa.const values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %3 = tosa.const values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
  %4 = tosa.rescale %arg0, %0, %1, %2, %3 scale32(false) rounding_mode<SINGLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(true) : (tensor<2x3xi16>, tensor<3xi16>, tensor<3xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<2x3xi8>
  return %4 : tensor<2x3xi8>
}

// KW-LABEL: func.func @rescale_per_channel(
// KW-NEXT: %0 = tosa.const  values(dense<[16384, 16384, 8192]> : tensor<3xi16>) : () -> tensor<3xi16>
// KW-NEXT: %1 = tosa.const  values(dense<[14, 14, 13]> : tensor<3xi8>) : () -> tensor<3xi8>
// KW-NEXT: %2 = tosa.const  values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
// KW-NEXT: %3 = tosa.const  values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %4 = tosa.rescale %arg0, %0, %1, %2, %3 scale32(false) rounding_mode<SINGLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(true) : (tensor<2x3xi16>, tensor<3xi16>, tensor<3xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<2x3xi8>
// KW-NEXT: {{(func[.])?}}return %4 : tensor<2x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @rescale_per_channel(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<[16384, 16384, 8192]> : tensor<3xi16>}> : () -> tensor<3xi16>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<[14, 14, 13]> : tensor<3xi8>}> : () -> tensor<3xi8>
// AD-NEXT: %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
// AD-NEXT: %3 = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %4 = tosa.rescale %arg0, %0, %1, %2, %3 {input_unsigned = false, output_unsigned = true, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = false} : (tensor<2x3xi16>, tensor<3xi16>, tensor<3xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<2x3xi8>
// AD-NEXT: {{(func[.])?}}return %4 : tensor<2x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "rescale_per_channel"
// GEN-NEXT: ^bb0(%arg0: tensor<2x3xi16>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<[16384, 16384, 8192]> : tensor<3xi16>}> : () -> tensor<3xi16>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<[14, 14, 13]> : tensor<3xi8>}> : () -> tensor<3xi8>
// GEN-NEXT: %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
// GEN-NEXT: %3 = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{input_unsigned = false, output_unsigned = true, per_channel = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, scale32 = false}> : (tensor<2x3xi16>, tensor<3xi16>, tensor<3xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<2x3xi8>
// GEN-NEXT: "func.return"(%4) : (tensor<2x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @rescale_inexact(%arg0: tensor<5xi32>) -> tensor<5xi16> {
  %0 = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %1 = tosa.const values(dense<31> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %3 = tosa.const values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %4 = tosa.rescale %arg0, %0, %1, %2, %3 scale32(true) rounding_mode<INEXACT_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<5xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi16>) -> tensor<5xi16>
  return %4 : tensor<5xi16>
}

// KW-LABEL: func.func @rescale_inexact(
// KW-NEXT: %0 = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
// KW-NEXT: %1 = tosa.const  values(dense<31> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %2 = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
// KW-NEXT: %3 = tosa.const  values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
// KW-NEXT: %4 = tosa.rescale %arg0, %0, %1, %2, %3 scale32(true) rounding_mode<INEXACT_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<5xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi16>) -> tensor<5xi16>
// KW-NEXT: {{(func[.])?}}return %4 : tensor<5xi16>
// KW-NEXT: }

// AD-LABEL: func.func @rescale_inexact(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %2 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
// AD-NEXT: %3 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
// AD-NEXT: %4 = tosa.rescale %arg0, %0, %1, %2, %3 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = INEXACT_ROUND, scale32 = true} : (tensor<5xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi16>) -> tensor<5xi16>
// AD-NEXT: {{(func[.])?}}return %4 : tensor<5xi16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "rescale_inexact"
// GEN-NEXT: ^bb0(%arg0: tensor<5xi32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %2 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
// GEN-NEXT: %3 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
// GEN-NEXT: %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, scale32 = true}> : (tensor<5xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi16>) -> tensor<5xi16>
// GEN-NEXT: "func.return"(%4) : (tensor<5xi16>) -> ()
// GEN-NEXT: }) : () -> ()
