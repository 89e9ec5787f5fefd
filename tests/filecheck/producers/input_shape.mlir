// tosa-experimental-input-shape: cases and expected IR of upstream's
// mlir/test/Dialect/Tosa/tosa-input-shape.mlir (option values quoted: xDSL's pipeline syntax).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -p 'tosa-experimental-input-shape{args="arg0:2x16","arg2:64x9"}' | filecheck %s

// CHECK-LABEL: @test_func_with_ops
// CHECK-SAME: %arg0: tensor<2x16xi32>, %arg1: tensor<?x256xf32>, %arg2: tensor<64x9xf32>
func.func @test_func_with_ops(%arg0: tensor<2x?xi32>, %arg1: tensor<?x256xf32>, %arg2: tensor<?x9xf32>) -> (tensor<2x?xi32>, tensor<?x256xf32>, tensor<?x9xf32>) {
  // CHECK: tosa.add %arg0, %arg0 : (tensor<2x16xi32>, tensor<2x16xi32>)
  %0 = tosa.add %arg0, %arg0 : (tensor<2x?xi32>, tensor<2x?xi32>) -> tensor<2x?xi32>
  // CHECK: tosa.reciprocal %arg1 : (tensor<?x256xf32>)
  %1 = tosa.reciprocal %arg1 : (tensor<?x256xf32>) -> tensor<?x256xf32>
  // CHECK: tosa.sub %arg2, %arg2 : (tensor<64x9xf32>, tensor<64x9xf32>)
  %2 = tosa.sub %arg2, %arg2 : (tensor<?x9xf32>, tensor<?x9xf32>) -> tensor<?x9xf32>
  return %0, %1, %2 : tensor<2x?xi32>, tensor<?x256xf32>, tensor<?x9xf32>
}

// -----

// CHECK-LABEL: @test_empty_func
// CHECK: return %arg0, %arg1, %arg2 : tensor<2x16xi32>, tensor<?x256xf32>, tensor<64x9xf32>
func.func @test_empty_func(%arg0: tensor<2x?xi32>, %arg1: tensor<?x256xf32>, %arg2: tensor<?x9xf32>) -> (tensor<2x?xi32>, tensor<?x256xf32>, tensor<?x9xf32>) {
  return %arg0, %arg1, %arg2 : tensor<2x?xi32>, tensor<?x256xf32>, tensor<?x9xf32>
}

// -----

// expected-error @+1 {{provided arg index 2 is larger than number of inputs 1}}
func.func @test_wrong_number_input_args(%arg0: tensor<2x?xf32>) -> tensor<2x?xf32> {
  return %arg0 : tensor<2x?xf32>
}

// -----

// expected-error @+1 {{arg0 has incompatible shape with requested input shape (2, 16), got 'tensor<1x?xf32>'}}
func.func @test_incompatible_input_shape(%arg0: tensor<1x?xf32>, %arg1: tensor<1x?xf32>, %arg2: tensor<1x?xf32>) -> tensor<1x?xf32> {
  return %arg0 : tensor<1x?xf32>
}

// RUN: not tosa-opt %s -p 'tosa-experimental-input-shape{args="arg0:0x16"}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: tosa-experimental-input-shape: expected 'argN:D0xD1...' with dims > 0, got 'arg0:0x16'

// Dynamic dims need EXT-DYNAMIC (upstream's level-check wording); static ones validate.
// RUN: not tosa-opt %s --split-input-file -p 'tosa-attach-target{profiles=pro_int,pro_fp},tosa-validate' -o /dev/null 2>&1 | filecheck %s --check-prefix=DYN
// DYN: error: 'tosa.add' op failed level check: operand shape dimension cannot be dynamic when targeting TOSA specification version 1.0 or below
// RUN: tosa-opt %s --split-input-file -p 'tosa-attach-target{profiles=pro_int,pro_fp extensions=dynamic},tosa-validate' -o /dev/null
