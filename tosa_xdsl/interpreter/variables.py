"""Spec 2.17 Variable Operators: VARIABLE, VARIABLE_WRITE, VARIABLE_READ.

Variable state lives in the interpreter (`interpreter.get_data(VariableFunctions, ...)`),
so it lasts for one `Session` (one `tosa-run` process, one `run()` call) and is kept across
several calls of the entry function within that session. `tosa.variable` declarations sit
at module level and are not executed: a variable is allocated the first time a read or
write names it, with its initial value when it has one (then it counts as written)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops.variable import (
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
)
from tosa_xdsl.interpreter.data_nodes import elements_to_numpy
from tosa_xdsl.interpreter.values import dtype_of


@dataclass
class VariableTensor:
    shape: tuple[int, ...]
    dtype: np.dtype
    data: np.ndarray | None  # None until written


@register_impls
class VariableFunctions(InterpreterFunctions):
    @staticmethod
    def _tensor(interpreter, op) -> VariableTensor:
        table: dict[str, VariableTensor] = interpreter.get_data(VariableFunctions, "variables", dict)
        name = op.properties["name"].data
        var = table.get(name)
        if var is None:
            decl = op.variable()
            nx.require(decl is not None, f"variable_tensor_lookup({name}) != NULL")
            t = decl.tensor_type
            data = None
            if decl.initial_value is not None:
                data = elements_to_numpy(decl, decl.initial_value)
            var = VariableTensor(tuple(t.get_shape()), dtype_of(t), data)
            table[name] = var
        return var

    @impl(VariableOp)
    def run_variable(self, interpreter, op, args):
        return ()

    @impl(VariableWriteOp)
    def run_variable_write(self, interpreter, op, args):
        (value,) = args
        var = self._tensor(interpreter, op)
        nx.require(var.shape == value.shape, "variable_tensor.shape == shape")
        nx.require(var.dtype == value.dtype, "is_same<variable_tensor.type,in_t>()")
        var.data = value
        return ()

    @impl(VariableReadOp)
    def run_variable_read(self, interpreter, op, args):
        var = self._tensor(interpreter, op)
        nx.require(var.data is not None, "variable_tensor.is_written")
        out_t = op.output.type
        nx.require(tuple(out_t.get_shape()) == var.shape, "variable_tensor.shape == shape")
        nx.require(dtype_of(out_t) == var.dtype, "is_same<variable_tensor.type,out_t>()")
        if var.data is None:  # only reachable with --allow-unpredictable
            return (np.zeros([max(d, 0) for d in out_t.get_shape()], dtype_of(out_t)),)
        return (var.data,)
