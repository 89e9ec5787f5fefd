"""Issue 18: nothing the user gives tosa-opt / tosa-run crashes them, and the stages agree.

Two parts:
- regressions, one per class of internal error the issue's campaign found, each expecting
  the diagnostic MLIR's own tools or upstream's TOSA verifier give (quoted from mlir-opt 22
  or llvm-project mlir/lib/Dialect/Tosa/IR/TosaOps.cpp and mlir/test/Dialect/Tosa/
  verifier.mlir), or, where no upstream message exists, the spec rule that decides it;
- a seeded, time-bounded slice of the mutation campaign (tosa_xdsl.tools.fuzz_campaign) that
  fails on any "internal error", traceback, hang or signal.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from tosa_xdsl.tools import fuzz_campaign
from tosa_xdsl.tools.tosa_opt import main as tosa_opt
from tosa_xdsl.tools.tosa_run import main as tosa_run

HUGE = "9" * 5000


def _run(main, text: str, args: list[str], inputs: dict[str, np.ndarray] | None = None):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "in.mlir")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        extra = []
        for name, array in (inputs or {}).items():
            p = os.path.join(d, name)
            np.save(p, array)
            extra += ["-i", p]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([path, *extra, *args])
        return code, out.getvalue(), err.getvalue().replace(path, "IN")


def opt(text: str, *args: str):
    return _run(tosa_opt, text, list(args))


def located_error(err: str) -> str:
    """The message of the first `IN:line:col: error: ...` line (never an internal error)."""
    assert "internal error" not in err and "Traceback" not in err, err
    m = re.search(r"^IN:\d+:\d+: error: (.*)$", err, re.M)
    assert m, err
    return m.group(1)


def fn(body: str, args: str = "", results: str = "") -> str:
    return f"func.func @main({args}) -> ({results}) {{\n{body}\n}}\n"


# ------------------------------------------------------------ class 1: reading bad text


@pytest.mark.parametrize("text", [
    # an integer literal Python's int() refuses (more than 4300 digits), anywhere
    fn(f"  %t = tosa.transpose %x {{perms = array<i32: {HUGE}, 0>}} : (tensor<2x3xi32>) -> tensor<3x2xi32>\n"
       "  return %t : tensor<3x2xi32>", "%x: tensor<2x3xi32>", "tensor<3x2xi32>"),
    fn(f'  %c = "tosa.const"() <{{values = dense<[{HUGE}]> : tensor<1xi32>}}> : () -> tensor<1xi32>\n'
       "  return %c : tensor<1xi32>", "", "tensor<1xi32>"),
    fn(f"  %0 = tosa.clamp %x {{min_val = {HUGE} : i32, max_val = 1 : i32}} : (tensor<2xi32>) -> tensor<2xi32>\n"
       "  return %0 : tensor<2xi32>", "%x: tensor<2xi32>", "tensor<2xi32>"),
    fn(f"  %0 = tosa.concat %x {{axis = {HUGE} : i32}} : (tensor<2xi32>) -> tensor<2xi32>\n"
       "  return %0 : tensor<2xi32>", "%x: tensor<2xi32>", "tensor<2xi32>"),
])
def test_huge_integer_literal_is_a_located_error(text):
    code, _, err = opt(text)
    assert code == 1
    assert located_error(err)


@pytest.mark.parametrize("width", [24, 65, 128])
def test_dense_array_of_odd_width_is_a_located_error(width):
    # MLIR accepts array<i24: ...>; no TOSA property has that type (ODS: DenseI32ArrayAttr),
    # so the op is rejected either way, and xDSL cannot store it: an error, not a crash
    text = fn(f"  %t = tosa.transpose %x {{perms = array<i{width}: 1, 0>}} : (tensor<2x3xi32>) -> tensor<3x2xi32>\n"
              "  return %t : tensor<3x2xi32>", "%x: tensor<2x3xi32>", "tensor<3x2xi32>")
    for args in ([], ["-p", "tosa-validate"], ["-p", "tosa-infer-shapes"]):
        code, _, err = opt(text, *args)
        assert code == 1 and located_error(err)


def test_dense_elements_wider_than_64_bits_are_a_located_error():
    text = fn('  %c = "tosa.const"() <{values = dense<[0]> : tensor<1xi322>}> : () -> tensor<1xi322>\n'
              "  return %c : tensor<1xi322>", "", "tensor<1xi322>")
    code, _, err = opt(text, "-p", "tosa-infer-shapes")
    assert code == 1 and located_error(err)


def test_hex_float_wider_than_its_type_is_mlirs_error():
    # mlir-opt 22: "hexadecimal float constant out of range for type"
    code, _, err = opt('"test.x"() {b = 0x7FC00000 : f16} : () -> ()\n', "--allow-unregistered-dialect")
    assert code == 1
    assert located_error(err) == "hexadecimal float constant out of range for type"


def test_decimal_float_beyond_its_type_is_infinity_as_in_mlir():
    # mlir-opt 22 prints `1.0e+256 : f32` as 0x7F800000 and `-1.0e+256 : f16` as 0xFC00
    code, out, err = opt('"test.x"() {a = 1.0e+256 : f32, b = -1.0e+256 : f16} : () -> ()\n',
                         "--allow-unregistered-dialect")
    assert code == 0, err
    assert "a = 0x7F800000 : f32" in out and "b = 0xFC00 : f16" in out


def test_property_of_the_wrong_kind_is_a_verify_error():
    text = fn("  %s = tosa.const_shape {values = [1, 2]} : () -> !tosa.shape<1>\n"
              "  %0 = tosa.reshape %x, %s : (tensor<2x3xi8>, !tosa.shape<1>) -> tensor<6xi8>\n"
              "  return %0 : tensor<6xi8>", "%x: tensor<2x3xi8>", "tensor<6xi8>")
    code, _, err = opt(text)
    assert code == 1 and located_error(err)


def test_use_before_definition_is_mlirs_dominance_error():
    # MLIR's verifier: "operand #1 does not dominate this use"
    text = fn('  %p = tosa.add %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>\n'
              '  %b = "tosa.const"() <{values = dense<1> : tensor<2xi32>}> : () -> tensor<2xi32>\n'
              "  return %p : tensor<2xi32>", "%a: tensor<2xi32>", "tensor<2xi32>")
    code, _, err = opt(text)
    assert code == 1
    assert located_error(err) == "operand #1 does not dominate this use"
    code, _, err = _run(tosa_run, text, [], {"a.npy": np.zeros(2, np.int32)})
    assert code == 1 and located_error(err) == "operand #1 does not dominate this use"


# -------------------------------------------- class 2/6: checks that belong in the verifier

CLAMP_MSG = "'tosa.clamp' op min/max attributes types are incompatible with input/output element types."


@pytest.mark.parametrize("elt,attrs", [
    ("i16", "min_val = 0 : i32, max_val = 1 : i32"),       # issue: an i32 attribute on i16
    ("f16", "min_val = 0.0 : f32, max_val = 1.0 : f32"),   # issue: f32 on f16
    ("f16", "min_val = 0.0 : f16, max_val = @f"),          # not even a typed attribute
    ("f32", "min_val = 0 : i32, max_val = 1 : i32"),
])
def test_clamp_attribute_types_as_upstream(elt, attrs):
    text = fn(f"  %0 = tosa.clamp %x {{{attrs}}} : (tensor<2x{elt}>) -> tensor<2x{elt}>\n"
              f"  return %0 : tensor<2x{elt}>", f"%x: tensor<2x{elt}>", f"tensor<2x{elt}>")
    code, _, err = opt(text)
    assert code == 1
    assert located_error(err) == CLAMP_MSG


VARIABLE = """module {
  tosa.variable @stored_var = dense<-1.0> : tensor<2x4x8xf32>
  func.func @main(%arg0: tensor<2x4x8xf32>) -> () {
BODY
    return
  }
}
"""


@pytest.mark.parametrize("body,message", [
    # upstream mlir/test/Dialect/Tosa/verifier.mlir, test_variable_read_type / _write_type /
    # _read_shape (there i8 vs i16; here f32 vs f16, both types VARIABLE supports, so the
    # supported-data-types check does not answer first)
    ("    %0 = tosa.variable_read @stored_var : tensor<2x4x8xf16>",
     "'tosa.variable_read' op require same element type for 'output1' ('f16') and the input tensor ('f32')"),
    ("    %c = \"tosa.const\"() <{values = dense<1.0> : tensor<2x4x8xf16>}> : () -> tensor<2x4x8xf16>\n"
     "    tosa.variable_write @stored_var, %c : tensor<2x4x8xf16>",
     "'tosa.variable_write' op require same element type for 'input1' ('f16') and the input tensor ('f32')"),
    ("    %0 = tosa.variable_read @stored_var : tensor<1x4x8xf32>",
     "'tosa.variable_read' op require same shapes for 'output1' ('tensor<1x4x8xf32>') and the input "
     "tensor ('tensor<2x4x8xf32>')"),
])
def test_variable_access_type_checked_by_the_verifier(body, message):
    code, _, err = opt(VARIABLE.replace("BODY", body))
    assert code == 1
    assert located_error(err) == message


@pytest.mark.parametrize("op_text,args,result", [
    ("tosa.cast %x : (tensor<2x3xf32>) -> tensor<3x3xi32>", "%x: tensor<2x3xf32>", "tensor<3x3xi32>"),
    ("tosa.reverse %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<3x3xf32>", "%x: tensor<2x3xf32>",
     "tensor<3x3xf32>"),
    ("tosa.scatter %v, %i, %in : (tensor<2x5x3xf32>, tensor<2x2xi32>, tensor<2x2x3xf32>) -> tensor<2x6x3xf32>",
     "%v: tensor<2x5x3xf32>, %i: tensor<2x2xi32>, %in: tensor<2x2x3xf32>", "tensor<2x6x3xf32>"),
])
def test_result_shape_against_the_arguments_table(op_text, args, result):
    # spec 2.2 tosa_execute_graph: ERROR_IF(tensors do not meet the Arguments table): CAST and
    # REVERSE output `shape` = input `shape`; SCATTER values_out [N,K,C] = values_in [N,K,C]
    code, _, err = opt(fn(f"  %0 = {op_text}\n  return %0 : {result}", args, result))
    assert code == 1 and located_error(err)


def test_rfft2d_output_width_is_w_over_2_plus_1():
    text = fn("  %0:2 = tosa.rfft2d %r : (tensor<1x4x8xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x5xf32>)\n"
              "  return %0#0, %0#1 : tensor<1x4x4xf32>, tensor<1x4x5xf32>",
              "%r: tensor<1x4x8xf32>", "tensor<1x4x4xf32>, tensor<1x4x5xf32>")
    code, _, err = opt(text)
    assert code == 1 and "W/2+1 = 5" in located_error(err)


def test_dynamic_result_shape_mismatch_at_run_time_is_not_internal():
    text = fn("  %e = tosa.exp %x : (tensor<2x3xf32>) -> tensor<?x?xf32>\n"
              "  %f = tosa.floor %e : (tensor<?x?xf32>) -> tensor<4x3xf32>\n"
              "  return %f : tensor<4x3xf32>", "%x: tensor<2x3xf32>", "tensor<4x3xf32>")
    code, _, err = _run(tosa_run, text, [], {"x.npy": np.zeros((2, 3), np.float32)})
    assert code == 1 and "has shape [2, 3]" in located_error(err)


# ------------------------------------------------------------------ class 3: native safety


@pytest.mark.parametrize("op", ["gather", "scatter"])
def test_jit_out_of_range_indices_stay_inside_buffers(op):
    # spec 2.11: REQUIRE(0 <= k && k < K): unpredictable, so any value is allowed, but a
    # native run must not touch memory outside its buffers (indices are clamped); run in a
    # child process so a segfault is a failure, not the end of the test session
    if op == "gather":
        text = fn("  %0 = tosa.gather %v, %i : (tensor<1x4x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>\n"
                  "  return %0 : tensor<1x3x2xf32>", "%v: tensor<1x4x2xf32>, %i: tensor<1x3xi32>",
                  "tensor<1x3x2xf32>")
    else:
        text = fn("  %0 = tosa.scatter %v, %i, %x : (tensor<1x4x2xf32>, tensor<1x3xi32>, tensor<1x3x2xf32>)"
                  " -> tensor<1x4x2xf32>\n  return %0 : tensor<1x4x2xf32>",
                  "%v: tensor<1x4x2xf32>, %i: tensor<1x3xi32>, %x: tensor<1x3x2xf32>", "tensor<1x4x2xf32>")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "g.mlir")
        with open(path, "w") as f:
            f.write(text)
        files = {"v": np.ones((1, 4, 2), np.float32), "i": np.array([[0, 100000000, -5]], np.int32),
                 "x": np.full((1, 3, 2), 7, np.float32)}
        args = []
        for name in ("v", "i", "x") if op == "scatter" else ("v", "i"):
            np.save(os.path.join(d, name + ".npy"), files[name])
            args += ["-i", os.path.join(d, name + ".npy")]
        p = subprocess.run([sys.executable, "-m", "tosa_xdsl.tools.tosa_run", path, *args, "--backend", "jit",
                            "--print"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "result #0" in p.stdout


# ------------------------------------------------------------------ class 5: outputs


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("tool", ["tosa-opt", "tosa-run"])
def test_disk_full_is_one_line_exit_1(tool):
    text = fn("  return %x : tensor<2xf32>", "%x: tensor<2xf32>", "tensor<2xf32>")
    if tool == "tosa-opt":
        code, _, err = _run(tosa_opt, text, ["-o", "/dev/full"])
    else:
        code, _, err = _run(tosa_run, text, ["-o", "/dev/full"], {"x.npy": np.zeros(2, np.float32)})
    assert code == 1
    assert err.count("\n") == 1 and "No space left on device" in err and "Traceback" not in err


def test_bf16_and_fp8_outputs_load_with_numpy_in_c_order():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    text = fn("  %t = tosa.transpose %y {perms = array<i32: 1, 0>} : (tensor<2x3xf8E4M3FN>) -> tensor<3x2xf8E4M3FN>\n"
              "  return %x, %t : tensor<bf16>, tensor<3x2xf8E4M3FN>",
              "%x: tensor<bf16>, %y: tensor<2x3xf8E4M3FN>", "tensor<bf16>, tensor<3x2xf8E4M3FN>")
    y = np.arange(6).reshape(2, 3).astype(ml_dtypes.float8_e4m3fn)
    with tempfile.TemporaryDirectory() as d:
        outs = [os.path.join(d, "o0.npy"), os.path.join(d, "o1.npy")]
        # rank-0 bf16 as np.save writes it (|V2), fp8 as raw bits (|V1)
        code, _, err = _run(tosa_run, text, ["-o", outs[0], "-o", outs[1]],
                            {"x.npy": np.array(1.5, ml_dtypes.bfloat16), "y.npy": y.view("V1")})
        assert code == 0, err
        a, b = np.load(outs[0]), np.load(outs[1])
        with open(outs[1], "rb") as f:
            np.lib.format.read_magic(f)
            _, fortran, _ = np.lib.format.read_array_header_1_0(f)
    assert a.dtype == np.dtype("V2") and a.shape == ()
    assert a.view(ml_dtypes.bfloat16) == 1.5
    assert b.dtype == np.dtype("V1") and not fortran
    np.testing.assert_array_equal(b.view(ml_dtypes.float8_e4m3fn).astype(np.float32), y.T.astype(np.float32))


# ------------------------------------------------------------------ the fuzz slice


def test_seeded_mutation_campaign_finds_nothing():
    stats = fuzz_campaign.campaign(cases=2500, seed=18, jit_every=0, budget=15.0)
    assert stats.cases > 50
    assert not stats.failures, "\n\n".join(f"{why}\n{case[:2000]}" for why, case in stats.failures[:5])


@pytest.mark.parametrize("rates", [(1.0, 0.0), (0.0, 1.0)], ids=["spoiled-npy", "real-model"])
def test_seeded_campaign_classes_spoiled_npy_and_mutated_model(monkeypatch, rates):
    # the campaign's rarer generators, forced: every tosa-run case with a spoiled .npy input,
    # or every case the bundled model mutated (text or .tflite bytes)
    monkeypatch.setattr(fuzz_campaign, "BAD_NPY_RATE", rates[0])
    monkeypatch.setattr(fuzz_campaign, "MODEL_RATE", rates[1])
    stats = fuzz_campaign.campaign(cases=400, seed=19, jit_every=0, budget=6.0)
    assert stats.bad_npy_runs + stats.model_runs > 3
    assert not stats.failures, "\n\n".join(f"{why}\n{case[:2000]}" for why, case in stats.failures[:5])


# ------------------------------------------- class 6: constant operands in the verifier


@pytest.mark.parametrize("body,args,result,message", [
    # upstream mlir/test/Dialect/Tosa/invalid.mlir test_mul_invalid_shift
    ('  %shift = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>\n'
     "  %0 = tosa.mul %a, %a, %shift : (tensor<2xf32>, tensor<2xf32>, tensor<1xi8>) -> tensor<2xf32>\n"
     "  return %0 : tensor<2xf32>", "%a: tensor<2xf32>", "tensor<2xf32>",
     "'tosa.mul' op require shift to be 0 for float type"),
    # upstream test_reshape_invalid_placeholders
    ("  %s = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>\n"
     "  %0 = tosa.reshape %r, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<6x1xf32>\n"
     "  return %0 : tensor<6x1xf32>", "%r: tensor<2x3xf32>", "tensor<6x1xf32>",
     "'tosa.reshape' op expected at most one target dimension to be -1"),
])
def test_constant_operand_rules_in_the_verifier(body, args, result, message):
    code, _, err = opt(fn(body, args, result))
    assert code == 1 and located_error(err) == message
    # and the lowered stages refuse it too: verification runs before any pass
    code, _, err = opt(fn(body, args, result), "-p", "tosa-to-linalg-pipeline")
    assert code == 1 and located_error(err) == message


@pytest.mark.parametrize("mode,ok", [("NEAREST_NEIGHBOR", False), ("BILINEAR", True)])
def test_resize_i16_to_i48_only_bilinear(mode, ok):
    # spec 2.12.1 Supported Data Types: "signed 16, bilinear" i16 -> i48, "signed 16, nearest" i16 -> i16
    body = ("  %s = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>\n"
            "  %o = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>\n"
            f"  %0 = tosa.resize %x, %s, %o, %o {{mode = {mode}}} : (tensor<1x2x2x1xi16>, !tosa.shape<4>, "
            "!tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x3x1xi48>\n  return %0 : tensor<1x3x3x1xi48>")
    code, _, err = opt(fn(body, "%x: tensor<1x2x2x1xi16>", "tensor<1x3x3x1xi48>"))
    assert (code == 0) == ok, err
    if not ok:
        assert "NEAREST_NEIGHBOR" in located_error(err)


def test_unresolved_forward_reference_is_a_located_error():
    # found by the campaign: `%i` used in a function body, then defined only as a block
    # argument of a nested region. xDSL 0.74 left the reference unresolved and its verifier
    # crashed on it; MLIR: "use of undeclared SSA value name"
    text = """func.func @while(%n: i32, %x: i32) -> i32 {
    %lt = arith.cmpi slt, %i, %n : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%i = %c0, %v = %x) : (i32, i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
    scf.condition(%lt) %i, %v : i32, i32
  } do {
  ^bb0(%j: i32, %w: i32):
    %j1 = arith.addi %j, %c1 : i32
    %w1 = arith.muli %w, %c3 : i32
    scf.yield %j1, %w1 : i32, i32
  }
  func.return %r#1 : i32
}

