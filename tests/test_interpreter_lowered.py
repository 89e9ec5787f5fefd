"""The lowered-stage interpreter (tosa_xdsl/interpreter/lowered/): hand-written
linalg/arith/math/tensor/scf/ml_program programs, each checked against numpy computed
independently here; every program is also valid for MLIR 22's mlir-opt (checked when
/usr/lib/llvm-22/bin/mlir-opt exists)."""

from __future__ import annotations

import os
import subprocess

import ml_dtypes
import numpy as np
import pytest

pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.runner import Session

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"


def parse(src: str):
    from xdsl.parser import Parser

    module = Parser(make_context(), src).parse_module()
    module.verify()
    return module


def check_upstream(src: str) -> None:
    if not os.path.exists(MLIR_OPT):
        return
    p = subprocess.run([MLIR_OPT, "-"], input=src, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def go(src: str, inputs, entry: str = "main"):
    check_upstream(src)
    return run(parse(src), inputs, entry)


RNG = np.random.default_rng(7)

# ---------------------------------------------------------------- arith (scalars in generic)

ELEMWISE = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<6xi8>, %b: tensor<6xi8>) -> ({outs}) {{
  %e = tensor.empty() : tensor<6x{t}>
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%a, %b : tensor<6xi8>, tensor<6xi8>) outs(%e : tensor<6x{t}>) {{
  ^bb0(%x: i8, %y: i8, %o: {t}):
    {body}
    linalg.yield %v : {t}
  }} -> tensor<6x{t}>
  return %r : tensor<6x{t}>
}}"""


def i8(v):
    return np.array(v, dtype=np.int8)


A8 = i8([127, -128, 7, -7, 100, 0])
B8 = i8([1, -1, 2, 3, -100, 5])


def wrap8(v):
    return ((np.asarray(v, np.int64) + 128) % 256 - 128).astype(np.int8)


@pytest.mark.parametrize("body,expect", [
    ("%v = arith.addi %x, %y : i8", wrap8(A8.astype(int) + B8)),
    ("%v = arith.subi %x, %y : i8", wrap8(A8.astype(int) - B8)),
    ("%v = arith.muli %x, %y : i8", wrap8(A8.astype(int) * B8)),
    ("%v = arith.divsi %x, %y : i8", wrap8([127, -128, 3, -2, -1, 0])),  # -128/-1 is UB: wraps
    ("%v = arith.remsi %x, %y : i8", i8([0, 0, 1, -1, 0, 0])),
    ("%v = arith.floordivsi %x, %y : i8", wrap8([127, 128, 3, -3, -1, 0])),
    ("%v = arith.ceildivsi %x, %y : i8", wrap8([127, 128, 4, -2, -1, 0])),
    ("%v = arith.divui %x, %y : i8", i8([127, 0, 3, 83, 0, 0])),       # 249/3, 128/255
    ("%v = arith.remui %x, %y : i8", i8([0, -128, 1, 0, 100, 0])),
    ("%v = arith.maxsi %x, %y : i8", np.maximum(A8, B8)),
    ("%v = arith.minui %x, %y : i8", np.minimum(A8.view(np.uint8), B8.view(np.uint8)).view(np.int8)),
    ("%v = arith.xori %x, %y : i8", A8 ^ B8),
    ("%v = arith.shrsi %x, %y : i8", i8([63, -1, 1, -1, 0, 0])),   # shift >= 8 (poison): sign fill
    ("%v = arith.shrui %x, %y : i8", i8([63, 0, 1, 31, 0, 0])),
    ("%v = arith.shli %x, %y : i8", i8([-2, 0, 28, -56, 0, 0])),
])
def test_arith_int_i8(body, expect):
    (r,) = go(ELEMWISE.format(t="i8", outs="tensor<6xi8>", body=body), [A8, B8])
    np.testing.assert_array_equal(r, expect)


@pytest.mark.parametrize("t,body,expect", [
    ("i32", "%v = arith.extsi %x : i8 to i32", A8.astype(np.int32)),
    ("i32", "%v = arith.extui %x : i8 to i32", A8.view(np.uint8).astype(np.int32)),
    ("i1", "%v = arith.cmpi ult, %x, %y : i8", A8.view(np.uint8) < B8.view(np.uint8)),
    ("i1", "%v = arith.cmpi sge, %x, %y : i8", A8 >= B8),
    ("i1", "%v = arith.trunci %x : i8 to i1", (A8 & 1).astype(bool)),
    ("f32", "%v = arith.sitofp %x : i8 to f32", A8.astype(np.float32)),
    ("f16", "%v = arith.uitofp %x : i8 to f16", A8.view(np.uint8).astype(np.float16)),
    ("index", "%v = arith.index_cast %x : i8 to index", A8.astype(np.int64)),
    ("i8", "%c = arith.cmpi sgt, %x, %y : i8\n    %v = arith.select %c, %x, %y : i8", np.maximum(A8, B8)),
])
def test_arith_casts(t, body, expect):
    (r,) = go(ELEMWISE.format(t=t, outs=f"tensor<6x{t}>", body=body), [A8, B8])
    assert r.dtype == expect.dtype
    np.testing.assert_array_equal(r, expect)


FLOAT = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<5x{t}>, %b: tensor<5x{t}>) -> tensor<5x{u}> {{
  %e = tensor.empty() : tensor<5x{u}>
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%a, %b : tensor<5x{t}>, tensor<5x{t}>) outs(%e : tensor<5x{u}>) {{
  ^bb0(%x: {t}, %y: {t}, %o: {u}):
    {body}
    linalg.yield %v : {u}
  }} -> tensor<5x{u}>
  return %r : tensor<5x{u}>
}}"""

