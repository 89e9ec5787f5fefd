// Levels are checked by the operators' LEVEL_CHECKs (spec 1.7): COND_IF checks only its
// condition's rank (2.16.1), CUSTOM and WHILE_LOOP no rank, so rank-7 tensors in their lists
// pass level 8K (MAX_RANK 6); the condition's rank is checked.
// RUN: tosa-opt %s -split-input-file -verify-diagnostics -tosa-attach-target="profiles=pro_int,pro_fp extensions=controlflow" -tosa-validate

func.func @cond_if_rank7_list(%x: tensor<1x1x1x1x1x1x2xf32>, %c: tensor<i1>) -> tensor<1x1x1x1x1x1x2xf32> {
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32> {
  ^bb0(%a: tensor<1x1x1x1x1x1x2xf32>):
    tosa.yield %a : tensor<1x1x1x1x1x1x2xf32>
  } else {
  ^bb0(%a: tensor<1x1x1x1x1x1x2xf32>):
    tosa.yield %a : tensor<1x1x1x1x1x1x2xf32>
  }
  return %0 : tensor<1x1x1x1x1x1x2xf32>
}

// -----

func.func @cond_if_rank7_condition(%x: tensor<2xf32>, %c: tensor<1x1x1x1x1x1x1xi1>) -> tensor<2xf32> {
  // expected-error@+1 {{'tosa.cond_if' op failed level check: rank(condition) <= MAX_RANK (6), got 7}}
  %0 = tosa.cond_if %c (%a = %x) : tensor<1x1x1x1x1x1x1xi1> (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    tosa.yield %a : tensor<2xf32>
  } else {
  ^bb0(%a: tensor<2xf32>):
    tosa.yield %a : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}
