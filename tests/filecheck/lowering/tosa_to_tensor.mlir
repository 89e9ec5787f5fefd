// tosa-to-tensor: concat/pad/reshape/slice -> tensor ops (static shapes, const_shape operands).
// RUN: tosa-opt %s -p tosa-to-tensor --split-input-file | filecheck %s
// RUN: tosa-opt %s -p tosa-to-tensor,tosa-to-arith --print-op-generic | %mlir-opt-22 --allow-unregistered-dialect | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// CHECK-LABEL: func.func @concat
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x5xf32>
// CHECK-NEXT: %[[I0:.*]] = tensor.insert_slice %a into %[[E]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x5xf32>
// CHECK-NEXT: %[[I1:.*]] = tensor.insert_slice %b into %[[I0]][0, 3] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<2x5xf32>
// CHECK-NEXT: func.return %[[I1]]
// MLIR-LABEL: func.func @concat
// MLIR: tensor.empty() : tensor<2x5xf32>
// MLIR-COUNT-2: tensor.insert_slice
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> tensor<2x5xf32> {
  %0 = tosa.concat %a, %b {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func.func @pad
// CHECK-NOT: tosa.const_shape
// CHECK: %[[C:.*]] = tosa.const
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[C]][%[[Z]]] : tensor<1xi8>
// CHECK-NEXT: %[[P:.*]] = tensor.pad %a low[0, 2] high[1, 1] {
// CHECK-NEXT: ^{{.*}}(%{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT: tensor.yield %[[V]] : i8
// CHECK-NEXT: } : tensor<2x3xi8> to tensor<3x6xi8>
// CHECK-NEXT: func.return %[[P]]
// MLIR-LABEL: func.func @pad
// MLIR: arith.constant dense<7> : tensor<1xi8>
// MLIR: tensor.extract
// MLIR: tensor.pad %{{.*}} low[0, 2] high[1, 1]
func.func @pad(%a: tensor<2x3xi8>) -> tensor<3x6xi8> {
  %p = tosa.const_shape {values = dense<[0, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<7> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.pad %a, %p, %c : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<3x6xi8>
  return %0 : tensor<3x6xi8>
}

// -----

// CHECK-LABEL: func.func @reshape
// CHECK-NEXT: %[[A:.*]] = tensor.collapse_shape %a {{\[}}[0 : i64, 1 : i64]] : tensor<2x3xi32> into tensor<6xi32>
// CHECK-NEXT: %[[F:.*]] = tensor.collapse_shape %a {{\[}}[0 : i64, 1 : i64]] : tensor<2x3xi32> into tensor<6xi32>
// CHECK-NEXT: %[[B:.*]] = tensor.expand_shape %[[F]] {{\[}}[0 : i64, 1 : i64]] output_shape [3, 2] : tensor<6xi32> into tensor<3x2xi32>
// CHECK-NEXT: %[[C:.*]] = tensor.expand_shape %a {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 2, 3, 1] : tensor<2x3xi32> into tensor<1x2x3x1xi32>
// CHECK-NEXT: %[[D:.*]] = tensor.collapse_shape %c {{\[}}] : tensor<1x1xi32> into tensor<i32>
// CHECK-NEXT: func.return %[[A]], %[[B]], %[[C]], %[[D]], %a
// MLIR-LABEL: func.func @reshape
// MLIR: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<2x3xi32> into tensor<6xi32>
// MLIR: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [3, 2]
// MLIR: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [1, 2, 3, 1]
// MLIR: tensor.collapse_shape %{{.*}} [] : tensor<1x1xi32> into tensor<i32>
func.func @reshape(%a: tensor<2x3xi32>, %c: tensor<1x1xi32>) -> (tensor<6xi32>, tensor<3x2xi32>, tensor<1x2x3x1xi32>, tensor<i32>, tensor<2x3xi32>) {
  %s = tosa.const_shape {values = dense<[6]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %0 = tosa.reshape %a, %s : (tensor<2x3xi32>, !tosa.shape<1>) -> tensor<6xi32>
  %s2 = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.reshape %a, %s2 : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<3x2xi32>
  %s3 = tosa.const_shape {values = dense<[1, 2, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %2 = tosa.reshape %a, %s3 : (tensor<2x3xi32>, !tosa.shape<4>) -> tensor<1x2x3x1xi32>
  %s4 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %3 = tosa.reshape %c, %s4 : (tensor<1x1xi32>, !tosa.shape<0>) -> tensor<i32>
  %s5 = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %4 = tosa.reshape %a, %s5 : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<2x3xi32>
  return %0, %1, %2, %3, %4 : tensor<6xi32>, tensor<3x2xi32>, tensor<1x2x3x1xi32>, tensor<i32>, tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @slice
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %a[1, 2] [2, 3] [1, 1] : tensor<4x5xi1> to tensor<2x3xi1>
// CHECK-NEXT: func.return %[[S]]
// MLIR-LABEL: func.func @slice
// MLIR: tensor.extract_slice %{{.*}}[1, 2] [2, 3] [1, 1] : tensor<4x5xi1> to tensor<2x3xi1>
func.func @slice(%a: tensor<4x5xi1>) -> tensor<2x3xi1> {
  %st = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sz = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.slice %a, %st, %sz : (tensor<4x5xi1>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
