"""Spec 2.9 Reduction Operators along `axis` (the output keeps the axis, size 1).

Integers are exact: REDUCE_SUM i32 REQUIREs that every partial sum of the sequential
accumulation (apply_add_s in the spec's loop order) stays in int32 range. Floats: MAX/MIN are
exact; PRODUCT and SUM are accumulated in fp64 and rounded once to the output type, which is
within the spec's REDUCE_PRODUCT bound and the dot-product accuracy requirement (1.10.3)."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops import reduction as red
from tosa_xdsl.interpreter.common import prop, tname


def _axis(op, x: np.ndarray) -> int:
    axis = prop(op, "axis")
    nx.error_if(axis < 0 or axis >= x.ndim, "axis < 0 || axis >= rank(shape1)")
    shape = op.output.type.get_shape() if hasattr(op.output.type, "get_shape") else None
    if shape is not None and len(shape) == x.ndim:
        # A dynamic declared dim (negative in xDSL) takes the run-time size 1.
        nx.error_if(shape[axis] >= 0 and shape[axis] != 1, "shape[axis] != 1")
    return axis


def _minmax(op, x: np.ndarray, is_max: bool) -> np.ndarray:
    axis = _axis(op, x)
    t = tname(op.input)
    if t == "bool":  # i1 read signed (true = -1), as upstream's arith.maxsi / minsi
        return (np.all if is_max else np.any)(x, axis=axis, keepdims=True)
    if not t.startswith(("fp", "bf")):  # unsigned dtypes compare unsigned (upstream's rows)
        fn = np.max if is_max else np.min
        return fn(x, axis=axis, keepdims=True)
    v = x.astype(np.float64)  # exact
    if x.shape[axis] == 0:  # empty axis: the initial accumulator
        ignore = prop(op, "nan_mode", "PROPAGATE") == "IGNORE"
        init = np.nan if ignore else (-np.inf if is_max else np.inf)
        return np.full(shapes.reduce_shape(x.shape, axis), init).astype(x.dtype)
    if prop(op, "nan_mode", "PROPAGATE") == "IGNORE":
        r = (np.fmax if is_max else np.fmin).reduce(v, axis=axis, keepdims=True)
    else:
        r = (np.max if is_max else np.min)(v, axis=axis, keepdims=True)
    return r.astype(x.dtype)


def _wrapping(t: str) -> bool:
    """REDUCE_SUM / REDUCE_PRODUCT on an integer type without a spec row (upstream's rows,
    verification/producer_types.py): upstream's arith.addi / muli, modulo 2^width."""
    from tosa_xdsl.verification.producer_types import WRAPPING_TYPES

    return ("i1" if t == "bool" else t) in WRAPPING_TYPES


def _wrapped(fn, x: np.ndarray, axis: int, t: str) -> np.ndarray:
    """fn (np.add / np.multiply) reduced along axis modulo 2^64 (uint64 arithmetic wraps),
    then the low bits of the type."""
    acc = fn.reduce(np.asarray(x).astype(np.int64).astype(np.uint64), axis=axis, keepdims=True)
    return nx.truncate(acc.astype(np.int64), t)


@register_impls
class ReductionFunctions(InterpreterFunctions):
    # on integers (upstream's rows, which its lowering refuses) the spec's `acc && value` /
    # `acc || value` give 1 or 0 in the integer type
    @impl(red.ReduceAllOp)
    def run_reduce_all(self, interpreter, op, args):
        (x,) = args
        return (np.all(x, axis=_axis(op, x), keepdims=True).astype(x.dtype),)

    @impl(red.ReduceAnyOp)
    def run_reduce_any(self, interpreter, op, args):
        (x,) = args
        return (np.any(x, axis=_axis(op, x), keepdims=True).astype(x.dtype),)

    @impl(red.ReduceMaxOp)
    def run_reduce_max(self, interpreter, op, args):
        return (_minmax(op, args[0], True),)

    @impl(red.ReduceMinOp)
    def run_reduce_min(self, interpreter, op, args):
        return (_minmax(op, args[0], False),)

    @impl(red.ReduceProductOp)
    def run_reduce_product(self, interpreter, op, args):
        (x,) = args
        axis = _axis(op, x)
        t = tname(op.input)
        if t.startswith(("fp", "bf")):
            r = np.prod(x.astype(np.float64), axis=axis, keepdims=True)
            return (nx.round_to_nearest_float(r, t),)
        # integer product (not in the 1.0.1 type table): apply_mul_s wraps to the type
        if _wrapping(t):
            return (_wrapped(np.multiply, x, axis, t),)
        acc = np.ones([1 if i == axis else d for i, d in enumerate(x.shape)], np.int64)
        for i in range(x.shape[axis]):
            acc = nx.sign_extend(nx.apply_mul_s(acc, np.take(x, [i], axis=axis), t), t)
        return (nx.truncate(acc, t),)

    @impl(red.ReduceSumOp)
    def run_reduce_sum(self, interpreter, op, args):
        (x,) = args
        axis = _axis(op, x)
        t = tname(op.input)
        if t.startswith(("fp", "bf")):
            r = np.sum(x.astype(np.float64), axis=axis, keepdims=True)
            return (nx.round_to_nearest_float(r, t),)
        if _wrapping(t):
            return (_wrapped(np.add, x, axis, t),)
        partial = np.cumsum(nx.sign_extend(x, t), axis=axis)
        nx.require((partial >= nx.minimum_s(t)) & (partial <= nx.maximum_s(t)),
                   "apply_add_s<acc_t>(acc, value) in range of acc_t")
        shape = list(x.shape)
        shape[axis] = 1
        if x.shape[axis] == 0:
            return (np.zeros(shape, x.dtype),)
        return (nx.truncate(np.take(partial, [-1], axis=axis), t),)
