"""Unit tests of the tensor-chapter kernels (tosa_xdsl/interpreter/tensor_ops.py,
scatter_gather.py, image.py, table.py) against the spec's pseudocode.

Expected values come from the spec: hand-evaluated pseudocode for small cases, and a direct
loop transcription of each CONV* Operation Function (written here, independently of the
vectorized kernels) for random integer cases. The differential test against the reference
model is tests/differential/."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter import image
from tosa_xdsl.interpreter import scatter_gather as sg
from tosa_xdsl.interpreter import table as tb
from tosa_xdsl.interpreter import tensor_ops as T
from tosa_xdsl.numerics import TosaErrorIf, TosaUnpredictable

# ------------------------------------------------------------------ pseudocode transcriptions


def loop_conv2d(x, w, b, izp, wzp, pad, stride, dil):
    n_, ih, iw, ic = x.shape
    oc, kh, kw, _ = w.shape
    oh = (ih - 1 + pad[0] + pad[1] - (kh - 1) * dil[0]) // stride[0] + 1
    ow = (iw - 1 + pad[2] + pad[3] - (kw - 1) * dil[1]) // stride[1] + 1
    out = np.zeros((n_, oh, ow, oc), np.int64)
    for n, oy, ox, o in itertools.product(range(n_), range(oh), range(ow), range(oc)):
        acc = 0
        for ky, kx, c in itertools.product(range(kh), range(kw), range(ic)):
            y, xx = oy * stride[0] - pad[0] + ky * dil[0], ox * stride[1] - pad[2] + kx * dil[1]
            if 0 <= y < ih and 0 <= xx < iw:
                acc += (int(x[n, y, xx, c]) - izp) * (int(w[o, ky, kx, c]) - wzp)
        out[n, oy, ox, o] = acc + int(b[0 if b.size == 1 else o])
    return out


def loop_depthwise(x, w, b, izp, wzp, pad, stride, dil):
    n_, ih, iw, c_ = x.shape
    kh, kw, _, m_ = w.shape
    oh = (ih - 1 + pad[0] + pad[1] - (kh - 1) * dil[0]) // stride[0] + 1
    ow = (iw - 1 + pad[2] + pad[3] - (kw - 1) * dil[1]) // stride[1] + 1
    out = np.zeros((n_, oh, ow, c_ * m_), np.int64)
    for n, oy, ox, c, m in itertools.product(range(n_), range(oh), range(ow), range(c_), range(m_)):
        acc = 0
        for ky, kx in itertools.product(range(kh), range(kw)):
            y, xx = oy * stride[0] - pad[0] + ky * dil[0], ox * stride[1] - pad[2] + kx * dil[1]
            if 0 <= y < ih and 0 <= xx < iw:
                acc += (int(x[n, y, xx, c]) - izp) * (int(w[ky, kx, c, m]) - wzp)
        out[n, oy, ox, c * m_ + m] = acc + int(b[0 if b.size == 1 else c * m_ + m])
    return out


def loop_transpose(x, w, b, izp, wzp, out_pad, stride):
    n_, ih, iw, ic = x.shape
    oc, kh, kw, _ = w.shape
    oh = (ih - 1) * stride[0] + out_pad[0] + out_pad[1] + kh
    ow = (iw - 1) * stride[1] + out_pad[2] + out_pad[3] + kw
    out = np.zeros((n_, oh, ow, oc), np.int64)
    for n, oy, ox, o in itertools.product(range(n_), range(oh), range(ow), range(oc)):
        acc = 0
        for ky, kx, c in itertools.product(range(kh), range(kw), range(ic)):
            y, xx = oy - out_pad[0] - ky, ox - out_pad[2] - kx
            if (0 <= y < ih * stride[0] and 0 <= xx < iw * stride[1]
                    and y % stride[0] == 0 and xx % stride[1] == 0):
                acc += (int(x[n, y // stride[0], xx // stride[1], c]) - izp) * (int(w[o, ky, kx, c]) - wzp)
        out[n, oy, ox, o] = acc + int(b[0 if b.size == 1 else o])
    return out


def loop_conv3d(x, w, b, izp, wzp, pad, stride, dil):
    n_, id_, ih, iw, ic = x.shape
    oc, kd, kh, kw, _ = w.shape
    od = (id_ - 1 + pad[0] + pad[1] - (kd - 1) * dil[0]) // stride[0] + 1
    oh = (ih - 1 + pad[2] + pad[3] - (kh - 1) * dil[1]) // stride[1] + 1
    ow = (iw - 1 + pad[4] + pad[5] - (kw - 1) * dil[2]) // stride[2] + 1
    out = np.zeros((n_, od, oh, ow, oc), np.int64)
    for n, z, oy, ox, o in itertools.product(range(n_), range(od), range(oh), range(ow), range(oc)):
        acc = 0
        for kz, ky, kx, c in itertools.product(range(kd), range(kh), range(kw), range(ic)):
            d = z * stride[0] - pad[0] + kz * dil[0]
            y = oy * stride[1] - pad[2] + ky * dil[1]
            xx = ox * stride[2] - pad[4] + kx * dil[2]
            if 0 <= d < id_ and 0 <= y < ih and 0 <= xx < iw:
                acc += (int(x[n, d, y, xx, c]) - izp) * (int(w[o, kz, ky, kx, c]) - wzp)
        out[n, z, oy, ox, o] = acc + int(b[0 if b.size == 1 else o])
    return out


def _geometry(rng, nd):
    while True:
        k = rng.integers(1, 4, nd)
        s = rng.integers(1, 3, nd)
        d = rng.integers(1, 3, nd)
        p = rng.integers(0, 3, 2 * nd)
        o = rng.integers(1, 4, nd)
        i = (o - 1) * s + (k - 1) * d + 1 - p[0::2] - p[1::2]
        if i.min() >= 1:
            return [int(v) for v in k], [int(v) for v in s], [int(v) for v in d], [int(v) for v in p], [int(v) for v in i]


I8 = dict(in_t="i8", w_t="i8", out_t="i32", acc_t="i32")


@pytest.mark.parametrize("seed", range(6))
def test_conv2d_int8_matches_pseudocode(seed):
    rng = np.random.default_rng(seed)
    k, s, d, p, i = _geometry(rng, 2)
    ic, oc = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    x = rng.integers(-128, 128, (2, *i, ic)).astype(np.int8)
    w = rng.integers(-128, 128, (oc, *k, ic)).astype(np.int8)
    b = rng.integers(-1000, 1000, (oc,)).astype(np.int32)
    izp, wzp = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    got = T.conv(x, w, b, np.int8([izp]), np.int8([wzp]), p, s, d, **I8)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, loop_conv2d(x, w, b, izp, wzp, p, s, d))


@pytest.mark.parametrize("seed", range(4))
def test_conv3d_int16x8_i48_matches_pseudocode(seed):
    rng = np.random.default_rng(100 + seed)
    k, s, d, p, i = _geometry(rng, 3)
    ic, oc = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    x = rng.integers(-32768, 32768, (1, *i, ic)).astype(np.int16)
    w = rng.integers(-128, 128, (oc, *k, ic)).astype(np.int8)
    b = rng.integers(-(1 << 40), 1 << 40, (1,)).astype(np.int64)
    got = T.conv(x, w, b, np.int16([0]), np.int8([0]), p, s, d, in_t="i16", w_t="i8",
                 out_t="i48", acc_t="i48")
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, loop_conv3d(x, w, b, 0, 0, p, s, d))


@pytest.mark.parametrize("seed", range(6))
def test_depthwise_int8_and_int4_match_pseudocode(seed):
    rng = np.random.default_rng(200 + seed)
    k, s, d, p, i = _geometry(rng, 2)
    c, m = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    x = rng.integers(-128, 128, (1, *i, c)).astype(np.int8)
    int4 = seed % 2 == 1
    w = (rng.integers(-7, 8, (*k, c, m)) if int4 else rng.integers(-128, 128, (*k, c, m))).astype(np.int8)
    b = rng.integers(-1000, 1000, (c * m,)).astype(np.int32)
    izp, wzp = int(rng.integers(-128, 128)), 0 if int4 else int(rng.integers(-128, 128))
    got = T.depthwise_conv2d(x, w, b, np.int8([izp]), np.int8([wzp]), p, s, d, in_t="i8",
                             w_t="i4" if int4 else "i8", out_t="i32", acc_t="i32")
    np.testing.assert_array_equal(got, loop_depthwise(x, w, b, izp, wzp, p, s, d))


@pytest.mark.parametrize("seed", range(6))
def test_transpose_conv2d_int8_matches_pseudocode(seed):
    rng = np.random.default_rng(300 + seed)
    kh, kw = (int(v) for v in rng.integers(1, 4, 2))
    s = [int(v) for v in rng.integers(1, 4, 2)]
    op = [int(rng.integers(-kh + 1, 3)), int(rng.integers(-kh + 1, 3)),
          int(rng.integers(-kw + 1, 3)), int(rng.integers(-kw + 1, 3))]
    ih, iw = (int(v) for v in rng.integers(1, 4, 2))
    if (ih - 1) * s[0] + op[0] + op[1] + kh < 1 or (iw - 1) * s[1] + op[2] + op[3] + kw < 1:
        op = [0, 0, 0, 0]
    ic, oc = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    x = rng.integers(-128, 128, (1, ih, iw, ic)).astype(np.int8)
    w = rng.integers(-128, 128, (oc, kh, kw, ic)).astype(np.int8)
    b = rng.integers(-1000, 1000, (1,)).astype(np.int32)
    izp, wzp = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    got = T.transpose_conv2d(x, w, b, np.int8([izp]), np.int8([wzp]), op, s, **I8)
    np.testing.assert_array_equal(got, loop_transpose(x, w, b, izp, wzp, op, s))


def test_conv_partial_sum_overflow_is_unpredictable():
    # final sum 0, but the first half of the dot product (order ky, kx, ic) exceeds INT32_MAX
    half = 133_200  # 133200 * 127 * 127 > 2**31
    x = np.full((1, 1, 1, 2 * half), 127, np.int8)
    w = np.concatenate([np.full(half, 127), np.full(half, -127)]).astype(np.int8).reshape(1, 1, 1, -1)
    args = (np.int32([0]), np.int8([0]), np.int8([0]), [0, 0, 0, 0], [1, 1], [1, 1])
    with pytest.raises(TosaUnpredictable):
        T.conv(x, w, *args, **I8)
    # reversed order of magnitudes stays in range at every step: valid
    w2 = np.tile(np.int8([127, -127]), half).reshape(1, 1, 1, -1)
    assert T.conv(x, w2, *args, **I8).item() == 0


def test_conv_bias_add_overflow_is_unpredictable():
    x = np.full((1, 1, 1, 1), 2, np.int8)
    w = np.full((1, 1, 1, 1), 1, np.int8)
    with pytest.raises(TosaUnpredictable):
        T.conv(x, w, np.int32([2**31 - 2]), np.int8([0]), np.int8([0]), [0] * 4, [1, 1], [1, 1], **I8)


@pytest.mark.parametrize("kwargs, text", [
    (dict(stride=[0, 1]), "stride"), (dict(dilation=[1, 0]), "dilation"),
    (dict(pad=[-1, 0, 0, 0]), "pad"), (dict(stride=[3, 1]), "idiv_check"),
])
def test_conv2d_error_if(kwargs, text):
    x = np.zeros((1, 4, 4, 1), np.int8)
    w = np.zeros((1, 2, 2, 1), np.int8)
    a = dict(pad=[0, 0, 0, 0], stride=[1, 1], dilation=[1, 1]) | kwargs
    with pytest.raises(TosaErrorIf):
        T.conv(x, w, np.int32([0]), np.int8([0]), np.int8([0]), a["pad"], a["stride"], a["dilation"], **I8)


def test_zero_point_only_for_int8():
    x = np.zeros((1, 2, 2, 1), np.int16)
    w = np.zeros((1, 1, 1, 1), np.int8)
    with pytest.raises(TosaErrorIf):
        T.conv(x, w, np.int64([0]), np.int16([1]), np.int8([0]), [0] * 4, [1, 1], [1, 1],
               in_t="i16", w_t="i8", out_t="i48", acc_t="i48")
    with pytest.raises(TosaErrorIf):  # i4 weights: weight_zp must be 0
        T.conv(np.zeros((1, 2, 2, 1), np.int8), w, np.int32([0]), np.int8([0]), np.int8([1]),
               [0] * 4, [1, 1], [1, 1], in_t="i8", w_t="i4", out_t="i32", acc_t="i32")
    with pytest.raises(TosaErrorIf):
        T.matmul(np.zeros((1, 1, 1), np.int16), np.zeros((1, 1, 1), np.int16), np.int16([0]),
                 np.int16([3]), in_t="i16", out_t="i48")
    # i8 zero points are allowed (the pseudocode's `is_same` lacks its `!`): 2-(-1) * 3-1
    got = T.matmul(np.int8([[[2]]]), np.int8([[[3]]]), np.int8([-1]), np.int8([1]), in_t="i8", out_t="i32")
    assert got.item() == 6


def test_conv_float_padding_skips_multiplies_by_inf_weights():
    # tosa_extra_multiplies = false: the padded position never meets the Inf weight
    x = np.float32([[[[1.0]]]])
    w = np.float32([np.inf, 2.0]).reshape(1, 2, 1, 1)  # KH=2
    got = T.conv(x, w, np.float32([0.0]), np.float32([0]), np.float32([0]), [1, 0, 0, 0], [1, 1],
                 [1, 1], in_t="fp32", w_t="fp32", out_t="fp32", acc_t="fp32")
    assert got.item() == 2.0


def test_matmul_fp16_rounds_once_to_fp16():
    a = np.float16([[[1.0, 2.0**-11, 2.0**-11]]])  # 1 + 2**-10 exactly: one fp16 ulp above 1
    b = np.float16([[[1.0], [1.0], [1.0]]])
    got = T.matmul(a, b, np.float16([0]), np.float16([0]), in_t="fp16", out_t="fp16")
    assert got.dtype == np.float16 and got.item() == 1.0 + 2.0**-10


# ------------------------------------------------------------------ pooling / argmax


def test_avg_pool2d_int_rounding_follows_apply_scale_32():
    # 2x2 windows with sum 14 and -14: reciprocal_scale(4) = (2**30 + 1, 32);
    # (14 * (2**30 + 1) + 2**31) >> 32 = 4 and (-14 * (2**30 + 1) + 2**31) >> 32 = -4
    x = np.int8([[[[3], [4]], [[3], [4]]], [[[-3], [-4]], [[-3], [-4]]]])
    got = T.avg_pool2d(x, np.int8([0]), np.int8([0]), [2, 2], [1, 1], [0, 0, 0, 0], in_t="i8", acc_t="i32")
    assert got.ravel().tolist() == [4, -4]


def test_avg_pool2d_counts_only_valid_positions_and_zero_points():
    # 3x3 kernel, pad 1: corner windows see 4 values, edges 6, centre 9; x - zp = 9 everywhere
    x = np.full((1, 3, 3, 1), 5, np.int8)
    got = T.avg_pool2d(x, np.int8([-4]), np.int8([7]), [3, 3], [1, 1], [1, 1, 1, 1], in_t="i8", acc_t="i32")
    assert (got == 9 + 7).all()
    sat = T.avg_pool2d(np.full((1, 1, 1, 1), 127, np.int8), np.int8([-128]), np.int8([100]), [1, 1],
                       [1, 1], [0] * 4, in_t="i8", acc_t="i32")
    assert sat.item() == 127  # clipped to maximum_s<i8>


def test_avg_pool2d_error_if():
    with pytest.raises(TosaErrorIf):  # pad >= kernel
        T.avg_pool2d(np.zeros((1, 2, 2, 1), np.int8), np.int8([0]), np.int8([0]), [2, 2], [1, 1],
                     [2, 0, 0, 0], in_t="i8", acc_t="i32")
    with pytest.raises(TosaErrorIf):  # output_zp for non-int8
        T.avg_pool2d(np.zeros((1, 2, 2, 1), np.int16), np.int16([0]), np.int16([1]), [2, 2], [1, 1],
                     [0] * 4, in_t="i16", acc_t="i32")


def test_max_pool2d_nan_modes():
    nan = np.nan
    x = np.float32([nan, 1.0, nan, nan]).reshape(1, 1, 4, 1)
    prop = T.max_pool2d(x, [1, 2], [1, 2], [0] * 4, in_t="fp32", nan_mode="PROPAGATE")
    ign = T.max_pool2d(x, [1, 2], [1, 2], [0] * 4, in_t="fp32", nan_mode="IGNORE")
    assert np.isnan(prop.ravel()).tolist() == [True, True]
    assert ign.ravel()[0] == 1.0 and np.isnan(ign.ravel()[1])
    # padding never wins, even against -inf
    y = T.max_pool2d(np.float32([-np.inf]).reshape(1, 1, 1, 1), [1, 2], [1, 1], [0, 0, 1, 0], in_t="fp32")
    assert y.item() == -np.inf


@pytest.mark.parametrize("values, mode, want", [
    ([1.0, np.nan, 3.0, np.nan], "PROPAGATE", 1), ([1.0, np.nan, 3.0, np.nan], "IGNORE", 2),
    ([np.nan, np.nan], "IGNORE", 0), ([np.nan, -np.inf], "IGNORE", 1),
    ([-0.0, 0.0], "PROPAGATE", 0), ([0.0, -0.0, 0.0], "IGNORE", 0),
    ([2.0, np.inf, np.inf], "PROPAGATE", 1),
])
def test_argmax_float_rules(values, mode, want):
    assert T.argmax(np.float32(values), 0, in_t="fp32", nan_mode=mode).item() == want


def test_argmax_int_first_match_and_axis():
    x = np.int8([[1, 7, 7], [-128, -128, -5]])
    assert T.argmax(x, 1, in_t="i8").tolist() == [1, 2]
    assert T.argmax(x, 0, in_t="i8").tolist() == [0, 0, 0]
    with pytest.raises(TosaErrorIf):
        T.argmax(x, 2, in_t="i8")


# ------------------------------------------------------------------ FFT


def test_fft2d_of_a_delta_is_all_ones_and_inverse_is_unnormalized():
    re = np.zeros((1, 4, 8), np.float32)
    re[0, 0, 0] = 1.0
    r, i = T.fft2d(re, np.zeros_like(re), False)
    assert (r == 1.0).all() and (i == 0.0).all()
    # shifted delta at (0, 1): output = exp(-2 pi i ox / 8)
    re2 = np.zeros((1, 1, 8), np.float32)
    re2[0, 0, 1] = 1.0
    r2, i2 = T.fft2d(re2, np.zeros_like(re2), False)
    assert r2[0, 0, 2] == 0.0 and i2[0, 0, 2] == -1.0  # exp(-i pi/2) exactly
    r3, i3 = T.fft2d(re2, np.zeros_like(re2), True)
    assert i3[0, 0, 2] == 1.0
    with pytest.raises(TosaErrorIf):
        T.fft2d(np.zeros((1, 3, 4), np.float32), np.zeros((1, 3, 4), np.float32), False)


def test_rfft2d_skipped_imaginary_parts_are_plus_zero():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 4, 8)).astype(np.float32)
    r, i = T.rfft2d(x)
    assert r.shape == (2, 4, 5)
    for oy in (0, 2):
        for ox in (0, 4):
            assert i[0, oy, ox] == 0.0 and not np.signbit(i[0, oy, ox])
    want = np.fft.rfft2(x.astype(np.float64))
    np.testing.assert_allclose(r, want.real, rtol=0, atol=1e-5)
    np.testing.assert_allclose(i, want.imag, rtol=0, atol=1e-5)


# ------------------------------------------------------------------ gather / scatter / table / resize


def test_gather_and_scatter():
    v = np.arange(12, dtype=np.int16).reshape(2, 3, 2)
    idx = np.int32([[2, 0], [1, 1]])
    assert sg.gather(v, idx).tolist() == [[[4, 5], [0, 1]], [[8, 9], [8, 9]]]
    out = sg.scatter(v, np.int32([[2], [0]]), np.int16([[[-1, -2]], [[-3, -4]]]))
    assert out.tolist() == [[[0, 1], [2, 3], [-1, -2]], [[-3, -4], [8, 9], [10, 11]]]
    assert v[0, 2, 0] == 4  # input untouched
    with pytest.raises(TosaUnpredictable):
        sg.gather(v, np.int32([[3, 0], [0, 0]]))
    with pytest.raises(TosaUnpredictable):
        sg.gather(v, np.int32([[-1, 0], [0, 0]]))
    with pytest.raises(TosaUnpredictable):  # position written twice
        sg.scatter(v, np.int32([[1, 1], [0, 2]]), np.zeros((2, 2, 2), np.int16))


def test_table_int8_and_int16_interpolation():
    t8 = np.arange(-128, 128, dtype=np.int64)[::-1].astype(np.int8)  # table[i] = 127 - i
    assert tb.table(np.int8([-128, 0, 127]), t8, in_t="i8").tolist() == [127, -1, -128]
    t16 = (np.arange(513) * 10).astype(np.int16)
    # value -32768 + 3*128 + 5: index 3, fraction 5 -> (30 << 7) + 10 * 5
    got = tb.table(np.int16([-32768 + 3 * 128 + 5, 32767, -32768]), t16, in_t="i16")
    assert got.dtype == np.int32
    assert got.tolist() == [3890, (5110 << 7) + 10 * 127, 0]
    bad = np.zeros(513, np.int16)
    bad[1] = 32767
    bad[2] = -32768  # slope -65535 does not fit int16
    with pytest.raises(TosaUnpredictable):
        tb.table(np.int16([-32768 + 128 + 1]), bad, in_t="i16")
    with pytest.raises(TosaUnpredictable):
        tb.table(np.int8([0]), np.zeros(255, np.int8), in_t="i8")


def test_resize_integer_bilinear_and_nearest():
    # 2x upscale, scale 2/1: y = oy, iy = oy // 2, dy = oy % 2 (units of 1/2)
    x = np.int8([[10, 20], [30, 40]]).reshape(1, 2, 2, 1)
    bil = image.resize(x, (2, 1, 2, 1), (0, 0), (0, 0), "BILINEAR", in_t="i8", out_t="i32")
    assert bil.dtype == np.int32
    # (0,1): v00*(2-0)*(2-1) + v01*(2-0)*1 = 10*2 + 20*2 = 60; (1,1): (10+20+30+40) * 1 = 100
    assert bil[0, :, :, 0].tolist() == [[40, 60, 80], [80, 100, 120], [120, 140, 160]]
    near = image.resize(x, (2, 1, 2, 1), (0, 0), (0, 0), "NEAREST_NEIGHBOR", in_t="i8", out_t="i8")
    assert near[0, :, :, 0].tolist() == [[10, 20, 20], [30, 40, 40], [30, 40, 40]]
    with pytest.raises(TosaErrorIf):
        image.resize(x, (2, 1, 2, 0), (0, 0), (0, 0), "BILINEAR", in_t="i8", out_t="i32")
    with pytest.raises(TosaErrorIf):  # downscale beyond 1/16
        image.resize(x, (1, 16, 1, 1), (0, 0), (0, 0), "BILINEAR", in_t="i8", out_t="i32")


# ------------------------------------------------------------------ through the interpreter


def test_conv2d_through_the_runner():
    from tosa_xdsl.interpreter import run

    mlir = """
    func.func @main(%x: tensor<1x3x3x1xi8>, %w: tensor<1x2x2x1xi8>, %b: tensor<1xi32>) -> tensor<1x2x2x1xi32> {
      %izp = "tosa.const"() {values = dense<1> : tensor<1xi8>} : () -> tensor<1xi8>
      %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
      %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xi8>, tensor<1x2x2x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x1xi32>
      return %0 : tensor<1x2x2x1xi32>
    }"""
    module = Parser(make_context(), mlir).parse_module()
    x = np.arange(1, 10, dtype=np.int8).reshape(1, 3, 3, 1)
    w = np.int8([1, 0, 0, 1]).reshape(1, 2, 2, 1)
    (out,) = run(module, [x, w, np.int32([100])])
    # (x[y,x] - 1) + (x[y+1,x+1] - 1) + 100
    assert out[0, :, :, 0].tolist() == [[104, 106], [110, 112]]
