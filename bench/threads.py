"""`--threads N` variants of one model measured against each other in one process.

    python bench/threads.py [--model example|mobilenet|nest|forkjoin] [--threads 2] [--rounds 200]
        [--min-work 50000,200000,...] [--pool MIN_WORK:SPIN_WORKER:SPIN_CALLER[:PAUSE] ...]
        [--serial MIN_WORK,...] [--pipeline NAME=tosa-to-llvm{...} ...]

On a machine shared with other jobs two runs minutes apart are not comparable: the variants
(the single-threaded code, then `--threads N` with each `min-work` of outline-parallel-loops,
then each `--pool`: the pool of codegen/thread_pool.py compiled with other spin bounds and
loaded beside the default one, then each `--serial`: the threaded code with a pool that runs
every job on the calling thread, then any `--pipeline`) are compiled once and called in turn,
round after round, with the same preallocated buffers (float32 outputs: the three models'), and each variant's median wall time and median CPU time (all threads of
the process, time.process_time) per call are printed with the load average before and after,
and the 10th percentile of wall time: on a machine whose other jobs take the second CPU most
of the time, the fastest tenth of the calls is what the variant does when it has both.
Each variant's regions (calls of the pool per inference) are counted in its lowered module.

`--model nest`: instead of a model, one elementwise nest (f32 (a + b) * b, 1x64xWx16) at each
of several sizes, 1 thread against N threads with every nest distributed (min-work=0): where
the two cross is the work a fork/join costs (the estimate is outline_parallel.work, printed).
`--model forkjoin`: the pool alone, in native code: jobs of a busy-loop task called back to
back, 1 thread (a direct call) against N threads through each pool (`--pool 0:W:C`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# numpy's OpenBLAS workers spin-wait (~0.1 s) after each matmul of the interpreter's reference
# run, on the second core that `--threads 2` needs: one BLAS thread (set before numpy loads it)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import INPUT, MODEL


def _load(text: str):
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context

    return Parser(make_context(), text).parse_module()


def _stages(threads: int, min_work: int | None) -> str:
    from tosa_xdsl.lowering.pipelines import TosaToLLVMPipelinePass

    stages = TosaToLLVMPipelinePass(threads=threads).stages()
    if min_work is not None:
        stages = [f"outline-parallel-loops{{threads={threads} min-work={min_work}}}"
                  if s.startswith("outline-parallel-loops") else s for s in stages]
    return ",".join(stages)


_POOLS: set[str] = set()  # the suffixes of the pool variants loaded
_KEEP: list = []  # their engines: the code lives as long as the process


def pool_variant(spin_worker: int, spin_caller: int, pause: int = 1) -> str:
    """The suffix of a pool compiled with these spins (with or without the pause hint),
    loaded beside the default one."""
    from tosa_xdsl.codegen import thread_pool
    from tosa_xdsl.codegen.llvm import _binding, load_object

    suffix = f"_w{spin_worker}_c{spin_caller}_p{pause}"
    if suffix not in _POOLS:
        thread_pool.ensure_loaded()
        loaded = load_object(thread_pool.object_code(spin_worker=spin_worker, spin_caller=spin_caller,
                                                     pause=bool(pause), suffix=suffix),
                             pool=False)
        _binding().add_symbol(thread_pool.SYMBOL + suffix, loaded.address(thread_pool.SYMBOL + suffix))
        _POOLS.add(suffix)
        _KEEP.append(loaded)
    return suffix


def _pool_name(spin_worker: int, spin_caller: int, pause: list[int]) -> str:
    return f"spins {spin_worker}/{spin_caller}" + (" no pause" if pause == [0] else "")


def serial_pool() -> str:
    """The suffix of a 'pool' that calls the task on the whole range on the calling thread:
    the threaded code's own cost (outlined nests, contexts) without any thread."""
    from tosa_xdsl.codegen import thread_pool
    from tosa_xdsl.codegen.llvm import _binding, load_object, target_machine

    suffix = "_serial"
    if suffix not in _POOLS:
        thread_pool.ensure_loaded()
        lb = _binding()
        tm = target_machine(2)
        mod = lb.parse_assembly(f"""define void @{thread_pool.SYMBOL}{suffix}(ptr %fn, ptr %ctx, i64 %lb, i64 %ub, i64 %n) {{
  call void %fn(i64 %lb, i64 %ub, ptr %ctx)
  ret void
}}""")
        mod.triple = tm.triple
        loaded = load_object(bytes(tm.emit_object(mod)), pool=False)
        lb.add_symbol(thread_pool.SYMBOL + suffix, loaded.address(thread_pool.SYMBOL + suffix))
        _POOLS.add(suffix)
        _KEEP.append(loaded)
    return suffix


def _use_pool(lowered, suffix: str) -> None:
    """Point the lowered module's pool calls at the variant `suffix`."""
    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import StringAttr, SymbolRefAttr

    from tosa_xdsl.codegen.thread_pool import SYMBOL

    for op in lowered.walk():
        if isinstance(op, llvm.FuncOp) and op.sym_name.data == SYMBOL:
            op.sym_name = StringAttr(SYMBOL + suffix)
        elif isinstance(op, llvm.CallOp) and op.callee is not None and op.callee.string_value() == SYMBOL:
            op.callee = SymbolRefAttr(SYMBOL + suffix)


