"""`fp-contract=fast`, the default of tosa-to-llvm / NativeModule / `tosa-run --backend jit`
(`fp-contract=off` turns it off): float dot products may use FMA. The results are not the
interpreter's bits, so they are checked against the spec's bound instead (tosa-1.0.1-spec.md,
"Dot product accuracy requirements"): each output may be off the fp64 result by
ABS_BOUND * 2^(-1 - 23) * bnd, ABS_BOUND = 2 * ksb, ksb = KS + 1 (f32 accumulator and output, a
bias), bnd the dot product of the absolute values. The interpreter (two roundings per step) is
within that bound too, so the FMA results must be within twice the bound of the interpreter's.
Integer programs are untouched by the switch (bit-identical to the interpreter);
`fp-contract=off` gives the plain loop nests' float bits (test_register_tiling.py compares the
register-tiled nests with the untiled ones that way).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from native_programs import conv, depthwise, matmul, random_inputs

from tosa_xdsl import jit
from tosa_xdsl.interpreter import run

# name: (program, KS = terms per output); odd sizes so tiles leave remainders
CASES = {
    "conv3x3_f32": (conv(1, 9, 7, 5, 24, 3, 1), 3 * 3 * 5),
    "conv3x3_stride2_f32": (conv(2, 11, 13, 3, 16, 3, 2), 3 * 3 * 3),
    "conv1x1_f32": (conv(1, 7, 5, 33, 40, 1, 1), 33),
    "depthwise_f32": (depthwise(7, 9, 24, 1), 9),
    "matmul_f32": (matmul(2, 7, 67, 48), 67),
    "matmul_f32_ragged": (matmul(1, 5, 19, 100), 19),
}


def _bound(module, inputs, ks: int) -> list[np.ndarray]:
    """Twice the spec's per-element bound (see the module docstring); the interpreter computes
    bnd from the absolute inputs (its own rounding is far below the bound's slack)."""
    bnd = run(module, [np.abs(x) for x in inputs])
    return [2 * (2 * (ks + 1)) * 2.0 ** -24 * np.abs(b).astype(np.float64) for b in bnd]


@pytest.mark.parametrize("name", sorted(CASES))
def test_fma_within_the_spec_bound(name):
    src, ks = CASES[name]
    module = parse(src)
    inputs = random_inputs(module, seed=len(name))
    fast = jit.NativeModule(parse(src)).call(inputs)  # the default
    want = run(module, inputs)
    for got, ref, bound in zip(fast, want, _bound(module, inputs, ks)):
        err = np.abs(got.astype(np.float64) - ref.astype(np.float64))
        assert (err <= bound).all(), f"{name}: error {err.max():.3g} above the bound at {np.argmax(err - bound)}"


def _contracted(module) -> list:
    return [op for op in module.walk() if op.name in ("arith.mulf", "arith.addf") and "contract" in str(op.fastmath)]


def test_the_pass_runs_by_default_and_not_when_off():
    src = CASES["conv1x1_f32"][0]
    assert _contracted(lower(src, "tosa-to-loops")), "no contracted multiply-add in the default loops"
    assert _contracted(lower(src, "tosa-to-loops{fp-contract=fast}"))
    assert not _contracted(lower(src, "tosa-to-loops{fp-contract=off}"))


def test_integers_unchanged():
    src = conv(1, 6, 10, 7, 32, 3, 1, et="i8", acc="i32", out_et="i32", zp="-3")
    module = parse(src)
    inputs = random_inputs(module, seed=3)
    assert_same(jit.NativeModule(parse(src), fp_contract="fast").call(inputs), run(module, inputs), "i8 conv")


def test_bad_option():
    with pytest.raises(ValueError, match="fp_contract"):
        jit.NativeModule(parse(CASES["matmul_f32"][0]), fp_contract="on")
    with pytest.raises(ValueError, match="fp-contract must be off or fast"):
        lower(CASES["matmul_f32"][0], "tosa-to-llvm{fp-contract=slow}")


def test_tosa_run_flag(tmp_path):
    src, ks = CASES["matmul_f32"]
    module = parse(src)
    inputs = random_inputs(module, seed=1)
    (tmp_path / "m.mlir").write_text(src)
    args = []
    for i, x in enumerate(inputs):
        np.save(tmp_path / f"x{i}.npy", x)
        args += ["-i", str(tmp_path / f"x{i}.npy")]
    cmd = [sys.executable, "-m", "tosa_xdsl.tools.tosa_run", str(tmp_path / "m.mlir"), "--backend", "jit",
           "--no-cache", *args, "-o", str(tmp_path / "out.npy")]
    want = run(module, inputs)[0]
    for flag in ([], ["--fp-contract=fast"]):  # the default is fast
        done = subprocess.run([*cmd, *flag], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        err = np.abs(np.load(tmp_path / "out.npy").astype(np.float64) - want)
        assert (err <= _bound(module, inputs, ks)[0]).all()
    done = subprocess.run([*cmd, "--fp-contract=off"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    off = jit.NativeModule(parse(src), fp_contract="off").call(inputs)  # the plain loop nests' order
    assert_same([np.load(tmp_path / "out.npy")], off, "tosa-run --fp-contract=off")
    bad = subprocess.run([*cmd, "--fp-contract=sometimes"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "fp-contract" in bad.stderr and "Traceback" not in bad.stderr
