// tosa-layerwise-constant-fold: ops on constants become constants (values by hand).
// RUN: tosa-opt %s -p tosa-layerwise-constant-fold --split-input-file | filecheck %s
// RUN: tosa-opt %s -p 'tosa-layerwise-constant-fold{aggressive-reduce-constant=true}' --split-input-file | filecheck %s --check-prefix=AGGR
// RUN: tosa-opt %s -p 'tosa-layerwise-constant-fold{max-elements=4}' --split-input-file | filecheck %s --check-prefix=SMALL

// The legalization guide's CONST+TRANSPOSE and CONST+RESHAPE; the inputs are erased.
// CHECK-LABEL: func.func @transpose_reshape
// CHECK-NEXT: %{{.*}} = tosa.const values(dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>)
// CHECK-NEXT: %{{.*}} = tosa.const values(dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>)
// CHECK-NEXT: func.return
// SMALL-LABEL: func.func @transpose_reshape
// SMALL: tosa.transpose
// SMALL: tosa.reshape
func.func @transpose_reshape() -> (tensor<3x2xi32>, tensor<3x2xi32>) {
  %c = "tosa.const"() <{values = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %t = tosa.transpose %c {perms = array<i32: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %d = "tosa.const"() <{values = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %s = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %d, %s : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<3x2xi32>
  return %t, %r : tensor<3x2xi32>, tensor<3x2xi32>
}

// -----

// chains fold completely: (a + b) * 2, cast to i8 (round half to even), slice, concat
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %{{.*}} = tosa.const values(dense<[3, -2, -2, 4, 6, 7]> : tensor<6xi8>)
// CHECK-NEXT: func.return
func.func @chain() -> tensor<6xi8> {
  %a = "tosa.const"() <{values = dense<[0.25, 1.0, 2.0, 3.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %b = "tosa.const"() <{values = dense<[1.0, 1.0, 1.0, 0.5]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %two = "tosa.const"() <{values = dense<[2.0, 2.0, 2.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %s = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m = tosa.mul %s, %two, %sh : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  // (a + b) * 2 = [2.5, 4, 6, 7]; cast rounds half to even: [2, 4, 6, 7]; slice [1:4] = [4, 6, 7]
  %i = tosa.cast %m : (tensor<4xf32>) -> tensor<4xi8>
  %st = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %sz = tosa.const_shape {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
  %sl = tosa.slice %i, %st, %sz : (tensor<4xi8>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<3xi8>
  %n = "tosa.const"() <{values = dense<[3, -2, -2]> : tensor<3xi8>}> : () -> tensor<3xi8>
  %c = tosa.concat %n, %sl {axis = 0 : i32} : (tensor<3xi8>, tensor<3xi8>) -> tensor<6xi8>
  return %c : tensor<6xi8>
}

// -----

// REQUIRE failures (i32 overflow, division by zero) and ERROR_IF are never folded.
// CHECK-LABEL: func.func @not_foldable
// CHECK: tosa.add
// CHECK: tosa.intdiv
// CHECK: tosa.add %arg0
func.func @not_foldable(%arg0: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %a = "tosa.const"() <{values = dense<[2147483647, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %b = "tosa.const"() <{values = dense<[1, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %z = "tosa.const"() <{values = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = tosa.add %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %1 = tosa.intdiv %b, %z : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %2 = tosa.add %arg0, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1, %2 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}

// -----

// A shared non-splat constant is not duplicated (as upstream), except a reduction under
// aggressive-reduce-constant; a splat result is always folded.
// CHECK-LABEL: func.func @shared
// CHECK: tosa.reduce_sum
// CHECK: tosa.const values(dense<1.000000e+00> : tensor<2x3xf32>)
// CHECK: tosa.abs %arg0
// AGGR-LABEL: func.func @shared
// AGGR-NOT: tosa.reduce_sum
// AGGR: tosa.const values(dense<{{\[}}[5.000000e+00, 7.000000e+00, 9.000000e+00]]> : tensor<1x3xf32>)
func.func @shared(%arg0: tensor<2x3xf32>) -> (tensor<1x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %c = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %r = tosa.reduce_sum %c {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %e = tosa.equal %c, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %f = tosa.cast %e : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %g = tosa.cast %f : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %u = tosa.abs %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %v = tosa.add %u, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r, %g, %v, %c : tensor<1x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Exact for non-native types: bf16 and NaN payloads pass through bit for bit.
// CHECK-LABEL: func.func @exact
// CHECK: tosa.const values(dense<[1.000000e+00, 3.000000e+00]> : tensor<2xbf16>)
// CHECK: tosa.const values(dense<[0x7FC00001, 0xFF800000]> : tensor<2xf32>)
func.func @exact() -> (tensor<2xbf16>, tensor<2xf32>) {
  %a = "tosa.const"() <{values = dense<[3.0, 1.0]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  %r = tosa.reverse %a {axis = 0 : i32} : (tensor<2xbf16>) -> tensor<2xbf16>
  %n = "tosa.const"() <{values = dense<[0xFF800000, 0x7FC00001]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %t = tosa.reverse %n {axis = 0 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return %r, %t : tensor<2xbf16>, tensor<2xf32>
}
