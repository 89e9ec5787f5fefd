"""affine on numpy values: the affine.for / load / store / apply / min / yield (xDSL 0.74 has no affine.max op) that
`convert-linalg-to-affine-loops` emits (and the bounds of any affine.for: several results,
max-of lower and min-of upper bounds as MLIR defines them; dims and symbols).

Index values are int64 numpy values (common.py); map results are evaluated with floor
semantics for floordiv/mod and ceiling for ceildiv, as affine expressions are defined
(Python's // and % on ints are exactly that). Loads and stores address the memref's
numpy array (memref.py): a store writes through every alias.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import affine
from xdsl.interpreter import (
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir.affine import AffineMap

from tosa_xdsl.interpreter.lowered.common import scalar_int


def _apply(m: AffineMap, operands) -> tuple[int, ...]:
    """The map's results on operands = dims then symbols (as MLIR passes them)."""
    values = [scalar_int(v) for v in operands]
    return m.eval(values[: m.num_dims], values[m.num_dims:])


def _index(i: int) -> np.ndarray:
    return np.asarray(i, dtype=np.int64)


@register_impls
class LoweredAffineFunctions(InterpreterFunctions):
    @impl(affine.ForOp)
    def run_for(self, interpreter, op, args):
        n_lb, n_ub = len(op.lowerBoundOperands), len(op.upperBoundOperands)
        lbs = _apply(op.lowerBoundMap.data, args[:n_lb])
        ubs = _apply(op.upperBoundMap.data, args[n_lb:n_lb + n_ub])
        values = tuple(args[n_lb + n_ub:])
        # affine.for: from the max of the lower bounds to the min of the upper bounds
        for i in range(max(lbs), min(ubs), op.step.value.data):
            values = interpreter.run_ssacfg_region(op.body, (_index(i), *values), "affine.for")
        return values

    @impl_terminator(affine.YieldOp)
    def run_yield(self, interpreter, op, args):
        return ReturnedValues(args), ()

    @impl(affine.LoadOp)
    def run_load(self, interpreter, op, args):
        buf, *indices = args
        return (buf[_apply(op.map.data, indices)][()],)

    @impl(affine.StoreOp)
    def run_store(self, interpreter, op, args):
        value, buf, *indices = args
        buf[_apply(op.map.data, indices)] = value
        return ()

    @impl(affine.ApplyOp)
    def run_apply(self, interpreter, op, args):
        (r,) = _apply(op.map.data, args)
        return (_index(r),)

    @impl(affine.MinOp)
    def run_min(self, interpreter, op, args):
        return (_index(min(_apply(op.map.data, args))),)
