"""The named lowering pipelines, each a pass that runs a fixed list of passes:

  tosa-to-linalg-pipeline   TOSA -> linalg/tensor/arith/math/scf/ml_program on tensors.
      Upstream's pre-passes in upstream's order, then every conversion, so no TOSA op is left:
        tosa-optional-decompositions (unless disable-tosa-decompositions), canonicalize,
        tosa-infer-shapes, tosa-make-broadcastable, tosa-to-linalg-named, canonicalize,
        tosa-layerwise-constant-fold, tosa-make-broadcastable, tosa-validate (unless
        validation=false), tosa-to-linalg, tosa-to-tensor, tosa-to-scf, tosa-to-mlprogram,
        tosa-to-arith.
      (Upstream's pipeline stops after tosa-to-linalg and leaves const/pad/slice/control flow/
      variables to passes the user adds; ours finishes the job.)
  tosa-to-loops             ... + one-shot-bufferize + linalg-write-into-copy-target + linalg-fp-contract
      (unless fp-contract=off)
      + linalg -> loops + arith-emulate-fp8 +
      convert-math-to-libm: memref + affine (or scf with loops=scf) + arith + math, "LLVM-
      compatible loops" that upstream's standard passes lower further (fp8 arithmetic emulated
      on the i8 bits and math.erf as a call to erff: MLIR 22 lowers neither).
  tosa-to-llvm              ... + memref-copy-to-affine-loops, outline-loop-nests, lower-affine, bound-while-loops, convert-scf-to-cf,
      convert-to-llvm, reconcile-unrealized-casts: the llvm dialect only, ready for the JIT / mlir-translate.

Every stage runs in the interpreter; `tosa-run -p` accepts any prefix of the expanded list
(`expanded(...)` gives it, docs/lowering.md lists the stages).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from tosa_xdsl.diagnostics import LocatedError

# tosa-to-llvm's `threads` (and tosa-run's --threads): the pool's limit (codegen/thread_pool.py
# MAX_WORKERS + the caller). Here rather than in outline_parallel.py, which a cache hit never imports.
MAX_THREADS = 256


def linalg_stage(validation: bool = True, decompositions: bool = True, hwcf: bool = False) -> list[str]:
    """`hwcf`: CONV2D weights transposed to HWCF (`linalg.conv_2d_nhwc_hwcf`), so the output-
    channel loop reads them contiguously once the loops are built (see tosa-to-loops)."""
    passes = ["tosa-optional-decompositions"] if decompositions else []
    passes += [
        "canonicalize",
        "tosa-infer-shapes",
        "tosa-make-broadcastable",
        "tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true}" if hwcf else "tosa-to-linalg-named",
        "canonicalize",
        "tosa-layerwise-constant-fold",
        "tosa-make-broadcastable",
    ]
    if validation:
        passes.append("tosa-validate")
    passes += ["tosa-to-linalg", "tosa-to-tensor", "tosa-to-scf", "tosa-to-mlprogram", "tosa-to-arith"]
    return passes


def loops_stage(loops: str = "affine", mark_parallel: bool = False, fp_contract: str = "fast") -> list[str]:
    """`mark_parallel` (affine loops): mark the loops outline-parallel-loops distributes.
    `fp_contract="fast"` (the default): linalg-fp-contract, FMA in float dot products (within
    the spec's dot-product error bound, as IREE and clang's -ffp-contract=fast do); "off":
    the plain loop nests' float bits."""
    # fuse-init-and-epilogue: the reductions' inits and epilogues in their nests, the output block
    # in a stack scratch buffer (-10% per inference, docs/native.md); not with mark-parallel (the
    # threads would share the scratch block, and fused without it was measured slower)
    to_loops = {"affine": "convert-linalg-to-affine-loops{register-tiling=true"
                          + (" mark-parallel=true}" if mark_parallel else " fuse-init-and-epilogue=true}"),
                "scf": "convert-linalg-to-loops"}[loops]
    contract = ["linalg-fp-contract"] if fp_contract == "fast" else []
    # linalg-fill-pad-border: pads filled on their border only, one nest per pad (-3% per inference
    # on both models for +4-8% compile time on the example, which stays under issue 15's 2 s; docs/native.md)
    return ["linalg-fuse-elementwise-ops", "one-shot-bufferize", "linalg-write-into-copy-target",
            "linalg-fill-pad-border", *contract,
            to_loops, "arith-emulate-fp8", "convert-math-to-libm"]


def _check_fp_contract(pipeline: str, value: str) -> None:
    if value not in ("off", "fast"):
        raise ValueError(f"{pipeline}: fp-contract must be off or fast, got {value!r}")


# memref-copy-to-affine-loops: strided copies as vectorisable nests (run-time speed, docs/native.md);
# outline-loop-nests: one small LLVM function per loop nest (compile time, docs/native.md);
# bound-while-loops: native code stops a WHILE_LOOP past --max-loop-iterations (to_llvm/bound_while_loops.py)
LLVM_STAGE = ["memref-copy-to-affine-loops", "outline-loop-nests", "lower-affine", "bound-while-loops", "convert-scf-to-cf", "convert-to-llvm",
              "reconcile-unrealized-casts"]


