"""The JIT's direct road (tosa_xdsl/codegen/direct_llvm.py: LLVM IR text straight from the
loop level) against the llvm-dialect road it replaces (tosa-to-llvm to the end, xDSL's LLVM
backend): the same bits on the example model and on the native test programs, with the
reference outputs (TFLite's) and the interpreter as independent checks; anything the emitter
does not know falls back to the llvm-dialect road, whole module, with the same results."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, parse
from native_programs import conv, depthwise, matmul, max_pool, random_inputs

from tosa_xdsl import jit
from tosa_xdsl.codegen import direct_llvm
from tosa_xdsl.interpreter import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples/face_detection_front.tosa.mlir"


def _both_roads(module, inputs, monkeypatch, **options):
    """(outputs of the direct road, outputs of the llvm-dialect road)."""
    monkeypatch.setenv(direct_llvm.SWITCH, "1")
    direct = jit.NativeModule(module, **options).call(inputs)
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    dialect = jit.NativeModule(module, **options).call(inputs)
    return direct, dialect


def _takes_direct_road(module, pipeline="tosa-to-llvm") -> bool:
    from tosa_xdsl.codegen.llvm import target_machine

    clone = module.clone()
    head, _ = direct_llvm.split_pipeline(pipeline)
    direct_llvm.lower(clone, head)
    tm = target_machine(2)
    try:
        direct_llvm.module_text(clone, triple=tm.triple, data_layout=str(tm.target_data), noalias="main")
    except direct_llvm.Unsupported:
        return False
    return True


def test_example_same_bits_both_roads(monkeypatch):
    module = parse(EXAMPLE.read_text())
    assert _takes_direct_road(module)
    x = np.load(ROOT / "examples/face_detection_front.input_0.npy")
    direct, dialect = _both_roads(module, [x], monkeypatch)
    assert_same(direct, dialect, "example: direct vs llvm-dialect road")
    shared = ROOT.parent / "shared/models" if (ROOT.parent / "shared/models").is_dir() else Path("/work/shared/models")
    expected = [shared / f"face_detection_front.expected_{i}.npy" for i in range(2)]
    if all(e.exists() for e in expected):  # TFLite's outputs: an independent oracle
        for got, want in zip(direct, expected):
            np.testing.assert_allclose(got, np.load(want), atol=1e-3)


PROGRAMS = {
    "conv_f32": conv(1, 8, 8, 3, 16, 3, 1),
    "conv_f32_stride2": conv(2, 9, 13, 5, 24, 3, 2),
    "conv_i8": conv(1, 6, 10, 7, 32, 3, 1, et="i8", acc="i32", out_et="i32", zp="-3"),
    "conv1x1_f16": conv(1, 5, 5, 8, 16, 1, 1, et="f16", acc="f32"),
    "depthwise_f32": depthwise(6, 8, 16, 1),
    "depthwise_m2_f32": depthwise(5, 6, 8, 2),
    "matmul_i8": matmul(1, 12, 7, 40, "i8", "i32"),
    "matmul_f32_batch": matmul(2, 9, 5, 64),
    "max_pool_f32": max_pool(6, 8, 16),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_same_bits_both_roads(name, monkeypatch):
    module = parse(PROGRAMS[name])
    inputs = random_inputs(module, seed=len(name))
    direct, dialect = _both_roads(module, inputs, monkeypatch)
    assert_same(direct, dialect, f"{name}: direct vs llvm-dialect road")
    if all(np.issubdtype(r.dtype, np.integer) for r in direct):
        assert_same(direct, run(module, inputs), f"{name}: direct road vs interpreter")


def test_fp_contract_same_bits_both_roads(monkeypatch):
    module = parse(matmul(1, 6, 9, 32))
    inputs = random_inputs(module, seed=3)
    direct, dialect = _both_roads(module, inputs, monkeypatch, fp_contract="fast")
    assert_same(direct, dialect, "fp-contract=fast: direct vs llvm-dialect road")


INTDIV = """
func.func @main(%a: tensor<2x5xi32>, %b: tensor<2x5xi32>) -> tensor<2x5xi32> {
  %0 = tosa.intdiv %a, %b : (tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}"""


def test_unknown_op_falls_back_to_the_dialect_road(monkeypatch):
    # integer division (arith.divsi) is not in the direct emitter: the whole module takes
    # the llvm-dialect road and still computes the interpreter's results
    module = parse(INTDIV)
    assert not _takes_direct_road(module)
    a = np.array([[7, -7, 9, 100, -9], [1, 2, 3, 4, 5]], np.int32)
    b = np.array([[2, 2, -4, 7, -1], [1, -2, 5, 3, 2]], np.int32)
    direct, dialect = _both_roads(module, [a, b], monkeypatch)
    assert_same(direct, dialect, "fallback")
    assert_same(direct, run(module, [a, b]), "fallback vs interpreter")


def test_unsupported_names_the_op():
    from xdsl.dialects.builtin import ModuleOp

    module = parse(INTDIV)
    head, _ = direct_llvm.split_pipeline("tosa-to-llvm")
    direct_llvm.lower(module, head)
    assert isinstance(module, ModuleOp)
    with pytest.raises(direct_llvm.Unsupported, match="arith.divsi"):
        direct_llvm.module_text(module, triple="x86_64-unknown-linux-gnu", data_layout="")


def test_only_the_plain_tosa_to_llvm_pipeline_is_split():
    assert direct_llvm.split_pipeline("tosa-to-llvm{validation=false threads=2}") is not None
    assert direct_llvm.split_pipeline("tosa-to-llvm,canonicalize") is None
    assert direct_llvm.split_pipeline("tosa-to-loops") is None


def test_cache_key_names_the_road(monkeypatch):
    module = parse(max_pool(4, 4, 8))
    monkeypatch.setenv(direct_llvm.SWITCH, "1")
    direct = jit.cache_key(module, "tosa-to-llvm", "main", 2)
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    assert jit.cache_key(module, "tosa-to-llvm", "main", 2) != direct


def test_float_literals_are_exact():
    # LLVM's hex form: a double's bits; an f32 is its exact widening; f16 as 0xH
    assert direct_llvm.float_literal(0.1, "double") == "0x3FB999999999999A"
    assert direct_llvm.float_literal(0.1, "float") == "0x3FB99999A0000000"
    assert direct_llvm.float_literal(-2.0, "half") == "0xHC000"
    assert direct_llvm.float_literal(float("inf"), "float") == "0x7FF0000000000000"
