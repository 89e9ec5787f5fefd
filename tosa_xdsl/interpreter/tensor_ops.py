"""Spec 2.3 Tensor Operators, vectorized: ARGMAX, AVG_POOL2D, CONV2D, CONV3D,
DEPTHWISE_CONV2D, FFT2D, MATMUL, MAX_POOL2D, RFFT2D, TRANSPOSE_CONV2D.

Each operator is a pure numpy function (`conv2d`, `matmul`, ...) that runs the spec's
Operation Function on arrays in the storage dtypes of `values.py`, including its ERROR_IF and
REQUIRE checks; the `TensorFunctions` class at the bottom reads the op's types and
properties and calls it.

How the arithmetic is done
--------------------------
* Windows are taken with `sliding_window_view` on a padded copy of the input (im2col as a
  view), dot products with one `np.einsum` over the patches: no Python loop per element.
* Integer dot products (CONV*, MATMUL, AVG_POOL2D sums) are computed exactly in int64 after
  the zero points are subtracted (static_cast<acc_t> = sign extension). The spec's
  `apply_add_s<acc_t>` REQUIREs every partial sum, in the order of the pseudocode loops, to be
  in range of acc_t (i32 or i48). That is checked exactly: a cheap bound
  (sum of |products| within range => no partial sum overflows) and, only when the bound is
  exceeded, the prefix sums in the spec's order (ky, kx, ic / c).
  The products themselves never need wrapping: |(x - x_zp) * (w - w_zp)| <= 255 * 255 for
  i8 and 2**15 * 2**7 for i16 x i8, so apply_mul_s<acc_t> is exact.
  Then `out = apply_add_s<out_t>(acc, bias)` (REQUIRE in range).
* Floating-point dot products are computed in fp64 (every product of two <= fp32 values is
  exact in fp64; the sums round at 2**-53 relative) and rounded once to acc_t, then
  static_cast to out_t (round to nearest even), then the bias is added in out_t with
  `numerics.apply_add_s` (one correctly rounded addition). The spec's accuracy rule for dot
  products (1.10.3, ABS_BOUND = 2 * ksb units of 2**(-1-normal_frac(out_t)) times the
  magnitude bound) is met with a wide margin: the error is at most the final roundings.
  In particular fp16 accumulation (acc_type f16) is *not* emulated step by step: the
  accumulation is more precise than the spec's, which 1.10.3 permits. Where the
  intermediate fp16 sum would overflow, the dot-product check has no accuracy limit.
  Multiplies in the padding area are skipped (tosa_extra_multiplies = false, as the fp64
  reference): patches hold 0 there, and when a weight is Inf/NaN the padded products are
  masked out explicitly.
* AVG_POOL2D floats: fp64 sum / count, rounded to acc_t, then to in_out_t. Integers follow
  the pseudocode exactly: reciprocal_scale(count), apply_scale_32, + output_zp, clip.
* FFT2D / RFFT2D (fp32 only): separable DFT in complex128 with exact twiddle factors
  (exp(-2 pi i k / N) for k = (iy * oy) mod H; quarter turns are exact 0/+-1), rounded once
  to fp32. The fp64 error (about log2(H*W) * 2**-53 relative to sum |in|) is far below the
  fp32 dot-product bound. RFFT2D's skipped imaginary terms come out exactly +0.0.
  Non-finite inputs: their terms are formed as the pseudocode forms them (angle in fp32, real
  and imaginary parts summed separately, RFFT2D's skipped terms skipped), which decides where
  NaN and infinity land (`_dft`); the lowering computes every term that way.
* ARGMAX / MAX_POOL2D follow apply_max_s with nan_mode: PROPAGATE (NaN is the largest,
  first NaN wins for ARGMAX), IGNORE (NaN the smallest; all-NaN windows give NaN / index 0).

LEVEL_CHECKs are not evaluated here (they belong to validation against a level).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops import tensor as T
from tosa_xdsl.interpreter.common import prop, tname
from tosa_xdsl.interpreter.errors import check_tensor_size
from tosa_xdsl.interpreter.values import dtype_of
from tosa_xdsl.ir.access import element_type, shape_of

# --------------------------------------------------------------------------------------
# shared helpers
# --------------------------------------------------------------------------------------


def _is_fp(t: str) -> bool:
    return nx.is_floating_point(t)


def _scalar(zp) -> np.ndarray:
    """Entry 0 of a [1] zero-point tensor (the spec reads zp as a scalar)."""
    return np.asarray(zp).reshape(-1)[:1]


def _zp_value(zp, t: str):
    """static_cast<acc_t>(zp): int64 value (sign-extended) or float64."""
    z = _scalar(zp)
    if _is_fp(t):
        return z.astype(np.float64)[0] if z.size else 0.0
    return int(_extend(z, t)[0]) if z.size else 0


def _check_zp(zp, t: str, name: str) -> None:
    """ERROR_IF(!is_same<t, i8_t>() && zp != 0) (zero points only for int8)."""
    if t != "i8":
        with np.errstate(invalid="ignore"):
            nx.error_if(_zp_value(zp, t) != 0, f"{name} != 0 for {t}")


def _values(x, t: str) -> np.ndarray:
    """static_cast<acc_t>(x): int64 (sign-extended) or float64, exactly."""
    if _is_fp(t):
        return np.asarray(x).astype(np.float64)
    return _extend(x, t)


def _extend(x, t: str) -> np.ndarray:
    """sign_extend, or zero_extend for an unsigned type (upstream's rows: the unsigned values)."""
    return (nx.zero_extend if t.startswith("ui") else nx.sign_extend)(x, t)


def _check_out_shape(declared: Sequence[int] | None, computed: Sequence[int], text: str) -> None:
    if declared is None:
        return
    nx.error_if(len(declared) != len(computed)
                or any(d >= 0 and d != c for d, c in zip(declared, computed)), text)


def _conv_out_size(i: int, lo: int, hi: int, k: int, d: int, s: int, what: str) -> int:
    """idiv_check(I - 1 + pad_lo + pad_hi - (K - 1) * dilation, stride) + 1."""
    return int(nx.idiv_check(shapes.conv_numerator(i, k, lo, hi, d), s)) + 1


def _patches(xp: np.ndarray, valid: np.ndarray, kernel, stride, dilation):
    """Windows of an already padded [N, *S, C] array.

    Returns (patches [N, *O, *K, C] view, valid [*O, *K] view): output position o and kernel
    offset k read xp[n, o * stride + k * dilation, c]."""
    nd = len(kernel)
    win = tuple((k - 1) * d + 1 for k, d in zip(kernel, dilation))
    v = sliding_window_view(xp, win, axis=tuple(range(1, nd + 1)))  # [N, *O', C, *win]
    v = v[(slice(None),) + tuple(slice(None, None, s) for s in stride) + (slice(None),)
          + tuple(slice(None, None, d) for d in dilation)]
    perm = (0,) + tuple(range(1, nd + 1)) + tuple(range(nd + 2, 2 * nd + 2)) + (nd + 1,)
    v = v.transpose(perm)
    m = sliding_window_view(valid, win)
    m = m[tuple(slice(None, None, s) for s in stride) + tuple(slice(None, None, d) for d in dilation)]
    return v, m


def _pad_spatial(x: np.ndarray, pads: Sequence[tuple[int, int]], fill) -> tuple[np.ndarray, np.ndarray]:
    """Pad the spatial axes (1..nd) of [N, *S, C]; return (padded, validity mask [*S'])."""
    nd = len(pads)
    check_tensor_size([x.shape[0], *(d + a + b for d, (a, b) in zip(x.shape[1:1 + nd], pads)), x.shape[-1]],
                      "the padded input")
    xp = np.pad(x, ((0, 0), *pads, (0, 0)), constant_values=fill)
    valid = np.pad(np.ones(x.shape[1:1 + nd], bool), pads, constant_values=False)
    return xp, valid


def _dot(X: np.ndarray, W: np.ndarray, mask: np.ndarray | Callable[[], np.ndarray] | None, acc_t: str,
         fp: bool, wrap: bool = False) -> np.ndarray:
    """acc[p, g, o] = sum_k X[p, k, g] * W[k, g, o] over valid (p, k), as the spec's
    accumulation loop in acc_t (wrap: upstream's rows beyond the spec, summed modulo 2^acc
    width as its linalg named ops do, no REQUIRE; int64 wraps modulo 2^64, which keeps that).

    X, W hold static_cast<acc_t>(value) - zp (int64 or float64); X is 0 where mask is False.
    Returns int64 values within acc_t (integers) or acc_t storage (floats)."""
    K = X.shape[1]
    if fp:
        # The mask only matters when a weight is Inf/NaN (0 * Inf); `mask` may be a callable
        # building it, so the common case never materializes it.
        need_mask = mask is not None and not np.isfinite(W).all()
        if need_mask:
            if callable(mask):
                mask = mask()
            need_mask = not mask.all()
        with np.errstate(all="ignore"):
            if need_mask:
                acc = np.zeros((X.shape[0], X.shape[2], W.shape[2]), np.float64)
                for k in range(K):  # loop over kernel taps only, vectorized over outputs
                    term = X[:, k, :, None] * W[k][None]
                    acc = acc + np.where(mask[:, k, None, None], term, 0.0)
            else:
                # One contraction with a batch index: numpy runs it as a single c_einsum
                # loop whatever `optimize` says; the products (exact in fp64) are added
                # in k order. optimize=False skips the path search.
                acc = np.einsum("pkg,kgo->pgo", X, W, optimize=False)
        return nx.round_to_nearest_float(acc, acc_t)
    if wrap:
        return nx.sign_extend(np.einsum("pkg,kgo->pgo", X.astype(np.int64), W.astype(np.int64)), acc_t)
    lo, hi = nx.minimum_s(acc_t), nx.maximum_s(acc_t)
    acc = np.einsum("pkg,kgo->pgo", X, W)
    if acc.size and np.einsum("pkg,kgo->pgo", np.abs(X), np.abs(W)).max() > hi:
        # some partial sum may leave acc_t: check every prefix in the spec's order
        text = f"apply_add_s<{acc_t}>: accumulator overflow"
        if X.shape[0] * K * X.shape[2] * W.shape[2] <= 1 << 24:
            prefix = np.cumsum(X[:, :, :, None] * W[None], axis=1)
            nx.require((prefix >= lo) & (prefix <= hi), text)
        else:  # too big to materialize: walk the kernel taps (still vectorized over outputs)
            run = np.zeros_like(acc)
            for k in range(K):
                run = run + X[:, k, :, None] * W[k][None]
                nx.require((run >= lo) & (run <= hi), text)
        acc = nx.sign_extend(acc, acc_t)  # only differs when REQUIRE is lenient
    return acc


# the spec's integer convolution rows (in_t, weight_t, acc_t): their accumulator must not
# overflow (REQUIRE); upstream's other rows (i1/i4/i32/i48/i64/unsigned inputs -> i32) wrap
_CONV_INT_ROWS = frozenset({("i8", "i8", "i32"), ("i8", "i4", "i32"), ("i16", "i8", "i48")})


def _wraps(in_t: str, w_t: str, acc_t: str) -> bool:
    return not _is_fp(in_t) and (in_t, w_t, acc_t) not in _CONV_INT_ROWS


def _finish(acc: np.ndarray, bias, bias_index: np.ndarray, acc_t: str, out_t: str,
            wrap: bool = False) -> np.ndarray:
    """out = static_cast<out_t>(acc); out = apply_add_s<out_t>(out, bias[BC == 1 ? 0 : i])
    (wrap: the bias added modulo 2^width, as upstream's arith.addi)."""
    bias = np.asarray(bias).reshape(-1)
    if bias.size == bias_index.size and bias.size != 1:
        b = bias  # bias_index is arange(OC)
    else:
        b = bias[np.where(bias.size == 1, 0, bias_index)]
    if _is_fp(out_t):
        # acc is already in acc_t storage; rounding it to the same format is the identity
        same = acc_t == out_t and acc.dtype == nx.storage_dtype(out_t)
        out = acc if same else nx.round_to_nearest_float(acc, out_t)
        return nx.apply_add_s(out, b, out_t)
    out = nx.static_cast(acc, acc_t, out_t) if acc_t != out_t else acc
    if wrap:
        return nx.truncate(np.asarray(out, np.int64) + np.asarray(b, np.int64), out_t)
    return nx.apply_add_s(out, b, out_t)


def _conv_checks(x, w_zp, x_zp, in_t, w_t, pad, stride, dilation, bias, oc):
    _check_zp(x_zp, in_t, "input_zp")
    _check_zp(w_zp, w_t, "weight_zp")
    nx.error_if(min(pad) < 0, "pad < 0")
    nx.error_if(min(stride) < 1, "stride < 1")
    nx.error_if(min(dilation) < 1, "dilation < 1")
    bc = np.asarray(bias).size
    nx.error_if(bc != oc and bc != 1, "BC != OC && BC != 1")


# --------------------------------------------------------------------------------------
# 2.3.3 CONV2D / 2.3.4 CONV3D / 2.3.5 DEPTHWISE_CONV2D / 2.3.10 TRANSPOSE_CONV2D
# --------------------------------------------------------------------------------------


def conv(x, w, bias, input_zp, weight_zp, pad, stride, dilation, *, in_t: str, w_t: str,
         out_t: str, acc_t: str, out_shape: Sequence[int] | None = None) -> np.ndarray:
    """CONV2D (x [N,IH,IW,IC], w [OC,KH,KW,IC], pad [4]) or CONV3D (x [N,ID,IH,IW,IC],
    w [OC,KD,KH,KW,IC], pad [6]): spec 2.3.3 / 2.3.4."""
    x, w = np.asarray(x), np.asarray(w)
    nd = x.ndim - 2
    oc = w.shape[0]
    kernel = w.shape[1:1 + nd]
    _conv_checks(x, weight_zp, input_zp, in_t, w_t, pad, stride, dilation, bias, oc)
    pads = [(int(pad[2 * i]), int(pad[2 * i + 1])) for i in range(nd)]
    out_sp = [_conv_out_size(x.shape[1 + i], *pads[i], kernel[i], dilation[i], stride[i], "O")
              for i in range(nd)]
    _check_out_shape(out_shape, [x.shape[0], *out_sp, oc], "output shape != computed [N,O...,OC]")
    fp = _is_fp(in_t)
    wrap = _wraps(in_t, w_t, acc_t)
    xv = _values(x, in_t) - _zp_value(input_zp, in_t)
    wv = _values(w, w_t) - _zp_value(weight_zp, w_t)
    n = x.shape[0]
    K = int(np.prod(kernel)) * x.shape[-1]
    Wm = np.moveaxis(wv, 0, -1).reshape(K, 1, oc)
    if (all(k == 1 for k in kernel) and all(s == 1 for s in stride) and not any(pad[:2 * nd])
            and min(x.shape[1:1 + nd]) >= 1):
        # 1x1 kernel, stride 1, no padding: every patch is one input pixel (no padding, so
        # no mask), the patches are the input itself
        X = xv.reshape(-1, K, 1)
        acc = _dot(X, Wm, None, acc_t, fp, wrap).reshape(n, *out_sp, oc)
        return _finish(acc, bias, np.arange(oc), acc_t, out_t, wrap)
    xp, valid = _pad_spatial(xv, pads, 0)
    P, M = _patches(xp, valid, kernel, stride, dilation)
    X = P.reshape(-1, K, 1)  # spec order (k..., ic)

    def mask():
        return np.broadcast_to(M.reshape(1, -1, K // x.shape[-1], 1),
                               (n, int(np.prod(out_sp)), K // x.shape[-1], x.shape[-1])).reshape(-1, K)

    acc = _dot(X, Wm, mask, acc_t, fp, wrap).reshape(n, *out_sp, oc)
    return _finish(acc, bias, np.arange(oc), acc_t, out_t, wrap)


def depthwise_conv2d(x, w, bias, input_zp, weight_zp, pad, stride, dilation, *, in_t: str,
                     w_t: str, out_t: str, acc_t: str,
                     out_shape: Sequence[int] | None = None) -> np.ndarray:
    """DEPTHWISE_CONV2D (spec 2.3.5): x [N,IH,IW,C], w [KH,KW,C,M] -> [N,OH,OW,C*M]."""
    x, w = np.asarray(x), np.asarray(w)
    kh, kw, c, m = w.shape
    _conv_checks(x, weight_zp, input_zp, in_t, w_t, pad, stride, dilation, bias, c * m)
    pads = [(int(pad[0]), int(pad[1])), (int(pad[2]), int(pad[3]))]
    oh = _conv_out_size(x.shape[1], *pads[0], kh, dilation[0], stride[0], "OH")
    ow = _conv_out_size(x.shape[2], *pads[1], kw, dilation[1], stride[1], "OW")
    n = x.shape[0]
    _check_out_shape(out_shape, [n, oh, ow, c * m], "output shape != [N,OH,OW,C*M]")
    fp = _is_fp(in_t)
    wrap = _wraps(in_t, w_t, acc_t)
    xv = _values(x, in_t) - _zp_value(input_zp, in_t)
    wv = _values(w, w_t) - _zp_value(weight_zp, w_t)
    padded = any(p for pair in pads for p in pair)
    xp, valid = _pad_spatial(xv, pads, 0) if padded else (xv, None)
    sy, sx = int(stride[0]), int(stride[1])
    dy, dx = int(dilation[0]), int(dilation[1])
    fits = xp.shape[1] >= (kh - 1) * dy + 1 and xp.shape[2] >= (kw - 1) * dx + 1
    if fp and fits and (not padded or np.isfinite(wv).all()):
        # No product needs masking: the kernel taps one after the other, each a strided view
        # of the padded input times one weight per channel, added in the spec's (ky, kx)
        # order starting from +0.0: the same additions, in the same order, as the dot
        # product over im2col patches, without building the patches.
        acc = np.zeros((m, n, oh, ow, c), np.float64)  # one [N,OH,OW,C] plane per multiplier
        term = np.empty((n, oh, ow, c), np.float64)
        with np.errstate(all="ignore"):
            for ky in range(kh):
                for kx in range(kw):
                    y0, x0 = ky * dy, kx * dx
                    tap = xp[:, y0:y0 + (oh - 1) * sy + 1:sy, x0:x0 + (ow - 1) * sx + 1:sx, :]
                    for mi in range(m):
                        np.multiply(tap, wv[ky, kx, :, mi], out=term)
                        acc[mi] += term
        acc = nx.round_to_nearest_float(np.moveaxis(acc, 0, -1), acc_t).reshape(n, oh, ow, c * m)
        return _finish(acc, bias, np.arange(c * m), acc_t, out_t, wrap)
    if valid is None:
        valid = np.ones(xp.shape[1:3], bool)
    P, Mk = _patches(xp, valid, (kh, kw), stride, dilation)  # [N,OH,OW,KH,KW,C]
    X = P.reshape(n * oh * ow, kh * kw, c)
    Wm = wv.reshape(kh * kw, c, m)

    def mask():
        return np.broadcast_to(Mk.reshape(1, oh * ow, kh * kw), (n, oh * ow, kh * kw)).reshape(-1, kh * kw)

    acc = _dot(X, Wm, mask, acc_t, fp, wrap).reshape(n, oh, ow, c * m)
    return _finish(acc, bias, np.arange(c * m), acc_t, out_t, wrap)


def transpose_conv2d(x, w, bias, input_zp, weight_zp, out_pad, stride, *, in_t: str, w_t: str,
                     out_t: str, acc_t: str, out_shape: Sequence[int] | None = None) -> np.ndarray:
    """TRANSPOSE_CONV2D (spec 2.3.10): x [N,IH,IW,IC], w [OC,KH,KW,IC] -> [N,OH,OW,OC].

    out[oy] sums x[(oy - out_pad_top - ky) / stride] over ky where that is an integer input
    row: the input is spread out with stride - 1 zeros (marked invalid), padded by
    KH - 1 + out_pad on each side, and read by stride-1 windows in reverse kernel order."""
    x, w = np.asarray(x), np.asarray(w)
    n, ih, iw, ic = x.shape
    oc, kh, kw, _ = w.shape
    _check_zp(input_zp, in_t, "input_zp")
    _check_zp(weight_zp, w_t, "weight_zp")
    pt, pb, pl, pr = (int(v) for v in out_pad)
    sy, sx = (int(v) for v in stride)
    nx.error_if(pt <= -kh or pb <= -kh, "out_pad_top/bottom <= -KH")
    nx.error_if(pl <= -kw or pr <= -kw, "out_pad_left/right <= -KW")
    nx.error_if(sy < 1 or sx < 1, "stride < 1")
    oh = shapes.transpose_conv_size(ih, kh, pt, pb, sy)
    ow = shapes.transpose_conv_size(iw, kw, pl, pr, sx)
    _check_out_shape(out_shape, [n, oh, ow, oc], "output shape != [N,OH,OW,OC]")
    bc = np.asarray(bias).size
    nx.error_if(bc != oc and bc != 1, "BC != OC && BC != 1")
    fp = _is_fp(in_t)
    wrap = _wraps(in_t, w_t, acc_t)
    xv = _values(x, in_t) - _zp_value(input_zp, in_t)
    wv = _values(w, w_t) - _zp_value(weight_zp, w_t)
    zh, zw = (ih - 1) * sy + 1, (iw - 1) * sx + 1
    check_tensor_size((n, zh + 2 * (kh - 1) + max(pt, 0) + max(pb, 0), zw + 2 * (kw - 1) + max(pl, 0) + max(pr, 0), ic),
                      "the strided, padded input")
    z = np.zeros((n, zh, zw, ic), xv.dtype)
    z[:, ::sy, ::sx, :] = xv
    zvalid = np.zeros((zh, zw), bool)
    zvalid[::sy, ::sx] = True
    pads = [(kh - 1 + pt, kh - 1 + pb), (kw - 1 + pl, kw - 1 + pr)]
    zp_ = np.pad(z, ((0, 0), *pads, (0, 0)))
    vp = np.pad(zvalid, pads, constant_values=False)
    P, Mk = _patches(zp_, vp, (kh, kw), (1, 1), (1, 1))  # [N,OH,OW,KH',KW',IC]
    P = P[:, :, :, ::-1, ::-1, :]  # window offset k' = K - 1 - k: back to the spec's (ky, kx)
    Mk = Mk[:, :, ::-1, ::-1]
    K = kh * kw * ic
    X = P.reshape(n * oh * ow, K, 1)
    Wm = np.moveaxis(wv, 0, -1).reshape(K, 1, oc)
    mask = np.broadcast_to(Mk.reshape(1, oh * ow, kh * kw, 1), (n, oh * ow, kh * kw, ic)).reshape(-1, K)
    acc = _dot(X, Wm, mask, acc_t, fp, wrap).reshape(n, oh, ow, oc)
    return _finish(acc, bias, np.arange(oc), acc_t, out_t, wrap)


# --------------------------------------------------------------------------------------
# 2.3.7 MATMUL
# --------------------------------------------------------------------------------------


# the spec's integer MATMUL rows (in_t, out_t): the accumulator must not overflow (REQUIRE)
_MATMUL_INT_ROWS = frozenset({("i8", "i32"), ("i16", "i48")})


def matmul(a, b, a_zp, b_zp, *, in_t: str, out_t: str,
           out_shape: Sequence[int] | None = None) -> np.ndarray:
    """MATMUL (spec 2.3.7): A [N,H,C] x B [N,C,W] -> [N,H,W], accumulated in out_t.

    The pseudocode's zero-point ERROR_IF reads `is_same<in_t,i8_t> && (A_zp != 0 || ...)`;
    the argument table ("Must be zero for non-int8 types") and every other operator say
    `!is_same`, which is what is checked here (see docs/interpreter.md)."""
    a, b = np.asarray(a), np.asarray(b)
    n, h, c = a.shape
    nb, cb, wd = b.shape
    nx.error_if(nb != n or cb != c, "B shape != [N,C,W]")
    _check_zp(a_zp, in_t, "A_zp")
    _check_zp(b_zp, in_t, "B_zp")
    _check_out_shape(out_shape, [n, h, wd], "output shape != [N,H,W]")
    fp = _is_fp(in_t)
    av = _values(a, in_t) - _zp_value(a_zp, in_t)
    bv = _values(b, in_t) - _zp_value(b_zp, in_t)
    X = av.transpose(1, 2, 0)  # [H, C, N]: p = h, k = c, g = n
    Wm = bv.transpose(1, 0, 2)  # [C, N, W]
    if not fp and (in_t, out_t) not in _MATMUL_INT_ROWS:
        # upstream's rows beyond the spec (i1/i4/i16/i32/i48/i64/unsigned -> i32): its
        # linalg.matmul casts each value to i32 and sums modulo 2^32 (int64 products and sums
        # wrap modulo 2^64, which keeps them right modulo 2^32)
        return nx.truncate(np.einsum("nhc,ncw->nhw", av.astype(np.int64), bv.astype(np.int64)), out_t)
    acc = _dot(X, Wm, None, out_t, fp).transpose(1, 0, 2)  # [N, H, W]
    if fp:
        return acc
    return nx.truncate(acc, out_t)


# --------------------------------------------------------------------------------------
# 2.3.2 AVG_POOL2D / 2.3.8 MAX_POOL2D
# --------------------------------------------------------------------------------------


def _pool_checks(x, kernel, stride, pad, out_shape):
    ky, kx = (int(v) for v in kernel)
    sy, sx = (int(v) for v in stride)
    pt, pb, pl, pr = (int(v) for v in pad)
    nx.error_if(ky < 1 or kx < 1, "kernel < 1")
    nx.error_if(sy < 1 or sx < 1, "stride < 1")
    nx.error_if(min(pt, pb, pl, pr) < 0, "pad < 0")
    nx.error_if(pr >= kx or pl >= kx, "pad_right/left >= kernel_x")
    nx.error_if(pt >= ky or pb >= ky, "pad_top/bottom >= kernel_y")
    n, ih, iw, c = x.shape
    oh = int(nx.idiv_check(shapes.pool_numerator(ih, ky, pt, pb), sy)) + 1
    ow = int(nx.idiv_check(shapes.pool_numerator(iw, kx, pl, pr), sx)) + 1
    _check_out_shape(out_shape, [n, oh, ow, c], "output shape != [N,OH,OW,C]")
    return (ky, kx), (sy, sx), [(pt, pb), (pl, pr)]


# the spec's integer AVG_POOL2D rows and their unsigned widening (in_out_t, acc_t): the
# accumulator must not overflow (REQUIRE)
_POOL_INT_ROWS = frozenset({("i8", "i32"), ("i16", "i32"), ("ui8", "i32"), ("ui16", "i32")})


def avg_pool2d(x, input_zp, output_zp, kernel, stride, pad, *, in_t: str, acc_t: str,
               out_shape: Sequence[int] | None = None) -> np.ndarray:
    """AVG_POOL2D (spec 2.3.2)."""
    x = np.asarray(x)
    _check_zp(input_zp, in_t, "input_zp")
    _check_zp(output_zp, in_t, "output_zp")
    k, s, pads = _pool_checks(x, kernel, stride, pad, out_shape)
    fp = _is_fp(in_t)
    xv = _values(x, in_t) - _zp_value(input_zp, in_t)
    xp, valid = _pad_spatial(xv, pads, 0)
    P, M = _patches(xp, valid, k, s, (1, 1))  # [N,OH,OW,KY,KX,C], [OH,OW,KY,KX]
    count = M.sum(axis=(-2, -1))  # [OH, OW]
    if fp:
        with np.errstate(all="ignore"):
            acc = P.sum(axis=(3, 4)) / count[None, :, :, None]
        return nx.round_to_nearest_float(nx.round_to_nearest_float(acc, acc_t), in_t)
    n, oh, ow, _, _, c = P.shape
    acc = P.sum(axis=(3, 4))
    lo, hi = nx.minimum_s(acc_t), nx.maximum_s(acc_t)
    if (in_t, acc_t) not in _POOL_INT_ROWS:
        # upstream's rows beyond the spec (i1/i4/i32/i48/i64/ui32 -> i32 accumulator): its
        # linalg.pooling_nhwc_sum casts each value to i32 (wider: the low 32 bits) and sums
        # modulo 2^32; the sum is then read as a signed i32 (int64 sums wrap modulo 2^64)
        acc = nx.sign_extend(P.astype(np.int64).sum(axis=(3, 4)), acc_t)
    elif acc.size and np.abs(P).sum(axis=(3, 4)).max() > hi:
        prefix = np.cumsum(P.reshape(n, oh, ow, -1, c), axis=3)
        nx.require((prefix >= lo) & (prefix <= hi), f"apply_add_s<{acc_t}>: accumulator overflow")
    mult, shift = nx.reciprocal_scale(count)
    scaled = nx.apply_scale_32(acc, mult[None, :, :, None], shift[None, :, :, None], False)
    out = nx.apply_add_s(scaled, _zp_value(output_zp, in_t), acc_t)
    lo, hi = (0, (1 << nx.bit_width(in_t)) - 1) if in_t.startswith("ui") else (nx.minimum_s(in_t), nx.maximum_s(in_t))
    if (in_t, acc_t) not in _POOL_INT_ROWS and not in_t.startswith("ui"):
        lo = -(1 << (nx.bit_width(in_t) - 1))  # upstream clips to the full range (i4: -8)
    out = np.clip(nx.sign_extend(out, acc_t), lo, hi)
    return nx.static_cast(out, acc_t, in_t)


def max_pool2d(x, kernel, stride, pad, *, in_t: str, nan_mode: str = "PROPAGATE",
               out_shape: Sequence[int] | None = None) -> np.ndarray:
    """MAX_POOL2D (spec 2.3.8)."""
    x = np.asarray(x)
    k, s, pads = _pool_checks(x, kernel, stride, pad, out_shape)
    if _is_fp(in_t):
        ignore = str(nan_mode) == "IGNORE"
        # padding never wins: -inf is below every value (PROPAGATE), NaN is skipped (IGNORE)
        xp, valid = _pad_spatial(x.astype(np.float64), pads, np.nan if ignore else -np.inf)
        P, _ = _patches(xp, valid, k, s, (1, 1))
        flat = P.reshape(*P.shape[:3], -1, P.shape[-1])
        with np.errstate(invalid="ignore"):
            r = np.fmax.reduce(flat, axis=3) if ignore else np.max(flat, axis=3)
        return r.astype(x.dtype)  # exact: r is one of the input values (or NaN)
    # padding never wins: the type's lowest value (i4: -8; unsigned, upstream's rows: 0, the
    # values compared unsigned)
    unsigned = in_t.startswith("ui")
    lowest = 0 if unsigned else -(1 << (nx.bit_width(in_t) - 1))
    xp, valid = _pad_spatial((nx.zero_extend if unsigned else nx.sign_extend)(x, in_t), pads, lowest)
    P, _ = _patches(xp, valid, k, s, (1, 1))
    return P.max(axis=(3, 4)).astype(x.dtype)


# --------------------------------------------------------------------------------------
# 2.3.1 ARGMAX
# --------------------------------------------------------------------------------------


def argmax(x, axis: int, *, in_t: str, nan_mode: str = "PROPAGATE",
           out_shape: Sequence[int] | None = None, out_t: str = "i32") -> np.ndarray:
    """ARGMAX (spec 2.3.1): index of the first maximum along axis, as out_t (i32)."""
    x = np.asarray(x)
    nx.error_if(axis < 0 or axis >= x.ndim, "axis < 0 || axis >= rank(shape1)")
    shape = shapes.reduce_shape(x.shape, axis, keep=False)
    _check_out_shape(out_shape, list(shape), "flatten(left_shape, right_shape) != shape")
    if x.shape[axis] == 0:
        return np.zeros(shape, np.int32)
    if not _is_fp(in_t):
        # unsigned types (upstream's rows, verification/producer_types.py) compare unsigned
        index = np.argmax((nx.zero_extend if in_t.startswith("ui") else nx.sign_extend)(x, in_t), axis=axis)
    else:
        v = x.astype(np.float64)
        if str(nan_mode) == "IGNORE":
            nan = np.isnan(v)
            best = np.max(np.where(nan, -np.inf, v), axis=axis, keepdims=True)
            hit = ~nan & (v == best)  # first non-NaN maximum; all-NaN rows give index 0
            index = np.argmax(hit, axis=axis)
        else:
            # PROPAGATE: NaN compares greater than everything, the first NaN wins; otherwise
            # the first maximum (np.argmax treats NaN the same way and breaks ties by first
            # index; -0.0 == +0.0 keeps the first)
            index = np.argmax(v, axis=axis)
    # TOSA 1.0.2: REQUIRE(i <= maximum<out_t>()) where the maximum is recorded. The recorded
    # indices only grow, so checking the final one is the same condition.
    nx.require(index <= nx.maximum_s(out_t), "i <= maximum<out_t>()")
    return index.astype(np.int32)


# --------------------------------------------------------------------------------------
# 2.3.6 FFT2D / 2.3.9 RFFT2D
# --------------------------------------------------------------------------------------


def _power_of_two(v: int) -> bool:
    return v > 0 and (v & (v - 1)) == 0


def _twiddles(size: int, out: int, sign: float) -> np.ndarray:
    """[out, size] matrix exp(-sign * 2 pi i * ((o * i) mod size) / size), exact at quarter
    turns (cos/sin of multiples of pi/2 are 0 or +-1)."""
    k = (np.arange(out)[:, None] * np.arange(size)[None, :]) % size
    ang = 2.0 * np.pi * k / size
    c, s = np.cos(ang), np.sin(ang)
    quarter = (4 * k) % size == 0
    q = (4 * k) // size  # 0..3 at quarter turns
    c = np.where(quarter, np.choose(q % 4, [1.0, 0.0, -1.0, 0.0]), c)
    s = np.where(quarter, np.choose(q % 4, [0.0, 1.0, 0.0, -1.0]), s)
    return c - 1j * sign * s


def _spec_twiddles(h: int, w: int, sign: float, t: str) -> tuple[np.ndarray, np.ndarray]:
    """cos(a), sin(a) of the pseudocode's angle, indexed [ay, ax]: a = sign * 2 * pi() *
    (ay / H + ax / W) evaluated in in_out_t (left to right, as C++), cos/sin of that value
    rounded once to in_out_t. Never exactly 0 except sin(0): cos(fp32(pi/2)) is -4.4e-8."""
    def rnd(x):  # one in_out_t rounding, kept as float64
        return nx.round_to_nearest_float(x, t).astype(np.float64)

    pi = rnd(np.pi)
    frac = rnd(rnd(np.arange(h)[:, None] / h) + rnd(np.arange(w)[None, :] / w))
    a = rnd(rnd(sign * 2 * pi) * frac)
    return nx.round_to_nearest_float(np.cos(a), t), nx.round_to_nearest_float(np.sin(a), t)


def _non_finite_sums(re, im, sign: float, out_w: int, t: str, rfft: bool):
    """(sum_real, sum_imag) over only the terms of the non-finite inputs, each term as the
    pseudocode forms it (`val_real * cos(a) + val_imag * sin(a)`, ...; RFFT2D's skipped
    imaginary terms not at all): where such a sum is NaN or infinite, so is the pseudocode's
    whole sum (the other terms are finite), whatever the summation order."""
    n, h, w = re.shape
    c, s = (x.astype(np.float64) for x in _spec_twiddles(h, w, sign, t))
    oy, ox = np.arange(h), np.arange(out_w)
    sum_r = np.zeros((n, h, out_w))
    sum_i = np.zeros((n, h, out_w))
    where = np.argwhere(~np.isfinite(re) | ~np.isfinite(im))
    step = max(1, (1 << 22) // (h * out_w))  # terms per chunk: [k, H, W'] float64, <= 32 MiB
    with np.errstate(all="ignore"):
        for start in range(0, len(where), step):
            b, iy, ix = where[start:start + step].T
            ay = ((iy[:, None] * oy[None, :]) % h)[:, :, None]  # [k, H, 1]
            ax = ((ix[:, None] * ox[None, :]) % w)[:, None, :]  # [k, 1, W']
            vr = re[b, iy, ix].astype(np.float64)[:, None, None]
            vi = im[b, iy, ix].astype(np.float64)[:, None, None]
            cos, sin = c[ay, ax], s[ay, ax]
            np.add.at(sum_r, b, vr * cos + vi * sin)
            imag = -vr * sin + vi * cos
            if rfft:
                kept = ((h > 1) & (ay % max(h // 2, 1) > 0)) | ((w > 1) & (ax % max(w // 2, 1) > 0))
                imag = np.where(kept, imag, 0.0)
            np.add.at(sum_i, b, imag)
    return sum_r, sum_i


def _dft(re, im, sign: float, out_w: int, t: str, rfft: bool) -> tuple[np.ndarray, np.ndarray]:
    """The DFT of the pseudocode. Finite terms: separable, in complex128 with exact twiddle
    factors (quarter turns exact 0/+-1), rounded once to in_out_t: more precise than the
    pseudocode's in_out_t angle, which the dot-product bound permits. Non-finite inputs:
    their terms are formed exactly as the pseudocode forms them (`_non_finite_sums`), so
    NaN and infinity land where the spec puts them (a twiddle that is exactly 0 here would
    make `inf * 0` NaN where the spec's in_out_t angle gives a tiny non-zero cosine)."""
    _, h, w = re.shape
    bad = ~np.isfinite(re) | ~np.isfinite(im)
    z = np.where(bad, 0.0, re.astype(np.float64)) + 1j * np.where(bad, 0.0, im.astype(np.float64))
    with np.errstate(all="ignore"):
        out = _twiddles(h, h, sign) @ z @ _twiddles(w, out_w, sign).T
    real, imag = out.real + 0.0, out.imag + 0.0
    if bad.any():
        nr, ni = _non_finite_sums(re, im, sign, out_w, t, rfft)
        real = np.where(np.isfinite(nr), real, nr)
        imag = np.where(np.isfinite(ni), imag, ni)
    return nx.round_to_nearest_float(real, t), nx.round_to_nearest_float(imag, t)


def fft2d(re, im, inverse: bool, *, t: str = "fp32") -> tuple[np.ndarray, np.ndarray]:
    """FFT2D (spec 2.3.6): unnormalized forward (exp(-i a)) or inverse (exp(+i a)) DFT."""
    re, im = np.asarray(re), np.asarray(im)
    n, h, w = re.shape
    nx.error_if(not _power_of_two(h), "!power_of_two(H)")
    nx.error_if(not _power_of_two(w), "!power_of_two(W)")
    nx.error_if(im.shape != re.shape, "input_imag shape != input_real shape")
    return _dft(re, im, -1.0 if inverse else 1.0, w, t, rfft=False)


def rfft2d(re, *, t: str = "fp32") -> tuple[np.ndarray, np.ndarray]:
    """RFFT2D (spec 2.3.9): the first W/2 + 1 columns of the forward DFT of a real input.

    The imaginary terms the pseudocode skips (ay and ax multiples of H/2, W/2) have exact
    zero twiddles here (and are left out for non-finite inputs); the result there is +0.0
    (the spec's "must be zero")."""
    re = np.asarray(re)
    n, h, w = re.shape
    nx.error_if(not _power_of_two(h), "!power_of_two(H)")
    nx.error_if(not _power_of_two(w), "!power_of_two(W)")
    return _dft(re, np.zeros_like(re), 1.0, w // 2 + 1, t, rfft=True)


# --------------------------------------------------------------------------------------
# interpreter registration
# --------------------------------------------------------------------------------------


def _acc(op) -> str:
    return tname(element_type(op.properties["acc_type"]))


@register_impls
class TensorFunctions(InterpreterFunctions):
    @impl(T.ArgMaxOp)
    def run_argmax(self, interpreter, op, args):
        (x,) = args
        out = argmax(x, prop(op, "axis"), in_t=tname(op.input),
                     nan_mode=prop(op, "nan_mode", "PROPAGATE"), out_shape=shape_of(op.output),
                     out_t=tname(op.output))
        return (out.astype(dtype_of(op.output.type), copy=False),)  # i64 indices (EXT-INT64)

    @impl(T.AvgPool2DOp)
    def run_avg_pool2d(self, interpreter, op, args):
        x, izp, ozp = args
        return (avg_pool2d(x, izp, ozp, prop(op, "kernel"), prop(op, "stride"), prop(op, "pad"),
                           in_t=tname(op.input), acc_t=_acc(op), out_shape=shape_of(op.output)),)

    def _conv_types(self, op):
        return dict(in_t=tname(op.input), w_t=tname(op.weight), out_t=tname(op.output),
                    acc_t=_acc(op), out_shape=shape_of(op.output))

    @impl(T.Conv2DOp)
    def run_conv2d(self, interpreter, op, args):
        x, w, b, izp, wzp = args
        return (conv(x, w, b, izp, wzp, prop(op, "pad"), prop(op, "stride"), prop(op, "dilation"),
                     **self._conv_types(op)),)

    @impl(T.Conv3DOp)
    def run_conv3d(self, interpreter, op, args):
        x, w, b, izp, wzp = args
        return (conv(x, w, b, izp, wzp, prop(op, "pad"), prop(op, "stride"), prop(op, "dilation"),
                     **self._conv_types(op)),)

    @impl(T.DepthwiseConv2DOp)
    def run_depthwise_conv2d(self, interpreter, op, args):
        x, w, b, izp, wzp = args
        return (depthwise_conv2d(x, w, b, izp, wzp, prop(op, "pad"), prop(op, "stride"),
                                 prop(op, "dilation"), **self._conv_types(op)),)

    @impl(T.TransposeConv2DOp)
    def run_transpose_conv2d(self, interpreter, op, args):
        x, w, b, izp, wzp = args
        return (transpose_conv2d(x, w, b, izp, wzp, prop(op, "out_pad"), prop(op, "stride"),
                                 **self._conv_types(op)),)

    @impl(T.MatMulOp)
    def run_matmul(self, interpreter, op, args):
        a, b, azp, bzp = args
        return (matmul(a, b, azp, bzp, in_t=tname(op.a), out_t=tname(op.output),
                       out_shape=shape_of(op.output)),)

    @impl(T.MaxPool2DOp)
    def run_max_pool2d(self, interpreter, op, args):
        (x,) = args
        return (max_pool2d(x, prop(op, "kernel"), prop(op, "stride"), prop(op, "pad"),
                           in_t=tname(op.input), nan_mode=prop(op, "nan_mode", "PROPAGATE"),
                           out_shape=shape_of(op.output)),)

    @impl(T.FFT2DOp)
    def run_fft2d(self, interpreter, op, args):
        re, im = args
        return fft2d(re, im, bool(prop(op, "inverse")), t=tname(op.input_real))

    @impl(T.RFFT2DOp)
    def run_rfft2d(self, interpreter, op, args):
        (re,) = args
        return rfft2d(re, t=tname(op.input_real))
