"""The standard-library operators the draft gives no formulas (intrinsic operators,
to_linalg/intrinsics.py): algo.top_k, algo.nonmax_suppress, the ROI pools and
image._cubic_grid_sample, imported by the default import (road 2), run by the interpreter and
natively (tosa-run --backend jit), against onnxruntime's TopK, NonMaxSuppression, MaxRoiPool and
GridSample (cubic) and numpy written from the semantics the lowerings document."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_nnef_gaps import run_both  # noqa: E402

from tosa_xdsl.frontends.nnef.importer import import_nnef  # noqa: E402
from tosa_xdsl.interpreter import run  # noqa: E402

RNG = np.random.default_rng(2020)


def graph(imports: str, inputs: str, outputs: str, body: str) -> str:
    return f"import {imports};\ngraph G {{\n @input {{ {inputs} }}\n @output {{ {outputs} }}\n @compose {{ {body} }}\n}}\n"


def ort(op_type: str, inputs: dict, out_dtypes=(np.float32,), **attrs):
    """One ONNX node run by onnxruntime (opset 18; GridSample's cubic mode exists since 16)."""
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
