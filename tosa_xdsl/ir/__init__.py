"""TOSA dialect types and attributes."""

from tosa_xdsl.ir.access import element_type
from tosa_xdsl.ir.enums import (
    ENUM_ATTRS,
    NanMode,
    NanModeAttr,
    ResizeMode,
    ResizeModeAttr,
    RoundingMode,
    RoundingModeAttr,
)
from tosa_xdsl.ir.target_env import TargetEnvAttr
from tosa_xdsl.ir.types import AnyTensor, ShapeType, TensorOrShape, is_tensor

ATTRIBUTES = (ShapeType, *ENUM_ATTRS, TargetEnvAttr)

__all__ = [
    "ATTRIBUTES", "AnyTensor", "NanMode", "NanModeAttr", "ResizeMode", "ResizeModeAttr",
    "RoundingMode", "RoundingModeAttr", "ShapeType", "TargetEnvAttr", "TensorOrShape",
    "element_type", "is_tensor",
]