class Variant:
    def __init__(self, name: str, text: str, pipeline: str, inputs: list[np.ndarray], pool: str = ""):
        from tosa_xdsl.context import make_context
        from tosa_xdsl.jit import NativeModule
        from tosa_xdsl.lowering.pipelines import run_passes

        self.name = name
        ctx = make_context()
        lowered = _load(text)
        run_passes(ctx, lowered, pipeline.split(","))
        if pool:
            _use_pool(lowered, pool)
        self.regions = sum(1 for op in lowered.walk()
                           if getattr(op, "sym_name", None) is not None and op.sym_name.data.endswith("__task"))
        self.native = NativeModule(_load(text), pipeline=pipeline, lowered=lowered)
        self.args = [np.require(x, requirements="C") for x in inputs]
        self.outs = [np.zeros(tuple(t.get_shape()), np.float32) for t in self.native.result_types]
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def call(self) -> None:
        self.native.function(*self.args, *self.outs)

    def timed(self) -> None:
        w, c = time.perf_counter(), time.process_time()
        self.call()
        self.cpu.append(time.process_time() - c)
        self.wall.append(time.perf_counter() - w)


def compare(variants: list[Variant], rounds: int) -> None:
    for v in variants:
        v.call()  # warm-up (and the pool's workers started)
    reference = [o.copy() for o in variants[0].outs]
    for v in variants[1:]:
        for a, b in zip(reference, v.outs):
            assert np.array_equal(a.view(np.uint32), b.view(np.uint32)), f"{v.name}: not bit-identical"
    load0 = os.getloadavg()
    for r in range(rounds):
        order = variants if r % 2 == 0 else variants[::-1]  # neither goes always first
        for v in order:
            v.timed()
    load1 = os.getloadavg()
    base = statistics.median(variants[0].wall)
    print(f"load average {load0[0]:.2f} -> {load1[0]:.2f}; {rounds} alternating rounds; medians per call")
    fast0 = _p10(variants[0].wall)
    print("| variant | regions | wall | vs first | CPU (all threads) | fastest tenth: wall | vs first |\n"
          "|---|---|---|---|---|---|---|")
    for v in variants:
        w, c, f = statistics.median(v.wall), statistics.median(v.cpu), _p10(v.wall)
        print(f"| {v.name} | {v.regions} | {w * 1e6:.0f} us | {w / base:.2f}x | {c * 1e6:.0f} us "
              f"| {f * 1e6:.0f} us | {f / fast0:.2f}x |")


def _p10(xs: list[float]) -> float:
    """The 10th percentile: the calls that ran when the process had the CPUs it asked for
    (on a shared machine the median mostly measures the neighbours)."""
    return statistics.quantiles(xs, n=10)[0]


def nest_text(width: int) -> str:
    t = f"tensor<1x64x{width}x16xf32>"
    return f"""
func.func @main(%a: {t}, %b: {t}) -> {t} {{
  %s = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : () -> tensor<1xi8>
  %0 = tosa.add %a, %b : ({t}, {t}) -> {t}
  %1 = tosa.mul %0, %b, %s : ({t}, {t}, tensor<1xi8>) -> {t}
  return %1 : {t}
}}"""


def nest_work(text: str, threads: int) -> float:
    from xdsl.dialects import affine

    from tosa_xdsl.context import make_context
    from tosa_xdsl.lowering.pipelines import run_passes
    from tosa_xdsl.lowering.to_loops import outline_parallel

    stages = _stages(threads, 0).split(",")
    m = _load(text)
    run_passes(make_context(), m, stages[:[s.startswith("outline-parallel") for s in stages].index(True)])
    return sum(outline_parallel.nest_work(lp) for lp in m.walk()
               if isinstance(lp, affine.ForOp) and outline_parallel.PARALLEL_ATTR in lp.attributes)


_FORKJOIN_IR = """
define internal void @task(i64 %lo, i64 %hi, ptr %ctx) {
entry:
  %n = sub i64 %hi, %lo
  %rounds = mul i64 %n, 1024
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %x = load volatile i64, ptr %ctx, align 8
  %k1 = add i64 %k, 1
  %more = icmp slt i64 %k1, %rounds
  br i1 %more, label %loop, label %out
out:
  ret void
}
declare void @POOL(ptr, ptr, i64, i64, i64)
define void @jobs(i64 %calls, i64 %trip, i64 %threads, ptr %ctx) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  call void @POOL(ptr @task, ptr %ctx, i64 0, i64 %trip, i64 %threads)
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %calls
  br i1 %more, label %loop, label %out
out:
  ret void
}
"""


