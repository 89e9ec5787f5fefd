// RUN: tosa-run %s --print | filecheck %s

// Spec 2.16: WHILE_LOOP counting i from 0 while i < 5, doubling x each iteration;
// COND_IF choosing between x + 1 and x - 1.
func.func @main() -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %i0 = "tosa.const"() {values = dense<0> : tensor<i32>} : () -> tensor<i32>
  %x0 = "tosa.const"() {values = dense<3> : tensor<i32>} : () -> tensor<i32>
  %r:2 = tosa.while_loop (%i = %i0, %x = %x0) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %five = "tosa.const"() {values = dense<5> : tensor<i32>} : () -> tensor<i32>
    %c = tosa.greater %five, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %x: tensor<i32>):
    %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
    %i1 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %x1 = tosa.add %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %i1, %x1 : tensor<i32>, tensor<i32>
  }
  %f = "tosa.const"() {values = dense<false> : tensor<i1>} : () -> tensor<i1>
  %y = tosa.cond_if %f (%a = %x0) : tensor<i1> (tensor<i32>) -> tensor<i32> {
  ^bb0(%a: tensor<i32>):
    %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
    %b = tosa.add %a, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %b : tensor<i32>
  } else {
  ^bb0(%a: tensor<i32>):
    %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
    %b = tosa.sub %a, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %b : tensor<i32>
  }
  return %r#0, %r#1, %y : tensor<i32>, tensor<i32>, tensor<i32>
}
// CHECK: result #0: tensor<i32> = 5
// CHECK: result #1: tensor<i32> = 96
// CHECK: result #2: tensor<i32> = 2
