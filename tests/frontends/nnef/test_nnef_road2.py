"""Road 2 for the formulas with computed indices (to_linalg/computed.py): image.nearest_resize,
image.linear_resize (rounded reals), gather_nd / scatter_nd (packs of indices read from a
tensor), compiled from the library's @lower (`lower_all=True`) and run by our interpreter,
against onnxruntime's Resize / GatherND / ScatterND (the same operators in ONNX) and numpy
written from the draft's formulas (chapter 4)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_nnef_road1_refs import _coords, linear_ref  # numpy from the draft's formulas

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(216)
LOCATED = r"^\S+:\d+:\d+: error: "


def graph(inputs: str, body: str, imports="image") -> str:
    return (f"import {imports};\ngraph G {{\n @input {{ {inputs} }}\n @output {{ y: real; }}\n"
            f" @compose {{ {body} }}\n}}\n")


def road2(src, *arrays):
    module = import_nnef(src, lower_all=True)
    names = {o.name for o in module.walk()}
    assert "linalg.generic" in names or "scf.for" in names
    assert not any(n.startswith("tosa.") and n not in ("tosa.const", "tosa.const_shape", "tosa.reshape", "tosa.pad",
                                                     "tosa.gather", "tosa.tile", "tosa.slice", "tosa.concat") for n in names), names
    return run(module, list(arrays), entry="G")[0]


def onnx_run(node_kwargs: dict, inputs: dict, out_dtype=np.float32):
    """One ONNX node run by onnxruntime (the framework's own implementation as the oracle)."""
    pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    kinds = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64}
    ins = [helper.make_tensor_value_info(k, kinds[v.dtype], list(v.shape)) for k, v in inputs.items()]
    out = helper.make_tensor_value_info("y", kinds[np.dtype(out_dtype)], None)
    node = helper.make_node(inputs=list(inputs), outputs=["y"], **node_kwargs)
    model = helper.make_model(helper.make_graph([node], "g", ins, [out]),
                              opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, inputs)[0]


# ------------------------------------------------------------ resize

ONNX_TRANSFORM = {"SYMMETRIC": "half_pixel", "ASYMMETRIC": "asymmetric", "ALIGNED": "align_corners"}
ONNX_ROUNDING = {"FLOOR": "floor", "CEIL": "ceil", "ROUND_PREFER_FLOOR": "round_prefer_floor",
                 "ROUND_PREFER_CEIL": "round_prefer_ceil"}


