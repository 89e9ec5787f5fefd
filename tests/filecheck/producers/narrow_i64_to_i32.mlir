// tosa-narrow-i64-to-i32, default options and convert-function-boundaries: the cases and
// expected IR of upstream's mlir/test/Dialect/Tosa/tosa-narrow-i64-to-i32.mlir (upstream's
// materialised casts also print `input_unsigned(false)`, a TOSA 1.1 attribute 1.0.1 lacks).
// RUN: tosa-opt %s --split-input-file -p tosa-narrow-i64-to-i32 | filecheck %s --check-prefixes=COMMON,DEFAULT
// RUN: tosa-opt %s --split-input-file -p 'tosa-narrow-i64-to-i32{convert-function-boundaries=true}' | filecheck %s --check-prefixes=COMMON,FUNCBOUND

// COMMON-LABEL: @test_i64_argmax
func.func @test_i64_argmax(%arg0: tensor<1x513x513x19xi8>) -> tensor<1x513x513xi64> {
  // COMMON: %[[ARGMAX:.*]] = tosa.argmax %arg0 axis(3) : (tensor<1x513x513x19xi8>) -> tensor<1x513x513xi32>
  %0 = tosa.argmax %arg0 axis(3) : (tensor<1x513x513x19xi8>) -> tensor<1x513x513xi64>
  // DEFAULT: %[[CAST:.*]] = tosa.cast %[[ARGMAX]] : (tensor<1x513x513xi32>) -> tensor<1x513x513xi64>
  // DEFAULT: return %[[CAST]] : tensor<1x513x513xi64>
  // FUNCBOUND: return %[[ARGMAX]] : tensor<1x513x513xi32>
  return %0 : tensor<1x513x513xi64>
}

// -----

// COMMON-LABEL: @test_i64_const
func.func @test_i64_const() -> tensor<3xi64> {
  // values saturate to i32 (APInt::truncSSat)
  // COMMON: %[[CONST:.*]] = tosa.const values(dense<[1, 2147483647, -2147483648]> : tensor<3xi32>) : () -> tensor<3xi32>
  %0 = "tosa.const"() <{values = dense<[1, 3000000000, -3000000000]> : tensor<3xi64>}> : () -> tensor<3xi64>
  // DEFAULT: %[[OUT:.*]] = tosa.cast %[[CONST]] : (tensor<3xi32>) -> tensor<3xi64>
  // DEFAULT: return %[[OUT]] : tensor<3xi64>
  // FUNCBOUND: return %[[CONST]] : tensor<3xi32>
  return %0 : tensor<3xi64>
}

// -----

// COMMON-LABEL: @test_regions
func.func @test_regions(%arg0: tensor<1x2xi8>, %arg1: tensor<1xi32>, %arg2: tensor<i1>) -> tensor<1xi32> {
  // COMMON: tosa.cond_if %arg2
  %0 = tosa.cond_if %arg2 : tensor<i1> -> tensor<1xi32> {
    // COMMON: %[[ARGMAX:.*]] = tosa.argmax %arg0 axis(1) : (tensor<1x2xi8>) -> tensor<1xi32>
    %1 = tosa.argmax %arg0 axis(1) : (tensor<1x2xi8>) -> tensor<1xi64>
    // COMMON: %[[CAST:.*]] = tosa.cast %[[ARGMAX]] : (tensor<1xi32>) -> tensor<1xi32>
    %2 = tosa.cast %1 : (tensor<1xi64>) -> tensor<1xi32>
    // COMMON: tosa.yield %[[CAST]] : tensor<1xi32>
    tosa.yield %2 : tensor<1xi32>
  } else {
    tosa.yield %arg1 : tensor<1xi32>
  }
  return %0 : tensor<1xi32>
}

// -----

// COMMON-LABEL: @test_concat
func.func @test_concat(%arg0: tensor<13x21x3xi64>, %arg1: tensor<13x21x3xi64>) -> tensor<26x21x3xi64> {
  // COMMON: tosa.concat %{{.*}}, %{{.*}} axis(0) : (tensor<13x21x3xi32>, tensor<13x21x3xi32>) -> tensor<26x21x3xi32>
  %0 = tosa.concat %arg0, %arg1 axis(0) : (tensor<13x21x3xi64>, tensor<13x21x3xi64>) -> tensor<26x21x3xi64>
  return %0 : tensor<26x21x3xi64>
}

