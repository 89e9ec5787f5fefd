// one-shot-bufferize of a tensor.extract_slice with a dynamic size (static offsets and strides):
// a memref.subview with a dynamic size and the static strides of its buffer, as upstream's
// (NNEF layout.nonzero cuts its data-dependent extent from the upper-bound buffer this way).
// The function boundary returns an identity layout: ours copies the view into a buffer sized
// by memref.dim (upstream's identity-layout-map casts the strided view instead).
// RUN: tosa-opt %s -p one-shot-bufferize | filecheck %s
// RUN: tosa-opt %s -p one-shot-bufferize --print-op-generic | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// RUN: %mlir-opt-22 %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: mlir-opt-22

// CHECK-LABEL: func.func @head(
// CHECK-SAME: %x: memref<2x12xi32>, %k: index) -> memref<2x?xi32> {
// CHECK-NEXT: %[[V:.*]] = memref.subview %x[0, 0] [2, %k] [1, 1] : memref<2x12xi32> to memref<2x?xi32, strided<[12, 1]>>
// CHECK: %[[D:.*]] = memref.dim %[[V]], %{{.*}} : memref<2x?xi32, strided<[12, 1]>>
// CHECK-NEXT: %[[A:.*]] = memref.alloc(%[[D]]) : memref<2x?xi32>
// CHECK-NEXT: "memref.copy"(%[[V]], %[[A]])
// CHECK-NEXT: func.return %[[A]] : memref<2x?xi32>
// MLIR: memref.subview %{{.*}}[0, 0] [2, %{{.*}}] [1, 1] : memref<2x12xi32> to memref<2x?xi32, strided<[12, 1]>>
// UPSTREAM: memref.subview %{{.*}}[0, 0] [2, %{{.*}}] [1, 1] : memref<2x12xi32> to memref<2x?xi32, strided<[12, 1]>>
func.func @head(%x: tensor<2x12xi32>, %k: index) -> tensor<2x?xi32> {
  %0 = tensor.extract_slice %x[0, 0] [2, %k] [1, 1] : tensor<2x12xi32> to tensor<2x?xi32>
  return %0 : tensor<2x?xi32>
}
