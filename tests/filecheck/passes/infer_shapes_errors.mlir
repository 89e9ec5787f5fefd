// Shapes that the verifier cannot see are inconsistent (dynamic dims in between) but
// inference can: located errors.
// RUN: tosa-opt %s -p tosa-infer-shapes --split-input-file --verify-diagnostics -o /dev/null

func.func @declared_mismatch(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %e = tosa.exp %x : (tensor<2x3xf32>) -> tensor<?x?xf32>
  // expected-error @+1 {{'tosa.floor' op inferred shape 2x3 is incompatible with result type tensor<4x3xf32>}}
  %f = tosa.floor %e : (tensor<?x?xf32>) -> tensor<4x3xf32>
  return %f : tensor<4x3xf32>
}

// -----

func.func @broadcast_mismatch(%x: tensor<2x3xf32>, %y: tensor<4x3xf32>) -> tensor<*xf32> {
  %e = tosa.exp %x : (tensor<2x3xf32>) -> tensor<?x3xf32>
  // expected-error @+1 {{'tosa.add' op operand shapes are inconsistent: cannot broadcast dimension 2 with 4}}
  %a = tosa.add %e, %y : (tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<*xf32>
  return %a : tensor<*xf32>
}

// -----

func.func @branches_disagree(%c: tensor<i1>, %x: tensor<2x3xf32>, %y: tensor<4x3xf32>) -> tensor<?x3xf32> {
  %a = tosa.exp %x : (tensor<2x3xf32>) -> tensor<?x3xf32>
  %b = tosa.exp %y : (tensor<4x3xf32>) -> tensor<?x3xf32>
  // expected-error @+1 {{'tosa.cond_if' op result #0 and the values both branches yield have inconsistent shapes}}
  %r = tosa.cond_if %c : tensor<i1> -> tensor<?x3xf32> {
    %l = tosa.log %a : (tensor<?x3xf32>) -> tensor<?x3xf32>
    tosa.yield %l : tensor<?x3xf32>
  } else {
    %l = tosa.log %b : (tensor<?x3xf32>) -> tensor<?x3xf32>
    tosa.yield %l : tensor<?x3xf32>
  }
  %f = tosa.floor %r : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %f : tensor<?x3xf32>
}
