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
  tosa-to-loops             ... + one-shot-bufferize + linalg-write-into-copy-target (+ linalg-fp-contract
      with fp-contract=fast)
      + linalg -> loops + arith-emulate-fp8 +
      convert-math-to-libm: memref + affine (or scf with loops=scf) + arith + math, "LLVM-
      compatible loops" that upstream's standard passes lower further (fp8 arithmetic emulated
      on the i8 bits and math.erf as a call to erff: MLIR 22 lowers neither).
  tosa-to-llvm              ... + lower-affine, convert-scf-to-cf, convert-to-llvm,
      reconcile-unrealized-casts: the llvm dialect only, ready for the JIT / mlir-translate.

Every stage runs in the interpreter; `tosa-run -p` accepts any prefix of the expanded list
(`expanded(...)` gives it, docs/lowering.md lists the stages).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from tosa_xdsl.diagnostics import LocatedError


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


def loops_stage(loops: str = "affine", fp_contract: str = "off") -> list[str]:
    """`fp_contract="fast"`: linalg-fp-contract (FMA in float dot products; changes bits, within
    the spec's dot-product bound; off by default)."""
    # (not fuse-init-and-epilogue: measured no faster once pads are written in place, docs/native.md)
    to_loops = {"affine": "convert-linalg-to-affine-loops{register-tiling=true}",
                "scf": "convert-linalg-to-loops"}[loops]
    contract = ["linalg-fp-contract"] if fp_contract == "fast" else []
    return ["linalg-fuse-elementwise-ops", "one-shot-bufferize", "linalg-write-into-copy-target", *contract,
            to_loops, "arith-emulate-fp8", "convert-math-to-libm"]


def _check_fp_contract(pipeline: str, value: str) -> None:
    if value not in ("off", "fast"):
        raise ValueError(f"{pipeline}: fp-contract must be off or fast, got {value!r}")


LLVM_STAGE = ["lower-affine", "convert-scf-to-cf", "convert-to-llvm", "reconcile-unrealized-casts"]


def run_passes(ctx: Context, module: ModuleOp, names: list[str]) -> None:
    from tosa_xdsl import progress
    from tosa_xdsl.pass_registry import all_passes

    def report(_done: ModulePass | None, _module: ModuleOp, upcoming: ModulePass | None) -> None:
        if upcoming is not None:
            step[0] += 1
            progress.stage("lowering", upcoming.name, step[0], len(names), force=True)

    step = [0]
    callback = report if progress.active() else None  # the terminal progress line, if shown
    PassPipeline.parse_spec(all_passes(), ",".join(names), callback).apply(ctx, module)


def no_tosa_left(module: ModuleOp, pipeline: str) -> None:
    """Every TOSA op must have been lowered; a leftover is a bug worth a located error."""
    for op in module.walk():
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
    fp_contract: str = "off"  # "fast": FMA in float dot products (loops_stage)

    def __post_init__(self) -> None:  # a bad option is a CLI error (exit 2), caught at parse time
        if self.loops not in ("affine", "scf"):
            raise ValueError(f"tosa-to-loops: loops must be affine or scf, got {self.loops!r}")
        _check_fp_contract(self.name, self.fp_contract)

    def stages(self) -> list[str]:
        return (linalg_stage(self.validation, not self.disable_tosa_decompositions,
                             self.prefer_conv2d_kernel_layout_hwcf) + loops_stage(self.loops, self.fp_contract))

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
    fp_contract: str = "off"  # as tosa-to-loops

    def __post_init__(self) -> None:
        _check_fp_contract(self.name, self.fp_contract)

    def stages(self) -> list[str]:
        return (linalg_stage(self.validation, not self.disable_tosa_decompositions,
                             self.prefer_conv2d_kernel_layout_hwcf)
                + loops_stage(fp_contract=self.fp_contract) + LLVM_STAGE)

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
