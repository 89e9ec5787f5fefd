"""`--threads N` (docs/native.md): outer parallel loops on N threads give the same bits as one.

Only iterations of a parallel loop (one that indexes every output through a bare dim) are
distributed, each output element still gets its whole reduction, in the same order, from one
iteration: so results must equal the single-threaded native code's bit for bit, floats too, at
every N (1, 2, 3; more threads than iterations; odd iteration counts that do not split evenly),
and integer results must equal the TOSA interpreter's. Each case checks that its lowering did
distribute a loop (else it would prove nothing). The pool (codegen/thread_pool.py) is checked
for leaks (its workers are joined) and for calls from two Python threads at once."""

from __future__ import annotations

import ctypes
import io
import os
import threading
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from native_programs import conv, matmul
from native_programs import random_inputs as _inputs
from test_register_tiling import CASES

from tosa_xdsl import jit
from tosa_xdsl.codegen import thread_pool
from tosa_xdsl.codegen.cache import ModuleCache
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering.pipelines import LLVM_STAGE, linalg_stage, loops_stage

MODELS = Path("/work/shared/models")
EXAMPLE = MODELS / "face_detection_front"


def threaded(n: int, min_work: int = 0) -> str:
    """tosa-to-llvm{threads=n} with a work threshold of `min_work` (0: every marked loop is
    distributed, so that small test programs exercise the pool)."""
    return ",".join(linalg_stage(hwcf=True) + loops_stage(mark_parallel=True)
                    + [f"outline-parallel-loops{{threads={n} min-work={min_work}}}"] + LLVM_STAGE)


def native(src: str, n: int, min_work: int = 0) -> jit.NativeModule:
    if n == 1:
        return jit.NativeModule(parse(src))
    lowered = lower(src, threaded(n, min_work))
    assert regions(lowered), "no loop was distributed"
    return jit.NativeModule(parse(src), pipeline=threaded(n, min_work), lowered=lowered)


def regions(lowered) -> int:
    """The parallel regions of a lowered module (one task function each)."""
    return sum(1 for op in lowered.ops if getattr(op, "sym_name", None) and op.sym_name.data.endswith("__task"))


def elementwise(shape: tuple[int, ...], et: str = "i32") -> str:
    """(a + b) * b: one fused loop nest over `shape`."""
    t = "tensor<" + "x".join(map(str, shape)) + f"x{et}>"
    return f"""
func.func @main(%a: {t}, %b: {t}) -> {t} {{
  %s = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : () -> tensor<1xi8>
  %0 = tosa.add %a, %b : ({t}, {t}) -> {t}
  %1 = tosa.mul %0, %b, %s : ({t}, {t}, tensor<1xi8>) -> {t}
  return %1 : {t}
}}"""


def avg_pool(h: int, w: int, c: int) -> str:
    t_in, t_out = f"tensor<1x{h}x{w}x{c}xi8>", f"tensor<1x{h // 2}x{w // 2}x{c}xi8>"
    return f"""
func.func @main(%x: {t_in}) -> {t_out} {{
  %z = "tosa.const"() <{{values = dense<-2> : tensor<1xi8>}}> : () -> tensor<1xi8>
  %0 = tosa.avg_pool2d %x, %z, %z {{acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}} : ({t_in}, tensor<1xi8>, tensor<1xi8>) -> {t_out}
  return %0 : {t_out}
}}"""


