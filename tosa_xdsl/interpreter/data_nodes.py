"""Spec 2.14 Data Nodes (CONST, IDENTITY) and 2.18 CONST_SHAPE."""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp, IdentityOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.interpreter.errors import NotImplementedOp
from tosa_xdsl.interpreter.values import dtype_of


def dense_to_numpy(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The value of a dense elements attribute as a (read-only) numpy array of the
    interpreter's dtype for its type."""
    t = attr.get_type()
    target = dtype_of(t)
    shape = tuple(t.get_shape())
    et = t.element_type
    raw = attr.data.data
    fmt = getattr(et, "format", None)
    if fmt is not None:
        flat = np.frombuffer(raw, dtype=np.dtype(fmt))
        if isinstance(et, IntegerType) and et.width.data == 1:
            flat = flat != 0
        else:
            flat = flat.astype(target)
    else:  # bf16, fp8: the bytes are the bits of the format
        flat = np.frombuffer(raw, dtype=target)
    size = math.prod(shape)
    if flat.size == size:
        value = flat.reshape(shape)
    elif flat.size == 1:  # splat
        value = np.broadcast_to(flat.reshape(()), shape)
    else:
        raise ValueError(f"dense attribute has {flat.size} values for shape {list(shape)}")
    value = np.array(value, dtype=target, copy=True)
    value.flags.writeable = False
    return value


@register_impls
class DataNodeFunctions(InterpreterFunctions):
    def __init__(self) -> None:
        # constants are converted once per op (and shared by later runs: read-only arrays)
        self._consts: dict[int, tuple[object, np.ndarray]] = {}

    @impl(ConstOp)
    def run_const(self, interpreter, op: ConstOp, args):
        cached = self._consts.get(id(op))
        if cached is not None and cached[0] is op.values:
            return (cached[1],)
        if not isinstance(op.values, DenseIntOrFPElementsAttr):
            raise NotImplementedOp(op, f"'{op.name}' with a {op.values.name} value is not supported "
                                   "by the interpreter (only dense<...> literals)")
        value = dense_to_numpy(op.values)
        self._consts[id(op)] = (op.values, value)
        return (value,)

    @impl(IdentityOp)
    def run_identity(self, interpreter, op, args):
        return (args[0],)

    @impl(ConstShapeOp)
    def run_const_shape(self, interpreter, op: ConstShapeOp, args):
        return (tuple(op.shape_values()),)
