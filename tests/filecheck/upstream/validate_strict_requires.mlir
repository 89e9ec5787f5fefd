// REQUIREs that constants decide (spec 1.4: the result is unpredictable) are warnings in
// tosa-validate, errors under strict-op-spec-alignment (as upstream's strict checks):
// MUL's REQUIRE(0 <= shift && shift <= 63) (2.5.8) and SCATTER's single write per output.
// RUN: tosa-opt %s -split-input-file -verify-diagnostics -tosa-validate="strict-op-spec-alignment"
// RUN: tosa-opt %s -split-input-file -tosa-validate -o /dev/null 2>&1 | filecheck %s --check-prefix=WARN

// WARN: warning: 'tosa.mul' op REQUIRE(0 <= shift && shift <= 63) does not hold
// WARN: warning: 'tosa.scatter' op REQUIRE(output_modified[n,k,c] == false) does not hold
func.func @mul_negative_shift(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %s = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.mul' op REQUIRE(0 <= shift && shift <= 63) does not hold}}
  %0 = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @scatter_repeated_index(%v: tensor<1x4x2xf32>, %x: tensor<1x2x2xf32>) -> tensor<1x4x2xf32> {
  %i = "tosa.const"() {values = dense<[[1, 1]]> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  // expected-error@+1 {{'tosa.scatter' op REQUIRE(output_modified[n,k,c] == false) does not hold}}
  %0 = tosa.scatter %v, %i, %x : (tensor<1x4x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}
