"""`tosa-narrow-f64-to-f32`: TOSA graphs with f64 tensors (torch-mlir's Python-float constants)
made conformant to PRO-FP by narrowing them to f32 (round to nearest even). Upstream's pass,
name and options; the rules are in narrow_types.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tosa_xdsl.passes.narrow_types import F64_TO_F32, narrow


@dataclass(frozen=True)
class TosaNarrowF64ToF32Pass(ModulePass):
    name: ClassVar[str] = "tosa-narrow-f64-to-f32"

    aggressive_rewrite: bool = False
    convert_function_boundaries: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        narrow(op, F64_TO_F32, self.aggressive_rewrite, self.convert_function_boundaries)
