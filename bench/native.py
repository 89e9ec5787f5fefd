"""Native execution of the bundled model, side by side with IREE, upstream MLIR 22's own
pipeline and Arm's reference model, in one run.

    python bench/native.py [--repeat N] [--threads N] [--record]

Two models: the bundled example and a MobileNet-style network at 224x224 (bench/mobilenet.py,
generated into a temporary directory; its check is against our interpreter's output).

Rows (CPU time = user + sys; in-process times via time.thread_time, the CPU time of the
thread that lowers, compiles and calls the native code (process time also counted the BLAS
workers numpy leaves spinning after the interpreter's reference run: MobileNet-style read
4.0 ms for a 2.0 ms call); child processes via os.wait4; medians of --repeat):
- tosa-xdsl `--backend jit`: compile = parse excluded, tosa-to-llvm lowering + LLVM JIT
  (xDSL's backend, llvmlite MCJIT, -O2); per inference = one call of the native function after
  a warm-up call (the default: FMA in float dot products, within the spec's dot-product bound,
  as IREE does); the same with `--fp-contract=off` (no FMA: the plain loop nests' float bits;
  docs/native.md);
- IREE: `iree-compile --iree-input-type=tosa --iree-hal-target-device=local
  --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host` (whole
  process), per inference from `iree-benchmark-module --device=local-sync` (single-threaded,
  as our JIT; its median);
- MLIR 22: upstream's TOSA passes -> one-shot-bufferize -> buffer-results-to-out-params -> loops -> LLVM dialect ->
  `mlir-translate --mlir-to-llvmir` (both processes), then the LLVM IR compiled with llvmlite
  (-O2) in-process and called (per inference);
- tosa_reference_model: whole process, one inference (it has no separate compile step).
Outputs of the native runs are checked against the reference outputs (max abs difference).
`--threads N` (default 2) adds a second table: `NativeModule(threads=N)` (and our single-thread
code, for the speed-up) against IREE's multi-threaded `local-task` device with
`--task_topology_max_group_count=N`, in wall time (CPU time sums the threads) -- on a shared
machine read its ratio, not its milliseconds.
Needs the bench extra (iree-base-runtime, for iree-benchmark-module). `--record` rewrites the
"Native execution" block of docs/performance.md.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# numpy's OpenBLAS workers spin-wait (~0.1 s) after each matmul of the interpreter's reference
# run, on the second core that `--threads 2` needs: one BLAS thread (set before numpy loads it)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import INPUT, MODEL, ROOT, machine, record, run_once

MLIR_BIN = Path("/usr/lib/llvm-22/bin")
EXPECTED = [ROOT / f"examples/face_detection_front.expected_{i}.npy" for i in range(2)]
OURS, IREE = "tosa-xdsl --backend jit", "IREE (llvm-cpu, local-sync)"
MLIR22_PIPELINE = (
    "builtin.module(func.func(tosa-optional-decompositions,canonicalize,tosa-infer-shapes,"
    "tosa-make-broadcastable,tosa-to-linalg-named,canonicalize,tosa-layerwise-constant-fold,"
    "tosa-make-broadcastable,tosa-to-linalg,tosa-to-tensor,tosa-to-arith),"
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions},func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,expand-strided-metadata,"
    "finalize-memref-to-llvm,convert-func-to-llvm{use-bare-ptr-memref-call-conv},convert-to-llvm,"
    "reconcile-unrealized-casts)")


def max_diff(outputs, expected) -> str:
    diffs = [float(np.abs(np.asarray(o, np.float64) - np.asarray(e, np.float64)).max())
             for o, e in zip(outputs, expected)]
    return ", ".join(f"{d:.1e}" for d in diffs)


def per_call(fn, repeat: int, clock=time.thread_time) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times)


@dataclass
class Model:
    name: str
    path: Path  # as given (any syntax our parser reads)
    keyword: Path  # canonical keyword syntax, for IREE
    input: Path
    expected: list  # numpy arrays the outputs are checked against
    against: str  # what `expected` is


def ours(model: Model, repeat: int, threads: int = 1, wall: bool = False, fp_contract: str = "fast") -> dict:
    """`wall`: per inference in wall time (the threads table; CPU time sums the threads)."""
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context
    from tosa_xdsl.jit import NativeModule

    module = Parser(make_context(), model.path.read_text()).parse_module()
    t = time.thread_time()
    native = NativeModule(module, threads=threads, fp_contract=fp_contract)
    compile_s = time.thread_time() - t
    x = np.load(model.input)
    outputs = native.call([x])
    clock = time.perf_counter if threads > 1 or wall else time.thread_time
    return {"compile": compile_s, "infer": per_call(lambda: native.call([x]), repeat, clock),
            "check": max_diff(outputs, model.expected)}


def tool(name: str) -> Path:
    """A console script of this venv, else of PATH (the bench venv may see another's packages)."""
    here = Path(sys.executable).parent / name
    found = shutil.which(name)
    return here if here.exists() or not found else Path(found)


def iree_compile(model: Model, tmp: Path) -> tuple[Path | None, dict]:
    vmfb = tmp / f"{model.name.split()[0]}.vmfb"
    cmd = [str(tool("iree-compile")), "--iree-input-type=tosa", "--iree-hal-target-device=local",
           "--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host",
           str(model.keyword), "-o", str(vmfb)]
    cpu, _, code, last = run_once(cmd)
    if code != 0:
        return None, {"error": f"iree-compile: {last}"}
    return vmfb, {"compile": cpu}


def iree(model: Model, vmfb: Path | None, compiled: dict, repeat: int, threads: int = 1) -> dict:
    """local-sync (CPU time) for threads == 1, else local-task with N workers (wall time)."""
    if vmfb is None:
        return compiled
    bench = tool("iree-benchmark-module")
    if not bench.exists():
        return {**compiled, "error": "iree-benchmark-module missing (pip install .[bench])"}
    device = (["--device=local-sync"] if threads == 1 else
              ["--device=local-task", f"--task_topology_max_group_count={threads}"])
    proc = subprocess.run([str(bench), f"--module={vmfb}", *device, "--function=main",
                           f"--input=@{model.input}", f"--benchmark_repetitions={repeat}", "--benchmark_format=json"],
                          check=False, capture_output=True, text=True)
    if proc.returncode != 0:
        return {**compiled, "error": f"iree-benchmark-module: {proc.stderr.strip().splitlines()[-1:]}"}
    runs = [b for b in json.loads(proc.stdout)["benchmarks"] if b.get("aggregate_name") == "median"]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[runs[0]["time_unit"]]
    key = "cpu_time" if threads == 1 else "real_time"
    return {**compiled, "infer": runs[0][key] * scale, "check": "(not read back)"}


def mlir22(repeat: int, tmp: Path, attr_dict_model: Path) -> dict:
    llvm_mlir, ll = tmp / "m22.llvm.mlir", tmp / "m22.ll"
    c1, _, code, last = run_once([str(MLIR_BIN / "mlir-opt"), f"--pass-pipeline={MLIR22_PIPELINE}",
                                  str(attr_dict_model), "-o", str(llvm_mlir)])
    if code != 0:
        return {"error": f"mlir-opt: {last}"}
    c2, _, code, last = run_once([str(MLIR_BIN / "mlir-translate"), "--mlir-to-llvmir", str(llvm_mlir), "-o", str(ll)])
    if code != 0:
        return {"error": f"mlir-translate: {last}"}
    import llvmlite.binding as llvm

    t = time.thread_time()
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    # MLIR's lowering calls memrefCopy from its C runner utilities for non-contiguous copies
    llvm.load_library_permanently(str(MLIR_BIN.parent / "lib/libmlir_c_runner_utils.so.22.1"))
    mod = llvm.parse_assembly(ll.read_text())
    target = llvm.Target.from_default_triple().create_target_machine(opt=2)
    pto = llvm.create_pipeline_tuning_options(speed_level=2)
    llvm.create_pass_builder(target, pto).getModulePassManager().run(mod, llvm.create_pass_builder(target, pto))
    engine = llvm.create_mcjit_compiler(mod, target)
    engine.finalize_object()
    jit_s = time.thread_time() - t
    # bare-pointer convention with out-params: main(ptr input, ptr out0, ptr out1)
    main = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
        engine.get_function_address("main"))
    x = np.ascontiguousarray(np.load(INPUT))
    outs = [np.zeros(np.load(e).shape, np.float32) for e in EXPECTED]

    def call():
        main(x.ctypes.data, outs[0].ctypes.data, outs[1].ctypes.data)

    call()
    return {"compile": c1 + c2 + jit_s, "infer": per_call(call, repeat), "check": max_diff(outs, [np.load(e) for e in EXPECTED]),
            "engine": engine}


