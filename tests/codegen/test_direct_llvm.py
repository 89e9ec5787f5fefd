"""The JIT's direct road (tosa_xdsl/codegen/direct_llvm/: LLVM IR text straight from the
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


def test_example_same_object_code_both_roads(monkeypatch):
    """The example takes the direct road, whose object code is byte for byte the llvm-dialect
    road's (so the same bits and the same speed), and matches TFLite's outputs."""
    module = parse(EXAMPLE.read_text())
    done = direct_llvm.lower_and_compile(module.clone(), "tosa-to-llvm", "main", 2)
    assert done is not None, "the example must take the direct road"
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    dialect, function_type = jit.lower_and_compile(module, "tosa-to-llvm", "main", 2)
    assert done[0] == dialect
    assert done[1] == function_type
    shared = ROOT.parent / "shared/models" if (ROOT.parent / "shared/models").is_dir() else Path("/work/shared/models")
    expected = [shared / f"face_detection_front.expected_{i}.npy" for i in range(2)]
    if all(e.exists() for e in expected):  # TFLite's outputs: an independent oracle
        x = np.load(ROOT / "examples/face_detection_front.input_0.npy")
        outs = [np.zeros((1, 896, 16), np.float32), np.zeros((1, 896, 1), np.float32)]
        jit.from_object(done[0], "main", done[1])(x, *outs)
        for got, want in zip(outs, expected):
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
def test_programs_same_object_code_both_roads(name, monkeypatch):
    module = parse(PROGRAMS[name])
    done = direct_llvm.lower_and_compile(module.clone(), "tosa-to-llvm", "main", 2)
    assert done is not None, f"{name} must take the direct road"
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    assert done[0] == jit.lower_and_compile(module, "tosa-to-llvm", "main", 2)[0]
    monkeypatch.setenv(direct_llvm.SWITCH, "1")
    inputs = random_inputs(module, seed=len(name))
    got = jit.NativeModule(module).call(inputs)
    if all(np.issubdtype(r.dtype, np.integer) for r in got):
        assert_same(got, run(module, inputs), f"{name}: direct road vs interpreter")


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

COUNTING = """func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %zero = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = tosa.while_loop (%k = %n, %i = %zero) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %c = tosa.greater %k, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%k: tensor<i32>, %i: tensor<i32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %i1 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %k, %i1 : tensor<i32>, tensor<i32>
  }
  return %r#1 : tensor<i32>
}"""


def test_unknown_op_falls_back_to_the_dialect_road(monkeypatch):
    # a WHILE_LOOP (scf.while, bounded by bound-while-loops) is not on the direct road: the
    # whole module takes the llvm-dialect road, with the interpreter's results
    module = parse(COUNTING)
    pipeline = "tosa-to-llvm{validation=false}"  # WHILE_LOOP needs the controlflow extension
    assert not _takes_direct_road(module, pipeline)
    inputs = [np.array(5, np.int32)]
    direct, dialect = _both_roads(module, inputs, monkeypatch, pipeline=pipeline)
    assert_same(direct, dialect, "fallback")
    assert_same(direct, run(module, inputs), "fallback vs interpreter")


def test_unsupported_names_the_op():
    module = parse(COUNTING)
    head, _ = direct_llvm.split_pipeline("tosa-to-llvm{validation=false}")
    direct_llvm.lower(module, head)
    with pytest.raises(direct_llvm.Unsupported, match="scf.while"):
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
    from tosa_xdsl.codegen.direct_llvm.text import float_literal

    # LLVM's hex form: a double's bits; an f32 is its exact widening; f16 as 0xH
    assert float_literal(0.1, "double") == "0x3FB999999999999A"
    assert float_literal(0.1, "float") == "0x3FB99999A0000000"
    assert float_literal(-2.0, "half") == "0xHC000"
    assert float_literal(float("inf"), "float") == "0x7FF0000000000000"


# ------------------------------------------------------------------ op by op: the same object code
# tests/test_jit.py's scalar kernels (each checked there against the interpreter, bit for bit, on
# the llvm-dialect road): on the direct road every one it takes must give the same object code.

def _kernel_cases() -> list[tuple[str, list[str], str]]:
    from test_jit import FLOATS, INT_BINARY, INTS

    cases = []
    for t in INTS:
        cases += [(f"%r = arith.{op} %x0, %x1 : {t}", [t, t], t) for op in INT_BINARY]
        cases += [(f"%r = arith.{op} %x0, %x1 : {t}", [t, t], t) for op in ("shli", "shrsi", "shrui")]
        cases += [(f"%r = arith.cmpi {p}, %x0, %x1 : {t}", [t, t], "i1") for p in ("eq", "slt", "uge")]
        cases.append((f"%r = arith.select %x0, %x1, %x2 : {t}", ["i1", t, t], t))
    for src, dst, op in (("i8", "i32", "extsi"), ("i1", "i32", "extui"), ("i48", "i32", "trunci"),
                         ("i32", "i1", "trunci"), ("index", "i8", "index_cast"), ("i64", "i48", "trunci")):
        cases.append((f"%r = arith.{op} %x0 : {src} to {dst}", [src], dst))
    for t in ("i8", "i32", "i64"):
        cases += [(f"%r = math.{op} %x0 : {t}", [t], t) for op in ("absi", "ctlz", "ctpop")]
    for t in FLOATS:
        cases += [(f"%r = arith.{op} %x0, %x1 : {t}", [t, t], t) for op in ("addf", "divf", "maximumf", "minnumf")]
        cases.append((f"%r = arith.negf %x0 : {t}", [t], t))
        cases += [(f"%r = arith.cmpf {p}, %x0, %x1 : {t}", [t, t], "i1") for p in ("false", "olt", "une", "true")]
        cases += [(f"%r = math.{op} %x0 : {t}", [t], t) for op in ("sqrt", "roundeven", "exp", "tanh", "erf", "rsqrt")]
        cases.append((f"%r = math.fma %x0, %x1, %x2 : {t}", [t, t, t], t))
    for src, dst in (("f32", "f64"), ("f64", "f32"), ("f32", "f16"), ("f16", "f32"), ("f64", "f16")):
        op = "extf" if src in ("f16", "f32") and dst != "f16" and not (src == "f32" and dst == "f16") else "truncf"
        cases.append((f"%r = arith.{op} %x0 : {src} to {dst}", [src], dst))
    for it in ("i8", "i64", "i1"):
        for ft in ("f16", "f32", "f64"):
            cases += [(f"%r = arith.{op} %x0 : {it} to {ft}", [it], ft) for op in ("sitofp", "uitofp")]
            if it != "i1":
                cases += [(f"%r = arith.{op} %x0 : {ft} to {it}", [ft], it) for op in ("fptosi", "fptoui")]
    return cases


# what the direct road leaves to the llvm-dialect road (emitted there with integer code or f32 detours)
_SMALL = ("bf16", "f8E4M3FN", "f8E5M2")


def _expect_direct(body: str) -> bool:
    """Whether the direct road must take this kernel (convert-to-llvm's integer-code cases and
    f16 libm / fma / conversion detours are left to the llvm-dialect road)."""
    f16_detour = ("math.tanh", "math.erf", "math.fma", "fptosi", "fptoui")
    return not (any(s in body for s in _SMALL)
                or ("to f16" in body and ("itofp" in body or "f64 to" in body))
                or (": f16" in body and any(d in body for d in f16_detour))
                or ("fpto" in body and ": f16 to" in body))


@pytest.mark.parametrize("body,ins,out", _kernel_cases(), ids=lambda v: v if isinstance(v, str) else None)
def test_kernel_same_object_code(body, ins, out):
    from test_jit import kernel
    from xdsl.parser import Parser

    from tosa_xdsl.codegen.llvm import compile_object
    from tosa_xdsl.context import make_context
    from tosa_xdsl.lowering.to_llvm.convert_to_llvm import ConvertToLLVMPass
    from tosa_xdsl.lowering.to_llvm.scf_to_cf import ConvertScfToCfPass

    ctx = make_context()
    module = Parser(ctx, kernel(body, ins, out, n=16)).parse_module()
    lowered = module.clone()
    ConvertScfToCfPass().apply(ctx, lowered)
    ConvertToLLVMPass().apply(ctx, lowered)
    dialect = compile_object(lowered, 2)
    try:
        direct = direct_llvm.compile_loop_level(module, None, 2)
    except direct_llvm.Unsupported:
        assert not _expect_direct(body), f"{body}: the direct road should take it"
        return
    assert direct == dialect, f"{body}: the direct road's object code differs"


@pytest.mark.parametrize("name", ["conv_f32", "matmul_f32_batch"])
def test_threads_same_object_code_both_roads(name, monkeypatch):
    """--threads 2: the thread pool's calls and task functions (parallel_call) on the direct road."""
    module = parse(PROGRAMS[name])
    done = direct_llvm.lower_and_compile(module.clone(), "tosa-to-llvm{threads=2}", "main", 2)
    assert done is not None, "--threads 2 must take the direct road"
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    dialect, _ = jit.lower_and_compile(module, "tosa-to-llvm{threads=2}", "main", 2)
    assert done[0] == dialect
    monkeypatch.setenv(direct_llvm.SWITCH, "1")
    inputs = random_inputs(module, seed=1)
    assert_same(jit.NativeModule(module, threads=2).call(inputs), jit.NativeModule(module).call(inputs),
                f"{name}: 2 threads vs 1")


