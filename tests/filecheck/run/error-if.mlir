// RUN: not tosa-run %s 2>&1 | filecheck %s

// Spec 2.6.10 NEGATE: ERROR_IF(!is_same<in_out_t,i8_t>() && input1_zp != 0). The zero point
// is computed by another op, so only the run can see its value.
func.func @main() -> tensor<2xi16> {
  %a = "tosa.const"() {values = dense<[1, 2]> : tensor<2xi16>} : () -> tensor<2xi16>
  %z0 = "tosa.const"() {values = dense<3> : tensor<1xi16>} : () -> tensor<1xi16>
  %z1 = "tosa.const"() {values = dense<0> : tensor<1xi16>} : () -> tensor<1xi16>
  %zp = tosa.identity %z0 : (tensor<1xi16>) -> tensor<1xi16>
  %c = tosa.negate %a, %zp, %z1 : (tensor<2xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<2xi16>
  return %c : tensor<2xi16>
}
// CHECK: error-if.mlir:10:8: error: ERROR_IF(!is_same<in_out_t,i8_t>() && input1_zp != 0) in 'tosa.negate'
