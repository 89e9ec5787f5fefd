// Negative tests of the spec's ERROR_IF conditions of spec 2.16 (control flow) (tosa_xdsl/verification/control_flow.py).
// Each case breaks one condition, named by its `// ERROR_IF: <id>` marker (ids as in
// tosa_xdsl.spec_tables; see docs/error-if.md).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

// ERROR_IF: COND_IF#2 tosa_execute_graph#1
func.func @cond_if_then_inputs(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{then_graph arguments (tensor<3xf32>) must match the input_list types (tensor<2xf32>)}}
  %0 = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%x: tensor<3xf32>):
      %y = "tosa.const"() {values = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
      tosa.yield %y : tensor<2xf32>
    } else {
    ^bb0(%x: tensor<2xf32>):
      tosa.yield %x : tensor<2xf32>
    }
  return %0 : tensor<2xf32>
}

// -----

// ERROR_IF: COND_IF#3
func.func @cond_if_else_inputs(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{else_graph arguments (tensor<3xf32>) must match the input_list types (tensor<2xf32>)}}
  %0 = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%x: tensor<2xf32>):
      tosa.yield %x : tensor<2xf32>
    } else {
    ^bb0(%x: tensor<3xf32>):
      %y = "tosa.const"() {values = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
      tosa.yield %y : tensor<2xf32>
    }
  return %0 : tensor<2xf32>
}

// -----

// ERROR_IF: COND_IF#4 tosa_execute_graph#2
func.func @cond_if_then_outputs(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{then_graph yields (tensor<3xf32>) but (tensor<2xf32>) is expected}}
  %0 = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%x: tensor<2xf32>):
      %y = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
      tosa.yield %y : tensor<3xf32>
    } else {
    ^bb0(%x: tensor<2xf32>):
      tosa.yield %x : tensor<2xf32>
    }
  return %0 : tensor<2xf32>
}

// -----

// ERROR_IF: COND_IF#5
func.func @cond_if_else_outputs(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{else_graph yields (tensor<3xf32>) but (tensor<2xf32>) is expected}}
  %0 = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%x: tensor<2xf32>):
      tosa.yield %x : tensor<2xf32>
    } else {
    ^bb0(%x: tensor<2xf32>):
      %y = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
      tosa.yield %y : tensor<3xf32>
    }
  return %0 : tensor<2xf32>
}

// -----

// ERROR_IF: COND_IF#6
func.func @cond_if_condition_size(%c: tensor<2xi1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{condition [2] has 2 elements but must have exactly 1}}
  %0 = tosa.cond_if %c (%x = %a) : tensor<2xi1> (tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%x: tensor<2xf32>):
      tosa.yield %x : tensor<2xf32>
    } else {
    ^bb0(%x: tensor<2xf32>):
      tosa.yield %x : tensor<2xf32>
    }
  return %0 : tensor<2xf32>
}

// -----

