// tosa-infer-shapes: the per-operator shape rules (spec 2.x output shapes); every expected
// shape below is computed by hand from the spec's formulas.
// RUN: tosa-opt %s -p tosa-infer-shapes --split-input-file | filecheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>, %c: tensor<?x3xf32>, %p: tensor<2x1xi1>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xi1>, tensor<?x?xf32>) {
  // broadcast 2x1 with 1x3 -> 2x3
  // CHECK: tosa.add %{{.*}}, %{{.*}} : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %0 = tosa.add %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<*xf32>
  // a dynamic dim broadcast against a static 2 is 2; against 1 it stays dynamic
  // CHECK: tosa.sub %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %1 = tosa.sub %c, %a : (tensor<?x3xf32>, tensor<2x1xf32>) -> tensor<?x?xf32>
  // returned by the function: keeps its declared type
  // CHECK: tosa.maximum %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x?xf32>
  %2 = tosa.maximum %c, %b : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x?xf32>
  // CHECK: tosa.minimum %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  %9 = tosa.minimum %c, %b : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<*xf32>
  // unary ops keep their input's shape, through an unranked intermediate
  // CHECK: tosa.exp %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.exp %0 : (tensor<*xf32>) -> tensor<?x?xf32>
  // CHECK: tosa.greater %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %4 = tosa.greater %3, %1 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<*xi1>
  // CHECK: tosa.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.select %p, %3, %b : (tensor<2x1xi1>, tensor<?x?xf32>, tensor<1x3xf32>) -> tensor<?x?xf32>
  // CHECK: tosa.cast %{{.*}} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %6 = tosa.cast %4 : (tensor<*xi1>) -> tensor<*xi32>
  // CHECK: tosa.sigmoid %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = tosa.sigmoid %3 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  // values reaching func.return keep the declared result types (no tensor.cast needed)
  // CHECK: func.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xi1>, tensor<?x?xf32>
  %8 = tosa.equal %7, %7 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  return %2, %2, %8, %2 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xi1>, tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @convolutions
