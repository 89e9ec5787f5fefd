// Options upstream's RUN lines pass to passes we have, in mlir-opt's spelling.
// tosa-experimental-input-shape's list items (`arg0:2x16`) need no quotes; tosa-to-arith
// takes upstream's include-apply-rescale / use-32-bit (no tosa.apply_scale here: no effect);
// the narrowing passes take `=1`.
// RUN: tosa-opt %s -tosa-experimental-input-shape="args=arg0:2x16" | filecheck %s --check-prefix=SHAPE
// RUN: tosa-opt %s --tosa-to-arith="include-apply-rescale=true use-32-bit=true" | filecheck %s --check-prefix=ARITH
// RUN: tosa-opt %s -tosa-narrow-i64-to-i32="convert-function-boundaries=1 aggressive-rewrite=0" | filecheck %s --check-prefix=NARROW

// SHAPE: func.func @f(%arg0: tensor<2x16xf32>) -> tensor<2x16xf32>
// ARITH: arith.constant dense<1.000000e+00> : tensor<2x16xf32>
// NARROW: tosa.const values(dense<1.000000e+00> : tensor<2x16xf32>)
func.func @f(%arg0: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %0 = "tosa.const"() <{values = dense<1.0> : tensor<2x16xf32>}> : () -> tensor<2x16xf32>
  return %arg0 : tensor<?x16xf32>
}
