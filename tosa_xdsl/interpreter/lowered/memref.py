"""memref dialect on numpy: a memref value is a numpy array that *is* the buffer — writes
through it are seen by every alias (subviews and reshapes are numpy views of the same
memory), which is what lets the bufferized and loop stages run in place as compiled code
would. Scalars follow common.py (0-d numpy values of `dtype_of` the element type).

A freed buffer is poisoned (filled with a recognisable pattern where the dtype allows) and
remembered, so a use after `memref.dealloc` is caught by the loads that follow rather than
silently reading stale data.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import TensorType, UnitAttr
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl.interpreter.lowered.arith import constant_value
from tosa_xdsl.interpreter.lowered.common import (
    lookup_global,
    mixed,
    result_shape,
    scalar_int,
    slice_of,
)
from tosa_xdsl.interpreter.values import dtype_of


def _index(indices) -> tuple:
    return tuple(scalar_int(i) for i in indices)


@register_impls
class LoweredMemrefFunctions(InterpreterFunctions):
    def __init__(self) -> None:
        super().__init__()
        self.live_allocations = 0  # allocs minus deallocs: a leak check for tests

    def _alloc(self, op, args):
        t = op.results[0].type
        self.live_allocations += 1
        return (np.zeros(result_shape(op, 0, list(args)), dtype_of(t.get_element_type())),)

    @impl(memref.AllocOp)
    def run_alloc(self, interpreter, op, args):
        return self._alloc(op, args)

    @impl(memref.AllocaOp)
    def run_alloca(self, interpreter, op, args):
        out = self._alloc(op, args)
        self.live_allocations -= 1  # freed with the frame, never by dealloc
        return out

    @impl(memref.DeallocOp)
    def run_dealloc(self, interpreter, op, args):
        (buf,) = args
        self.live_allocations -= 1
        if buf.dtype.kind in "iuf":
            buf.fill(-1 if buf.dtype.kind != "u" else np.iinfo(buf.dtype).max)
        return ()

    @impl(memref.LoadOp)
    def run_load(self, interpreter, op, args):
        buf, *indices = args
        if any(np.ndim(i) for i in indices):
            # inside a vectorised linalg body (a gather from another buffer): index arrays
            return (buf[tuple(np.asarray(i, dtype=np.int64) for i in indices)],)
        return (buf[_index(indices)][()],)

    @impl(memref.StoreOp)
    def run_store(self, interpreter, op, args):
        value, buf, *indices = args
        buf[_index(indices)] = value
        return ()

    @impl(memref.CopyOp)
    def run_copy(self, interpreter, op, args):
        src, dst = args
        np.copyto(dst, src, casting="no")
        return ()

    @impl(memref.DimOp)
    def run_dim(self, interpreter, op, args):
        buf, index = args
        return (np.int64(buf.shape[scalar_int(index)]),)

    # ------------------------------------------------------------------ views and globals
    # (the bufferized stage: lowering/bufferize/). A view is a numpy view of the same
    # buffer, so writes through it land in the viewed buffer, as in compiled code.

    @impl(memref.SubviewOp)
    def run_subview(self, interpreter, op, args):
        return (slice_of(args[0], op, list(args[1:]), list(op.result.type.get_shape()), "memref.subview"),)

    def _reshaped(self, buf, shape):
        view = buf.view()
        view.shape = tuple(int(d) for d in shape)  # raises rather than copy: must stay a view
        return view

    @impl(memref.CollapseShapeOp)
    def run_collapse_shape(self, interpreter, op, args):
        # each result dim is the product of its group of the actual source dims (several
        # may be dynamic)
        src = args[0]
        groups = [[int(x.value.data) for x in g.data] for g in op.reassociation.data]
        return (self._reshaped(src, [int(np.prod([src.shape[i] for i in g], dtype=np.int64)) for g in groups]),)

    @impl(memref.ExpandShapeOp)
    def run_expand_shape(self, interpreter, op, args):
        src, *dyn = args
        return (self._reshaped(src, mixed(op.static_output_shape, list(dyn))),)

    @impl(memref.CastOp)
    def run_cast(self, interpreter, op, args):
        return (args[0],)

    @impl(memref.GetGlobalOp)
    def run_get_global(self, interpreter, op, args):
        name = op.name_.root_reference.data
        table = interpreter.get_data(LoweredMemrefFunctions, "globals", dict)
        if name not in table:
            decl = lookup_global(op, name, memref.GlobalOp)
            t = decl.type
            init = decl.initial_value
            if isinstance(init, UnitAttr):  # uninitialized
                value = np.zeros(tuple(t.get_shape()), dtype_of(t.get_element_type()))
            else:
                value = np.array(constant_value(init, TensorType(t.get_element_type(), t.get_shape())))
            if decl.constant is not None:
                value.setflags(write=False)  # a constant global is never written
            table[name] = value
        return (table[name],)