nan = float("nan")


@pytest.mark.parametrize("t,np_t", [("f32", np.float32), ("f16", np.float16), ("bf16", ml_dtypes.bfloat16)])
def test_arith_float_rounding(t, np_t):
    a = np.array([1.0, 2048.0, 1e30, -0.0, nan], dtype=np_t)
    b = np.array([3.0, 1.0, 1e30, 0.0, 1.0], dtype=np_t)
    for op, fn in [("addf", np.add), ("subf", np.subtract), ("mulf", np.multiply), ("divf", np.divide)]:
        (r,) = go(FLOAT.format(t=t, u=t, body=f"%v = arith.{op} %x, %y : {t}"), [a, b])
        with np.errstate(all="ignore"):
            want = fn(a.astype(np.float64), b.astype(np.float64)).astype(np_t)
        np.testing.assert_array_equal(r.view(np.uint8), want.view(np.uint8), err_msg=op)


def test_arith_float_minmax_cmp():
    a = np.array([1.0, -0.0, nan, 2.0, nan], np.float32)
    b = np.array([2.0, 0.0, 1.0, nan, nan], np.float32)
    cases = {
        "maximumf": [2.0, 0.0, nan, nan, nan],
        "minimumf": [1.0, -0.0, nan, nan, nan],
        "maxnumf": [2.0, 0.0, 1.0, 2.0, nan],
        "minnumf": [1.0, -0.0, 1.0, 2.0, nan],
    }
    for op, want in cases.items():
        (r,) = go(FLOAT.format(t="f32", u="f32", body=f"%v = arith.{op} %x, %y : f32"), [a, b])
        np.testing.assert_array_equal(r, np.array(want, np.float32))
        assert list(np.signbit(r[:2])) == list(np.signbit(np.array(want[:2], np.float32))), op
    for pred, want in [("olt", [1, 0, 0, 0, 0]), ("ult", [1, 0, 1, 1, 1]), ("one", [1, 0, 0, 0, 0]),
                       ("une", [1, 0, 1, 1, 1]), ("ueq", [0, 1, 1, 1, 1]), ("ord", [1, 1, 0, 0, 0]),
                       ("uno", [0, 0, 1, 1, 1]), ("oge", [0, 1, 0, 0, 0])]:
        (r,) = go(FLOAT.format(t="f32", u="i1", body=f"%v = arith.cmpf {pred}, %x, %y : f32"), [a, b])
        np.testing.assert_array_equal(r, np.array(want, bool), err_msg=pred)


