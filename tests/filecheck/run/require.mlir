// RUN: not tosa-run %s 2>&1 | filecheck %s
// RUN: tosa-run %s --allow-unpredictable --print 2>&1 | filecheck %s --check-prefix=ALLOW

// Spec 2.5.1 via apply_add_s: i32 overflow is a REQUIRE failure (unpredictable graph).
func.func @main() -> tensor<1xi32> {
  %a = "tosa.const"() {values = dense<2147483647> : tensor<1xi32>} : () -> tensor<1xi32>
  %b = "tosa.const"() {values = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %c = tosa.add %a, %b : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  return %c : tensor<1xi32>
}
// CHECK: require.mlir:8:8: error: graph is unpredictable: REQUIRE({{.*}}) failed in 'tosa.add'
// ALLOW: require.mlir:8:8: warning: graph is unpredictable: REQUIRE({{.*}}) failed in 'tosa.add'
// ALLOW: result #0: tensor<1xi32>
