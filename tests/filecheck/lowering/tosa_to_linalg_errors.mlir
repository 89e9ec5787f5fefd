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

func.func @table_dynamic_table(%x: tensor<?xi8>, %t: tensor<?xi8>) -> tensor<?xi8> {
  // the input may be dynamic, the table may not: the diagnostic names the operand and the dim
  // expected-error @+1 {{cannot lower 'tosa.table': operand #1 has a dynamic dimension 0 (tensor<?xi8>); 'tosa.table' lowers dynamic sizes only in input1 and output (the table stays static)}}
  %0 = tosa.table %x, %t : (tensor<?xi8>, tensor<?xi8>) -> tensor<?xi8>
  return %0 : tensor<?xi8>
}

// -----

func.func @rescale_dynamic_parameters(%x: tensor<2x?xi8>, %m: tensor<?xi16>) -> tensor<2x?xi8> {
  %s = tosa.const values(dense<15> : tensor<2xi8>) : () -> tensor<2xi8>
  %zp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  // the input's channel dim may be dynamic (the static parameters give its size), the
  // parameters may not
  // expected-error @+1 {{cannot lower 'tosa.rescale': operand #1 has a dynamic dimension 0 (tensor<?xi16>); 'tosa.rescale' lowers dynamic sizes only in input and output (the parameters stay static)}}
  %0 = tosa.rescale %x, %m, %s, %zp, %zp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<2x?xi8>, tensor<?xi16>, tensor<2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x?xi8>
  return %0 : tensor<2x?xi8>
}

// -----

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot lower 'tosa.sigmoid': operand #0 is an unranked tensor (tensor<*xf32>); static shapes are required}}
  %0 = tosa.sigmoid %a : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
