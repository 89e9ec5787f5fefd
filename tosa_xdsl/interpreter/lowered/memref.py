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
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl.interpreter.lowered.common import result_shape, scalar_int
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