VARIABLE = """
tosa.variable @v = dense<[1.5, 2.0]> : tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.variable_read @v : tensor<2xf32>
  %1 = tosa.add %0, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  tosa.variable_write @v, %1 : tensor<2xf32>
  return %0 : tensor<2xf32>
}"""


def test_variable_is_a_mutable_global_on_the_direct_road(monkeypatch):
    """A tosa.variable: a mutable global (not a constant) whose state persists across calls."""
    pipeline = "tosa-to-llvm{validation=false}"  # variables need the variable extension
    module = parse(VARIABLE)
    done = direct_llvm.lower_and_compile(module.clone(), pipeline, "main", 2)
    assert done is not None
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    assert done[0] == jit.lower_and_compile(module, pipeline, "main", 2)[0]
    monkeypatch.setenv(direct_llvm.SWITCH, "1")
    native = jit.NativeModule(module, pipeline=pipeline)
    a = np.array([0.25, -1.0], np.float32)
    # the spec's semantics: each call reads the state the previous one wrote
    got = [native.call([a])[0] for _ in range(3)]
    np.testing.assert_array_equal(got, [[1.5, 2.0], [1.75, 1.0], [2.0, 0.0]])


def test_an_emitter_failure_falls_back(monkeypatch):
    """IR the emitter did not expect (here: a handler that fails) costs the direct road, not
    the compile: the module takes the llvm-dialect road."""
    from xdsl.dialects import arith

    def broken(fn, op):
        raise KeyError("unexpected")

    module = parse(PROGRAMS["conv_f32"])
    inputs = random_inputs(module, seed=2)
    want = jit.NativeModule(module).call(inputs)
    monkeypatch.setitem(direct_llvm._HANDLERS, arith.AddfOp, broken)
    assert direct_llvm.lower_and_compile(module.clone(), "tosa-to-llvm", "main", 2) is None
    assert_same(jit.NativeModule(module).call(inputs), want, "fallback after an emitter failure")


