"""The command lines: `tosa-translate --import-tflite`, `tosa-run model.tflite` (the loader
recognises `TFL3`), `tosa-opt -p tosa-legalize-tfl` on tfl MLIR text, and their errors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from tflite_oracle import MODELS, inputs_for, run_litert

TOOLS = "tosa_xdsl.tools."


def _run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", TOOLS + tool, *args], capture_output=True, text=True, timeout=120)


def test_translate_import_tflite(tmp_path):
    out = tmp_path / "m.mlir"
    p = _run("tosa_translate", "--import-tflite", str(MODELS / "conv_2d.int8.tflite"), "-o", str(out))
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert "tosa.conv2d" in text and "tosa.rescale" in text and "tfl." not in text.replace("tfl.description", "").replace("tfl.schema_version", "")


def test_tosa_run_reads_tflite_and_matches_litert(tmp_path):
    model = MODELS / "net_mobilenet.int8.tflite"
    x = inputs_for(model)[0]
    np.save(tmp_path / "x.npy", x)
    p = _run("tosa_run", str(model), "-i", str(tmp_path / "x.npy"), "-o", str(tmp_path / "y.npy"))
    assert p.returncode == 0, p.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), run_litert(model, [x])[0])


def test_tosa_opt_legalizes_tfl_text(tmp_path):
    from tosa_xdsl.frontends.tflite import read_tflite

    src = tmp_path / "m.tfl.mlir"
    src.write_text(str(read_tflite((MODELS / "add.int8.tflite").read_bytes())))
    p = _run("tosa_opt", str(src), "-p", "tosa-legalize-tfl")
    assert p.returncode == 0, p.stderr
    assert "tosa.add" in p.stdout and '"tfl.add"' not in p.stdout


@pytest.mark.parametrize("tool", ["tosa_translate", "tosa_run"])
def test_bad_tflite_is_one_line(tmp_path, tool):
    bad = tmp_path / "bad.tflite"
    bad.write_bytes((MODELS / "add.float.tflite").read_bytes()[:40])
    args = ["--import-tflite", str(bad)] if tool == "tosa_translate" else [str(bad)]
    p = _run(tool, *args)
    assert p.returncode == 1
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{bad}: error: "), p.stderr


def test_unsupported_operator_is_named(tmp_path):
    p = _run("tosa_translate", "--import-tflite", str(MODELS / "resize_bilinear.int16x8.tflite"))
    assert p.returncode == 1
    assert "'tfl.resize_bilinear'" in p.stderr and "subgraph 0, operator 0" in p.stderr
