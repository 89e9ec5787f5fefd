"""Data layout: reshape, squeeze, expand_dims, transpose, concatenation, pad, padv2, slice.

Shapes, permutations, paddings and slice bounds must be constants (TOSA takes them as
compile-time shape values): a data-dependent one is a located error. Quantized
concatenation rescales each input whose scale/zero point differs from the output's.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.frontends.legalize_common import positive_axis
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes


@legalizes("tfl.reshape", "tfl.squeeze", "tfl.expand_dims")
def reshape(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    shape = lg.shape(lg.op.results[0])
    lg.shape(x)
    y = lg.reshape(x, shape)
    if y is x:  # TOSA still needs a value distinct from the tfl result: an identity reshape
        y = lg.emit(dl.ReshapeOp.create(operands=[x, lg.shape_value(shape)], result_types=[x.type])).results[0]
    return y


@legalizes("tfl.transpose")
def transpose(lg: Legalizer) -> SSAValue:
    perms = lg.constant(lg.operand(1), "permutation").reshape(-1)
    return lg.transpose(lg.operand(0), [int(p) for p in perms])


@legalizes("tfl.concatenation")
def concatenation(lg: Legalizer) -> SSAValue:
    out = lg.out_type()
    rank = len(lg.shape(lg.op.results[0]))
    axis = positive_axis(lg.option("axis"), rank)
    qo = lg.q(out)
    inputs = []
    for v in lg.operands:
        qi = lg.q(v)
        if qo is not None and qi is not None and (qi.scales[0], qi.zero_points[0]) != (qo.scales[0], qo.zero_points[0]):
            v = lg.rescale(v, qo.storage_type, float(qi.scales[0] / qo.scales[0]), int(qi.zero_points[0]),
                           int(qo.zero_points[0]))
        inputs.append(v)
    y = lg.emit(dl.ConcatOp.create(operands=inputs, result_types=[lg.out_storage()],
                            properties={"axis": IntegerAttr(axis, i32)})).results[0]
    act = lg.option("fused_activation_function", "NONE")
    if qo is None:
        return lg.lower_fused_activation(y, act)
    return lg.lower_fused_activation(y, act, qo.qmin, qo.qmax, float(qo.scales[0]), int(qo.zero_points[0]))


@legalizes("tfl.pad", "tfl.padv2")
def pad(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    pads = lg.constant(lg.operand(1), "paddings").astype(np.int64).reshape(-1)
    if np.any(pads < 0):
        lg.fail("negative paddings are not supported")
    elem = lg.out_storage().element_type
    q = lg.q(x)
    if lg.op.name == "tfl.padv2" and lg.has_operand(2):
        value = lg.constant(lg.operand(2), "constant_values").reshape(-1)[:1]
    else:
        value = np.array([int(q.zero_points[0]) if q is not None else 0])
    pad_const = lg.const(value.reshape(1), elem)
    return lg.emit(dl.PadOp.create(operands=[x, lg.shape_value([int(p) for p in pads]), pad_const],
                            result_types=[lg.out_storage()])).results[0]


@legalizes("tfl.slice")
def slice_(lg: Legalizer) -> SSAValue:
    x = lg.operand(0)
    shape = lg.shape(x)
    begin = [int(b) for b in lg.constant(lg.operand(1), "begin").reshape(-1)]
    size = [int(s) for s in lg.constant(lg.operand(2), "size").reshape(-1)]
    size = [shape[i] - begin[i] if s == -1 else s for i, s in enumerate(size)]
    return lg.emit(dl.SliceOp.create(operands=[x, lg.shape_value(begin), lg.shape_value(size)],
                              result_types=[lg.out_storage()])).results[0]
