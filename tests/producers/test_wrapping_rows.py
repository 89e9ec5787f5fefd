"""ADD/SUB/MUL on bool, narrow and unsigned integers (i1, i8, i16, ui8, ui16, ui32; the same
type in and out): rows the TOSA 1.0.1 tables lack but upstream MLIR's verifier accepts
(`Tosa_Tensor` = any signless or unsigned integer, TosaTypesBase.td).

The oracle is upstream MLIR 22 itself:
- its verifier accepts each graph (mlir-opt parses and verifies it), and so does ours;
- its `tosa-validate` reports each combination; ours says the same words (signless rows:
  upstream's profile message verbatim; unsigned: upstream's "is not profile-aligned" rule,
  which we follow with the pass that fixes it);
- the values are what upstream's own lowering computes, run natively: MLIR 22's
  `tosa-convert-integer-type-to-signless`, `tosa-to-linalg`, bufferization (results to
  out-params) and LLVM lowering (bare pointers),
  `mlir-translate`, LLVM's JIT. Our interpreter, every lowering stage and our JIT must give
  the same bits (modular arithmetic: arith.addi/subi/muli on the signless bits).
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from mlir22_native import BIN, run_main

from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.values import dtype_of
from tosa_xdsl.jit import NativeModule
from tosa_xdsl.tools.tosa_opt import main as tosa_opt

pytestmark = pytest.mark.skipif(not (BIN / "mlir-opt").exists(), reason="MLIR 22 not installed")

UPSTREAM = ("builtin.module(func.func(tosa-convert-integer-type-to-signless),func.func(tosa-to-linalg),"
            "func.func(tosa-to-arith),one-shot-bufferize{bufferize-function-boundaries "
            "function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{modify-public-functions},"
            "convert-linalg-to-loops,lower-affine,convert-scf-to-cf,expand-strided-metadata,finalize-memref-to-llvm,"
            "convert-func-to-llvm{use-bare-ptr-memref-call-conv},convert-to-llvm,reconcile-unrealized-casts)")
STAGES = ("tosa-to-linalg-pipeline{validation=false}",
          "tosa-to-linalg-pipeline{validation=false},one-shot-bufferize",
          "tosa-to-loops{validation=false}",
          "tosa-to-loops{validation=false},lower-affine,convert-scf-to-cf")
TYPES = ("i1", "i8", "i16", "ui8", "ui16", "ui32")


def _graph(t: str) -> str:
    ty = f"tensor<2x5x{t}>"
    return f"""func.func @main(%a: {ty}, %b: {ty}) -> ({ty}, {ty}, {ty}) {{
  %s = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : () -> tensor<1xi8>
  %0 = tosa.add %a, %b : ({ty}, {ty}) -> {ty}
  %1 = tosa.sub %a, %b : ({ty}, {ty}) -> {ty}
  %2 = tosa.mul %a, %b, %s : ({ty}, {ty}, tensor<1xi8>) -> {ty}
  return %0, %1, %2 : {ty}, {ty}, {ty}
}}
"""


def _inputs(t: str, seed: int) -> list[np.ndarray]:
    dtype = dtype_of(parse(_graph(t)).body.block.first_op.function_type.inputs.data[0].element_type)
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return [rng.random((2, 5)) < 0.5 for _ in range(2)]
    info = np.iinfo(dtype)
    xs = [rng.integers(info.min, info.max, (2, 5), endpoint=True).astype(dtype) for _ in range(2)]
    xs[0][0, :3] = [info.max, info.min, info.max]  # overflow both ways
    xs[1][0, :3] = [1, 1, info.max]
    return xs


def _upstream_native(src: str, inputs: list[np.ndarray], like: list[np.ndarray] | None = None,
                     pipeline: str = UPSTREAM) -> list[np.ndarray]:
    """The results of `main` (shaped as `like`, default: three of the first input's)."""
    outs = [np.zeros_like(x) for x in like] if like is not None else [np.zeros_like(inputs[0]) for _ in range(3)]
    return run_main(src, [f"--pass-pipeline={pipeline}"], inputs, outs)


@pytest.mark.parametrize("t", TYPES)
def test_values_are_upstreams(t):
    src = _graph(t)
    xs = _inputs(t, 0)
    want = _upstream_native(src, xs)
    assert_same(run(parse(src), xs), want, f"{t} interpreter")
    for stage in STAGES:
        assert_same(run(lower(src, stage), xs), want, f"{t} {stage}")
    assert_same(NativeModule(parse(src), pipeline="tosa-to-llvm{validation=false}").call(xs), want, f"{t} jit")


def test_bool_is_xor_xor_and():
    """The same values in words: i1 addition and subtraction modulo 2 are xor, the product and."""
    a, b = np.array([[0, 0, 1, 1]], bool), np.array([[0, 1, 0, 1]], bool)
    src = _graph("i1").replace("2x5", "1x4")
    add, sub, mul = run(parse(src), [a, b])
    np.testing.assert_array_equal(add, a ^ b)
    np.testing.assert_array_equal(sub, a ^ b)
    np.testing.assert_array_equal(mul, a & b)


def _ours(args: list[str], src: str, tmp_path: Path) -> tuple[int, str]:
    path = tmp_path / "g.mlir"
    path.write_text(src)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_opt([str(path), *args, "-o", "/dev/null"])
    return code, err.getvalue()


def _errors(text: str) -> list[str]:
    return [m.strip() for m in re.findall(r"error: (.*)", text)]


@pytest.mark.parametrize("t", TYPES)
def test_verifier_accepts_and_validate_reports_as_upstream(t, tmp_path):
    src = _graph(t)
    code, err = _ours([], src, tmp_path)
    assert code == 0, err
    up = subprocess.run([str(BIN / "mlir-opt"), "-o", "/dev/null"], input=src, capture_output=True, text=True)
    assert up.returncode == 0, up.stderr  # upstream's verifier accepts the same graph
    code, err = _ours(["-p", "tosa-validate"], src, tmp_path)
    up = subprocess.run([str(BIN / "mlir-opt"), "--tosa-validate", "-o", "/dev/null"], input=src,
                        capture_output=True, text=True)
    ours, theirs = _errors(err), _errors(up.stderr)
    assert code == 1 and len(ours) == len(theirs) == 3
    for o, u in zip(ours, theirs):
        if t.startswith("ui"):  # upstream's rule, then the pass that fixes it
            assert o == u + "; run tosa-convert-integer-type-to-signless"
        else:
            assert o == u


def test_widened_unsigned_product_multiplies_unsigned_values():
    """MUL ui8 x ui8 -> ui32 (the widened i8 row): the product of the unsigned values (numpy's
    uint32 product), zero-extended in every stage and the JIT."""
    src = """func.func @main(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui32> {
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %s : (tensor<4xui8>, tensor<4xui8>, tensor<1xi8>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}"""
    xs = [np.array([200, 255, 0, 7], np.uint8), np.array([200, 255, 9, 1], np.uint8)]
    want = [xs[0].astype(np.uint32) * xs[1].astype(np.uint32)]
    assert_same(run(parse(src), xs), want, "interpreter")
    for stage in STAGES:
        assert_same(run(lower(src, stage), xs), want, stage)
    assert_same(NativeModule(parse(src), pipeline="tosa-to-llvm{validation=false}").call(xs), want, "jit")
