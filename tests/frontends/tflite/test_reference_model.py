"""Our TOSA from .tflite files, run by Arm's reference model (tosa-tools, an independent
TOSA implementation), equals what our interpreter computes: bit-exact for integer models,
within float tolerance otherwise. Together with test_models.py (our interpreter vs
LiteRT) this ties the imported TOSA to both TFLite and the TOSA spec's reference."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (oracle)
import oracle
from tflite_oracle import MODELS, inputs_for

from tosa_xdsl.frontends.tflite import import_tflite
from tosa_xdsl.interpreter import run
from tosa_xdsl.printing import print_ir

CASES = ["conv_2d.int8", "depthwise_conv_2d.int8", "net_mobilenet.int8", "net_mobilenet.int16x8",
         "softmax.int8", "add.int16x8", "logistic.int16x8", "tanh.int8", "net_mobilenet.float",
         "net_attention.int8", "mean.int8", "gather.int8", "strided_slice.int8", "resize_bilinear.int8"]


@pytest.mark.parametrize("stem", CASES)
def test_reference_model_agrees(stem):
    try:
        oracle._tools_bin()  # pyright: ignore[reportPrivateUsage]
    except Exception as e:  # tosa-tools not installed
        pytest.skip(str(e))
    path = MODELS / f"{stem}.tflite"
    module = import_tflite(path.read_bytes(), None, path.name)
    xs = inputs_for(path)
    ours = [np.asarray(g) for g in run(module, xs)]
    theirs = oracle.run(print_ir(module, style="attr-dict"), *xs)
    for a, b in zip(ours, theirs, strict=True):
        if a.dtype.kind == "f":
            np.testing.assert_allclose(a, np.asarray(b, a.dtype), rtol=1e-5, atol=1e-5)
        else:
            np.testing.assert_array_equal(a, np.asarray(b).astype(a.dtype))
