// REQUIRE statements decided by constants are warnings (the graph is unpredictable, not erroneous).
// RUN: tosa-opt %s -p tosa-validate --split-input-file --verify-diagnostics -o /dev/null

func.func @intdiv_zero(%a: tensor<4xi32>) -> tensor<4xi32> {
  %z = "tosa.const"() {values = dense<[1, 0, 2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-warning @+1 {{REQUIRE(value2 != 0) does not hold}}
  %r = tosa.intdiv %a, %z : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @pow_negative_base(%b: tensor<2xf32>) -> tensor<2xf32> {
  %a = "tosa.const"() {values = dense<[-2.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-warning @+1 {{REQUIRE(value1 >= 0) does not hold: the constant base input1 has -2.0}}
  %r = tosa.pow %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @shift_too_far(%a: tensor<2xi8>) -> tensor<2xi8> {
  %s = "tosa.const"() {values = dense<[1, 8]> : tensor<2xi8>} : () -> tensor<2xi8>
  // expected-warning @+1 {{REQUIRE(0 <= value2 && value2 <= 7) does not hold: constant shift input2 has 8}}
  %r = tosa.logical_left_shift %a, %s : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  return %r : tensor<2xi8>
}

// -----

func.func @gather_index(%v: tensor<1x4x2xf32>) -> tensor<1x2x2xf32> {
  %i = "tosa.const"() {values = dense<[[0, 4]]> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  // expected-warning @+1 {{REQUIRE(0 <= k && k < K) does not hold: constant indices has 4 with K = 4}}
  %r = tosa.gather %v, %i : (tensor<1x4x2xf32>, tensor<1x2xi32>) -> tensor<1x2x2xf32>
  return %r : tensor<1x2x2xf32>
}

// -----

func.func @intdiv_fine(%a: tensor<4xi32>) -> tensor<4xi32> {
  %z = "tosa.const"() {values = dense<[1, 5, 2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %r = tosa.intdiv %a, %z : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