def test_arith_float_casts():
    a = np.array([1.5, -2.7, 3e38, 65519.0, 1.0 + 2 ** -9], np.float32)
    b = np.zeros(5, np.float32)
    (r,) = go(FLOAT.format(t="f32", u="f16", body="%v = arith.truncf %x : f32 to f16"), [a, b])
    np.testing.assert_array_equal(r, a.astype(np.float16))
    (r,) = go(FLOAT.format(t="f32", u="bf16", body="%v = arith.truncf %x : f32 to bf16"), [a, b])
    np.testing.assert_array_equal(r.view(np.uint16), a.astype(ml_dtypes.bfloat16).view(np.uint16))
    (r,) = go(FLOAT.format(t="f32", u="i32", body="%v = arith.fptosi %x : f32 to i32"),
              [a[[0, 1, 3, 4, 0]], b])
    np.testing.assert_array_equal(r, np.array([1, -2, 65519, 1, 1], np.int32))
    (r,) = go(FLOAT.format(t="f32", u="i32", body="%v = arith.bitcast %x : f32 to i32"), [a, b])
    np.testing.assert_array_equal(r, a.view(np.int32))
    (r,) = go(FLOAT.format(t="f16", u="f32", body="%v = arith.extf %x : f16 to f32"),
              [a.astype(np.float16), b.astype(np.float16)])
    np.testing.assert_array_equal(r, a.astype(np.float16).astype(np.float32))


def test_conversions_to_bf16_round_once():
    """sitofp i32 -> bf16 and truncf f64 -> bf16 round once from the exact value; ml_dtypes'
    own conversions go through f32 and round twice. Expected values by hand:
    0x01010001 = 2**24 + 2**16 + 1 is above the midpoint 2**24 + 2**16 of its bf16 neighbours
    (spacing 2**17), so it rounds up to 2**24 + 2**17 (through f32 it first becomes the
    midpoint, then ties to even 2**24). Likewise 0x1.4affff501acefp-121 is below the midpoint
    0x1.4bp-121, so bf16 gives 0x1.4ap-121 (through f32: 0x1.4bp-121, then 0x1.4cp-121)."""
    a = np.array([0x01010001, -0x01010001, 3, 0, 1, 2], np.int32)
    (r,) = go(ELEMWISE_CAST.format(t="i32", u="bf16", body="%v = arith.sitofp %x : i32 to bf16"), [a])
    assert r.astype(np.float64).tolist()[:2] == [2 ** 24 + 2 ** 17, -(2 ** 24 + 2 ** 17)]
    x = np.array([float.fromhex("0x1.4affff501acefp-121")] * 6, np.float64)
    (r,) = go(ELEMWISE_CAST.format(t="f64", u="bf16", body="%v = arith.truncf %x : f64 to bf16"), [x])
    assert float(r[0]) == float.fromhex("0x1.4ap-121")


