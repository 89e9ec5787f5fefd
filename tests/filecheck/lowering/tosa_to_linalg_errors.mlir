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

func.func @dynamic(%x: tensor<1x?x2x1xf32>) -> tensor<1x?x3x1xf32> {
  %s = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{cannot lower 'tosa.resize': operand #0 has a dynamic dimension 1 (tensor<1x?x2x1xf32>); 'tosa.resize' lowers dynamic sizes only in the batch dimension (input and output dim 0)}}
  %0 = tosa.resize %x, %s, %o, %o {mode = NEAREST_NEIGHBOR} : (tensor<1x?x2x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x?x3x1xf32>
  return %0 : tensor<1x?x3x1xf32>
}

// -----

func.func @table_dynamic_table(%x: tensor<?xi8>, %t: tensor<?xi8>) -> tensor<?xi8> {
  // the input may be dynamic, the table may not: the diagnostic names the operand and the dim
  // expected-error @+1 {{cannot lower 'tosa.table': operand #1 has a dynamic dimension 0 (tensor<?xi8>); 'tosa.table' lowers dynamic sizes only in input1 and output (the table stays static)}}
  %0 = tosa.table %x, %t : (tensor<?xi8>, tensor<?xi8>) -> tensor<?xi8>
  return %0 : tensor<?xi8>
}

// -----

func.func @rescale_per_channel_dynamic_channel(%x: tensor<2x?xi8>) -> tensor<2x?xi8> {
  %m = tosa.const values(dense<[19689, 19689]> : tensor<2xi16>) : () -> tensor<2xi16>
  %s = tosa.const values(dense<15> : tensor<2xi8>) : () -> tensor<2xi8>
  %zp = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  // expected-error @+1 {{cannot lower 'tosa.rescale': operand #0 has a dynamic dimension 1 (tensor<2x?xi8>); 'tosa.rescale' lowers a dynamic channel dim only with per_channel = false}}
  %0 = tosa.rescale %x, %m, %s, %zp, %zp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<2x?xi8>, tensor<2xi16>, tensor<2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x?xi8>
  return %0 : tensor<2x?xi8>
}

// -----

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot lower 'tosa.sigmoid': operand #0 is an unranked tensor (tensor<*xf32>); static shapes are required}}
  %0 = tosa.sigmoid %a : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gather_dynamic_k(%v: tensor<2x?x3xf32>, %i: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
  // N and W may be dynamic, K may not (it bounds the clamped index)
  // expected-error @+1 {{cannot lower 'tosa.gather': operand #0 has a dynamic dimension 1 (tensor<2x?x3xf32>); 'tosa.gather' lowers dynamic sizes only in N and W (values dim 0, indices dims 0 and 1, output dims 0 and 1)}}
  %0 = tosa.gather %v, %i : (tensor<2x?x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
