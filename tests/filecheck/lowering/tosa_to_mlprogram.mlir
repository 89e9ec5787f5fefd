// tosa-to-mlprogram: variables -> ml_program globals, loads and stores.
// RUN: tosa-opt %s -p tosa-to-mlprogram | filecheck %s
// RUN: tosa-opt %s -p tosa-to-mlprogram --print-op-generic | %mlir-opt-22 --allow-unregistered-dialect | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// CHECK: ml_program.global private mutable @v(dense<[1, 2]> : tensor<2xi8>) : tensor<2xi8>
// CHECK-NEXT: ml_program.global private mutable @w : tensor<2x2xf32>
// CHECK-LABEL: func.func @vars
// CHECK-NEXT: %[[A:.*]] = ml_program.global_load @v : tensor<2xi8>
// CHECK-NEXT: ml_program.global_store @v = %x : tensor<2xi8>
// CHECK-NEXT: ml_program.global_store @w = %y : tensor<2x2xf32>
// CHECK-NEXT: %[[B:.*]] = ml_program.global_load @w : tensor<2x2xf32>
// CHECK-NEXT: func.return %[[A]], %[[B]]
// CHECK-NOT: tosa.
// MLIR: ml_program.global private mutable @v(dense<[1, 2]> : tensor<2xi8>) : tensor<2xi8>
// MLIR: ml_program.global private mutable @w : tensor<2x2xf32>
// MLIR: ml_program.global_load @v : tensor<2xi8>
// MLIR: ml_program.global_store @v = %{{.*}} : tensor<2xi8>
// MLIR: ml_program.global_store @w = %{{.*}} : tensor<2x2xf32>
// MLIR: ml_program.global_load @w : tensor<2x2xf32>
tosa.variable @v = dense<[1, 2]> : tensor<2xi8>
tosa.variable @w : tensor<2x2xf32>
func.func @vars(%x: tensor<2xi8>, %y: tensor<2x2xf32>) -> (tensor<2xi8>, tensor<2x2xf32>) {
  %0 = tosa.variable_read @v : tensor<2xi8>
  tosa.variable_write @v, %x : tensor<2xi8>
  tosa.variable_write @w, %y : tensor<2x2xf32>
  %1 = tosa.variable_read @w : tensor<2x2xf32>
  return %0, %1 : tensor<2xi8>, tensor<2x2xf32>
}