UNSIGNED_MAX = """
func.func @main(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = tosa.maximum %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}"""


def test_unsigned_buffers_on_the_direct_road(monkeypatch):
    """ui8 arithmetic: signless <-> unsigned memref casts (unrealized_conversion_cast), the same
    pointer; an unsigned maximum (200 > 100, unlike int8)."""
    pipeline = "tosa-to-llvm{validation=false}"
    module = parse(UNSIGNED_MAX)
    done = direct_llvm.lower_and_compile(module.clone(), pipeline, "main", 2)
    assert done is not None
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    assert done[0] == jit.lower_and_compile(module, pipeline, "main", 2)[0]
    monkeypatch.setenv(direct_llvm.SWITCH, "1")
    a, b = np.array([1, 200, 3, 255], np.uint8), np.array([100, 2, 30, 0], np.uint8)
    got = jit.NativeModule(module, pipeline=pipeline).call([a, b])
    np.testing.assert_array_equal(got[0], np.maximum(a, b))


COND_IF = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<1xi1>) -> tensor<2x3xf32> {
  %1 = tosa.cond_if %c (%x = %a, %y = %b) : tensor<1xi1> (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> {
  ^bb0(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>):
    %2 = tosa.maximum %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    tosa.yield %2 : tensor<2x3xf32>
  } else {
  ^bb0(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>):
    %2 = tosa.sub %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    tosa.yield %2 : tensor<2x3xf32>
  }
  return %1 : tensor<2x3xf32>
}"""


def test_cond_if_on_the_direct_road(monkeypatch):
    """COND_IF (scf.if with results: a phi in the join block), both branches taken."""
    pipeline = "tosa-to-llvm{validation=false}"  # COND_IF needs the controlflow extension
    module = parse(COND_IF)
    done = direct_llvm.lower_and_compile(module.clone(), pipeline, "main", 2)
    assert done is not None
    monkeypatch.setenv(direct_llvm.SWITCH, "0")
    assert done[0] == jit.lower_and_compile(module, pipeline, "main", 2)[0]
    monkeypatch.setenv(direct_llvm.SWITCH, "1")
    native = jit.NativeModule(module, pipeline=pipeline)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.full((2, 3), 2.5, np.float32)
    np.testing.assert_array_equal(native.call([a, b, np.array([True])])[0], np.maximum(a, b))
    np.testing.assert_array_equal(native.call([a, b, np.array([False])])[0], a - b)


def test_shared_library_object_same_on_both_roads():
    """--emit-shared-library's object (no entry marked noalias) on the direct road is the
    llvm-dialect road's."""
    from tosa_xdsl.codegen.llvm import compile_object

    module = parse(PROGRAMS["conv_i8"])
    done = direct_llvm.lower_and_compile(module.clone(), "tosa-to-llvm", None, 2)
    assert done is not None and done[1] is None
    assert done[0] == compile_object(jit.lower_to_llvm(module.clone(), "tosa-to-llvm"), 2)
