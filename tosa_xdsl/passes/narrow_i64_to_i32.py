"""`tosa-narrow-i64-to-i32`: TOSA graphs with i64 tensors (producers' index math, TOSA 1.1's
EXT-INT64) made conformant to PRO-INT/PRO-FP by narrowing them to i32. Upstream's pass, name
and options; the rules are in narrow_types.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tosa_xdsl.passes.narrow_types import I64_TO_I32, narrow


@dataclass(frozen=True)
class TosaNarrowI64ToI32Pass(ModulePass):
    name: ClassVar[str] = "tosa-narrow-i64-to-i32"

    aggressive_rewrite: bool = False
    convert_function_boundaries: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        narrow(op, I64_TO_I32, self.aggressive_rewrite, self.convert_function_boundaries)