ELEMWISE_CAST = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<6x{t}>) -> tensor<6x{u}> {{
  %e = tensor.empty() : tensor<6x{u}>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}}
      ins(%a : tensor<6x{t}>) outs(%e : tensor<6x{u}>) {{
  ^bb0(%x: {t}, %o: {u}):
    {body}
    linalg.yield %v : {u}
  }} -> tensor<6x{u}>
  return %r : tensor<6x{u}>
}}
"""


@pytest.mark.parametrize("body,fn", [
    ("%v = math.exp %x : f32", np.exp), ("%v = math.log %x : f32", np.log),
    ("%v = math.sqrt %x : f32", np.sqrt), ("%v = math.rsqrt %x : f32", lambda x: 1 / np.sqrt(x)),
    ("%v = math.tanh %x : f32", np.tanh), ("%v = math.sin %x : f32", np.sin),
    ("%v = math.cos %x : f32", np.cos), ("%v = math.absf %x : f32", np.abs),
    ("%v = math.ceil %x : f32", np.ceil), ("%v = math.floor %x : f32", np.floor),
    ("%v = math.roundeven %x : f32", np.rint), ("%v = math.powf %x, %y : f32", np.power),
    ("%v = math.erf %x : f32", None), ("%v = math.fma %x, %y, %x : f32", lambda x, y: x * y + x),
])
def test_math(body, fn):
    import math

    a = np.array([0.5, 1.5, 2.5, 3.0, 10.25], np.float32)
    b = np.array([2.0, 0.5, -1.0, 3.0, 0.0], np.float32)
    (r,) = go(FLOAT.format(t="f32", u="f32", body=body), [a, b])
    if fn is None:
        want = np.array([math.erf(x) for x in a.astype(np.float64)], np.float32)
    else:
        want = (fn(a.astype(np.float64), b.astype(np.float64)) if "%y" in body
                else fn(a.astype(np.float64))).astype(np.float32)
    np.testing.assert_allclose(r, want, rtol=2e-7, atol=0)


def test_math_int():
    a = i8([0, 1, -1, 16, -128, 127])
    (r,) = go(ELEMWISE.format(t="i8", outs="tensor<6xi8>", body="%v = math.ctlz %x : i8"), [a, a])
    np.testing.assert_array_equal(r, i8([8, 7, 0, 3, 0, 1]))
    (r,) = go(ELEMWISE.format(t="i8", outs="tensor<6xi8>", body="%v = math.absi %x : i8"), [a, a])
    np.testing.assert_array_equal(r, i8([0, 1, 1, 16, -128, 127]))


# ---------------------------------------------------------------- linalg


def test_generic_broadcast_reduction_index_multi_output():
    """Row sums (reduction, f32 sequential), argmax with linalg.index, two outputs."""
    src = """
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @main(%a: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %z = arith.constant 0.0 : f32
  %m = arith.constant -3.40282347E+38 : f32
  %i0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3xf32>
  %e2 = tensor.empty() : tensor<3xi32>
  %s0 = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %mx0 = linalg.fill ins(%m : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %ix0 = linalg.fill ins(%i0 : i32) outs(%e2 : tensor<3xi32>) -> tensor<3xi32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<3x4xf32>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.addf %acc, %x : f32
    linalg.yield %v : f32
  } -> tensor<3xf32>
  // generic form: xDSL 0.74's custom linalg.generic parser takes no "-> (t1, t2)"
  %r:2 = "linalg.generic"(%a, %mx0, %ix0) <{indexing_maps = [#in, #out, #out],
      iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>],
      operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%x: f32, %best: f32, %bi: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %x, %best : f32
    %nb = arith.select %gt, %x, %best : f32
    %ni = arith.select %gt, %ji, %bi : i32
    linalg.yield %nb, %ni : f32, i32
  }) : (tensor<3x4xf32>, tensor<3xf32>, tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>)
  return %s, %r#1 : tensor<3xf32>, tensor<3xi32>
}"""
    a = np.array([[1e8, 1.0, -1e8, 1.0], [0.1, 0.2, 0.3, 0.4], [5, 9, 9, -1]], np.float32)
    s, idx = go(src, [a])
    want = np.zeros(3, np.float32)
    for j in range(4):  # sequential f32 accumulation, as the loops do
        want = (want + a[:, j]).astype(np.float32)
    np.testing.assert_array_equal(s, want)
    np.testing.assert_array_equal(idx, np.array([0, 3, 1], np.int32))


def test_generic_transposed_broadcast_maps_and_gather():
    src = """
