"""Random per-operator test cases for the differential test against Arm's reference model.

`all_cases(seed)` yields `Case`s: a one-operator `func.func @main` in the attribute-dictionary
syntax both the tosa-tools translator and our parser read, its inputs (numpy arrays in the
storage dtypes of tosa_xdsl.interpreter.values), and how to compare the outputs:

* "exact": integers/bools equal; floats bit-equal (any NaN matches any NaN);
* "exact_pm0": as exact, but +0.0 and -0.0 match (MAX_POOL2D's rule);
* "dot": the spec's dot-product accuracy rule (1.10.3) with the operator's KS;
* "resize": RESIZE's precision rule (2.12.1);
* "fft": FFT2D/RFFT2D, dot-product rule with KS = 2*H*W (FFT2D) / H*W (RFFT2D).

Every row of each operator's Supported Data Types table is generated; shapes and attributes
(stride, dilation, pad, kernel, zero points for i8) are random and small, data include the
type's edge values (min/max for integers; 0, -0.0, large values, and NaN/Inf where the
operator's result is still defined exactly)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from tosa_xdsl import numerics as nx

MLIR_TYPE = {"i4": "i4", "i8": "i8", "i16": "i16", "i32": "i32", "i48": "i48", "fp16": "f16",
             "bf16": "bf16", "fp32": "f32", "fp8e4m3": "f8E4M3FN", "fp8e5m2": "f8E5M2"}


@dataclass
class Case:
    id: str
    mlir: str
    inputs: list
    check: str
    # "dot"/"fft": kernel size and the types of tosa_reference_check_dotproduct
    ks: int = 0
    in_t: str = ""
    out_t: str = ""
    acc_t: str = ""
    local_bound: bool = False
    # inputs for the bound run (|input| etc., see the spec's check); None: not a dot case
    bound_inputs: Callable[[list], list] | None = field(default=None, repr=False)
    has_bias: bool = False


def ttype(shape, t: str) -> str:
    dims = "x".join(str(d) for d in shape)
    return f"tensor<{dims}x{MLIR_TYPE[t]}>" if dims else f"tensor<{MLIR_TYPE[t]}>"


def arr(values, t: str) -> str:
    return ", ".join(str(v) for v in values)


def func(args: list[tuple[str, tuple, str]], body: list[str], results: list[tuple[str, tuple, str]]) -> str:
    sig = ", ".join(f"%{n}: {ttype(s, t)}" for n, s, t in args)
    rt = ", ".join(ttype(s, t) for _, s, t in results)
    ret = ", ".join(f"%{n}" for n, _, _ in results)
    rts = ", ".join(ttype(s, t) for _, s, t in results)
    lines = "\n".join("  " + b for b in body)
    return (f"func.func @main({sig}) -> ({rt}) {{\n{lines}\n  return {ret} : {rts}\n}}\n")


def const(name: str, value, t: str) -> str:
    v = f"{float(value)!r}" if nx.is_floating_point(t) else str(int(value))
    return f'%{name} = "tosa.const"() {{values = dense<{v}> : {ttype((1,), t)}}} : () -> {ttype((1,), t)}'


def const_tensor(name: str, values: np.ndarray, t: str) -> str:
    vals = ", ".join(str(int(v)) for v in values.reshape(-1))
    ty = ttype(values.shape, t)
    return f'%{name} = "tosa.const"() {{values = dense<[{vals}]> : {ty}}} : () -> {ty}'


def const_shape(name: str, values) -> str:
    n = len(values)
    return (f"%{name} = tosa.const_shape {{values = dense<[{', '.join(str(int(v)) for v in values)}]> "
            f": tensor<{n}xindex>}} : () -> !tosa.shape<{n}>")


def a64(name: str, values) -> str:
    return f"{name} = array<i64: {', '.join(str(int(v)) for v in values)}>"


# ----------------------------------------------------------------------------- data


def ints(rng, shape, t: str, lo=None, hi=None) -> np.ndarray:
    lo = nx.minimum_s(t) if lo is None else lo
    hi = nx.maximum_s(t) if hi is None else hi
    x = rng.integers(lo, hi + 1, size=shape, dtype=np.int64)
    if x.size >= 4:  # edge values
        flat = x.reshape(-1)
        pos = rng.choice(flat.size, size=min(3, flat.size), replace=False)
        flat[pos] = [lo, hi, 0][: len(pos)]
    return x.astype(nx.storage_dtype(t))


def floats(rng, shape, t: str, scale=1.0, specials=False) -> np.ndarray:
    x = rng.uniform(-1, 1, size=shape) * scale
    if x.size >= 4:
        flat = x.reshape(-1)
        pos = rng.choice(flat.size, size=min(2, flat.size), replace=False)
        flat[pos] = [0.0, -0.0][: len(pos)]
        if specials and flat.size >= 8:
            pos = rng.choice(flat.size, size=4, replace=False)
            big = nx.normal_max(t)
            flat[pos] = [np.nan, big, -big, np.inf if t != "fp8e4m3" else np.nan]
    return nx.round_to_nearest_float(x, t)


def data(rng, shape, t: str, **kw) -> np.ndarray:
    if nx.is_floating_point(t):
        return floats(rng, shape, t, **{k: v for k, v in kw.items() if k in ("scale", "specials")})
    return ints(rng, shape, t)


# ----------------------------------------------------------------------------- conv family

CONV_ROWS = [  # (in_t, weight_t, out_t, acc_t) of CONV2D/CONV3D/DEPTHWISE/TRANSPOSE_CONV2D
    ("fp16", "fp16", "fp16", "fp16"), ("fp16", "fp16", "fp16", "fp32"),
    ("fp32", "fp32", "fp32", "fp32"), ("i8", "i8", "i32", "i32"),
    ("bf16", "bf16", "bf16", "fp32"), ("fp8e4m3", "fp8e4m3", "fp16", "fp16"),
    ("fp8e5m2", "fp8e5m2", "fp16", "fp16"), ("i16", "i8", "i48", "i48"), ("i8", "i4", "i32", "i32"),
]


def _zp(rng, t: str) -> int | float:
    if t == "i8":
        return int(rng.integers(-128, 128))
    return 0.0 if nx.is_floating_point(t) else 0


def _abs_in(t: str, x, global_max: bool):
    """max(|x|, normal_min<t>) (and all set to the global max when !local_bound)."""
    v = np.maximum(np.abs(np.asarray(x).astype(np.float64)), nx.normal_min(t))
    if global_max and v.size:
        v = np.full(v.shape, v.max())
    return v


def _spatial(rng, nd: int, transpose=False):
    """kernel, stride, dilation, pads, in sizes, out sizes that satisfy the ERROR_IF rules."""
    while True:
        k = [int(rng.integers(1, 4)) for _ in range(nd)]
        s = [int(rng.integers(1, 3)) for _ in range(nd)]
        d = [1] * nd if transpose else [int(rng.integers(1, 3)) for _ in range(nd)]
        if transpose:
            pads = [(int(rng.integers(-(ki - 1), 2)), int(rng.integers(-(ki - 1), 2))) for ki in k]
            ins = [int(rng.integers(1, 4)) for _ in range(nd)]
            outs = [(i - 1) * si + lo + hi + ki for i, si, (lo, hi), ki in zip(ins, s, pads, k)]
            if min(outs) >= 1:
                return k, s, d, pads, ins, outs
            continue
        pads = [(int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in range(nd)]
        outs = [int(rng.integers(1, 4)) for _ in range(nd)]
        ins = [(o - 1) * si + (ki - 1) * di + 1 - lo - hi for o, si, ki, di, (lo, hi) in zip(outs, s, k, d, pads)]
        if min(ins) >= 1:
            return k, s, d, pads, ins, outs


def conv_case(rng, op: str, row, idx: int) -> Case:
    in_t, w_t, out_t, acc_t = row
    nd = 3 if op == "conv3d" else 2
    k, s, d, pads, ins, outs = _spatial(rng, nd, transpose=(op == "transpose_conv2d"))
    n = int(rng.integers(1, 3))
    ic = int(rng.integers(1, 4))
    local_bound = bool(rng.integers(0, 2))
    if op == "depthwise_conv2d":
        m = int(rng.integers(1, 3))
        oc = ic * m
        wshape = (*k, ic, m)
    else:
        oc = int(rng.integers(1, 4))
        wshape = (oc, *k, ic)
    bc = oc if rng.integers(0, 2) else 1
    xshape = (n, *ins, ic)
    oshape = (n, *outs, oc)
    x = data(rng, xshape, in_t)
    if w_t == "i4":
        w = ints(rng, wshape, "i4", -7, 7)
    else:
        w = data(rng, wshape, w_t)
    if nx.is_floating_point(out_t):
        b = floats(rng, (bc,), out_t)
    else:
        b = ints(rng, (bc,), out_t, -(1 << 20), 1 << 20)
    izp, wzp = _zp(rng, in_t), _zp(rng, w_t)
    attrs = [f"acc_type = {MLIR_TYPE[acc_t]}"]
    if op == "transpose_conv2d":
        attrs += [a64("out_pad", [v for p in pads for v in p]), a64("stride", s)]
    else:
        attrs += [a64("dilation", d), a64("pad", [v for p in pads for v in p]), a64("stride", s)]
    if local_bound and nx.is_floating_point(in_t):
        attrs.append("local_bound = true")
    types = f"({ttype(xshape, in_t)}, {ttype(wshape, w_t)}, {ttype((bc,), out_t)}, {ttype((1,), in_t)}, {ttype((1,), w_t)})"
    body = [const("izp", izp, in_t), const("wzp", wzp, w_t),
            f"%r = tosa.{op} %x, %w, %b, %izp, %wzp {{{', '.join(attrs)}}} : {types} -> {ttype(oshape, out_t)}"]
    mlir = func([("x", xshape, in_t), ("w", wshape, w_t), ("b", (bc,), out_t)], body, [("r", oshape, out_t)])
    fp = nx.is_floating_point(in_t)
    ks = int(np.prod(k)) * (1 if op == "depthwise_conv2d" else ic)

    def bound_inputs(inputs, in_t=in_t, w_t=w_t, out_t=out_t, lb=local_bound):
        xi, wi, bi = inputs
        return [nx.round_to_nearest_float(_abs_in(in_t, xi, not lb), in_t),
                nx.round_to_nearest_float(_abs_in(in_t, wi, False), w_t),
                nx.round_to_nearest_float(_abs_in(in_t, bi, False), out_t)]

    return Case(f"{op}-{in_t}x{w_t}-acc{acc_t}-{idx}", mlir, [x, w, b], "dot" if fp else "exact",
                ks=ks, in_t=in_t, out_t=out_t, acc_t=acc_t, local_bound=local_bound,
                bound_inputs=bound_inputs if fp else None, has_bias=True)


MATMUL_ROWS = [("fp16", "fp16"), ("fp16", "fp32"), ("fp32", "fp32"), ("i8", "i32"),
               ("bf16", "fp32"), ("fp8e4m3", "fp16"), ("fp8e5m2", "fp16"), ("i16", "i48")]


def matmul_case(rng, row, idx: int) -> Case:
    in_t, out_t = row
    n, h, c, w = (int(rng.integers(1, 4)) for _ in range(4))
    c = int(rng.integers(1, 9))
    a, b = data(rng, (n, h, c), in_t), data(rng, (n, c, w), in_t)
    azp, bzp = _zp(rng, in_t), _zp(rng, in_t)
    types = f"({ttype((n, h, c), in_t)}, {ttype((n, c, w), in_t)}, {ttype((1,), in_t)}, {ttype((1,), in_t)})"
    body = [const("azp", azp, in_t), const("bzp", bzp, in_t),
            f"%r = tosa.matmul %a, %b, %azp, %bzp : {types} -> {ttype((n, h, w), out_t)}"]
    mlir = func([("a", (n, h, c), in_t), ("b", (n, c, w), in_t)], body, [("r", (n, h, w), out_t)])
    fp = nx.is_floating_point(in_t)

    def bound_inputs(inputs, in_t=in_t):
        ai, bi = inputs  # MATMUL has no local_bound attribute: local_bound is true
        return [nx.round_to_nearest_float(_abs_in(in_t, ai, False), in_t),
                nx.round_to_nearest_float(_abs_in(in_t, bi, False), in_t)]

    return Case(f"matmul-{in_t}-out{out_t}-{idx}", mlir, [a, b], "dot" if fp else "exact", ks=c,
                in_t=in_t, out_t=out_t, acc_t=out_t, local_bound=True,
                bound_inputs=bound_inputs if fp else None)


# ----------------------------------------------------------------------------- pooling

AVG_ROWS = [("fp16", "fp16"), ("fp16", "fp32"), ("fp32", "fp32"), ("i8", "i32"), ("bf16", "fp32"),
            ("fp8e4m3", "fp16"), ("fp8e5m2", "fp16"), ("i16", "i32")]
MAX_ROWS = ["fp16", "fp32", "i8", "bf16", "fp8e4m3", "fp8e5m2", "i16"]


def _pool_geometry(rng):
    while True:
        k = [int(rng.integers(1, 4)) for _ in range(2)]
        s = [int(rng.integers(1, 3)) for _ in range(2)]
        pads = [int(rng.integers(0, k[0])), int(rng.integers(0, k[0])),
                int(rng.integers(0, k[1])), int(rng.integers(0, k[1]))]
        outs = [int(rng.integers(1, 4)) for _ in range(2)]
        ins = [(outs[0] - 1) * s[0] + k[0] - pads[0] - pads[1], (outs[1] - 1) * s[1] + k[1] - pads[2] - pads[3]]
        if min(ins) >= 1:
            return k, s, pads, ins, outs


def avg_pool_case(rng, row, idx: int) -> Case:
    in_t, acc_t = row
    k, s, pads, ins, outs = _pool_geometry(rng)
    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    xs, os_ = (n, *ins, c), (n, *outs, c)
    x = data(rng, xs, in_t)
    izp, ozp = _zp(rng, in_t), _zp(rng, in_t)
    attrs = f"acc_type = {MLIR_TYPE[acc_t]}, {a64('kernel', k)}, {a64('pad', pads)}, {a64('stride', s)}"
    types = f"({ttype(xs, in_t)}, {ttype((1,), in_t)}, {ttype((1,), in_t)})"
    body = [const("izp", izp, in_t), const("ozp", ozp, in_t),
            f"%r = tosa.avg_pool2d %x, %izp, %ozp {{{attrs}}} : {types} -> {ttype(os_, in_t)}"]
    mlir = func([("x", xs, in_t)], body, [("r", os_, in_t)])
    fp = nx.is_floating_point(in_t)

    def bound_inputs(inputs, in_t=in_t):  # the weight vector is 1/KS: |input| is the input
        return [nx.round_to_nearest_float(_abs_in(in_t, inputs[0], False), in_t)]

    return Case(f"avg_pool2d-{in_t}-acc{acc_t}-{idx}", mlir, [x], "dot" if fp else "exact",
                ks=k[0] * k[1], in_t=in_t, out_t=in_t, acc_t=acc_t, local_bound=True,
                bound_inputs=bound_inputs if fp else None)


def nan_attr(mode: str) -> str:
    return f"nan_mode = {mode}"


def max_pool_case(rng, t: str, mode: str, idx: int) -> Case:
    k, s, pads, ins, outs = _pool_geometry(rng)
    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    xs, os_ = (n, *ins, c), (n, *outs, c)
    x = data(rng, xs, t, specials=True)
    attrs = f"{a64('kernel', k)}, {nan_attr(mode)}, {a64('pad', pads)}, {a64('stride', s)}"
    body = [f"%r = tosa.max_pool2d %x {{{attrs}}} : ({ttype(xs, t)}) -> {ttype(os_, t)}"]
    mlir = func([("x", xs, t)], body, [("r", os_, t)])
    return Case(f"max_pool2d-{t}-{mode}-{idx}", mlir, [x], "exact_pm0")


def argmax_case(rng, t: str, mode: str, idx: int) -> Case:
    rank = int(rng.integers(1, 5))
    shape = tuple(int(rng.integers(1, 5)) for _ in range(rank))
    axis = int(rng.integers(0, rank))
    x = data(rng, shape, t, specials=True)
    if nx.is_floating_point(t) and x.size > 2 and rng.integers(0, 2):
        # repeated maxima, signed zeros and all-NaN rows
        flat = x.reshape(-1)
        flat[: flat.size // 2] = flat[0]
    oshape = shape[:axis] + shape[axis + 1:]
    body = [f"%r = tosa.argmax %x {{axis = {axis} : i32, {nan_attr(mode)}}} : ({ttype(shape, t)}) -> {ttype(oshape, 'i32')}"]
    mlir = func([("x", shape, t)], body, [("r", oshape, "i32")])
    return Case(f"argmax-{t}-{mode}-{idx}", mlir, [x], "exact")


# ----------------------------------------------------------------------------- gather/scatter/table

GS_ROWS = ["fp16", "fp32", "i16", "i32", "i8", "bf16", "fp8e4m3", "fp8e5m2"]


def gather_case(rng, t: str, idx: int) -> Case:
    n, k, c, w = (int(rng.integers(1, 5)) for _ in range(4))
    v = data(rng, (n, k, c), t, specials=True)
    ind = rng.integers(0, k, size=(n, w)).astype(np.int32)
    body = [f"%r = tosa.gather %v, %i : ({ttype((n, k, c), t)}, {ttype((n, w), 'i32')}) -> {ttype((n, w, c), t)}"]
    mlir = func([("v", (n, k, c), t), ("i", (n, w), "i32")], body, [("r", (n, w, c), t)])
    return Case(f"gather-{t}-{idx}", mlir, [v, ind], "exact")


def scatter_case(rng, t: str, idx: int) -> Case:
    n, k, c = (int(rng.integers(1, 5)) for _ in range(3))
    w = int(rng.integers(1, k + 1))
    vin = data(rng, (n, k, c), t, specials=True)
    ind = np.stack([rng.permutation(k)[:w] for _ in range(n)]).astype(np.int32)
    inp = data(rng, (n, w, c), t, specials=True)
    types = f"({ttype((n, k, c), t)}, {ttype((n, w), 'i32')}, {ttype((n, w, c), t)})"
    body = [f"%r = tosa.scatter %v, %i, %x : {types} -> {ttype((n, k, c), t)}"]
    mlir = func([("v", (n, k, c), t), ("i", (n, w), "i32"), ("x", (n, w, c), t)], body, [("r", (n, k, c), t)])
    return Case(f"scatter-{t}-{idx}", mlir, [vin, ind, inp], "exact")


def table_case(rng, t: str, idx: int) -> Case:
    shape = tuple(int(rng.integers(1, 6)) for _ in range(int(rng.integers(1, 4))))
    if t == "i8":
        tbl = ints(rng, (256,), "i8")
        x = ints(rng, shape, "i8")
        out_t = "i8"
    else:
        # slopes within int16 (REQUIRE): a random walk with steps in -16000..16000
        steps = rng.integers(-16000, 16001, size=513)
        tbl = np.clip(np.cumsum(steps) // 4, -32768, 32767).astype(np.int16)
        x = ints(rng, shape, "i16")
        out_t = "i32"
    body = [const_tensor("t", tbl, t),
            f"%r = tosa.table %x, %t : ({ttype(shape, t)}, {ttype(tbl.shape, t)}) -> {ttype(shape, out_t)}"]
    mlir = func([("x", shape, t)], body, [("r", shape, out_t)])
    return Case(f"table-{t}-{idx}", mlir, [x], "exact")


# ----------------------------------------------------------------------------- resize

RESIZE_ROWS = [("fp16", "BILINEAR", "fp16"), ("fp16", "NEAREST_NEIGHBOR", "fp16"),
               ("fp32", "BILINEAR", "fp32"), ("fp32", "NEAREST_NEIGHBOR", "fp32"),
               ("bf16", "BILINEAR", "bf16"), ("bf16", "NEAREST_NEIGHBOR", "bf16"),
               ("i8", "BILINEAR", "i32"), ("i8", "NEAREST_NEIGHBOR", "i8"),
               ("i16", "BILINEAR", "i48"), ("i16", "NEAREST_NEIGHBOR", "i16")]


def resize_case(rng, row, idx: int) -> Case:
    in_t, mode, out_t = row
    while True:
        ih, iw = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        syn, sxn = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        syd, sxd = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        if syd >= 16 * syn or sxd >= 16 * sxn:
            continue
        oy, ox = int(rng.integers(-syn, syn + 1)), int(rng.integers(-sxn, sxn + 1))
        # border making (I-1)*n - offset + border divisible by d
        ny = (ih - 1) * syn - oy
        by = -(ny % syd) + syd * int(rng.integers(0, 2))
        nx_ = (iw - 1) * sxn - ox
        bx = -(nx_ % sxd) + sxd * int(rng.integers(0, 2))
        if not (-16 * syn <= by < syn and -16 * sxn <= bx < sxn):
            continue
        oh, ow = (ny + by) // syd + 1, (nx_ + bx) // sxd + 1
        if 1 <= oh <= 24 and 1 <= ow <= 24:
            break
    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    xs, os_ = (n, ih, iw, c), (n, oh, ow, c)
    x = data(rng, xs, in_t, scale=8.0)
    body = [const_shape("s", [syn, syd, sxn, sxd]), const_shape("o", [oy, ox]), const_shape("bd", [by, bx]),
            f"%r = tosa.resize %x, %s, %o, %bd {{mode = {mode}}} : ({ttype(xs, in_t)}, !tosa.shape<4>, "
            f"!tosa.shape<2>, !tosa.shape<2>) -> {ttype(os_, out_t)}"]
    mlir = func([("x", xs, in_t)], body, [("r", os_, out_t)])
    check = "resize" if nx.is_floating_point(in_t) and mode == "BILINEAR" else "exact"
    return Case(f"resize-{in_t}-{mode}-{idx}", mlir, [x], check, in_t=in_t, out_t=out_t)


# ----------------------------------------------------------------------------- fft

def fft_case(rng, inverse: bool, idx: int) -> Case:
    n, h, w = int(rng.integers(1, 3)), 2 ** int(rng.integers(0, 4)), 2 ** int(rng.integers(0, 4))
    s = (n, h, w)
    re, im = floats(rng, s, "fp32", scale=4.0), floats(rng, s, "fp32", scale=4.0)
    ty = ttype(s, "fp32")
    body = [f"%r, %i = tosa.fft2d %a, %b {{inverse = {str(inverse).lower()}}} : ({ty}, {ty}) -> ({ty}, {ty})"]
    mlir = func([("a", s, "fp32"), ("b", s, "fp32")], body, [("r", s, "fp32"), ("i", s, "fp32")])

    def bound_inputs(inputs):  # local_bound false: every input set to the global max of |input|
        v = max(_abs_in("fp32", inputs[0], True).max(), _abs_in("fp32", inputs[1], True).max())
        return [np.full(s, v, np.float32), np.full(s, v, np.float32)]

    return Case(f"fft2d-{'inv' if inverse else 'fwd'}-{idx}", mlir, [re, im], "fft", ks=2 * h * w,
                in_t="fp32", out_t="fp32", acc_t="fp32", bound_inputs=bound_inputs)


def rfft_case(rng, idx: int) -> Case:
    n, h, w = int(rng.integers(1, 3)), 2 ** int(rng.integers(0, 4)), 2 ** int(rng.integers(0, 4))
    s, os_ = (n, h, w), (n, h, w // 2 + 1)
    re = floats(rng, s, "fp32", scale=4.0)
    body = [f"%r, %i = tosa.rfft2d %a : ({ttype(s, 'fp32')}) -> ({ttype(os_, 'fp32')}, {ttype(os_, 'fp32')})"]
    mlir = func([("a", s, "fp32")], body, [("r", os_, "fp32"), ("i", os_, "fp32")])

    def bound_inputs(inputs):
        return [np.full(s, _abs_in("fp32", inputs[0], True).max(), np.float32)]

    return Case(f"rfft2d-{idx}", mlir, [re], "fft", ks=h * w, in_t="fp32", out_t="fp32",
                acc_t="fp32", bound_inputs=bound_inputs)


# ----------------------------------------------------------------------------- all

def all_cases(seed: int = 20250, repeats: int = 2) -> list[Case]:
    rng = np.random.default_rng(seed)
    cases: list[Case] = []
    for i in range(repeats):
        for op in ("conv2d", "conv3d", "depthwise_conv2d", "transpose_conv2d"):
            for row in CONV_ROWS:
                if op == "depthwise_conv2d" or True:
                    cases.append(conv_case(rng, op, row, i))
        cases += [matmul_case(rng, row, i) for row in MATMUL_ROWS]
        cases += [avg_pool_case(rng, row, i) for row in AVG_ROWS]
        for mode in ("PROPAGATE", "IGNORE"):
            cases += [max_pool_case(rng, t, mode, i) for t in MAX_ROWS]
            cases += [argmax_case(rng, t, mode, i) for t in MAX_ROWS]
        cases += [gather_case(rng, t, i) for t in GS_ROWS]
        cases += [scatter_case(rng, t, i) for t in GS_ROWS]
        cases += [table_case(rng, t, i) for t in ("i8", "i16")]
        cases += [resize_case(rng, row, i) for row in RESIZE_ROWS]
        cases += [fft_case(rng, inv, i) for inv in (False, True)]
        cases.append(rfft_case(rng, i))
    return cases
