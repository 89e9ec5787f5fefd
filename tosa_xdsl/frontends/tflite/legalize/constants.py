"""tfl.pseudo_const / tfl.pseudo_qconst -> tosa.const (tfl.no_value, an omitted operand, is
read by its consumer and erased by the walk once unused)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType
from xdsl.ir import SSAValue

from tosa_xdsl.frontends.tflite.legalize.core import Legalizer, legalizes
from tosa_xdsl.ir.dense import to_numpy


@legalizes("tfl.pseudo_const", "tfl.pseudo_qconst", "arith.constant")
def pseudo_const(lg: Legalizer) -> SSAValue:
    value = lg.op.properties.get("value", lg.op.attributes.get("value"))
    if not isinstance(value, DenseIntOrFPElementsAttr):
        lg.fail("expects a dense 'value'")
    array = to_numpy(value)
    out = lg.out_storage()
    if lg.q(lg.out_type()) is not None and out.element_type == IntegerType(64):
        # int16x8 biases: TFLite stores them as quantized i64, TOSA's accumulator is i48
        return lg.const(np.asarray(array).reshape(out.get_shape()), IntegerType(48))
    return lg.const(np.asarray(array).reshape(out.get_shape()), out.element_type)