def forkjoin(n: int, rounds: int, pools: list[tuple[int, int]]) -> None:
    """Back-to-back jobs of a busy-loop task (1024 volatile loads per iteration) in native code:
    per job, 1 thread (a direct call) against n threads through each pool, at several sizes."""
    import ctypes

    from tosa_xdsl.codegen import thread_pool
    from tosa_xdsl.codegen.llvm import _binding, target_machine

    lb = _binding()
    thread_pool.ensure_loaded()
    jobs = {}
    for sw, sc, *pause in [(-1, -1), *pools]:
        suffix = "" if sw < 0 else pool_variant(sw, sc, *pause)
        tm = target_machine(2)
        mod = lb.parse_assembly(_FORKJOIN_IR.replace("@POOL", "@" + thread_pool.SYMBOL + suffix))
        mod.triple = tm.triple
        engine = lb.create_mcjit_compiler(mod, tm)
        engine.finalize_object()
        _KEEP.append(engine)
        jobs["default pool" if sw < 0 else _pool_name(sw, sc, pause)] = ctypes.CFUNCTYPE(
            None, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)(engine.get_function_address("jobs"))
    ctx = ctypes.c_int64(0)
    for trip in (8, 16, 32, 64, 128, 256, 512, 1024):
        calls = max(4, 4000 // trip)
        variants = [("1 thread", next(iter(jobs.values())), 1)] + [(k, f, n) for k, f in jobs.items()]
        times: dict[str, list[tuple[float, float]]] = {k: [] for k, _, _ in variants}
        load0 = os.getloadavg()[0]
        for r in range(rounds):
            for name, f, threads in (variants if r % 2 == 0 else variants[::-1]):
                w, c = time.perf_counter(), time.process_time()
                f(calls, trip, threads, ctypes.addressof(ctx))
                times[name].append(((time.perf_counter() - w) / calls, (time.process_time() - c) / calls))
        base = statistics.median(t[0] for t in times["1 thread"])
        print(f"job of {trip} iterations ({base * 1e6:.1f} us on 1 thread), {calls} jobs back to back; "
              f"load {load0:.2f} -> {os.getloadavg()[0]:.2f}: " + "; ".join(
                  f"{k} {statistics.median(t[0] for t in v) * 1e6:.1f} us wall "
                  f"(fastest tenth {_p10([t[0] for t in v]) * 1e6:.1f}) "
                  f"{statistics.median(t[1] for t in v) * 1e6:.1f} us CPU" for k, v in times.items()))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", choices=["example", "mobilenet", "nest", "forkjoin"], default="example")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--min-work", default="")
    ap.add_argument("--serial", default="", help="MIN_WORK,...: the threaded code with a pool that runs "
                    "every job on the calling thread")
    ap.add_argument("--pipeline", action="append", default=[], help="NAME=PIPELINE, an extra variant")
    ap.add_argument("--pool", action="append", default=[],
                    help="MIN_WORK:SPIN_WORKER:SPIN_CALLER[:PAUSE], a variant with a pool of these spins "
                         "(rounds; PAUSE 0: without the pause hint), codegen/thread_pool.py")
    args = ap.parse_args()
    n = args.threads
    if args.model == "forkjoin":
        forkjoin(n, args.rounds, [tuple(int(float(x)) for x in p.split(":")[1:]) for p in args.pool])
        return 0
    if args.model == "nest":
        rng = np.random.default_rng(0)
        for width in (1, 2, 4, 8, 16, 32, 64):
            text = nest_text(width)
            shape = (1, 64, width, 16)
            xs = [rng.standard_normal(shape).astype(np.float32) for _ in range(2)]
            print(f"\nnest 1x64x{width}x16 f32: work {nest_work(text, n):.0f}")
            compare([Variant("1 thread", text, _stages(1, None), xs),
                     Variant(f"{n} threads", text, _stages(n, 0), xs)], args.rounds)
        return 0
    if args.model == "example":
        text, inputs = MODEL.read_text(), [np.load(INPUT)]
    else:
        from mobilenet import mobilenet_input, mobilenet_mlir

        text, inputs = mobilenet_mlir(), [mobilenet_input()]
    variants = [Variant("1 thread", text, _stages(1, None), inputs)]
    for w in [int(float(x)) for x in args.min_work.split(",") if x]:
        variants.append(Variant(f"{n} threads min-work={w}", text, _stages(n, w), inputs))
    if not args.min_work:
        variants.append(Variant(f"{n} threads (default)", text, _stages(n, None), inputs))
    for p in args.pool:
        w, sw, sc, *pause = (int(float(x)) for x in p.split(":"))
        variants.append(Variant(f"{n} threads min-work={w} {_pool_name(sw, sc, pause)}", text, _stages(n, w), inputs,
                                pool_variant(sw, sc, *pause)))
    for w in [int(float(x)) for x in args.serial.split(",") if x]:
        variants.append(Variant(f"{n}-thread code min-work={w}, every job on the caller", text, _stages(n, w), inputs,
                                serial_pool()))
    for p in args.pipeline:
        name, _, pipeline = p.partition("=")
        variants.append(Variant(name, text, pipeline, inputs))
    compare(variants, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
