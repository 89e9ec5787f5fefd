// tosa-attach-target without options attaches no profile, as upstream's pass does (checked
// against the tosa-tools translator, an upstream MLIR build); strict validation then rejects
// every operator. tosa-validate without any target env still uses pro_int and pro_fp.
// RUN: tosa-opt %s -tosa-attach-target | filecheck %s
// RUN: not tosa-opt %s -tosa-attach-target="" -tosa-validate="strict-op-spec-alignment" 2>&1 | filecheck %s --check-prefix=STRICT
// RUN: tosa-opt %s -tosa-validate="strict-op-spec-alignment" -o /dev/null
// REQUIRES: tosa-tt
// RUN: %tosa-tt %s --tosa-attach-target | filecheck %s
// RUN: not %tosa-tt %s --tosa-attach-target --tosa-validate=strict-op-spec-alignment 2>&1 | filecheck %s --check-prefix=STRICT

// CHECK: tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [], extensions = []>
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // STRICT: attach_target_default.mlir:{{[0-9]+}}:8: error: 'tosa.add' op
  %0 = tosa.add %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
