// Round trip of spec chapter 2.6 Elementwise Unary Operators: ABS ... SIN (also unranked and dynamic tensors)
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @abs(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.abs %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @abs(
// KW-NEXT: %0 = tosa.abs %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @abs(
// AD-NEXT: %0 = tosa.abs %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "abs"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.abs"(%arg0) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @abs_i32(%arg0: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.abs %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @abs_i32(
// KW-NEXT: %0 = tosa.abs %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @abs_i32(
// AD-NEXT: %0 = tosa.abs %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "abs_i32"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.abs"(%arg0) : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @bitwise_not(%arg0: tensor<13x21x3xi8>) -> tensor<13x21x3xi8> {
  %0 = tosa.bitwise_not %arg0 : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
  return %0 : tensor<13x21x3xi8>
}

// KW-LABEL: func.func @bitwise_not(
// KW-NEXT: %0 = tosa.bitwise_not %arg0 : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @bitwise_not(
// AD-NEXT: %0 = tosa.bitwise_not %arg0 : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "bitwise_not"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi8>):
// GEN-NEXT: %0 = "tosa.bitwise_not"(%arg0) : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @ceil(%arg0: tensor<13x21x3xf16>) -> tensor<13x21x3xf16> {
  %0 = tosa.ceil %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
  return %0 : tensor<13x21x3xf16>
}

// KW-LABEL: func.func @ceil(
// KW-NEXT: %0 = tosa.ceil %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// KW-NEXT: }

// AD-LABEL: func.func @ceil(
// AD-NEXT: %0 = tosa.ceil %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "ceil"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf16>):
// GEN-NEXT: %0 = "tosa.ceil"(%arg0) : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @clz(%arg0: tensor<13x21x3xi32>) -> tensor<13x21x3xi32> {
  %0 = tosa.clz %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
  return %0 : tensor<13x21x3xi32>
}

// KW-LABEL: func.func @clz(
// KW-NEXT: %0 = tosa.clz %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @clz(
// AD-NEXT: %0 = tosa.clz %arg0 : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "clz"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi32>):
// GEN-NEXT: %0 = "tosa.clz"(%arg0) : (tensor<13x21x3xi32>) -> tensor<13x21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @cos(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.cos %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @cos(
// KW-NEXT: %0 = tosa.cos %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @cos(
// AD-NEXT: %0 = tosa.cos %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "cos"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.cos"(%arg0) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @exp(%arg0: tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16> {
  %0 = tosa.exp %arg0 : (tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
  return %0 : tensor<13x21x3xbf16>
}

// KW-LABEL: func.func @exp(
// KW-NEXT: %0 = tosa.exp %arg0 : (tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xbf16>
// KW-NEXT: }

