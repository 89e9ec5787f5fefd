"""One TOSA mapping per standard-library operator. Each reads the operator instance's bound
symbols (the definition's own @using values such as `paddings`/`offset` of nn.conv, `px`/`py`
of the broadcasting alignment) so the mapping computes what the definition computes.

    mapping(em, env, inputs, out_types) -> list[Value]
"""

from __future__ import annotations

import math

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.to_tosa.emit import Emitter, Value, as_nhwc

MAPPINGS: dict[str, callable] = {}
F32_MAX = 3.4028234663852886e38


class Unsupported(Exception):
    """This instance has no TOSA form (e.g. an attribute value TOSA cannot express)."""


def mapping(*names, how: str):
    def deco(f):
        for n in names:
            MAPPINGS[n] = f
            f.how = how
        return f
    return deco


def _out(t):
    return t.shape, t.dtype


def broadcast(p, q):
    """One extent of a broadcast result; None (`?`) where a run-time extent may be either."""
    if p == 1 or p == q:
        return q
    if q == 1:
        return p
    return p if q is None else q if p is None else max(p, q)


def no_runtime_extent(x: Value, op: str, why: str):
    """A located refusal: `op` cannot take x's `?` extent (its TOSA operands are compile-time)."""
    if None in x.shape:
        raise NnefError(None, f"'{op}' cannot take a tensor with an extent known only at run time ({x.type}): {why}")


# ------------------------------------------------------------ elementwise

UNARY = {
    "math.iden": "tosa.identity", "math.rcp": "tosa.reciprocal", "math.rsqrt": "tosa.rsqrt",
    "math.exp": "tosa.exp", "math.log": "tosa.log", "math.sin": "tosa.sin", "math.cos": "tosa.cos",
    "math.tanh": "tosa.tanh", "math.abs": "tosa.abs", "math.floor": "tosa.floor", "math.ceil": "tosa.ceil",
    "math.not": "tosa.logical_not", "nn.sigmoid": "tosa.sigmoid", "nn.erf": "tosa.erf",
}


def _unary(name):
    def f(em: Emitter, env, ins, outs):
        return [em.op(UNARY[name], [ins[0]], *_out(outs[0]))]
    return f


for _n, _tosa in UNARY.items():
    mapping(_n, how=_tosa.replace("tosa.", "TOSA "))(_unary(_n))


@mapping("math.neg", how="TOSA negate")
def _neg(em, env, ins, outs):
    x = ins[0]
    return [em.op("tosa.negate", [x, em.zp(x.dtype), em.zp(x.dtype)], *_out(outs[0]))]


@mapping("math.sqr", how="TOSA mul(x, x)")
def _sqr(em, env, ins, outs):
    return [_mul(em, ins[0], ins[0], outs[0])]


@mapping("math.sqrt", how="TOSA pow(x, 0.5)")
def _sqrt(em, env, ins, outs):
    x = ins[0]
    half = em.align(em.const([0.5], [1], "real"), len(x.shape), 0) if x.shape else em.const(0.5, [], "real")
    return [em.op("tosa.pow", [x, half], *_out(outs[0]))]


def _shift(em):
    """The i8 shift operand of tosa.mul (0 for floats)."""
    ssa = em.fresh()
    em.lines.append(f'    {ssa} = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : () -> tensor<1xi8>')
    return Value(ssa, [1], "int", "tensor<1xi8>")


def _mul(em, a, b, out):
    return em.op("tosa.mul", [a, b, _shift(em)], *_out(out))


def _aligned(em, env, ins, out_rank):
    """Both operands reshaped to the output rank per the definition's alignment px/py."""
    x, y = ins
    if x.dtype != y.dtype and {x.dtype, y.dtype} == {"int", "real"}:
        # mixed operands of a generic <X,Y> comparison: compare as real
        x, y = (em.op("tosa.cast", [v], v.shape, "real") if v.dtype == "int" else v for v in (x, y))
    return em.align(x, out_rank, env["px"]), em.align(y, out_rank, env["py"])


