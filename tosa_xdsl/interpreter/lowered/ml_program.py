"""ml_program globals (the lowering of tosa.variable*): ml_program.global declares a global
and its initial value, global_load reads it, global_store writes it. The values live on the
interpreter, so a `Session` keeps them across calls, like TOSA variables."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import ml_program
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl.dialects.ml_program_ext import GlobalLoadOp, GlobalStoreOp
from tosa_xdsl.interpreter.lowered.arith import constant_value
from tosa_xdsl.interpreter.lowered.common import lookup_global


def _globals(interpreter) -> dict[str, np.ndarray]:
    return interpreter.get_data(LoweredMLProgramFunctions, "globals", dict)


def _initial(interpreter, op, name: str):
    table = _globals(interpreter)
    if name not in table:
        decl = lookup_global(op, name, ml_program.GlobalOp)
        if decl.value is None:
            raise ValueError(f"ml_program.global @{name} has no initial value")
        v = np.array(constant_value(decl.value, decl.type))
        table[name] = v
    return table[name]


@register_impls
class LoweredMLProgramFunctions(InterpreterFunctions):
    @impl(GlobalLoadOp)
    def run_global_load(self, interpreter, op, args):
        return (np.array(_initial(interpreter, op, op.global_.root_reference.data)),)

    @impl(ml_program.GlobalLoadConstantOp)
    def run_global_load_const(self, interpreter, op, args):
        return (np.array(_initial(interpreter, op, op.global_attr.root_reference.data)),)

    @impl(GlobalStoreOp)
    def run_global_store(self, interpreter, op, args):
        name = op.global_.root_reference.data
        _initial(interpreter, op, name)
        _globals(interpreter)[name] = np.array(args[0])
        return ()
