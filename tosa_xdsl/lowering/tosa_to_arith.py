"""`tosa-to-arith`: tosa.const -> arith.constant with the same dense value (upstream's pass).

tosa.const_shape ops without uses are erased; those still used (by ops of other passes) are
left alone, as upstream keeps them legal. Upstream's options `include-apply-rescale` and
`use-32-bit` are accepted (upstream's RUN lines pass them) and change nothing: they choose how
upstream lowers its MLIR-only `tosa.apply_scale` helper op, which is not part of this dialect
(our tosa-to-linalg expands RESCALE's apply_scale straight into arith, lowering/numerics_ir.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    ModuleOp,
    TensorType,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp


def lower_const(op: ConstOp) -> None:
    value = op.values
    t = op.output.type
    if not isinstance(t, TensorType):
        raise LocatedError(op, f"tosa-to-arith: cannot lower '{op.name}': result must be a ranked tensor, got {t}")
    if isinstance(value, DenseIntOrFPElementsAttr):
        new = arith.ConstantOp(value)
    elif isinstance(value, DenseResourceAttr):
        new = arith.ConstantOp(value, t)
    else:
        raise LocatedError(
            op, f"tosa-to-arith: cannot lower '{op.name}': values of kind {type(value).__name__} are not supported"
        )
    if new.result.type != t:
        raise LocatedError(
            op, f"tosa-to-arith: cannot lower '{op.name}': value type {new.result.type} differs from result type {t}"
        )
    Rewriter.replace_op(op, [new], [new.result])


@dataclass(frozen=True)
class TosaToArithPass(ModulePass):
    """tosa.const -> arith.constant; unused tosa.const_shape erased."""

    name: ClassVar[str] = "tosa-to-arith"

    include_apply_rescale: bool = False
    use_32_bit: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in list(op.walk()):
            if isinstance(o, ConstOp):
                lower_const(o)
            elif isinstance(o, ConstShapeOp) and not o.output.uses:
                Rewriter.erase_op(o)
