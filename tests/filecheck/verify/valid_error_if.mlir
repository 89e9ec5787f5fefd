// Positive cases for the ERROR_IF checks of spec 2.4-2.10, 2.14-2.18, the broadcast helpers
// and the Supported Data Types: valid graphs, borderline values (each one step from an
// ERROR_IF), and what a verifier must skip (dynamic dims, unranked tensors, non-constant
// shapes and zero points). No diagnostics may be produced.
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null
// RUN: tosa-opt %s --split-input-file | filecheck %s

// CHECK-LABEL: @borderline
func.func @borderline(%a: tensor<2x5xi8>, %f: tensor<2x5xf32>, %i: tensor<2x5xi32>) -> tensor<2x5xi8> {
  // min_val == max_val is allowed (CLAMP#1 wants max < min).
  %0 = tosa.clamp %a {min_val = -3 : i8, max_val = -3 : i8} : (tensor<2x5xi8>) -> tensor<2x5xi8>
  %1 = tosa.clamp %f {min_val = 0xFF800000 : f32, max_val = 0x7F800000 : f32} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  // i8 NEGATE may have non-zero zero points (NEGATE#1/#2 are for other types).
  %z = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %2 = tosa.negate %a, %z, %z : (tensor<2x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x5xi8>
  // f32 zero points of -0.0 are zero.
  %fz = "tosa.const"() {values = dense<-0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %3 = tosa.negate %f, %fz, %fz : (tensor<2x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5xf32>
  // reduce the last axis; the output dim is 1
  %4 = tosa.reduce_sum %i axis(1) : (tensor<2x5xi32>) -> tensor<2x1xi32>
  %5 = tosa.reduce_max %a axis(0) : (tensor<2x5xi8>) -> tensor<1x5xi8>
  return %0 : tensor<2x5xi8>
}

// -----

// CHECK-LABEL: @broadcast
func.func @broadcast(%a: tensor<2x1x3xf32>, %b: tensor<1x4x1xf32>, %c: tensor<1x1x1xi1>,
                     %d: tensor<?x4x3xf32>, %u: tensor<*xf32>) -> tensor<2x4x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x1x3xf32>, tensor<1x4x1xf32>) -> tensor<2x4x3xf32>
  %1 = tosa.select %c, %a, %b : (tensor<1x1x1xi1>, tensor<2x1x3xf32>, tensor<1x4x1xf32>) -> tensor<2x4x3xf32>
  // dynamic dims: ? may be 1 or 2, so the output dim 0 is not decided
  %2 = tosa.sub %d, %a : (tensor<?x4x3xf32>, tensor<2x1x3xf32>) -> tensor<2x4x3xf32>
  %3 = tosa.sub %d, %b : (tensor<?x4x3xf32>, tensor<1x4x1xf32>) -> tensor<7x4x3xf32>
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %4 = tosa.mul %a, %u, %s : (tensor<2x1x3xf32>, tensor<*xf32>, tensor<1xi8>) -> tensor<2x4x3xf32>
  %5 = tosa.greater %u, %u : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xi1>
  return %0 : tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: @layout
func.func @layout(%a: tensor<2x5xf32>, %b: tensor<2x1xf32>, %d: tensor<?x5xf32>, %p: !tosa.shape<4>) -> tensor<2x6xf32> {
  %0 = tosa.concat %a, %b axis(1) : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %1 = tosa.concat %a axis(0) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %2 = tosa.concat %d, %a axis(0) : (tensor<?x5xf32>, tensor<2x5xf32>) -> tensor<9x5xf32>
  %zero = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %3 = tosa.pad %a, %zero, %c : (tensor<2x5xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x5xf32>
  // padding not a constant: PAD#2/#3 are decided at run time
  %4 = tosa.pad %a, %p, %c : (tensor<2x5xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<9x9xf32>
  %s = tosa.const_shape {values = dense<[10]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %5 = tosa.reshape %a, %s : (tensor<2x5xf32>, !tosa.shape<1>) -> tensor<10xf32>
  %6 = tosa.reshape %d, %s : (tensor<?x5xf32>, !tosa.shape<1>) -> tensor<?xf32>
  %7 = tosa.reverse %a axis(1) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  // slice up to the very end of the input
  %st = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sz = tosa.const_shape {values = dense<[1, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %8 = tosa.slice %a, %st, %sz : (tensor<2x5xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x5xf32>
  %9 = tosa.slice %d, %st, %sz : (tensor<?x5xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x5xf32>
  %m = tosa.const_shape {values = dense<[3, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %10 = tosa.tile %a, %m : (tensor<2x5xf32>, !tosa.shape<2>) -> tensor<6x5xf32>
  %11 = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<2x5xf32>) -> tensor<5x2xf32>
  %12 = tosa.transpose %d {perms = array<i32: 1, 0>} : (tensor<?x5xf32>) -> tensor<5x?xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// Five levels of control flow nesting are fine at level 8K (MAX_NESTING = 6).
// CHECK-LABEL: @nesting
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [controlflow]>} {
func.func @nesting(%c: tensor<1x1xi1>, %x0: tensor<f32>) -> tensor<f32> {
  %r0 = tosa.cond_if %c (%x1 = %x0) : tensor<1x1xi1> (tensor<f32>) -> tensor<f32> {
  ^bb0(%x1: tensor<f32>):
    %r1 = tosa.cond_if %c (%x2 = %x1) : tensor<1x1xi1> (tensor<f32>) -> tensor<f32> {
    ^bb0(%x2: tensor<f32>):
      %r2 = tosa.cond_if %c (%x3 = %x2) : tensor<1x1xi1> (tensor<f32>) -> tensor<f32> {
      ^bb0(%x3: tensor<f32>):
        %r3 = tosa.cond_if %c (%x4 = %x3) : tensor<1x1xi1> (tensor<f32>) -> tensor<f32> {
        ^bb0(%x4: tensor<f32>):
          %r4 = tosa.cond_if %c (%x5 = %x4) : tensor<1x1xi1> (tensor<f32>) -> tensor<f32> {
          ^bb0(%x5: tensor<f32>):
            %r5 = tosa.while_loop (%w = %x5) : (tensor<f32>) -> tensor<f32> {
              %g = "tosa.const"() {values = dense<false> : tensor<1xi1>} : () -> tensor<1xi1>
              tosa.yield %g : tensor<1xi1>
            } do {
            ^bb0(%w: tensor<f32>):
              tosa.yield %w : tensor<f32>
            }
            tosa.yield %r5 : tensor<f32>
          } else {
          ^bb0(%x5: tensor<f32>):
            tosa.yield %x5 : tensor<f32>
          }
          tosa.yield %r4 : tensor<f32>
        } else {
        ^bb0(%x4: tensor<f32>):
          tosa.yield %x4 : tensor<f32>
        }
        tosa.yield %r3 : tensor<f32>
      } else {
      ^bb0(%x3: tensor<f32>):
        tosa.yield %x3 : tensor<f32>
      }
      tosa.yield %r2 : tensor<f32>
    } else {
    ^bb0(%x2: tensor<f32>):
      tosa.yield %x2 : tensor<f32>
    }
    tosa.yield %r1 : tensor<f32>
  } else {
  ^bb0(%x1: tensor<f32>):
    tosa.yield %x1 : tensor<f32>
  }
  return %r0 : tensor<f32>
}
}

// -----

// One row of each kind of Supported Data Types table, across profiles and extensions.
// CHECK-LABEL: @data_types
func.func @data_types(%i8: tensor<4xi8>, %i16: tensor<4xi16>, %bf: tensor<4xbf16>, %f8: tensor<4xf8E4M3FN>,
                      %t16: tensor<513xi16>, %b: tensor<4xi1>, %i4: tensor<4xi4>) -> tensor<4xi32> {
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.mul %i8, %i8, %s : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  %1 = tosa.table %i16, %t16 : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
  %2 = tosa.exp %bf : (tensor<4xbf16>) -> tensor<4xbf16>
  %3 = tosa.cast %f8 : (tensor<4xf8E4M3FN>) -> tensor<4xbf16>
  %4 = tosa.equal %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %5 = tosa.logical_and %b, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %6 = tosa.identity %i4 : (tensor<4xi4>) -> tensor<4xi4>
  %7 = tosa.reduce_all %b axis(0) : (tensor<4xi1>) -> tensor<1xi1>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: tosa.variable @v
module {
  tosa.variable @v = dense<1.5> : tensor<2xf16>
  tosa.variable @w : tensor<2xi8>
  func.func @access(%x: tensor<2xi8>) -> tensor<2xf16> {
    tosa.variable_write @w, %x : tensor<2xi8>
    %0 = tosa.variable_read @v : tensor<2xf16>
    return %0 : tensor<2xf16>
  }
}
