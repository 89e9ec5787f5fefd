"""f64 and i64 compute at their own width in the interpreter, the linalg pipeline and the JIT.
Expected values: numpy in float64/int64, and the spec's CAST (round half to even, saturate to
the integer range: 2.13.1)."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from tosa_xdsl.tools.tosa_run import main as tosa_run

BACKENDS = ([], ["-p", "tosa-to-linalg-pipeline{validation=false}"], ["--backend", "jit"])
IDS = ("interp", "linalg", "jit")

CASES = {
    "f64_add": (
        "func.func @main(%a: tensor<3xf64>, %b: tensor<3xf64>) -> tensor<3xf64> {\n"
        "  %0 = tosa.add %a, %b : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>\n"
        "  return %0 : tensor<3xf64>\n}\n",
        [np.array([0.1, 1e300, 1.0]), np.array([0.2, 1e300, 2.0**-40])],
        np.array([0.1, 1e300, 1.0]) + np.array([0.2, 1e300, 2.0**-40]),  # f32 would round these
    ),
    "i64_add": (
        "func.func @main(%a: tensor<2xi64>, %b: tensor<2xi64>) -> tensor<2xi64> {\n"
        "  %0 = tosa.add %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>\n"
        "  return %0 : tensor<2xi64>\n}\n",
        [np.array([2**40, -(2**50)], np.int64), np.array([2**40, 7], np.int64)],
        np.array([2**41, -(2**50) + 7], np.int64),
    ),
    "cast_f32_to_i64_saturates": (
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xi64> {\n"
        "  %0 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xi64>\n"
        "  return %0 : tensor<4xi64>\n}\n",
        [np.array([1e30, -1e30, 2.5, -3.5], np.float32)],
        np.array([2**63 - 1, -(2**63), 2, -4], np.int64),
    ),
}


@pytest.mark.parametrize("backend", BACKENDS, ids=IDS)
@pytest.mark.parametrize("case", CASES, ids=CASES.keys())
def test_wide_types_compute_at_their_width(case, backend, tmp_path):
    text, inputs, expected = CASES[case]
    src = tmp_path / "m.mlir"
    src.write_text(text)
    args = [str(src)]
    for i, x in enumerate(inputs):
        np.save(tmp_path / f"in{i}.npy", x)
        args += ["-i", str(tmp_path / f"in{i}.npy")]
    out = tmp_path / "out.npy"
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_run([*args, "-o", str(out), *backend])
    assert code == 0, err.getvalue()
    got = np.load(out)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