def llvm_stage(threads: int = 1) -> list[str]:
    """With threads > 1 the marked loops are outlined and called through the thread pool
    first (docs/native.md), before outline-loop-nests turns the remaining nests into calls;
    with 1 the code is exactly the single-threaded one."""
    return ([f"outline-parallel-loops{{threads={threads}}}"] if threads > 1 else []) + LLVM_STAGE


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic GC off for the duration (then back as it was, nothing forced).

    Lowering builds and drops tens of thousands of ops, and xDSL's ops, results and uses
    form reference cycles: each full collection traverses the whole, growing IR again. On
    the example, tosa-to-llvm takes 2.3 s with the collector running and 1.4 s without; the
    garbage it leaves is collected once later (~0.4 s, by the next automatic collection)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def run_passes(ctx: Context, module: ModuleOp, names: list[str]) -> None:
    from tosa_xdsl import progress
    from tosa_xdsl.pass_registry import all_passes

    def report(_done: ModulePass | None, _module: ModuleOp, upcoming: ModulePass | None) -> None:
        if upcoming is not None:
            step[0] += 1
            progress.stage("lowering", upcoming.name, step[0], len(names), force=True)

    step = [0]
    callback = report if progress.active() else None  # the terminal progress line, if shown
    with gc_paused():
        PassPipeline.parse_spec(all_passes(), ",".join(names), callback).apply(ctx, module)


def no_tosa_left(module: ModuleOp, pipeline: str) -> None:
    """Every TOSA op must have been lowered; a leftover is a bug worth a located error."""
    from tosa_xdsl.ir.walk import all_ops

    for op in all_ops(module):
        if op.name.startswith("tosa."):
            raise LocatedError(op, f"{pipeline}: '{op.name}' was not lowered")


@dataclass(frozen=True)
class TosaToLinalgPipelinePass(ModulePass):
    """TOSA -> linalg on tensors (with tensor/arith/math/scf/ml_program), no TOSA op left."""

    name: ClassVar[str] = "tosa-to-linalg-pipeline"

    validation: bool = True
    disable_tosa_decompositions: bool = False
    prefer_conv2d_kernel_layout_hwcf: bool = False

    def stages(self) -> list[str]:
        return linalg_stage(self.validation, not self.disable_tosa_decompositions,
                            self.prefer_conv2d_kernel_layout_hwcf)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(ctx, op, self.stages())
        no_tosa_left(op, self.name)


@dataclass(frozen=True)
class TosaToLoopsPipelinePass(ModulePass):
    """TOSA -> memref + affine (or scf) loops + arith + math."""

    name: ClassVar[str] = "tosa-to-loops"

    validation: bool = True
    disable_tosa_decompositions: bool = False
    loops: str = "affine"
    # HWCF weights: with the output-channel loop innermost (linalg_to_loops.loop_order) the
    # convolution's weight reads are contiguous and LLVM vectorises them; results unchanged
    prefer_conv2d_kernel_layout_hwcf: bool = True
    fp_contract: str = "fast"  # FMA in float dot products; "off": bit-identical floats (loops_stage)

    def __post_init__(self) -> None:  # a bad option is a CLI error (exit 2), caught at parse time
        if self.loops not in ("affine", "scf"):
            raise ValueError(f"tosa-to-loops: loops must be affine or scf, got {self.loops!r}")
        _check_fp_contract(self.name, self.fp_contract)

    def stages(self) -> list[str]:
        return (linalg_stage(self.validation, not self.disable_tosa_decompositions,
                             self.prefer_conv2d_kernel_layout_hwcf) + loops_stage(self.loops, fp_contract=self.fp_contract))

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(ctx, op, self.stages())
        no_tosa_left(op, self.name)


@dataclass(frozen=True)
class TosaToLLVMPipelinePass(ModulePass):
    """TOSA -> the llvm dialect only."""

    name: ClassVar[str] = "tosa-to-llvm"

    validation: bool = True
    disable_tosa_decompositions: bool = False
    prefer_conv2d_kernel_layout_hwcf: bool = True  # as tosa-to-loops
    threads: int = 1  # ours: outer parallel loops on this many threads (--threads N)
    fp_contract: str = "fast"  # as tosa-to-loops

    def __post_init__(self) -> None:  # a bad option is a CLI error (exit 2), caught at parse time
        if not 1 <= self.threads <= MAX_THREADS:
            raise ValueError(f"tosa-to-llvm: threads must be between 1 and {MAX_THREADS}, got {self.threads}")
        _check_fp_contract(self.name, self.fp_contract)

    def stages(self) -> list[str]:
        return (linalg_stage(self.validation, not self.disable_tosa_decompositions,
                             self.prefer_conv2d_kernel_layout_hwcf)
                + loops_stage(mark_parallel=self.threads > 1, fp_contract=self.fp_contract)
                + llvm_stage(self.threads))

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(ctx, op, self.stages())
        no_tosa_left(op, self.name)


def expanded(pipeline: str) -> list[str]:
    """The pass names a named pipeline runs, for `tosa-run -p` prefixes and the docs."""
    return {
        "tosa-to-linalg-pipeline": TosaToLinalgPipelinePass(),
        "tosa-to-loops": TosaToLoopsPipelinePass(),
        "tosa-to-llvm": TosaToLLVMPipelinePass(),
    }[pipeline].stages()
