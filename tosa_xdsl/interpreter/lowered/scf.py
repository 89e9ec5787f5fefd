"""scf on numpy values: for (index or integer bounds; the induction variable is a numpy
value of the bound type), if, while, yield, condition, index_switch is left to nobody.

A condition that is an array of several elements (scf.if inside a vectorised linalg body)
raises VectorizeFail, so the enclosing linalg.generic re-runs point by point."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import scf
from xdsl.interpreter import (
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)

from tosa_xdsl.interpreter.errors import loop_limit_exceeded
from tosa_xdsl.interpreter.lowered.common import VectorizeFail
from tosa_xdsl.interpreter.values import dtype_of


def _truth(c) -> bool:
    a = np.asarray(c)
    if a.size != 1:
        raise VectorizeFail("scf condition on an array")
    return bool(a.reshape(()))


@register_impls
class LoweredScfFunctions(InterpreterFunctions):
    @impl(scf.ForOp)
    def run_for(self, interpreter, op, args):
        lb, ub, step, *loop_args = args
        dtype = dtype_of(op.lb.type)
        values = tuple(loop_args)
        for i in range(int(np.asarray(lb)), int(np.asarray(ub)), int(np.asarray(step))):
            values = interpreter.run_ssacfg_region(op.body, (np.asarray(i, dtype=dtype), *values), "scf.for")
        return values

    @impl(scf.IfOp)
    def run_if(self, interpreter, op, args):
        region = op.true_region if _truth(args[0]) else op.false_region
        if not region.blocks:
            return ()
        return interpreter.run_ssacfg_region(region, (), "scf.if")

    @impl(scf.WhileOp)
    def run_while(self, interpreter, op, args):
        values = tuple(args)
        limit = getattr(interpreter, "max_loop_iterations", None)
        iterations = 0
        while True:
            cond, *forwarded = interpreter.run_ssacfg_region(op.before_region, values, "scf.while.before")
            if not _truth(cond):
                return tuple(forwarded)
            iterations += 1
            if limit is not None and iterations > limit:  # a lowered WHILE_LOOP: the same bound
                raise loop_limit_exceeded(op, limit)
            values = interpreter.run_ssacfg_region(op.after_region, tuple(forwarded), "scf.while.after")

    @impl_terminator(scf.YieldOp)
    def run_yield(self, interpreter, op, args):
        return ReturnedValues(args), ()

    @impl_terminator(scf.ConditionOp)
    def run_condition(self, interpreter, op, args):
        return ReturnedValues(args), ()