// AD-LABEL: func.func @exp(
// AD-NEXT: %0 = tosa.exp %arg0 : (tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xbf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "exp"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xbf16>):
// GEN-NEXT: %0 = "tosa.exp"(%arg0) : (tensor<13x21x3xbf16>) -> tensor<13x21x3xbf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xbf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @floor(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.floor %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @floor(
// KW-NEXT: %0 = tosa.floor %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @floor(
// AD-NEXT: %0 = tosa.floor %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "floor"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.floor"(%arg0) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @log(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.log %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @log(
// KW-NEXT: %0 = tosa.log %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @log(
// AD-NEXT: %0 = tosa.log %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "log"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.log"(%arg0) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @logical_not(%arg0: tensor<13x21x3xi1>) -> tensor<13x21x3xi1> {
  %0 = tosa.logical_not %arg0 : (tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// KW-LABEL: func.func @logical_not(
// KW-NEXT: %0 = tosa.logical_not %arg0 : (tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// KW-NEXT: }

// AD-LABEL: func.func @logical_not(
// AD-NEXT: %0 = tosa.logical_not %arg0 : (tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xi1>
// AD-NEXT: }

// GEN-LABEL: sym_name = "logical_not"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi1>):
// GEN-NEXT: %0 = "tosa.logical_not"(%arg0) : (tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xi1>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @negate(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.const values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
  %1 = tosa.negate %arg0, %0, %0 : (tensor<13x21x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<13x21x3xf32>
  return %1 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @negate(
// KW-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// KW-NEXT: %1 = tosa.negate %arg0, %0, %0 : (tensor<13x21x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @negate(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// AD-NEXT: %1 = tosa.negate %arg0, %0, %0 : (tensor<13x21x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "negate"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// GEN-NEXT: %1 = "tosa.negate"(%arg0, %0, %0) : (tensor<13x21x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%1) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @negate_i8(%arg0: tensor<13x21x3xi8>) -> tensor<13x21x3xi8> {
  %0 = tosa.const values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.const values(dense<-2> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.negate %arg0, %0, %1 : (tensor<13x21x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<13x21x3xi8>
  return %2 : tensor<13x21x3xi8>
}

// KW-LABEL: func.func @negate_i8(
// KW-NEXT: %0 = tosa.const  values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %1 = tosa.const  values(dense<-2> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %2 = tosa.negate %arg0, %0, %1 : (tensor<13x21x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<13x21x3xi8>
// KW-NEXT: {{(func[.])?}}return %2 : tensor<13x21x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @negate_i8(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %2 = tosa.negate %arg0, %0, %1 : (tensor<13x21x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<13x21x3xi8>
// AD-NEXT: {{(func[.])?}}return %2 : tensor<13x21x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "negate_i8"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi8>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %2 = "tosa.negate"(%arg0, %0, %1) : (tensor<13x21x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<13x21x3xi8>
// GEN-NEXT: "func.return"(%2) : (tensor<13x21x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reciprocal(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.reciprocal %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @reciprocal(
// KW-NEXT: %0 = tosa.reciprocal %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @reciprocal(
// AD-NEXT: %0 = tosa.reciprocal %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reciprocal"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.reciprocal"(%arg0) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @rsqrt(%arg0: tensor<13x21x3xf16>) -> tensor<13x21x3xf16> {
  %0 = tosa.rsqrt %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
  return %0 : tensor<13x21x3xf16>
}

// KW-LABEL: func.func @rsqrt(
// KW-NEXT: %0 = tosa.rsqrt %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// KW-NEXT: }

// AD-LABEL: func.func @rsqrt(
// AD-NEXT: %0 = tosa.rsqrt %arg0 : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "rsqrt"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf16>):
// GEN-NEXT: %0 = "tosa.rsqrt"(%arg0) : (tensor<13x21x3xf16>) -> tensor<13x21x3xf16>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @sin(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.sin %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @sin(
// KW-NEXT: %0 = tosa.sin %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @sin(
// AD-NEXT: %0 = tosa.sin %arg0 : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "sin"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.sin"(%arg0) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @abs_unranked(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  %0 = tosa.abs %arg0 : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// KW-LABEL: func.func @abs_unranked(
// KW-NEXT: %0 = tosa.abs %arg0 : (tensor<*xf32>) -> tensor<*xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<*xf32>
// KW-NEXT: }

// AD-LABEL: func.func @abs_unranked(
// AD-NEXT: %0 = tosa.abs %arg0 : (tensor<*xf32>) -> tensor<*xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<*xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "abs_unranked"
// GEN-NEXT: ^bb0(%arg0: tensor<*xf32>):
// GEN-NEXT: %0 = "tosa.abs"(%arg0) : (tensor<*xf32>) -> tensor<*xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<*xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @exp_dynamic(%arg0: tensor<?x21x3xf32>) -> tensor<?x21x3xf32> {
  %0 = tosa.exp %arg0 : (tensor<?x21x3xf32>) -> tensor<?x21x3xf32>
  return %0 : tensor<?x21x3xf32>
}

// KW-LABEL: func.func @exp_dynamic(
// KW-NEXT: %0 = tosa.exp %arg0 : (tensor<?x21x3xf32>) -> tensor<?x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<?x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @exp_dynamic(
// AD-NEXT: %0 = tosa.exp %arg0 : (tensor<?x21x3xf32>) -> tensor<?x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<?x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "exp_dynamic"
// GEN-NEXT: ^bb0(%arg0: tensor<?x21x3xf32>):
// GEN-NEXT: %0 = "tosa.exp"(%arg0) : (tensor<?x21x3xf32>) -> tensor<?x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<?x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()