def reference(repeat: int) -> dict:
    # another installed distribution ships a regular top-level `tests` package, which wins over
    # our namespace package tests/: make ours the `tests` that reference_model imports oracle from
    import types

    from interpreter import reference_model

    ours_pkg = types.ModuleType("tests")
    ours_pkg.__path__ = [str(ROOT / "tests")]
    sys.modules["tests"] = ours_pkg

    t, err = reference_model(repeat)
    return {"error": "; ".join(err or [])} if t is None else {"whole": t[0]}


def models(tmp: Path) -> list[Model]:
    from mobilenet import mobilenet_input, mobilenet_mlir

    from tosa_xdsl.interpreter import run as interpret
    from tosa_xdsl.tools.tosa_run import load_module

    bindir = Path(sys.executable).parent
    example_kw = tmp / "model.mlir"
    subprocess.run([str(bindir / "tosa-opt"), str(MODEL), "-o", str(example_kw)], check=True)
    example = Model("example", MODEL, example_kw, INPUT, [np.load(e) for e in EXPECTED], "reference outputs")
    mb, mb_kw, mb_in = tmp / "mobilenet.mlir", tmp / "mobilenet_kw.mlir", tmp / "mobilenet_input.npy"
    mb.write_text(mobilenet_mlir())
    np.save(mb_in, mobilenet_input())
    subprocess.run([str(bindir / "tosa-opt"), str(mb), "-o", str(mb_kw)], check=True)
    expected = interpret(load_module(str(mb), mb.read_text(), []).module, [np.load(mb_in)])
    return [example, Model("MobileNet-style 224x224 (bench/mobilenet.py)", mb, mb_kw, mb_in, expected, "interpreter")]


