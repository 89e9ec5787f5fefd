// outline-parallel-loops refuses a marked loop it cannot outline with a located error (the
// marks convert-linalg-to-affine-loops{mark-parallel=true} puts never look like these).
// RUN: tosa-opt %s -p "outline-parallel-loops{threads=2 min-work=0}" --split-input-file --verify-diagnostics -o /dev/null

func.func @runtime_lower_bound(%a: memref<8xf32>, %n: index) {
  // expected-error @+1 {{outline-parallel-loops: a parallel loop needs a constant lower bound}}
  affine.for %i = %n to 8 {
    %x = affine.load %a[%i] : memref<8xf32>
    affine.store %x, %a[%i] : memref<8xf32>
  } {tosa_xdsl.parallel}
  func.return
}

// -----

func.func @carried_value(%a: memref<8xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{outline-parallel-loops: a parallel loop cannot carry values}}
  %s = affine.for %i = 0 to 8 iter_args(%acc = %z) -> (f32) {
    %x = affine.load %a[%i] : memref<8xf32>
    %y = arith.addf %acc, %x : f32
    affine.yield %y : f32
  } {tosa_xdsl.parallel}
  func.return %s : f32
}
