// tosa-validate's upstream options. A TOSA graph's inputs and outputs are tensors (spec 2.1):
// !tosa.shape arguments/results are always rejected; validate-function-signature adds MAX_RANK
// (level 8K: 6, spec 1.7), zero-size dims and TOSA element types (1.5.1 has no f64) on the
// signature; strict-op-spec-alignment adds that COND_IF/WHILE_LOOP regions read only their
// block arguments (2.16: each region is a graph of its own).
// RUN: tosa-opt %s -split-input-file -verify-diagnostics -tosa-attach-target="profiles=pro_int,pro_fp extensions=controlflow" -tosa-validate="strict-op-spec-alignment validate-function-signature"

// expected-error@+1 {{'func.func' op Function argument types must be a tensor type to be TOSA compliant, got !tosa.shape type}}
func.func @shape_argument(%arg0: !tosa.shape<2>) {
  return
}

// -----

// expected-error@+1 {{'func.func' op Function return types must be a tensor type to be TOSA compliant, got !tosa.shape type}}
func.func @shape_result() -> !tosa.shape<2> {
  %0 = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  return %0 : !tosa.shape<2>
}

// -----

// expected-error@+1 {{'func.func' op failed level check: input argument 0 rank(shape) <= MAX_RANK (6), got 7}}
func.func @rank7_argument(%arg0: tensor<1x1x1x1x1x1x2xi8>) {
  return
}

// -----

// expected-error@+1 {{'func.func' op Function argument or return types must not have zero dimensions}}
func.func @zero_dim_argument(%arg0: tensor<2x0xi8>) {
  return
}

// -----

// expected-error@+1 {{'func.func' op failed level check: unranked tensor}}
func.func @unranked_argument(%arg0: tensor<*xi8>) {
  return
}

// -----

// expected-error@+1 {{'func.func' op is not profile-aligned: element type 'f64' is not legal}}
func.func @f64_argument(%arg0: tensor<2xf64>) {
  return
}

// -----

func.func @cond_if_reads_from_above(%x: tensor<f32>, %y: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  // expected-error@+1 {{'tosa.cond_if' op is not conformant to the TOSA specification. It requires the 'else' region is isolated from above.}}
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

// -----

// A valid signature and an isolated COND_IF: no diagnostic.
func.func @valid(%x: tensor<2x3xi8>, %c: tensor<i1>) -> tensor<2x3xi8> {
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<2x3xi8>) -> tensor<2x3xi8> {
  ^bb0(%a: tensor<2x3xi8>):
    tosa.yield %a : tensor<2x3xi8>
  } else {
  ^bb0(%a: tensor<2x3xi8>):
    tosa.yield %a : tensor<2x3xi8>
  }
  return %0 : tensor<2x3xi8>
}
