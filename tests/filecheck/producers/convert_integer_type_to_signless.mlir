// tosa-convert-integer-type-to-signless: cases and expected IR of upstream's
// mlir/test/Dialect/Tosa/tosa-convert-integer-type-to-signless.mlir.
// RUN: tosa-opt %s --split-input-file -p tosa-convert-integer-type-to-signless | filecheck %s

// CHECK-LABEL: @test_unsigned_function_signature
// CHECK-SAME: %arg0: tensor<1xi8>, %arg1: tensor<1xi8>
func.func @test_unsigned_function_signature(%arg0: tensor<1xui8>, %arg1: tensor<1xui8>) -> (tensor<1xui8>, tensor<1xui8>) {
  // CHECK: return %arg0, %arg1 : tensor<1xi8>, tensor<1xi8>
  return %arg0, %arg1 : tensor<1xui8>, tensor<1xui8>
}

// -----

// The constant keeps its bits: ui8 255 reads back as i8 -1.
// CHECK-LABEL: @test_unsigned_const_data
// CHECK: tosa.const values(dense<[-1, -2, 0, 1, -128]> : tensor<5xi8>) : () -> tensor<5xi8>
func.func @test_unsigned_const_data() -> tensor<5xui8> {
  %0 = "tosa.const"() <{values = dense<[255, 254, 0, 1, 128]> : tensor<5xui8>}> : () -> tensor<5xui8>
  return %0 : tensor<5xui8>
}

// -----

// CHECK-LABEL: @test_no_change
// CHECK-SAME: %arg0: tensor<13x21x3xi8>
func.func @test_no_change(%arg0: tensor<13x21x3xi8>) -> tensor<13x21x3xi8> {
  %0 = tosa.reverse %arg0 axis(0) : (tensor<13x21x3xi8>) -> tensor<13x21x3xi8>
  // CHECK: return %0 : tensor<13x21x3xi8>
  return %0 : tensor<13x21x3xi8>
}

// -----

// CHECK-LABEL: @test_regions
// CHECK-SAME: %arg0: tensor<i32>, %arg1: tensor<i32>
func.func @test_regions(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<i1>) -> tensor<ui32> {
  // CHECK: tosa.cond_if %arg2 (%arg3 = %arg0, %arg4 = %arg1) : tensor<i1> (tensor<i32>, tensor<i32>) -> tensor<i32>
  %0 = tosa.cond_if %arg2 (%arg3 = %arg0, %arg4 = %arg1) : tensor<i1> (tensor<ui32>, tensor<ui32>) -> tensor<ui32> {
  ^bb0(%arg3: tensor<ui32>, %arg4: tensor<ui32>):
    // CHECK: tosa.add %arg3, %arg4 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = tosa.add %arg3, %arg4 : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    // CHECK: tosa.yield %{{.*}} : tensor<i32>
    tosa.yield %1 : tensor<ui32>
  } else {
  ^bb0(%arg3: tensor<ui32>, %arg4: tensor<ui32>):
    %1 = tosa.sub %arg3, %arg4 : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    tosa.yield %1 : tensor<ui32>
  }
  // CHECK: return %{{.*}} : tensor<i32>
  return %0 : tensor<ui32>
}

// -----

// A ui8 zero point keeps its bits: 254 becomes -2 (upstream's test_rescale_unsigned_zp).
// CHECK-LABEL: @test_rescale_unsigned_zp
// CHECK-SAME: %arg0: tensor<1x1xi8>
// CHECK: %[[ZP_IN:.*]] = tosa.const values(dense<-2> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK: tosa.rescale %arg0, %{{.*}}, %{{.*}}, %[[ZP_IN]], %{{.*}} {{.*}}input_unsigned(true) output_unsigned(false) : (tensor<1x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1xi8>
func.func @test_rescale_unsigned_zp(%arg0: tensor<1x1xui8>) -> tensor<1x1xi8> {
  %0 = "tosa.const"() <{values = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<254> : tensor<1xui8>}> : () -> tensor<1xui8>
  %3 = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %arg0, %0, %1, %2, %3 {input_unsigned = true, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1xui8>, tensor<1xi32>, tensor<1xi8>, tensor<1xui8>, tensor<1xi8>) -> tensor<1x1xi8>
  return %r : tensor<1x1xi8>
}
