"""The standard-library operators the draft gives no formulas (intrinsic operators,
to_linalg/intrinsics.py): algo.top_k, algo.nonmax_suppress, the ROI pools and
image._cubic_grid_sample, imported by the default import (road 2), run by the interpreter and
natively (tosa-run --backend jit), against onnxruntime's TopK, NonMaxSuppression, MaxRoiPool and
GridSample (bicubic) and numpy written from the semantics the lowerings document."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_nnef_gaps import run_both

from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(2020)


def graph(imports: str, inputs: str, outputs: str, body: str) -> str:
    return f"import {imports};\ngraph G {{\n @input {{ {inputs} }}\n @output {{ {outputs} }}\n @compose {{ {body} }}\n}}\n"


def ort(op_type: str, inputs: dict, out_dtypes=(np.float32,), **attrs):
    """One ONNX node run by onnxruntime (opset 18)."""
    pytest.importorskip("onnx")
    rt = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    kinds = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64}
    ins = [helper.make_tensor_value_info(k, kinds[v.dtype], list(v.shape)) for k, v in inputs.items()]
    outs = [helper.make_tensor_value_info(f"y{k}", kinds[np.dtype(t)], None) for k, t in enumerate(out_dtypes)]
    node = helper.make_node(op_type, list(inputs), [f"y{k}" for k in range(len(out_dtypes))], **attrs)
    model = helper.make_model(helper.make_graph([node], "g", ins, outs), opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    sess = rt.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, inputs)


# ------------------------------------------------------------ algo.top_k

def top_k_src(shape, k, axis, largest):
    dims = ",".join(map(str, shape))
    return graph("algo", f"x: real[{dims}];", "v: real; i: int;",
                 f"v, i = algo.top_k{{k={k}, axis={axis}, largest={'true' if largest else 'false'}}}(x);")


@pytest.mark.parametrize("shape,k,axis", [((3, 7), 3, 1), ((4, 5, 2), 2, 1), ((6,), 9, 0), ((2, 3, 4), 4, -1),
                                          ((5, 3), 5, 0)])
@pytest.mark.parametrize("largest", [True, False])
def test_top_k_matches_onnxruntime(shape, k, axis, largest):
    """Values drawn from a few integers (many ties: ONNX TopK gives the lower index first),
    k above the axis' extent giving min(k, m) items (the declared `k <? m`)."""
    x = RNG.integers(-3, 4, shape).astype(np.float32)
    v, i = run(import_nnef(top_k_src(shape, k, axis, largest)), [x], entry="G")
    kk = min(k, shape[axis])
    rv, ri = ort("TopK", {"x": x, "k": np.array([kk], np.int64)}, (np.float32, np.int64), axis=axis, largest=int(largest), sorted=1)
    np.testing.assert_array_equal(v, rv)
    np.testing.assert_array_equal(i, ri)
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")      # numpy: the same order
    np.testing.assert_array_equal(i, np.take(order, np.arange(kk), axis=axis))


def test_top_k_runs_natively(tmp_path):
    x = RNG.integers(-2, 3, (4, 6)).astype(np.float32)
    x[0, 2] = np.inf
    x[1] = -np.inf
    (vi, ii), (vj, ij) = run_both(tmp_path, top_k_src((4, 6), 3, 1, True), [x], n_out=2)
    rv, ri = ort("TopK", {"x": x, "k": np.array([3], np.int64)}, (np.float32, np.int64), axis=1)
    for v, i in ((vi, ii), (vj, ij)):
        np.testing.assert_array_equal(v, rv)
        np.testing.assert_array_equal(i, ri)


# ------------------------------------------------------------ algo.nonmax_suppress

def nms_src(b, n, c, attrs):
    return graph("algo", f"boxes: real[{b},{n},4]; scores: real[{b},{c},{n}];", "i: int;",
                 f"i = algo.nonmax_suppress{{{attrs}}}(boxes, scores);")


def random_boxes(b, n, center):
    lo = RNG.uniform(0, 4, (b, n, 2)).astype(np.float32)
    size = RNG.uniform(0.5, 3, (b, n, 2)).astype(np.float32)
    if center:
        return np.concatenate([lo, size], axis=2)
    hi = lo + size
    swap = RNG.random((b, n, 1)) < 0.3              # corners given in either order
    return np.concatenate([np.where(swap, hi, lo), np.where(swap, lo, hi)], axis=2).astype(np.float32)


