"""EXT-DYNAMIC through every stage: programs with `?` dims run at the TOSA level (the
interpreter resolves shapes from the actual inputs; it is itself checked against Arm's
reference model in tests/differential) and after each lowering prefix (linalg on tensors,
buffers, affine loops, scf loops, cf) in the interpreter and the llvm stage natively (JIT), on several
random run-time shapes per program. Integers must match exactly; floats bit for bit except
REDUCE_SUM, MATMUL and FFT2D/RFFT2D, whose summation order the spec leaves open (their error
bound: a relative 1e-5 here). The list of dynamically lowered operators is checked against
docs/lowering.md.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse

from tosa_xdsl.interpreter import run
from tosa_xdsl.jit import NativeModule

NOVAL = "{validation=false}"  # tosa-validate rejects `?` dims (levels), as upstream's does
STAGES = (
    "tosa-to-linalg-pipeline" + NOVAL,
    "tosa-to-linalg-pipeline" + NOVAL + ",one-shot-bufferize",
    "tosa-to-linalg-pipeline" + NOVAL + ",one-shot-bufferize,convert-linalg-to-affine-loops",
    "tosa-to-loops" + NOVAL + ",lower-affine",
    "tosa-to-loops" + NOVAL + ",lower-affine,convert-scf-to-cf",
)
LLVM = "tosa-to-llvm" + NOVAL  # run natively

# (name, source, input templates: (dims with letters for run-time sizes, or a tuple of sizes, dtype),
# exact floats?)
PROGRAMS = [
    ("add_broadcast_both_dynamic", """
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tosa.add %a, %b : (tensor<?x?xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}""", [("N1", "f32"), ("M4", "f32")], True),
    ("select_int_three_dynamic", """
func.func @main(%c: tensor<?x3xi1>, %a: tensor<?x3xi32>, %b: tensor<?x1xi32>) -> tensor<?x3xi32> {
  %0 = tosa.select %c, %a, %b : (tensor<?x3xi1>, tensor<?x3xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
  %1 = tosa.mul %0, %a, %s : (tensor<?x3xi32>, tensor<?x3xi32>, tensor<1xi8>) -> tensor<?x3xi32>
  return %1 : tensor<?x3xi32>
}""", [("N3", "bool"), ("N3", "i32"), ("N1", "i32")], True),
    ("reduce_and_cast", """
func.func @main(%x: tensor<?x3x?xf32>, %y: tensor<?x3xi32>) -> (tensor<?x1x?xf32>, tensor<1x3xi32>, tensor<?x3x1xi8>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<?x3x?xf32>) -> tensor<?x1x?xf32>
  %1 = tosa.reduce_max %y {axis = 0 : i32} : (tensor<?x3xi32>) -> tensor<1x3xi32>
  %2 = tosa.reduce_min %x {axis = 2 : i32} : (tensor<?x3x?xf32>) -> tensor<?x3x1xf32>
  %3 = tosa.cast %2 : (tensor<?x3x1xf32>) -> tensor<?x3x1xi8>
  return %0, %1, %3 : tensor<?x1x?xf32>, tensor<1x3xi32>, tensor<?x3x1xi8>
}""", [("N3K", "f32"), ("M3", "i32")], False),
    ("matmul_transpose_reshape", """
