"""The bundled example model (examples/face_detection_front.*, converted from TFLite by
tosa-converter-for-tflite) through the lowering: it lowers completely with
tosa-to-linalg-pipeline, the lowered module reproduces the reference model's outputs (the
tolerance of examples/demo.py, derived from the spec's dot-product rule), and upstream MLIR
(iree-opt, MLIR 22's mlir-opt) accepts the lowered module printed generically."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import lower, parse, tosa_ops_left

from tosa_xdsl.interpreter import run
from tosa_xdsl.printing import print_ir

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MODEL = EXAMPLES / "face_detection_front.tosa.mlir"
REL_TOL = 1e-2  # examples/demo.py explains the budget


@pytest.fixture(scope="module")
def source() -> str:
    return MODEL.read_text()


@pytest.fixture(scope="module")
def linalg_stage(source):
    return lower(source, "tosa-to-linalg-pipeline")


def check_outputs(outputs) -> None:
    for i, out in enumerate(outputs):
        expected = np.load(EXAMPLES / f"face_detection_front.expected_{i}.npy")
        assert out.shape == expected.shape
        diff = float(np.abs(out.astype(np.float64) - expected.astype(np.float64)).max())
        scale = max(1.0, float(np.abs(expected).max()))
        assert diff <= REL_TOL * scale, f"output {i}: max abs diff {diff} > {REL_TOL * scale}"


def test_lowers_completely(linalg_stage):
    assert tosa_ops_left(linalg_stage) == []
    names = {op.name for op in linalg_stage.walk()}
    assert "linalg.conv_2d_nhwc_fhwc" in names and "linalg.depthwise_conv_2d_nhwc_hwcm" in names


def test_lowered_model_reproduces_reference_outputs(source, linalg_stage):
    x = np.load(EXAMPLES / "face_detection_front.input_0.npy")
    lowered = run(linalg_stage, [x])
    check_outputs(lowered)
    # and it stays close to the TOSA-level run (same operators, possibly another summation order)
    tosa_level = run(parse(source), [x])
    for a, b in zip(lowered, tosa_level):
        assert float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max()) <= 1e-3


def test_upstream_accepts_lowered_model(linalg_stage, iree_opt, mlir_opt_22, tmp_path):
    path = tmp_path / "lowered.mlir"
    path.write_text(print_ir(linalg_stage, style="generic"))
    for tool in (iree_opt, mlir_opt_22):
        proc = subprocess.run([str(tool), str(path), "-o", "/dev/null"], capture_output=True, text=True)
        assert proc.returncode == 0, f"{tool.name}: {proc.stderr[:2000]}"
