// convert-math-to-libm: math.erf (no LLVM lowering upstream) becomes a call to the C library;
// f16/bf16 go through erff in f32. The result runs, and MLIR 22 lowers and translates it.
// RUN: tosa-opt %s -p convert-math-to-libm | filecheck %s
// RUN: tosa-opt %s -p convert-math-to-libm --print-op-generic | %mlir-opt-22 --convert-to-llvm --reconcile-unrealized-casts | %mlir-translate-22 --mlir-to-llvmir | filecheck %s --check-prefix=LLVMIR
// REQUIRES: mlir-opt-22, mlir-translate-22

func.func @erfs(%a: f32, %b: f64, %c: f16, %d: bf16) -> (f32, f64, f16, bf16) {
  %0 = math.erf %a : f32
  %1 = math.erf %b : f64
  %2 = math.erf %c : f16
  %3 = math.erf %d : bf16
  func.return %0, %1, %2, %3 : f32, f64, f16, bf16
}

// CHECK-DAG:   func.func private @erff(f32) -> f32
// CHECK-DAG:   func.func private @erf(f64) -> f64
// CHECK:       func.func @erfs(%a: f32, %b: f64, %c: f16, %d: bf16)
// CHECK-NEXT:    %{{.*}} = func.call @erff(%a) : (f32) -> f32
// CHECK-NEXT:    %{{.*}} = func.call @erf(%b) : (f64) -> f64
// CHECK-NEXT:    %[[C:.*]] = arith.extf %c : f16 to f32
// CHECK-NEXT:    %[[CE:.*]] = func.call @erff(%[[C]]) : (f32) -> f32
// CHECK-NEXT:    %{{.*}} = arith.truncf %[[CE]] : f32 to f16
// CHECK-NEXT:    %[[D:.*]] = arith.extf %d : bf16 to f32
// CHECK-NEXT:    %[[DE:.*]] = func.call @erff(%[[D]]) : (f32) -> f32
// CHECK-NEXT:    %{{.*}} = arith.truncf %[[DE]] : f32 to bf16
// CHECK-NOT:   math.erf

// LLVMIR-DAG:  declare float @erff(float)
// LLVMIR-DAG:  declare double @erf(double)
// LLVMIR:      call float @erff(float
