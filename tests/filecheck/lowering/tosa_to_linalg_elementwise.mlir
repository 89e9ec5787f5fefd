// tosa-to-linalg, elementwise operators (lowering/linalg_elementwise.py): tensor.empty + one
// parallel linalg.generic per op; size-1 dims broadcast through the indexing maps; bodies in
// arith/math computing the spec's operator functions (2.4-2.8, 2.13.1 CAST).
// RUN: tosa-opt %s -p tosa-to-linalg | filecheck %s
// RUN: tosa-opt %s -p tosa-to-linalg,tosa-to-arith --print-op-generic | %mlir-opt-22 | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt-22

// MLIR-LABEL: func.func @cast_float_to_int
// MLIR:       math.roundeven
// MLIR:       arith.fptosi {{.*}} : f32 to i32
// MLIR-LABEL: func.func @cast_float
// MLIR:       arith.truncf {{.*}} : f32 to f8E4M3FN
// MLIR:       arith.truncf {{.*}} : bf16 to f8E5M2

// CHECK-LABEL: func.func @add_broadcast
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<2x1x4xf32>, tensor<1x3x4xf32>) outs(%[[E]] : tensor<2x3x4xf32>)
// CHECK-NEXT:  ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    linalg.yield %[[R]] : f32
// CHECK-NOT:   tosa.
func.func @add_broadcast(%a: tensor<2x1x4xf32>, %b: tensor<1x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = tosa.add %a, %b : (tensor<2x1x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @int_binary
// CHECK-COUNT-7: linalg.generic
// CHECK-SAME:  iterator_types = ["parallel"]
// CHECK-NOT:   linalg.generic
func.func @int_binary(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = tosa.sub %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = tosa.bitwise_and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = tosa.bitwise_or %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = tosa.bitwise_xor %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %5 = tosa.logical_left_shift %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %6 = tosa.logical_right_shift %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @arithmetic_right_shift
// CHECK:       ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:    %[[S:.*]] = arith.shrsi %[[A]], %[[B]] : i8
// CHECK-NEXT:    linalg.yield %[[S]] : i8
// round = true: + ((a >> max(b - 1, 0)) & 1) when b > 0
// CHECK:       ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:    %[[S:.*]] = arith.shrsi %[[A]], %[[B]] : i8
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i8
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    %[[BM1:.*]] = arith.subi %[[B]], %[[ONE]] : i8
// CHECK-NEXT:    %[[BM1C:.*]] = arith.maxsi %[[BM1]], %[[ZERO]] : i8
// CHECK-NEXT:    %[[PREV:.*]] = arith.shrsi %[[A]], %[[BM1C]] : i8
// CHECK-NEXT:    %[[BIT:.*]] = arith.andi %[[PREV]], %[[ONE]] : i8
// CHECK-NEXT:    %[[POS:.*]] = arith.cmpi sgt, %[[B]], %[[ZERO]] : i8
// CHECK-NEXT:    %[[INC:.*]] = arith.select %[[POS]], %[[BIT]], %[[ZERO]] : i8
// CHECK-NEXT:    %[[R:.*]] = arith.addi %[[S]], %[[INC]] : i8
// CHECK-NEXT:    linalg.yield %[[R]] : i8
func.func @arithmetic_right_shift(%a: tensor<4xi8>, %b: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>) {
  %0 = tosa.arithmetic_right_shift %a, %b {round = false} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %1 = tosa.arithmetic_right_shift %a, %b {round = true} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0, %1 : tensor<4xi8>, tensor<4xi8>
}

// CHECK-LABEL: func.func @logical
// CHECK:       arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:       arith.ori %{{.*}}, %{{.*}} : i1
// CHECK:       arith.xori %{{.*}}, %{{.*}} : i1
// CHECK:       %[[T:.*]] = arith.constant true
// CHECK-NEXT:  arith.xori %{{.*}}, %[[T]] : i1
func.func @logical(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = tosa.logical_and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = tosa.logical_or %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = tosa.logical_xor %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = tosa.logical_not %a : (tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @mul
// constant shifts are folded into the bodies and their tosa.const ops dropped
// CHECK-NOT:   tosa.const
// i8 x i8 -> i32
// CHECK:       ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i32):
// CHECK-NEXT:    %[[AE:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK-NEXT:    %[[BE:.*]] = arith.extsi %[[B]] : i8 to i32
// CHECK-NEXT:    arith.muli %[[AE]], %[[BE]] : i32
// i32, shift 0: the low 32 bits
// CHECK:       ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:    arith.muli %[[A]], %[[B]] : i32
// i32, shift 3: (a * b + 4) >> 3 in i64
// CHECK:       ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[AE:.*]] = arith.extsi %[[A]] : i32 to i64
// CHECK-NEXT:    %[[BE:.*]] = arith.extsi %[[B]] : i32 to i64
// CHECK-NEXT:    %[[P:.*]] = arith.muli %[[AE]], %[[BE]] : i64
// CHECK-NEXT:    %[[RND:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[Q:.*]] = arith.addi %[[P]], %[[RND]] : i64
// CHECK-NEXT:    %[[SH:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[R:.*]] = arith.shrsi %[[Q]], %[[SH]] : i64
// CHECK-NEXT:    arith.trunci %[[R]] : i64 to i32
// run-time shift: a third input read at index 0, round = (1 << shift) >> 1
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>]
// CHECK-NEXT:  ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[S:.*]]: i8, %{{.*}}: i32):
// CHECK-NEXT:    %[[S64:.*]] = arith.extsi %[[S]] : i8 to i64
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[POW:.*]] = arith.shli %[[ONE]], %[[S64]] : i64
// CHECK-NEXT:    %[[RND:.*]] = arith.shrui %[[POW]], %[[ONE]] : i64
// CHECK-NEXT:    %[[Q:.*]] = arith.addi %{{.*}}, %[[RND]] : i64
// CHECK-NEXT:    %[[R:.*]] = arith.shrsi %[[Q]], %[[S64]] : i64
// CHECK-NEXT:    arith.trunci %[[R]] : i64 to i32
// CHECK:       arith.mulf %{{.*}}, %{{.*}} : bf16
func.func @mul(%a8: tensor<4xi8>, %b8: tensor<4xi8>, %a: tensor<4xi32>, %b: tensor<4xi32>, %s: tensor<1xi8>, %f: tensor<4xbf16>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xbf16>) {
  %zero = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %three = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.mul %a8, %b8, %zero : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  %1 = tosa.mul %a, %b, %zero : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  %2 = tosa.mul %a, %b, %three : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  %3 = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  %4 = tosa.mul %f, %f, %zero : (tensor<4xbf16>, tensor<4xbf16>, tensor<1xi8>) -> tensor<4xbf16>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xbf16>
}

// CHECK-LABEL: func.func @max_min_clamp
// CHECK:       arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK:       arith.minnumf %{{.*}}, %{{.*}} : f32
// CHECK:       arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK:       %[[LO:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:  %[[V:.*]] = arith.maximumf %{{.*}}, %[[LO]] : f32
// CHECK-NEXT:  %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:  arith.minimumf %[[V]], %[[HI]] : f32
// nan_mode = IGNORE: a NaN input gives min_val
// CHECK:       %[[LO:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:  %[[V:.*]] = arith.maxnumf %{{.*}}, %[[LO]] : f32
// CHECK-NEXT:  %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:  arith.minnumf %[[V]], %[[HI]] : f32
// CHECK:       %[[LO:.*]] = arith.constant -100 : i8
// CHECK-NEXT:  %[[HI:.*]] = arith.constant 100 : i8
// CHECK-NEXT:  %[[V:.*]] = arith.maxsi %{{.*}}, %[[LO]] : i8
// CHECK-NEXT:  arith.minsi %[[V]], %[[HI]] : i8
func.func @max_min_clamp(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi8>, %j: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi8>) {
  %0 = tosa.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.minimum %a, %b {nan_mode = IGNORE} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = tosa.minimum %j, %j : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = tosa.clamp %a {min_val = -1.0 : f32, max_val = 6.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = tosa.clamp %a {min_val = 0xFF800000 : f32, max_val = 6.0 : f32, nan_mode = IGNORE} : (tensor<4xf32>) -> tensor<4xf32>
  %5 = tosa.clamp %i {min_val = -100 : i8, max_val = 100 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi8>
}

// CHECK-LABEL: func.func @float_unary
// CHECK-NOT:   tosa.const
// CHECK:       math.absf %{{.*}} : f16
// CHECK:       math.ceil %{{.*}} : f16
// CHECK:       math.floor %{{.*}} : f16
// CHECK:       math.cos %{{.*}} : f16
// CHECK:       math.sin %{{.*}} : f16
// CHECK:       math.exp %{{.*}} : f16
// CHECK:       math.log %{{.*}} : f16
// CHECK:       arith.negf %{{.*}} : f16
// CHECK:       %[[ONE:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT:  arith.divf %[[ONE]], %{{.*}} : f16
// CHECK:       math.rsqrt %{{.*}} : f16
// CHECK:       math.erf %{{.*}} : f16
// CHECK:       math.tanh %{{.*}} : f16
func.func @float_unary(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %0 = tosa.abs %x : (tensor<4xf16>) -> tensor<4xf16>
  %1 = tosa.ceil %x : (tensor<4xf16>) -> tensor<4xf16>
  %2 = tosa.floor %x : (tensor<4xf16>) -> tensor<4xf16>
  %3 = tosa.cos %x : (tensor<4xf16>) -> tensor<4xf16>
  %4 = tosa.sin %x : (tensor<4xf16>) -> tensor<4xf16>
  %5 = tosa.exp %x : (tensor<4xf16>) -> tensor<4xf16>
  %6 = tosa.log %x : (tensor<4xf16>) -> tensor<4xf16>
  %7 = tosa.negate %x, %z, %z : (tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4xf16>
  %8 = tosa.reciprocal %x : (tensor<4xf16>) -> tensor<4xf16>
  %9 = tosa.rsqrt %x : (tensor<4xf16>) -> tensor<4xf16>
  %10 = tosa.erf %x : (tensor<4xf16>) -> tensor<4xf16>
  %11 = tosa.tanh %x : (tensor<4xf16>) -> tensor<4xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>
}

// CHECK-LABEL: func.func @sigmoid_pow
// bf16 sigmoid in f32: e = exp(-|x|); x >= 0 ? 1/(1+e) : e/(1+e)
// CHECK:       ^bb0(%[[X:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT:    %[[ABS:.*]] = math.absf %[[XF]] : f32
// CHECK-NEXT:    %[[NEG:.*]] = arith.negf %[[ABS]] : f32
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[NEG]] : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[DEN:.*]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.divf %[[ONE]], %[[DEN]] : f32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[XF]], %[[ZERO]] : f32
// CHECK-NEXT:    %[[ES:.*]] = arith.mulf %[[E]], %[[S]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.select %[[LT]], %[[ES]], %[[S]] : f32
// CHECK-NEXT:    %[[RT:.*]] = arith.truncf %[[R]] : f32 to bf16
// CHECK-NEXT:    linalg.yield %[[RT]] : bf16
// CHECK:       math.powf %{{.*}}, %{{.*}} : f32
func.func @sigmoid_pow(%x: tensor<4xbf16>, %y: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xf32>) {
  %0 = tosa.sigmoid %x : (tensor<4xbf16>) -> tensor<4xbf16>
  %1 = tosa.pow %y, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xbf16>, tensor<4xf32>
}

// CHECK-LABEL: func.func @int_unary
// CHECK:       math.absi %{{.*}} : i32
// CHECK:       %[[M1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:  arith.xori %{{.*}}, %[[M1]] : i32
// CHECK:       math.ctlz %{{.*}} : i32
// negate i8: clip((input1_zp - x) + output_zp) in i32
// CHECK:       ^bb0(%[[X:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:    %[[XE:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK-NEXT:    %[[ZI:.*]] = arith.constant -3 : i32
// CHECK-NEXT:    %[[V:.*]] = arith.subi %[[ZI]], %[[XE]] : i32
// CHECK-NEXT:    %[[ZO:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[W:.*]] = arith.addi %[[V]], %[[ZO]] : i32
// CHECK-NEXT:    %[[LO:.*]] = arith.constant -128 : i32
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 127 : i32
// CHECK-NEXT:    %[[C1:.*]] = arith.maxsi %[[W]], %[[LO]] : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.minsi %[[C1]], %[[HI]] : i32
// CHECK-NEXT:    arith.trunci %[[C2]] : i32 to i8
func.func @int_unary(%x: tensor<4xi32>, %i: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi8>) {
  %zi = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %zo = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.abs %x : (tensor<4xi32>) -> tensor<4xi32>
  %1 = tosa.bitwise_not %x : (tensor<4xi32>) -> tensor<4xi32>
  %2 = tosa.clz %x : (tensor<4xi32>) -> tensor<4xi32>
  %3 = tosa.negate %i, %zi, %zo : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi8>
}

// CHECK-LABEL: func.func @select_compare
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-NEXT:  ^bb0(%[[C:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    arith.select %[[C]], %[[A]], %[[B]] : f32
// CHECK:       arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK:       arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK:       arith.cmpf oge, %{{.*}}, %{{.*}} : f32
// CHECK:       arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK:       arith.cmpi eq, %{{.*}}, %{{.*}} : i32
func.func @select_compare(%c: tensor<1x4xi1>, %a: tensor<3x4xf32>, %b: tensor<3x1xf32>, %i: tensor<3x4xi32>) -> (tensor<3x4xf32>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xi1>) {
  %0 = tosa.select %c, %a, %b : (tensor<1x4xi1>, tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %1 = tosa.equal %a, %b : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xi1>
  %2 = tosa.greater %a, %b : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xi1>
  %3 = tosa.greater_equal %a, %b : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xi1>
  %4 = tosa.greater %i, %i : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
  %5 = tosa.equal %i, %i : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<3x4xf32>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xi1>
}

// CHECK-LABEL: func.func @cast_float_to_int
// round half to even, saturate (NaN -> minimum through maxnumf)
// CHECK:       ^bb0(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT:    %[[R:.*]] = math.roundeven %[[X]] : f32
// CHECK-NEXT:    %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT:    %[[A:.*]] = arith.maxnumf %[[R]], %[[LO]] : f32
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.minnumf %[[A]], %[[HI]] : f32
// CHECK-NEXT:    arith.fptosi %[[B]] : f32 to i8
// i32's maximum is no f32: clamp below 2**31, select the maximum from 2**31 up
// CHECK:       ^bb0(%[[X:.*]]: f32, %{{.*}}: i32):
// CHECK-NEXT:    %[[R:.*]] = math.roundeven %[[X]] : f32
// CHECK-NEXT:    %[[LO:.*]] = arith.constant -2.14748365E+9 : f32
// CHECK-NEXT:    %[[A:.*]] = arith.maxnumf %[[R]], %[[LO]] : f32
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 2.14748352E+9 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.minnumf %[[A]], %[[HI]] : f32
// CHECK-NEXT:    %[[I:.*]] = arith.fptosi %[[B]] : f32 to i32
// CHECK-NEXT:    %[[TOP:.*]] = arith.constant 2.14748365E+9 : f32
// CHECK-NEXT:    %[[BIG:.*]] = arith.cmpf oge, %[[R]], %[[TOP]] : f32
// CHECK-NEXT:    %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:    arith.select %[[BIG]], %[[MAX]], %[[I]] : i32
// fp16 is extended to f32 (exactly) first
// CHECK:       ^bb0(%[[X:.*]]: f16, %{{.*}}: i16):
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:    math.roundeven %[[XF]] : f32
// CHECK:         arith.constant -3.276800e+04 : f32
// CHECK:         arith.constant 3.276700e+04 : f32
// CHECK:         arith.fptosi %{{.*}} : f32 to i16
func.func @cast_float_to_int(%f: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xi8>, tensor<4xi32>, tensor<4xi16>, tensor<4xi32>) {
  %0 = tosa.cast %f : (tensor<4xf32>) -> tensor<4xi8>
  %1 = tosa.cast %f : (tensor<4xf32>) -> tensor<4xi32>
  %2 = tosa.cast %h : (tensor<4xf16>) -> tensor<4xi16>
  %3 = tosa.cast %h : (tensor<4xf16>) -> tensor<4xi32>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xi32>, tensor<4xi16>, tensor<4xi32>
}

// CHECK-LABEL: func.func @cast_int
// CHECK:       arith.extui %{{.*}} : i1 to i32
// CHECK:       arith.extsi %{{.*}} : i8 to i32
// CHECK:       arith.trunci %{{.*}} : i16 to i8
// CHECK:       %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  arith.cmpi ne, %{{.*}}, %[[Z]] : i32
// CHECK:       arith.sitofp %{{.*}} : i8 to f32
// CHECK:       arith.sitofp %{{.*}} : i32 to bf16
// CHECK:       arith.uitofp %{{.*}} : i8 to f32
func.func @cast_int(%b: tensor<4xi1>, %i8: tensor<4xi8>, %i16: tensor<4xi16>, %i32: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi1>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>) {
  %0 = tosa.cast %b : (tensor<4xi1>) -> tensor<4xi32>
  %1 = tosa.cast %i8 : (tensor<4xi8>) -> tensor<4xi32>
  %2 = tosa.cast %i16 : (tensor<4xi16>) -> tensor<4xi8>
  %3 = tosa.cast %i32 : (tensor<4xi32>) -> tensor<4xi1>
  %4 = tosa.cast %i8 : (tensor<4xi8>) -> tensor<4xf32>
  %5 = tosa.cast %i32 : (tensor<4xi32>) -> tensor<4xbf16>
  %6 = tosa.cast %i8 {input_unsigned = true} : (tensor<4xi8>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi1>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>
}

// CHECK-LABEL: func.func @cast_float
// CHECK:       arith.truncf %{{.*}} : f32 to f16
// CHECK:       arith.truncf %{{.*}} : f32 to bf16
// CHECK:       arith.truncf %{{.*}} : f32 to f8E4M3FN
// CHECK:       arith.truncf %{{.*}} : bf16 to f8E5M2
// CHECK:       arith.extf %{{.*}} : f8E4M3FN to f32
// CHECK:       arith.extf %{{.*}} : f8E4M3FN to bf16
func.func @cast_float(%f: tensor<4xf32>, %b: tensor<4xbf16>, %e: tensor<4xf8E4M3FN>) -> (tensor<4xf16>, tensor<4xbf16>, tensor<4xf8E4M3FN>, tensor<4xf8E5M2>, tensor<4xf32>, tensor<4xbf16>) {
  %0 = tosa.cast %f : (tensor<4xf32>) -> tensor<4xf16>
  %1 = tosa.cast %f : (tensor<4xf32>) -> tensor<4xbf16>
  %2 = tosa.cast %f : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  %3 = tosa.cast %b : (tensor<4xbf16>) -> tensor<4xf8E5M2>
  %4 = tosa.cast %e : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  %5 = tosa.cast %e : (tensor<4xf8E4M3FN>) -> tensor<4xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf16>, tensor<4xbf16>, tensor<4xf8E4M3FN>, tensor<4xf8E5M2>, tensor<4xf32>, tensor<4xbf16>
}
