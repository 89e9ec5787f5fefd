"""convert_tflite_qu8_to_qi8: a uint8-quantized graph computes what its int8 twin does.

TensorFlow 2.21 no longer writes uint8-quantized graphs, so the uint8 model is made from an
int8 one by the exact affine shift q_u8 = q_i8 + 128 (zero points +128, constants +128):
the same real numbers. Oracle: LiteRT on the int8 model, shifted by 128."""

from __future__ import annotations

import numpy as np
import pytest
from tflite_oracle import MODELS, inputs_for, run_litert
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType

from tosa_xdsl.dialects.quant import (
    UniformQuantizedPerAxisType,
    UniformQuantizedType,
    quant_of,
)
from tosa_xdsl.frontends.tflite import read_tflite
from tosa_xdsl.frontends.tflite.legalize import legalize_tfl
from tosa_xdsl.interpreter import run
from tosa_xdsl.ir.dense import from_numpy, to_numpy


def _unsigned(t):
    q = quant_of(t)
    if q is None or not q.is_signed or q.width.data != 8:
        return None
    if isinstance(q, UniformQuantizedType):
        nq = UniformQuantizedType(8, False, q.expressed_type, q.scale.data, q.zero_point.data + 128,
                                  q.qmin + 128, q.qmax + 128)
    else:
        nq = UniformQuantizedPerAxisType(8, False, q.expressed_type, list(q.scales), list(q.zero_points + 128),
                                         q.axis.data, q.qmin + 128, q.qmax + 128)
    return TensorType(nq, t.get_shape())


def _to_uint8(module) -> None:
    for op in module.walk():
        for r in op.results:
            if (u := _unsigned(r.type)) is not None:
                r._type = u
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    if (u := _unsigned(a.type)) is not None:
                        a._type = u
        if op.name == "tfl.pseudo_qconst" and _unsigned(op.properties["qtype"]) is not None:
            v = op.properties["value"]
            assert isinstance(v, DenseIntOrFPElementsAttr)
            shifted = ((to_numpy(v).astype(np.int16) + 128) & 0xFF).astype(np.uint8).view(np.int8)
            op.properties["value"] = from_numpy(shifted, v.type)
            op.properties["qtype"] = _unsigned(op.properties["qtype"])
    from xdsl.dialects import func
    from xdsl.dialects.builtin import FunctionType

    for fn in [o for o in module.walk() if isinstance(o, func.FuncOp)]:
        ins = [a.type for a in fn.body.blocks[0].args]
        outs = [_unsigned(t) or t for t in fn.function_type.outputs.data]
        fn.function_type = FunctionType.from_lists(ins, outs)


@pytest.mark.parametrize("stem", ["add.int8", "conv_2d.int8", "net_mobilenet.int8", "softmax.int8", "concatenation.int8"])
def test_uint8_graph_matches_int8_twin(stem):
    path = MODELS / f"{stem}.tflite"
    module = read_tflite(path.read_bytes(), None, path.name)
    _to_uint8(module)
    assert "u8:f32" in str(module)
    legalize_tfl(module)
    xs = inputs_for(path)
    expected = run_litert(path, xs)
    xs_u8 = [((x.astype(np.int16) + 128).astype(np.uint8)).view(np.int8) for x in xs]
    got = run(module, xs_u8)
    for e, g in zip(expected, got, strict=True):
        np.testing.assert_array_equal(np.asarray(g).view(np.uint8).astype(np.int16) - 128, e.astype(np.int16))