BINARY = {
    "math.add": "tosa.add", "math.sub": "tosa.sub", "math.min": "tosa.minimum", "math.max": "tosa.maximum",
    "math.pow": "tosa.pow", "math.gt": "tosa.greater", "math.ge": "tosa.greater_equal",
    "math.eq": "tosa.equal", "math.and": "tosa.logical_and", "math.or": "tosa.logical_or",
    "math.xor": "tosa.logical_xor",
}
SWAPPED = {"math.lt": "tosa.greater", "math.le": "tosa.greater_equal"}


def _binary(name):
    def f(em: Emitter, env, ins, outs):
        rank = len(outs[0].shape)
        x, y = _aligned(em, env, ins, rank)
        if name == "math.mul":
            return [_mul(em, x, y, outs[0])]
        if name == "math.div":
            if x.dtype == "int":
                return [em.op("tosa.intdiv", [x, y], *_out(outs[0]))]
            r = em.op("tosa.reciprocal", [y], y.shape, y.dtype)
            return [_mul(em, x, r, outs[0])]
        if name == "math.ne":
            eq = em.op("tosa.equal", [x, y], *_out(outs[0]))
            return [em.op("tosa.logical_not", [eq], *_out(outs[0]))]
        if name in SWAPPED:
            return [em.op(SWAPPED[name], [y, x], *_out(outs[0]))]
        return [em.op(BINARY[name], [x, y], *_out(outs[0]))]
    return f


for _n in list(BINARY) + list(SWAPPED) + ["math.mul", "math.div", "math.ne"]:
    how = {"math.mul": "TOSA mul", "math.div": "TOSA reciprocal+mul (real) / intdiv (int)",
           "math.ne": "TOSA equal+logical_not"}.get(_n) or (BINARY.get(_n) or SWAPPED[_n] + " (swapped)").replace(
        "tosa.", "TOSA ")
    mapping(_n, how=how + ", reshapes for alignment")(_binary(_n))


@mapping("math.select", how="TOSA select, reshapes for alignment")
def _select(em, env, ins, outs):
    c, x, y = ins
    rank = len(outs[0].shape)
    # the definition's alignment for select: right-aligned by default
    c = em.align(c, rank, rank - len(c.shape))
    x = em.align(x, rank, rank - len(x.shape))
    y = em.align(y, rank, rank - len(y.shape))
    return [em.op("tosa.select", [c, x, y], *_out(outs[0]))]


@mapping("nn.relu", how="TOSA clamp (alpha: maximum(x, alpha*x))")
def _relu(em, env, ins, outs):
    x = ins[0]
    alpha, mx = env.get("alpha"), env.get("max")
    if alpha:
        a = em.align(em.const([alpha], [1], "real"), len(x.shape), 0) if x.shape else em.const(alpha, [], "real")
        ax = _mul(em, x, a, outs[0])
        y = em.op("tosa.maximum", [x, ax], *_out(outs[0]))
        if mx is not None:
            y = em.op("tosa.clamp", [y], *_out(outs[0]), f"min_val = {-F32_MAX!r} : f32, max_val = {float(mx)!r} : f32")
        return [y]
    hi = F32_MAX if mx is None else float(mx)
    return [em.op("tosa.clamp", [x], *_out(outs[0]), f"min_val = 0.0 : f32, max_val = {hi!r} : f32")]


# ------------------------------------------------------------ reductions

REDUCE = {"math.sum_reduce": "tosa.reduce_sum", "math.max_reduce": "tosa.reduce_max",
          "math.min_reduce": "tosa.reduce_min", "math.prod_reduce": "tosa.reduce_product",
          "math.any_reduce": "tosa.reduce_any", "math.all_reduce": "tosa.reduce_all"}


def _reduce(name):
    def f(em, env, ins, outs):
        x = ins[0]
        d = len(x.shape)
        axes = sorted(a + d if a < 0 else a for a in env["axes"])
        shape = list(x.shape)
        for a in axes:
            shape[a] = 1
            x = em.op(REDUCE[name], [x], shape, x.dtype, f"axis = {a} : i32")
        return [em.reshape(x, outs[0].shape)]
    return f


for _n, _tosa in REDUCE.items():
    mapping(_n, how=_tosa.replace("tosa.", "TOSA ") + " per axis (+reshape to squeeze)")(_reduce(_n))


