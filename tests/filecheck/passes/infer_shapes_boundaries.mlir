// convert-function-boundaries: returned values are refined and the signature follows.
// RUN: tosa-opt %s -p tosa-infer-shapes | filecheck %s --check-prefix=KEEP
// RUN: tosa-opt %s -p 'tosa-infer-shapes{convert-function-boundaries=true}' | filecheck %s --check-prefix=CONV
// fold-shape-expressions is accepted (nothing to fold in TOSA 1.0.1):
// RUN: tosa-opt %s -p 'tosa-infer-shapes{fold-shape-expressions=true}' | filecheck %s --check-prefix=KEEP

// KEEP: func.func @main(%{{.*}}: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<?x3xf32>)
// KEEP: tosa.exp %{{.*}} : (tensor<2x3xf32>) -> tensor<*xf32>
// KEEP: func.call @helper(%{{.*}}) : (tensor<?x3xf32>) -> tensor<?x3xf32>
// CONV: func.func @main(%{{.*}}: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<?x3xf32>)
// CONV: tosa.exp %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CONV: %[[N:.*]] = tosa.negate {{.*}} -> tensor<?x3xf32>
// CONV: func.call @helper(%[[N]]) : (tensor<?x3xf32>) -> tensor<?x3xf32>
// CONV: func.return %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<?x3xf32>
func.func @main(%x: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<?x3xf32>) {
  %e = tosa.exp %x : (tensor<2x3xf32>) -> tensor<*xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %x, %zp, %zp : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xf32>
  %h = func.call @helper(%n) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %e, %h : tensor<*xf32>, tensor<?x3xf32>
}

// A called function keeps its signature (its call sites must still match).
// CONV: func.func @helper(%{{.*}}: tensor<?x3xf32>) -> tensor<?x3xf32>
func.func @helper(%y: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %a = tosa.abs %y : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %a : tensor<?x3xf32>
}
