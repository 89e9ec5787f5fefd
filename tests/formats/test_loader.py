"""Inputs recognised by their bytes (tosa_xdsl.formats.loader): MLIR text, MLIR bytecode,
TOSA flatbuffers and registered formats, whatever the file name; unknown bytes get one
clean line. tosa-opt and tosa-run read .tosa files through it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

import tosa_xdsl
from tosa_xdsl.context import make_context
from tosa_xdsl.formats import loader
from tosa_xdsl.formats.tosa_flatbuffer import serialize

BIN = Path(sys.executable).parent
ADD = """func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
  %0 = tosa.add %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
"""


@pytest.fixture
def tosa_file(tmp_path) -> Path:
    # a .tosa file named like MLIR text: the name must not matter
    p = tmp_path / "model.mlir"
    p.write_bytes(serialize(Parser(make_context(), ADD).parse_module()))
    return p


def test_detect():
    assert loader.detect(ADD.encode()) is None
    assert loader.detect(b"ML\xefR\x00\x01").name == "bytecode"
    assert loader.detect(b"\x10\x00\x00\x00TOSA\x00\x00").name == "tosa"
    assert loader.detect(b"\x10\x00\x00\x00TFL3\x00\x00").name == "tflite"


def test_load_by_content(tosa_file, tmp_path):
    m = tosa_xdsl.load(tosa_file)
    assert "tosa.add" in {op.name for op in m.walk()}
    text = tmp_path / "model.tosa"  # MLIR text named like a flatbuffer
    text.write_text(ADD)
    assert "tosa.add" in {op.name for op in tosa_xdsl.load(text).walk()}
    assert "tosa.add" in {op.name for op in tosa_xdsl.load(tosa_file.read_bytes()).walk()}


@pytest.mark.parametrize("data", [b"\x00\x01\x02\xff\xfe binary", b"\x89PNG\r\n\x1a\n\x00\x00",
                                  bytes(range(256))])
def test_unknown_binary(data):
    with pytest.raises(loader.LoadError) as e:
        tosa_xdsl.load(data, filename="x.bin")
    assert str(e.value) == f"x.bin: error: {loader.unknown_message()}"
    assert loader.unknown_message().startswith("not MLIR text, MLIR bytecode, a TOSA flatbuffer")


def test_text_errors_are_located():
    with pytest.raises(loader.LoadError, match=r"^t\.mlir:2:1: error: "):
        tosa_xdsl.load(b"func.func @f() {\n%%%\n}", filename="t.mlir")


def test_bytecode_plugs_in_by_module_path():
    data = b"ML\xefR" + bytes(20)
    import importlib.util

    if importlib.util.find_spec("tosa_xdsl.formats.bytecode") is None:
        with pytest.raises(loader.LoadError, match="^b.mlirbc: error: MLIR bytecode support not installed$"):
            tosa_xdsl.load(data, filename="b.mlirbc")
    else:  # installed: whatever it says about 20 zero bytes is one clean line
        with pytest.raises(loader.LoadError, match="^b.mlirbc: error: "):
            tosa_xdsl.load(data, filename="b.mlirbc")


def test_register_a_format(monkeypatch):
    monkeypatch.setattr(loader, "FORMATS", list(loader.FORMATS))
    seen = {}

    def load_fake(data, ctx, filename):
        seen["args"] = (data[4:8], filename)
        return Parser(ctx, ADD).parse_module()

    loader.register(loader.Format("tflite", "a TFLite flatbuffer", lambda d: d[4:8] == b"TFL3", load_fake))
    m = tosa_xdsl.load(b"\x00\x00\x00\x00TFL3....", filename="m.tflite")
    assert seen["args"] == (b"TFL3", "m.tflite") and m is not None
    with pytest.raises(loader.LoadError, match=re.escape(loader.unknown_message())):
        tosa_xdsl.load(b"\x00\xff", filename="x")
    # a new name is appended; a known name is replaced in place
    loader.register(loader.Format("onnx", "an ONNX model", lambda d: False, "no.such.module:load",
                                  "ONNX support not installed"))
    assert [f.name for f in loader.FORMATS][-1] == "onnx"
    assert [f.name for f in loader.FORMATS].count("tflite") == 1


def test_reader_errors_are_one_line(tosa_file):
    data = tosa_file.read_bytes()[:40]
    with pytest.raises(loader.LoadError) as e:
        tosa_xdsl.load(data, filename="cut.tosa")
    msg = str(e.value)
    assert msg.startswith("cut.tosa: error: ") and "\n" not in msg and "offset" in msg


def _cli(*args, stdin: bytes | None = None):
    return subprocess.run([str(BIN / args[0]), *args[1:]], input=stdin, capture_output=True, timeout=120)


def test_tosa_opt_reads_tosa(tosa_file):
    p = _cli("tosa-opt", str(tosa_file))
    assert p.returncode == 0, p.stderr
    assert b"tosa.add" in p.stdout and b'tosa.tensor_name = "TosaInput_0"' in p.stdout
    p = _cli("tosa-opt", "-", stdin=tosa_file.read_bytes())
    assert p.returncode == 0 and b"tosa.add" in p.stdout


def test_tosa_opt_unknown_binary_is_one_clean_line(tmp_path):
    f = tmp_path / "junk.mlir"
    f.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\xff\xfe\xfd")
    p = _cli("tosa-opt", str(f))
    assert p.returncode == 1
    assert p.stderr == f"{f}: error: {loader.unknown_message()}\n".encode()
    assert p.stdout == b""


def test_tosa_run_runs_tosa(tosa_file, tmp_path):
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.array([1, 2, 3], np.int32))
    np.save(b, np.array([10, 20, 30], np.int32))
    p = _cli("tosa-run", str(tosa_file), "-i", str(a), "-i", str(b), "--print")
    assert p.returncode == 0, p.stderr
    assert b"[11, 22, 33]" in p.stdout
    bad = tmp_path / "bad.tosa"
    bad.write_bytes(tosa_file.read_bytes()[:60])
    p = _cli("tosa-run", str(bad), "-i", str(a), "-i", str(b))
    assert p.returncode == 1 and p.stderr.startswith(f"{bad}: error: ".encode())
    assert p.stderr.count(b"\n") == 1 and b"Traceback" not in p.stderr
