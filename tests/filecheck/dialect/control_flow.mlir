// Round trip of spec chapter 2.16 Control Flow Operators: COND_IF WHILE_LOOP and tosa.yield
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @cond_if(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<f32> {
  %0 = tosa.cond_if %arg0 (%arg3 = %arg1, %arg4 = %arg2) : tensor<i1> (tensor<f32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %1 = tosa.add %arg3, %arg4 : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  } else {
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %1 = tosa.sub %arg3, %arg4 : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// KW-LABEL: func.func @cond_if(
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.cond_if %{{[a-z0-9_#]+}} (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : tensor<i1> (tensor<f32>, tensor<f32>) -> tensor<f32> {
// KW-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<f32>, %{{[a-z0-9_#]+}}: tensor<f32>):
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.add %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<f32>
// KW-NEXT: } else {
// KW-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<f32>, %{{[a-z0-9_#]+}}: tensor<f32>):
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.sub %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<f32>
// KW-NEXT: }
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<f32>
// KW-NEXT: }

// AD-LABEL: func.func @cond_if(
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.cond_if %{{[a-z0-9_#]+}} (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : tensor<i1> (tensor<f32>, tensor<f32>) -> tensor<f32> {
// AD-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<f32>, %{{[a-z0-9_#]+}}: tensor<f32>):
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.add %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<f32>
// AD-NEXT: } else {
// AD-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<f32>, %{{[a-z0-9_#]+}}: tensor<f32>):
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.sub %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<f32>
// AD-NEXT: }
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<f32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "cond_if"
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i1>, %{{[a-z0-9_#]+}}: tensor<f32>, %{{[a-z0-9_#]+}}: tensor<f32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.cond_if"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) ({
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<f32>, %{{[a-z0-9_#]+}}: tensor<f32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.add"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}) : (tensor<f32>) -> ()
// GEN-NEXT: }, {
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<f32>, %{{[a-z0-9_#]+}}: tensor<f32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.sub"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}) : (tensor<f32>) -> ()
// GEN-NEXT: }) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}) : (tensor<f32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @cond_if_no_inputs(%arg0: tensor<i1>, %arg1: tensor<2xi32>, %arg2: tensor<2xi32>) -> tensor<2xi32> {
  %0 = tosa.cond_if %arg0 : tensor<i1> -> tensor<2xi32> {
    tosa.yield %arg1 : tensor<2xi32>
  } else {
    tosa.yield %arg2 : tensor<2xi32>
  }
  return %0 : tensor<2xi32>
}

// KW-LABEL: func.func @cond_if_no_inputs(
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.cond_if %{{[a-z0-9_#]+}} : tensor<i1> -> tensor<2xi32> {
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<2xi32>
// KW-NEXT: } else {
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<2xi32>
// KW-NEXT: }
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<2xi32>
// KW-NEXT: }

// AD-LABEL: func.func @cond_if_no_inputs(
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.cond_if %{{[a-z0-9_#]+}} : tensor<i1> -> tensor<2xi32> {
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<2xi32>
// AD-NEXT: } else {
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<2xi32>
// AD-NEXT: }
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<2xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "cond_if_no_inputs"
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i1>, %{{[a-z0-9_#]+}}: tensor<2xi32>, %{{[a-z0-9_#]+}}: tensor<2xi32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.cond_if"(%{{[a-z0-9_#]+}}) ({
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}) : (tensor<2xi32>) -> ()
// GEN-NEXT: }, {
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}) : (tensor<2xi32>) -> ()
// GEN-NEXT: }) : (tensor<i1>) -> tensor<2xi32>
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}) : (tensor<2xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @cond_if_two_results(%arg0: tensor<i1>, %arg1: tensor<2xi32>, %arg2: tensor<3xf32>) -> (tensor<2xi32>, tensor<3xf32>) {
  %0:2 = tosa.cond_if %arg0 (%arg3 = %arg1, %arg4 = %arg2) : tensor<i1> (tensor<2xi32>, tensor<3xf32>) -> (tensor<2xi32>, tensor<3xf32>) {
  ^bb0(%arg3: tensor<2xi32>, %arg4: tensor<3xf32>):
    tosa.yield %arg3, %arg4 : tensor<2xi32>, tensor<3xf32>
  } else {
  ^bb0(%arg3: tensor<2xi32>, %arg4: tensor<3xf32>):
    %1 = tosa.abs %arg3 : (tensor<2xi32>) -> tensor<2xi32>
    tosa.yield %1, %arg4 : tensor<2xi32>, tensor<3xf32>
  }
  return %0#0, %0#1 : tensor<2xi32>, tensor<3xf32>
}

// KW-LABEL: func.func @cond_if_two_results(
// KW-NEXT: {{.+}} = tosa.cond_if %{{[a-z0-9_#]+}} (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : tensor<i1> (tensor<2xi32>, tensor<3xf32>) -> (tensor<2xi32>, tensor<3xf32>) {
// KW-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<2xi32>, %{{[a-z0-9_#]+}}: tensor<3xf32>):
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<2xi32>, tensor<3xf32>
// KW-NEXT: } else {
// KW-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<2xi32>, %{{[a-z0-9_#]+}}: tensor<3xf32>):
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.abs %{{[a-z0-9_#]+}} : (tensor<2xi32>) -> tensor<2xi32>
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<2xi32>, tensor<3xf32>
// KW-NEXT: }
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<2xi32>, tensor<3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @cond_if_two_results(
// AD-NEXT: {{.+}} = tosa.cond_if %{{[a-z0-9_#]+}} (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : tensor<i1> (tensor<2xi32>, tensor<3xf32>) -> (tensor<2xi32>, tensor<3xf32>) {
// AD-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<2xi32>, %{{[a-z0-9_#]+}}: tensor<3xf32>):
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<2xi32>, tensor<3xf32>
// AD-NEXT: } else {
// AD-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<2xi32>, %{{[a-z0-9_#]+}}: tensor<3xf32>):
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.abs %{{[a-z0-9_#]+}} : (tensor<2xi32>) -> tensor<2xi32>
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<2xi32>, tensor<3xf32>
// AD-NEXT: }
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<2xi32>, tensor<3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "cond_if_two_results"
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i1>, %{{[a-z0-9_#]+}}: tensor<2xi32>, %{{[a-z0-9_#]+}}: tensor<3xf32>):
// GEN-NEXT: {{.+}} = "tosa.cond_if"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) ({
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<2xi32>, %{{[a-z0-9_#]+}}: tensor<3xf32>):
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<2xi32>, tensor<3xf32>) -> ()
// GEN-NEXT: }, {
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<2xi32>, %{{[a-z0-9_#]+}}: tensor<3xf32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.abs"(%{{[a-z0-9_#]+}}) : (tensor<2xi32>) -> tensor<2xi32>
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<2xi32>, tensor<3xf32>) -> ()
// GEN-NEXT: }) : (tensor<i1>, tensor<2xi32>, tensor<3xf32>) -> (tensor<2xi32>, tensor<3xf32>)
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<2xi32>, tensor<3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @while_loop(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = tosa.const values(dense<10> : tensor<i32>) : () -> tensor<i32>
  %1 = tosa.const values(dense<1> : tensor<i32>) : () -> tensor<i32>
  %2 = tosa.while_loop (%arg1 = %arg0) : (tensor<i32>) -> tensor<i32> {
    %3 = tosa.greater %0, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %3 : tensor<i1>
  } do {
  ^bb0(%arg1: tensor<i32>):
    %3 = tosa.add %arg1, %1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %3 : tensor<i32>
  }
  return %2 : tensor<i32>
}

// KW-LABEL: func.func @while_loop(
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.const  values(dense<10> : tensor<i32>) : () -> tensor<i32>
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.const  values(dense<1> : tensor<i32>) : () -> tensor<i32>
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.while_loop (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : (tensor<i32>) -> tensor<i32> {
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.greater %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<i1>
// KW-NEXT: } do {
// KW-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>):
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.add %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<i32>, tensor<i32>) -> tensor<i32>
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<i32>
// KW-NEXT: }
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<i32>
// KW-NEXT: }

// AD-LABEL: func.func @while_loop(
// AD-NEXT: %{{[a-z0-9_#]+}} = "tosa.const"() <{values = dense<10> : tensor<i32>}> : () -> tensor<i32>
// AD-NEXT: %{{[a-z0-9_#]+}} = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.while_loop (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : (tensor<i32>) -> tensor<i32> {
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.greater %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<i1>
// AD-NEXT: } do {
// AD-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>):
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.add %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<i32>, tensor<i32>) -> tensor<i32>
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<i32>
// AD-NEXT: }
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<i32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "while_loop"
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.const"() <{values = dense<10> : tensor<i32>}> : () -> tensor<i32>
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.while_loop"(%{{[a-z0-9_#]+}}) ({
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.greater"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<i32>, tensor<i32>) -> tensor<i1>
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}) : (tensor<i1>) -> ()
// GEN-NEXT: }, {
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.add"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}) : (tensor<i32>) -> ()
// GEN-NEXT: }) : (tensor<i32>) -> tensor<i32>
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}) : (tensor<i32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @while_loop_two_values(%arg0: tensor<i32>, %arg1: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
  %0 = tosa.const values(dense<3> : tensor<i32>) : () -> tensor<i32>
  %1 = tosa.const values(dense<1> : tensor<i32>) : () -> tensor<i32>
  %2:2 = tosa.while_loop (%arg2 = %arg0, %arg3 = %arg1) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
    %3 = tosa.greater %0, %arg2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %3 : tensor<i1>
  } do {
  ^bb0(%arg2: tensor<i32>, %arg3: tensor<4xf32>):
    %3 = tosa.add %arg2, %1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = tosa.exp %arg3 : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %3, %4 : tensor<i32>, tensor<4xf32>
  }
  return %2#0, %2#1 : tensor<i32>, tensor<4xf32>
}

// KW-LABEL: func.func @while_loop_two_values(
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.const  values(dense<3> : tensor<i32>) : () -> tensor<i32>
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.const  values(dense<1> : tensor<i32>) : () -> tensor<i32>
// KW-NEXT: {{.+}} = tosa.while_loop (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.greater %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<i1>
// KW-NEXT: } do {
// KW-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>, %{{[a-z0-9_#]+}}: tensor<4xf32>):
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.add %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<i32>, tensor<i32>) -> tensor<i32>
// KW-NEXT: %{{[a-z0-9_#]+}} = tosa.exp %{{[a-z0-9_#]+}} : (tensor<4xf32>) -> tensor<4xf32>
// KW-NEXT: tosa.yield %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<i32>, tensor<4xf32>
// KW-NEXT: }
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<i32>, tensor<4xf32>
// KW-NEXT: }

// AD-LABEL: func.func @while_loop_two_values(
// AD-NEXT: %{{[a-z0-9_#]+}} = "tosa.const"() <{values = dense<3> : tensor<i32>}> : () -> tensor<i32>
// AD-NEXT: %{{[a-z0-9_#]+}} = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
// AD-NEXT: {{.+}} = tosa.while_loop (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.greater %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}} : tensor<i1>
// AD-NEXT: } do {
// AD-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>, %{{[a-z0-9_#]+}}: tensor<4xf32>):
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.add %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : (tensor<i32>, tensor<i32>) -> tensor<i32>
// AD-NEXT: %{{[a-z0-9_#]+}} = tosa.exp %{{[a-z0-9_#]+}} : (tensor<4xf32>) -> tensor<4xf32>
// AD-NEXT: tosa.yield %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<i32>, tensor<4xf32>
// AD-NEXT: }
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<i32>, tensor<4xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "while_loop_two_values"
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>, %{{[a-z0-9_#]+}}: tensor<4xf32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.const"() <{values = dense<3> : tensor<i32>}> : () -> tensor<i32>
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
// GEN-NEXT: {{.+}} = "tosa.while_loop"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) ({
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>, %{{[a-z0-9_#]+}}: tensor<4xf32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.greater"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<i32>, tensor<i32>) -> tensor<i1>
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}) : (tensor<i1>) -> ()
// GEN-NEXT: }, {
// GEN-NEXT: ^bb0(%{{[a-z0-9_#]+}}: tensor<i32>, %{{[a-z0-9_#]+}}: tensor<4xf32>):
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.add"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// GEN-NEXT: %{{[a-z0-9_#]+}} = "tosa.exp"(%{{[a-z0-9_#]+}}) : (tensor<4xf32>) -> tensor<4xf32>
// GEN-NEXT: "tosa.yield"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<i32>, tensor<4xf32>) -> ()
// GEN-NEXT: }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<i32>, tensor<4xf32>) -> ()
// GEN-NEXT: }) : () -> ()
