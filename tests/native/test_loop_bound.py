"""A WHILE_LOOP in native code stops after --max-loop-iterations iterations, as in the
interpreter (bound-while-loops in tosa-to-llvm, interpreter/loop_bound.py): the same
diagnostic at the same loop, at the same iteration count; a loop that finishes within the
bound gives the interpreter's results; the bound is a run-time value (one compiled object,
one cache entry for every bound); the shared library exports the bound and the flag."""

from __future__ import annotations

import ctypes
import io
import os
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import lower

from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.errors import TosaRunError
from tosa_xdsl.interpreter.loop_bound import BOUND_GLOBAL, FLAG_GLOBAL
from tosa_xdsl.jit import NativeModule

NOVAL = "tosa-to-llvm{validation=false}"

# counts %i up to %n: exactly n iterations (the interpreter's count: body executions)
COUNTING = """func.func @main(%n: tensor<i32>, %x0: tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) {
  %zero = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:3 = tosa.while_loop (%k = %n, %i = %zero, %x = %x0) : (tensor<i32>, tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<i32>, tensor<3xf32>) {
    %c = tosa.greater %k, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%k: tensor<i32>, %i: tensor<i32>, %x: tensor<3xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<3xf32>}> : () -> tensor<3xf32>
    %i1 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %x1 = tosa.mul %x, %half, %s : (tensor<3xf32>, tensor<3xf32>, tensor<1xi8>) -> tensor<3xf32>
    tosa.yield %k, %i1, %x1 : tensor<i32>, tensor<i32>, tensor<3xf32>
  }
  return %r#1, %r#2 : tensor<i32>, tensor<3xf32>
}
""".replace("%x1 = tosa.mul", '%s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>\n'
            "    %x1 = tosa.mul")

# an outer loop whose body holds a loop that never ends: the inner one hits the bound, every
# loop then exits, the diagnostic names the inner one (line 8)
NESTED_ENDLESS = """func.func @main(%x0: tensor<i32>) -> tensor<i32> {
  %r = tosa.while_loop (%x = %x0) : (tensor<i32>) -> tensor<i32> {
    %t = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
    tosa.yield %t : tensor<i1>
  } do {
  ^bb0(%x: tensor<i32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %y = tosa.while_loop (%a = %x) : (tensor<i32>) -> tensor<i32> {
      %z = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
      %c = tosa.greater_equal %a, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
      tosa.yield %c : tensor<i1>
    } do {
    ^bb0(%a: tensor<i32>):
      %b = tosa.maximum %a, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tosa.yield %b : tensor<i32>
    }
    tosa.yield %y : tensor<i32>
  }
  return %r : tensor<i32>
}
"""

TARGET = ("builtin.module attributes {tosa.target_env = #tosa.target_env<specification_version = \"1.0\", "
          "level = \"8k\", profiles = [pro_int, pro_fp], extensions = [controlflow]>} {\n")


def _located(src: str):
    """The module as tosa-run reads it (with file locations), through the driver."""
    from tosa_xdsl.context import make_context
    from tosa_xdsl.driver import Driver, DriverOptions

    driver = Driver(make_context(), DriverOptions(), lambda diag: None)
    module = driver.load("loop.mlir", src, [])
    assert module is not None
    return module


def _limit_error(fn, *args, **kwargs) -> TosaRunError:
    with pytest.raises(TosaRunError) as info:
        fn(*args, **kwargs)
    assert info.value.kind == "limit"
    return info.value


def test_bound_agrees_with_the_interpreter_at_the_edge():
    """n iterations run with a bound of n; with n - 1 the same located error as the
    interpreter's, at the WHILE_LOOP."""
    module = _located(COUNTING)
    native = NativeModule(module, pipeline=NOVAL)
    x = np.array([1.0, -2.0, 8.0], np.float32)
    for n in (0, 1, 7):
        args = [np.array(n, np.int32), x]
        want = run(module, args, max_loop_iterations=max(n, 1))
        got = native.call(args, max_loop_iterations=max(n, 1))
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
        assert int(got[0]) == n
        if n:
            expected = _limit_error(run, module, args, max_loop_iterations=n - 1)
            native_err = _limit_error(native.call, args, max_loop_iterations=n - 1)
            assert str(native_err) == str(expected)
            assert str(native_err).startswith("loop.mlir:3:10: error: 'tosa.while_loop' did not finish within")
    # the default bound applies when none is given; a bound beyond int64 saturates
    assert int(native.call([np.array(3, np.int32), x])[0]) == 3
    assert int(native.call([np.array(3, np.int32), x], max_loop_iterations=1 << 70)[0]) == 3


def test_endless_nested_loop_stops_at_the_inner_loop():
    module = _located(NESTED_ENDLESS)
    x = [np.array(5, np.int32)]
    expected = _limit_error(run, module, x, max_loop_iterations=100)
    native = NativeModule(module, pipeline=NOVAL)
    got = _limit_error(native.call, x, max_loop_iterations=100)
    assert str(got) == str(expected)
    assert str(got).startswith("loop.mlir:8:10: error: 'tosa.while_loop' did not finish within 100 iterations")


