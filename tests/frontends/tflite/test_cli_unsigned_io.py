"""uint8 models through tosa-run: inputs taken and outputs given as uint8 arrays, as TFLite's
interpreter takes and gives them (TOSA has no u8 tensors: the graph's RESCALEs read and write
them with input_unsigned/output_unsigned). Expected values: LiteRT's, on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

from tosa_xdsl.tools import tosa_run

pytest.importorskip("ai_edge_litert")
from tflite_oracle import MODELS, inputs_for, run_litert  # noqa: E402


@pytest.mark.parametrize("name", ["add.uint8io.tflite", "conv_2d.uint8io.tflite"])
def test_uint8_model_takes_and_gives_uint8(tmp_path, name):
    path = MODELS / name
    inputs = inputs_for(path)
    assert all(x.dtype == np.uint8 for x in inputs)
    args = [str(path)]
    for i, x in enumerate(inputs):
        np.save(tmp_path / f"in{i}.npy", x)
        args += ["-i", str(tmp_path / f"in{i}.npy")]
    expected = run_litert(path, inputs)
    for i in range(len(expected)):
        args += ["-o", str(tmp_path / f"out{i}.npy")]
    assert tosa_run.main(args) == 0
    for i, want in enumerate(expected):
        got = np.load(tmp_path / f"out{i}.npy")
        assert got.dtype == np.uint8 and want.dtype == np.uint8
        np.testing.assert_array_equal(got, want)
