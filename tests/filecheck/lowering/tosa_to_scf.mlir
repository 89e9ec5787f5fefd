// tosa-to-scf: cond_if -> scf.if, while_loop -> scf.while, tosa.yield -> scf.yield/condition.
// RUN: tosa-opt %s -p tosa-to-scf | filecheck %s
// RUN: tosa-opt %s -p tosa-to-scf,tosa-to-arith --print-op-generic | %mlir-opt-22 --allow-unregistered-dialect | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// CHECK-LABEL: func.func @cond_if
// CHECK-NEXT: %[[B:.*]] = tensor.extract %c[] : tensor<i1>
// CHECK-NEXT: %[[R:.*]] = scf.if %[[B]] -> (tensor<2xf32>) {
// CHECK-NEXT: %[[T:.*]] = tosa.add %x, %y
// CHECK-NEXT: scf.yield %[[T]] : tensor<2xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[E:.*]] = tosa.sub %x, %y
// CHECK-NEXT: scf.yield %[[E]] : tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.return %[[R]]
// MLIR-LABEL: func.func @cond_if
// MLIR: tensor.extract %{{.*}}[] : tensor<i1>
// MLIR: scf.if
// MLIR: scf.yield
// MLIR: } else {
// MLIR: scf.yield
func.func @cond_if(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.cond_if %c (%a = %x, %b = %y) : tensor<i1> (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    %1 = tosa.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %1 : tensor<2xf32>
  } else {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    %1 = tosa.sub %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %1 : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @while_loop
// CHECK-NEXT: %[[R:.*]], %[[R1:.*]] = scf.while (%[[I:.*]] = %i0, %[[X:.*]] = %x0) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
// CHECK: %[[C:.*]] = tosa.greater
// CHECK-NEXT: %[[B:.*]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK-NEXT: scf.condition(%[[B]]) %[[I]], %[[X]] : tensor<i32>, tensor<i32>
// CHECK-NEXT: } do {
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<i32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NOT: tosa.yield
// CHECK: func.return %[[R]], %[[R1]]
// MLIR-LABEL: func.func @while_loop
// MLIR: scf.while
// MLIR: scf.condition
// MLIR: } do {
// MLIR: scf.yield
func.func @while_loop(%i0: tensor<i32>, %x0: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %r:2 = tosa.while_loop (%i = %i0, %x = %x0) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %five = "tosa.const"() {values = dense<5> : tensor<i32>} : () -> tensor<i32>
    %c = tosa.greater %five, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %x: tensor<i32>):
    %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
    %i1 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %x1 = tosa.add %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %i1, %x1 : tensor<i32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<i32>
}

// scatter: an scf.for nest over N, W, C carrying the tensor; k = indices[n, w] read once per
// (n, w); each element inserted at [n, k, c] (spec 2.11.2 writes each output element at most
// once, so the loop order does not matter).
// CHECK-LABEL: func.func @scatter
// (the index is clamped to [0, K-1] = [0, 4]: an out-of-range index must not write outside
// the buffer)
// CHECK: %[[K5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[K5]], %[[ONE]] : index
// CHECK: %[[R:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T0:.*]] = %v) -> (tensor<2x5x3xf32>) {
// CHECK: %[[RW:.*]] = scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T1:.*]] = %[[T0]]) -> (tensor<2x5x3xf32>) {
// CHECK-NEXT: %[[K32:.*]] = tensor.extract %i[%[[N]], %[[W]]] : tensor<2x4xi32>
// CHECK-NEXT: %[[KR:.*]] = arith.index_cast %[[K32]] : i32 to index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[KL:.*]] = arith.maxsi %[[KR]], %[[ZERO]] : index
// CHECK-NEXT: %[[K:.*]] = arith.minsi %[[KL]], %[[LAST]] : index
// CHECK: %[[RC:.*]] = scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T2:.*]] = %[[T1]]) -> (tensor<2x5x3xf32>) {
// CHECK-NEXT: %[[X:.*]] = tensor.extract %x[%[[N]], %[[W]], %[[C]]] : tensor<2x4x3xf32>
// CHECK-NEXT: %[[T3:.*]] = tensor.insert %[[X]] into %[[T2]][%[[N]], %[[K]], %[[C]]] : tensor<2x5x3xf32>
// CHECK-NEXT: scf.yield %[[T3]] : tensor<2x5x3xf32>
// CHECK: scf.yield %[[RC]] : tensor<2x5x3xf32>
// CHECK: scf.yield %[[RW]] : tensor<2x5x3xf32>
// CHECK: func.return %[[R]] : tensor<2x5x3xf32>
// MLIR-LABEL: func.func @scatter
// MLIR-COUNT-3: scf.for
// MLIR: tensor.insert
func.func @scatter(%v: tensor<2x5x3xf32>, %i: tensor<2x4xi32>, %x: tensor<2x4x3xf32>) -> tensor<2x5x3xf32> {
  %0 = tosa.scatter %v, %i, %x : (tensor<2x5x3xf32>, tensor<2x4xi32>, tensor<2x4x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// scatter with dynamic dims (EXT-DYNAMIC): the loop bounds N, W, C and the index bound K - 1
// are tensor.dim values (upstream's ScatterOpConverter sizes its loops the same way)
// CHECK-LABEL: func.func @scatter_dynamic
// CHECK-DAG: %[[N:.*]] = tensor.dim %v, %{{.*}} : tensor<?x?x?xi8>
// CHECK-DAG: %[[C:.*]] = tensor.dim %v, %{{.*}} : tensor<?x?x?xi8>
// CHECK-DAG: %[[W:.*]] = tensor.dim %i, %{{.*}} : tensor<?x?xi32>
// CHECK-DAG: %[[K:.*]] = tensor.dim %v, %{{.*}} : tensor<?x?x?xi8>
// CHECK: %[[LAST:.*]] = arith.subi %[[K]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[W]] step
// CHECK: arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C]] step
// CHECK: tensor.insert %{{.*}} into %{{.*}} : tensor<?x?x?xi8>
// MLIR-LABEL: func.func @scatter_dynamic
// MLIR-COUNT-4: tensor.dim
// MLIR-COUNT-3: scf.for
func.func @scatter_dynamic(%v: tensor<?x?x?xi8>, %i: tensor<?x?xi32>, %x: tensor<?x?x?xi8>) -> tensor<?x?x?xi8> {
  %0 = tosa.scatter %v, %i, %x : (tensor<?x?x?xi8>, tensor<?x?xi32>, tensor<?x?x?xi8>) -> tensor<?x?x?xi8>
  return %0 : tensor<?x?x?xi8>
}