def table(title: str, results: dict, base_name: str, time_kind: str) -> list[str]:
    lines = [f"| {title} | compile (CPU) | per inference ({time_kind}) | vs IREE per inference | max abs diff |",
             "|---|---|---|---|---|"]
    base = results[base_name].get("infer")
    for name, r in results.items():
        if "whole" in r:
            lines.append(f"| {name} | — | {r['whole'] * 1e3:.1f} ms (whole process) | | |")
        elif "infer" not in r:
            lines.append(f"| {name} | n/a | n/a ({r.get('error', '?')}) | | |")
        else:
            ratio = f"{r['infer'] / base:.2f}x" if base else "n/a"
            lines.append(f"| {name} | {r['compile']:.2f} s | {r['infer'] * 1e3:.2f} ms | {ratio} | {r['check']} |")
    return lines


def guarded(fn) -> dict:
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 -- a failing row is reported, not fatal
        return {"error": f"{type(exc).__name__}: {exc}"[:300]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--record", action="store_true")
    args = ap.parse_args()
    bindir = Path(sys.executable).parent
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        attr_dict = tmp / "model_attr_dict.mlir"
        subprocess.run([str(bindir / "tosa-opt"), str(MODEL), "--tosa-syntax=attr-dict", "-o", str(attr_dict)],
                       check=True)
        for model in models(tmp):
            vmfb, compiled = iree_compile(model, tmp)
            single = {OURS: guarded(lambda m=model: ours(m, args.repeat)),
                      f"{OURS} --fp-contract=off": guarded(lambda m=model: ours(m, args.repeat, fp_contract="off")),
                      IREE: guarded(lambda m=model, v=vmfb, c=compiled: iree(m, v, c, args.repeat))}
            if model.path == MODEL:
                single["MLIR 22 pipeline + llvmlite"] = guarded(lambda: mlir22(args.repeat, tmp, attr_dict))
                single["tosa_reference_model"] = guarded(lambda: reference(min(args.repeat, 5)))
            out += table(f"{model.name}, 1 thread", single, IREE, "CPU") + [""]
            if args.threads > 1:
                n = args.threads
                multi = {f"{OURS} --threads 1 (wall time)": guarded(lambda m=model: ours(m, args.repeat, 1, True)),
                         f"{OURS} --threads {n}": guarded(lambda m=model: ours(m, args.repeat, n)),
                         f"IREE (llvm-cpu, local-task, {n} workers)": guarded(
                             lambda m=model, v=vmfb, c=compiled: iree(m, v, c, args.repeat, n))}
                out += table(f"{model.name}, {n} threads", multi, f"IREE (llvm-cpu, local-task, {n} workers)",
                             "wall") + [""]
            out.append(f"(max abs diff against the {model.against})\n")
    text = (f"Measured on {machine()} with `python bench/native.py --repeat {args.repeat} --threads {args.threads}`.\n\n"
            + "\n".join(out))
    print(text)
    if args.record:
        record("native.py", "Native execution", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
