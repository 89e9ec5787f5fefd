"""The one list of tosa-xdsl's passes, and the pass table `tosa-opt -p` uses.

Add a pass by adding `"pass-name": factory` to `TOSA_PASSES`, where `factory()` imports
and returns the ModulePass *class* (lazily, so `tosa-opt` start-up does not import every
pass). A pass with options must be a frozen dataclass with a `name` ClassVar, as xDSL's.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass



def _attach_target() -> type[ModulePass]:
    from tosa_xdsl.passes.attach_target import TosaAttachTargetPass

    return TosaAttachTargetPass


def _validate() -> type[ModulePass]:
    from tosa_xdsl.passes.validate import TosaValidatePass

    return TosaValidatePass


def _infer_shapes() -> type[ModulePass]:
    from tosa_xdsl.passes.infer_shapes import TosaInferShapesPass

    return TosaInferShapesPass


def _make_broadcastable() -> type[ModulePass]:
    from tosa_xdsl.passes.make_broadcastable import TosaMakeBroadcastablePass

    return TosaMakeBroadcastablePass


def _layerwise_constant_fold() -> type[ModulePass]:
    from tosa_xdsl.passes.constant_fold import TosaLayerwiseConstantFoldPass

    return TosaLayerwiseConstantFoldPass


def _canonicalize() -> type[ModulePass]:
    from tosa_xdsl.passes.canonicalize import TosaCanonicalizePass

    return TosaCanonicalizePass


def _optional_decompositions() -> type[ModulePass]:
    from tosa_xdsl.passes.decompositions import TosaOptionalDecompositionsPass

    return TosaOptionalDecompositionsPass


def _reduce_transposes() -> type[ModulePass]:
    from tosa_xdsl.passes.reduce_transposes import TosaReduceTransposesPass

    return TosaReduceTransposesPass


def _tosa_to_tensor() -> type[ModulePass]:
    from tosa_xdsl.lowering.tosa_to_tensor import TosaToTensorPass

    return TosaToTensorPass


def _tosa_to_arith() -> type[ModulePass]:
    from tosa_xdsl.lowering.tosa_to_arith import TosaToArithPass

    return TosaToArithPass


def _tosa_to_scf() -> type[ModulePass]:
    from tosa_xdsl.lowering.tosa_to_scf import TosaToSCFPass

    return TosaToSCFPass


def _tosa_to_mlprogram() -> type[ModulePass]:
    from tosa_xdsl.lowering.tosa_to_mlprogram import TosaToMLProgramPass

    return TosaToMLProgramPass


def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    """A registry entry that imports `module` only when the pass is used."""

    def load() -> type[ModulePass]:
        import importlib

        return getattr(importlib.import_module(module), cls)

    return load


_LOWERING = "tosa_xdsl.lowering."


TOSA_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "tosa-attach-target": _attach_target,
    "tosa-validate": _validate,
    "canonicalize": _canonicalize,
    "tosa-optional-decompositions": _optional_decompositions,
    "tosa-reduce-transposes": _reduce_transposes,
    "tosa-infer-shapes": _infer_shapes,
    "tosa-make-broadcastable": _make_broadcastable,
    "tosa-layerwise-constant-fold": _layerwise_constant_fold,
    "tosa-legalize-tfl": _lazy("tosa_xdsl.frontends.tflite.legalize", "TosaLegalizeTflPass"),
    "tosa-to-tensor": _tosa_to_tensor,
    "tosa-to-arith": _tosa_to_arith,
    "tosa-to-scf": _tosa_to_scf,
    "tosa-to-mlprogram": _tosa_to_mlprogram,
    "tosa-to-linalg-named": _lazy(_LOWERING + "tosa_to_linalg_named", "TosaToLinalgNamedPass"),
    "tosa-to-linalg": _lazy(_LOWERING + "tosa_to_linalg", "TosaToLinalgPass"),
    "tosa-to-linalg-pipeline": _lazy(_LOWERING + "pipelines", "TosaToLinalgPipelinePass"),
    # stage 2 (issue 6): bufferization, loops, LLVM
    "one-shot-bufferize": _lazy(_LOWERING + "bufferize", "OneShotBufferizePass"),
    "convert-linalg-to-affine-loops": _lazy(_LOWERING + "linalg_to_loops", "ConvertLinalgToAffineLoopsPass"),
    "convert-linalg-to-loops": _lazy(_LOWERING + "linalg_to_loops", "ConvertLinalgToLoopsPass"),
    "convert-scf-to-cf": _lazy(_LOWERING + "scf_to_cf", "ConvertScfToCfPass"),
    "lower-affine": _lazy(_LOWERING + "lower_affine", "LowerAffinePass"),
    "arith-emulate-fp8": _lazy(_LOWERING + "emulate_fp8", "EmulateFp8Pass"),
    "convert-math-to-libm": _lazy(_LOWERING + "math_to_libm", "ConvertMathToLibmPass"),
    "convert-to-llvm": _lazy(_LOWERING + "to_llvm", "ConvertToLLVMPass"),
    "tosa-to-loops": _lazy(_LOWERING + "pipelines", "TosaToLoopsPipelinePass"),
    "tosa-to-llvm": _lazy(_LOWERING + "pipelines", "TosaToLLVMPipelinePass"),
}


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's passes plus ours; ours win on a name clash."""
    from xdsl.transforms import get_all_passes

    passes = dict(get_all_passes())
    passes.update(TOSA_PASSES)
    return passes
