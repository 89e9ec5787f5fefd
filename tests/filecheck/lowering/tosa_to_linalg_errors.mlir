// tosa-to-linalg and the pipeline stop with a located error naming the op they cannot lower:
// CUSTOM (no semantics to lower) and dynamic dimensions where the op's lowering is
// static-only (docs/lowering.md lists which operators lower dynamic dims).
// RUN: tosa-opt %s -p tosa-to-linalg --split-input-file --verify-diagnostics -o /dev/null
// RUN: tosa-opt %s -p tosa-to-linalg-pipeline{validation=false} --split-input-file --verify-diagnostics -o /dev/null

func.func @custom(%a: tensor<10xi32>) -> tensor<10xi32> {
  // expected-error @+1 {{cannot lower 'tosa.custom' (operator_name "custom_test"): a custom operator has no TOSA semantics to lower}}
  %0 = tosa.custom %a {domain_name = "tosa_mlir_test", implementation_attrs = "", operator_name = "custom_test"} : (tensor<10xi32>) -> tensor<10xi32>
  return %0 : tensor<10xi32>
}

// -----

func.func @dynamic(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{cannot lower 'tosa.reverse': operand #0 has a dynamic dimension (tensor<?x3xf32>); static shapes are required}}
  %0 = tosa.reverse %a {axis = 1 : i32} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot lower 'tosa.sigmoid': operand #0 is an unranked tensor (tensor<*xf32>); static shapes are required}}
  %0 = tosa.sigmoid %a : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