# ------------------------------------------------------------ linear algebra and nn

@mapping("linalg.matmul", how="TOSA matmul (rank 2 and batched rank 3), transposes for transA/transB")
def _matmul(em, env, ins, outs):
    a, b = ins[0], ins[1]
    if len(ins) > 2 and ins[2] is not None:
        raise Unsupported("matmul with an initial value C")
    if len(a.shape) != len(b.shape) or len(a.shape) not in (2, 3):
        raise Unsupported("matmul of ranks other than 2 or 3 (or broadcast batches)")
    r = len(a.shape)
    if env.get("transA"):
        a = em.transpose(a, list(range(r - 2)) + [r - 1, r - 2])
    if env.get("transB"):
        b = em.transpose(b, list(range(r - 2)) + [r - 1, r - 2])
    if r == 2:
        a, b = em.reshape(a, [1] + a.shape), em.reshape(b, [1] + b.shape)
    if a.shape[0] != b.shape[0]:
        raise Unsupported("broadcast batch matmul")
    out = [a.shape[0], a.shape[1], b.shape[2]]
    y = em.op("tosa.matmul", [a, b, em.zp(a.dtype), em.zp(b.dtype)], out, a.dtype)
    return [em.reshape(y, outs[0].shape)]


@mapping("nn.linear", how="TOSA transpose+matmul+add")
def _linear(em, env, ins, outs):
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    b, c = x.shape
    n = w.shape[0]
    wt = em.transpose(w, [1, 0])
    acc, _ = em.acc(x)      # quantized operands (to_tosa/integer.py): i32 accumulators, their zero points
    y = em.op("tosa.matmul", [em.reshape(x, [1, b, c]), em.reshape(wt, [1, c, n]), em.zp_of(x), em.zp_of(w)],
              [1, b, n], acc)
    y = em.reshape(y, [b, n])
    if bias is not None:
        y = em.op("tosa.add", [y, em.reshape(bias, [1, n])], [b, n], acc)
    return [y]


