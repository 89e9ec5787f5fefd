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
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import INPUT, MODEL, machine, record, run_once  # noqa: E402
# the rows' measurement is native.py's (one definition of each tool run); this script only
# repeats the compilations and adds the cache and whole-process rows
from native import EXPECTED, Model, iree, iree_compile, max_diff, mlir22, per_call, reference  # noqa: E402


def ours(repeat: int, compile_repeat: int, tmp: Path) -> tuple[dict, dict]:
    """(cold: lowering + LLVM, the cache empty; warm: the same module again, from the
    compiled-module cache), each the median of `compile_repeat` compilations."""
    from xdsl.parser import Parser

    from tosa_xdsl.codegen.cache import ModuleCache
    from tosa_xdsl.context import make_context
    from tosa_xdsl.jit import NativeModule

    module = Parser(make_context(), MODEL.read_text()).parse_module()
    expected = [np.load(e) for e in EXPECTED]
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
    return ({"compile": statistics.median(cold), "infer": per_call(lambda: native.call([x]), repeat),
             "check": max_diff(native.call([x]), expected)},
            {"compile": statistics.median(warm), "infer": per_call(lambda: again.call([x]), repeat),
             "check": max_diff(again.call([x]), expected)})


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
    # untimed, filling the cache, with bytecode writing allowed (as bench/interpreter.py): this
    # environment sets PYTHONDONTWRITEBYTECODE=1, which also keeps tosa-run from writing its
    # dataclass-code cache (tools/dataclass_code.py) -- not what an installed tool costs
    run_once(base, env={k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"})
    for _ in range(compile_repeat):
        warm.append(run_once(base, env=env)[0])
    return {"cold": statistics.median(cold), "warm": statistics.median(warm)}


def median_compile(runs: list[dict]) -> dict:
    """The last run's row with the median compile time of all `runs` (an error row if any failed)."""
    failed = [r for r in runs if "compile" not in r or "error" in r]
    if failed:
        return failed[0]
    return {**runs[-1], "compile": statistics.median(r["compile"] for r in runs)}


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
        example = Model("example", MODEL, keyword, INPUT, [np.load(e) for e in EXPECTED], "reference outputs")
        results = {}
        try:
            cold, warm = ours(args.repeat, args.compile_repeat, tmp)
        except Exception as exc:  # noqa: BLE001 -- a failing row is reported, not fatal
            cold = warm = {"error": f"{type(exc).__name__}: {exc}"}
        results["tosa-xdsl --backend jit (cold)"] = cold
        results["tosa-xdsl, again (compiled-module cache)"] = warm
        process = tosa_run_process(tmp, args.compile_repeat)

        def iree_row() -> dict:
            compiled = [iree_compile(example, tmp) for _ in range(args.compile_repeat)]
            vmfb, last = compiled[-1]
            if vmfb is None:
                return last
            return median_compile([c for _, c in compiled[:-1]] + [iree(example, vmfb, last, args.repeat)])

        for name, fn in (
                ("IREE (llvm-cpu, local-sync)", iree_row),
                ("MLIR 22 pipeline + llvmlite",
                 lambda: median_compile([mlir22(args.repeat, tmp, attr_dict) for _ in range(args.compile_repeat)])),
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