def ort_nms(boxes, scores, max_out, iou, score, center):
    inputs = {"boxes": boxes, "scores": scores, "m": np.array([max_out], np.int64), "t": np.array([iou], np.float32)}
    if score is not None:
        inputs["s"] = np.array([score], np.float32)
    return ort("NonMaxSuppression", inputs, (np.int64,), center_point_box=int(center))[0]


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("max_out,iou,score", [(3, 0.3, None), (10, 0.5, 0.4), (2, 0.0, 0.2), (10, 1.0, None)])
def test_nonmax_suppress_matches_onnxruntime(center, max_out, iou, score):
    """Random overlapping boxes, scores with ties (rounded to tenths), both box formats; the
    data-dependent row count (`~`) is a `?` extent."""
    b, n, c = 2, 8, 3
    boxes = random_boxes(b, n, center)
    scores = np.round(RNG.uniform(0, 1, (b, c, n)), 1).astype(np.float32)
    attrs = f"box_format='{'CENTER' if center else 'CORNERS'}', max_outputs_per_class={max_out}, iou_threshold={iou}"
    if score is not None:
        attrs += f", score_threshold={score}"
    m = import_nnef(nms_src(b, n, c, attrs))
    assert "tensor<?x3xi32>" in str(m)
    got = run(m, [boxes, scores], entry="G")[0]
    np.testing.assert_array_equal(got, ort_nms(boxes, scores, max_out, iou, score, center))


def test_nonmax_suppress_default_and_natively(tmp_path):
    """max_outputs_per_class defaults to n (ONNX's 0 means none: the converter writes it),
    no score threshold; identical boxes suppress each other; a degenerate (empty) box
    suppresses nothing; interpreter and JIT."""
    boxes = random_boxes(1, 6, False)
    boxes[0, 3] = boxes[0, 1]
    boxes[0, 4] = [1, 1, 1, 3]
    scores = RNG.uniform(0, 1, (1, 2, 6)).astype(np.float32)
    (gi,), (gj,) = run_both(tmp_path, nms_src(1, 6, 2, "iou_threshold=0.25"), [boxes, scores])
    want = ort_nms(boxes, scores, 6, 0.25, None, False)
    np.testing.assert_array_equal(gi, want)
    np.testing.assert_array_equal(gj, want)


# ------------------------------------------------------------ image.max_roi_pool / avg_roi_pool

def roi_src(kind, xshape, n, sizes):
    d = len(xshape) - 2
    dims = ",".join(map(str, xshape))
    return graph("image", f"x: real[{dims}]; rois: real[{n},{2 * d}]; index: int[{n}];", "y: real;",
                 f"y = image.{kind}_roi_pool{{output_size=[{', '.join(map(str, sizes))}]}}(x, rois, index);")


def roi_pool_ref(x, rois, index, sizes, kind):
    """numpy from roi_pool's documented semantics (Caffe's ROI pooling, spatial scale 1)."""
    n, d = rois.shape[0], len(sizes)
    out = np.zeros((n, x.shape[1], *sizes), np.float32)
    for r in range(n):
        start = np.sign(rois[r, :d]) * np.floor(np.abs(rois[r, :d]) + 0.5)       # half away from zero
        end = np.sign(rois[r, d:]) * np.floor(np.abs(rois[r, d:]) + 0.5)
        ext = np.maximum(end - start + 1, 1).astype(np.float32)
        bins = ext / np.array(sizes, np.float32)
        for p in np.ndindex(*sizes):
            lo = np.clip(np.floor(np.array(p, np.float32) * bins) + start, 0, x.shape[2:]).astype(int)
            hi = np.clip(np.ceil((np.array(p, np.float32) + 1) * bins) + start, 0, x.shape[2:]).astype(int)
            if np.any(hi <= lo):
                continue
            win = x[(min(max(index[r], 0), x.shape[0] - 1), slice(None), *[slice(a, b) for a, b in zip(lo, hi)])]
            flat = win.reshape(x.shape[1], -1)
            out[(r, slice(None), *p)] = flat.max(axis=1) if kind == "max" else flat.mean(axis=1)
    return out


ROIS = np.array([[0, 0, 5, 6], [1.5, 0.4, 3.5, 7.6], [2, 3, 2, 3], [-3, -2, 9, 10], [4, 5, 1, 2], [0.5, 2.5, 6.49, 4.5]],
                np.float32)
