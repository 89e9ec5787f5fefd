// tosa-narrow-f64-to-f32: the cases and expected IR of upstream's
// mlir/test/Dialect/Tosa/tosa-narrow-f64-to-f32{,-aggressive}.mlir.
// RUN: tosa-opt %s --split-input-file -p tosa-narrow-f64-to-f32 | filecheck %s --check-prefixes=COMMON,DEFAULT
// RUN: tosa-opt %s --split-input-file -p 'tosa-narrow-f64-to-f32{convert-function-boundaries=true}' | filecheck %s --check-prefixes=COMMON,FUNCBOUND

// COMMON-LABEL: @test_f64_identity_chain
func.func @test_f64_identity_chain(%arg0: tensor<1xf64>) -> tensor<1xf64> {
  // DEFAULT: %[[CAST_IN:.*]] = tosa.cast %arg0 : (tensor<1xf64>) -> tensor<1xf32>
  // DEFAULT: %[[ID1:.*]] = tosa.identity %[[CAST_IN]] : (tensor<1xf32>) -> tensor<1xf32>
  // FUNCBOUND: %[[ID1:.*]] = tosa.identity %arg0 : (tensor<1xf32>) -> tensor<1xf32>
  %0 = tosa.identity %arg0 : (tensor<1xf64>) -> tensor<1xf64>
  // COMMON: %[[ID2:.*]] = tosa.identity %[[ID1]] : (tensor<1xf32>) -> tensor<1xf32>
  %1 = tosa.identity %0 : (tensor<1xf64>) -> tensor<1xf64>
  // DEFAULT: %[[CAST_OUT:.*]] = tosa.cast %[[ID2]] : (tensor<1xf32>) -> tensor<1xf64>
  // DEFAULT: return %[[CAST_OUT]] : tensor<1xf64>
  // FUNCBOUND: return %[[ID2]] : tensor<1xf32>
  return %1 : tensor<1xf64>
}

// -----

// COMMON-LABEL: @test_f64_const
func.func @test_f64_const() -> tensor<3xf64> {
  // rounded to nearest even; out of f32 range -> inf (APFloat::convert)
  // COMMON: %[[CONST:.*]] = tosa.const values(dense<[1.000000e+00, 0.333333343, 0x7F800000]> : tensor<3xf32>) : () -> tensor<3xf32>
  %0 = "tosa.const"() <{values = dense<[1.0, 0.33333333333333331, 1.0e300]> : tensor<3xf64>}> : () -> tensor<3xf64>
  // DEFAULT: %[[OUT:.*]] = tosa.cast %[[CONST]] : (tensor<3xf32>) -> tensor<3xf64>
  // FUNCBOUND: return %[[CONST]] : tensor<3xf32>
  return %0 : tensor<3xf64>
}

// -----

// COMMON-LABEL: @test_f64_concat
func.func @test_f64_concat(%arg0: tensor<13x21x3xf64>, %arg1: tensor<13x21x3xf64>) -> tensor<26x21x3xf64> {
  // DEFAULT-DAG: tosa.cast %arg0 : (tensor<13x21x3xf64>) -> tensor<13x21x3xf32>
  // DEFAULT-DAG: tosa.cast %arg1 : (tensor<13x21x3xf64>) -> tensor<13x21x3xf32>
  // COMMON: %[[CONCAT:.*]] = tosa.concat %{{.*}}, %{{.*}} axis(0) : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<26x21x3xf32>
  %0 = tosa.concat %arg0, %arg1 axis(0) : (tensor<13x21x3xf64>, tensor<13x21x3xf64>) -> tensor<26x21x3xf64>
  // DEFAULT: tosa.cast %[[CONCAT]] : (tensor<26x21x3xf32>) -> tensor<26x21x3xf64>
  // FUNCBOUND: return %[[CONCAT]] : tensor<26x21x3xf32>
  return %0 : tensor<26x21x3xf64>
}

// -----

// COMMON-LABEL: @test_f64_transpose
func.func @test_f64_transpose(%arg0: tensor<13x21x3xf64>) -> tensor<3x13x21xf64> {
  // COMMON: tosa.transpose %{{.*}} perms([2, 0, 1]) : (tensor<13x21x3xf32>) -> tensor<3x13x21xf32>
  %0 = tosa.transpose %arg0 perms([2, 0, 1]) : (tensor<13x21x3xf64>) -> tensor<3x13x21xf64>
  return %0 : tensor<3x13x21xf64>
}

// -----

// COMMON-LABEL: @test_f64_regions
func.func @test_f64_regions(%arg0: tensor<1xf64>, %arg1: tensor<1xf64>, %arg2: tensor<i1>) -> tensor<1xf64> {
  // COMMON: %[[IF:.*]] = tosa.cond_if %arg2 : tensor<i1> -> tensor<1xf32>
  %0 = tosa.cond_if %arg2 : tensor<i1> -> tensor<1xf64> {
    // COMMON: %[[ID0:.*]] = tosa.identity %{{.*}} : (tensor<1xf32>) -> tensor<1xf32>
    %1 = tosa.identity %arg0 : (tensor<1xf64>) -> tensor<1xf64>
    // COMMON: tosa.yield %[[ID0]] : tensor<1xf32>
    tosa.yield %1 : tensor<1xf64>
  } else {
    %1 = tosa.identity %arg1 : (tensor<1xf64>) -> tensor<1xf64>
    tosa.yield %1 : tensor<1xf64>
  }
  // DEFAULT: tosa.cast %[[IF]] : (tensor<1xf32>) -> tensor<1xf64>
  // FUNCBOUND: return %[[IF]] : tensor<1xf32>
  return %0 : tensor<1xf64>
}

