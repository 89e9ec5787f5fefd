"""The one list of tosa-xdsl's passes, and the pass table `tosa-opt -p` uses.

Add a pass by adding `"pass-name": _lazy(module, class)` to `TOSA_PASSES`: `factory()` imports
and returns the ModulePass *class* (lazily, so `tosa-opt` start-up does not import every
pass). A pass with options must be a frozen dataclass with a `name` ClassVar, as xDSL's.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    """A registry entry that imports `module` only when the pass is used."""

    def load() -> type[ModulePass]:
        import importlib

        return getattr(importlib.import_module(module), cls)

    return load


_P = "tosa_xdsl.passes."
_L = "tosa_xdsl.lowering."

TOSA_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    # TOSA -> TOSA (tosa_xdsl/passes/)
    "tosa-attach-target": _lazy(_P + "attach_target", "TosaAttachTargetPass"),
    "tosa-validate": _lazy(_P + "validate", "TosaValidatePass"),
    "canonicalize": _lazy(_P + "canonicalize", "TosaCanonicalizePass"),
    "tosa-optional-decompositions": _lazy(_P + "decompositions", "TosaOptionalDecompositionsPass"),
    "tosa-reduce-transposes": _lazy(_P + "reduce_transposes", "TosaReduceTransposesPass"),
    "tosa-infer-shapes": _lazy(_P + "infer_shapes", "TosaInferShapesPass"),
    "tosa-make-broadcastable": _lazy(_P + "make_broadcastable", "TosaMakeBroadcastablePass"),
    "tosa-layerwise-constant-fold": _lazy(_P + "constant_fold", "TosaLayerwiseConstantFoldPass"),
    # producers' types (docs/producers.md)
    "tosa-narrow-i64-to-i32": _lazy(_P + "narrow_i64_to_i32", "TosaNarrowI64ToI32Pass"),
    "tosa-narrow-f64-to-f32": _lazy(_P + "narrow_f64_to_f32", "TosaNarrowF64ToF32Pass"),
    "tosa-convert-integer-type-to-signless": _lazy(_P + "convert_integer_type_to_signless",
                                                   "TosaConvertIntegerTypeToSignlessPass"),
    "tosa-experimental-input-shape": _lazy(_P + "input_shape", "TosaInputShapePass"),
    "tosa-arith-const-to-tosa-const": _lazy(_P + "arith_const_to_tosa_const", "TosaArithConstToTosaConstPass"),
    "view-op-graph": _lazy(_P + "view_op_graph", "ViewOpGraphPass"),
    # frontends' legalizations to TOSA (tosa_xdsl/frontends/)
    "tosa-legalize-tfl": _lazy("tosa_xdsl.frontends.tflite.legalize", "TosaLegalizeTflPass"),
    "tosa-upgrade-to-1.0": _lazy("tosa_xdsl.frontends.legacy.upgrade", "TosaUpgradeTo10Pass"),
    # TOSA -> linalg/tensor/arith/scf/ml_program (tosa_xdsl/lowering/)
    "tosa-to-tensor": _lazy(_L + "tosa_to_tensor", "TosaToTensorPass"),
    "tosa-to-arith": _lazy(_L + "tosa_to_arith", "TosaToArithPass"),
    "tosa-to-scf": _lazy(_L + "tosa_to_scf", "TosaToSCFPass"),
    "tosa-to-mlprogram": _lazy(_L + "tosa_to_mlprogram", "TosaToMLProgramPass"),
    "tosa-to-linalg-named": _lazy(_L + "tosa_to_linalg_named.conversion", "TosaToLinalgNamedPass"),
    "tosa-to-linalg": _lazy(_L + "tosa_to_linalg.conversion", "TosaToLinalgPass"),
    "tosa-to-linalg-pipeline": _lazy(_L + "pipelines", "TosaToLinalgPipelinePass"),
    # linalg -> linalg
    "linalg-fuse-elementwise-ops": _lazy(_L + "linalg_transforms.fuse_elementwise_ops",
                                         "LinalgFuseElementwiseOpsPass"),
    "linalg-write-into-copy-target": _lazy(_L + "linalg_transforms.copy_elision", "LinalgWriteIntoCopyTargetPass"),
    "linalg-fp-contract": _lazy(_L + "linalg_transforms.fp_contract", "LinalgFpContractPass"),
    "linalg-fill-pad-border": _lazy(_L + "linalg_transforms.fill_border", "LinalgFillPadBorderPass"),
    # bufferization, loops, LLVM
    "one-shot-bufferize": _lazy(_L + "bufferize.one_shot_bufferize", "OneShotBufferizePass"),
    "convert-linalg-to-affine-loops": _lazy(_L + "to_loops.linalg_to_loops", "ConvertLinalgToAffineLoopsPass"),
    "convert-linalg-to-loops": _lazy(_L + "to_loops.linalg_to_loops", "ConvertLinalgToLoopsPass"),
    "outline-parallel-loops": _lazy(_L + "to_loops.outline_parallel", "OutlineParallelLoopsPass"),
    "lower-affine": _lazy(_L + "to_loops.lower_affine", "LowerAffinePass"),
    "convert-scf-to-cf": _lazy(_L + "to_llvm.scf_to_cf", "ConvertScfToCfPass"),
    "bound-while-loops": _lazy(_L + "to_llvm.bound_while_loops", "BoundWhileLoopsPass"),
    "arith-emulate-fp8": _lazy(_L + "to_llvm.emulate_fp8", "EmulateFp8Pass"),
    "convert-math-to-libm": _lazy(_L + "to_llvm.math_to_libm", "ConvertMathToLibmPass"),
    "memref-copy-to-affine-loops": _lazy(_L + "to_loops.copy_to_loops", "MemrefCopyToAffineLoopsPass"),
    "outline-loop-nests": _lazy(_L + "to_llvm.outline_loop_nests", "OutlineLoopNestsPass"),
    "convert-to-llvm": _lazy(_L + "to_llvm.convert_to_llvm", "ConvertToLLVMPass"),
    "tosa-to-loops": _lazy(_L + "pipelines", "TosaToLoopsPipelinePass"),
    "tosa-to-llvm": _lazy(_L + "pipelines", "TosaToLLVMPipelinePass"),
}


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's passes plus ours; ours win on a name clash."""
    from xdsl.transforms import get_all_passes

    passes = dict(get_all_passes())
    passes.update(TOSA_PASSES)
    return passes
