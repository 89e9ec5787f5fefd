// arith-emulate-fp8: arith on f8E4M3FN / f8E5M2 -> integer code on the i8 bits. Constants are
// derived from the formats: E4M3FN bias 7, 3 mantissa bits; E5M2 bias 15, 2 mantissa bits.
// RUN: tosa-opt %s -p arith-emulate-fp8 | filecheck %s
// RUN: tosa-opt %s -p arith-emulate-fp8 --print-op-generic | %mlir-opt-22 --convert-to-llvm --reconcile-unrealized-casts | %mlir-translate-22 --mlir-to-llvmir | filecheck %s --check-prefix=LLVM
// REQUIRES: mlir-opt-22

// decode: sign to bit 31; a normal code shifted by 23 - 3 = 20 and rebiased by
// (127 - 7) << 23 = 1006632960; subnormals by their leading bit (mant >= 2, >= 4);
// S.1111.111 -> NaN 0x7FC00000 = 2143289344; bitcast to f32
// CHECK-LABEL: func.func @ext
// CHECK: %[[B:.*]] = arith.bitcast %x : f8E4M3FN to i8
// CHECK-NEXT: %[[U:.*]] = arith.extui %[[B]] : i8 to i32
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT: arith.andi %[[U]], %[[C128]] : i32
// CHECK: %[[C127:.*]] = arith.constant 127 : i32
// CHECK-NEXT: %[[A:.*]] = arith.andi %[[U]], %[[C127]] : i32
// CHECK: %[[C20:.*]] = arith.constant 20 : i32
// CHECK-NEXT: %[[SH:.*]] = arith.shli %[[A]], %[[C20]] : i32
// CHECK-NEXT: %[[BIAS:.*]] = arith.constant 1006632960 : i32
// CHECK-NEXT: %[[NORMAL:.*]] = arith.addi %[[SH]], %[[BIAS]] : i32
// CHECK: arith.cmpi uge, %{{.*}} : i32
// CHECK: arith.cmpi uge, %{{.*}} : i32
// CHECK: arith.cmpi eq, %[[A]], %[[C127]] : i32
// CHECK: arith.constant 2143289344 : i32
// CHECK: %[[F:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT: %[[D:.*]] = arith.extf %[[F]] : f32 to f64
// CHECK-NEXT: func.return %[[D]] : f64
// CHECK-NOT: f8E4M3FN to f
func.func @ext(%x: f8E4M3FN) -> f64 {
  %r = arith.extf %x : f8E4M3FN to f64
  return %r : f64
}

// encode from f32: sign from bit 31; exponent rebias 1 + 127 - 15 = 113; the significand
// shifts 23 - 2 = 21 bits (up to 4 more for subnormals), rounded to nearest even with
// (sig + 2**(s-1) - 1 + lsb) >> s; codes above 0x7B = 123 are inf 0x7C = 124, NaN sources
// (above 0x7F800000 = 2139095040) give 0x7E = 126
// CHECK-LABEL: func.func @trunc
// CHECK: %[[BITS:.*]] = arith.bitcast %x : f32 to i32
// CHECK: %[[SIGN:.*]] = arith.andi %{{.*}}, %{{.*}} : i8
// CHECK: arith.constant 113 : i32
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: %[[C21:.*]] = arith.constant 21 : i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %{{.*}}, %[[C21]] : i32
// CHECK: %[[LSB0:.*]] = arith.shrui %[[SIG:.*]], %[[S]] : i32
// CHECK: %[[LSB:.*]] = arith.andi %[[LSB0]], %{{.*}} : i32
// CHECK: %[[T0:.*]] = arith.addi %[[SIG]], %{{.*}} : i32
// CHECK-NEXT: %[[T1:.*]] = arith.addi %[[T0]], %[[LSB]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.shrui %[[T1]], %[[S]] : i32
// CHECK: %[[CODE:.*]] = arith.addi %{{.*}}, %[[Q]] : i32
// CHECK: arith.constant 123 : i32
// CHECK: arith.cmpi ugt, %[[CODE]]
// CHECK: arith.constant 2139095040 : i32
// CHECK: arith.trunci %[[CODE]] : i32 to i8
// CHECK: arith.constant 124 : i8
// CHECK: arith.constant 126 : i8
// CHECK: %[[R:.*]] = arith.ori %{{.*}}, %[[SIGN]] : i8
// CHECK-NEXT: %[[F8:.*]] = arith.bitcast %[[R]] : i8 to f8E5M2
// CHECK-NEXT: func.return %[[F8]] : f8E5M2
func.func @trunc(%x: f32) -> f8E5M2 {
  %r = arith.truncf %x : f32 to f8E5M2
  return %r : f8E5M2
}

// f64 sources round in i64 (no double rounding through f32): 52 - 3 = 49 bits dropped,
// rebias 1 + 1023 - 7 = 1017
// CHECK-LABEL: func.func @trunc64
// CHECK: arith.bitcast %x : f64 to i64
// CHECK: arith.constant 1017 : i64
// CHECK: arith.constant 49 : i64
// CHECK-NOT: f32
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3FN
func.func @trunc64(%x: f64) -> f8E4M3FN {
  %r = arith.truncf %x : f64 to f8E4M3FN
  return %r : f8E4M3FN
}

// comparisons and max/min in f32 between decodes and (for float results) an encode
// CHECK-LABEL: func.func @cmp_max
// CHECK: %[[FA:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[FB:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT: %[[LT:.*]] = arith.cmpf olt, %[[FA]], %[[FB]] : f32
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.bitcast %{{.*}} : i8 to f8E5M2
// CHECK-NOT: arith.cmpf {{.*}} f8E5M2
// CHECK-NOT: arith.maximumf {{.*}} f8E5M2
func.func @cmp_max(%a: f8E5M2, %b: f8E5M2) -> (i1, f8E5M2) {
  %r = arith.cmpf olt, %a, %b : f8E5M2
  %m = arith.maximumf %a, %b : f8E5M2
  return %r, %m : i1, f8E5M2
}

// constants become their bits (-2.0 in E4M3FN: 1.0001.000 = 0xC0 = -64); negf flips bit 7
// CHECK-LABEL: func.func @neg_const
// CHECK: %[[K:.*]] = arith.constant -64 : i8
// CHECK-NEXT: %c = arith.bitcast %[[K]] : i8 to f8E4M3FN
// CHECK-NEXT: %[[X:.*]] = arith.bitcast %a : f8E4M3FN to i8
// CHECK-NEXT: %[[M:.*]] = arith.constant -128 : i8
// CHECK-NEXT: %[[N:.*]] = arith.xori %[[X]], %[[M]] : i8
// CHECK-NEXT: %n = arith.bitcast %[[N]] : i8 to f8E4M3FN
func.func @neg_const(%a: f8E4M3FN) -> (f8E4M3FN, f8E4M3FN) {
  %c = arith.constant -2.0 : f8E4M3FN
  %n = arith.negf %a : f8E4M3FN
  return %c, %n : f8E4M3FN, f8E4M3FN
}

// MLIR 22 lowers what is left (fp8 stored as i8) and translates it
// LLVM-LABEL: define double @ext(i8
// LLVM-LABEL: define i8 @trunc(float
// LLVM: lshr i32
// LLVM-LABEL: define i8 @trunc64(double
// LLVM-LABEL: define { i1, i8 } @cmp_max(i8 %0, i8 %1)
// LLVM: fcmp olt float
// LLVM-LABEL: define { i8, i8 } @neg_const(i8
// LLVM: xor i8 %0, -128
