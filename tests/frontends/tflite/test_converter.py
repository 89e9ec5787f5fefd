"""Arm's tosa-converter-for-tflite (TensorFlow's C++ legalization) as a second oracle: its
TOSA, run by Arm's reference model, equals our TOSA run by our interpreter.

Only models where the converter itself agrees with LiteRT are compared bit for bit; the
others are listed in docs/tflite.md (e.g. its int8 ADD_N skips the rescale, its CAST
rounds where TFLite truncates)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (oracle)
import oracle
from tflite_oracle import MODELS, inputs_for

from tosa_xdsl.frontends.tflite import import_tflite
from tosa_xdsl.interpreter import run

CONVERTER = shutil.which("tosa-converter-for-tflite") or str(Path(sys.executable).parent / "tosa-converter-for-tflite")

CASES = ["conv_2d.int8", "depthwise_conv_2d.int8", "transpose_conv.int8", "fully_connected.int8",
         "net_mobilenet.float", "net_mobilenet.int8", "net_mobilenet.int16x8", "softmax.int8", "logistic.int8",
         "add.int8", "mul.int8", "mean.int8", "average_pool_2d.int8", "leaky_relu.int8", "concatenation.int8",
         "batch_matmul.int8", "net_attention.int8"]


@pytest.mark.parametrize("stem", CASES)
def test_converter_and_reference_model_agree(stem):
    if not Path(CONVERTER).exists():
        pytest.skip("tosa-converter-for-tflite not installed")
    try:
        oracle._tools_bin()  # pyright: ignore[reportPrivateUsage]
    except Exception as e:
        pytest.skip(str(e))
    path = MODELS / f"{stem}.tflite"
    conv = subprocess.run([CONVERTER, str(path), "--text"], capture_output=True, text=True, timeout=120)
    assert conv.returncode == 0, conv.stderr
    xs = inputs_for(path)
    theirs = oracle.run(conv.stdout, *xs)
    ours = run(import_tflite(path.read_bytes(), None, path.name), xs)
    for a, b in zip(ours, theirs, strict=True):
        a = np.asarray(a)
        if a.dtype.kind == "f":
            np.testing.assert_allclose(a, np.asarray(b, a.dtype), rtol=1e-5, atol=1e-5)
        else:
            np.testing.assert_array_equal(a, np.asarray(b).astype(a.dtype))
