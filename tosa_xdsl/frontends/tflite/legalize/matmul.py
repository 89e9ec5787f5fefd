"""tfl.batch_matmul (not in the guide; TensorFlow's current legalization has it): TOSA
MATMUL on [N, H, C] x [N, C, W] after folding the batch dims, transposing for adj_x /
adj_y; int8 accumulates in i32 (int16 in i48) and RESCALEs by s_a * s_b / s_out."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType, i32
from xdsl.ir import SSAValue

from tosa_xdsl.dialects.tosa.ops import tensor as tn
from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes

I48 = IntegerType(48)


def _to3d(lg: Legalizer, v: SSAValue, adj: bool, batch: list[int]) -> SSAValue:
    s = lg.shape(v)
    if list(s[:-2]) != batch:
        # broadcast the batch dims by tiling (TOSA MATMUL needs equal N)
        from tosa_xdsl.dialects.tosa.ops import data_layout as dl

        full = [1] * (len(batch) - len(s) + 2) + s
        v = lg.reshape(v, full)
        mult = [b // d if d == 1 else 1 for b, d in zip(batch, full[:-2])] + [1, 1]
        t = v.type
        v = lg.emit(dl.TileOp.create(operands=[v, lg.shape_value(mult)],
                                     result_types=[TensorType(t.element_type, batch + full[-2:])])).results[0]  # type: ignore[attr-defined]
        s = batch + full[-2:]
    n = int(np.prod(batch)) if batch else 1
    v = lg.reshape(v, [n, s[-2], s[-1]])
    return lg.transpose(v, [0, 2, 1]) if adj else v


@legalizes("tfl.batch_matmul")
def batch_matmul(lg: Legalizer) -> SSAValue:
    a, b = lg.operand(0), lg.operand(1)
    out_shape = lg.shape(lg.op.results[0])
    batch = out_shape[:-2]
    a3 = _to3d(lg, a, bool(lg.option("adj_x", False)), batch)
    b3 = _to3d(lg, b, bool(lg.option("adj_y", False)), batch)
    n, h, w = a3.type.get_shape()[0], a3.type.get_shape()[1], b3.type.get_shape()[2]  # type: ignore[attr-defined]
    qa, qb, qo = lg.q(a), lg.q(b), lg.q(lg.out_type())
    if qa is None:
        e = a.type.element_type  # type: ignore[attr-defined]
        mm = lg.emit(tn.MatMulOp.create(operands=[a3, b3, lg.zp(0.0, e), lg.zp(0.0, b.type.element_type)],  # type: ignore[attr-defined]
                                        result_types=[TensorType(e, [n, h, w])])).results[0]
        return lg.reshape(mm, out_shape)
    if qb is None or qo is None or len(qb.scales) != 1:
        lg.fail("hybrid or per-axis quantized batch_matmul is not supported")
    acc = I48 if qa.width.data == 16 else i32
    mm = lg.emit(tn.MatMulOp.create(
        operands=[a3, b3, lg.zp(int(qa.zero_points[0]), qa.storage_type), lg.zp(int(qb.zero_points[0]), qb.storage_type)],
        result_types=[TensorType(acc, [n, h, w])])).results[0]
    y = lg.rescale(mm, qo.storage_type, float(qa.scales[0] * qb.scales[0] / qo.scales[0]), 0,
                   int(qo.zero_points[0]), scale32=acc is not I48)
    return lg.reshape(y, out_shape)
