// Without strict-op-spec-alignment a COND_IF region may read from above (upstream checks it
// only when strict), and without validate-function-signature the signature's element types
// are not checked; tosa-validate then accepts this module (cond_if needs controlflow).
// RUN: tosa-opt %s -tosa-attach-target="profiles=pro_fp extensions=controlflow" -tosa-validate | filecheck %s

// CHECK: tosa.cond_if
func.func @reads_from_above(%x: tensor<f32>, %y: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    tosa.yield %a : tensor<f32>
  } else {
  ^bb0(%a: tensor<f32>):
    %s = tosa.add %a, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %s : tensor<f32>
  }
  return %0 : tensor<f32>
}