func.func @convolutions(%x: tensor<1x8x8x3xf32>, %y: tensor<1x10x10x2xf32>, %z: tensor<1x4x4x2xf32>, %v: tensor<1x4x6x6x2xf32>) -> () {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<1.0> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  // OH = (8 - 1 + 0 + 1 - (3 - 1) * 1) / 2 + 1 = 4, OW likewise, OC = 4
  // CHECK: tosa.conv2d {{.*}} -> tensor<1x4x4x4xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x?xf32>
  // dilation 2: OH = (8 - 1 + 2 + 2 - 2 * 2) / 1 + 1 = 8
  // CHECK: tosa.conv2d {{.*}} -> tensor<1x8x8x4xf32>
  %1 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<*xf32>
  // depthwise: weight [KH, KW, C, M] = [3, 3, 2, 3] -> C * M = 6; OH = (10 - 1 + 2 - 2) + 1 = 10
  %dw = "tosa.const"() <{values = dense<1.0> : tensor<3x3x2x3xf32>}> : () -> tensor<3x3x2x3xf32>
  %db = "tosa.const"() <{values = dense<0.0> : tensor<6xf32>}> : () -> tensor<6xf32>
  // CHECK: tosa.depthwise_conv2d {{.*}} -> tensor<1x10x10x6xf32>
  %2 = tosa.depthwise_conv2d %y, %dw, %db, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x10x10x2xf32>, tensor<3x3x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x?xf32>
  // transpose_conv2d: OH = (4 - 1) * 2 + 0 + 1 + 3 = 10, OW = (4 - 1) * 2 + 0 + 0 + 3 = 9
  %tw = "tosa.const"() <{values = dense<1.0> : tensor<5x3x3x2xf32>}> : () -> tensor<5x3x3x2xf32>
  %tb = "tosa.const"() <{values = dense<0.0> : tensor<5xf32>}> : () -> tensor<5xf32>
  // CHECK: tosa.transpose_conv2d {{.*}} -> tensor<1x10x9x5xf32>
  %3 = tosa.transpose_conv2d %z, %tw, %tb, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 1, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>, tensor<5x3x3x2xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x?xf32>
  // conv3d: OD = (4 - 1 - 1) / 1 + 1 = 3, OH = OW = (6 - 1 - 2) / 1 + 1 = 4, OC = 7
  %w3 = "tosa.const"() <{values = dense<1.0> : tensor<7x2x3x3x2xf32>}> : () -> tensor<7x2x3x3x2xf32>
  %b3 = "tosa.const"() <{values = dense<0.0> : tensor<7xf32>}> : () -> tensor<7xf32>
  // CHECK: tosa.conv3d {{.*}} -> tensor<1x3x4x4x7xf32>
  %4 = tosa.conv3d %v, %w3, %b3, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x4x6x6x2xf32>, tensor<7x2x3x3x2xf32>, tensor<7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x?x?xf32>
  // pools: OH = (8 + 0 + 0 - 2) / 2 + 1 = 4 (max); (8 + 1 + 1 - 2) / 2 + 1 = 5 (avg)
  // CHECK: tosa.max_pool2d {{.*}} -> tensor<1x4x4x3xf32>
  %5 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<*xf32>
  // CHECK: tosa.avg_pool2d {{.*}} -> tensor<1x5x5x3xf32>
  %6 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @tensor_ops
func.func @tensor_ops(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %r: tensor<1x8x8xf32>, %i: tensor<1x8x8xf32>, %v: tensor<2x5x3xf32>, %idx: tensor<2x4xi32>, %img: tensor<1x4x4x1xf32>) -> () {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: tosa.matmul {{.*}} -> tensor<2x3x5xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?xf32>
  // RFFT2D: W / 2 + 1 = 5
  // CHECK: tosa.rfft2d {{.*}} -> (tensor<1x8x5xf32>, tensor<1x8x5xf32>)
  %1:2 = tosa.rfft2d %r : (tensor<1x8x8xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>)
  // CHECK: tosa.fft2d {{.*}} -> (tensor<1x8x8xf32>, tensor<1x8x8xf32>)
  %2:2 = tosa.fft2d %r, %i {inverse = false} : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  // GATHER: values [N, K, C], indices [N, W] -> [N, W, C]
  // CHECK: tosa.gather {{.*}} -> tensor<2x4x3xf32>
  %3 = tosa.gather %v, %idx : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<?x?x?xf32>
  // CHECK: tosa.scatter {{.*}} -> tensor<2x5x3xf32>
  %4 = tosa.scatter %v, %idx, %3 : (tensor<2x5x3xf32>, tensor<2x4xi32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  // RESIZE: OH = ((4 - 1) * 2 - 0 + 1) / 1 + 1 = 8; OW = ((4 - 1) * 3 - 1 + 0) / 2 + 1 = 5
  %s = tosa.const_shape {values = dense<[2, 1, 3, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bo = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: tosa.resize {{.*}} -> tensor<1x8x5x1xf32>
  %5 = tosa.resize %img, %s, %o, %bo {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x?x?x?xf32>
  // reductions keep the axis as 1; ARGMAX drops it
  // CHECK: tosa.reduce_sum {{.*}} -> tensor<2x1x4xf32>
  %6 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<?x?x?xf32>
  // CHECK: tosa.reduce_max {{.*}} -> tensor<2x3x1xf32>
  %7 = tosa.reduce_max %a {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<*xf32>
  // CHECK: tosa.argmax {{.*}} -> tensor<2x4xi32>
  %8 = tosa.argmax %a {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<?x?xi32>
  return
}

// -----

// CHECK-LABEL: func.func @data_layout
func.func @data_layout(%a: tensor<2x6xf32>, %b: tensor<2x3xf32>, %c: tensor<2x4xf32>, %d: tensor<4x5xf32>) -> () {
  %s34 = tosa.const_shape {values = dense<[3, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: tosa.reshape {{.*}} -> tensor<3x4xf32>
  %0 = tosa.reshape %a, %s34 : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<*xf32>
  // CHECK: tosa.concat {{.*}} -> tensor<2x7xf32>
  %1 = tosa.concat %b, %c {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<?x?xf32>
  // CHECK: tosa.concat {{.*}} -> tensor<4x3xf32>
  %2 = tosa.concat %b, %b {axis = 0 : i32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  %st = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sz = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: tosa.slice {{.*}} -> tensor<2x2xf32>
  %3 = tosa.slice %d, %st, %sz : (tensor<4x5xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x?xf32>
  %m = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: tosa.tile {{.*}} -> tensor<4x9xf32>
  %4 = tosa.tile %b, %m : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  %p = tosa.const_shape {values = dense<[1, 2, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pc = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // pad: 2 + 1 + 2 = 5, 3 + 0 + 1 = 4
  // CHECK: tosa.pad {{.*}} -> tensor<5x4xf32>
  %5 = tosa.pad %b, %p, %pc : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x?xf32>
  // CHECK: tosa.transpose {{.*}} -> tensor<3x2xf32>
  %6 = tosa.transpose %b {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<?x?xf32>
  // CHECK: tosa.reverse {{.*}} -> tensor<2x3xf32>
  %7 = tosa.reverse %b {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<*xf32>
  // chained: the refined 3x4 flows into the next op
  // CHECK: tosa.transpose {{.*}} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %8 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

// COND_IF: branch arguments take the refined inputs; results the branches' yields.
// CHECK-LABEL: func.func @cond_if
func.func @cond_if(%c: tensor<i1>, %x: tensor<2x3xf32>) -> tensor<*xf32> {
  %e = tosa.exp %x : (tensor<2x3xf32>) -> tensor<*xf32>
  // CHECK: tosa.cond_if %{{.*}} (%{{.*}} = %{{.*}}) : tensor<i1> (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = tosa.cond_if %c (%a = %e) : tensor<i1> (tensor<*xf32>) -> tensor<*xf32> {
  // CHECK: ^{{.*}}(%{{.*}}: tensor<2x3xf32>):
  ^bb0(%a: tensor<*xf32>):
    // CHECK: tosa.log {{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %l = tosa.log %a : (tensor<*xf32>) -> tensor<*xf32>
    // CHECK: tosa.yield %{{.*}} : tensor<2x3xf32>
    tosa.yield %l : tensor<*xf32>
  } else {
  ^bb0(%a: tensor<*xf32>):
    // CHECK: tosa.yield %{{.*}} : tensor<2x3xf32>
    tosa.yield %a : tensor<*xf32>
  }
  // CHECK: tosa.floor {{.*}} : (tensor<2x3xf32>) -> tensor<*xf32>
  %f = tosa.floor %r : (tensor<*xf32>) -> tensor<*xf32>
  return %f : tensor<*xf32>
}

// -----

// WHILE_LOOP: loop-carried types refined to a fixed point through cond and body.
// CHECK-LABEL: func.func @while_loop
func.func @while_loop(%x: tensor<4xi32>) -> tensor<?xi32> {
  %n = tosa.abs %x : (tensor<4xi32>) -> tensor<?xi32>
  // CHECK: tosa.while_loop (%{{.*}} = %{{.*}}) : (tensor<4xi32>) -> tensor<4xi32>
  %w = tosa.while_loop (%i = %n) : (tensor<?xi32>) -> tensor<?xi32> {
    %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    // CHECK: tosa.reduce_sum {{.*}} : (tensor<4xi32>) -> tensor<1xi32>
    %s = tosa.reduce_sum %i {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
    %g = tosa.greater %zero, %s : (tensor<1xi32>, tensor<1xi32>) -> tensor<?xi1>
    %k = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %c = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
    %b = tosa.reshape %g, %c : (tensor<?xi1>, !tosa.shape<0>) -> tensor<i1>
    tosa.yield %b : tensor<i1>
  } do {
  // CHECK: ^{{.*}}(%{{.*}}: tensor<4xi32>):
  ^bb0(%i: tensor<?xi32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    // CHECK: tosa.add {{.*}} : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi32>
    %a = tosa.add %i, %one : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
    // CHECK: tosa.yield %{{.*}} : tensor<4xi32>
    tosa.yield %a : tensor<?xi32>
  }
  // the returned value keeps the declared function result type
  // CHECK: tosa.negate
  // CHECK-SAME: -> tensor<?xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r = tosa.negate %w, %zp, %zp : (tensor<?xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