// ERROR_IF: COND_IF#1
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [controlflow]>} {
func.func @cond_if_nesting(%c: tensor<i1>, %x0: tensor<f32>) -> tensor<f32> {
  %r0 = tosa.cond_if %c (%x1 = %x0) : tensor<i1> (tensor<f32>) -> tensor<f32> {
  ^bb0(%x1: tensor<f32>):
    %r1 = tosa.cond_if %c (%x2 = %x1) : tensor<i1> (tensor<f32>) -> tensor<f32> {
    ^bb0(%x2: tensor<f32>):
      %r2 = tosa.cond_if %c (%x3 = %x2) : tensor<i1> (tensor<f32>) -> tensor<f32> {
      ^bb0(%x3: tensor<f32>):
        %r3 = tosa.cond_if %c (%x4 = %x3) : tensor<i1> (tensor<f32>) -> tensor<f32> {
        ^bb0(%x4: tensor<f32>):
          %r4 = tosa.cond_if %c (%x5 = %x4) : tensor<i1> (tensor<f32>) -> tensor<f32> {
          ^bb0(%x5: tensor<f32>):
            %r5 = tosa.cond_if %c (%x6 = %x5) : tensor<i1> (tensor<f32>) -> tensor<f32> {
            ^bb0(%x6: tensor<f32>):
              // expected-error @+1 {{is nested 6 deep in control flow but MAX_NESTING of level 8K is 6}}
              %r6 = tosa.cond_if %c (%x7 = %x6) : tensor<i1> (tensor<f32>) -> tensor<f32> {
              ^bb0(%x7: tensor<f32>):
                tosa.yield %x7 : tensor<f32>
              } else {
              ^bb0(%x7: tensor<f32>):
                tosa.yield %x7 : tensor<f32>
              }
              tosa.yield %r6 : tensor<f32>
            } else {
            ^bb0(%x6: tensor<f32>):
              tosa.yield %x6 : tensor<f32>
            }
            tosa.yield %r5 : tensor<f32>
          } else {
          ^bb0(%x5: tensor<f32>):
            tosa.yield %x5 : tensor<f32>
          }
          tosa.yield %r4 : tensor<f32>
        } else {
        ^bb0(%x4: tensor<f32>):
          tosa.yield %x4 : tensor<f32>
        }
        tosa.yield %r3 : tensor<f32>
      } else {
      ^bb0(%x3: tensor<f32>):
        tosa.yield %x3 : tensor<f32>
      }
      tosa.yield %r2 : tensor<f32>
    } else {
    ^bb0(%x2: tensor<f32>):
      tosa.yield %x2 : tensor<f32>
    }
    tosa.yield %r1 : tensor<f32>
  } else {
  ^bb0(%x1: tensor<f32>):
    tosa.yield %x1 : tensor<f32>
  }
  return %r0 : tensor<f32>
}
}

// -----

// ERROR_IF: WHILE_LOOP#2
func.func @while_output_list(%a: tensor<i32>) -> tensor<2xi32> {
  // expected-error @+1 {{output_list types must equal input_list types}}
  %0 = tosa.while_loop (%i = %a) : (tensor<i32>) -> tensor<2xi32> {
      %one = "tosa.const"() {values = dense<10> : tensor<i32>} : () -> tensor<i32>
      %g = tosa.greater %one, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      tosa.yield %g : tensor<i1>
    } do {
    ^bb0(%i: tensor<i32>):
      %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
      %n = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tosa.yield %n : tensor<i32>
    }
  return %0 : tensor<2xi32>
}

// -----

// ERROR_IF: WHILE_LOOP#3
func.func @while_cond_inputs(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{cond_graph arguments (tensor<2xi32>) must match the input_list types (tensor<i32>)}}
  %0 = "tosa.while_loop"(%a) ({
    ^bb0(%i: tensor<2xi32>):
      %g = "tosa.const"() {values = dense<false> : tensor<i1>} : () -> tensor<i1>
      "tosa.yield"(%g) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>):
      "tosa.yield"(%i) : (tensor<i32>) -> ()
    }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// ERROR_IF: WHILE_LOOP#4
func.func @while_body_inputs(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{body_graph arguments (tensor<2xi32>) must match the input_list types (tensor<i32>)}}
  %0 = "tosa.while_loop"(%a) ({
    ^bb0(%i: tensor<i32>):
      %g = "tosa.const"() {values = dense<false> : tensor<i1>} : () -> tensor<i1>
      "tosa.yield"(%g) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<2xi32>):
      "tosa.yield"(%a) : (tensor<i32>) -> ()
    }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// ERROR_IF: WHILE_LOOP#5
func.func @while_body_outputs(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{body_graph yields (tensor<2xi32>) but (tensor<i32>) is expected}}
  %0 = tosa.while_loop (%i = %a) : (tensor<i32>) -> tensor<i32> {
      %one = "tosa.const"() {values = dense<10> : tensor<i32>} : () -> tensor<i32>
      %g = tosa.greater %one, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      tosa.yield %g : tensor<i1>
    } do {
    ^bb0(%i: tensor<i32>):
      %n = "tosa.const"() {values = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
      tosa.yield %n : tensor<2xi32>
    }
  return %0 : tensor<i32>
}