#a = affine_map<(d0, d1) -> (d1, d0)>
#b = affine_map<(d0, d1) -> (d1)>
#c = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<3x2xi32>, %b: tensor<3xi32>, %t: tensor<5xi32>) -> tensor<2x3xi32> {
  %e = tensor.empty() : tensor<2x3xi32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<3x2xi32>, tensor<3xi32>) outs(%e : tensor<2x3xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %s = arith.addi %x, %y : i32
    %k = arith.index_cast %s : i32 to index
    %g = tensor.extract %t[%k] : tensor<5xi32>
    linalg.yield %g : i32
  } -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}"""
    a = np.array([[0, 1], [1, 2], [2, 0]], np.int32)
    b = np.array([0, 1, 2], np.int32)
    t = np.array([10, 11, 12, 13, 14], np.int32)
    (r,) = go(src, [a, b, t])
    np.testing.assert_array_equal(r, t[a.T + b[None, :]])


def test_matmul_batch_matmul_f32_sequential_and_i8():
    src = """
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %x: tensor<1x3x4xi8>, %y: tensor<1x4x2xi8>)
    -> (tensor<2x3x5xf32>, tensor<1x3x2xi32>, tensor<3x5xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%f : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %zi = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<1x3x2xi32>
  %fi = linalg.fill ins(%zi : i32) outs(%ei : tensor<1x3x2xi32>) -> tensor<1x3x2xi32>
  %m = linalg.batch_matmul ins(%x, %y : tensor<1x3x4xi8>, tensor<1x4x2xi8>) outs(%fi : tensor<1x3x2xi32>) -> tensor<1x3x2xi32>
  %a0 = tensor.extract_slice %a[0, 0, 0] [1, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> to tensor<3x4xf32>
  %b0 = tensor.extract_slice %b[0, 0, 0] [1, 4, 5] [1, 1, 1] : tensor<2x4x5xf32> to tensor<4x5xf32>
  %e2 = tensor.empty() : tensor<3x5xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %mm = linalg.matmul ins(%a0, %b0 : tensor<3x4xf32>, tensor<4x5xf32>) outs(%f2 : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r, %m, %mm : tensor<2x3x5xf32>, tensor<1x3x2xi32>, tensor<3x5xf32>
}"""
    a = RNG.standard_normal((2, 3, 4)).astype(np.float32) * 1000
    b = RNG.standard_normal((2, 4, 5)).astype(np.float32)
    x = RNG.integers(-128, 128, (1, 3, 4)).astype(np.int8)
    y = RNG.integers(-128, 128, (1, 4, 2)).astype(np.int8)
    r, m, mm = go(src, [a, b, x, y])
    want = np.zeros((2, 3, 5), np.float32)
    for k in range(4):
        want = (want + (a[:, :, k, None] * b[:, None, k, :]).astype(np.float32)).astype(np.float32)
    np.testing.assert_array_equal(r, want)
    np.testing.assert_array_equal(m, x.astype(np.int32) @ y.astype(np.int32))
    np.testing.assert_array_equal(mm, want[0])


def _conv_ref(x, w, stride, dil, zp_x=0, zp_w=0):
    """NHWC x FHWC, int64."""
    n, h, wd, c = x.shape
    f, kh, kw, _ = w.shape
    oh = (h - (kh - 1) * dil[0] - 1) // stride[0] + 1
    ow = (wd - (kw - 1) * dil[1] - 1) // stride[1] + 1
    out = np.zeros((n, oh, ow, f), np.int64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride[0]:i * stride[0] + (kh - 1) * dil[0] + 1:dil[0],
                      j * stride[1]:j * stride[1] + (kw - 1) * dil[1] + 1:dil[1], :].astype(np.int64) - zp_x
            out[:, i, j, :] = np.einsum("nhwc,fhwc->nf", patch, w.astype(np.int64) - zp_w)
    return out


def test_conv_2d_nhwc_fhwc_and_q():
    src = """
func.func @main(%x: tensor<1x6x7x3xi8>, %w: tensor<4x2x3x3xi8>) -> (tensor<1x2x3x4xi32>, tensor<1x2x3x4xi32>) {
  %zi = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x2x3x4xi32>
  %f = linalg.fill ins(%zi : i32) outs(%e : tensor<1x2x3x4xi32>) -> tensor<1x2x3x4xi32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x7x3xi8>, tensor<4x2x3x3xi8>) outs(%f : tensor<1x2x3x4xi32>) -> tensor<1x2x3x4xi32>
  %zx = arith.constant -3 : i32
  %zw = arith.constant 5 : i32
  %q = linalg.conv_2d_nhwc_fhwc_q {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w, %zx, %zw : tensor<1x6x7x3xi8>, tensor<4x2x3x3xi8>, i32, i32) outs(%f : tensor<1x2x3x4xi32>) -> tensor<1x2x3x4xi32>
  return %c, %q : tensor<1x2x3x4xi32>, tensor<1x2x3x4xi32>
}"""
    x = RNG.integers(-128, 128, (1, 6, 7, 3)).astype(np.int8)
    w = RNG.integers(-128, 128, (4, 2, 3, 3)).astype(np.int8)
    c, q = go(src, [x, w])
    np.testing.assert_array_equal(c, _conv_ref(x, w, (2, 1), (1, 2))[:, :2])
    np.testing.assert_array_equal(q, _conv_ref(x, w, (2, 1), (1, 2), -3, 5)[:, :2])


def test_depthwise_and_pooling():
    src = """
func.func @main(%x: tensor<1x5x5x2xf32>, %w: tensor<2x2x2x3xf32>, %k: tensor<2x2xf32>, %xi: tensor<1x5x5x2xi8>)
    -> (tensor<1x4x4x2x3xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x4x4x2xi32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x2x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x2x3xf32>) -> tensor<1x4x4x2x3xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x5x5x2xf32>, tensor<2x2x2x3xf32>) outs(%f : tensor<1x4x4x2x3xf32>) -> tensor<1x4x4x2x3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %pe = tensor.empty() : tensor<1x2x2x2xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %mx = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<1x5x5x2xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %sf = linalg.fill ins(%z : f32) outs(%pe : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %sm = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<1x5x5x2xf32>, tensor<2x2xf32>) outs(%sf : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %zi = arith.constant 0 : i32
  %ie = tensor.empty() : tensor<1x4x4x2xi32>
  %if = linalg.fill ins(%zi : i32) outs(%ie : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  %mu = linalg.pooling_nhwc_max_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xi, %k : tensor<1x5x5x2xi8>, tensor<2x2xf32>) outs(%if : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  return %d, %mx, %sm, %mu : tensor<1x4x4x2x3xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x4x4x2xi32>
}"""
    x = RNG.standard_normal((1, 5, 5, 2)).astype(np.float32)
    w = RNG.standard_normal((2, 2, 2, 3)).astype(np.float32)
    k = np.zeros((2, 2), np.float32)
    xi = RNG.integers(-128, 128, (1, 5, 5, 2)).astype(np.int8)
    d, mx, sm, mu = go(src, [x, w, k, xi])
    want = np.zeros((1, 4, 4, 2, 3), np.float32)
    for kh in range(2):
        for kw in range(2):
            prod = (x[:, kh:kh + 4, kw:kw + 4, :, None] * w[kh, kw]).astype(np.float32)
            want = (want + prod).astype(np.float32)
    np.testing.assert_array_equal(d, want)
    win = np.stack([x[:, i:i + 4:2, j:j + 4:2, :] for i in range(2) for j in range(2)])
    np.testing.assert_array_equal(mx, win.max(axis=0))
    ws = np.zeros((1, 2, 2, 2), np.float32)
    for s in win:
        ws = (ws + s).astype(np.float32)
    np.testing.assert_array_equal(sm, ws)
    xu = xi.view(np.uint8).astype(np.int32)
    wu = np.stack([xu[:, i:i + 4, j:j + 4, :] for i in range(2) for j in range(2)]).max(axis=0)
    np.testing.assert_array_equal(mu, wu)


def test_reduce_broadcast_transpose():
    src = """
func.func @main(%a: tensor<2x3x4xi32>) -> (tensor<2x4xi32>, tensor<4x2x3xi32>, tensor<2x5x4xi32>) {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<2x4xi32>) -> tensor<2x4xi32>
  %r = linalg.reduce ins(%a : tensor<2x3x4xi32>) outs(%f : tensor<2x4xi32>) dimensions = [1]
    (%x: i32, %acc: i32) {
      %s = arith.maxsi %x, %acc : i32
      linalg.yield %s : i32
    }
  %te = tensor.empty() : tensor<4x2x3xi32>
  %t = linalg.transpose ins(%a : tensor<2x3x4xi32>) outs(%te : tensor<4x2x3xi32>) permutation = [2, 0, 1]
  %be = tensor.empty() : tensor<2x5x4xi32>
  %b = linalg.broadcast ins(%r : tensor<2x4xi32>) outs(%be : tensor<2x5x4xi32>) dimensions = [1]
  return %r, %t, %b : tensor<2x4xi32>, tensor<4x2x3xi32>, tensor<2x5x4xi32>
}"""
    a = RNG.integers(-50, 50, (2, 3, 4)).astype(np.int32)
    r, t, b = go(src, [a])
    np.testing.assert_array_equal(r, np.maximum(a.max(axis=1), 0))
    np.testing.assert_array_equal(t, a.transpose(2, 0, 1))
    np.testing.assert_array_equal(b, np.broadcast_to(r[:, None, :], (2, 5, 4)))


# ---------------------------------------------------------------- tensor


def test_tensor_ops():
    src = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> (tensor<4x7xf32>, tensor<6xf32>, tensor<3x2x1xf32>,
    tensor<2x5xf32>, tensor<1x2xf32>, tensor<2x3xf32>, tensor<3xf32>, index) {
  %pv = arith.constant 1.5 : f32
  %p = tensor.pad %a low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f32
  } : tensor<2x3xf32> to tensor<4x7xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %x = tensor.expand_shape %c [[0, 1, 2]] output_shape [3, 2, 1] : tensor<6xf32> into tensor<3x2x1xf32>
  %cat = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %s = tensor.extract_slice %a[1, 0] [1, 2] [1, 2] : tensor<2x3xf32> to tensor<1x2xf32>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %v = tensor.extract %a[%i1, %i0] : tensor<2x3xf32>
  %ins = tensor.insert %v into %a[%i0, %i0] : tensor<2x3xf32>
  %r = tensor.extract_slice %a[0, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<3xf32>
  %is = tensor.insert_slice %s into %ins[0, 1] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<2x3xf32>
  %d = tensor.dim %p, %i1 : tensor<4x7xf32>
  return %p, %c, %x, %cat, %s, %is, %r, %d : tensor<4x7xf32>, tensor<6xf32>, tensor<3x2x1xf32>, tensor<2x5xf32>,
    tensor<1x2xf32>, tensor<2x3xf32>, tensor<3xf32>, index
}"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = -np.arange(4, dtype=np.float32).reshape(2, 2)
    p, c, x, cat, s, ins, r, d = go(src, [a, b])
    np.testing.assert_array_equal(p, np.pad(a, ((1, 1), (2, 2)), constant_values=1.5))
    np.testing.assert_array_equal(c, a.reshape(6))
    np.testing.assert_array_equal(x, a.reshape(3, 2, 1))
    np.testing.assert_array_equal(cat, np.concatenate([a, b], 1))
    np.testing.assert_array_equal(s, a[1:2, 0:3:2])
    want = a.copy()
    want[0, 0] = a[1, 0]
    want[0, 1:3] = a[1, 0:3:2]
    np.testing.assert_array_equal(ins, want)
    np.testing.assert_array_equal(r, a[0])
    assert int(d) == 7


# ---------------------------------------------------------------- scf, ml_program


def test_scf_for_if_while_on_tensors():
    src = """
