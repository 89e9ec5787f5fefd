// RUN: python -m tosa_xdsl.ir.dense %s | filecheck %s
// Integer dense constants: MLIR's hex layout (i48: 6 bytes, i4: low nibble, i1: byte), wrapping.
// CHECK lines are the tosa-tools translator's printing of this file (LLVM 24).

func.func @integers() -> () {
  %0 = "tosa.const"() <{values = dense<"0x010000000000FEFFFFFFFFFF"> : tensor<2xi48>}> : () -> tensor<2xi48>
  %1 = "tosa.const"() <{values = dense<[140737488355327, 281474976710655]> : tensor<2xi48>}> : () -> tensor<2xi48>
  %2 = "tosa.const"() <{values = dense<"0x010EF8"> : tensor<3xi4>}> : () -> tensor<3xi4>
  %3 = "tosa.const"() <{values = dense<[7, -8, 15]> : tensor<3xi4>}> : () -> tensor<3xi4>
  %4 = "tosa.const"() <{values = dense<"0x010002"> : tensor<3xi1>}> : () -> tensor<3xi1>
  %5 = "tosa.const"() <{values = dense<[255, -128]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %6 = "tosa.const"() <{values = dense<[65535, 1]> : tensor<2xui16>}> : () -> tensor<2xui16>
  %7 = "tosa.const"() <{values = dense<"0x010203040506"> : tensor<4xi48>}> : () -> tensor<4xi48>
  %8 = "tosa.const"() <{values = dense<[[18446744073709551615], [5]]> : tensor<2x1xi64>}> : () -> tensor<2x1xi64>
  return
}

// CHECK: values = dense<[1, -2]> : tensor<2xi48>
// CHECK: values = dense<[140737488355327, -1]> : tensor<2xi48>
// CHECK: values = dense<[1, -2, -8]> : tensor<3xi4>
// CHECK: values = dense<[7, -8, -1]> : tensor<3xi4>
// CHECK: values = dense<[true, false, true]> : tensor<3xi1>
// CHECK: values = dense<[-1, -128]> : tensor<2xi8>
// CHECK: values = dense<[65535, 1]> : tensor<2xui16>
// CHECK: values = dense<6618611909121> : tensor<4xi48>
// CHECK: values = dense<[[-1], [5]]> : tensor<2x1xi64>
