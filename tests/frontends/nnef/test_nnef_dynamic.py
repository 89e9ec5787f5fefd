"""Extents known only at run time (draft 2.6.1, 3.1) through the importer: graph inputs with
`s|bound` / `~|bound` extents are `?` dims of the TOSA signature; road 1 carries the `?` through
element-wise (broadcasting), layout, convolution, pooling, matmul and reduction mappings; tosa-run
takes the shape from the .npy given. Expected values are numpy written from the operators'
definitions (draft chapter 4), at several input shapes, through the interpreter and natively."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_nnef_gaps import run_both

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.errors import InputError, TosaRunError

RNG = np.random.default_rng(2616)
IMPORTS = "import math; import nn; import layout; import linalg; import image;"


def graph(inputs: str, body: str, outputs="y: real;") -> str:
    return f"{IMPORTS}\ngraph G {{\n @input {{ {inputs} }}\n @output {{ {outputs} }}\n @compose {{ {body} }}\n}}\n"


def signature(module) -> str:
    return str(next(o for o in module.walk() if o.name == "func.func").function_type)


def conv_ref(x, w, pad, stride=1):
    """nn.conv (NCX data, NCX filters, groups 1): y[n, o, i, j] = sum x_padded[n, c, i*s+p, j*s+q] w[o, c, p, q]."""
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    o, _, kh, kw = w.shape
    oh, ow = (xp.shape[2] - kh) // stride + 1, (xp.shape[3] - kw) // stride + 1
    y = np.zeros((x.shape[0], o, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.einsum("nchw,ochw->no", win, w)
    return y.astype(np.float32)


def max_pool_ref(x, size, pad):
    """nn.max_pool over the last two axes, stride 1, the border not taking part (-inf padding)."""
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=-np.inf)
    h, w = xp.shape[2] - size + 1, xp.shape[3] - size + 1
    return np.max([xp[:, :, i:i + h, j:j + w] for i in range(size) for j in range(size)], axis=0)


def softmax_ref(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# (inputs, body, reference on numpy arrays, input shapes per run): every `n|8` etc. a run-time extent
CASES = {
    "broadcast_add_mul": (
        "x: real[n|8, 3]; b: real[3]; z: real[n, 3];", "a = math.add(x, b); y = math.mul(a, z);",
        lambda x, b, z: (x + b) * z, [[(1, 3), (3,), (1, 3)], [(5, 3), (3,), (5, 3)]]),
    "broadcast_two_symbols": (
        "x: real[n|8, 1]; z: real[m|8];", "y = math.sub(x, z);",
        lambda x, z: x - z, [[(1, 1), (4,)], [(3, 1), (2,)]]),
    "conv_batch": (
        "x: real[n|4, 3, 5, 5]; w: real[2, 3, 3, 3];", "y = nn.conv{padding=1}(x, w);",
        lambda x, w: conv_ref(x, w, 1), [[(1, 3, 5, 5), (2, 3, 3, 3)], [(3, 3, 5, 5), (2, 3, 3, 3)]]),
    "conv_batch_stride2": (
        "x: real[n|4, 3, 5, 5]; w: real[2, 3, 3, 3];", "y = nn.conv{stride=2}(x, w);",
        lambda x, w: conv_ref(x, w, 0, 2), [[(2, 3, 5, 5), (2, 3, 3, 3)]]),
    "conv_spatial": (
        "x: real[1, 3, h|9, w|9]; k: real[2, 3, 3, 3];", "y = nn.conv{padding=1}(x, k);",
        lambda x, k: conv_ref(x, k, 1), [[(1, 3, 4, 6), (2, 3, 3, 3)], [(1, 3, 7, 3), (2, 3, 3, 3)]]),
    "max_pool_spatial": (
        "x: real[n|2, 3, h|9, w|9];", "y = nn.max_pool{size=3, stride=1, padding=1}(x);",
        lambda x: max_pool_ref(x, 3, 1), [[(1, 3, 4, 5)], [(2, 3, 6, 3)]]),
    "matmul_linear": (
        "x: real[n|6, 3]; w: real[5, 3]; b: real[5];", "a = nn.linear(x, w, b); y = nn.relu(a);",
        lambda x, w, b: np.maximum(x @ w.T + b, 0), [[(1, 3), (5, 3), (5,)], [(6, 3), (5, 3), (5,)]]),
    "softmax_transpose_concat": (
        "x: real[n|6, 3];", ("s = nn.softmax{axes=[1]}(x); c = layout.concat{axis=1}([s, x]); "
                             "y = layout.transpose{perm=[1, 0]}(c);"),
        lambda x: np.concatenate([softmax_ref(x, 1), x], axis=1).T, [[(2, 3)], [(5, 3)]]),
    "softmax_over_runtime_axis": (
        "x: real[n|6, 3];", "y = nn.softmax{axes=[0]}(x);", lambda x: softmax_ref(x, 0), [[(1, 3)], [(4, 3)]]),
    "flatten_unflatten_pad_tile": (
        "x: real[n|4, 2, 3];", ("f = layout.flatten{axis=1}(x); p = layout.pad{axes=[1], padding=[1, 2]}(f); "
                                "y = layout.tile{axes=[1], repeats=[2]}(p);"),
        lambda x: np.tile(np.pad(x.reshape(x.shape[0], 6), ((0, 0), (1, 2))), (1, 2)), [[(1, 2, 3)], [(3, 2, 3)]]),
    "reductions": (
        "x: real[n|5, 4];", ("s = math.sum_reduce{axes=[0], squeeze=true}(x); m = math.max_reduce{axes=[1]}(x); "
                             "a = math.mean_reduce{axes=[1]}(x); y = math.add(m, a);"),
        lambda x: x.max(axis=1, keepdims=True) + x.mean(axis=1, keepdims=True), [[(1, 4)], [(5, 4)]]),
    "gather_runtime_axis_and_index": (
        "x: real[n|8, 3]; i: int[m|4];", "y = layout.gather{axis=0}(x, i);",
        lambda x, i: x[i], [[(3, 3), (2,)], [(5, 3), (4,)]]),
    "batch_norm_clamp": (
        "x: real[n|4, 3, 2]; m: real[3]; v: real[3];",
        "a = nn.batch_norm{epsilon=0.001}(x, m, v); y = math.clamp(a, -1.0, 1.0);",
        lambda x, m, v: np.clip((x - m[:, None]) / np.sqrt(v[:, None] + 0.001), -1, 1),
        [[(1, 3, 2), (3,), (3,)], [(4, 3, 2), (3,), (3,)]]),
}


# cases whose input k is an index into axis 0 of input 0 (in range: TOSA GATHER requires it)
INDEX_INPUTS = {"gather_runtime_axis_and_index": 1}


def _inputs(shapes, name=None):
    """Positive reals, and in-range int32 indices where INDEX_INPUTS says."""
    xs = [np.abs(RNG.standard_normal(s)).astype(np.float32) + 0.1 for s in shapes]
    k = INDEX_INPUTS.get(name)
    if k is not None:
        xs[k] = RNG.integers(0, shapes[0][0], shapes[k]).astype(np.int32)
    return xs


@pytest.mark.parametrize("name", sorted(CASES))
def test_runtime_extents_interpreter(name):
    """One import serves every input shape: the interpreter against numpy at each."""
    ins, body, ref, runs = CASES[name]
    m = import_nnef(graph(ins, body))
    assert "?" in signature(m)
    for shapes in runs:
        xs = _inputs(shapes, name)
        y = run(m, xs, entry="G")[0]
        np.testing.assert_allclose(y, ref(*xs), rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["broadcast_add_mul", "conv_spatial", "max_pool_spatial", "matmul_linear",
                                  "gather_runtime_axis_and_index",
                                  "softmax_transpose_concat", "flatten_unflatten_pad_tile"])
def test_runtime_extents_tosa_run_native(tmp_path, name):
    """tosa-run on the .sknd document: the shapes come from the .npy files; interpreter and JIT
    agree with numpy at two shapes each."""
    ins, body, ref, runs = CASES[name]
    src = graph(ins, body)
    for shapes in runs:
        xs = _inputs(shapes, name)
        (yi,), (yj,) = run_both(tmp_path, src, xs)
        want = ref(*xs)
        np.testing.assert_allclose(yi, want, rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(yj, want, rtol=2e-5, atol=1e-5)


ROAD2 = ["batch_norm_clamp", "broadcast_add_mul", "broadcast_two_symbols", "conv_batch", "conv_batch_stride2",
         "matmul_linear", "reductions", "softmax_over_runtime_axis"]


@pytest.mark.parametrize("name", ROAD2)
def test_runtime_extents_road2(name):
    """Road 2 (every operator from its @lower formulas): loops over a run-time extent take their
    range from the operands, the output's tensor.empty its size from the input's tensor.dim."""
    ins, body, ref, runs = CASES[name]
    m = import_nnef(graph(ins, body), lower_all=True)
    assert "tensor.dim" in str(m)
    for shapes in runs:
        xs = _inputs(shapes, name)
        np.testing.assert_allclose(run(m, xs, entry="G")[0], ref(*xs), rtol=2e-5, atol=1e-6)


def test_runtime_extents_road2_native(tmp_path):
    from tosa_xdsl.tools import tosa_translate
    name = "reductions"
    ins, body, ref, runs = CASES[name]
    (tmp_path / "m.sknd").write_text(graph(ins, body))
    out = tmp_path / "m.mlir"
    assert tosa_translate.main(["--import-nnef", str(tmp_path / "m.sknd"), "--nnef-lower-all", "-o", str(out)]) == 0
    from tosa_xdsl.tools import tosa_run
    for shapes in runs:
        xs = _inputs(shapes, name)
        args = [str(out), "--entry", "G"]
        for k, a in enumerate(xs):
            np.save(tmp_path / f"in{k}.npy", a)
            args += ["-i", str(tmp_path / f"in{k}.npy")]
        for backend in ("interp", "jit"):
            res = tmp_path / f"{backend}.npy"
            assert tosa_run.main(args + ["-o", str(res), "--backend", backend, "--no-cache"]) == 0
            np.testing.assert_allclose(np.load(res), ref(*xs), rtol=2e-5, atol=1e-6)


def test_signature_and_symbol_agreement():
    """`n` binds once: the second input and the declared output use it; `~|8` is a fresh `?`."""
    m = import_nnef(graph("x: real[n|8, 3]; z: real[n, 3]; u: real[~|8];",
                          "y = math.add(x, z); v = math.exp(u);", outputs="y: real[n, 3]; v: real[~];"))
    assert signature(m) == "(tensor<?x3xf32>, tensor<?x3xf32>, tensor<?xf32>) -> (tensor<?x3xf32>, tensor<?xf32>)"


def test_input_shapes_fix_the_runtime_extents():
    """The former behaviour on request: input_shapes binds the extents (checked against the bound
    and the symbol's other uses), giving a static signature."""
    src = graph("x: real[n|8, 3]; z: real[n, 3];", "y = math.add(x, z);")
    m = import_nnef(src, input_shapes={"x": [4, 3]})
    assert signature(m) == "(tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>"
    both = graph("x: real[n|8, 3]; z: real[n|8, 3];", "y = math.add(x, z);")    # the bound given twice
    assert signature(import_nnef(both, input_shapes={"x": [4, 3]})) == signature(m)
    # only the input named is fixed: x keeps its run-time extent (TOSA checks the agreement)
    assert signature(import_nnef(both, input_shapes={"z": [4, 3]})) == \
        "(tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>"
    with pytest.raises(NnefError, match=r"outside 0\.\.8"):
        import_nnef(both, input_shapes={"z": [9, 3]})
    for shapes, msg in [({"x": [9, 3]}, r"outside 0\.\.8"), ({"x": [4, 3], "z": [5, 3]}, "differs"),
                        ({"x": [4]}, "rank"), ({"w": [1]}, "no input 'w'"), ({"x": ["a", 3]}, "outside"),
                        ({"x": [-1, 3]}, "outside")]:
        with pytest.raises(NnefError, match=msg):
            import_nnef(src, input_shapes=shapes)


def test_unbounded_input_extent_takes_any_given_int64():
    """Khronos' `~` without a bound: any given extent that fits MLIR's int64 dims."""
    src = graph("x: real[~, 3];", "y = math.exp(x);")
    assert signature(import_nnef(src, input_shapes={"x": [6, 3]})) == "(tensor<6x3xf32>) -> tensor<6x3xf32>"
    for bad in ([1 << 63, 3], [True, 3], ["2", 3]):
        with pytest.raises(NnefError, match="invalid extent"):
            import_nnef(src, input_shapes={"x": bad})


def test_tosa_translate_input_shape_option(tmp_path, capsys):
    from tosa_xdsl.tools import tosa_translate
    (tmp_path / "m.sknd").write_text(graph("x: real[n|8, 3];", "y = math.exp(x);"))
    assert tosa_translate.main(["--import-nnef", str(tmp_path / "m.sknd"), "--nnef-input-shape", "x=2x3"]) == 0
    assert "tensor<2x3xf32>" in capsys.readouterr().out
    assert tosa_translate.main(["--import-nnef", str(tmp_path / "m.sknd")]) == 0
    assert "tensor<?x3xf32>" in capsys.readouterr().out
    assert tosa_translate.main(["--import-nnef", str(tmp_path / "m.sknd"), "--nnef-input-shape", "x=2xq"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("body,message", [
    # TOSA 1.0.1's SLICE start/size are compile-time shapes
    ("y = layout.slice{axes=[1], begin=[1], end=[3]}(x);", "SLICE takes start and size as compile-time"),
    # the window count is a run-time value: a tensor holding a shape expression (draft 3.1)
    ("y = math.mean_reduce{axes=[0]}(x);", "run-time shape expression"),
    # a reshape to two run-time extents: RESHAPE takes one -1
    ("y = layout.unsqueeze{axes=[1]}(x);", "at most one run-time"),
    # GATHER's index is tiled over the axes before 'axis' by a compile-time multiple
    ("y = layout.gather{axis=1}(x, i);", "TILE's multiples are a compile-time shape"),
])
def test_static_only_operators_are_located_errors(body, message):
    inputs = "x: real[n|8, m|8];" if "unsqueeze" in body else "x: real[n|8, 4]; i: int[2];"
    with pytest.raises(NnefError, match=r"^<input>:\d+:\d+: error: .*" + message):
        import_nnef(graph(inputs, body))


def test_strided_runtime_spatial_extent_is_a_located_error():
    with pytest.raises(NnefError, match=r"^<input>:\d+:\d+: error: .*idiv_check"):
        import_nnef(graph("x: real[1, 3, h|9, w|9]; k: real[2, 3, 3, 3];", "y = nn.conv{stride=2}(x, k);"))


@pytest.mark.parametrize("body", [
    "y = layout.pad{axes=[1], padding=[1, 2]}(x);",       # a condition comparing with the run-time extent
    "y = layout.concat{axis=0}([x, x]);",                 # per-item offsets at run-time extents
])
def test_road2_static_only_formulas_are_located_errors(body):
    with pytest.raises(NnefError, match=r":\d+:\d+: error: .*(known only at run time|road 2)"):
        import_nnef(graph("x: real[n|8, 4];", body), lower_all=True)


def test_graph_input_errors_are_located():
    for ins, msg in [("x: real[n|-1];", "non-negative"), ("x: real[n + 1|4];", "new symbol or '~'"),
                     ("x: real[n|4]; z: real[n|5];", "upper bound 4 elsewhere")]:
        with pytest.raises(NnefError, match=r"^<input>:\d+:\d+: error: .*" + msg):
            import_nnef(graph(ins, "y = math.exp(x);"))


def test_fuzzed_runtime_shapes_never_crash():
    """Seeded fuzz: random ranks, bounds, symbols shared or not, operators over them: every
    document imports or gives a located NnefError (never a Python exception); what imports
    runs at a random shape within the bounds and agrees with numpy for the element-wise ones."""
    import time

    rng = np.random.default_rng(99)
    ops = [("math.add", np.add), ("math.mul", np.multiply), ("math.max", np.maximum)]
    deadline = time.monotonic() + 15          # time-bounded on a loaded machine
    for _ in range(40):
        if time.monotonic() > deadline:
            break
        rank = int(rng.integers(1, 4))
        syms = [f"s{int(rng.integers(0, 3))}" for _ in range(rank)]
        dims_x = [f"{s}|{int(rng.integers(0, 5))}" if rng.random() < 0.6 else str(int(rng.integers(1, 4)))
                  for s in syms]
        dims_z = [s if d.startswith("s") and rng.random() < 0.7 else "1" for s, d in zip(syms, dims_x)]
        op, ref = ops[int(rng.integers(0, len(ops)))]
        body = f"y = {op}(x, z);"
        if rng.random() < 0.3:
            body += " y2 = layout.transpose{perm=[" + ", ".join(map(str, rng.permutation(rank))) + "]}(y);"
        src = graph(f"x: real[{', '.join(dims_x)}]; z: real[{', '.join(dims_z)}];", body)
        try:
            m = import_nnef(src)
        except NnefError as err:
            assert str(err).startswith("<input>:"), str(err)
            continue
        env = {}
        shape_x = []
        for d in dims_x:
            if "|" in d:
                s, b = d.split("|")
                env.setdefault(s, int(rng.integers(0, int(b) + 1)))
                shape_x.append(env[s])
            else:
                shape_x.append(int(d))
        shape_z = [env[s] if s in env else 1 if s == "1" else int(s) for s in dims_z]
        x, z = (rng.standard_normal(shape_x).astype(np.float32), rng.standard_normal(shape_z).astype(np.float32))
        try:
            y = run(m, [x, z], entry="G")[0]
        except (TosaRunError, InputError) as err:   # a shape the document declares inconsistent at run time
            assert "ERROR_IF" in str(err) or "shape" in str(err).lower(), err
            continue
        np.testing.assert_allclose(y, ref(x, z), rtol=1e-6)


MODELS = Path(__file__).parent / "models"


@pytest.mark.parametrize("backend", ["interp", "jit"])
def test_onnx_dynamic_batch_converted_by_khronos_matches_onnxruntime(tmp_path, backend):
    """models/dyn_batch: an ONNX model with a `batch` dim_param (make_onnx_dynamic_model.py:
    conv, relu, max pool, residual add, flatten, Gemm, softmax) converted by Khronos' onnx ->
    sknd converter, which writes the batch as `x: real[~,2,8,8]`. One import, a `?` batch in the
    signature; tosa-run at batch 1 and 3 against onnxruntime's committed outputs."""
    from tosa_xdsl.tools import tosa_run

    folder = MODELS / "dyn_batch"
    m = import_nnef(folder)
    assert signature(m) == "(tensor<?x2x8x8xf32>) -> tensor<?x5xf32>"
    assert not any(o.name.startswith(("linalg.", "scf.")) for o in m.walk())      # road 1 throughout
    for b in (1, 3):
        out = tmp_path / f"o{b}.npy"
        args = [str(folder / "main.sknd"), "-i", str(MODELS / f"dyn_batch.input_{b}.npy"), "--entry", "dyn_batch",
                "-o", str(out), "--backend", backend, "--no-cache"]
        assert tosa_run.main(args) == 0
        ref = np.load(MODELS / f"dyn_batch.expected_{b}.npy")
        got = np.load(out)
        assert got.shape == ref.shape == (b, 5)
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def test_quantized_model_with_a_runtime_batch_matches_litert(tmp_path):
    """Integer TOSA with a `?` batch: Khronos' conversion of net_mobilenet.int8 (conv,
    depthwise conv, relu6, residual add, average pool, fully connected; @quantize) with its
    input declared `x: real[n|4,16,16,3]` (and the converter's batch-1 `reshape{shape=[1, 16]}`
    written `[-1, 16]`). A batch of 3 through tosa-run (interpreter and JIT) equals LiteRT's
    builtin kernels run on each item alone, bit for bit."""
    import shutil

    sys.path.insert(0, str(Path(__file__).parent))
    from test_nnef_quantized import TFLITE, inputs_for, run_litert

    from tosa_xdsl.tools import tosa_run

    folder = tmp_path / "net"
    shutil.copytree(MODELS / "net_mobilenet.int8", folder)
    text = (folder / "main.sknd").read_text()
    for old, new in [("x: real[1,16,16,3]", "x: real[n|4,16,16,3]"), ("Identity: real[1,5]", "Identity: real[n,5]"),
                     ("layout.reshape{shape=[1, 16]}", "layout.reshape{shape=[-1, 16]}")]:
        assert old in text
        text = text.replace(old, new)
    (folder / "main.sknd").write_text(text)
    assert signature(import_nnef(folder)) == "(tensor<?x16x16x3xi8>) -> tensor<?x5xi8>"
    tfl = TFLITE / "models" / "net_mobilenet.int8.tflite"
    items = [inputs_for(tfl, seed)[0] for seed in (0, 1, 2)]
    want = np.concatenate([run_litert(tfl, [x])[0] for x in items])
    np.save(tmp_path / "x.npy", np.concatenate(items))
    for backend in ("interp", "jit"):
        out = tmp_path / f"{backend}.npy"
        assert tosa_run.main([str(folder / "main.sknd"), "--entry", "main", "-i", str(tmp_path / "x.npy"),
                              "-o", str(out), "--backend", backend, "--no-cache"]) == 0
        got = np.load(out)
        assert got.dtype == np.int8 and got.shape == (3, 5)
        np.testing.assert_array_equal(got, want)
