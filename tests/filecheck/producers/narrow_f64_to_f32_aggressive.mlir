// tosa-narrow-f64-to-f32{aggressive-rewrite=true} (upstream's tosa-narrow-f64-to-f32-aggressive.mlir).
// RUN: tosa-opt %s -p 'tosa-narrow-f64-to-f32{aggressive-rewrite=true}' | filecheck %s --check-prefix=AGGR

// Computing operators only with aggressive-rewrite (upstream's -aggressive test).
// AGGR-LABEL: @test_f64_add
func.func @test_f64_add(%arg0: tensor<13x21x1xf64>, %arg1: tensor<13x21x3xf64>) -> tensor<13x21x3xf64> {
  // AGGR: tosa.add %{{.*}}, %{{.*}} : (tensor<13x21x1xf32>, tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  %0 = tosa.add %arg0, %arg1 : (tensor<13x21x1xf64>, tensor<13x21x3xf64>) -> tensor<13x21x3xf64>
  return %0 : tensor<13x21x3xf64>
}

// AGGR-LABEL: @test_f64_clamp_attrs
func.func @test_f64_clamp_attrs(%arg0: tensor<4xf64>) -> tensor<4xf64> {
  // AGGR: tosa.clamp %{{.*}} min_val(-1.000000e+00 : f32) max_val(0.333333343 : f32) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = tosa.clamp %arg0 min_val(-1.0 : f64) max_val(0.33333333333333331 : f64) : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
