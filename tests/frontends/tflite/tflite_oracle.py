"""LiteRT (ai-edge-litert, TFLite's own interpreter) as the oracle for the tflite tests, and
the seeded inputs every test model is run on."""

from __future__ import annotations

from pathlib import Path

import numpy as np

MODELS = Path(__file__).parent / "models"


def interpreter(path: Path, resolver: str = "BUILTIN_WITHOUT_DEFAULT_DELEGATES"):
    """By default TFLite's own builtin kernels, not the XNNPACK delegate (which requantizes
    in float and rounds differently from TFLite's and TOSA's integer RESCALE); `resolver`
    names another `OpResolverType` ("AUTO" is what LiteRT uses by default)."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    it = Interpreter(model_path=str(path), experimental_op_resolver_type=getattr(OpResolverType, resolver))
    it.allocate_tensors()
    return it


def inputs_for(path: Path, seed: int = 7) -> list[np.ndarray]:
    """Seeded inputs of the model's input types (quantized ones span the storage range)."""
    it = interpreter(path)
    rng = np.random.default_rng(seed)
    out = []
    for d in it.get_input_details():
        dt = np.dtype(d["dtype"])
        if dt.kind == "f":
            out.append(rng.uniform(-2, 2, d["shape"]).astype(dt))
        else:
            info = np.iinfo(dt)
            out.append(rng.integers(info.min, info.max, d["shape"], endpoint=True).astype(dt))
    return out


def run_litert(path: Path, inputs: list[np.ndarray], resolver: str = "BUILTIN_WITHOUT_DEFAULT_DELEGATES") -> list[np.ndarray]:
    it = interpreter(path, resolver)
    for d, x in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]
