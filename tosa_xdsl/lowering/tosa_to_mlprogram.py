"""`tosa-to-mlprogram`: TOSA variables -> ml_program globals (upstream's pass).

  tosa.variable @v = init : T   -> ml_program.global private mutable @v(init) : T
  tosa.variable @v : T          -> ml_program.global private mutable @v : T  (no initial value)
  tosa.variable_read @v         -> ml_program.global_load @v
  tosa.variable_write @v, %x    -> ml_program.global_store @v = %x
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import ml_program
from xdsl.dialects.builtin import (
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.dialects.ml_program_ext import GlobalLoadOp, GlobalStoreOp
from tosa_xdsl.dialects.tosa.ops.variable import (
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
)

PASS = "tosa-to-mlprogram"


def _static(op, t) -> None:
    if not isinstance(t, TensorType) or any(int(d) < 0 for d in t.get_shape()):
        raise LocatedError(op, f"{PASS}: cannot lower '{op.name}': static shapes are required, got {t}")


def lower_variable(op: VariableOp) -> None:
    t = op.tensor_type
    _static(op, t)
    new = ml_program.GlobalOp(op.sym_name, t, UnitAttr(), op.initial_value, StringAttr("private"))
    Rewriter.replace_op(op, [new], [])


def _checked_name(op, declared: dict[str, VariableOp]) -> SymbolRefAttr:
    name = op.properties["name"].data
    if name not in declared:
        raise LocatedError(op, f"{PASS}: cannot lower '{op.name}': no tosa.variable @{name} in the module")
    return SymbolRefAttr(name)


@dataclass(frozen=True)
class TosaToMLProgramPass(ModulePass):
    """tosa.variable/variable_read/variable_write -> ml_program.global/global_load/global_store."""

    name: ClassVar[str] = "tosa-to-mlprogram"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        declared = {o.sym_name.data: o for o in ops if isinstance(o, VariableOp)}
        for o in ops:
            if isinstance(o, VariableReadOp):
                _static(o, o.output.type)
                new = GlobalLoadOp(_checked_name(o, declared), o.output.type)
                Rewriter.replace_op(o, [new], [new.result])
            elif isinstance(o, VariableWriteOp):
                _static(o, o.input1.type)
                Rewriter.replace_op(o, [GlobalStoreOp(_checked_name(o, declared), o.input1)], [])
        for v in declared.values():
            lower_variable(v)
