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
