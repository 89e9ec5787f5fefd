"""Building TOSA from Python with the op classes and xDSL builders, then printing it in
each spelling; and loading our `tosa` into a user's own Context in place of xDSL's."""

from __future__ import annotations

import subprocess

import pytest
from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    ModuleOp,
    TensorType,
    f32,
    i64,
)
from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.rewriter import InsertPoint

from tosa_xdsl.dialects.tosa.ops.activation import ClampOp
from tosa_xdsl.dialects.tosa.ops.data_layout import ReshapeOp
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.dialects.tosa.ops.elementwise_binary import AddOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.dialects.tosa.ops.tensor import Conv2DOp
from tosa_xdsl.ir.enums import NanMode, NanModeAttr
from tosa_xdsl.ir.types import ShapeType
from tosa_xdsl.printing import print_ir


def t(*shape: int, element=f32) -> TensorType:
    return TensorType(element, list(shape))


def const(values: list[float], shape: list[int]) -> ConstOp:
    return ConstOp(DenseIntOrFPElementsAttr.from_list(TensorType(f32, shape), values))


def const_shape(values: list[int]) -> ConstShapeOp:
    data = DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(values)]), values)
    return ConstShapeOp.create(properties={"values": data}, result_types=[ShapeType(len(values))])


def array(*values: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def build_graph() -> ModuleOp:
    """input 1x4x4x2 -> conv2d (1x1, 3 filters) + bias -> add -> clamp [0, 6] -> reshape 16x3."""
    block = Block(arg_types=[t(1, 4, 4, 2)])
    builder = Builder(InsertPoint.at_end(block))
    (x,) = block.args
    weight = builder.insert(const([0.5] * 6, [3, 1, 1, 2]))
    bias = builder.insert(const([0.0, 1.0, -1.0], [3]))
    zp = builder.insert(const([0.0], [1]))
    conv = builder.insert(
        Conv2DOp(
            operands=[x, weight.output, bias.output, zp.output, zp.output],
            result_types=[t(1, 4, 4, 3)],
            properties={
                "acc_type": f32,
                "dilation": array(1, 1),
                "pad": array(0, 0, 0, 0),
                "stride": array(1, 1),
            },
        )
    )
    one = builder.insert(const([1.0], [1, 1, 1, 1]))
    added = builder.insert(AddOp(conv.output, one.output))
    clamped = builder.insert(
        ClampOp(
            operands=[added.output],
            result_types=[t(1, 4, 4, 3)],
            properties={
                "max_val": FloatAttr(6.0, f32),
                "min_val": FloatAttr(0.0, f32),
                "nan_mode": NanModeAttr(NanMode.PROPAGATE),
            },
        )
    )
    shape = builder.insert(const_shape([16, 3]))
    reshaped = builder.insert(ReshapeOp(operands=[clamped.output, shape.output], result_types=[t(16, 3)]))
    builder.insert(func.ReturnOp(reshaped.output))
    fn = func.FuncOp("main", ([t(1, 4, 4, 2)], [t(16, 3)]), Region(block))
    return ModuleOp([fn])


def test_built_graph_verifies():
    module = build_graph()
    module.verify()
    assert [op.name for op in module.walk() if op.name.startswith("tosa.")] == [
        "tosa.const", "tosa.const", "tosa.const", "tosa.conv2d", "tosa.const", "tosa.add",
        "tosa.clamp", "tosa.const_shape", "tosa.reshape",
    ]
    # the elementwise builders infer the broadcast result type
    arg = build_graph().body.block.first_op.body.block.args[0]
    assert AddOp(arg, ConstOp(DenseIntOrFPElementsAttr.from_list(t(1, 1, 1, 2), [1.0, 2.0]))).output.type == t(1, 4, 4, 2)


def test_built_graph_keyword_form(ctx):
    text = print_ir(build_graph(), style="keyword")
    assert (
        "pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) :" in text)
    assert "min_val(0.000000e+00 : f32) max_val(6.000000e+00 : f32) :" in text  # nan_mode default elided
    assert "tosa.const_shape values(dense<[16, 3]> : tensor<2xindex>) : () -> !tosa.shape<2>" in text
    reparsed = Parser(ctx, text).parse_module()
    reparsed.verify()
    assert print_ir(reparsed, style="keyword") == text


def test_built_graph_attr_dict_and_generic_forms(ctx):
    attr_dict = print_ir(build_graph(), style="attr-dict")
    assert "{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}" in attr_dict
    assert '"tosa.const"() <{values = ' in attr_dict  # older MLIR has no custom tosa.const
    generic = print_ir(build_graph(), style="generic")
    assert '"tosa.clamp"(' in generic and "nan_mode = #tosa.nan_mode<PROPAGATE>" in generic
    for text in (attr_dict, generic):
        module = Parser(ctx, text).parse_module()
        module.verify()
        assert print_ir(module, style="keyword") == print_ir(build_graph(), style="keyword")


def test_translator_accepts_built_graph(translator):
    for style in ("attr-dict", "generic"):
        result = subprocess.run([str(translator), "-"], input=print_ir(build_graph(), style=style),
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert "tosa.conv2d" in result.stdout


def test_iree_opt_accepts_built_graph(iree_opt):
    result = subprocess.run([str(iree_opt), "-"], input=print_ir(build_graph(), style="keyword"),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_load_tosa_into_own_context():
    """A user's Context that already has xDSL's own (partial) `tosa` gets ours instead."""
    context = pytest.importorskip("tosa_xdsl.context")
    load_tosa = getattr(context, "load_tosa", None)
    if load_tosa is None:
        pytest.skip("tosa_xdsl.context.load_tosa not available yet")
    from xdsl.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    ctx.load_registered_dialect("tosa")  # xDSL's tosa, loaded before ours
    text = """
    func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      %0 = tosa.const_shape values(dense<4> : tensor<1xindex>) : () -> !tosa.shape<1>
      %1 = tosa.reshape %arg0, %0 : (tensor<4xf32>, !tosa.shape<1>) -> tensor<4xf32>
      return %1 : tensor<4xf32>
    }"""
    with pytest.raises(Exception):  # xDSL's tosa has no const_shape / !tosa.shape
        Parser(ctx, text).parse_module()
    assert load_tosa(ctx) is ctx
    module = Parser(ctx, text).parse_module()
    module.verify()
    assert isinstance(next(op for op in module.walk() if op.name == "tosa.reshape"), ReshapeOp)
    assert ctx.get_optional_op("tosa.conv2d") is Conv2DOp