// -----

// ERROR_IF: WHILE_LOOP#6
func.func @while_cond_size(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{cond_graph output [2] has 2 elements but must have exactly 1}}
  %0 = tosa.while_loop (%i = %a) : (tensor<i32>) -> tensor<i32> {
      %g = "tosa.const"() {values = dense<false> : tensor<2xi1>} : () -> tensor<2xi1>
      tosa.yield %g : tensor<2xi1>
    } do {
    ^bb0(%i: tensor<i32>):
      %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
      %n = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tosa.yield %n : tensor<i32>
    }
  return %0 : tensor<i32>
}

// -----

// ERROR_IF: WHILE_LOOP#7
func.func @while_cond_type(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{cond_graph output element type is i32 but must be i1 (bool_t)}}
  %0 = tosa.while_loop (%i = %a) : (tensor<i32>) -> tensor<i32> {
      tosa.yield %i : tensor<i32>
    } do {
    ^bb0(%i: tensor<i32>):
      %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
      %n = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tosa.yield %n : tensor<i32>
    }
  return %0 : tensor<i32>
}

// -----

// ERROR_IF: WHILE_LOOP#1
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [controlflow]>} {
func.func @while_nesting(%c: tensor<i1>, %x0: tensor<f32>) -> tensor<f32> {
  %r0 = tosa.cond_if %c (%x1 = %x0) : tensor<i1> (tensor<f32>) -> tensor<f32> {
  ^bb0(%x1: tensor<f32>):
    %r1 = tosa.cond_if %c (%x2 = %x1) : tensor<i1> (tensor<f32>) -> tensor<f32> {
    ^bb0(%x2: tensor<f32>):
      %r2 = tosa.cond_if %c (%x3 = %x2) : tensor<i1> (tensor<f32>) -> tensor<f32> {
      ^bb0(%x3: tensor<f32>):
        %r3 = tosa.cond_if %c (%x4 = %x3) : tensor<i1> (tensor<f32>) -> tensor<f32> {
        ^bb0(%x4: tensor<f32>):
          %r4 = tosa.cond_if %c (%x5 = %x4) : tensor<i1> (tensor<f32>) -> tensor<f32> {
          ^bb0(%x5: tensor<f32>):
            %r5 = tosa.cond_if %c (%x6 = %x5) : tensor<i1> (tensor<f32>) -> tensor<f32> {
            ^bb0(%x6: tensor<f32>):
              // expected-error @+1 {{is nested 6 deep in control flow but MAX_NESTING of level 8K is 6}}
              %r6 = tosa.while_loop (%w = %x6) : (tensor<f32>) -> tensor<f32> {
                %g = "tosa.const"() {values = dense<false> : tensor<i1>} : () -> tensor<i1>
                tosa.yield %g : tensor<i1>
              } do {
              ^bb0(%w: tensor<f32>):
                tosa.yield %w : tensor<f32>
              }
              tosa.yield %r6 : tensor<f32>
            } else {
            ^bb0(%x6: tensor<f32>):
              tosa.yield %x6 : tensor<f32>
            }
            tosa.yield %r5 : tensor<f32>
          } else {
          ^bb0(%x5: tensor<f32>):
            tosa.yield %x5 : tensor<f32>
          }
          tosa.yield %r4 : tensor<f32>
        } else {
        ^bb0(%x4: tensor<f32>):
          tosa.yield %x4 : tensor<f32>
        }
        tosa.yield %r3 : tensor<f32>
      } else {
      ^bb0(%x3: tensor<f32>):
        tosa.yield %x3 : tensor<f32>
      }
      tosa.yield %r2 : tensor<f32>
    } else {
    ^bb0(%x2: tensor<f32>):
      tosa.yield %x2 : tensor<f32>
    }
    tosa.yield %r1 : tensor<f32>
  } else {
  ^bb0(%x1: tensor<f32>):
    tosa.yield %x1 : tensor<f32>
  }
  return %r0 : tensor<f32>
}
}