def test_tosa_run_jit_ends_with_the_interpreters_diagnostic(tmp_path):
    """The issue's case: an endless WHILE_LOOP under --backend jit ends in seconds with the
    interpreter's diagnostic and exit code (a child process: a hang is a timeout)."""
    src = tmp_path / "endless.mlir"
    src.write_text(NESTED_ENDLESS)
    x = tmp_path / "x.npy"
    np.save(x, np.array(5, np.int32))
    env = {**os.environ, "TOSA_XDSL_CACHE_DIR": str(tmp_path / "cache")}
    outs = {}
    for backend in ("interp", "jit"):
        p = subprocess.run([sys.executable, "-m", "tosa_xdsl.tools.tosa_run", str(src), "-i", str(x),
                            "--backend", backend, "--max-loop-iterations", "1000"],
                           capture_output=True, text=True, timeout=120, env=env)
        outs[backend] = (p.returncode, p.stderr)
    assert outs["jit"] == outs["interp"]
    assert outs["jit"][0] == 1
    assert f"{src}:8:10: error: 'tosa.while_loop' did not finish within 1000 iterations" in outs["jit"][1]


def test_one_compiled_object_for_every_bound(tmp_path):
    """The bound is read at run time: a second NativeModule with another bound is a cache hit."""
    from tosa_xdsl.codegen.cache import ModuleCache

    cache = ModuleCache(tmp_path)
    module = _located(COUNTING)
    args = [np.array(4, np.int32), np.ones(3, np.float32)]
    first = NativeModule(module, pipeline=NOVAL, cache=cache)
    assert not first.cache_hit
    assert int(first.call(args, max_loop_iterations=4)[0]) == 4
    again = NativeModule(module, pipeline=NOVAL, cache=cache)
    assert again.cache_hit
    _limit_error(again.call, args, max_loop_iterations=3)
    assert int(again.call(args, max_loop_iterations=10)[0]) == 4  # the flag is cleared per call


def test_lowered_stage_in_the_interpreter_reports_the_flag():
    """Past bound-while-loops the interpreter sets the bound and reads the flag itself."""
    src = COUNTING
    stage = "tosa-to-loops{validation=false},lower-affine,bound-while-loops"
    args = [np.array(6, np.int32), np.ones(3, np.float32)]
    for passes in (stage, stage + ",convert-scf-to-cf"):
        lowered = lower(_located(src), passes)
        got = run(lowered, args, max_loop_iterations=6)
        assert int(got[0]) == 6
        err = _limit_error(run, lowered, args, max_loop_iterations=5)
        assert "'scf.while' did not finish within 5 iterations" in str(err)
        assert str(err).startswith("loop.mlir:3:10:")


def test_module_without_loops_is_unchanged():
    src = "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n"
    text = str(lower(src, "tosa-to-loops{validation=false},bound-while-loops"))
    assert BOUND_GLOBAL not in text and FLAG_GLOBAL not in text


def test_shared_library_exports_the_bound_and_the_flag(tmp_path):
    from tosa_xdsl.codegen.shared_library import linker
    from tosa_xdsl.tools.tosa_translate import main

    if linker() is None:
        pytest.skip("no C compiler driver (cc) to link with")
    src, so = tmp_path / "m.mlir", tmp_path / "m.so"
    src.write_text(TARGET + NESTED_ENDLESS + "}\n")
    err = io.StringIO()
    with redirect_stderr(err):
        assert main(["--emit-shared-library", str(src), "-o", str(so)]) == 0, err.getvalue()
    lib = ctypes.CDLL(str(Path(so)))
    bound = ctypes.c_int64.in_dll(lib, BOUND_GLOBAL)
    flag = ctypes.c_int64.in_dll(lib, FLAG_GLOBAL)
    assert (bound.value, flag.value) == (100_000, 0)  # the defaults
    bound.value = 10
    x, out = np.array(5, np.int32), np.zeros((), np.int32)
    lib.main.argtypes = [ctypes.c_void_p] * 2
    lib.main.restype = None
    lib.main(x.ctypes.data, out.ctypes.data)
    assert divmod(flag.value, 1 << 32) == (9, 10)  # the inner loop: line 9 (after the target line), column 10


def test_tosa_run_bounds_loops_a_cf_pipeline_made_branches(tmp_path):
    """`tosa-run -p ...,convert-scf-to-cf` (the interpreter runs branches, it cannot count a
    loop's iterations there): tosa-run adds bound-while-loops before convert-scf-to-cf, so
    the run still ends at the bound with the located diagnostic."""
    src = tmp_path / "endless.mlir"
    src.write_text(NESTED_ENDLESS)
    x = tmp_path / "x.npy"
    np.save(x, np.array(5, np.int32))
    p = subprocess.run([sys.executable, "-m", "tosa_xdsl.tools.tosa_run", str(src), "-i", str(x),
                        "--max-loop-iterations", "30", "-p",
                        "tosa-to-loops{validation=false},lower-affine,convert-scf-to-cf"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1
    assert p.stderr.startswith(f"{src}:8:10: error: 'scf.while' did not finish within 30 iterations"), p.stderr
