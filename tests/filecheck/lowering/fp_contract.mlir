// linalg-fp-contract (tosa_xdsl/lowering/linalg_transforms/fp_contract.py; in tosa-to-llvm unless fp-contract=off):
// a float dot-product step of a linalg body, `acc + a * b` with acc the output's block argument,
// gets `contract` on its mulf and addf (LLVM may then use one FMA). A product added to anything
// else (an elementwise MUL then ADD: two correctly rounded TOSA ops), a product with another use,
// and integer arithmetic are left alone.
// RUN: tosa-opt %s -p linalg-fp-contract | filecheck %s
// RUN: tosa-opt %s -p "linalg-fp-contract,convert-linalg-to-affine-loops" | filecheck %s --check-prefix=LOOPS

// CHECK-LABEL: func.func @dot
// CHECK:         %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:    arith.addf %{{.*}}, %[[P]] fastmath<contract> : f32
func.func @dot(%a: memref<4x8xf32>, %b: memref<8xf32>, %o: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : memref<4x8xf32>, memref<8xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// The product on the left of the addition is the same step.
// CHECK-LABEL: func.func @dot_swapped
// CHECK:         arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:    arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
func.func @dot_swapped(%a: memref<4x8xf32>, %b: memref<8xf32>, %o: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : memref<4x8xf32>, memref<8xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  func.return
}

// Elementwise MUL then ADD of an input: not a dot product, both stay correctly rounded.
// CHECK-LABEL: func.func @mul_add_elementwise
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    arith.addf %{{.*}}, %{{.*}} : f32
func.func @mul_add_elementwise(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>, %o: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b, %c : memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%o : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %out: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// The product is used again (it is also stored): contracting would compute it twice.
// CHECK-LABEL: func.func @product_used_twice
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    arith.addf %{{.*}}, %{{.*}} : f32
func.func @product_used_twice(%a: memref<4x8xf32>, %b: memref<8xf32>, %o: memref<4xf32>, %o2: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : memref<4x8xf32>, memref<8xf32>) outs(%o, %o2 : memref<4xf32>, memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32, %acc2: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s, %p : f32, f32
  }
  func.return
}

// Integer dot products are exact: untouched. A named op's body is marked too (seen in its loops).
// CHECK-LABEL: func.func @int_dot
// CHECK:         arith.muli
// CHECK-NEXT:    arith.addi
// LOOPS-LABEL: func.func @matmul
// LOOPS:         arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// LOOPS-NEXT:    arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
func.func @int_dot(%a: memref<4x8xi32>, %b: memref<8xi32>, %o: memref<4xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : memref<4x8xi32>, memref<8xi32>) outs(%o : memref<4xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  func.return
}

func.func @matmul(%a: memref<1x3x5xf32>, %b: memref<1x5x7xf32>, %o: memref<1x3x7xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<1x3x5xf32>, memref<1x5x7xf32>) outs(%o : memref<1x3x7xf32>)
  func.return
}
