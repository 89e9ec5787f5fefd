"""tosa-run command line: exit codes, located diagnostics, bad inputs, fuzzed .npy files."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tosa_xdsl.tools.tosa_run import main

MODEL = """func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
  %0 = tosa.intdiv %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
"""


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path: Path):
    model = tmp_path / "m.mlir"
    model.write_text(MODEL)
    a, b, z = tmp_path / "a.npy", tmp_path / "b.npy", tmp_path / "z.npy"
    np.save(a, np.array([7, -7, 9], np.int32))
    np.save(b, np.array([2, 2, 3], np.int32))
    np.save(z, np.array([2, 0, 3], np.int32))
    return tmp_path, str(model), str(a), str(b), str(z)


def test_run_and_write_outputs(files):
    tmp, model, a, b, _ = files
    out = tmp / "o.npy"
    code, stdout, stderr = cli(model, "-i", a, "-i", b, "-o", str(out), "--print")
    assert code == 0, stderr
    np.testing.assert_array_equal(np.load(out), [3, -3, 3])
    assert "result #0: tensor<3xi32> = [3, -3, 3]" in stdout


def test_require_is_located_error(files):
    _, model, a, _, z = files
    code, _, stderr = cli(model, "-i", a, "-i", z)
    assert code == 1
    assert stderr.startswith(f"{model}:2:8: error: graph is unpredictable: REQUIRE(value2 != 0) failed in 'tosa.intdiv'")
    code, _, stderr = cli(model, "-i", a, "-i", z, "--allow-unpredictable")
    assert code == 0 and ": warning: graph is unpredictable" in stderr


@pytest.mark.parametrize("argv_tail,needle", [
    (["-i", "A"], "takes 2 input(s), 1 given"),
    (["-i", "A", "-i", "MISSING"], "cannot read input"),
    (["-i", "A", "-i", "MODEL"], "not a valid .npy"),
    (["-i", "A", "-i", "WRONGDTYPE"], "argument #1"),
    (["-i", "A", "-i", "WRONGSHAPE"], "expected shape [3]"),
    (["-i", "A", "-i", "A", "--entry", "nope"], "no function @nope"),
    (["-i", "A", "-i", "A", "--max-input-bytes", "4"], "more than --max-input-bytes"),
    (["-i", "A", "-i", "A", "--bogus"], "unrecognized arguments"),
])
def test_usage_errors_exit_2(files, argv_tail, needle):
    tmp, model, a, _, _ = files
    np.save(tmp / "wd.npy", np.array([1, 2, 3], np.int64))
    np.save(tmp / "ws.npy", np.array([1, 2], np.int32))
    subst = {"A": a, "MISSING": str(tmp / "nope.npy"), "MODEL": model,
             "WRONGDTYPE": str(tmp / "wd.npy"), "WRONGSHAPE": str(tmp / "ws.npy")}
    code, _, stderr = cli(model, *[subst.get(x, x) for x in argv_tail])
    assert code == 2, stderr
    assert needle in stderr and stderr.count("\n") == 1 and "Traceback" not in stderr


def test_parse_error_is_located(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @main() {\n  %0 = tosa.add\n}\n")
    code, _, stderr = cli(str(bad))
    assert code == 1 and stderr.startswith(f"{bad}:") and ": error: " in stderr


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300), cut=st.integers(0, 200))
def test_fuzzed_npy_never_tracebacks(files, data, cut):
    tmp, model, a, _, _ = files
    valid = Path(a).read_bytes()
    blob = valid[:cut] + data  # a corrupted header or body
    path = tmp / "fuzz.npy"
    path.write_bytes(blob)
    code, _, stderr = cli(model, "-i", a, "-i", str(path))
    assert code in (0, 1, 2)
    assert "Traceback" not in stderr and "internal error" not in stderr


BF16_CAST = """func.func @main(%a: tensor<2xi32>) -> tensor<2xbf16> {
  %0 = tosa.cast %a : (tensor<2xi32>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}
"""


@pytest.mark.parametrize("stage", [[], ["-p", "tosa-to-linalg-pipeline{validation=false}"],
                                   ["-p", "tosa-to-linalg-pipeline{validation=false},one-shot-bufferize,"
                                          "convert-linalg-to-affine-loops,lower-affine,convert-scf-to-cf"],
                                   ["--backend", "jit"]])
def test_every_stage_rounds_int_to_bf16_once(tmp_path, stage):
    """CAST i32 -> bf16 rounds once (2.13.1): 2**24 + 2**16 + 1 -> 2**24 + 2**17, at the TOSA
    level, after any lowering stage and natively (a double rounding through f32 gives 2**24)."""
    model = tmp_path / "m.mlir"
    model.write_text(BF16_CAST)
    x = tmp_path / "x.npy"
    np.save(x, np.array([0x01010001, -0x01010001], np.int32))
    code, out, err = cli(str(model), "-i", str(x), "--print", *stage)
    assert code == 0, err
    assert "[16908288, -16908288]" in out


def test_jit_validation_errors_are_located(tmp_path):
    """--backend jit with a target that lacks the bf16 extension: the validation error is a
    located diagnostic and exit 1, not an internal error."""
    model = tmp_path / "m.mlir"
    model.write_text(BF16_CAST)
    x = tmp_path / "x.npy"
    np.save(x, np.array([1, 2], np.int32))
    code, out, err = cli(str(model), "-i", str(x), "--backend", "jit", "--profile", "pro_fp")
    assert code == 1
    assert f"{model}:2:8: error:" in err and "requires extension bf16" in err
    assert "internal error" not in err


def test_jit_lowering_errors_are_located(tmp_path):
    """A module the lowering cannot take (CUSTOM) under --backend jit: a located error naming
    the op and exit 1, as `tosa-opt -p tosa-to-llvm` reports it."""
    model = tmp_path / "m.mlir"
    model.write_text('func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n'
                     '  %0 = tosa.custom %a {domain_name = "d", implementation_attrs = "", operator_name = "x"}'
                     ' : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n')
    x = tmp_path / "x.npy"
    np.save(x, np.zeros(2, np.float32))
    code, out, err = cli(str(model), "-i", str(x), "--backend", "jit")
    assert code == 1
    assert f"{model}:2:8: error: tosa-to-linalg: cannot lower 'tosa.custom'" in err
    assert "internal error" not in err
