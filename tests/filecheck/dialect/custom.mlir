// Round trip of spec chapter 2.15 Custom Operators: CUSTOM (zero, one and several inputs/results)
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @custom(%arg0: tensor<10xi32>) -> tensor<10xi32> {
  %0 = tosa.custom %arg0 operator_name("custom_test") domain_name("tosa_mlir_test") implementation_attrs("") : (tensor<10xi32>) -> tensor<10xi32>
  return %0 : tensor<10xi32>
}

// KW-LABEL: func.func @custom(
// KW-NEXT: %0 = tosa.custom %arg0 operator_name("custom_test") domain_name("tosa_mlir_test") implementation_attrs("") : (tensor<10xi32>) -> tensor<10xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<10xi32>
// KW-NEXT: }

// AD-LABEL: func.func @custom(
// AD-NEXT: %0 = tosa.custom %arg0 {domain_name = "tosa_mlir_test", implementation_attrs = "", operator_name = "custom_test"} : (tensor<10xi32>) -> tensor<10xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<10xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "custom"
// GEN-NEXT: ^bb0(%arg0: tensor<10xi32>):
// GEN-NEXT: %0 = "tosa.custom"(%arg0) <{domain_name = "tosa_mlir_test", implementation_attrs = "", operator_name = "custom_test"}> : (tensor<10xi32>) -> tensor<10xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<10xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @custom_several(%arg0: tensor<10xi32>, %arg1: tensor<4xf32>) -> (tensor<10xi32>, tensor<4xf32>) {
  %0:2 = tosa.custom %arg0, %arg1 operator_name("split") domain_name("com.example") implementation_attrs("{\22axis\22: 0}") : (tensor<10xi32>, tensor<4xf32>) -> (tensor<10xi32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<10xi32>, tensor<4xf32>
}

// KW-LABEL: func.func @custom_several(
// KW-NEXT: {{.+}} = tosa.custom %arg0, %arg1 operator_name("split") domain_name("com.example") implementation_attrs("{\22axis\22: 0}") : (tensor<10xi32>, tensor<4xf32>) -> (tensor<10xi32>, tensor<4xf32>)
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<10xi32>, tensor<4xf32>
// KW-NEXT: }

// AD-LABEL: func.func @custom_several(
// AD-NEXT: {{.+}} = tosa.custom %arg0, %arg1 {domain_name = "com.example", implementation_attrs = "{\22axis\22: 0}", operator_name = "split"} : (tensor<10xi32>, tensor<4xf32>) -> (tensor<10xi32>, tensor<4xf32>)
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<10xi32>, tensor<4xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "custom_several"
// GEN-NEXT: ^bb0(%arg0: tensor<10xi32>, %arg1: tensor<4xf32>):
// GEN-NEXT: {{.+}} = "tosa.custom"(%arg0, %arg1) <{domain_name = "com.example", implementation_attrs = "{\22axis\22: 0}", operator_name = "split"}> : (tensor<10xi32>, tensor<4xf32>) -> (tensor<10xi32>, tensor<4xf32>)
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<10xi32>, tensor<4xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @custom_no_results(%arg0: tensor<10xi32>) {
  tosa.custom %arg0 operator_name("sink") domain_name("com.example") implementation_attrs("") : (tensor<10xi32>) -> ()
  return
}

// KW-LABEL: func.func @custom_no_results(
// KW-NEXT: tosa.custom %arg0 operator_name("sink") domain_name("com.example") implementation_attrs("") : (tensor<10xi32>) -> ()
// KW-NEXT: {{(func[.])?}}return
// KW-NEXT: }

// AD-LABEL: func.func @custom_no_results(
// AD-NEXT: tosa.custom %arg0 {domain_name = "com.example", implementation_attrs = "", operator_name = "sink"} : (tensor<10xi32>) -> ()
// AD-NEXT: {{(func[.])?}}return
// AD-NEXT: }

// GEN-LABEL: sym_name = "custom_no_results"
// GEN-NEXT: ^bb0(%arg0: tensor<10xi32>):
// GEN-NEXT: "tosa.custom"(%arg0) <{domain_name = "com.example", implementation_attrs = "", operator_name = "sink"}> : (tensor<10xi32>) -> ()
// GEN-NEXT: "func.return"() : () -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @custom_no_inputs() -> tensor<3xf32> {
  %0 = tosa.custom operator_name("source") domain_name("com.example") implementation_attrs("x=1") : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// KW-LABEL: func.func @custom_no_inputs(
// KW-NEXT: %0 = tosa.custom  operator_name("source") domain_name("com.example") implementation_attrs("x=1") : () -> tensor<3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @custom_no_inputs(
// AD-NEXT: %0 = tosa.custom  {domain_name = "com.example", implementation_attrs = "x=1", operator_name = "source"} : () -> tensor<3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "custom_no_inputs"
// GEN-NEXT: %0 = "tosa.custom"() <{domain_name = "com.example", implementation_attrs = "x=1", operator_name = "source"}> : () -> tensor<3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<3xf32>) -> ()
// GEN-NEXT: }) : () -> ()