def _pads(env, k):
    paddings = env["paddings"]
    offset = env.get("offset")
    if offset is None:
        # avg_pool's own @using stops at 'paddings'; sum_pool (which it composes) defines
        # offset = padding[:k] ?? (padding_align == 'UPPER' ? paddings / 2 : paddings \ 2)
        padding = env.get("padding")
        if padding is not None:
            offset = padding[:k]
        elif env.get("padding_align", "UPPER") == "UPPER":
            offset = [p // 2 for p in paddings]
        else:
            offset = [-((-p) // 2) for p in paddings]
    before = offset if isinstance(offset, list) else [offset] * k
    after = [p - o for p, o in zip(paddings, before)]
    return before, after


def _crop(em, x, axes, before, after):
    """Negative paddings (the definitions' floor-mode 'same' padding can be -1) crop the input:
    a TOSA slice, leaving the non-negative paddings for the operator."""
    start = [0] * len(x.shape)
    size = list(x.shape)
    for a, b, e in zip(axes, before, after):
        if b < 0:
            start[a] -= b
            size[a] += b
        if e < 0:
            size[a] += e
    if start != [0] * len(x.shape) or size != x.shape:
        x = em.op("tosa.slice", [x, em.shape(start), em.shape(size)], size, x.dtype)
    return x, [max(b, 0) for b in before], [max(e, 0) for e in after]


# filter layouts of the definition -> the permutation to NCX [N, C/groups, spatial...]
FILTER_TO_NCX = {"NCX": lambda d: list(range(d + 2)),
                 "NXC": lambda d: [0, d + 1] + list(range(1, d + 1)),
                 "CXN": lambda d: [d + 1, 0] + list(range(1, d + 1)),
                 "XCN": lambda d: [d + 1, d] + list(range(d))}


def _fit(sizes, before, out_sizes, eff, stride, after=None):
    """End paddings that make TOSA's output size (padded extent - kernel) / stride + 1 equal the
    definition's: floor mode drops rows no output reads (negative: _crop cuts them), ceil mode
    pads the last partial window (its out-of-range taps are skipped by the definition's
    bounds-checked access, which zero padding / TOSA's pooling padding reproduce). A run-time
    extent (None) keeps the definition's own end padding `after`: with stride 1 both sizes are
    n + paddings - kernel + 1; with a larger stride TOSA's idiv_check asks the division to be
    exact where the definition rounds, so that is refused."""
    out = []
    for k_, (n, b, o, k, s) in enumerate(zip(sizes, before, out_sizes, eff, stride)):
        if n is None:
            if s != 1 or after is None or not isinstance(after[k_], int):
                raise NnefError(None, f"a spatial extent known only at run time with stride {s}: TOSA's "
                                "output-size check (idiv_check) needs an exact division the definition does "
                                "not promise; only stride 1 is imported")
            out.append(after[k_])
        else:
            out.append((o - 1) * s + k - n - b)
    return out


@mapping("nn.conv", how="TOSA conv2d / depthwise_conv2d / conv3d (NCX and NXC data, NCX/NXC/CXN/XCN filters) with layout transposes")
def _conv(em, env, ins, outs):
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    data_format = env.get("data_format", "NCX")
    filter_format = env.get("filter_format", "NCX")
    if data_format not in ("NCX", "NXC") or filter_format not in FILTER_TO_NCX:
        raise Unsupported(f"conv with data format {data_format}")
    d = len(x.shape) - 2
    if d not in (2, 3):
        raise Unsupported(f"{d}-d convolution")
    w = em.transpose(w, FILTER_TO_NCX[filter_format](d))
    to_last = [0] + list(range(2, d + 2)) + [1]
    to_first = [0, d + 1] + list(range(1, d + 1))
    xt = em.transpose(x, to_last) if data_format == "NCX" else x
    out_nxc = [outs[0].shape[i] for i in to_last] if data_format == "NCX" else list(outs[0].shape)
    g = env["g"]
    n = w.shape[0]
    ic = xt.shape[-1]
    stride, dil = env["stride"], env["dilation"]
    before, after_def = _pads(env, d)
    eff = [(k - 1) * dl + 1 for k, dl in zip(w.shape[2:], dil)]
    after = _fit(xt.shape[1:-1], before, out_nxc[1:-1], eff, stride, after_def)
    xt, before, after = _crop(em, xt, list(range(1, d + 1)), before, after)
    pad = [v for pair in zip(before, after) for v in pair]
    acc, acc_type = em.acc(x)      # quantized operands (to_tosa/integer.py): i32 accumulators
    if bias is None:
        bias = em.const([0], [1], acc)
    if g == 1:
        wt = em.transpose(w, to_last)          # O,I,spatial -> O,spatial,I
        name = "tosa.conv2d" if d == 2 else "tosa.conv3d"
    elif g == ic and w.shape[1] == 1 and d == 2:
        m = n // g
        # output channel c*m + mi: O=(C*M),1,H,W -> H,W,C,M
        wt = em.transpose(em.reshape(w, [ic, m] + w.shape[2:]), [2, 3, 0, 1])
        name = "tosa.depthwise_conv2d"
    else:
        raise Unsupported("grouped convolution (groups other than 1 or depthwise)")
    arr = lambda v: f"array<i64: {', '.join(str(int(i)) for i in v)}>"
    y = em.op(name, [xt, wt, bias, em.zp_of(xt), em.zp_of(wt)], out_nxc, acc,
              f"acc_type = {acc_type}, dilation = {arr(dil)}, pad = {arr(pad)}, stride = {arr(stride)}")
    return [em.transpose(y, to_first) if data_format == "NCX" else y]


def _pool(name):
    def f(em, env, ins, outs):
        x = ins[0]
        dims = len(x.shape)
        axes = [a + dims if a < 0 else a for a in env["axes"]]
        if len(axes) not in (1, 2):
            raise Unsupported("pooling over more than two axes")
        if any(v != 1 for v in env["dilation"]):
            raise Unsupported("dilated pooling")
        size, stride = list(env["size"]), list(env["stride"])
        # NCHW / NHWC images keep the transposes export.py recognises; any other axes are
        # folded into TOSA's N (as_nhwc)
        if dims == 4 and axes in ([2, 3], [1, 2]):
            nchw = axes == [2, 3]
            xt = em.transpose(x, [0, 2, 3, 1]) if nchw else x
            out = [outs[0].shape[i] for i in (0, 2, 3, 1)] if nchw else list(outs[0].shape)
            back = (lambda y: em.transpose(y, [0, 3, 1, 2])) if nchw else (lambda y: y)
        else:
            xt, unview = as_nhwc(em, x, axes)
            sizes = [outs[0].shape[a] for a in axes] + [1] * (2 - len(axes))
            out = [xt.shape[0]] + sizes + [1]
            size, stride = size + [1] * (2 - len(axes)), stride + [1] * (2 - len(axes))
            back = unview
        before, after_def = _pads(env, len(axes))
        before, after_def = before + [0] * (2 - len(axes)), after_def + [0] * (2 - len(axes))
        after = _fit(xt.shape[1:3], before, out[1:3], size, stride, after_def)
        xt, before, after = _crop(em, xt, [1, 2], before, after)
        # the border counts in the average (or a sum): zero padding made explicit, so
        # avg_pool2d divides by the whole window
        border_counts = name != "nn.max_pool" and not env.get("ignore_border", True) or name == "nn.sum_pool"
        if border_counts and any(before + after):
            pads = [0, 0] + [v for pair in zip(before, after) for v in pair] + [0, 0]
            padded = [None if n is None else n + b + e for n, b, e in zip(xt.shape[1:3], before, after)]
            xt = em.op("tosa.pad", [xt, em.shape(pads), em.const([0.0], [1], "real")],
                       [xt.shape[0]] + padded + [xt.shape[3]], "real")
            before, after = [0, 0], [0, 0]
        pad = [v for pair in zip(before, after) for v in pair]
        arr = lambda v: f"array<i64: {', '.join(str(int(i)) for i in v)}>"
        attrs = f"kernel = {arr(size)}, pad = {arr(pad)}, stride = {arr(stride)}"
        if name == "nn.max_pool":
            y = em.op("tosa.max_pool2d", [xt], out, xt.dtype, attrs)
        else:
            # quantized (to_tosa/integer.py, the same scale in and out): the stored values
            # are averaged with zero points 0, as TFLite does (the zero point cancels)
            y = em.op("tosa.avg_pool2d", [xt, em.zp(xt.dtype), em.zp(xt.dtype)], out, xt.dtype,
                      f"acc_type = {em.acc(xt)[1]}, " + attrs)
            if name == "nn.sum_pool":
                count = em.const([float(math.prod(size))], [1, 1, 1, 1], "real")
                y = _mul(em, y, count, Type(out, "real"))
        return [back(y)]
    return f


class Type:
    """An output type for helpers that take the definition's (shape, dtype)."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = list(shape), dtype


mapping("nn.max_pool", how="TOSA max_pool2d (any one or two axes; NCHW/NHWC transposes)")(_pool("nn.max_pool"))
mapping("nn.avg_pool", how="TOSA avg_pool2d (any one or two axes; the border counted: explicit zero pad)")(
    _pool("nn.avg_pool"))
mapping("nn.sum_pool", how="TOSA pad+avg_pool2d times the window size")(_pool("nn.sum_pool"))


# ------------------------------------------------------------ layout

def _transpose(em, env, ins, outs):
    x = ins[0]
    d = len(x.shape)
    axis = env["axis"]
    perm = list(range(axis)) + [axis + p for p in env["perm"]]
    perm += list(range(len(perm), d))
    return [em.transpose(x, perm)]


def _reshape_like(em, env, ins, outs):
    return [em.reshape(ins[0], outs[0].shape)]


MAPPINGS["layout.transpose"] = _transpose
_transpose.how = "TOSA transpose"
for _n in ("layout.flatten", "layout.unflatten", "layout.squeeze", "layout.unsqueeze", "layout.reshape"):
    MAPPINGS[_n] = _reshape_like
_reshape_like.how = "TOSA reshape"


@mapping("layout.concat", how="TOSA concat")
def _concat(em, env, ins, outs):
    xs = ins[0]
    axis = env["axis"]
    d = len(outs[0].shape)
    axis = axis + d if axis < 0 else axis
    return [em.op("tosa.concat", list(xs), *_out(outs[0]), f"axis = {axis} : i32")]


@mapping("layout.stack", how="TOSA reshape (a unit axis) of each item + concat")
def _stack(em, env, ins, outs):
    """The definition stacks at `axis` (of the inputs' rank when negative; with `squeeze` the
    items already have the unit axis there): each item reshaped to the output's extents with 1
    at the stacking position, then concatenated along it."""
    shape = outs[0].shape
    axis = env["axis"]
    axis = axis + env["rank"] if axis < 0 else axis
    unit = shape[:axis] + [1] + shape[axis + 1:]
    items = [em.reshape(x, unit) for x in ins[0]]
    if len(items) == 1:
        return items
    return [em.op("tosa.concat", items, *_out(outs[0]), f"axis = {axis} : i32")]


@mapping("layout.slice", how="TOSA slice (stride 1); stride -1: slice + reverse")
def _slice(em, env, ins, outs):
    """Stride 1 reads input[begin + si]; stride -1 (the draft's bounds: `end` clamped to
    [-1, s], os = begin - end) reads input[begin - si], the reverse of the slice from end + 1
    to begin: a TOSA SLICE (left out when it keeps everything) and a REVERSE per such axis."""
    x = ins[0]
    d = len(x.shape)
    if any(s not in (1, -1) for s in env["stride"]):
        raise Unsupported("strided slice")
    no_runtime_extent(x, "layout.slice", "TOSA 1.0.1's SLICE takes start and size as compile-time shapes, "
                      "so the size of every axis must be known")
    start = [0] * d
    size = list(x.shape)
    reversed_axes = []
    for a, b, e, st in zip(env["axes"], env["begin"], env["end"], env["stride"]):
        a = a + d if a < 0 else a
        n = x.shape[a]
        if st == -1:
            if not 0 <= b < n:
                raise Unsupported("a reversed slice beginning outside the input")
            e = max(-1, min(n, e))
            start[a], size[a] = e + 1, max(0, b - e)
            reversed_axes.append(a)
            continue
        b = max(0, min(n, b + n if b < 0 else b))
        e = max(0, min(n, e + n if e < 0 else e))
        start[a], size[a] = b, max(0, e - b)
    if size != outs[0].shape:
        raise Unsupported("slice bounds the mapping reads differently from the definition")
    if not reversed_axes:
        return [em.op("tosa.slice", [x, em.shape(start), em.shape(size)], *_out(outs[0]))]
    y = x
    if size != list(x.shape):
        y = em.op("tosa.slice", [x, em.shape(start), em.shape(size)], size, x.dtype)
    for a in sorted(set(reversed_axes)):
        y = em.op("tosa.reverse", [y], size, x.dtype, f"axis = {a} : i32")
    return [y]


@mapping("layout.pad", how="TOSA pad (CONSTANT); slices, reverses / tiles and concats (REFLECT, SYMMETRIC, "
         "REPLICATE)")
def _pad(em, env, ins, outs):
    x = ins[0]
    if env["method"] != "CONSTANT":
        return [_pad_edges(em, x, env["method"], env["before"], env["after"])]
    value = ins[1] if len(ins) > 1 and ins[1] is not None else None
    pads = [v for pair in zip(env["before"], env["after"]) for v in pair]
    if value is None:
        value = em.const([0], [1], x.dtype)
    else:
        value = em.reshape(value, [1])
    return [em.op("tosa.pad", [x, em.shape(pads), value], *_out(outs[0]))]


def _pad_edges(em, x, method, before, after):
    """Axis by axis: the definition reads input[-zi] / input[2(s-1) - zi] (REFLECT),
    input[-zi-1] / input[2(s-1) - zi + 1] (SYMMETRIC), input[0] / input[s-1] (REPLICATE) outside;
    beyond one reflection the definition reads out of range (Unsupported)."""
    def piece(v, axis, start, size, reverse, repeat=1):
        shape = list(v.shape)
        shape[axis] = size
        first = [0] * len(shape)
        first[axis] = start
        y = em.op("tosa.slice", [v, em.shape(first), em.shape(shape)], shape, v.dtype)
        if reverse:
            y = em.op("tosa.reverse", [y], shape, v.dtype, f"axis = {axis} : i32")
        if repeat > 1:
            mult = [1] * len(shape)
            mult[axis] = repeat
            shape[axis] *= repeat
            y = em.op("tosa.tile", [y, em.shape(mult)], shape, v.dtype)
        return y
    for axis, (b, a) in enumerate(zip(before, after)):
        if not b and not a:
            continue
        s = x.shape[axis]
        limit = s - 1 if method == "REFLECT" else s
        if b > limit or a > limit:
            raise Unsupported(f"{method} padding beyond the input's extent")
        parts = []
        if b:
            parts.append(piece(x, axis, 1, b, True) if method == "REFLECT" else
                         piece(x, axis, 0, b, True) if method == "SYMMETRIC" else piece(x, axis, 0, 1, False, b))
        parts.append(x)
        if a:
            parts.append(piece(x, axis, s - 1 - a, a, True) if method == "REFLECT" else
                         piece(x, axis, s - a, a, True) if method == "SYMMETRIC" else piece(x, axis, s - 1, 1, False, a))
        shape = list(x.shape)
        shape[axis] += a + b
        x = em.op("tosa.concat", parts, shape, x.dtype, f"axis = {axis} : i32")
    return x


@mapping("math.clamp", how="TOSA maximum+minimum, reshapes for alignment")
def _clamp(em, env, ins, outs):
    x, a, b = ins
    rank = len(outs[0].shape)
    x, a, b = em.align(x, rank, env["px"]), em.align(a, rank, env["pa"]), em.align(b, rank, env["pb"])
    lo = em.op("tosa.maximum", [x, a], [broadcast(p, q) for p, q in zip(x.shape, a.shape)], x.dtype)
    return [em.op("tosa.minimum", [lo, b], *_out(outs[0]))]


@mapping("layout.cast", how="TOSA cast (real->int truncates: floor/ceil by sign first; ->bool: != 0)")
def _cast(em, env, ins, outs):
    x = ins[0]
    to = outs[0].dtype
    if to == x.dtype:
        return [em.op("tosa.identity", [x], *_out(outs[0]))]
    if to == "bool":
        zero = em.align(em.const([0], [1], x.dtype), len(x.shape), 0) if x.shape else em.const(0, [], x.dtype)
        eq = em.op("tosa.equal", [x, zero], x.shape, "bool")
        return [em.op("tosa.logical_not", [eq], *_out(outs[0]))]
    if to == "int" and x.dtype == "real":
        # int(x) truncates toward zero (TOSA's cast rounds to nearest)
        zero = em.align(em.const([0.0], [1], "real"), len(x.shape), 0) if x.shape else em.const(0.0, [], "real")
        neg = em.op("tosa.greater", [zero, x], x.shape, "bool")
        x = em.op("tosa.select", [neg, em.op("tosa.ceil", [x], x.shape, "real"),
                                  em.op("tosa.floor", [x], x.shape, "real")], x.shape, "real")
    return [em.op("tosa.cast", [x], *_out(outs[0]))]


@mapping("layout.tile", how="TOSA tile")
def _tile(em, env, ins, outs):
    x = ins[0]
    d = len(x.shape)
    mult = [1] * d
    for a, r in zip(env["axes"], env["repeats"]):
        mult[a + d if a < 0 else a] = r
    return [em.op("tosa.tile", [x, em.shape(mult)], *_out(outs[0]))]


def _arg(kind):
    def f(em, env, ins, outs):
        x = ins[0]
        d = len(x.shape)
        axis = env["axis"] + d if env["axis"] < 0 else env["axis"]
        if kind == "min":     # first minimum = first maximum of the negation
            x = em.op("tosa.negate", [x, em.zp(x.dtype), em.zp(x.dtype)], x.shape, x.dtype)
        shape = x.shape[:axis] + x.shape[axis + 1:]
        y = em.op("tosa.argmax", [x], shape, "int", f"axis = {axis} : i32")
        return [em.reshape(y, outs[0].shape)]
    return f


mapping("math.argmax", how="TOSA argmax (+reshape to keep the axis)")(_arg("max"))
mapping("math.argmin", how="TOSA negate+argmax (+reshape)")(_arg("min"))
