"""Spec 2.16 Control Flow: COND_IF, WHILE_LOOP and their `tosa.yield` terminator; and
func.func/call/return.

Regions run with `interpreter.run_ssacfg_region` (a new scope, so values defined outside
the region stay visible, as MLIR's implicit capture allows)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.interpreter import (
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp, WhileLoopOp, YieldOp
from tosa_xdsl.interpreter.errors import loop_limit_exceeded


def _shapes(values) -> list[tuple[int, ...]]:
    return [np.shape(v) for v in values]


@register_impls
class ControlFlowFunctions(InterpreterFunctions):
    @impl(CondIfOp)
    def run_cond_if(self, interpreter, op: CondIfOp, args):
        cond, *inputs = args
        nx.error_if(np.size(cond) != 1, "tensor_size(shape) != 1")
        taken = bool(np.asarray(cond).reshape(-1)[0])
        region = op.then_graph if taken else op.else_graph
        outputs = interpreter.run_ssacfg_region(region, tuple(inputs), "then" if taken else "else")
        nx.error_if(len(outputs) != len(op.output_list),
                    "tensor_list_shape(output_list) != tosa_output_shape(then_graph/else_graph)")
        return tuple(outputs)

    @impl(WhileLoopOp)
    def run_while_loop(self, interpreter, op: WhileLoopOp, args):
        values = tuple(args)
        in_shapes = _shapes(values)
        limit = interpreter.max_loop_iterations
        iterations = 0
        while True:
            (cond,) = interpreter.run_ssacfg_region(op.cond_graph, values, "cond")
            nx.error_if(np.size(cond) != 1, "tensor_size(tosa_output_shape(cond_graph)) != 1")
            if not bool(np.asarray(cond).reshape(-1)[0]):
                break
            iterations += 1
            if iterations > limit:
                raise loop_limit_exceeded(op, limit)
            values = tuple(interpreter.run_ssacfg_region(op.body_graph, values, "body"))
            nx.error_if(_shapes(values) != in_shapes,
                        "tensor_list_shape(input_list) != tosa_output_shape(body_graph)")
        return values

    @impl_terminator(YieldOp)
    def run_yield(self, interpreter, op, args):
        return ReturnedValues(args), ()

    # func.func / func.call / func.return (as xdsl.interpreters.func, whose package import
    # would load every xDSL interpreter: ~2 s of start-up)

    @impl_callable(func.FuncOp)
    def call_func(self, interpreter, op: func.FuncOp, args):
        if not op.body.blocks or not op.body.blocks.first.ops:
            # a declaration: a C library function the lowering calls (convert-math-to-libm)
            from tosa_xdsl.interpreter.lowered.libm import FUNCTIONS

            fn = FUNCTIONS.get(op.sym_name.data)
            if fn is None:
                raise NotImplementedError(f"@{op.sym_name.data} has no body")
            return (fn(*args),)
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)

    @impl(func.CallOp)
    def run_call(self, interpreter, op: func.CallOp, args):
        return interpreter.call_op(op.callee, args)

    @impl_terminator(func.ReturnOp)
    def run_return(self, interpreter, op, args):
        return ReturnedValues(args), ()
