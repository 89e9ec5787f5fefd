"""Former "Not done" items of docs/nnef.md, each against an independent oracle:
layout.depth_to_space (its `c / (block_size * ..)` binds) vs onnxruntime DepthToSpace and
numpy written from the draft's @compose."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_nnef_road2 import onnx_run

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(1616)


def graph(inputs: str, body: str, imports="layout", outputs="y: real;") -> str:
    return (f"import {imports};\ngraph G {{\n @input {{ {inputs} }}\n @output {{ {outputs} }}\n"
            f" @compose {{ {body} }}\n}}\n")


def depth_to_space_ref(x, blocks, blocks_first):
    """NCX numpy: the depth index splits as (block.., c) when blocks come first (ONNX DCR),
    else (c, block..) (ONNX CRD); each block index goes after its spatial axis."""
    b, c, h, w = x.shape
    bh, bw = blocks
    if blocks_first:
        y = x.reshape(b, bh, bw, c // (bh * bw), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        y = x.reshape(b, c // (bh * bw), bh, bw, h, w).transpose(0, 1, 4, 2, 5, 3)
    return y.reshape(b, c // (bh * bw), h * bh, w * bw)


@pytest.mark.parametrize("blocks_first", [True, False])
@pytest.mark.parametrize("lower_all", [False, True])
def test_depth_to_space_matches_onnx(blocks_first, lower_all):
    x = RNG.standard_normal((1, 8, 2, 3)).astype(np.float32)
    flag = "true" if blocks_first else "false"
    src = graph("x: real[1,8,2,3];", f"y = layout.depth_to_space{{block_size=[2, 2], blocks_first={flag}}}(x);")
    y = run(import_nnef(src, lower_all=lower_all), [x], entry="G")[0]
    mode = "DCR" if blocks_first else "CRD"
    np.testing.assert_array_equal(y, onnx_run({"op_type": "DepthToSpace", "blocksize": 2, "mode": mode}, {"x": x}))
    np.testing.assert_array_equal(y, depth_to_space_ref(x, (2, 2), blocks_first))


@pytest.mark.parametrize("fmt,blocks_first", [("NCX", True), ("NCX", False), ("NXC", True), ("NXC", False)])
def test_depth_to_space_unequal_blocks_both_roads(fmt, blocks_first):
    """Unequal blocks and the channels-last layout: road 1 (RESHAPE/TRANSPOSE/RESHAPE) and
    road 2 (the parts' formulas) against numpy; the inverse of space_to_depth."""
    x = RNG.standard_normal((1, 12, 2, 3)).astype(np.float32)
    ref = depth_to_space_ref(x, (2, 3), blocks_first)
    if fmt == "NXC":
        x, ref = x.transpose(0, 2, 3, 1), ref.transpose(0, 2, 3, 1)
    dims = ",".join(map(str, x.shape))
    flag = "true" if blocks_first else "false"
    body = f"y = layout.depth_to_space{{block_size=[2, 3], blocks_first={flag}, data_format='{fmt}'}}(x);"
    road1 = import_nnef(graph(f"x: real[{dims}];", body))
    assert {o.name for o in road1.walk()} >= {"tosa.reshape", "tosa.transpose"}
    for m in (road1, import_nnef(graph(f"x: real[{dims}];", body), lower_all=True)):
        np.testing.assert_array_equal(run(m, [np.ascontiguousarray(x)], entry="G")[0], ref)
    back = graph(f"x: real[{dims}];", body + f" z = layout.space_to_depth{{block_size=[2, 3], blocks_first={flag}, "
                 f"data_format='{fmt}'}}(y);", outputs="z: real;")
    np.testing.assert_array_equal(run(import_nnef(back), [np.ascontiguousarray(x)], entry="G")[0], x)


# ------------------------------------------------------------ asin, acos, atan in formulas

TRIG = """import math;
graph G {{ @input {{ x: real[{n}]; t: real[{m}]; }} @output {{ a: real; b: real; c: real; }}
 @compose {{ a = math.asin(x); b = math.acos(x); c = math.atan(t); }} }}
"""


def trig_inputs():
    x = np.concatenate([RNG.uniform(-1, 1, 500), [1, -1, 0, 0.5, -0.5, 0.9999999, -0.9999999, 1e-30,
                                                  1.5, -1.5, np.inf, np.nan]]).astype(np.float32)
    t = np.concatenate([RNG.standard_normal(250) * 10, RNG.uniform(-1, 1, 250),
                        [0, np.inf, -np.inf, np.nan, 1e30, -1e30, 1e-30, 2.4142137, 0.41421357, 1, -1]])
    return x, t.astype(np.float32)


def max_ulps(got, ref):
    """The largest distance in float32 ulps of `ref` (NaN where the reference is NaN)."""
    assert (np.isnan(got) == np.isnan(ref)).all()
    keep = ~np.isnan(ref)
    g, r = got[keep].astype(np.float64), ref[keep].astype(np.float64)
    return float(np.max(np.where(g == r, 0, np.abs(g - r) / np.spacing(np.abs(ref[keep])).astype(np.float64))))


def test_inverse_trig_formulas_within_ulps_of_numpy():
    """math.asin/acos/atan (@lower `y[i..] = asin(x[i..])`) compile to arithmetic, sqrt and
    selects; numpy's float32 arcsin/arccos/arctan are the oracle (NaN outside [-1, 1])."""
    x, t = trig_inputs()
    m = import_nnef(TRIG.format(n=x.size, m=t.size))
    assert not {"math.asin", "math.acos", "math.atan"} & {o.name for o in m.walk()}
    a, b, c = run(m, [x, t], entry="G")
    with np.errstate(invalid="ignore"):
        assert max_ulps(a, np.arcsin(x)) <= 4
        assert max_ulps(b, np.arccos(x)) <= 4
    assert max_ulps(c, np.arctan(t)) <= 3
    zeros = run(import_nnef(TRIG.format(n=2, m=2)), [np.array([0.0, -0.0], np.float32)] * 2, entry="G")
    assert np.signbit(zeros[0]).tolist() == [False, True] and np.signbit(zeros[2]).tolist() == [False, True]


def test_inverse_trig_runs_natively(tmp_path):
    from tosa_xdsl.tools import tosa_run
    x, t = trig_inputs()
    (tmp_path / "m.sknd").write_text(TRIG.format(n=x.size, m=t.size))
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "t.npy", t)
    args = [str(tmp_path / "m.sknd"), "--entry", "G", "-i", str(tmp_path / "x.npy"), "-i", str(tmp_path / "t.npy")]
    for backend in ("interp", "jit"):
        outs = [v for k in range(3) for v in ("-o", str(tmp_path / f"{backend}{k}.npy"))]
        assert tosa_run.main(args + outs + ["--backend", backend, "--no-cache"]) == 0
    for k, ref in enumerate((np.arcsin, np.arccos, np.arctan)):
        got = np.load(tmp_path / f"jit{k}.npy")
        with np.errstate(invalid="ignore"):
            assert max_ulps(got, ref(t if k == 2 else x)) <= 4
        np.testing.assert_allclose(got, np.load(tmp_path / f"interp{k}.npy"), rtol=3e-7, atol=0)


