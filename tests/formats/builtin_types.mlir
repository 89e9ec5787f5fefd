module attributes {a.i128 = 170141183460469231731687303715884105727 : i128, a.neg = -5 : i128, a.u = unit, a.sym = @x::@y::@z, a.b = true, a.f64 = 2.5 : f64, a.bf = 1.5 : bf16, a.idx = -3 : index, a.ui = 200 : ui8, a.si = -100 : si8, a.arr = array<i32: 1, -2>, a.farr = array<f32: 1.5>, a.barr = array<i1: true, false, true>, a.map = affine_map<(d0) -> (d0 * 2)>, a.t = tuple<i32, f32>, a.c = complex<f32>, a.n = none, a.bools = dense<[true, false, true, false, true, true, true, true, false, true]> : tensor<10xi1>, a.i4 = dense<[1, -2, 7]> : tensor<3xi4>, a.cplx = dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>, a.csplat = dense<(1.5, 0.0)> : tensor<3xcomplex<f64>>} {
  func.func @f(%a: memref<4x?xf32>, %b: memref<4xf32, strided<[2]>>, %c: memref<*xf32>, %d: memref<4xf32, 1>, %e: vector<4xf32>, %f: tensor<*xf32>, %g: vector<2x[4]xf32>, %h: memref<2x3xf32, affine_map<(d0, d1) -> (d1, d0)>>) {
    return
  }
}