func.func @for_if(%p: i1, %buf: memref<8xf32>, %lb: index, %ub: index, %st: index, %s0: f32) -> f32 {
  %r = scf.for %k = %lb to %ub step %st iter_args(%acc = %s0) -> (f32) {
    %t = scf.if %p -> (f32) {
      %e = memref.load %buf[%k] : memref<8xf32>
      %a = arith.addf %acc, %e : f32
      scf.yield %a : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %t : f32
  }
  func.return %r : f32
}
"""
    code, _, err = opt(text, "--print-op-generic")
    assert code == 1
    assert "use of undeclared SSA value name" in err and "internal error" not in err, err


@pytest.mark.parametrize("pipeline", [[], ["-p", "canonicalize"], ["-p", "tosa-to-linalg-pipeline"]])
def test_validation_options_apply_whatever_the_pipeline(pipeline):
    # upstream tosa-validate: "expected compile time resolvable constant, but got variable
    # value for operand #2" for a PAD whose pad_const is a graph input (pro_int, no dynamic)
    text = fn("  %padding = tosa.const_shape {values = dense<[1, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>\n"
              "  %p = tosa.pad %x, %padding, %pc : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<3x4xi8>\n"
              "  return %p : tensor<3x4xi8>", "%x: tensor<2x3xi8>, %pc: tensor<1xi8>", "tensor<3x4xi8>")
    code, _, err = _run(tosa_run, text, ["--level", "8k", "--profile", "pro_int", *pipeline],
                        {"x.npy": np.ones((2, 3), np.int8), "pc.npy": np.zeros(1, np.int8)})
    assert code == 1
    assert "expected compile time resolvable constant, but got variable value for operand #2" in located_error(err)


@pytest.mark.parametrize("props,missing", [
    ('<{sym_name = "main", function_type = i32}>', None),          # not a FunctionType
    ('<{function_type = (tensor<2xf32>) -> tensor<2xf32>}>', "sym_name"),
    ('<{sym_name = "main"}>', "function_type"),
])
def test_generic_func_with_bad_properties_is_one_located_error(props, missing):
    # MLIR: "requires attribute 'function_type'" / a type error; ours names the property.
    # The func.return inside (whose verifier reads the func's type) must not crash.
    text = (f'"func.func"() {props} ({{\n^bb0(%x: tensor<2xf32>):\n'
            '  "func.return"(%x) : (tensor<2xf32>) -> ()\n}) : () -> ()\n')
    for main, extra in ((tosa_opt, {}), (tosa_run, {"x.npy": np.zeros(2, np.float32)})):
        code, _, err = _run(main, text, [], extra)
        assert code == 1
        message = located_error(err)
        if missing:
            assert missing in message


def test_variable_without_initial_value_lowers_and_runs_natively():
    # spec 2.17: VARIABLE_WRITE then VARIABLE_READ gives the written tensor; the issue found
    # `ml_program.global @state has no initial value` once lowered. Child process: JIT.
    text = ("module {\n  tosa.variable @state : tensor<2xf32>\n"
            "  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
            "    tosa.variable_write @state, %x : tensor<2xf32>\n"
            "    %r = tosa.variable_read @state : tensor<2xf32>\n"
            "    return %r : tensor<2xf32>\n  }\n}\n")
    with tempfile.TemporaryDirectory() as d:
        path, x, out = (os.path.join(d, n) for n in ("v.mlir", "x.npy", "o.npy"))
        with open(path, "w") as f:
            f.write(text)
        np.save(x, np.array([1.5, -2.0], np.float32))
        p = subprocess.run([sys.executable, "-m", "tosa_xdsl.tools.tosa_run", path, "-i", x, "-o", out,
                            "--backend", "jit"], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        np.testing.assert_array_equal(np.load(out), [1.5, -2.0])


def test_empty_function_body_is_mlirs_error():
    # found by the campaign (`func.func @f(...) -> (...) {\n}` reached the interpreter);
    # MLIR: "empty block: expect at least a terminator"
    text = "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n}\n"
    code, _, err = opt(text)
    assert code == 1 and located_error(err) == "empty block: expect at least a terminator"
    code, _, err = _run(tosa_run, text, [], {"x.npy": np.zeros(2, np.float32)})
    assert code == 1 and located_error(err) == "empty block: expect at least a terminator"


# ------------------------------------------------- stages agree: FFT2D / RFFT2D with infinities


def _pseudocode_dft(re: np.ndarray, im: np.ndarray | None, inverse: bool):
    """Spec 2.3.6 FFT2D / 2.3.9 RFFT2D transcribed literally, in fp32 scalars: the angle in
    in_out_t, real and imaginary parts summed separately, RFFT2D's skipped terms skipped."""
    f = np.float32
    _, h, w = re.shape
    out_w = w if im is not None else w // 2 + 1
    real, imag = np.zeros((1, h, out_w), f), np.zeros((1, h, out_w), f)
    sign = f(-1.0 if inverse else 1.0)
    with np.errstate(all="ignore"):
        for oy in range(h):
            for ox in range(out_w):
                sr = si = f(0.0)
                for iy in range(h):
                    for ix in range(w):
                        ay, ax = (iy * oy) % h, (ix * ox) % w
                        a = sign * f(2) * f(np.pi) * (f(ay) / f(h) + f(ax) / f(w))
                        c, s = f(np.cos(np.float64(a))), f(np.sin(np.float64(a)))
                        vr = re[0, iy, ix]
                        if im is not None:
                            vi = im[0, iy, ix]
                            sr += vr * c + vi * s
                            si += -vr * s + vi * c
                        else:
                            sr += vr * c
                            if (h > 1 and ay % (h // 2) > 0) or (w > 1 and ax % (w // 2) > 0):
                                si += -vr * s
                real[0, oy, ox], imag[0, oy, ox] = sr, si
    return real, imag


def test_fft_with_infinities_follows_the_pseudocode_in_every_stage():
    # found by the JIT campaign: the interpreter's complex product spread `inf * 0` (an exact
    # zero twiddle) to outputs where the spec's fp32 angle gives a tiny non-zero cosine.
    # FFT2D forward and inverse and RFFT2D in one module: one native compile.
    rng = np.random.default_rng(18)
    re = rng.standard_normal((1, 4, 4)).astype(np.float32)
    im = rng.standard_normal((1, 4, 4)).astype(np.float32)
    re[0, 1, 2], re[0, 3, 1], im[0, 2, 2] = np.inf, -np.inf, np.inf
    t, rt = "tensor<1x4x4xf32>", "tensor<1x4x3xf32>"
    body = (f"  %r0, %i0 = tosa.fft2d %a, %b {{inverse = false}} : ({t}, {t}) -> ({t}, {t})\n"
            f"  %r1, %i1 = tosa.fft2d %a, %b {{inverse = true}} : ({t}, {t}) -> ({t}, {t})\n"
            f"  %r2, %i2 = tosa.rfft2d %a : ({t}) -> ({rt}, {rt})\n"
            f"  return %r0, %i0, %r1, %i1, %r2, %i2 : {t}, {t}, {t}, {t}, {rt}, {rt}")
    text = fn(body, f"%a: {t}, %b: {t}", f"{t}, {t}, {t}, {t}, {rt}, {rt}")
    want = [*_pseudocode_dft(re, im, False), *_pseudocode_dft(re, im, True), *_pseudocode_dft(re, None, False)]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "f.mlir")
        with open(path, "w") as f:
            f.write(text)
        ins = []
        for k, a in enumerate((re, im)):
            np.save(os.path.join(d, f"in{k}.npy"), a)
            ins += ["-i", os.path.join(d, f"in{k}.npy")]
        for backend in ("interpreter", "linalg", "jit"):
            outs = [os.path.join(d, f"{backend}{k}.npy") for k in range(6)]
            argv = [path, *ins, *[x for o in outs for x in ("-o", o)]]
            if backend == "jit":  # a child process: native code
                p = subprocess.run([sys.executable, "-m", "tosa_xdsl.tools.tosa_run", *argv, "--backend", "jit"],
                                   capture_output=True, text=True, timeout=300, check=False)
                assert p.returncode == 0, p.stderr
            elif backend == "linalg":  # the lowered linalg.generic, run by the interpreter
                assert tosa_run([*argv, "-p", "tosa-to-linalg-pipeline{validation=false}"]) == 0
            else:
                assert tosa_run(argv) == 0
            for k, (got, exp) in enumerate(zip((np.load(o) for o in outs), want)):
                where = f"{backend} result {k}"
                np.testing.assert_array_equal(np.isnan(got), np.isnan(exp), err_msg=where)
                np.testing.assert_array_equal(np.where(np.isinf(got), got, 0), np.where(np.isinf(exp), exp, 0),
                                              err_msg=where)
                fin = np.isfinite(exp)
                np.testing.assert_allclose(got[fin], exp[fin], rtol=1e-5, atol=1e-5, err_msg=where)


# ------------------------------------------------------------- nothing runs unbounded: loops

ENDLESS_LOOP = fn("""  %z = tosa.const values(dense<0> : tensor<i32>) : () -> tensor<i32>
  %r = tosa.while_loop (%a = %x) : (tensor<i32>) -> tensor<i32> {
    %c = tosa.greater_equal %a, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<i32>):
    tosa.yield %a : tensor<i32>
  }
  return %r : tensor<i32>""", "%x: tensor<i32>", "tensor<i32>")


@pytest.mark.parametrize("passes", [[], ["-p", "tosa-to-scf"]])
def test_endless_while_loop_stops_at_the_iteration_limit(passes):
    # legal TOSA (spec 2.16.2 has no bound), but a run must end: a located error at the loop
    # (the lowered scf.while keeps the WHILE_LOOP's location), exit 1
    x = {"x.npy": np.array(5, np.int32)}
    code, _, err = _run(tosa_run, ENDLESS_LOOP, ["--max-loop-iterations", "50", *passes], x)
    assert code == 1
    assert re.fullmatch(r"IN:3:8: error: '(tosa\.while_loop|scf\.while)' did not finish within 50 "
                        r"iterations \(the limit is --max-loop-iterations\)", err.splitlines()[0]), err
    # a loop that ends within the limit is not affected: x < 0 leaves at once
    code, out, err = _run(tosa_run, ENDLESS_LOOP, ["--max-loop-iterations", "1", "--print", *passes],
                          {"x.npy": np.array(-3, np.int32)})
    assert code == 0 and out == "result #0: tensor<i32> = -3\n", err


def test_endless_while_loop_stops_natively(tmp_path):
    # --backend jit ran it forever: native code counts the iterations against the same
    # run-time bound (bound-while-loops) and reports the interpreter's diagnostic, exit 1.
    # A child process: a hang is a timeout, not a stuck session
    path = tmp_path / "in.mlir"
    path.write_text(ENDLESS_LOOP)
    np.save(tmp_path / "x.npy", np.array(5, np.int32))
    env = {**os.environ, "TOSA_XDSL_CACHE_DIR": str(tmp_path / "cache")}
    p = subprocess.run([sys.executable, "-m", "tosa_xdsl.tools.tosa_run", str(path), "-i", str(tmp_path / "x.npy"),
                        "--backend", "jit", "--max-loop-iterations", "50"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 1
    assert p.stderr.splitlines()[0] == (f"{path}:3:8: error: 'tosa.while_loop' did not finish within 50 "
                                        "iterations (the limit is --max-loop-iterations)"), p.stderr


def test_loop_limit_option_and_default():
    from tosa_xdsl.interpreter import runner
    from tosa_xdsl.tools import tosa_run as cli

    assert cli.DEFAULT_MAX_LOOP_ITERATIONS == runner.DEFAULT_MAX_LOOP_ITERATIONS == 100_000
    for bad in ("0", "-1", "many"):
        code, _, err = _run(tosa_run, ENDLESS_LOOP, ["--max-loop-iterations", bad], {"x.npy": np.array(5, np.int32)})
        assert code == 2 and len(err.splitlines()) == 1 and "--max-loop-iterations" in err


# ------------------------------------------------------ found by the campaign (this session)


def _scf_while(before_args: str, forwarded: str, forwarded_types: str, after_args: str,
               yielded: str, yielded_types: str, results: str) -> str:
    return ("func.func @f(%n: i32, %x: i32) -> i32 {\n  %c0 = arith.constant 0 : i32\n"
            f'  %r:2 = "scf.while"(%c0, %x) ({{\n  ^bb0({before_args}):\n'
            "    %lt = arith.cmpi slt, %n, %n : i32\n"
            f'    "scf.condition"(%lt, {forwarded}) : (i1, {forwarded_types}) -> ()\n'
            f'  }}, {{\n  ^bb0({after_args}):\n    "scf.yield"({yielded}) : ({yielded_types}) -> ()\n'
            f"  }}) : (i32, i32) -> ({results})\n  func.return %r#1 : i32\n}}\n")


@pytest.mark.parametrize("case,message", [
    # the messages are mlir-opt 22's for the same text
    (("%i: i48, %v: i32", "%n, %n", "i32, i32", "%j: i32, %w: i32", "%j, %w", "i32, i32", "i32, i32"),
     "along control flow edge from parent to Region #0: successor operand type #0 'i32' should "
     "match successor input type #0 'i48'"),
    (("%i: i32", "%n, %n", "i32, i32", "%j: i32, %w: i32", "%j, %w", "i32, i32", "i32, i32"),
     "along control flow edge from parent to Region #0: region branch point has 2 operands, but "
     "region successor needs 1 inputs"),
    (("%i: i32, %v: i32", "%n, %n", "i32, i32", "%j: i64, %w: i32", "%n, %n", "i32, i32", "i48, i32"),
     "along control flow edge from Operation scf.condition to parent: successor operand type #0 "
     "'i32' should match successor input type #0 'i48'"),
    (("%i: i32, %v: i32", "%n, %n", "i32, i32", "%j: i64, %w: i32", "%n, %n", "i32, i32", "i32, i32"),
     "along control flow edge from Operation scf.condition to Region #1: successor operand type #0 "
     "'i32' should match successor input type #0 'i64'"),
    (("%i: i32, %v: i32", "%n, %n", "i32, i32", "%j: i32, %w: i32", "%n", "i32", "i32, i32"),
     "along control flow edge from Operation scf.yield to Region #0: region branch point has 1 "
     "operands, but region successor needs 2 inputs"),
])
def test_scf_while_region_edges_as_mlir(case, message):
    # xDSL's verifier raised a bare Exception / IndexError: internal errors (seed 1810)
    code, _, err = opt(_scf_while(*case))
    assert code == 1 and located_error(err) == f"'scf.while' op {message}"


def test_unsigned_tensor_op_runs_not_internal():
    # found as tosa.sub on ui32 in a COND_IF (seed 1810): once an internal error, then a located
    # "not run" error; the unsigned rows run now (tests/producers/test_upstream_rows.py)
    text = fn("  %1 = tosa.abs %a : (tensor<2xui32>) -> tensor<2xui32>\n"
              "  return %1 : tensor<2xui32>", "%a: tensor<2xui32>", "tensor<2xui32>")
    x = np.array([1, 4000000000], np.uint32)
    code, out, err = _run(tosa_run, text, ["--print"], {"a.npy": x})
    assert code == 0, err
    assert "[1, 4000000000]" in out


def test_malformed_op_in_an_upgraded_legacy_module_is_a_located_error():
    # a mutated chunk read by the pre-1.0 reader (a `return` outside a function) holding a
    # generic `tosa.add` without operands: the upgrade's rank equalization indexed its
    # operands before the verifier ran (IndexError escaped tosa-opt, found by the campaign)
    text = ("  return %1 : tensor<4xf32>\n"
            '  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>\n'
            '  %zi = "tosa.add"() <{}> : () -> tensor<1xi8>\n'
            "  %1 = tosa.negate %arg0, %zf, %zf : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>\n"
            "func.func @negates(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n}\n")
    code, _, err = opt(text, "-p", "canonicalize")
    assert code == 1 and "IN:3:9: error: Expected 2 operands, but got 0" in err, err
    located_error(err)


@pytest.mark.parametrize("op_text,message", [
    # xDSL's linalg.generic parser turns each string into its IteratorType enum
    ('linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], '
     'iterator_types = ["prallel"]} ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) {\n'
     '  ^bb0(%x: f32, %y: f32):\n    linalg.yield %x : f32\n  }',
     "'prallel' is not a valid IteratorType"),
    # xDSL's conv verifier unpacks two dilations
    ("linalg.conv_2d_nhwc_fhwc {dilations = dense<> : tensor<0xi64>, strides = dense<1> : tensor<2xi64>} "
     "ins(%x, %w : memref<1x3x3x1xf32>, memref<1x1x1x1xf32>) outs(%y : memref<1x3x3x1xf32>)",
     "not enough values to unpack"),
    # xDSL's linalg.reduce verifier indexes the init shape with the dimension
    ("linalg.reduce ins(%a : memref<4xf32>) outs(%s : memref<f32>) dimensions = [-1]\n"
     "  (%p: f32, %q: f32) {\n    %m = arith.maximumf %p, %q : f32\n    linalg.yield %m : f32\n  }",
     "index out of range"),
    # a static offset past i64 in xDSL's dynamic index list
    ("%e = memref.subview %a[-9223372036854775809] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: ?>>",
     "out of range for type i64"),
])
@pytest.mark.parametrize("pipeline", [[], ["-p", "tosa-infer-shapes"]])
def test_xdsl_dialect_op_refusing_malformed_input_is_a_located_error(op_text, message, pipeline):
    # found by the campaign (mutated linalg chunks of tests/filecheck/lowering): xDSL's own
    # parsers and verifiers raise plain Python errors; they are the input's fault, reported
    # at the op, not internal errors
    text = ("func.func @f(%a: memref<4xf32>, %o: memref<4xf32>, %s: memref<f32>, %x: memref<1x3x3x1xf32>, "
            "%w: memref<1x1x1x1xf32>, %y: memref<1x3x3x1xf32>) {\n  " + op_text + "\n  func.return\n}\n")
    code, _, err = opt(text, *pipeline)
    assert code == 1
    assert re.match(r"IN:2:\d+: error: malformed operation: ", err), err
    assert message in located_error(err)


def test_a_crash_in_our_own_verifier_stays_an_internal_error(monkeypatch):
    # the located "malformed operation" report is for xDSL's code alone: a bug of ours must
    # still be an internal error, which the campaign and this suite fail on
    def broken(op):
        raise IndexError("tuple index out of range")

    text = fn("  %0 = tosa.abs %x : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>",
              "%x: tensor<2xf32>", "tensor<2xf32>")
    from tosa_xdsl.dialects.tosa.ops.elementwise_unary import AbsOp

    monkeypatch.setattr(AbsOp, "verify_", broken, raising=False)
    code, _, err = opt(text)
    assert code == 1 and "internal error: IndexError" in err, err


@pytest.mark.parametrize("op_text,x_shape", [
    ("tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, "
     "pad = array<i64: 2, 9223372036854775807, 2, 2>, stride = array<i64: 1, 1>} : "
     "(tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<*xf32>",
     (1, 4, 4, 1)),
    ("tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, "
     "pad = array<i64: 4294967296, 1, 1, 1>, stride = array<i64: 1, 1>} : "
     "(tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<*xf32>",
     (1, 4, 4, 1)),
    ("tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, "
     "stride = array<i64: 1099511627776, 1>} : "
     "(tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<*xf32>",
     (1, 4, 4, 1)),
])
def test_huge_padding_or_stride_with_an_unranked_result_is_a_bounded_error(op_text, x_shape):
    # the verifier cannot compare an unranked result with the attributes; the run must not
    # ask numpy for 2**63 elements (ValueError, seed 1805) or take all memory
    text = fn('  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>\n'
              '  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>\n'
              '  %b = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>\n'
              '  %p = tosa.const_shape {values = dense<[0, 0, 9223372036854775807, 0, 0, 0, 0, 0]> : '
              'tensor<8xindex>} : () -> !tosa.shape<8>\n'
              '  %m = tosa.const_shape {values = dense<[1, 4294967296, 4294967296, 1]> : tensor<4xindex>} : '
              '() -> !tosa.shape<4>\n'
              f"  %0 = {op_text}\n  return %0 : tensor<*xf32>", "%x: tensor<1x4x4x1xf32>", "tensor<*xf32>")
    code, _, err = _run(tosa_run, text, [], {"x.npy": np.zeros(x_shape, np.float32)})
    assert code == 1
    assert "would hold" in located_error(err) and "more than the interpreter's limit" in err, err


@pytest.mark.parametrize("op_text,x_shape", [
    # seed 1871: PAD with a `?` result and a 2^63-1 pad asked numpy for the array (ValueError)
    ("tosa.pad %x, %p, %zp : (tensor<1x4x4x1xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<*xf32>",
     (1, 4, 4, 1)),
    ("tosa.tile %x, %m : (tensor<1x4x4x1xf32>, !tosa.shape<4>) -> tensor<*xf32>", (1, 4, 4, 1)),
])
def test_huge_pad_or_tile_with_an_unranked_result_is_a_bounded_error(op_text, x_shape):
    test_huge_padding_or_stride_with_an_unranked_result_is_a_bounded_error(op_text, x_shape)


def test_stage_comparison_allows_only_the_specs_extra_multiplies(tmp_path):
    # tosa_extra_multiplies is IMPLEMENTATION_DEFINED (spec 1.10.3): a lowered convolution may
    # multiply padding by an infinite weight (NaN) where the reference skips it; never the
    # other way round ("Reference is a NaN on non-padded data, the implementation must match")
    ref, imp = tmp_path / "ref.npy", tmp_path / "imp.npy"
    np.save(ref, np.array([1.0, np.inf, np.nan], np.float32))
    np.save(imp, np.array([np.nan, np.nan, np.nan], np.float32))
    assert fuzz_campaign.compare_outputs([str(ref)], [str(imp)]) is not None
    assert fuzz_campaign.compare_outputs([str(ref)], [str(imp)], extra_multiplies=True) is None
    np.save(imp, np.array([1.0, np.inf, 0.0], np.float32))
    assert fuzz_campaign.compare_outputs([str(ref)], [str(imp)], extra_multiplies=True) is not None
    assert fuzz_campaign._extra_multiplies_matter("tosa.depthwise_conv2d", [str(ref)])
    assert not fuzz_campaign._extra_multiplies_matter("tosa.add", [str(ref)])


def test_tfl_legalization_in_a_pipeline_leaves_scalar_constants_and_reports_located():
    # found by the campaign's random pipelines (tosa-to-linalg,tosa-legalize-tfl): the
    # lowered code's scalar arith.constant was taken for a TFLite tensor constant, and the
    # pass's own diagnostic came out as an internal error
    text = fn("  %c = arith.constant 1.5 : f32\n  %t = tensor.from_elements %c, %c : tensor<2xf32>\n"
              "  return %t : tensor<2xf32>", "", "tensor<2xf32>")
    code, out, err = opt(text, "-p", "tosa-legalize-tfl")
    assert code == 0 and "arith.constant 1.5" in out, err
    bad = fn('  %0 = "tfl.pseudo_const"() {value = 1.0 : f32} : () -> tensor<2xf32>\n'
             "  return %0 : tensor<2xf32>", "", "tensor<2xf32>")
    code, _, err = opt(bad, "-p", "tosa-legalize-tfl")
    assert code == 1 and located_error(err) == "'tfl.pseudo_const': expects a dense 'value'"


def test_arith_constant_without_its_blob_is_a_located_error_at_run_time():
    # found by the campaign (seed 1821): a dense_resource with no {-# dialect_resources #-}
    # entry in an arith.constant (tosa.const already said so, located)
    text = fn('  %c = arith.constant dense_resource<"blob1"> : tensor<1xf32>\n  return %c : tensor<1xf32>',
              "", "tensor<1xf32>")
    code, _, err = _run(tosa_run, text, [])
    assert code == 1
    assert located_error(err) == ("'arith.constant' op dense_resource<blob1> has no blob: the file's "
                                  "{-# dialect_resources: { builtin: { ... } } #-} section has no entry 'blob1'")


def test_unresolved_name_in_a_legacy_read_chunk_is_not_upgraded():
    # found by the campaign (seed 1826): lines swapped so a `tosa.yield %x` comes before any
    # %x; the pre-1.0 reader kept the unresolved placeholder and the upgrade asked for its
    # owner (a ValueError escaped to tosa-opt's last-resort wrapper). The 1.0 reader's
    # located diagnostics are given instead.
    text = ("      tosa.yield %x : tensor<2xf32>\n"
            "  %0 = tosa.cond_if %c (%x = %a) : tensor<2xi1> (tensor<2xf32>) -> tensor<2xf32> {\n"
            "    ^bb0(%x: tensor<2xf32>):\n      tosa.yield %x : tensor<2xf32>\n    } else {\n"
            "    ^bb0(%x: tensor<2xf32>):\n"
            "func.func @cond_if_condition_size(%c: tensor<2xi1>, %a: tensor<2xf32>) -> tensor<2xf32> {\n"
            "    }\n  return %0 : tensor<2xf32>\n}\n")
    code, _, err = opt(text, "-p", "tosa-infer-shapes")
    assert code == 1
    located_error(err)


def test_unclosed_complex_element_in_a_dense_literal_is_mlirs_error():
    # found by the campaign (seed 1831): xDSL asserts on the token closing `(4, 2]`
    text = fn("  %c = arith.constant dense<[4, 2, (4, 2]> : tensor<4xindex>\n  return %c : tensor<4xindex>",
              "", "tensor<4xindex>")
    code, _, err = opt(text)
    # mlir-opt 22: "IN:2:41: error: expected ')' after complex elements"
    assert code == 1 and err.startswith("IN:2:41: error: expected ')' after complex elements"), err


def test_missing_blob_is_named_as_the_file_spells_it_even_when_the_store_renamed_it():
    # the blob store is per process: a second file using the name `blob1` gets the key
    # `blob1_2` internally; the diagnostic must still say `blob1` (found when this file's
    # test above ran after another test had declared `blob1`)
    from tosa_xdsl.ir.resources import store

    store().declare_resource("blob1")
    test_arith_constant_without_its_blob_is_a_located_error_at_run_time()


def test_const_shape_values_disagreeing_with_its_type_reach_no_shape_rule():
    # campaign seed 1860 case 8697: a const_shape holding 3 values typed !tosa.shape<1> fed a
    # RESHAPE; the shared shape rule (dialects/tosa/shapes.py) saw rank 3 against the result's
    # rank 1 and raised an internal ShapeConflict. Such values are "not known" to their users;
    # const_shape's own verifier reports them.
    text = ("func.func @reshape_unranked(%arg0: tensor<*xi8>) -> tensor<819xi8> {\n"
            "  %0 = tosa.const_shape values(dense<819> : tensor<3xindex>) : () -> !tosa.shape<1>\n"
            "  %1 = tosa.reshape %arg0, %0 : (tensor<*xi8>, !tosa.shape<1>) -> tensor<819xi8>\n"
            "  return %1 : tensor<819xi8>\n}\n")
    code, _, err = _run(tosa_opt, text, ["-p", "tosa-infer-shapes"])
    assert code == 1
    assert located_error(err) == "'tosa.const_shape' op has 3 values but its result is !tosa.shape<1>"


def test_every_cli_answers_an_escaped_bug_with_one_line(monkeypatch, tmp_path, capsys):
    # tools/last_resort.py: the same last resort for the three CLIs (tosa-translate had none)
    from tosa_xdsl.tools import tosa_translate

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug\nsecond line")

    monkeypatch.setattr(tosa_translate, "translate", broken)
    model = tmp_path / "m.mlir"
    model.write_text(fn("  return %a : tensor<2xf32>", "%a: tensor<2xf32>", "tensor<2xf32>"))
    code = tosa_translate.main([str(model), "--tosa-serialize", "-o", str(tmp_path / "m.tosa")])
    err = capsys.readouterr().err
    assert code == 1
    assert err == "tosa-translate: internal error: RuntimeError: a bug\n"
