"""The TFLite flatbuffer schema, as the PyPI `tflite` package generates it from
TensorFlow's schema.fbs (see docs/tflite.md for why that package, not our own flatc run).

This module is the one place that imports it: the rest of the frontend uses the names below.
"""

from __future__ import annotations

import tflite as fb  # the generated accessors (Model, SubGraph, Tensor, Operator, ...)


def _enum(cls) -> dict[int, str]:
    return {v: k for k, v in vars(cls).items() if not k.startswith("_") and isinstance(v, int)}


BUILTIN_OPERATORS: dict[int, str] = _enum(fb.BuiltinOperator)
BUILTIN_OPTIONS: dict[int, str] = _enum(fb.BuiltinOptions)
BUILTIN_OPTIONS2: dict[int, str] = _enum(fb.BuiltinOptions2)
TENSOR_TYPES: dict[int, str] = _enum(fb.TensorType)

# Enum-valued option fields -> their enum (printed by name, as TFL's ODS does).
ENUM_FIELDS: dict[str, dict[int, str]] = {
    "Padding": _enum(fb.Padding),
    "FusedActivationFunction": _enum(fb.ActivationFunctionType),
    "WeightsFormat": _enum(fb.FullyConnectedOptionsWeightsFormat),
    "Mode": _enum(fb.MirrorPadMode),
    "Type": _enum(fb.LSHProjectionType),
    "Combiner": _enum(fb.CombinerType),
    "KernelType": _enum(fb.LSTMKernelType),
    "QuantizedBiasType": TENSOR_TYPES,
    "InDataType": TENSOR_TYPES,
    "OutDataType": TENSOR_TYPES,
    "OutputType": TENSOR_TYPES,
    "IdxOutType": TENSOR_TYPES,
}

__all__ = ["BUILTIN_OPERATORS", "BUILTIN_OPTIONS", "BUILTIN_OPTIONS2", "ENUM_FIELDS", "TENSOR_TYPES", "fb"]