func.func @main(%a: tensor<3xi32>) -> (tensor<3xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %a) -> (tensor<3xi32>) {
    %e = tensor.empty() : tensor<3xi32>
    %d = linalg.add ins(%t, %t : tensor<3xi32>, tensor<3xi32>) outs(%e : tensor<3xi32>) -> tensor<3xi32>
    scf.yield %d : tensor<3xi32>
  }
  %x = tensor.extract %r[%c0] : tensor<3xi32>
  %lim = arith.constant 100 : i32
  %w = scf.while (%v = %x) : (i32) -> i32 {
    %lt = arith.cmpi slt, %v, %lim : i32
    scf.condition(%lt) %v : i32
  } do {
  ^bb0(%v: i32):
    %c3 = arith.constant 3 : i32
    %n = arith.addi %v, %c3 : i32
    scf.yield %n : i32
  }
  %pos = arith.cmpi sgt, %w, %lim : i32
  %o = scf.if %pos -> (i32) {
    scf.yield %w : i32
  } else {
    scf.yield %lim : i32
  }
  return %r, %o : tensor<3xi32>, i32
}"""
    a = np.array([5, -1, 2], np.int32)
    r, o = go(src, [a])
    np.testing.assert_array_equal(r, a * 16)
    v = 80
    while v < 100:
        v += 3
    assert int(o) == v and o.dtype == np.int32


def test_generic_body_with_scf_if_falls_back_point_by_point():
    src = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%x: i32, %o: i32):
    %z = arith.constant 0 : i32
    %neg = arith.cmpi slt, %x, %z : i32
    %v = scf.if %neg -> (i32) {
      %n = arith.subi %z, %x : i32
      scf.yield %n : i32
    } else {
      scf.yield %x : i32
    }
    linalg.yield %v : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}"""
    a = np.array([-3, 4, 0, -7], np.int32)
    (r,) = go(src, [a])
    np.testing.assert_array_equal(r, np.abs(a))


def test_ml_program_globals_persist_in_a_session():
    src = """
ml_program.global private mutable @acc(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %old = ml_program.global_load @acc : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %n = linalg.add ins(%old, %x : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  ml_program.global_store @acc = %n : tensor<2xf32>
  return %old : tensor<2xf32>
}"""
    check_upstream(src)
    s = Session(parse(src))
    x = np.array([10.0, 20.0], np.float32)
    np.testing.assert_array_equal(s.call([x])[0], [1.0, 2.0])
    np.testing.assert_array_equal(s.call([x])[0], [11.0, 22.0])