def ort_resize(x, size, mode, transform, rounding=None):
    sizes = np.array(list(x.shape[:2]) + list(size), np.int64)
    kw = {"op_type": "Resize", "mode": mode, "coordinate_transformation_mode": ONNX_TRANSFORM[transform]}
    if rounding:
        kw["nearest_mode"] = ONNX_ROUNDING[rounding]
    onnx = pytest.importorskip("onnx")
    from onnx import helper, numpy_helper
    ort = pytest.importorskip("onnxruntime")
    g = helper.make_graph(
        [helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], **{k: v for k, v in kw.items() if k != "op_type"})],
        "g", [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
        initializer=[numpy_helper.from_array(sizes, "sizes")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def clamped_nearest_ref(x, axes, size, transform, rounding):
    """nearest_ref (the formula) with the index also clamped below: the definition's
    `int(r) <? s - 1` reads index -1 for FLOOR of a negative coordinate (undefined there);
    road 2 clamps such reads into the tensor, as ONNX's Resize and TOSA RESIZE do."""
    for a, n in zip(axes, size):
        s = x.shape[a]
        pick = {"FLOOR": math.floor, "CEIL": math.ceil, "ROUND_PREFER_FLOOR": lambda v: math.ceil(v - 0.5),
                "ROUND_PREFER_CEIL": lambda v: math.floor(v + 0.5)}[rounding]
        x = np.take(x, [max(min(int(pick(c)), s - 1), 0) for c in _coords(s, n, transform)], axis=a)
    return x


# sizes whose coordinates are never exact integers or halves (where float rounding in the
# formula or in onnxruntime could pick either neighbour), except ALIGNED's, whose scales
# (4/8, 3/6) are exact binary fractions
SIZES = {"SYMMETRIC": [8, 8], "ASYMMETRIC": [3, 3], "ALIGNED": [9, 7]}


@pytest.mark.parametrize("transform", ["SYMMETRIC", "ASYMMETRIC", "ALIGNED"])
@pytest.mark.parametrize("rounding", ["FLOOR", "CEIL", "ROUND_PREFER_FLOOR", "ROUND_PREFER_CEIL"])
def test_nearest_resize_from_its_formula(transform, rounding):
    x = RNG.standard_normal((1, 2, 5, 4)).astype(np.float32)
    size = SIZES[transform]
    y = road2(graph("x: real[1,2,5,4];", f"y = image.nearest_resize{{axes=[2,3], size={size}, "
                    f"coordinate_transform='{transform}', rounding_method='{rounding}'}}(x);"), x)
    np.testing.assert_array_equal(y, clamped_nearest_ref(x, [2, 3], size, transform, rounding))
    np.testing.assert_array_equal(y, ort_resize(x, size, "nearest", transform, rounding))


@pytest.mark.parametrize("transform", ["SYMMETRIC", "ASYMMETRIC", "ALIGNED"])
@pytest.mark.parametrize("size", [[7, 3], [3, 9]])
def test_linear_resize_from_its_formula(transform, size):
    """The definition ignores `antialias` in its formula: compared with ONNX's antialias=0."""
    x = RNG.standard_normal((1, 2, 5, 4)).astype(np.float32)
    y = road2(graph("x: real[1,2,5,4];", f"y = image.linear_resize{{axes=[2,3], size={size}, "
                    f"coordinate_transform='{transform}'}}(x);"), x)
    np.testing.assert_allclose(y, linear_ref(x, [2, 3], size, transform), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y, ort_resize(x, size, "linear", transform), rtol=1e-5, atol=1e-5)


def test_resize_of_a_middle_axis():
    x = RNG.standard_normal((3, 5, 2)).astype(np.float32)
    y = road2(graph("x: real[3,5,2];", "y = image.linear_resize{axes=[1], size=[8]}(x);"), x)
    np.testing.assert_allclose(y, linear_ref(x, [1], [8], "SYMMETRIC"), rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------ gather_nd / scatter_nd

def nd_indices(batch, shape, n_items):
    """`n_items` index tuples into `shape` per batch entry, distinct within each batch entry
    (ScatterND's results are undefined for repeated indices)."""
    flat = [RNG.permutation(math.prod(shape))[:n_items] for _ in range(math.prod(batch) or 1)]
    idx = np.stack(np.unravel_index(np.array(flat), shape), -1)
    return idx.reshape(tuple(batch) + (n_items, len(shape))).astype(np.int32)


@pytest.mark.parametrize("d", [1, 2])
def test_gather_nd_from_its_formula(d):
    data = RNG.standard_normal((4, 5, 3)).astype(np.float32)
    idx = np.stack([RNG.integers(0, n, (2, 3)) for n in data.shape[:d]], -1).astype(np.int32)
    y = road2(graph(f"x: real[4,5,3]; i: int[2,3,{d}];", "y = layout.gather_nd(x, i);", "layout"), data, idx)
    # output[zi.., ti..] = data[indices[zi.., :].., ti..]
    np.testing.assert_array_equal(y, data[tuple(np.moveaxis(idx, -1, 0))])
    np.testing.assert_array_equal(y, onnx_run({"op_type": "GatherND"}, {"x": data, "i": idx.astype(np.int64)}))


def test_gather_nd_batch_dims():
    data = RNG.standard_normal((2, 4, 5, 3)).astype(np.float32)
    idx = nd_indices((2,), (4, 5), 3)          # [2, 3, 2]
    y = road2(graph("x: real[2,4,5,3]; i: int[2,3,2];", "y = layout.gather_nd{batch_dims=1}(x, i);", "layout"),
              data, idx)
    ref = np.stack([data[b][tuple(np.moveaxis(idx[b], -1, 0))] for b in range(2)])
    np.testing.assert_array_equal(y, ref)
    np.testing.assert_array_equal(y, onnx_run({"op_type": "GatherND", "batch_dims": 1},
                                              {"x": data, "i": idx.astype(np.int64)}))


def scatter_nd_ref(data, idx, upd, batch_dims=0):
    """output = data; output[b.., indices[b.., z.., :].., t..] := updates[b.., z.., t..] (each
    write in loop order; writes outside the output skipped, see docs/nnef.md)."""
    out = data.copy()
    nb, d = batch_dims, idx.shape[-1]
    for pos in np.ndindex(*idx.shape[:-1]):
        target = tuple(pos[:nb]) + tuple(int(v) for v in idx[pos])
        if all(0 <= v < n for v, n in zip(target[nb:], data.shape[nb:nb + d])):
            out[target] = upd[pos]
    return out


@pytest.mark.parametrize("d", [1, 2])
def test_scatter_nd_from_its_formula(d):
    data = RNG.standard_normal((4, 5, 3)).astype(np.float32)
    idx = nd_indices((), data.shape[:d], 4).reshape(2, 2, d)
    upd = RNG.standard_normal((2, 2) + data.shape[d:]).astype(np.float32)
    t = ",".join(map(str, upd.shape))
    y = road2(graph(f"x: real[4,5,3]; i: int[2,2,{d}]; u: real[{t}];", "y = layout.scatter_nd(x, i, u);", "layout"),
              data, idx, upd)
    np.testing.assert_array_equal(y, scatter_nd_ref(data, idx, upd))
    np.testing.assert_array_equal(y, onnx_run({"op_type": "ScatterND"},
                                              {"x": data, "i": idx.astype(np.int64), "u": upd}))


def test_scatter_nd_batch_dims_and_writes_outside_skipped():
    data = RNG.standard_normal((2, 4, 3)).astype(np.float32)
    idx = np.array([[[1], [4]], [[-1], [2]]], np.int32)      # 4 and -1 are outside axis 1 (extent 4)
    upd = RNG.standard_normal((2, 2, 3)).astype(np.float32)
    y = road2(graph("x: real[2,4,3]; i: int[2,2,1]; u: real[2,2,3];",
                    "y = layout.scatter_nd{batch_dims=1}(x, i, u);", "layout"), data, idx, upd)
    np.testing.assert_array_equal(y, scatter_nd_ref(data, idx, upd, batch_dims=1))


def test_scatter_nd_twice_in_one_graph():
    """Two instances of one `:=` formula (an scf.for nest each) in one function: each nest's
    bounds get their own names (they were named after the formula, defined twice)."""
    data = RNG.standard_normal((4, 5, 3)).astype(np.float32)
    idx = nd_indices((), data.shape[:2], 4).reshape(2, 2, 2)
    upd, upd2 = RNG.standard_normal((2, 2, 2, 3)).astype(np.float32)
    y = road2(graph("x: real[4,5,3]; i: int[2,2,2]; u: real[2,2,3]; v: real[2,2,3];",
                    "z = layout.scatter_nd(x, i, u); y = layout.scatter_nd(z, i, v);", "layout"),
              data, idx, upd, upd2)
    np.testing.assert_array_equal(y, scatter_nd_ref(scatter_nd_ref(data, idx, upd), idx, upd2))


GUARDED = """
operator pick_sum {
    @input { x: real[n]; idx: int[m]; }
    @output { y: real[m]; }
    @lower { y[i,] += x[|idx[i,]|,], i < m; }
}
operator pick {
    @input { x: real[n]; idx: int[m]; }
    @output { y: real[m]; }
    @lower { y[i,] = x[|idx[i,]|,], i < m; }
}
operator pick_clamped {
    @input { x: real[n]; idx: int[m]; }
    @output { y: real[m]; }
    @lower { y[i,] = x[idx[i,],], i < m; }
}
graph G {
    @input { x: real[5]; i: int[6]; }
    @output { a: real[6]; b: real[6]; c: real[6]; }
    @compose { a = pick_sum(x, i); b = pick(x, i); c = pick_clamped(x, i); }
}
"""


def test_guarded_data_dependent_reads_out_of_range():
    """`|idx[i]|` out of range: the reducing formula skips the term (its null element, a
    generic's select), the '=' formula skips the step (scf loops; the output keeps 0); an
    unguarded read the draft leaves undefined is clamped into the tensor."""
    x = RNG.standard_normal(5).astype(np.float32)
    i = np.array([0, 4, -1, 5, 2, 100], np.int32)
    a, b, c = run(import_nnef(GUARDED), [x, i], entry="G")
    inside = (i >= 0) & (i < 5)
    ref = np.where(inside, x[np.clip(i, 0, 4)], 0)
    np.testing.assert_array_equal(a, ref)
    np.testing.assert_array_equal(b, ref)
    np.testing.assert_array_equal(c, x[np.clip(i, 0, 4)])


def test_computed_index_errors_are_located():
    bad = """
operator f {
    @input { x: real[n]; }
    @output { y: real[n]; }
    @lower { y[i,] = x[int(x[i,]) * 1.5,], i < n; }
}
graph G { @input { x: real[4]; } @output { y: real[4]; } @compose { y = f(x); } }
"""
    with pytest.raises(NnefError, match=LOCATED + ".*(integer|differ in type)"):
        import_nnef(bad)
    bad2 = bad.replace("x[int(x[i,]) * 1.5,]", "x[|int(real(i) * 1.5)|,]")
    with pytest.raises(NnefError, match=LOCATED + "a bounds-checked access is compiled only in a reducing"):
        import_nnef(bad2)


# ------------------------------------------------------------ data-dependent output shapes

def nonzero_graph(shape, dtype="real"):
    dims = ",".join(map(str, shape))
    return graph(f"x: {dtype}[{dims}];", "y = layout.nonzero(x);", "layout").replace("y: real;", "y: int;")


@pytest.mark.parametrize("shape,dtype", [((3, 4), "real"), ((2, 3, 2), "int"), ((5,), "bool")])
def test_nonzero_has_a_dynamic_extent(shape, dtype):
    """index[:, k] = i, i < s | input[i..] != T(0): k counts the hits; the output is
    tensor<d x ? x i32>, its extent the number of non-zeros (numpy's argwhere, ONNX NonZero)."""
    x = RNG.integers(-1, 2, shape) * (RNG.random(shape) < 0.5)
    x = x.astype({"real": np.float32, "int": np.int32, "bool": np.bool_}[dtype])
    module = import_nnef(nonzero_graph(shape, dtype))
    ret = next(o for o in module.walk() if o.name == "func.return")
    assert str(ret.operands[0].type) == f"tensor<{len(shape)}x?xi32>"
    y = run(module, [x], entry="G")[0]
    np.testing.assert_array_equal(y, np.argwhere(x).T)
    if dtype == "real":
        np.testing.assert_array_equal(y, onnx_run({"op_type": "NonZero"}, {"x": x}, np.int64))


def test_nonzero_of_zeros_is_empty():
    y = run(import_nnef(nonzero_graph((2, 3))), [np.zeros((2, 3), np.float32)], entry="G")[0]
    assert y.shape == (2, 0)


def test_the_drafts_where_true_runs():
    """`where_true` of draft 2.12 (Data dependent output shapes), verbatim."""
    from test_nnef_road2_packs import DRAFT, _draft_blocks
    if not DRAFT.exists():
        pytest.skip("draft not available")
    (op,) = _draft_blocks("## Data dependent output shapes", "## 2.13. Generics")
    src = op + "graph G { @input { c: bool[2,3]; } @output { y: int; } @compose { y = where_true(c); } }\n"
    c = np.array([[True, False, True], [False, True, True]])
    np.testing.assert_array_equal(run(import_nnef(src), [c], entry="G")[0], np.argwhere(c).T)


@pytest.mark.parametrize("lower_all", [False, True])
def test_consuming_a_dynamic_extent(lower_all):
    """nonzero's data-dependent extent read by layout.transpose: road 1 (TOSA with a `?`) and road
    2 (the formula's output sized by tensor.dim of its input) against numpy's argwhere."""
    src = graph("x: real[3,4];", "i = layout.nonzero(x); y = layout.transpose{perm=[1, 0]}(i);", "layout")
    x = np.array([[1, 0, 2, 0], [0, 0, 3, 0], [4, 0, 0, 5]], np.float32)
    np.testing.assert_array_equal(run(import_nnef(src, lower_all=lower_all), [x], entry="G")[0], np.argwhere(x))


# ------------------------------------------------------------ grid sampling

def grid_graph(mode, padding, aligned):
    return graph("x: real[1,2,4,5]; g: real[1,3,4,2];", f"y = image.grid_sample{{mode='{mode}', padding='{padding}', "
                 f"aligned={'true' if aligned else 'false'}}}(x, g);")


def grid_sample_ref(x, grid, mode, aligned):
    """_linear/_nearest_grid_sample's formulas with REFLECT's remap `|i <> -i : 2 * (s - 1) - i|`
    (reflection about the border pixels' centres), in float64."""
    n, c, h, w = x.shape
    out = np.zeros((n, c) + grid.shape[1:3])
    s = np.array([h, w])
    for b, zy, zx in np.ndindex(n, *grid.shape[1:3]):
        g = (grid[b, zy, zx, ::-1].astype(np.float64) + 1.0) * 0.5        # di = [d-1 : -1 : -1]
        xs = g * (s - 1) if aligned else g * s - 0.5
        remap = [lambda i, k=k: -i if i < 0 else 2 * (s[k] - 1) - i if i >= s[k] else i for k in range(2)]
        if mode == "NEAREST":
            i = np.round(xs).astype(int)                                    # ties to even, as roundeven
            out[b, :, zy, zx] = x[b, :, remap[0](i[0]), remap[1](i[1])]
            continue
        for j in np.ndindex(2, 2):
            i = np.floor(xs).astype(int) + j
            wt = np.prod(1.0 - np.abs(i - xs))
            out[b, :, zy, zx] += wt * x[b, :, remap[0](i[0]), remap[1](i[1])]
    return out


@pytest.mark.parametrize("mode", ["LINEAR", "NEAREST"])
@pytest.mark.parametrize("padding", ["ZEROS", "REPLICATE", "REFLECT"])
@pytest.mark.parametrize("aligned", [False, True])
def test_grid_sample_from_its_formulas(mode, padding, aligned):
    """image.grid_sample composes _linear_grid_sample (the draft's text repaired by
    stdlib/extract.py: a ';' for the ':' ending its loop-local values) or _nearest_grid_sample:
    computed indices with guarded (ZEROS) or remapped (REPLICATE, REFLECT) bounds; against
    onnxruntime's GridSample, except REFLECT unaligned, where ONNX reflects about the image
    edges and the draft about the border pixels' centres: numpy from the formulas."""
    x = RNG.standard_normal((1, 2, 4, 5)).astype(np.float32)
    g = RNG.uniform(-1.0, 1.0, (1, 3, 4, 2)).astype(np.float32)
    y = road2(grid_graph(mode, padding, aligned), x, g)
    if padding == "REFLECT" and not aligned:
        np.testing.assert_allclose(y, grid_sample_ref(x, g, mode, aligned), rtol=1e-5, atol=1e-5)
        return
    onnx_padding = {"ZEROS": "zeros", "REPLICATE": "border", "REFLECT": "reflection"}[padding]
    ref = onnx_run({"op_type": "GridSample", "mode": {"LINEAR": "bilinear", "NEAREST": "nearest"}[mode],
                    "padding_mode": onnx_padding, "align_corners": int(aligned)}, {"x": x, "g": g})
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------ operators without a TOSA form

UNARY = {   # numpy from the draft's definitions (math.sinh: y = sinh(x), ...)
    "math.sinh": (np.sinh, (-2, 2)), "math.cosh": (np.cosh, (-2, 2)), "math.asinh": (np.arcsinh, (-3, 3)),
    "math.acosh": (np.arccosh, (1.1, 4)), "math.atanh": (np.arctanh, (-0.9, 0.9)),
}


@pytest.mark.parametrize("op", sorted(UNARY))
def test_hyperbolic_functions(op):
    """The math dialect's hyperbolic functions are not all run by our interpreter and LLVM
    lowering: exp/log/sqrt compositions, within float32 rounding."""
    fn, (lo, hi) = UNARY[op]
    x = RNG.uniform(lo, hi, (3, 4)).astype(np.float32)
    y = road2(graph("x: real[3,4];", f"y = {op}(x);", "math"), x)
    np.testing.assert_allclose(y, fn(x.astype(np.float64)), rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("dtype", ["real", "int"])
def test_mod_takes_the_divisors_sign(dtype):
    """`%` with the rounding-down '/' (draft 2.4): a - floor(a / b) * b, as numpy's % (and the
    compile-time evaluation), not C's remainder."""
    if dtype == "real":
        a = RNG.uniform(-5, 5, (3, 4)).astype(np.float32)
        b = (RNG.uniform(0.5, 2, (3, 4)) * RNG.choice([-1, 1], (3, 4))).astype(np.float32)
    else:
        a = RNG.integers(-9, 10, (3, 4)).astype(np.int32)
        b = (RNG.integers(1, 4, (3, 4)) * RNG.choice([-1, 1], (3, 4))).astype(np.int32)
    src = graph(f"a: {dtype}[3,4]; b: {dtype}[3,4];", "y = math.mod(a, b);", "math")
    y = road2(src.replace("y: real;", f"y: {dtype};"), a, b)
    np.testing.assert_allclose(y, np.mod(a, b), rtol=1e-5, atol=1e-5)


N_ARY = {"math.sum_n": lambda xs: np.sum(xs, 0), "math.prod_n": lambda xs: np.prod(xs, 0),
         "math.min_n": lambda xs: np.min(xs, 0), "math.max_n": lambda xs: np.max(xs, 0),
         "math.argmin_n": lambda xs: np.argmin(xs, 0), "math.argmax_n": lambda xs: np.argmax(xs, 0)}


@pytest.mark.parametrize("op", sorted(N_ARY))
def test_n_ary_operators_over_packs(op):
    """Reductions over a tensor pack (`y[i..] += xs[k][i..], k < n`: one accumulation per item)
    and argmin/argmax over it (`:= k ... | xs[k][i..] > xs[y[i..]][i..]`: the pack stacked, read
    at a run-time item index); the first extremum wins, as numpy's."""
    xs = [RNG.integers(-3, 4, (2, 3)).astype(np.float32) for _ in range(3)]     # ties on purpose
    src = graph("a: real[2,3]; b: real[2,3]; c: real[2,3];", f"y = {op}([a, b, c]);", "math")
    y = road2(src.replace("y: real;", "y: int;") if "arg" in op else src, *xs)
    np.testing.assert_array_equal(y, N_ARY[op](np.stack(xs)))


@pytest.mark.parametrize("op,fn", [("math.any_n", np.any), ("math.all_n", np.all)])
def test_boolean_n_ary_operators(op, fn):
    xs = [RNG.random((2, 3)) < 0.5 for _ in range(3)]
    src = graph("a: bool[2,3]; b: bool[2,3]; c: bool[2,3];", f"y = {op}([a, b, c]);", "math")
    y = road2(src.replace("y: real;", "y: bool;"), *xs)
    np.testing.assert_array_equal(y, fn(np.stack(xs), 0))


@pytest.mark.parametrize("op,shapes,fn", [
    ("linalg.dot", ((4,), (4,)), np.dot), ("linalg.matvec", ((3, 4), (4,)), np.matmul),
    ("linalg.outer", ((3,), (4,)), np.outer)])
def test_linalg_products_without_a_mapping(op, shapes, fn):
    a, b = (RNG.standard_normal(s).astype(np.float32) for s in shapes)
    dims = [",".join(map(str, s)) for s in shapes]
    y = road2(graph(f"a: real[{dims[0]}]; b: real[{dims[1]}];", f"y = {op}(a, b);", "linalg"), a, b)
    np.testing.assert_allclose(y, fn(a, b), rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------ native code

def test_road2_programs_run_natively(tmp_path):
    """Computed indices (grid sampling with remapped bounds, gather_nd) and packed outputs
    (split) through tosa-run's JIT (linalg -> loops -> LLVM) agree with the interpreter."""
    from tosa_xdsl.tools import tosa_run
    src = graph("x: real[1,2,4,5]; g: real[1,3,4,2]; i: int[2,2];",
                "y = image.grid_sample{padding='REFLECT'}(x, g); z = layout.gather_nd(x, i); "
                "[a, b] = layout.split{axis=3, sizes=[2,3]}(x);", "image; import layout")
    src = src.replace("@output { y: real; }", "@output { y: real; z: real; a: real; b: real; }")
    (tmp_path / "m.sknd").write_text(src)
    arrays = [RNG.standard_normal((1, 2, 4, 5)).astype(np.float32),
              RNG.uniform(-1.1, 1.1, (1, 3, 4, 2)).astype(np.float32), np.array([[0, 1], [0, 0]], np.int32)]
    args = [str(tmp_path / "m.sknd"), "--entry", "G"]
    for k, a in enumerate(arrays):
        np.save(tmp_path / f"in{k}.npy", a)
        args += ["-i", str(tmp_path / f"in{k}.npy")]
    for backend in ("interp", "jit"):
        outs = [x for k in range(4) for x in ("-o", str(tmp_path / f"{backend}{k}.npy"))]
        assert tosa_run.main(args + outs + ["--backend", backend, "--no-cache"]) == 0
    for k in range(4):
        np.testing.assert_allclose(np.load(tmp_path / f"jit{k}.npy"), np.load(tmp_path / f"interp{k}.npy"),
                                   rtol=1e-6, atol=1e-6)
