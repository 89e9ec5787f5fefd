"""`tosa-arith-const-to-tosa-const`: tensor-valued `arith.constant`s become `tosa.const` (upstream's
pass and semantics), so a graph whose constants came back through arith folding is TOSA-only.

Rewritten: a ranked, statically shaped tensor constant whose value (dense literal or
dense_resource) has exactly the result type and whose element type is a float or a signless /
unsigned integer. Kept: scalars, index tensors, signed-integer tensors, dynamic shapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter


def _supported_element(e: Attribute) -> bool:
    if isinstance(e, AnyFloat):
        return True
    return isinstance(e, IntegerType) and e.signedness.data != Signedness.SIGNED


@dataclass(frozen=True)
class TosaArithConstToTosaConstPass(ModulePass):
    name: ClassVar[str] = "tosa-arith-const-to-tosa-const"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp

        for const in [o for o in op.walk() if isinstance(o, arith.ConstantOp)]:
            t = const.result.type
            value = const.value
            if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
                continue
            if not _supported_element(t.element_type):
                continue
            if not isinstance(value, (DenseIntOrFPElementsAttr, DenseResourceAttr)) or value.get_type() != t:
                continue
            new = ConstOp(value)
            Rewriter.replace_op(const, [new], [new.output])