ROI_INDEX = np.array([0, 1, 1, 0, 1, 2], np.int32)        # 2: past the batch, clamped


def test_max_roi_pool_matches_onnxruntime():
    """ONNX MaxRoiPool (spatial_scale 1, rois [batch, x1, y1, x2, y2]) on ROIs inside, across
    and beyond the border, of one pixel, inverted (end before start: one pixel), with .5
    coordinates (rounded away from zero)."""
    x = RNG.standard_normal((2, 3, 6, 8)).astype(np.float32)
    idx = np.minimum(ROI_INDEX, 1)
    y = run(import_nnef(roi_src("max", x.shape, len(ROIS), [2, 3])), [x, ROIS, idx], entry="G")[0]
    onnx_rois = np.concatenate([idx[:, None].astype(np.float32), ROIS[:, [1, 0, 3, 2]]], axis=1)
    (want,) = ort("MaxRoiPool", {"x": x, "rois": onnx_rois}, pooled_shape=[2, 3])
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(y, roi_pool_ref(x, ROIS, idx, [2, 3], "max"))


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_roi_pools_against_numpy(tmp_path, kind):
    """Both pools with more bins than ROI pixels (empty bins give 0) and a batch index past
    the batch (clamped), interpreter and JIT; and one spatial axis."""
    x = RNG.standard_normal((2, 2, 6, 8)).astype(np.float32)
    (yi,), (yj,) = run_both(tmp_path, roi_src(kind, x.shape, len(ROIS), [4, 3]), [x, ROIS, ROI_INDEX])
    want = roi_pool_ref(x, ROIS, ROI_INDEX, [4, 3], kind)
    np.testing.assert_allclose(yi, want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(yj, want, rtol=1e-6, atol=1e-7)
    x1 = RNG.standard_normal((1, 2, 9)).astype(np.float32)
    rois1 = np.array([[1, 7], [3.5, 3.5], [-1, 20]], np.float32)
    idx1 = np.zeros(3, np.int32)
    y1 = run(import_nnef(roi_src(kind, x1.shape, 3, [2])), [x1, rois1, idx1], entry="G")[0]
    np.testing.assert_allclose(y1, roi_pool_ref(x1, rois1, idx1, [2], kind), rtol=1e-6, atol=1e-7)


# ------------------------------------------------------------ image._cubic_grid_sample

def cubic_src(xshape, gshape, padding, aligned):
    return graph("image", f"x: real[{','.join(map(str, xshape))}]; g: real[{','.join(map(str, gshape))}];", "y: real;",
                 f"y = image.grid_sample{{mode='CUBIC', padding='{padding}', aligned={'true' if aligned else 'false'}}}(x, g);")


def keys(u, a=-0.75):
    u = abs(u)
    return (a + 2) * u ** 3 - (a + 3) * u ** 2 + 1 if u <= 1 else a * (u ** 3 - 5 * u ** 2 + 8 * u - 4) if u < 2 else 0.0


def cubic_ref(x, grid, padding, aligned):
    """numpy (float64) from _cubic_grid_sample's documented semantics: the draft's
    _linear_grid_sample coordinates and paddings with Keys' 4 taps per axis."""
    n, c, *s = x.shape
    d = len(s)
    out = np.zeros((n, c) + grid.shape[1:-1])
    for b in range(n):
        for zi in np.ndindex(*grid.shape[1:-1]):
            g = (grid[(b, *zi)][::-1].astype(np.float64) + 1.0) * 0.5
            pos = g * (np.array(s) - 1) if aligned else g * np.array(s) - 0.5
            base = np.floor(pos).astype(int) - 1
            for k in np.ndindex(*[4] * d):
                i = base + np.array(k)
                w = np.prod([keys(pos[a] - i[a]) for a in range(d)])
                if padding == "ZEROS" and np.any((i < 0) | (i >= s)):
                    continue
                if padding == "REFLECT":
                    i = np.where(i < 0, -i, i)
                    i = np.where(i >= s, 2 * (np.array(s) - 1) - i, i)
                i = np.clip(i, 0, np.array(s) - 1)
                out[(b, slice(None), *zi)] += w * x[(b, slice(None), *i)]
    return out


@pytest.mark.parametrize("padding", ["ZEROS", "REPLICATE", "REFLECT"])
@pytest.mark.parametrize("aligned", [False, True])
def test_cubic_grid_sample_matches_onnxruntime(padding, aligned):
    """image.grid_sample CUBIC (its @compose calls _cubic_grid_sample) against onnxruntime's
    GridSample mode=bicubic (opset 16..19; A = -0.75), grid points inside and up to 1.2 beyond [-1, 1]; REFLECT
    unaligned against numpy only (ONNX reflects about the image edges, the draft's linear and
    nearest formulas about the border pixels' centres, which this follows)."""
    x = RNG.standard_normal((2, 2, 5, 6)).astype(np.float32)
    g = RNG.uniform(-1.2, 1.2, (2, 3, 4, 2)).astype(np.float32)
    y = run(import_nnef(cubic_src(x.shape, g.shape, padding, aligned)), [x, g], entry="G")[0]
    np.testing.assert_allclose(y, cubic_ref(x, g, padding, aligned), rtol=1e-5, atol=1e-5)
    if padding == "REFLECT" and not aligned:
        return
    onnx_padding = {"ZEROS": "zeros", "REPLICATE": "border", "REFLECT": "reflection"}[padding]
    (want,) = ort("GridSample", {"x": x, "g": g}, mode="bicubic", padding_mode=onnx_padding, align_corners=int(aligned))
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


def test_cubic_grid_sample_runs_natively(tmp_path):
    """Interpreter and JIT, 2-d and 1-d (a 1-d grid: numpy only, ONNX samples images)."""
    x = RNG.standard_normal((1, 3, 4, 5)).astype(np.float32)
    g = RNG.uniform(-1.1, 1.1, (1, 2, 3, 2)).astype(np.float32)
    (yi,), (yj,) = run_both(tmp_path, cubic_src(x.shape, g.shape, "ZEROS", False), [x, g])
    want = cubic_ref(x, g, "ZEROS", False)
    np.testing.assert_allclose(yi, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(yj, want, rtol=1e-5, atol=1e-5)
    x1 = RNG.standard_normal((2, 2, 7)).astype(np.float32)
    g1 = RNG.uniform(-1, 1, (2, 5, 1)).astype(np.float32)
    y1 = run(import_nnef(cubic_src(x1.shape, g1.shape, "REPLICATE", True)), [x1, g1], entry="G")[0]
    np.testing.assert_allclose(y1, cubic_ref(x1, g1, "REPLICATE", True), rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------ edge cases and bad attributes

@pytest.mark.parametrize("inputs,body,out,shape", [
    ("x: real[1,2,4,4]; r: real[2,4]; i: int[2];", "y = image.max_roi_pool{output_size=[0, 2]}(x, r, i);", "real",
     (2, 2, 0, 2)),
    ("b: real[1,3,4]; s: real[1,2,3];", "y = algo.nonmax_suppress{max_outputs_per_class=0}(b, s);", "int", (0, 3)),
    ("b: real[1,0,4]; s: real[1,2,0];", "y = algo.nonmax_suppress(b, s);", "int", (0, 3)),
])
def test_empty_extents(inputs, body, out, shape):
    src = graph("image; import algo", inputs, f"y: {out};", body)
    args = [np.zeros([int(v) for v in a.split("[")[1].rstrip("];").split(",")], np.int32 if "int" in a else np.float32)
            for a in inputs.split("; ")]
    assert run(import_nnef(src), args, entry="G")[0].shape == shape


@pytest.mark.parametrize("inputs,body,out,message", [
    ("x: real[1,2]; r: real[2,0]; i: int[2];", "y = image.avg_roi_pool{output_size=[]}(x, r, i);", "real",
     "at least one spatial axis"),
    ("x: real[1,2]; g: real[1,0];", "y = image.grid_sample{mode='CUBIC'}(x, g);", "real", "1 to 3 spatial axes"),
    ("x: real[1,1,2,2,2,2]; g: real[1,1,1,1,1,4];", "y = image.grid_sample{mode='CUBIC'}(x, g);", "real",
     "1 to 3 spatial axes"),
    ("b: real[1,3,4]; s: real[1,2,3];", "y = algo.nonmax_suppress{max_outputs_per_class=1000000000}(b, s);", "int",
     "too large"),
    ("x: real[1,2,4,4]; r: real[2,4]; i: int[2];", "y = image.avg_roi_pool{output_size=[100000, 100000]}(x, r, i);",
     "real", "too large"),
])
def test_unlowerable_instances_are_located_errors(inputs, body, out, message):
    from tosa_xdsl.frontends.nnef.errors import NnefError
    with pytest.raises(NnefError, match=rf"^\S+:\d+:\d+: error: .*{message}"):
        import_nnef(graph("image; import algo", inputs, f"y: {out};", body))


def test_random_attributes_import_or_fail_located():
    """Seeded random shapes and attribute values: each import gives a module or a located
    NnefError, never another exception."""
    from tosa_xdsl.frontends.nnef.errors import NnefError
    rng = np.random.default_rng(7)
    for k in range(16):
        kind = k % 4
        dims = [int(v) for v in rng.integers(0, 4, rng.integers(1, 5))]
        d = ",".join(map(str, dims))
        if kind == 0:
            src = graph("algo", f"x: real[{d}];", "v: real; i: int;",
                        f"v, i = algo.top_k{{k={rng.integers(-2, 6)}, axis={rng.integers(-5, 5)}}}(x);")
        elif kind == 1:
            src = graph("algo", f"b: real[{d}]; s: real[{d}];", "i: int;",
                        f"i = algo.nonmax_suppress{{max_outputs_per_class={rng.integers(-2, 5)}, "
                        f"iou_threshold={rng.uniform(-0.5, 1.5):.2f}}}(b, s);")
        elif kind == 2:
            src = graph("image", f"x: real[{d}]; r: real[{rng.integers(0, 3)},{rng.integers(0, 5)}]; i: int[2];",
                        "y: real;", f"y = image.max_roi_pool{{output_size=[{rng.integers(-1, 3)}, 2]}}(x, r, i);")
        else:
            src = graph("image", f"x: real[{d}]; g: real[{d}];", "y: real;",
                        f"y = image.grid_sample{{mode='CUBIC', padding='{rng.choice(['ZEROS', 'X'])}'}}(x, g);")
        try:
            import_nnef(src)
        except NnefError:
            pass


# ------------------------------------------------------------ image.cubic_resize on road 2

@pytest.mark.parametrize("transform,size,a", [("SYMMETRIC", [8, 3], -0.75), ("ASYMMETRIC", [11, 6], -0.5),
                                              ("ALIGNED", [3, 9], -0.75)])
def test_cubic_resize_lowered(tmp_path, transform, size, a):
    """--nnef-lower-all: cubic_resize (no formulas) by its taps table, against numpy from
    test_nnef_road1_refs (ONNX Resize cubic's taps, clamped) and onnxruntime's Resize cubic
    (SYMMETRIC = half_pixel, ASYMMETRIC = asymmetric, ALIGNED = align_corners)."""
    from test_nnef_road1_refs import cubic_ref
    x = RNG.standard_normal((1, 2, 5, 4)).astype(np.float32)
    src = graph("image", "x: real[1,2,5,4];", "y: real;", f"y = image.cubic_resize{{axes=[2,3], size={size}, "
                f"coordinate_transform='{transform}', coeff_a={a}}}(x);")
    module = import_nnef(src, lower_all=True)
    assert not any(op.name == "tosa.matmul" for op in module.walk())
    y = run(module, [x], entry="G")[0]
    np.testing.assert_allclose(y, cubic_ref(x, (2, 3), size, transform, a), rtol=1e-5, atol=2e-6)
    mode = {"SYMMETRIC": "half_pixel", "ASYMMETRIC": "asymmetric", "ALIGNED": "align_corners"}[transform]
    scales = np.array([1, 1, size[0] / 5, size[1] / 4], np.float32)
    (want,) = ort("Resize", {"x": x, "r": np.zeros(0, np.float32), "s": scales}, mode="cubic", cubic_coeff_a=a,
                  coordinate_transformation_mode=mode)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=2e-6)
    if transform == "SYMMETRIC":
        # natively: the JIT of the same module (tosa-run reads a document with the default
        # import, so the lowered module is given as MLIR text)
        from tosa_xdsl.tools import tosa_run
        (tmp_path / "m.mlir").write_text(str(module))
        np.save(tmp_path / "x.npy", x)
        assert tosa_run.main([str(tmp_path / "m.mlir"), "--entry", "G", "-i", str(tmp_path / "x.npy"), "-o",
                              str(tmp_path / "y.npy"), "--backend", "jit", "--no-cache"]) == 0
        np.testing.assert_allclose(np.load(tmp_path / "y.npy"), y, rtol=1e-6, atol=1e-6)
