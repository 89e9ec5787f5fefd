"""Ahead-of-time compilation: `tosa-translate --emit-shared-library` makes a .so that ctypes
loads and calls with the C signature of docs/native.md (inputs, then one out-parameter per
result, each a pointer to a C-contiguous buffer). Integer results equal a numpy
implementation of the model and the interpreter exactly."""

from __future__ import annotations

import ctypes
import io
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest
from codegen_model import WEIGHTS, inputs, interpret, model, parse
from native_programs import matmul

from tosa_xdsl.codegen.shared_library import linker
from tosa_xdsl.jit import NativeModule
from tosa_xdsl.tools.tosa_translate import main

pytestmark = pytest.mark.skipif(linker() is None, reason="no C compiler driver (cc) to link with")


def numpy_model(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """CONV2D (OHWI weights, no padding, stride 1) + bias + ADD, straight from spec 2.3.3."""
    out = np.zeros((1, 5, 3, 4), np.int64)
    for ky in range(1):
        for kx in range(3):
            patch = x[:, ky:ky + 5, kx:kx + 3, :].astype(np.int64)  # N, OH, OW, C
            out += np.einsum("nhwc,oc->nhwo", patch, WEIGHTS[:, ky, kx, :].astype(np.int64))
    return (out + np.array([100, -100, 7, 0]) + y).astype(np.int32)


def build(tmp_path: Path, text: str, *flags: str) -> Path:
    src, so = tmp_path / "m.mlir", tmp_path / f"m{len(flags)}.so"
    src.write_text(text)
    err = io.StringIO()
    with redirect_stderr(err):
        code = main(["--emit-shared-library", *flags, str(src), "-o", str(so)])
    assert code == 0, err.getvalue()
    return so


def test_shared_library_runs_with_ctypes(tmp_path):
    lib = ctypes.CDLL(str(build(tmp_path, model())))
    lib.main.argtypes = [ctypes.c_void_p] * 3
    lib.main.restype = None
    for seed in range(3):
        x, y = inputs(seed)
        out = np.zeros((1, 5, 3, 4), np.int32)
        lib.main(x.ctypes.data, y.ctypes.data, out.ctypes.data)
        np.testing.assert_array_equal(out, numpy_model(x, y))
        np.testing.assert_array_equal(out, interpret(model(), [x, y])[0])


def test_every_function_is_exported_under_its_name(tmp_path):
    lib = ctypes.CDLL(str(build(tmp_path, model(entry="conv_add"))))
    x, y = inputs(5)
    out = np.zeros((1, 5, 3, 4), np.int32)
    lib.conv_add(ctypes.c_void_p(x.ctypes.data), ctypes.c_void_p(y.ctypes.data), ctypes.c_void_p(out.ctypes.data))
    np.testing.assert_array_equal(out, numpy_model(x, y))


def test_no_linker_is_one_line(tmp_path, monkeypatch):
    src = tmp_path / "m.mlir"
    src.write_text(model())
    monkeypatch.setenv("CC", "no-such-compiler-tosa-xdsl")
    err = io.StringIO()
    with redirect_stderr(err):
        code = main(["--emit-shared-library", str(src), "-o", str(tmp_path / "m.so")])
    assert code == 1
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and "needs a C compiler driver" in lines[0], err.getvalue()
    assert not (tmp_path / "m.so").exists()


def test_dynamic_shapes_are_a_diagnostic(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text("""func.func @main(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %0 = tosa.add %a, %b : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
""")
    err = io.StringIO()
    with redirect_stderr(err):
        code = main(["--emit-shared-library", str(src), "-o", str(tmp_path / "m.so")])
    assert code == 1
    assert "Traceback" not in err.getvalue() and "error" in err.getvalue()


def test_fp_contract_off_gives_the_uncontracted_bits(tmp_path):
    """A float matmul: by default the library may use FMA (within the spec's dot-product bound:
    2 * (K + 1) roundings of the dot product of the absolute values, tosa-1.0.1-spec.md);
    `--fp-contract=off` gives exactly the bits of the JIT's fp_contract="off" code."""
    text = matmul(1, 9, 67, 24)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((1, 9, 67), np.float32), rng.standard_normal((1, 67, 24), np.float32)
    want = interpret(text, [a, b])[0]
    bound = 2 * (67 + 1) * 2.0 ** -24 * np.abs(interpret(text, [np.abs(a), np.abs(b)])[0]).astype(np.float64)
    for flags in ((), ("--fp-contract=off",)):
        lib = ctypes.CDLL(str(build(tmp_path, text, *flags)))
        lib.main.argtypes = [ctypes.c_void_p] * 3
        out = np.zeros((1, 9, 24), np.float32)
        lib.main(a.ctypes.data, b.ctypes.data, out.ctypes.data)
        assert (np.abs(out.astype(np.float64) - want) <= bound).all()
        if flags:
            off = NativeModule(parse(text), fp_contract="off").call([a, b])[0]
            np.testing.assert_array_equal(out.view(np.uint32), off.view(np.uint32))


def test_fp_contract_is_for_shared_libraries_only(tmp_path, capsys):
    (tmp_path / "m.mlir").write_text(model())
    assert main(["--tosa-serialize", "--fp-contract=off", str(tmp_path / "m.mlir"), "-o", str(tmp_path / "m.tosa")]) == 2
    assert "--fp-contract applies to --emit-shared-library only" in capsys.readouterr().err
