// A dense_resource whose blob the file does not define parses and verifies (as in MLIR), and
// running it is an error located at the constant.
// RUN: tosa-opt %s -o /dev/null
// RUN: not tosa-run %s 2>&1 | filecheck %s

func.func @main() -> tensor<2xf32> {
  // CHECK: dense_resource_missing.mlir:[[# @LINE + 1]]:8: error: {{.*}}dense_resource<nowhere> has no blob
  %0 = "tosa.const"() <{values = dense_resource<nowhere> : tensor<2xf32>}> : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
