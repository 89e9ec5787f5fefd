"""A real model written by someone else: the repository's face detector (TFLite) converted to
SkriptND by Khronos' converter (convert_models.py, run by hand; the folder is committed),
imported by us as TOSA and run by our interpreter; outputs compared with the reference
outputs bundled in examples/ (produced from the TFLite model, independently of this code)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tosa_xdsl.frontends.nnef import import_nnef
from tosa_xdsl.interpreter import run

HERE = Path(__file__).parent
EXAMPLES = HERE.parents[2] / "examples"


def test_face_detector_converted_by_khronos_matches_reference():
    module = import_nnef(HERE / "models" / "face_detection_front")
    names = {op.name for op in module.walk()}
    assert {"tosa.conv2d", "tosa.depthwise_conv2d", "tosa.max_pool2d"} <= names
    assert "linalg.generic" not in names           # every operator took road 1
    x = np.load(EXAMPLES / "face_detection_front.input_0.npy")
    outs = run(module, [x], entry="keras2tflite_facedetector_front_tflite_generated")
    for i, out in enumerate(outs):
        ref = np.load(EXAMPLES / f"face_detection_front.expected_{i}.npy")
        assert out.shape == ref.shape
        np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-3 * float(np.abs(ref).max()))


def test_onnx_model_converted_by_khronos_matches_onnxruntime(tmp_path, capsys):
    """models/small_cnn: an ONNX model (make_onnx_model.py: conv + batch norm, depthwise and
    strided conv, max pool, residual add, ConvTranspose, nearest and linear Resize, global
    average pool, Gemm, softmax) converted by Khronos' onnx -> sknd converter
    (convert_models.py); onnxruntime's outputs committed as .npy. Imported as TOSA only (the
    deconv, resizes and batch norm of issue 16 on road 1) and run through tosa-run."""
    from tosa_xdsl.tools import tosa_run

    folder = HERE / "models" / "small_cnn"
    names = {op.name for op in import_nnef(folder).walk()}
    assert {"tosa.transpose_conv2d", "tosa.resize", "tosa.depthwise_conv2d", "tosa.matmul"} <= names
    assert not any(n.startswith(("linalg.", "scf.")) for n in names)
    outs = [tmp_path / f"o{i}.npy" for i in range(2)]
    args = [str(folder / "main.sknd"), "-i", str(HERE / "models" / "small_cnn.input_0.npy"), "--entry", "small_cnn"]
    for o in outs:
        args += ["-o", str(o)]
    assert tosa_run.main(args) == 0, capsys.readouterr().err
    for i, o in enumerate(outs):
        ref = np.load(HERE / "models" / f"small_cnn.expected_{i}.npy")
        got = np.load(o)
        assert got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5 * float(np.abs(ref).max()))