PROGRAMS = {
    **{name: src for name, (src, _) in CASES.items()},
    "conv_i8_odd_rows": conv(1, 7, 9, 5, 16, 3, 1, et="i8", acc="i32", out_et="i32", zp="5"),
    "matmul_f32_odd_rows": matmul(1, 9, 6, 32),
    "avg_pool_i8": avg_pool(10, 6, 16),
    "elementwise_i32_odd": elementwise((1, 7, 3, 5)),
    "elementwise_f32": elementwise((2, 5, 16), "f32"),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_threads_give_the_bits_of_one_thread(name):
    src = PROGRAMS[name]
    inputs = _inputs(parse(src), seed=len(name))
    one = native(src, 1).call(inputs)
    if all(np.issubdtype(r.dtype, np.integer) for r in one):
        assert_same(one, run(parse(src), inputs), f"{name}: native vs interpreter")
    for n in (2, 3):
        assert_same(native(src, n).call(inputs), one, f"{name}: {n} threads vs 1")


@pytest.mark.parametrize("rows", [1, 2, 3, 5, 7, 13])
def test_odd_iteration_counts_and_more_threads_than_iterations(rows):
    # the distributed loop has `rows` iterations; 1 is never marked (a trip count of 1), so
    # the next loop (3) is distributed
    src = elementwise((rows, 3, 4))
    rng = np.random.default_rng(rows)
    a, b = (rng.integers(-1000, 1000, (rows, 3, 4)).astype(np.int32) for _ in range(2))
    want = ((a + b) * b).astype(np.int32)
    for n in (2, 3, 4, 16):
        np.testing.assert_array_equal(native(src, n).call([a, b])[0], want)


def test_example_model_at_1_2_3_threads():
    """The bundled model: 2 and 3 threads give the bits of 1 thread (which is within the
    float tolerance of the interpreter, its outputs are the reference model's check)."""
    if not EXAMPLE.with_suffix(".tosa.mlir").exists():
        pytest.skip("the example model is not available")
    src = EXAMPLE.with_suffix(".tosa.mlir").read_text()
    x = np.load(f"{EXAMPLE}.input_0.npy")
    results = {n: jit.NativeModule(parse(src), threads=n).call([x]) for n in (1, 2, 3)}
    # and every marked nest distributed (min-work=0: 145 regions instead of the default's 29)
    results["all"] = native(src, 2, min_work=0).call([x])
    for n in (2, 3, "all"):
        assert_same(results[n], results[1], f"example: {n} threads vs 1")
    for k, got in enumerate(results[1]):
        np.testing.assert_allclose(got, run(parse(src), [x])[k], atol=1e-3)


def test_the_default_threshold_keeps_small_nests_serial():
    """tosa-to-llvm{threads=2}: a nest under DEFAULT_MIN_WORK operations runs on the calling
    thread (no task), one above is distributed; both give the bits of one thread."""
    from tosa_xdsl.lowering.to_loops.outline_parallel import DEFAULT_MIN_WORK

    pipeline = jit.native_pipeline(None, 2)
    # (a + b) * b, fused: ~7 operations per element (outline_parallel.work: 7236 and 3672072)
    small, large = elementwise((4, 16, 16)), elementwise((8, 256, 256))
    assert 7 * 4 * 16 * 16 < DEFAULT_MIN_WORK < 7 * 8 * 256 * 256
    assert regions(lower(small, pipeline)) == 0
    assert regions(lower(large, pipeline)) == 1
    rng = np.random.default_rng(5)
    a, b = (rng.integers(-1000, 1000, (8, 256, 256)).astype(np.int32) for _ in range(2))
    np.testing.assert_array_equal(jit.NativeModule(parse(large), threads=2).call([a, b])[0], (a + b) * b)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through Linux's /proc")
def test_the_pool_is_reused_and_joined():
    src = elementwise((8, 16, 16))
    a = np.ones((8, 16, 16), np.int32)
    assert thread_pool.shutdown()
    before = len(os.listdir("/proc/self/task"))
    three = native(src, 3)
    for _ in range(3):
        three.call([a, a])
    assert thread_pool.worker_count() == 2  # the calling thread + 2 workers, reused
    native(src, 2).call([a, a])
    assert thread_pool.worker_count() == 2  # a smaller count reuses the pool
    assert len(os.listdir("/proc/self/task")) == before + 2
    assert thread_pool.shutdown()
    assert thread_pool.worker_count() == 0
    assert len(os.listdir("/proc/self/task")) == before  # joined: no thread left behind
    np.testing.assert_array_equal(three.call([a, a])[0], np.full_like(a, 2))  # and restarted
    assert thread_pool.worker_count() == 2


def test_calls_from_two_python_threads():
    """A call made while another runs its job (the GIL is released in native code) runs its
    loops on its own thread: every result is still right."""
    src = PROGRAMS["conv_i8_odd_rows"]
    module = native(src, 2)
    cases = [_inputs(parse(src), seed=s) for s in range(4)]
    want = [module.call(c) for c in cases]
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for _ in range(20):
                assert_same(module.call(cases[k]), want[k], f"thread {k}")
        except BaseException as err:  # noqa: BLE001 -- reported by the main thread
            errors.append(err)

    workers = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors[0]


def test_thread_count_is_part_of_the_cache_key(tmp_path):
    src = elementwise((64, 16, 16))
    cache = ModuleCache(tmp_path)
    a = np.ones((64, 16, 16), np.int32)
    assert not jit.NativeModule(parse(src), cache=cache, threads=2).cache_hit
    assert not jit.NativeModule(parse(src), cache=cache).cache_hit  # 1 thread: other code
    hit = jit.NativeModule(parse(src), cache=cache, threads=2)
    assert hit.cache_hit
    np.testing.assert_array_equal(hit.call([a, a])[0], np.full_like(a, 2))
    assert jit.NativeModule.cached(parse(src), cache=cache, threads=2) is not None
    assert jit.NativeModule.cached(parse(src), cache=cache, threads=3) is None


@pytest.mark.parametrize("bad", [0, -1, 257, 2.0, True])
def test_bad_thread_counts(bad):
    with pytest.raises(ValueError, match="threads must be an integer between 1 and 256"):
        jit.NativeModule(parse(elementwise((4, 4))), threads=bad)


def test_threads_need_the_tosa_to_llvm_pipeline():
    with pytest.raises(ValueError, match="needs the plain tosa-to-llvm pipeline"):
        jit.NativeModule(parse(elementwise((4, 4))), pipeline="tosa-to-loops", threads=2)
    assert jit.native_pipeline("tosa-to-llvm{validation=false}", 3) == "tosa-to-llvm{validation=false threads=3}"
    assert jit.native_pipeline(None, 1) == "tosa-to-llvm"


def test_tosa_run_threads(tmp_path):
    from tosa_xdsl.tools.tosa_run import main

    src = tmp_path / "m.mlir"
    src.write_text(PROGRAMS["conv_i8_odd_rows"])
    inputs = _inputs(parse(src.read_text()), seed=3)
    args = []
    for k, x in enumerate(inputs):
        np.save(tmp_path / f"x{k}.npy", x)
        args += ["-i", str(tmp_path / f"x{k}.npy")]
    outs = {}
    for n in (1, 3):
        code = main([str(src), "--backend", "jit", "--threads", str(n), "--no-cache", *args, "-o",
                     str(tmp_path / f"o{n}.npy")])
        assert code == 0
        outs[n] = np.load(tmp_path / f"o{n}.npy")
    np.testing.assert_array_equal(outs[3], outs[1])
    np.testing.assert_array_equal(outs[1], run(parse(src.read_text()), inputs)[0])
    for bad, why in (("0", "must be positive"), ("x", "not a thread count"), ("257", "at most 256")):
        err = io.StringIO()
        with redirect_stderr(err):
            assert main([str(src), "--backend", "jit", "--threads", bad, *args]) == 2
        assert err.getvalue().count("\n") == 1 and why in err.getvalue(), err.getvalue()
    err = io.StringIO()
    with redirect_stderr(err):
        assert main([str(src), "--threads", "2", *args]) == 2
    assert err.getvalue() == "tosa-run: error: --threads applies to native code: add --backend jit\n"


def test_threaded_shared_library(tmp_path):
    from tosa_xdsl.codegen.shared_library import linker
    from tosa_xdsl.tools.tosa_translate import main

    if linker() is None:
        pytest.skip("no C compiler driver (cc) to link with")
    src, so = tmp_path / "m.mlir", tmp_path / "m.so"
    text = PROGRAMS["matmul_i8"].replace("@main", "@mm")
    src.write_text(text)
    err = io.StringIO()
    with redirect_stderr(err):
        assert main(["--emit-shared-library", "--threads", "3", str(src), "-o", str(so)]) == 0, err.getvalue()
    lib = ctypes.CDLL(str(so))
    assert hasattr(lib, "tosa_xdsl_parallel_for")  # the pool is inside the library
    a, b = _inputs(parse(text), seed=1)
    out = np.zeros((1, 12, 40), np.int32)
    lib.mm(ctypes.c_void_p(a.ctypes.data), ctypes.c_void_p(b.ctypes.data), ctypes.c_void_p(out.ctypes.data))
    np.testing.assert_array_equal(out, run(parse(text), [a, b], "mm")[0])
    lib.tosa_xdsl_thread_pool_shutdown.restype = ctypes.c_int32
    assert lib.tosa_xdsl_thread_pool_shutdown() == 0  # its workers joined
    with redirect_stderr(err):
        assert main(["--tosa-serialize", "--threads", "2", str(src), "-o", str(tmp_path / "x")]) == 2


def test_dynamic_shapes():
    """A run-time row count: the loop bound and the buffers' extents travel through the task's
    context (parallel_call.py); rows 1, 5 and 333 at 3 threads give the bits of 1 thread."""
    src = """func.func @main(%a: tensor<?x64xf32>, %b: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = tosa.add %a, %b : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %1 = tosa.reduce_sum %0 {axis = 1 : i32} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %2 = tosa.add %0, %1 : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  return %2 : tensor<?x64xf32>
}"""
    pipeline = "tosa-to-llvm{validation=false}"  # dynamic dims are outside the 1.0 levels
    lowered = lower(src, jit.native_pipeline(pipeline, 3))
    assert any(op.sym_name.data.endswith("__task") for op in lowered.ops)
    one, three = jit.NativeModule(parse(src), pipeline=pipeline), jit.NativeModule(parse(src), pipeline=pipeline,
                                                                                   threads=3)
    rng = np.random.default_rng(0)
    for rows in (1, 5, 333):
        a, b = (rng.standard_normal((rows, 64)).astype(np.float32) for _ in range(2))
        assert_same(three.call([a, b]), one.call([a, b]), f"{rows} rows")


def test_one_thread_is_the_plain_code():
    """N = 1: the same passes as without the option (no marks, no outlining, no pool)."""
    from tosa_xdsl.lowering.pipelines import TosaToLLVMPipelinePass

    plain = TosaToLLVMPipelinePass().stages()
    assert TosaToLLVMPipelinePass(threads=1).stages() == plain
    assert not any("parallel" in p for p in plain)
    threaded_stages = TosaToLLVMPipelinePass(threads=2).stages()
    assert "outline-parallel-loops{threads=2}" in threaded_stages
    assert "convert-linalg-to-affine-loops{register-tiling=true mark-parallel=true}" in threaded_stages


_JOBS_IR = """
; each job adds 1 to every element of ctx[0, n): a chunk taken twice or lost shows in the sums
define internal void @task(i64 %lo, i64 %hi, ptr %ctx) {
entry:
  %any = icmp slt i64 %lo, %hi
  br i1 %any, label %loop, label %out
loop:
  %i = phi i64 [ %lo, %entry ], [ %i1, %loop ]
  %p = getelementptr i64, ptr %ctx, i64 %i
  %x = load i64, ptr %p, align 8
  %x1 = add i64 %x, 1
  store i64 %x1, ptr %p, align 8
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %hi
  br i1 %more, label %loop, label %out
out:
  ret void
}
declare void @tosa_xdsl_parallel_for(ptr, ptr, i64, i64, i64)
define void @jobs(i64 %calls, ptr %ctx, i64 %n, i64 %threads) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  call void @tosa_xdsl_parallel_for(ptr @task, ptr %ctx, i64 0, i64 %n, i64 %threads)
  %k1 = add i64 %k, 1
  %more = icmp slt i64 %k1, %calls
  br i1 %more, label %loop, label %done
done:
  ret void
}
"""


@pytest.mark.parametrize("spins", [None, (0, 0), (0, 3000), (3000, 0), (1, 1), (100_000, 100_000, False)])
def test_back_to_back_jobs_take_every_chunk_once(spins):
    """Jobs called back to back from native code, as an inference calls its parallel nests:
    the pool's protocol (workers that may still be watching for the next job while a new one
    is published, the caller watching for the last chunks, then sleeping) runs every chunk
    exactly once, at sizes below, at and above the chunk count, for 2, 3 and 8 threads; with
    the default pool (None) and pools built with other (spin_worker, spin_caller[, pause])
    (loaded beside it, as bench/threads.py does; spins of 0 or 1 round make the sleeping paths
    frequent), whose workers are joined at the end."""
    from tosa_xdsl.codegen.llvm import _binding, load_object, target_machine

    thread_pool.ensure_loaded()
    lb = _binding()
    suffix, shutdown = "", thread_pool.shutdown
    if spins is not None:
        suffix = "_test_" + "_".join(map(str, spins))
        pool = load_object(thread_pool.object_code(spin_worker=spins[0], spin_caller=spins[1],
                                                   pause=spins[2] if len(spins) > 2 else True, suffix=suffix),
                           pool=False)
        lb.add_symbol(thread_pool.SYMBOL + suffix, pool.address(thread_pool.SYMBOL + suffix))
        stop = ctypes.CFUNCTYPE(ctypes.c_int32)(pool.address(thread_pool.SHUTDOWN + suffix))
        shutdown = lambda: stop() == 0
    tm = target_machine(2)
    mod = lb.parse_assembly(_JOBS_IR.replace("@tosa_xdsl_parallel_for", f"@{thread_pool.SYMBOL}{suffix}"))
    mod.triple = tm.triple
    engine = lb.create_mcjit_compiler(mod, tm)
    engine.finalize_object()
    jobs = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)(
        engine.get_function_address("jobs"))
    for threads in (2, 3, 8):
        for n in (1, 2, 7, 8, 9, 1000, 100_003):
            calls = 2000 if n < 1000 else 50
            out = np.zeros(n, np.int64)
            jobs(calls, out.ctypes.data, n, threads)
            np.testing.assert_array_equal(out, np.full(n, calls, np.int64), err_msg=f"{threads} threads, n={n}")
    assert shutdown()
