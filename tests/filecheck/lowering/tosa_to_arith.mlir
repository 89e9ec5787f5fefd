// tosa-to-arith: tosa.const -> arith.constant (same dense value); unused const_shape dropped.
// RUN: tosa-opt %s -p tosa-to-arith | filecheck %s
// RUN: tosa-opt %s -p tosa-to-arith --print-op-generic | %mlir-opt-22 --allow-unregistered-dialect | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// CHECK-LABEL: func.func @consts
// CHECK-NOT: tosa.const
// CHECK: %[[A:.*]] = arith.constant dense<{{\[}}[1, -2, 3]]> : tensor<1x3xi32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<{{\[}}1.500000e+00, -0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT: %[[D:.*]] = arith.constant dense<5> : tensor<i8>
// CHECK-NEXT: %[[S:.*]] = tosa.const_shape
// CHECK-NEXT: %[[R:.*]] = tosa.reshape %[[A]], %[[S]]
// CHECK-NEXT: func.return %[[A]], %[[B]], %[[C]], %[[D]], %[[R]]
// MLIR-LABEL: func.func @consts
// MLIR: arith.constant dense<{{\[}}[1, -2, 3]]> : tensor<1x3xi32>
// MLIR: arith.constant dense<[1.500000e+00, -0.000000e+00]> : tensor<2xf32>
// MLIR: arith.constant dense<[true, false]> : tensor<2xi1>
// MLIR: arith.constant dense<5> : tensor<i8>
func.func @consts() -> (tensor<1x3xi32>, tensor<2xf32>, tensor<2xi1>, tensor<i8>, tensor<3xi32>) {
  %unused = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a = "tosa.const"() <{values = dense<[[1, -2, 3]]> : tensor<1x3xi32>}> : () -> tensor<1x3xi32>
  %b = "tosa.const"() <{values = dense<[1.5, -0.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = "tosa.const"() <{values = dense<[true, false]> : tensor<2xi1>}> : () -> tensor<2xi1>
  %d = "tosa.const"() <{values = dense<5> : tensor<i8>}> : () -> tensor<i8>
  %s = tosa.const_shape {values = dense<[3]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %a, %s : (tensor<1x3xi32>, !tosa.shape<1>) -> tensor<3xi32>
  return %a, %b, %c, %d, %r : tensor<1x3xi32>, tensor<2xf32>, tensor<2xi1>, tensor<i8>, tensor<3xi32>
}