// -----

// COMMON-LABEL: @test_reshape
func.func @test_reshape(%arg0: tensor<13x21x3xi64>) -> tensor<1x819xi64> {
  %1 = tosa.const_shape values(dense<[1, 819]> : tensor<2xindex>) : () -> !tosa.shape<2>
  // COMMON: tosa.reshape %{{.*}}, %{{.*}} : (tensor<13x21x3xi32>, !tosa.shape<2>) -> tensor<1x819xi32>
  %0 = tosa.reshape %arg0, %1 : (tensor<13x21x3xi64>, !tosa.shape<2>) -> tensor<1x819xi64>
  return %0 : tensor<1x819xi64>
}

// -----

// COMMON-LABEL: @test_transition_to_i64
func.func @test_transition_to_i64(%arg0: tensor<1xi32>) -> tensor<1xi64> {
  // COMMON: %[[CAST:.*]] = tosa.cast %arg0 : (tensor<1xi32>) -> tensor<1xi32>
  %0 = tosa.cast %arg0 : (tensor<1xi32>) -> tensor<1xi64>
  // COMMON: %[[IDENTITY:.*]] = tosa.identity %[[CAST]] : (tensor<1xi32>) -> tensor<1xi32>
  %1 = tosa.identity %0 : (tensor<1xi64>) -> tensor<1xi64>
  // DEFAULT: %[[OUT_CAST:.*]] = tosa.cast %[[IDENTITY]] : (tensor<1xi32>) -> tensor<1xi64>
  // DEFAULT: return %[[OUT_CAST]] : tensor<1xi64>
  // FUNCBOUND: return %[[IDENTITY]] : tensor<1xi32>
  return %1 : tensor<1xi64>
}

// -----

// COMMON-LABEL: @test_transition_from_i64
func.func @test_transition_from_i64(%arg0: tensor<1xi64>) -> tensor<1xi32> {
  // DEFAULT: %[[CAST:.*]] = tosa.cast %arg0 : (tensor<1xi64>) -> tensor<1xi32>
  // DEFAULT: %[[IDENTITY:.*]] = tosa.identity %[[CAST]] : (tensor<1xi32>) -> tensor<1xi32>
  // FUNCBOUND: %[[IDENTITY:.*]] = tosa.identity %arg0 : (tensor<1xi32>) -> tensor<1xi32>
  %0 = tosa.identity %arg0 : (tensor<1xi64>) -> tensor<1xi64>
  // COMMON: %[[OUT_CAST:.*]] = tosa.cast %[[IDENTITY]] : (tensor<1xi32>) -> tensor<1xi32>
  %1 = tosa.cast %0 : (tensor<1xi64>) -> tensor<1xi32>
  // COMMON: return %[[OUT_CAST]] : tensor<1xi32>
  return %1 : tensor<1xi32>
}

// -----

// COMMON-LABEL: @test_clamp
func.func @test_clamp(%arg0: tensor<100xi64>) -> tensor<100xi64> {
  // COMMON: tosa.clamp %{{.*}} min_val(-2147483648 : i32) max_val(2147483647 : i32) : (tensor<100xi32>) -> tensor<100xi32>
  %1 = tosa.clamp %arg0 min_val(-2147483648 : i64) max_val(2147483647 : i64) : (tensor<100xi64>) -> tensor<100xi64>
  return %1 : tensor<100xi64>
}

// -----

// COMMON-LABEL: @test_dense_resource_i64
func.func @test_dense_resource_i64() -> tensor<1x2xi64> {
  // COMMON: %[[CONST:.*]] = tosa.const values(dense_resource<resource> : tensor<1x2xi32>) : () -> tensor<1x2xi32>
  %1 = "tosa.const"() <{values = dense_resource<resource> : tensor<1x2xi64>}> : () -> tensor<1x2xi64>
  // DEFAULT: tosa.cast %[[CONST]] : (tensor<1x2xi32>) -> tensor<1x2xi64>
  // FUNCBOUND: return %[[CONST]] : tensor<1x2xi32>
  return %1 : tensor<1x2xi64>
}
{-#
  dialect_resources: {
    builtin: {
      // the blob in the i32 layout (alignment 4), values saturated: 7, -2147483648
      // COMMON: resource: "0x0400000007000000{{0+}}80"
      resource: "0x080000000700000000000000FFFFFFFF7FFFFFFF"
    }
  }
#-}
