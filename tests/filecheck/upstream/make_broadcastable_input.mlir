// A rank-mismatched broadcast (spec 4.4.6 broadcast_shape needs equal ranks) is read without
// --disable-verify only as tosa-make-broadcastable's input: as the first pass it gets the
// operands of lower rank with leading 1s; anywhere else the verifier rejects it, and a
// mismatch that stays after the leading 1s (3 vs 4) is still an error.
// RUN: tosa-opt %s --split-input-file -p tosa-make-broadcastable | filecheck %s
// RUN: tosa-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tosa-make-broadcastable))' | filecheck %s
// RUN: not tosa-opt %s --split-input-file -p canonicalize,tosa-make-broadcastable 2>&1 | filecheck %s --check-prefix=LATER
// RUN: not tosa-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=LATER

// CHECK-LABEL: func.func @select_scalar_condition
// CHECK: tosa.const_shape values(dense<1> : tensor<2xindex>)
// CHECK: tosa.reshape %c, %{{.*}} : (tensor<i1>, !tosa.shape<2>) -> tensor<1x1xi1>
// CHECK: tosa.select %{{.*}}, %a, %b : (tensor<1x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// LATER: error: 'tosa.select' op operands and result must have the same rank
func.func @select_scalar_condition(%c: tensor<i1>, %a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.select %c, %a, %b : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @greater_row
// CHECK: tosa.reshape %b, %{{.*}} : (tensor<5xi32>, !tosa.shape<2>) -> tensor<1x5xi32>
// CHECK: tosa.greater %a, %{{.*}} : (tensor<4x5xi32>, tensor<1x5xi32>) -> tensor<4x5xi1>
func.func @greater_row(%a: tensor<4x5xi32>, %b: tensor<5xi32>) -> tensor<4x5xi1> {
  %0 = tosa.greater %a, %b : (tensor<4x5xi32>, tensor<5xi32>) -> tensor<4x5xi1>
  return %0 : tensor<4x5xi1>
}
