// Round trip of spec chapter 2.17 Variable Operators: VARIABLE VARIABLE_WRITE VARIABLE_READ
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

module {
  tosa.variable @stored_var = dense<-1> : tensor<2x4x8xi8>
  tosa.variable @uninit : tensor<2x4x8xf32>
  func.func @variable_read_write(%arg0: tensor<2x4x8xi8>) -> tensor<2x4x8xi8> {
    tosa.variable_write @stored_var, %arg0 : tensor<2x4x8xi8>
    %0 = tosa.variable_read @stored_var : tensor<2x4x8xi8>
    return %0 : tensor<2x4x8xi8>
  }
  func.func @variable_uninit(%arg0: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
    %0 = tosa.variable_read @uninit : tensor<2x4x8xf32>
    tosa.variable_write @uninit, %arg0 : tensor<2x4x8xf32>
    return %0 : tensor<2x4x8xf32>
  }
}

// KW: tosa.variable @stored_var = dense<-1> : tensor<2x4x8xi8>
// KW-NEXT: tosa.variable @uninit : tensor<2x4x8xf32>
// KW-LABEL: func.func @variable_read_write(
// KW-NEXT: tosa.variable_write @stored_var, %{{[a-z0-9_#]+}} : tensor<2x4x8xi8>
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.variable_read @stored_var : tensor<2x4x8xi8>
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<2x4x8xi8>
// KW-NEXT: }
// KW-LABEL: func.func @variable_uninit(
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.variable_read @uninit : tensor<2x4x8xf32>
// KW-NEXT: tosa.variable_write @uninit, %{{[a-z0-9_#]+}} : tensor<2x4x8xf32>
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<2x4x8xf32>
// KW-NEXT: }

// AD: tosa.variable @stored_var = dense<-1> : tensor<2x4x8xi8>
// AD-NEXT: tosa.variable @uninit : tensor<2x4x8xf32>
// AD-LABEL: func.func @variable_read_write(
// AD-NEXT: tosa.variable_write @stored_var, %{{[a-z0-9_#]+}} : tensor<2x4x8xi8>
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.variable_read @stored_var : tensor<2x4x8xi8>
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<2x4x8xi8>
// AD-NEXT: }
// AD-LABEL: func.func @variable_uninit(
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.variable_read @uninit : tensor<2x4x8xf32>
// AD-NEXT: tosa.variable_write @uninit, %{{[a-z0-9_#]+}} : tensor<2x4x8xf32>
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<2x4x8xf32>
// AD-NEXT: }

// GEN: "tosa.variable"() <{initial_value = dense<-1> : tensor<2x4x8xi8>, sym_name = "stored_var", type = i8, var_shape = dense<[2, 4, 8]> : tensor<3xindex>}> : () -> ()
// GEN-NEXT: "tosa.variable"() <{sym_name = "uninit", type = f32, var_shape = dense<[2, 4, 8]> : tensor<3xindex>}> : () -> ()
// GEN-LABEL: sym_name = "variable_read_write"
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<2x4x8xi8>):
// GEN-NEXT: "tosa.variable_write"(%{{[a-z0-9_#]+}}) <{name = "stored_var"}> : (tensor<2x4x8xi8>) -> ()
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.variable_read"() <{name = "stored_var"}> : () -> tensor<2x4x8xi8>
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}) : (tensor<2x4x8xi8>) -> ()
// GEN-NEXT: }) : () -> ()
// GEN-LABEL: sym_name = "variable_uninit"
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<2x4x8xf32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.variable_read"() <{name = "uninit"}> : () -> tensor<2x4x8xf32>
// GEN-NEXT: "tosa.variable_write"(%{{[a-z0-9_#]+}}) <{name = "uninit"}> : (tensor<2x4x8xf32>) -> ()
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}) : (tensor<2x4x8xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

module {
  tosa.variable @scalar_var = dense<1.500000e+00> : tensor<f16>
  func.func @variable_scalar() -> tensor<f16> {
    %0 = tosa.variable_read @scalar_var : tensor<f16>
    return %0 : tensor<f16>
  }
}

// KW: tosa.variable @scalar_var = dense<1.500000e+00> : tensor<f16>
// KW-LABEL: func.func @variable_scalar(
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.variable_read @scalar_var : tensor<f16>
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<f16>
// KW-NEXT: }

// AD: tosa.variable @scalar_var = dense<1.500000e+00> : tensor<f16>
// AD-LABEL: func.func @variable_scalar(
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.variable_read @scalar_var : tensor<f16>
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<f16>
// AD-NEXT: }

// GEN: "tosa.variable"() <{initial_value = dense<1.500000e+00> : tensor<f16>, sym_name = "scalar_var", type = f16, var_shape = dense<> : tensor<0xindex>}> : () -> ()
// GEN-LABEL: sym_name = "variable_scalar"
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.variable_read"() <{name = "scalar_var"}> : () -> tensor<f16>
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}) : (tensor<f16>) -> ()
// GEN-NEXT: }) : () -> ()
