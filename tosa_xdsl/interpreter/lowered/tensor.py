"""tensor dialect: whole-tensor numpy implementations.

`tensor.extract` also accepts index *arrays* (inside a vectorised linalg.generic body, e.g.
the gather/table/reverse lowerings) and then gathers. `tensor.pad` evaluates its region once,
vectorised over the padded index space (a constant yield costs nothing extra).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import MemRefType, TensorType, UnrealizedConversionCastOp
from xdsl.interpreter import (
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)

from tosa_xdsl.interpreter.lowered.common import arr, mixed, result_shape, slice_of
from tosa_xdsl.interpreter.values import dtype_of


def _idx(indices) -> tuple:
    return tuple(np.asarray(i).astype(np.int64) if np.ndim(i) else int(np.asarray(i)) for i in indices)


@register_impls
class LoweredTensorFunctions(InterpreterFunctions):
    @impl(tensor.EmptyOp)
    def run_empty(self, interpreter, op, args):
        t = op.results[0].type
        # contents are unspecified in MLIR; zeros here
        return (np.zeros(result_shape(op, 0, list(args)), dtype_of(t)),)

    @impl(tensor.DimOp)
    def run_dim(self, interpreter, op, args):
        src, index = args
        return (np.asarray(src.shape[int(np.asarray(index))], dtype=np.int64),)

    @impl(tensor.CastOp)
    def run_cast(self, interpreter, op, args):
        return (args[0],)

    @impl(tensor.ExtractOp)
    def run_extract(self, interpreter, op, args):
        src, *indices = args
        return (np.asarray(src[_idx(indices)]),)

    @impl(tensor.InsertOp)
    def run_insert(self, interpreter, op, args):
        scalar, dest, *indices = args
        out = np.array(dest)
        out[_idx(indices)] = scalar
        return (out,)

    @impl(tensor.FromElementsOp)
    def run_from_elements(self, interpreter, op, args):
        t = op.results[0].type
        return (np.array([np.asarray(a) for a in args], dtype=dtype_of(t)).reshape(tuple(t.get_shape())),)

    @impl(tensor.SplatOp)
    def run_splat(self, interpreter, op, args):
        value, *dyn = args
        t = op.results[0].type
        return (np.full(result_shape(op, 0, dyn), np.asarray(value), dtype=dtype_of(t)),)

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(self, interpreter, op, args):
        part = slice_of(args[0], op, list(args[1:]), list(op.results[0].type.get_shape()), "tensor.extract_slice")
        return (np.array(part),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(self, interpreter, op, args):
        src, dest = args[0], args[1]
        out = np.array(dest)
        target = slice_of(out, op, list(args[2:]), None, "tensor.insert_slice")
        target[...] = np.asarray(src).reshape(target.shape)
        return (out,)

    @impl(tensor.PadOp)
    def run_pad(self, interpreter, op, args):
        src = args[0]
        nl = len(op.low)
        low = mixed(op.static_low, list(args[1:1 + nl]))
        high = mixed(op.static_high, list(args[1 + nl:]))
        t = op.results[0].type
        shape = tuple(s + lo + hi for s, lo, hi in zip(src.shape, low, high))
        block = op.region.block
        # a yield of a value defined outside, or of constants: evaluate once with index 0s;
        # otherwise vectorised over the whole index space
        if any(arg.uses for arg in block.args):
            idx = tuple(np.asarray(i, dtype=np.int64) for i in np.indices(shape)) if shape else ()
        else:
            idx = tuple(np.asarray(0, dtype=np.int64) for _ in shape)
        (value,) = interpreter.run_ssacfg_region(op.region, idx, "tensor.pad")
        out = np.empty(shape, dtype_of(t))
        out[...] = np.broadcast_to(arr(value, t.element_type), shape)
        inner = tuple(slice(lo, lo + s) for lo, s in zip(low, src.shape))
        # negative padding crops
        if any(lo < 0 or hi < 0 for lo, hi in zip(low, high)):
            src_sl = tuple(slice(max(-lo, 0), s - max(-hi, 0)) for lo, hi, s in zip(low, high, src.shape))
            inner = tuple(slice(max(lo, 0), max(lo, 0) + (sl.stop - sl.start)) for lo, sl in zip(low, src_sl))
            out[inner] = src[src_sl]
        else:
            out[inner] = src
        return (out,)

    @impl_terminator(tensor.YieldOp)
    def run_yield(self, interpreter, op, args):
        return ReturnedValues(args), ()

    @impl(tensor.CollapseShapeOp)
    def run_collapse_shape(self, interpreter, op, args):
        src = args[0]
        groups = [[int(x.value.data) for x in g.data] for g in op.reassociation.data]
        shape = tuple(int(np.prod([src.shape[i] for i in g], dtype=np.int64)) for g in groups)
        return (src.reshape(shape).copy(),)

    @impl(tensor.ExpandShapeOp)
    def run_expand_shape(self, interpreter, op, args):
        src, *dyn = args
        shape = mixed(op.static_output_shape, list(dyn))
        return (src.reshape(shape).copy(),)

    @impl(tensor.ReshapeOp)
    def run_reshape(self, interpreter, op, args):
        src, shape = args
        return (src.reshape(tuple(int(v) for v in np.asarray(shape).reshape(-1))).copy(),)

    @impl(UnrealizedConversionCastOp)
    def run_unrealized_cast(self, interpreter, op, args):
        """upstream's signless <-> unsigned tensor/memref casts (tosa-to-linalg on ui8 ADD,
        ...): the same bits, seen with the other integer type (a view, as a buffer alias)."""
        out = []
        for v, r in zip(args, op.results):
            t = r.type
            if isinstance(t, TensorType | MemRefType) and isinstance(v, np.ndarray):
                v = v.view(dtype_of(t.get_element_type()))
            out.append(v)
        return tuple(out)

    @impl(tensor.ConcatOp)
    def run_concat(self, interpreter, op, args):
        return (np.concatenate([np.asarray(a) for a in args], axis=op.dim.value.data),)
