// RUN: tosa-run %s --print | filecheck %s

// Spec 2.5: i32 ADD, INTDIV truncating toward zero, MUL with a rounding shift,
// ARITHMETIC_RIGHT_SHIFT with round, and fp16 ADD rounding to fp16 (2048 + 1 = 2048 in fp16).
func.func @main() -> (tensor<4xi32>, tensor<4xi32>, tensor<2xi32>, tensor<3xi8>, tensor<2xf16>) {
  %a = "tosa.const"() {values = dense<[7, -7, 2147483647, -5]> : tensor<4xi32>} : () -> tensor<4xi32>
  %b = "tosa.const"() {values = dense<[2, 2, 1, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %sum = tosa.sub %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %q = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %m1 = "tosa.const"() {values = dense<[3, -3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %m2 = "tosa.const"() {values = dense<[5, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %sh = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %p = tosa.mul %m1, %m2, %sh : (tensor<2xi32>, tensor<2xi32>, tensor<1xi8>) -> tensor<2xi32>
  %x = "tosa.const"() {values = dense<[5, -5, 6]> : tensor<3xi8>} : () -> tensor<3xi8>
  %s = "tosa.const"() {values = dense<[1, 1, 2]> : tensor<3xi8>} : () -> tensor<3xi8>
  %r = tosa.arithmetic_right_shift %x, %s {round = true} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %h1 = "tosa.const"() {values = dense<[2048.0, 0.5]> : tensor<2xf16>} : () -> tensor<2xf16>
  %h2 = "tosa.const"() {values = dense<[1.0, 0.25]> : tensor<2xf16>} : () -> tensor<2xf16>
  %h = tosa.add %h1, %h2 : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  return %sum, %q, %p, %r, %h : tensor<4xi32>, tensor<4xi32>, tensor<2xi32>, tensor<3xi8>, tensor<2xf16>
}
// SUB: 7-2, -7-2, 2147483647-1, -5-3
// CHECK-LABEL: result #0: tensor<4xi32>
// CHECK-SAME: = [5, -9, 2147483646, -8]
// CHECK: result #1: tensor<4xi32> = [3, -3, 2147483647, -1]
// 15 >> 2 rounded = (15 + 2) >> 2 = 4; -15 -> (-15 + 2) >> 2 = -4 (floor of -3.25)
// CHECK: result #2: tensor<2xi32> = [4, -4]
// 5 >> 1 = 2, rounding bit 1 -> 3; -5 >> 1 = -3, bit 1 -> -2; 6 >> 2 = 1, bit (6>>1)&1 = 1 -> 2
// CHECK: result #3: tensor<3xi8> = [3, -2, 2]
// CHECK: result #4: tensor<2xf16> = [2048, 0.75]
