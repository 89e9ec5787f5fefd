// Operators without a legalization, and data-dependent ones, are errors naming the operator.
// RUN: not tosa-opt %s -p tosa-legalize-tfl 2>&1 | filecheck %s
// CHECK: error: 'tfl.where'
// CHECK-SAME: output shape depends on the input data
func.func @where(%c: tensor<4xi1>) -> tensor<?x1xi64> {
  %0 = "tfl.where"(%c) : (tensor<4xi1>) -> tensor<?x1xi64>
  func.return %0 : tensor<?x1xi64>
}