func.func @main(%a: tensor<?x?x4xf32>, %b: tensor<?x4x3xf32>) -> tensor<?x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<?x?x4xf32>, tensor<?x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x3xf32>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0, 2>} : (tensor<?x?x3xf32>) -> tensor<?x?x3xf32>
  %s = tosa.const_shape {values = dense<[-1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.reshape %1, %s : (tensor<?x?x3xf32>, !tosa.shape<2>) -> tensor<?x3xf32>
  %3 = tosa.sigmoid %2 : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %3 : tensor<?x3xf32>
}""", [("BH4", "f32"), ("B43", "f32")], False),
    ("concat_conv2d_max_pool_dynamic_batch", """
func.func @main(%a: tensor<?x3x3x2xf32>, %b: tensor<?x3x3x2xf32>, %c: tensor<?x3x3x1xf32>) -> (tensor<?x3x3x3xf32>, tensor<?x3x3x2xf32>, tensor<?x2x3x3xf32>) {
  %w = "tosa.const"() <{values = dense<[[[[-1.5, -1.0, -0.5], [0.0, 0.5, 1.0]], [[1.5, -1.5, -1.0], [-0.5, 0.0, 0.5]]], [[[1.0, 1.5, -1.5], [-1.0, -0.5, 0.0]], [[0.5, 1.0, 1.5], [-1.5, -1.0, -0.5]]], [[[0.0, 0.5, 1.0], [1.5, -1.5, -1.0]], [[-0.5, 0.0, 0.5], [1.0, 1.5, -1.5]]]]> : tensor<3x2x2x3xf32>}> : () -> tensor<3x2x2x3xf32>
  %bias = "tosa.const"() <{values = dense<[0.5, 1.0, -2.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.concat %a, %c {axis = 3 : i32} : (tensor<?x3x3x2xf32>, tensor<?x3x3x1xf32>) -> tensor<?x3x3x3xf32>
  %1 = tosa.conv2d %0, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 1, 1>} : (tensor<?x3x3x3xf32>, tensor<3x2x2x3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3x3x3xf32>
  %2 = tosa.concat %a, %b {axis = 0 : i32} : (tensor<?x3x3x2xf32>, tensor<?x3x3x2xf32>) -> tensor<?x3x3x2xf32>
  %3 = tosa.max_pool2d %1 {kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 2, 1>} : (tensor<?x3x3x3xf32>) -> tensor<?x2x3x3xf32>
  return %1, %2, %3 : tensor<?x3x3x3xf32>, tensor<?x3x3x2xf32>, tensor<?x2x3x3xf32>
}""", [("B332", "f32"), ("N332", "f32"), ("B331", "f32")], False),
    ("rescale_table_reverse_argmax", """
func.func @main(%x: tensor<?x3x?xi8>, %t: tensor<256xi8>, %f: tensor<?x?xf32>, %w: tensor<?x2xi16>, %t16: tensor<513xi16>) -> (tensor<?x3x?xi8>, tensor<?x3x?xi8>, tensor<?x3x?xi8>, tensor<?x?xi32>, tensor<?xi32>, tensor<?x2xi32>, tensor<?x2xi32>, tensor<?x2xi16>, tensor<?x2xi8>) {
  %m = "tosa.const"() <{values = dense<19689> : tensor<1xi16>}> : () -> tensor<1xi16>
  %sh = "tosa.const"() <{values = dense<15> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<17> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<-22> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m32 = "tosa.const"() <{values = dense<1376784203> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sh38 = "tosa.const"() <{values = dense<38> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z16 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %z32 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = tosa.rescale %x, %m, %sh, %izp, %ozp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<?x3x?xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x3x?xi8>
  %1 = tosa.table %x, %t : (tensor<?x3x?xi8>, tensor<256xi8>) -> tensor<?x3x?xi8>
  %2 = tosa.reverse %1 {axis = 2 : i32} : (tensor<?x3x?xi8>) -> tensor<?x3x?xi8>
  %3 = tosa.argmax %x {axis = 1 : i32} : (tensor<?x3x?xi8>) -> tensor<?x?xi32>
  %4 = tosa.argmax %f {axis = 0 : i32} : (tensor<?x?xf32>) -> tensor<?xi32>
  %5 = tosa.rescale %w, %m32, %sh38, %z16, %z32 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<?x2xi16>, tensor<1xi32>, tensor<1xi8>, tensor<1xi16>, tensor<1xi32>) -> tensor<?x2xi32>
  %6 = tosa.table %w, %t16 : (tensor<?x2xi16>, tensor<513xi16>) -> tensor<?x2xi32>
  %7 = tosa.reverse %w {axis = 1 : i32} : (tensor<?x2xi16>) -> tensor<?x2xi16>
  %8 = tosa.reverse %7 {axis = 0 : i32} : (tensor<?x2xi16>) -> tensor<?x2xi16>
  %pm = "tosa.const"() <{values = dense<[1073741824, 1518500250]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %ps = "tosa.const"() <{values = dense<[33, 40]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %9 = tosa.rescale %w, %pm, %ps, %z16, %z8 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<?x2xi16>, tensor<2xi32>, tensor<2xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<?x2xi8>
  return %0, %1, %2, %3, %4, %5, %6, %8, %9 : tensor<?x3x?xi8>, tensor<?x3x?xi8>, tensor<?x3x?xi8>, tensor<?x?xi32>, tensor<?xi32>, tensor<?x2xi32>, tensor<?x2xi32>, tensor<?x2xi16>, tensor<?x2xi8>
}""", [("N3K", "i8"), ((256,), "i8"), ("MB", "f32"), ("H2", "i16"), ((513,), "table16")], True),
    ("avg_pool_depthwise_dynamic_batch", """
func.func @main(%x: tensor<?x4x5x2xf32>, %q: tensor<?x4x5x2xi8>) -> (tensor<?x3x3x2xf32>, tensor<?x3x3x2xi8>, tensor<?x4x4x6xf32>, tensor<?x3x4x4xi32>) {
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %izp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<[[[[-1.5, -1.0, -0.5], [0.0, 0.5, 1.0]], [[1.5, -1.5, -1.0], [-0.5, 0.0, 0.5]]], [[[1.0, 1.5, -1.5], [-1.0, -0.5, 0.0]], [[0.5, 1.0, 1.5], [-1.5, -1.0, -0.5]]]]> : tensor<2x2x2x3xf32>}> : () -> tensor<2x2x2x3xf32>
  %bias = "tosa.const"() <{values = dense<[0.5, 1.0, -2.0, 0.25, 0.0, 3.0]> : tensor<6xf32>}> : () -> tensor<6xf32>
  %wq = "tosa.const"() <{values = dense<[[[[-7, 3], [2, 9]], [[5, -1], [0, 4]]], [[[8, -6], [-2, 1]], [[3, 3], [-5, 7]]]]> : tensor<2x2x2x2xi8>}> : () -> tensor<2x2x2x2xi8>
  %bq = "tosa.const"() <{values = dense<[100, -50, 7, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %wzp = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.avg_pool2d %x, %zf, %zf {acc_type = f32, kernel = array<i64: 2, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x4x5x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3x3x2xf32>
  %1 = tosa.avg_pool2d %q, %izp, %ozp {acc_type = i32, kernel = array<i64: 2, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x4x5x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x3x3x2xi8>
  %2 = tosa.depthwise_conv2d %x, %w, %bias, %zf, %zf {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x4x5x2xf32>, tensor<2x2x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x4x4x6xf32>
  %3 = tosa.depthwise_conv2d %q, %wq, %bq, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 2>, pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<?x4x5x2xi8>, tensor<2x2x2x2xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x3x4x4xi32>
  return %0, %1, %2, %3 : tensor<?x3x3x2xf32>, tensor<?x3x3x2xi8>, tensor<?x4x4x6xf32>, tensor<?x3x4x4xi32>
}""", [("N452", "f32"), ("B452", "i8")], False),
    ("conv_pool_dynamic_spatial", """
func.func @main(%x: tensor<?x?x?x2xf32>, %q: tensor<?x?x?x2xi8>) -> (tensor<?x?x?x3xf32>, tensor<?x?x?x2xf32>, tensor<?x?x?x2xi8>, tensor<?x?x?x2xf32>, tensor<?x?x?x4xi32>) {
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %izp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<[[[[-1.5, 1.0], [0.5, 2.0]], [[0.25, -0.5], [1.5, -2.0]]], [[[1.0, 0.5], [-1.0, 0.75]], [[-0.25, 1.25], [0.0, 1.5]]], [[[2.0, -1.0], [0.5, 0.5]], [[-1.5, 0.25], [1.0, -0.75]]]]> : tensor<3x2x2x2xf32>}> : () -> tensor<3x2x2x2xf32>
  %b = "tosa.const"() <{values = dense<[0.5, -1.0, 2.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %wq = "tosa.const"() <{values = dense<[[[[-7, 3], [2, 9]], [[5, -1], [0, 4]]], [[[8, -6], [-2, 1]], [[3, 3], [-5, 7]]]]> : tensor<2x2x2x2xi8>}> : () -> tensor<2x2x2x2xi8>
  %bq = "tosa.const"() <{values = dense<[100, -50, 7, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %0 = tosa.conv2d %x, %w, %b, %zf, %zf {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 0, 2, 1>, stride = array<i64: 2, 1>} : (tensor<?x?x?x2xf32>, tensor<3x2x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x3xf32>
  %1 = tosa.avg_pool2d %x, %zf, %zf {acc_type = f32, kernel = array<i64: 2, 3>, pad = array<i64: 1, 0, 2, 0>, stride = array<i64: 2, 2>} : (tensor<?x?x?x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x2xf32>
  %2 = tosa.avg_pool2d %q, %izp, %ozp {acc_type = i32, kernel = array<i64: 3, 2>, pad = array<i64: 2, 1, 1, 0>, stride = array<i64: 1, 2>} : (tensor<?x?x?x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x?x?x2xi8>
  %3 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 2, 1>} : (tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32>
  %4 = tosa.depthwise_conv2d %q, %wq, %bq, %izp, %wzp {acc_type = i32, dilation = array<i64: 2, 1>, pad = array<i64: 1, 1, 0, 1>, stride = array<i64: 1, 2>} : (tensor<?x?x?x2xi8>, tensor<2x2x2x2xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x?x?x4xi32>
  return %0, %1, %2, %3, %4 : tensor<?x?x?x3xf32>, tensor<?x?x?x2xf32>, tensor<?x?x?x2xi8>, tensor<?x?x?x2xf32>, tensor<?x?x?x4xi32>
}""", [("NHK2", "f32"), ("BHK2", "i8")], False),
    ("fft_dynamic", """
func.func @main(%re: tensor<?x?x?xf32>, %im: tensor<?x?x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>) {
  %0, %1 = tosa.fft2d %re, %im {inverse = true} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>)
  %2, %3 = tosa.rfft2d %re : (tensor<?x?x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>)
  return %0, %1, %2, %3 : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>
}""", [("NHK", "f32"), ("NHK", "f32")], False),
    ("conv3d_transpose_conv_dynamic_batch", """
func.func @main(%x: tensor<?x2x3x3x1xi8>, %y: tensor<?x2x2x1xi8>) -> (tensor<?x2x2x2x2xi32>, tensor<?x4x4x2xi32>) {
  %izp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w3 = "tosa.const"() <{values = dense<[[[[[-7], [3]], [[2], [9]]]], [[[[5], [-1]], [[0], [4]]]]]> : tensor<2x1x2x2x1xi8>}> : () -> tensor<2x1x2x2x1xi8>
  %wt = "tosa.const"() <{values = dense<[[[[8], [-6]], [[-2], [1]]], [[[3], [3]], [[-5], [7]]]]> : tensor<2x2x2x1xi8>}> : () -> tensor<2x2x2x1xi8>
  %b = "tosa.const"() <{values = dense<[100, -50]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = tosa.conv3d %x, %w3, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<?x2x3x3x1xi8>, tensor<2x1x2x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x2x2x2x2xi32>
  %1 = tosa.transpose_conv2d %y, %wt, %b, %izp, %wzp {acc_type = i32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x2x2x1xi8>, tensor<2x2x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x4x4x2xi32>
  return %0, %1 : tensor<?x2x2x2x2xi32>, tensor<?x4x4x2xi32>
}""", [("N2331", "i8"), ("B221", "i8")], True),
    ("resize_dynamic_batch", """
func.func @main(%x: tensor<?x2x3x2xi8>, %y: tensor<?x2x3x2xf32>) -> (tensor<?x3x5x2xi32>, tensor<?x3x5x2xf32>) {
  %s = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.resize %x, %s, %o, %o {mode = BILINEAR} : (tensor<?x2x3x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x3x5x2xi32>
  %1 = tosa.resize %y, %s, %o, %o {mode = NEAREST_NEIGHBOR} : (tensor<?x2x3x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x3x5x2xf32>
  return %0, %1 : tensor<?x3x5x2xi32>, tensor<?x3x5x2xf32>
}""", [("N232", "i8"), ("B232", "f32")], True),
    ("pad_dynamic_input", """
func.func @main(%x: tensor<?x2x?xf32>, %q: tensor<?x3xi8>) -> (tensor<?x5x?xf32>, tensor<?x6xi8>) {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 2, 3, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %c = "tosa.const"() <{values = dense<-2.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %pq = tosa.const_shape {values = dense<[2, 1, 0, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %cq = "tosa.const"() <{values = dense<-7> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.pad %x, %p, %c : (tensor<?x2x?xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<?x5x?xf32>
  %1 = tosa.pad %q, %pq, %cq : (tensor<?x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<?x6xi8>
  return %0, %1 : tensor<?x5x?xf32>, tensor<?x6xi8>
}""", [("N2K", "f32"), ("M3", "i8")], True),
    ("slice_dynamic_input", """
func.func @main(%x: tensor<?x4xi32>, %y: tensor<3x?x2xf32>) -> (tensor<1x2xi32>, tensor<2x1x2xf32>) {
  %s0 = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z0 = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s1 = tosa.const_shape {values = dense<[1, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %z1 = tosa.const_shape {values = dense<[2, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %s0, %z0 : (tensor<?x4xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xi32>
  %1 = tosa.slice %y, %s1, %z1 : (tensor<3x?x2xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x1x2xf32>
  return %0, %1 : tensor<1x2xi32>, tensor<2x1x2xf32>
}""", [("N4", "i32"), ("3M2", "f32")], True),
    ("tile_gather_dynamic", """
func.func @main(%x: tensor<?x3xi8>, %v: tensor<?x4x2xf32>, %i: tensor<?x?xi32>) -> (tensor<?x3xi8>, tensor<?x6xi8>, tensor<?x?x2xf32>) {
  %m0 = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m1 = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %x, %m0 : (tensor<?x3xi8>, !tosa.shape<2>) -> tensor<?x3xi8>
  %1 = tosa.tile %x, %m1 : (tensor<?x3xi8>, !tosa.shape<2>) -> tensor<?x6xi8>
  %2 = tosa.gather %v, %i : (tensor<?x4x2xf32>, tensor<?x?xi32>) -> tensor<?x?x2xf32>
  return %0, %1, %2 : tensor<?x3xi8>, tensor<?x6xi8>, tensor<?x?x2xf32>
}""", [("B3", "i8"), ("N42", "f32"), ("NM", "index4")], True),
]

SHIFT = '%s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>\n'


def _source(src: str) -> str:
    if "%s :" in src and "tosa.const_shape" not in src:  # MUL's shift operand
        head, body = src.split("{\n", 1)
        return head + "{\n  " + SHIFT + body
    return src


def _inputs(templates, rng) -> list[np.ndarray]:
    sizes = {k: int(rng.integers(1, 5)) for k in "NMKBH"}
    # the broadcasting cases: N or M may be 1 against the other's size
    if rng.random() < 0.5:
        sizes["N"] = 1
    out = []
    for dims, dtype in templates:
        shape = tuple(sizes[c] if isinstance(c, str) and c.isalpha() else int(c) for c in dims)
        if dtype == "bool":
            out.append(rng.random(shape) < 0.5)
        elif dtype == "i32":
            out.append(rng.integers(-1000, 1000, shape).astype(np.int32))
        elif dtype == "index4":  # GATHER indices into K = 4
            out.append(rng.integers(0, 4, shape).astype(np.int32))
        elif dtype == "table16":  # adjacent entries differ by less than 2**15 (apply_lookup_s' REQUIRE)
            out.append(rng.integers(-(1 << 14), 1 << 14, shape).astype(np.int16))
        elif dtype in ("i8", "i16"):  # the type's full range (TABLE reads every entry)
            info = np.iinfo(dtype.replace("i", "int"))
            out.append(rng.integers(info.min, info.max + 1, shape).astype(dtype.replace("i", "int")))
        else:
            out.append((rng.standard_normal(shape) * 4).astype(np.float32))
    return out


def _fix_broadcast(name: str, xs: list[np.ndarray]) -> list[np.ndarray]:
    """Make the inputs a valid broadcast for the program (the interpreter rejects others)."""
    if name == "add_broadcast_both_dynamic":
        a, b = xs
        if a.shape[0] != b.shape[0] and 1 not in (a.shape[0], b.shape[0]):
            b = b[:1]
        return [a, b]
    if name == "fft_dynamic":  # H and W powers of two (ERROR_IF otherwise): 3 -> 2
        return [x[:, :x.shape[1] - (x.shape[1] == 3), :x.shape[2] - (x.shape[2] == 3)] for x in xs]
    if name == "conv_pool_dynamic_spatial":
        # odd H and W: every stride-2 output-size numerator is then even (idiv_check)
        return [x[:, :x.shape[1] - 1 + x.shape[1] % 2, :x.shape[2] - 1 + x.shape[2] % 2] for x in xs]
    return xs


@pytest.fixture(scope="module")
def lowered():
    cache: dict[tuple[str, str], object] = {}

    def get(name: str, src: str, stage: str):
        key = (name, stage)
        if key not in cache:
            cache[key] = lower(src, stage)
        return cache[key]

    return get


def _close(got, want, exact: bool, what: str) -> None:
    if exact:
        assert_same(got, want, what)
        return
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (what, g.shape, w.shape)
        if w.dtype.kind in "iub":
            np.testing.assert_array_equal(g, w, err_msg=what)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=what)


@pytest.mark.parametrize("name, src, templates, exact", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_every_stage_matches_the_tosa_level(name, src, templates, exact, lowered):
    src = _source(src)
    rng = np.random.default_rng(sum(map(ord, name)))
    tosa_module = parse(src)
    native = NativeModule(parse(src), pipeline=LLVM)
    for trial in range(4):
        xs = _fix_broadcast(name, _inputs(templates, rng))
        want = run(tosa_module, xs)
        for stage in STAGES:
            got = run(lowered(name, src, stage), xs)
            _close(got, want, exact, f"{name} {stage} shapes {[x.shape for x in xs]}")
        _close(native.call(xs), want, exact, f"{name} jit shapes {[x.shape for x in xs]}")


def test_ambiguous_broadcast_reads_through_extract():
    """Two dynamic operand dims, either may be 1 at run time: the size is their maxui and the
    operands are read at `minui(index, dim - 1)` (upstream broadcasts them with scf.if)."""
    src = PROGRAMS[0][1]
    text = str(lower(src, STAGES[0]))
    assert "arith.maxui" in text and "tensor.extract" in text and "arith.minui" in text
    a = np.arange(3, dtype=np.float32).reshape(3, 1)
    b = np.arange(4, dtype=np.float32).reshape(1, 4)
    for stage in STAGES:
        (got,) = run(lower(src, stage), [a, b])
        np.testing.assert_array_equal(got, a + b)  # numpy's broadcasting = TOSA's (spec 1.11.3)
    (got,) = NativeModule(parse(src), pipeline=LLVM).call([a, b])
    np.testing.assert_array_equal(got, a + b)


def _lowering_tables():
    from tosa_xdsl.lowering import tosa_to_linalg, tosa_to_linalg_named
    from tosa_xdsl.lowering.preconditions import collect_dynamic
    from tosa_xdsl.lowering.tosa_to_scf import DYNAMIC as SCF_DYNAMIC
    from tosa_xdsl.lowering.tosa_to_tensor import DYNAMIC as TENSOR_DYNAMIC

    table = {**collect_dynamic(tosa_to_linalg), **collect_dynamic(tosa_to_linalg_named), **TENSOR_DYNAMIC,
             **SCF_DYNAMIC}
    return {cls.name for cls in table}


def test_native_reads_stay_inside_mismatched_operands():
    """Run-time shapes that break the broadcast ERROR_IF (4 rows against 3): the interpreter
    reports the ERROR_IF; native code cannot, but its reads stay inside each operand."""
    from tosa_xdsl.interpreter.errors import TosaRunError

    src = PROGRAMS[0][1]
    a = np.ones((4, 1), np.float32)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    with pytest.raises(TosaRunError, match="broadcast_shape"):
        run(parse(src), [a, b])
    native = NativeModule(parse(src), pipeline=LLVM)
    # NativeModule checks the run-time shapes on the graph first and refuses them ...
    with pytest.raises(ValueError, match="break the graph's shape rules"):
        native.call([a, b])
    # ... and below that check the native reads themselves stay inside each operand
    native._checked.add((a.shape, b.shape))
    (got,) = native.call([a, b])
    np.testing.assert_array_equal(got, 1 + b[[0, 1, 2, 2]])  # row 3 of b clamped to row 2


def test_docs_list_the_dynamic_operators():
    """docs/lowering.md's list of operators that lower with dynamic dims is the code's."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "lowering.md").read_text()
    section = doc.split("<!-- dynamic-ops -->")[1]
    listed = set(re.findall(r"`(tosa\.[a-z0-9_]+)`", section))
    assert listed == _lowering_tables()


def test_static_only_operator_names_the_operand():
    src = """
func.func @main(%x: tensor<1x?x2x1xf32>) -> tensor<1x?x3x1xf32> {
  %s = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.resize %x, %s, %o, %o {mode = NEAREST_NEIGHBOR} : (tensor<1x?x2x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x?x3x1xf32>
  return %0 : tensor<1x?x3x1xf32>
}"""
    from tosa_xdsl.diagnostics import LocatedError

    with pytest.raises(LocatedError, match=r"cannot lower 'tosa.resize': operand #0 has a dynamic dimension"):
        lower(src, STAGES[0])


def test_bufferized_dynamic_results_are_returned_and_owned_by_the_caller():
    """docs/bufferization.md: with a dynamic result every tensor result is returned (in
    order, no out-params); the function frees every other buffer it allocates."""
    from xdsl.dialects import func, memref
    from xdsl.dialects.builtin import MemRefType

    from tosa_xdsl.interpreter.runner import Session

    src = PROGRAMS[2][1]  # reduce_and_cast: results ?x1x?, 1x3 (static), ?x3x1
    module = lower(src, STAGES[1])
    fn = next(o for o in module.walk() if isinstance(o, func.FuncOp))
    assert "tosa_xdsl.out_params" not in fn.attributes
    assert [str(t) for t in fn.function_type.outputs.data] == [
        "memref<?x1x?xf32>", "memref<1x3xi32>", "memref<?x3x1xi8>"]
    assert all(isinstance(t, MemRefType) for t in fn.function_type.inputs.data)
    allocs = sum(isinstance(o, memref.AllocOp) for o in module.walk())
    deallocs = sum(isinstance(o, memref.DeallocOp) for o in module.walk())
    assert allocs == deallocs + 3
    session = Session(module)
    rng = np.random.default_rng(1)
    for _ in range(2):
        xs = [rng.standard_normal((2, 3, 4)).astype(np.float32), rng.integers(-9, 9, (5, 3)).astype(np.int32)]
        _close(session.call(xs), run(parse(src), xs), False, "bufferized")
        assert session.interpreter.allocations.live_allocations == 0


def test_native_slice_reads_stay_inside_a_too_small_input():
    """A run-time input smaller than the static slice breaks a REQUIRE the interpreter
    reports; native code cannot, but its reads stay inside the input (clamped indices)."""
    from tosa_xdsl.interpreter.errors import TosaRunError

    src = """
func.func @main(%x: tensor<3x?xf32>) -> tensor<2x2xf32> {
  %s = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.slice %x, %s, %z : (tensor<3x?xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}"""
    x = np.arange(6, dtype=np.float32).reshape(3, 2)  # needs 3 columns
    with pytest.raises(TosaRunError):
        run(parse(src), [x])
    native = NativeModule(parse(src), pipeline=LLVM)
    with pytest.raises(ValueError, match="break the graph's shape rules"):
        native.call([x])
    native._checked.add((x.shape,))  # past the shape check: the reads themselves are clamped
    (got,) = native.call([x])
    np.testing.assert_array_equal(got, x[1:3][:, [1, 1]])  # column 2 clamped to column 1


def test_native_refuses_run_time_shapes_the_graph_forbids():
    """tests/robustness's promise for dynamic shapes: GATHER with values and indices of
    different N (spec 2.11.1's Arguments table: both [N,...]) and zero-size dynamic dims are
    refused before any native code runs; valid shapes still run."""
    src = """
func.func @main(%v: tensor<?x5x3xf32>, %i: tensor<?x4xi32>) -> tensor<?x4x3xf32> {
  %0 = tosa.gather %v, %i : (tensor<?x5x3xf32>, tensor<?x4xi32>) -> tensor<?x4x3xf32>
  return %0 : tensor<?x4x3xf32>
}"""
    native = NativeModule(parse(src), pipeline=LLVM)
    v = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    i = np.array([[0, 4, 1, 1], [3, 2, 0, 4]], np.int32)
    (got,) = native.call([v, i])
    np.testing.assert_array_equal(got, np.take_along_axis(v, i[:, :, None].repeat(3, 2), 1))
    with pytest.raises(ValueError, match="break the graph's shape rules"):
        native.call([v, np.zeros((3, 4), np.int32)])  # N = 2 vs 3
    with pytest.raises(ValueError, match="every dim at least 1"):
        native.call([v[:0], i[:0]])