# ------------------------------------------------------------ data-dependent extents natively

def run_both(tmp_path, src: str, arrays, n_out=1):
    """tosa-run's interpreter and JIT on an NNEF document: the outputs of each."""
    from tosa_xdsl.tools import tosa_run
    (tmp_path / "m.sknd").write_text(src)
    args = [str(tmp_path / "m.sknd"), "--entry", "G"]
    for k, a in enumerate(arrays):
        np.save(tmp_path / f"in{k}.npy", a)
        args += ["-i", str(tmp_path / f"in{k}.npy")]
    outs = {}
    for backend in ("interp", "jit"):
        files = [tmp_path / f"{backend}{k}.npy" for k in range(n_out)]
        assert tosa_run.main(args + [v for f in files for v in ("-o", str(f))] + ["--backend", backend, "--no-cache"]) == 0
        outs[backend] = [np.load(f) for f in files]
    return outs["interp"], outs["jit"]


@pytest.mark.parametrize("shape,dtype", [((3, 4), "real"), ((2, 3, 2), "int"), ((5,), "bool")])
def test_nonzero_runs_natively(tmp_path, shape, dtype):
    """layout.nonzero's `tensor<d x ? x i32>` (a dynamic tensor.extract_slice of the
    upper-bound buffer) bufferizes to a subview with a dynamic size: the JIT agrees with the
    interpreter and numpy's argwhere; all zeros give an empty extent."""
    dims = ",".join(map(str, shape))
    src = graph(f"x: {dtype}[{dims}];", "y = layout.nonzero(x);", outputs="y: int;")
    for x in (RNG.integers(-1, 2, shape) * (RNG.random(shape) < 0.5), np.zeros(shape)):
        x = x.astype({"real": np.float32, "int": np.int32, "bool": np.bool_}[dtype])
        (yi,), (yj,) = run_both(tmp_path, src, [x])
        np.testing.assert_array_equal(yj, np.argwhere(x).T)
        np.testing.assert_array_equal(yi, yj)


# ------------------------------------------------------------ consuming a data-dependent extent

NZ = np.array([[1, 0, 2, 0], [0, 0, 3, 0], [4, 0, 0, 5]], np.float32)


