"""The bundled face detector: import + legalize in under a second, then our interpreter
matches the reference model's outputs (examples/) and LiteRT."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from tosa_xdsl.frontends.tflite import import_tflite
from tosa_xdsl.interpreter import run

SHARED = Path(__file__).resolve().parents[4] / "shared" / "models"  # ../shared beside the checkout
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _model_dir() -> Path:
    for d in (EXAMPLES, SHARED):
        if (d / "face_detection_front.tflite").exists() and (d / "face_detection_front.expected_0.npy").exists():
            return d
    pytest.skip("face_detection_front.tflite not available")
    raise AssertionError


def test_face_detection_matches_references():
    d = _model_dir()
    data = (d / "face_detection_front.tflite").read_bytes()
    t = time.perf_counter()
    module = import_tflite(data, None, "face_detection_front.tflite")
    assert time.perf_counter() - t < 1.0
    module.verify()
    x = np.load(d / "face_detection_front.input_0.npy")
    got = run(module, [x])
    for i, g in enumerate(got):
        e = np.load(d / f"face_detection_front.expected_{i}.npy")
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-3, atol=1e-3)
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    it = litert.Interpreter(model_path=str(d / "face_detection_front.tflite"))
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    for det, g in zip(it.get_output_details(), got):
        np.testing.assert_allclose(np.asarray(g), it.get_tensor(det["index"]), rtol=1e-4, atol=1e-4)
