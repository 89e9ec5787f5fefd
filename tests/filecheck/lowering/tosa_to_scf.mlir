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
