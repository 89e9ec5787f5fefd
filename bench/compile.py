"""Compile time of the bundled model (issue 15): ours cold (lowering + LLVM, the compiled-module
cache empty) and warm (the same module again, from the cache), the whole `tosa-run --backend jit`
process with and without the cache, side by side with IREE's and MLIR 22's compile in one run.
Per-inference speed on several models is bench/native.py's job; the per-inference column here
checks that the cached code is the same code.

    python bench/compile.py [--repeat N] [--compile-repeat K] [--record]

CPU time = user + sys (in-process via time.process_time, child processes via os.wait4);
compile figures are medians of --compile-repeat compilations:
- tosa-xdsl: parse excluded; tosa-to-llvm lowering + object code (tosa_xdsl/codegen) loaded;
- IREE: `iree-compile --iree-input-type=tosa ... llvm-cpu --iree-llvmcpu-target-cpu=host`
  (whole process), per inference from `iree-benchmark-module --device=local-sync`;
- MLIR 22: upstream's TOSA passes -> bufferization -> loops -> LLVM dialect -> mlir-translate
  (both processes) + llvmlite -O2;
- tosa_reference_model: whole process, one inference.
`--record` rewrites the "Compile time" block of docs/performance.md.
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
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import INPUT, MODEL, ROOT, machine, record, run_once  # noqa: E402

MLIR_BIN = Path("/usr/lib/llvm-22/bin")
EXPECTED = [ROOT / f"examples/face_detection_front.expected_{i}.npy" for i in range(2)]
MLIR22_PIPELINE = (
    "builtin.module(func.func(tosa-optional-decompositions,canonicalize,tosa-infer-shapes,"
    "tosa-make-broadcastable,tosa-to-linalg-named,canonicalize,tosa-layerwise-constant-fold,"
    "tosa-make-broadcastable,tosa-to-linalg,tosa-to-tensor,tosa-to-arith),"
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions},func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,expand-strided-metadata,"
    "finalize-memref-to-llvm,convert-func-to-llvm{use-bare-ptr-memref-call-conv},convert-to-llvm,"
    "reconcile-unrealized-casts)")


def max_diff(outputs) -> str:
    diffs = [float(np.abs(np.asarray(o, np.float64) - np.load(e).astype(np.float64)).max())
             for o, e in zip(outputs, EXPECTED)]
    return ", ".join(f"{d:.1e}" for d in diffs)


def per_call(fn, repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def ours(repeat: int, compile_repeat: int, tmp: Path) -> tuple[dict, dict]:
    """(cold: lowering + LLVM, the cache empty; warm: the same module again, from the
    compiled-module cache), each the median of `compile_repeat` compilations."""
    from xdsl.parser import Parser

    from tosa_xdsl.codegen.cache import ModuleCache
    from tosa_xdsl.context import make_context
    from tosa_xdsl.jit import NativeModule

    module = Parser(make_context(), MODEL.read_text()).parse_module()
    cold, warm = [], []
    for i in range(compile_repeat):
        cache = ModuleCache(tmp / f"cache{i}")
        t = time.process_time()
        native = NativeModule(module, cache=cache)
        cold.append(time.process_time() - t)
        t = time.process_time()
        again = NativeModule(module, cache=cache)
        warm.append(time.process_time() - t)
        assert again.cache_hit
    x = np.load(INPUT)
    outputs, again_outputs = native.call([x]), again.call([x])
    infer = per_call(lambda: native.call([x]), repeat)
    return ({"compile": statistics.median(cold), "infer": infer, "check": max_diff(outputs)},
            {"compile": statistics.median(warm), "infer": per_call(lambda: again.call([x]), repeat),
             "check": max_diff(again_outputs)})


def tosa_run_process(tmp: Path, compile_repeat: int) -> dict:
    """Whole `tosa-run --backend jit` processes (CPU): without the cache, then twice with
    it (the first fills it, the second is timed)."""
    bindir = Path(sys.executable).parent
    out = [f"-o{tmp / 'o0.npy'}", f"-o{tmp / 'o1.npy'}"]
    base = [str(bindir / "tosa-run"), str(MODEL), "-i", str(INPUT), *out, "--backend", "jit"]
    env = dict(os.environ, TOSA_XDSL_CACHE_DIR=str(tmp / "cli-cache"))
    cold, warm = [], []
    for _ in range(compile_repeat):
        cpu, _, code, last = run_once([*base, "--no-cache"], env=env)
        if code != 0:
            return {"error": last}
        cold.append(cpu)
    run_once(base, env=env)
    for _ in range(compile_repeat):
        warm.append(run_once(base, env=env)[0])
    return {"cold": statistics.median(cold), "warm": statistics.median(warm)}


def iree(repeat: int, tmp: Path, keyword_model: Path, compile_repeat: int = 1) -> dict:
    vmfb = tmp / "model.vmfb"
    bindir = Path(sys.executable).parent
    if not (bindir / "iree-compile").exists() and shutil.which("iree-compile"):
        bindir = Path(shutil.which("iree-compile")).parent  # a venv layered over another's
    cmd = [str(bindir / "iree-compile"), "--iree-input-type=tosa", "--iree-hal-target-device=local",
           "--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host",
           str(keyword_model), "-o", str(vmfb)]
    cpus = []
    for _ in range(compile_repeat):
        cpu, _, code, last = run_once(cmd)
        if code != 0:
            return {"error": f"iree-compile: {last}"}
        cpus.append(cpu)
    cpu = statistics.median(cpus)
    bench = Path(sys.executable).parent / "iree-benchmark-module"
    if not bench.exists() and shutil.which("iree-benchmark-module"):
        bench = Path(shutil.which("iree-benchmark-module"))
    if not bench.exists():
        return {"compile": cpu, "error": "iree-benchmark-module missing (pip install .[bench])"}
    proc = subprocess.run([str(bench), f"--module={vmfb}", "--device=local-sync", "--function=main",
                           f"--input=@{INPUT}", f"--benchmark_repetitions={repeat}", "--benchmark_format=json"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return {"compile": cpu, "error": f"iree-benchmark-module: {proc.stderr.strip().splitlines()[-1:]}"}
    runs = [b for b in json.loads(proc.stdout)["benchmarks"] if b.get("aggregate_name") == "median"]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[runs[0]["time_unit"]]
    return {"compile": cpu, "infer": runs[0]["cpu_time"] * scale, "check": "(not read back)"}


def mlir22(repeat: int, tmp: Path, attr_dict_model: Path, compile_repeat: int = 1) -> dict:
    llvm_mlir, ll = tmp / "m22.llvm.mlir", tmp / "m22.ll"
    processes = []  # mlir-opt + mlir-translate CPU, median over compile_repeat
    for _ in range(compile_repeat):
        c1, _, code, last = run_once([str(MLIR_BIN / "mlir-opt"), f"--pass-pipeline={MLIR22_PIPELINE}",
                                      str(attr_dict_model), "-o", str(llvm_mlir)])
        if code != 0:
            return {"error": f"mlir-opt: {last}"}
        c2, _, code, last = run_once([str(MLIR_BIN / "mlir-translate"), "--mlir-to-llvmir", str(llvm_mlir),
                                      "-o", str(ll)])
        if code != 0:
            return {"error": f"mlir-translate: {last}"}
        processes.append(c1 + c2)
    import llvmlite.binding as llvm

    t = time.process_time()
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
    jit_s = time.process_time() - t
    # bare-pointer convention with out-params: main(ptr input, ptr out0, ptr out1)
    main = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
        engine.get_function_address("main"))
    x = np.ascontiguousarray(np.load(INPUT))
    outs = [np.zeros(np.load(e).shape, np.float32) for e in EXPECTED]

    def call():
        main(x.ctypes.data, outs[0].ctypes.data, outs[1].ctypes.data)

    call()
    return {"compile": statistics.median(processes) + jit_s, "infer": per_call(call, repeat), "check": max_diff(outs),
            "engine": engine}


def reference(repeat: int) -> dict:
    from interpreter import reference_model

    t, err = reference_model(repeat)
    return {"error": "; ".join(err or [])} if t is None else {"whole": t[0]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--compile-repeat", type=int, default=3, help="compilations per median (ours, IREE, MLIR 22)")
    ap.add_argument("--record", action="store_true")
    args = ap.parse_args()
    bindir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        keyword, attr_dict = tmp / "model.mlir", tmp / "model_attr_dict.mlir"
        subprocess.run([str(bindir / "tosa-opt"), str(MODEL), "-o", str(keyword)], check=True)
        subprocess.run([str(bindir / "tosa-opt"), str(MODEL), "--tosa-syntax=attr-dict", "-o", str(attr_dict)],
                       check=True)
        results = {}
        try:
            cold, warm = ours(args.repeat, args.compile_repeat, tmp)
        except Exception as exc:  # noqa: BLE001 -- a failing row is reported, not fatal
            cold = warm = {"error": f"{type(exc).__name__}: {exc}"}
        results["tosa-xdsl --backend jit (cold)"] = cold
        results["tosa-xdsl, again (compiled-module cache)"] = warm
        process = tosa_run_process(tmp, args.compile_repeat)
        for name, fn in (
                         ("IREE (llvm-cpu, local-sync)", lambda: iree(args.repeat, tmp, keyword, args.compile_repeat)),
                         ("MLIR 22 pipeline + llvmlite", lambda: mlir22(args.repeat, tmp, attr_dict, args.compile_repeat)),
                         ("tosa_reference_model", lambda: reference(min(args.repeat, 5)))):
            try:
                results[name] = fn()
            except Exception as exc:  # noqa: BLE001 -- a failing row is reported, not fatal
                results[name] = {"error": f"{type(exc).__name__}: {exc}"}
    lines = ["| the example model | compile (CPU) | per inference (CPU) | vs IREE per inference | max abs diff vs reference outputs |",
             "|---|---|---|---|---|"]
    base = results["IREE (llvm-cpu, local-sync)"].get("infer")
    for name, r in results.items():
        if "error" in r and "infer" not in r and "whole" not in r:
            compiled = f"{r['compile']:.2f} s" if "compile" in r else "n/a"
            lines.append(f"| {name} | {compiled} | n/a ({r['error']}) | | |")
            continue
        if "whole" in r:
            lines.append(f"| {name} | — | {r['whole'] * 1e3:.1f} ms (whole process) | | |")
            continue
        ratio = f"{r['infer'] / base:.1f}x" if base else "n/a"
        lines.append(f"| {name} | {r['compile']:.2f} s | {r['infer'] * 1e3:.2f} ms | {ratio} | {r['check']} |")
    if "error" in process:
        lines.append(f"\nWhole `tosa-run --backend jit` process: n/a ({process['error']})")
    else:
        lines.append(f"\nWhole `tosa-run --backend jit` process (CPU, start-up, parse, compile, one inference, "
                     f"write): {process['cold']:.2f} s with `--no-cache`, {process['warm']:.2f} s when the "
                     f"compiled module is in the cache.")
    text = (f"Measured on {machine()} with `python bench/compile.py --repeat {args.repeat} --compile-repeat "
            f"{args.compile_repeat}` (compile: median of {args.compile_repeat}).\n\n" + "\n".join(lines))
    print(text)
    if args.record:
        record("compile.py", "Compile time", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
