// linalg-fuse-elementwise-ops: an elementwise linalg.generic whose one result feeds only an
// elementwise consumer is fused into it (upstream MLIR's pass of this name, its default
// control: single-use producer). The fused op takes the consumer's inputs with the producer's
// in place of the fused operand (maps composed with the consumer's map of that operand), and
// runs the producer's body, then the consumer's.
// RUN: tosa-opt %s -p linalg-fuse-elementwise-ops | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @chain
// CHECK:       %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %x, %b : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT:  ^bb0(%[[Y:.*]]: f32, %[[X:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[X]], %[[B]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.addf %[[Y]], %[[S]] : f32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[M:.*]] = arith.maximumf %[[T]], %[[Z]] : f32
// CHECK-NEXT:    linalg.yield %[[M]] : f32
// CHECK-NOT:   linalg.generic
// CHECK:       func.return %[[R]]
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.addf %a, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  func.return %2 : tensor<4x8xf32>
}

// The consumer reads the producer's result transposed: the producer's input map is composed
// with the consumer's (d0, d1) -> (d1, d0).
// CHECK-LABEL: func.func @transposed
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-NOT:   linalg.generic
func.func @transposed(%x: tensor<4x8xi32>) -> tensor<8x4xi32> {
  %e0 = tensor.empty() : tensor<4x8xi32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xi32>) outs(%e0 : tensor<4x8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.addi %a, %a : i32
    linalg.yield %s : i32
  } -> tensor<4x8xi32>
  %e1 = tensor.empty() : tensor<8x4xi32>
  %1 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xi32>) outs(%e1 : tensor<8x4xi32>) {
  ^bb0(%a: i32, %o: i32):
    %t = arith.muli %a, %a : i32
    linalg.yield %t : i32
  } -> tensor<8x4xi32>
  func.return %1 : tensor<8x4xi32>
}

// Not fused: the producer's result has two uses (upstream's default control function).
// CHECK-LABEL: func.func @two_uses
// CHECK-COUNT-2: linalg.generic
func.func @two_uses(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e0 = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e0 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// Not fused: a reduction consumer.
// CHECK-LABEL: func.func @reduction_consumer
// CHECK-COUNT-2: linalg.generic
func.func @reduction_consumer(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// A transpose of a constant folds into the transposed constant (upstream's pass applies the
// linalg constant-folding patterns too): weights are packed once, at compile time.
// CHECK-LABEL: func.func @constant_transpose
// CHECK:         %[[C:.*]] = arith.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-NOT:     linalg.transpose
// CHECK:         func.return %[[C]]
func.func @constant_transpose() -> tensor<3x2xi32> {
  %c = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %e = tensor.empty() : tensor<3x2xi32>
  %t = linalg.transpose ins(%c : tensor<2x3xi32>) outs(%e : tensor<3x2xi32>) permutation = [1, 0]
  func.return %t : tensor<3x2xi32>
}
