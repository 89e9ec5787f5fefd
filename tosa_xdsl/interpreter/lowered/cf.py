"""cf on numpy values: cf.br, cf.cond_br (with block arguments), cf.switch and cf.assert,
as `convert-scf-to-cf` emits them.

xDSL's Interpreter runs a region block after block: a terminator returns `Successor(block,
args)` and the interpreter pushes a fresh scope for that block, *on top of* the scope of the
block that branched. A loop in branches would grow the scope chain by one per iteration,
and every lookup of a value defined before the loop walks that chain (quadratic time). So a
branch taken from a block whose scope sits directly on the scope of a block that has itself
branched folds its values into that scope first: the region then runs in two scopes (entry
block, everything after), whatever the trip count. SSA values are defined once per block
visit and dominance guarantees each use sees the latest definition, so overwriting older
values in the shared scope is what the program means.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf
from xdsl.interpreter import (
    InterpreterFunctions,
    Successor,
    impl,
    impl_terminator,
    register_impls,
)

from tosa_xdsl.interpreter.lowered.common import scalar_int, sval, width


class CfAssertError(Exception):
    """A cf.assert that failed at run time (its message)."""


def _truth(c) -> bool:
    return bool(np.asarray(c).reshape(()))


@register_impls
class LoweredCfFunctions(InterpreterFunctions):
    def __init__(self) -> None:
        super().__init__()
        # ids of the scopes (of the current interpreter run) a branch was taken from; kept
        # with the scope objects themselves so an id is never reused while remembered
        self._branched: dict[int, object] = {}

    def _branch(self, interpreter, block, args):
        scope = interpreter._ctx  # pyright: ignore[reportPrivateUsage]
        parent = scope.parent
        if parent is not None and id(parent) in self._branched:
            parent._local_scope.update(scope._local_scope)  # pyright: ignore[reportPrivateUsage]
            interpreter._ctx = parent  # pyright: ignore[reportPrivateUsage]
        else:
            if len(self._branched) > 4096:  # regions long finished: forget them
                self._branched.clear()
            self._branched[id(scope)] = scope
        return Successor(block, tuple(args)), ()

    @impl_terminator(cf.BranchOp)
    def run_br(self, interpreter, op, args):
        return self._branch(interpreter, op.successor, args)

    @impl_terminator(cf.ConditionalBranchOp)
    def run_cond_br(self, interpreter, op, args):
        if _truth(args[0]):
            return self._branch(interpreter, op.then_block, interpreter.get_values(op.then_arguments))
        return self._branch(interpreter, op.else_block, interpreter.get_values(op.else_arguments))

    @impl_terminator(cf.SwitchOp)
    def run_switch(self, interpreter, op, args):
        flag = int(sval(args[0], width(op.flag.type)))
        cases = [] if op.case_values is None else [int(v) for v in op.case_values.get_values()]
        if flag in cases:
            k = cases.index(flag)
            return self._branch(interpreter, op.case_blocks[k],
                                interpreter.get_values(op.case_operand[k]))
        return self._branch(interpreter, op.default_block, interpreter.get_values(op.default_operands))

    @impl(cf.AssertOp)
    def run_assert(self, interpreter, op, args):
        if not _truth(args[0]):
            raise CfAssertError(op.msg.data)
        return ()


_ = scalar_int
