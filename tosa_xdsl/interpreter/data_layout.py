"""Spec 2.10 Data Layout: CONCAT, PAD, RESHAPE, REVERSE, SLICE, TILE, TRANSPOSE (with their
ERROR_IF checks on the actual shapes)."""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl import numerics as nx
from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.interpreter.common import prop, shape_arg
from tosa_xdsl.interpreter.errors import check_tensor_size


def _declared(op) -> tuple[int, ...] | None:
    t = op.results[0].type
    return tuple(t.get_shape()) if isinstance(t, TensorType) else None


def _check_out(op, shape, text: str) -> None:
    """The computed result shape against the declared one (`text`: the spec's ERROR_IF), and
    within the interpreter's tensor limit before anything is allocated (a `?` result of a PAD
    or TILE may be asked to be 2^63 long)."""
    check_tensor_size(shape, f"the result of '{op.name}'")
    declared = _declared(op)
    if declared is not None:
        nx.error_if(len(declared) != len(shape) or any(d >= 0 and d != s for d, s in zip(declared, shape)),
                    text)


@register_impls
class DataLayoutFunctions(InterpreterFunctions):
    @impl(dl.ConcatOp)
    def run_concat(self, interpreter, op, args):
        nx.error_if(len(args) == 0, "input1 == []")
        axis = prop(op, "axis")
        rank = args[0].ndim
        nx.error_if(axis < 0 or axis >= max(1, rank), "axis < 0 || axis >= max(1, rank(shapes1[0]))")
        for a in args:
            nx.error_if(a.ndim != rank, "rank(shapes1[shape_index]) != rank(shapes1[0])")
            nx.error_if(any(a.shape[i] != args[0].shape[i] for i in range(rank) if i != axis),
                        "shapes1[shape_index][axis_index] != shapes1[0][axis_index]")
        out_shape = shapes.concat_shape([a.shape for a in args], axis)
        _check_out(op, out_shape, "axis_sum != shape[axis]")
        return (np.concatenate(args, axis=axis),)

    @impl(dl.PadOp)
    def run_pad(self, interpreter, op, args):
        x, padding, pad_const = args
        padding = shape_arg(padding)
        nx.error_if(len(padding) != 2 * x.ndim, "length(padding) != 2 * rank(shape1)")
        nx.error_if(any(p < 0 for p in padding), "padding[i * 2] < 0 || padding[(i * 2) + 1] < 0")
        pc = np.asarray(pad_const).reshape(-1)
        nx.error_if(pc.size != 1, "shape(pad_const) != [1]")
        out_shape = shapes.pad_shape(x.shape, padding)
        _check_out(op, out_shape, "shape[i] != padding[i * 2] + shape1[i] + padding[(i * 2) + 1]")
        out = np.full(out_shape, pc[0], dtype=x.dtype)
        out[tuple(slice(padding[2 * i], padding[2 * i] + d) for i, d in enumerate(x.shape))] = x
        return (out,)

    @impl(dl.ReshapeOp)
    def run_reshape(self, interpreter, op, args):
        x, shape = args
        shape = list(shapes.reshape_shape(x.shape, shape_arg(shape)))  # one -1: inferred
        nx.error_if(any(d < 0 for d in shape), "shape[i] < 0")
        nx.error_if(math.prod(shape) != x.size, "tensor_size(shape1) != tensor_size(shape)")
        _check_out(op, shape, "shape != the result shape")
        return (x.reshape(shape),)

    @impl(dl.ReverseOp)
    def run_reverse(self, interpreter, op, args):
        (x,) = args
        axis = prop(op, "axis")
        nx.error_if(axis < 0 or axis >= x.ndim, "axis < 0 || axis >= rank(shape)")
        return (np.flip(x, axis=axis),)

    @impl(dl.SliceOp)
    def run_slice(self, interpreter, op, args):
        x, start, size = args
        start, size = shape_arg(start), shape_arg(size)
        nx.error_if(x.ndim != len(start) or x.ndim != len(size),
                    "rank(shape1) != length(start) || rank(shape1) != length(size)")
        for i in range(x.ndim):
            nx.error_if(start[i] < 0, "start[index] < 0")
            nx.error_if(size[i] <= 0, "size[index] <= 0")
            nx.error_if(start[i] + size[i] > x.shape[i], "start[index] + size[index] > shape1[index]")
        _check_out(op, shapes.slice_shape(x.shape, start, size), "shape[index] != size[index]")
        return (x[tuple(slice(s, s + n) for s, n in zip(start, size))],)

    @impl(dl.TileOp)
    def run_tile(self, interpreter, op, args):
        x, multiples = args
        multiples = shape_arg(multiples)
        nx.error_if(len(multiples) != x.ndim, "rank(shape1) != length(multiples)")
        nx.error_if(any(m < 0 for m in multiples), "multiples[i] < 0")
        out_shape = shapes.tile_shape(x.shape, multiples)
        _check_out(op, out_shape, "shape1[i] * multiples[i] != shape[i]")
        return (np.tile(x, multiples) if x.ndim else x.copy(),)

    @impl(dl.TransposeOp)
    def run_transpose(self, interpreter, op, args):
        (x,) = args
        perms = prop(op, "perms")
        nx.error_if(len(perms) != x.ndim, "length(perms) != rank(shape1)")
        nx.error_if(any(p < 0 or p >= x.ndim for p in perms), "index < 0 || index >= rank(shape1)")
        nx.error_if(len(set(perms)) != len(perms), "indexes_used[index] == true")
        out_shape = shapes.transpose_shape(x.shape, perms)
        _check_out(op, out_shape, "shape1[perms[i]] != shape[i]")
        return (np.transpose(x, perms),)
