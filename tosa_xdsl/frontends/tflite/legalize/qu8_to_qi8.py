"""The guide's convert_tflite_qu8_to_qi8 (run first by tosa-legalize-tfl).

Every uint8-quantized value inside a function becomes int8 with the same scale and the
zero point (and storage range) moved down by 128, which denotes the same real numbers;
uint8 constants are shifted by -128. At the function boundary the uint8 types stay: an
argument gets a `tfl.quantize` to its int8 twin and a result a `tfl.quantize` back, which
the legalization turns into RESCALEs with input_unsigned / output_unsigned. So a uint8
model takes and gives uint8 tensors (as i8 bit patterns: TOSA has no u8 tensors), and
every operator in between sees int8 only.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation

from tosa_xdsl.dialects.quant import (
    UniformQuantizedPerAxisType,
    UniformQuantizedType,
    quant_of,
)
from tosa_xdsl.frontends.tflite import dialect as tfl
from tosa_xdsl.ir.dense import from_numpy, to_numpy


def _signed_twin(t: Attribute) -> Attribute | None:
    q = quant_of(t)
    if q is None or q.is_signed or q.width.data != 8 or not isinstance(t, TensorType):
        return None
    if isinstance(q, UniformQuantizedType):
        nq: Attribute = UniformQuantizedType(8, True, q.expressed_type, q.scale.data, q.zero_point.data - 128,
                                             q.qmin - 128, q.qmax - 128)
    else:
        assert isinstance(q, UniformQuantizedPerAxisType)
        nq = UniformQuantizedPerAxisType(8, True, q.expressed_type, list(q.scales), list(q.zero_points - 128),
                                         q.axis.data, q.qmin - 128, q.qmax - 128)
    return TensorType(nq, t.get_shape())


def _quantize(value, result_type: Attribute) -> Operation:
    return tfl.OPS["tfl.quantize"].create(operands=[value], result_types=[result_type])


def convert_tflite_qu8_to_qi8(module: ModuleOp) -> None:
    for fn in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        if not fn.body.blocks:
            continue
        entry: Block = fn.body.blocks[0]
        # interior values first (so the boundary quantize ops added below keep their types)
        for op in list(fn.walk()):
            if op is fn:
                continue
            for r in op.results:
                twin = _signed_twin(r.type)
                if twin is not None:
                    r._type = twin  # pyright: ignore[reportPrivateUsage]
            if op.name == "tfl.pseudo_qconst" and _signed_twin(op.properties["qtype"]) is not None:
                value = op.properties["value"]
                assert isinstance(value, DenseIntOrFPElementsAttr)
                # the bytes are uint8 whatever the dense type says: & 0xFF reads them so
                arr = (to_numpy(value).astype(np.int16) & 0xFF) - 128
                op.properties["value"] = from_numpy(arr.astype(np.int8), TensorType(IntegerType(8), value.get_shape()))
                op.properties["qtype"] = _signed_twin(op.properties["qtype"])  # type: ignore[assignment]
            for region in op.regions:
                for block in region.blocks:
                    for a in block.args:
                        twin = _signed_twin(a.type)
                        if twin is not None:
                            a._type = twin  # pyright: ignore[reportPrivateUsage]
        for arg in entry.args:
            twin = _signed_twin(arg.type)
            if twin is None:
                continue
            q = _quantize(arg, twin)
            entry.insert_op_before(q, entry.first_op) if entry.first_op else entry.add_op(q)
            arg.replace_uses_with_if(q.results[0], lambda use, q=q: use.operation is not q)
        outs = list(fn.function_type.outputs.data)
        for ret in [o for o in fn.body.blocks[-1].ops if isinstance(o, func.ReturnOp)]:
            for i, (v, want) in enumerate(zip(ret.operands, outs)):
                if _signed_twin(want) is not None and v.type != want:
                    q = _quantize(v, want)
                    ret.parent_block().insert_op_before(q, ret)  # type: ignore[union-attr]
                    ret.operands = [*ret.operands[:i], q.results[0], *ret.operands[i + 1:]]
