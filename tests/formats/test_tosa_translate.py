"""tosa-translate: --tosa-serialize / --tosa-deserialize (as Arm's translator names them),
files and `-` for stdin/stdout, located errors, exit codes 1 (bad input) / 2 (bad CLI)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tosa_xdsl.formats import loader
from tosa_xdsl.formats.tosa_flatbuffer.reader import decode
from tosa_xdsl.tools.tosa_translate import main

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arm_tosa import AVAILABLE, arm_deserialize

TRANSLATE = str(Path(sys.executable).parent / "tosa-translate")
MLIR = """func.func @main(%a: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = tosa.clamp %a {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
"""


def _run(*args, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([TRANSLATE, *args], input=stdin, capture_output=True, timeout=120)


def test_files_both_ways(tmp_path, capsys):
    src, fb, back = tmp_path / "m.mlir", tmp_path / "m.tosa", tmp_path / "back.mlir"
    src.write_text(MLIR)
    assert main(["--tosa-serialize", str(src), "-o", str(fb)]) == 0
    assert decode(fb.read_bytes())["regions"][0]["blocks"][0]["inputs"] == ["TosaInput_0"]
    assert main(["--tosa-deserialize", str(fb), "-o", str(back)]) == 0
    text = back.read_text()
    assert "tosa.clamp %0 min_val(0.000000e+00 : f32) max_val(6.000000e+00 : f32)" in text
    assert main(["--tosa-deserialize", str(fb), "--tosa-syntax", "attr-dict"]) == 0
    assert "{max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32}" in capsys.readouterr().out
    assert main(["--tosa-deserialize", str(fb), "--print-op-generic"]) == 0
    assert '"tosa.clamp"(%0) <{' in capsys.readouterr().out


def test_stdin_stdout_pipeline():
    fb = _run("--tosa-serialize", "-", stdin=MLIR.encode())
    assert fb.returncode == 0 and fb.stdout[4:8] == b"TOSA"
    text = _run("--tosa-deserialize", stdin=fb.stdout)
    assert text.returncode == 0 and b"tosa.clamp" in text.stdout
    again = _run("--tosa-serialize", "-", stdin=fb.stdout)  # any input the loader knows
    assert again.returncode == 0 and decode(again.stdout)["regions"] == decode(fb.stdout)["regions"]


@pytest.mark.skipif(not AVAILABLE, reason="tosa-tools not installed")
def test_schema_version_option():
    fb = _run("--tosa-serialize", "--tosa-schema-version", "1.0", stdin=MLIR.encode())
    assert fb.returncode == 0
    assert decode(fb.stdout)["version"] == {"_major": 1, "_minor": 0, "_patch": 0, "_draft": False}
    assert arm_deserialize(fb.stdout).returncode == 0


@pytest.mark.parametrize("args,stdin,code,message", [
    (["--tosa-serialize"], b"func.func @f( {", 1, "<stdin>:1:15: error: "),
    (["--tosa-serialize"], b"\x00\x01\xff", 1, "<stdin>: error: " + loader.unknown_message()),
    (["--tosa-deserialize"], MLIR.encode(), 1, "<stdin>: error: not a TOSA flatbuffer"),
    (["--tosa-deserialize"], b"\x10\x00\x00\x00TOSA\x00\x00", 1, "<stdin>: error: "),
    (["--tosa-serialize"], b"func.func @f(%a: tensor<2xi32>, %b: tensor<2xf32>) -> tensor<2xi32> {\n"
     b"  %0 = tosa.add %a, %b : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xi32>\n  return %0 : tensor<2xi32>\n}",
     1, "<stdin>:2:8: error: 'tosa.add' op input2 element type f32 must equal input1 element type i32"),
    (["--tosa-serialize"], b"func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
     b"  %0 = arith.addf %a, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}", 1,
     "<stdin>: error: 'arith.addf' has no TOSA flatbuffer form"),
    ([], b"", 2, "tosa-translate: error: give exactly one translation"),
    (["--tosa-serialize", "--tosa-deserialize"], b"", 2, "tosa-translate: error: give only one translation"),
    (["--frobnicate"], b"", 2, "tosa-translate: error: unrecognized arguments: --frobnicate"),
    (["--tosa-serialize", "/no/such/file"], b"", 2, "tosa-translate: error: cannot open input file '/no/such/file'"),
    (["--tosa-serialize", "-", "-o", "/no/such/dir/x.tosa"], MLIR.encode(), 2,
     "tosa-translate: error: cannot open output file '/no/such/dir/x.tosa'"),
], ids=["parse", "binary", "not-tosa", "bad-tosa", "verify", "not-tosa-op", "none", "two", "flag", "input", "output"])
def test_errors(args, stdin, code, message, monkeypatch, capfd):
    # in-process (a subprocess costs ~2 s of imports); test_stdin_stdout_pipeline and
    # test_errors_from_the_console_script cover the installed script
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    returncode = main(list(args) + (["-"] if len(args) == 1 and args[0].startswith("--tosa") else []))
    out, err = capfd.readouterr()
    assert returncode == code, err
    assert err.startswith(message), err
    if not re.match(r"<stdin>:\d+:\d+:", message):  # MLIR text errors show the source line and a caret
        assert err.count("\n") == 1, err
    assert "Traceback" not in err and out == ""


def test_errors_from_the_console_script():
    p = _run("--tosa-deserialize", stdin=b"\x10\x00\x00\x00TOSA\x00\x00")
    assert p.returncode == 1 and p.stderr.startswith(b"<stdin>: error: ") and p.stderr.count(b"\n") == 1
    p = _run("--frobnicate")
    assert p.returncode == 2 and p.stderr == b"tosa-translate: error: unrecognized arguments: --frobnicate\n"
