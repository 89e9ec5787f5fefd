"""Spec 2.14 Data Nodes (CONST, IDENTITY) and 2.18 CONST_SHAPE."""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntegerType,
)
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
            # a view of the attribute's bytes when the dtypes agree (no copy of the weights)
            flat = flat.astype(target, copy=False)
    else:  # bf16, fp8: the bytes are the bits of the format
        flat = np.frombuffer(raw, dtype=target)
    size = math.prod(shape)
    if flat.size == size:
        value = flat.reshape(shape)
    elif flat.size == 1:  # splat
        value = np.array(np.broadcast_to(flat.reshape(()), shape), dtype=target, copy=True)
    else:
        raise ValueError(f"dense attribute has {flat.size} values for shape {list(shape)}")
    value.flags.writeable = False
    return value


def elements_to_numpy(op, attr) -> np.ndarray:
    """A dense literal or a dense_resource (a read-only view on the blob, converted only when
    the interpreter's dtype differs) as a read-only array; a missing or ill-sized blob is a
    located error on `op`."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return dense_to_numpy(attr)
    if not isinstance(attr, DenseResourceAttr):
        raise NotImplementedOp(op, f"'{op.name}' with a {attr.name} value is not supported by the interpreter")
    from tosa_xdsl.ir.resources import ResourceError, dense_resource_array

    try:
        value = dense_resource_array(attr)
    except ResourceError as err:
        raise NotImplementedOp(op, f"'{op.name}' op {err}") from None
    target = dtype_of(attr.get_type())
    if value.dtype != target:
        value = value.astype(target)
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
        value = elements_to_numpy(op, op.values)
        self._consts[id(op)] = (op.values, value)
        return (value,)

    @impl(IdentityOp)
    def run_identity(self, interpreter, op, args):
        return (args[0],)

    @impl(ConstShapeOp)
    def run_const_shape(self, interpreter, op: ConstShapeOp, args):
        return (tuple(op.shape_values()),)