@pytest.mark.parametrize("tail,ref", [
    ("y = math.exp(j);", lambda j: np.exp(j)),
    ("y = math.sum_reduce{axes=[1]}(j);", lambda j: j.sum(axis=1, keepdims=True)),
    ("y = math.max_reduce{axes=[0]}(j);", lambda j: j.max(axis=0, keepdims=True)),
    ("y = math.sum_reduce{axes=[1], squeeze=true}(j);", lambda j: j.sum(axis=1)),
    ("y = math.sum_reduce{axes=[0], squeeze=true}(j);", lambda j: j.sum(axis=0)),
    ("y = layout.transpose{perm=[1, 0]}(j);", lambda j: j.T),
    ("y = math.add(j, j);", lambda j: j + j),
    # the `?` outermost: a concat along a dynamic inner dim would need a view with run-time
    # strides natively (docs/lowering.md)
    ("t = layout.transpose{perm=[1, 0]}(j); k = layout.concat{axis=0}([t, t]); y = math.mul(k, 2.0);",
     lambda j: np.concatenate([j.T, j.T]) * 2),
])
def test_elementwise_and_reductions_take_a_dynamic_extent(tmp_path, tail, ref):
    """layout.nonzero's data-dependent `?` extent flows through road 1's element-wise (one or
    several inputs), cast, reduction and layout mappings (TOSA with a `?` dim); interpreter and
    JIT against numpy."""
    src = graph("x: real[3,4];", "i = layout.nonzero(x); j = layout.cast<real>(i); " + tail, "layout; import math")
    (yi,), (yj,) = run_both(tmp_path, src, [NZ])
    want = ref(np.argwhere(NZ).T.astype(np.float32))
    np.testing.assert_allclose(yi, want, rtol=1e-6)
    np.testing.assert_allclose(yj, want, rtol=1e-6)


@pytest.mark.parametrize("body,lower_all,message", [
    # road 2: layout.pad's condition compares indices with the run-time extent
    ("i = layout.nonzero(x); y = layout.pad{axes=[1], padding=[1, 1]}(i);", True, "known only at run time"),
    ("i = layout.nonzero(x); y = layout.slice{axes=[0], begin=[1], end=[2]}(i);", False, "SLICE takes start"),
])
def test_other_consumers_of_a_dynamic_extent_are_located_errors(body, lower_all, message):
    from tosa_xdsl.frontends.nnef.errors import NnefError
    with pytest.raises(NnefError, match=r"^\S+:\d+:\d+: error: .*" + message):
        import_nnef(graph("x: real[3,4];", body, "layout; import math"), lower_all=lower_all)


def test_an_empty_constant_is_a_valid_tosa_const():
    """A zero-element @constant becomes `dense<>` (MLIR's empty literal; `dense<[]>` only
    fits shape [0]): concatenated with the input it leaves it unchanged, as numpy's concat."""
    src = ("import layout;\ngraph G {\n @input { x: real[2,3]; }\n @output { y: real; }\n"
           " @constant { c: real[0,3] = 1.0; }\n @compose { y = layout.concat{axis=0}([x, c]); }\n}\n")
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    y = run(import_nnef(src), [x], entry="G")[0]
    np.testing.assert_array_equal(y, np.concatenate([x, np.ones((0, 3), np.float32)]))


def _split_graph(body: str) -> str:
    return ("import layout;\ngraph G {\n @input { x: real[4,3]; }\n @output { y: real; }\n"
            f" @compose {{ bs = layout.split{{axis=0, count=2}}(x); {body} }}\n}}\n")


@pytest.mark.parametrize("body,expected", [
    ("y = bs[1];", lambda x: np.split(x, 2)[1]),
    ("y = bs[-2];", lambda x: np.split(x, 2)[0]),
    ("cs = bs[0:2]; y = layout.concat{axis=0}(cs);", lambda x: x),
])
def test_items_of_a_packed_result(body, expected):
    """An item or a slice of a packed result in @compose (2.3's pack indexing, as for value
    packs) against numpy's split."""
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    y = run(import_nnef(_split_graph(body)), [x], entry="G")[0]
    np.testing.assert_array_equal(y, expected(x))


@pytest.mark.parametrize("body,message", [
    ("y = bs[5];", "index 5 out of range for pack of length 2"),
    ("y = [x, x];", "output 'y' is a pack of 2 tensors"),
    ("y = bs[0:1];", "output 'y' is a pack of 1 tensors"),
])
def test_bad_pack_items_are_located_errors(body, message):
    with pytest.raises(NnefError) as err:
        import_nnef(_split_graph(body))
    assert message in str(err.value) and str(err.value).startswith("<input>:")
