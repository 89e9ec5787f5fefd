// one-shot-bufferize: tensors -> memrefs, destination passing, out-params, deallocs.
// (Its diagnostics are tested in tests/test_bufferize.py::test_diagnostics.)
// RUN: tosa-opt %s -p one-shot-bufferize | filecheck %s
// RUN: tosa-opt %s -p one-shot-bufferize --print-op-generic | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// RUN: tosa-opt %s -p one-shot-bufferize --print-op-generic | %iree-opt | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// A destination-passing chain: the first generic writes a fresh buffer, the last one the
// out-param; the constant is a read-only global; no copy anywhere.
// CHECK: "memref.global"() <{sym_name = "__constant_2x3xf32", type = memref<2x3xf32>, initial_value = dense<{{.*}}> : tensor<2x3xf32>, sym_visibility = "private", constant, alignment = 64 : i64}>
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %a: memref<2x3xf32>, %b: memref<2x3xf32>, %[[OUT:[^:]*]]: memref<2x3xf32>) attributes {tosa_xdsl.out_params = 1 : i64} {
// CHECK-NOT: memref.copy
// CHECK: %[[T:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK: linalg.generic {{.*}} ins(%a, %b : memref<2x3xf32>, memref<2x3xf32>) outs(%[[T]] : memref<2x3xf32>)
// CHECK-NOT: memref.copy
// CHECK: %[[C:.*]] = memref.get_global @__constant_2x3xf32 : memref<2x3xf32>
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} ins(%[[T]], %[[C]] : memref<2x3xf32>, memref<2x3xf32>) outs(%[[OUT]] : memref<2x3xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[T]] : memref<2x3xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// MLIR-LABEL: func.func @chain
// MLIR: memref.alloc
// MLIR: linalg.generic
// MLIR: memref.get_global
// MLIR: memref.dealloc
func.func @chain(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %c = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %c : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// fill + matmul: both write the out-param in place (the matmul reads its init).
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %a: memref<2x3xf32>, %b: memref<3x4xf32>, %[[O:[^:]*]]: memref<2x4xf32>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[O]] : memref<2x4xf32>)
// CHECK-NEXT: linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%[[O]] : memref<2x4xf32>)
// CHECK-NEXT: func.return
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

// Inputs are never written: inserting into an argument copies it first (into the
// out-param, which then is the destination).
// CHECK-LABEL: func.func @insert(
// CHECK-SAME: %a: memref<4xi16>, %[[O:[^:]*]]: memref<4xi16>)
// CHECK: "memref.copy"(%a, %[[O]])
// CHECK-NEXT: memref.store %{{.*}}, %[[O]][%{{.*}}] : memref<4xi16>
func.func @insert(%a: tensor<4xi16>) -> tensor<4xi16> {
  %i = arith.constant 1 : index
  %j = arith.constant 3 : index
  %v = tensor.extract %a[%i] : tensor<4xi16>
  %0 = tensor.insert %v into %a[%j] : tensor<4xi16>
  return %0 : tensor<4xi16>
}

// Slices are views; insert_slice copies into a subview of its destination; pad fills a
// new buffer and copies into the interior.
// CHECK-LABEL: func.func @slices
// CHECK: memref.subview %a[1, 2] [2, 3] [2, 1] : memref<4x6xi32> to memref<2x3xi32, strided<[12, 1], offset: 8>>
// CHECK: linalg.fill
// CHECK: memref.subview %{{.*}}[1, 0] [4, 6] [1, 1] : memref<6x7xi32> to memref<4x6xi32, strided<[7, 1], offset: 7>>
// CHECK: "memref.copy"(%a,
// CHECK: memref.collapse_shape
func.func @slices(%a: tensor<4x6xi32>) -> (tensor<2x3xi32>, tensor<6x7xi32>, tensor<24xi32>) {
  %0 = tensor.extract_slice %a[1, 2] [2, 3] [2, 1] : tensor<4x6xi32> to tensor<2x3xi32>
  %p = arith.constant 0 : i32
  %1 = tensor.pad %a low[1, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %p : i32
  } : tensor<4x6xi32> to tensor<6x7xi32>
  %2 = tensor.collapse_shape %a [[0, 1]] : tensor<4x6xi32> into tensor<24xi32>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<6x7xi32>, tensor<24xi32>
}
