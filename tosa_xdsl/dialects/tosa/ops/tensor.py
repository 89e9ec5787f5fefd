"""Spec 2.3 Tensor Operators: ARGMAX, AVG_POOL2D, CONV2D, CONV3D, DEPTHWISE_CONV2D, FFT2D,
MATMUL, MAX_POOL2D, RFFT2D, TRANSPOSE_CONV2D."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import TosaOp, chapter_ops, tosa_op_definition
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.ir.enums import NanMode, NanModeAttr
from tosa_xdsl.ir.types import AnyTensor

# nan_mode defaults to PROPAGATE and is then not printed (MLIR's DefaultValuedAttr).
NAN_MODE = syntax.enum_("nan_mode", NanModeAttr, default=NanModeAttr(NanMode.PROPAGATE))
LOCAL_BOUND = syntax.boolean("local_bound", optional=True, attr_dict_default=False)


@tosa_op_definition
class ArgMaxOp(TosaOp):
    name = "tosa.argmax"
    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), CanonicalizationPatterns("ArgMaxSize1"))
    CLAUSES = (syntax.int32("axis"), NAN_MODE)


@tosa_op_definition
class AvgPool2DOp(TosaOp):
    name = "tosa.avg_pool2d"
    input = operand_def(AnyTensor)
    input_zp = operand_def(AnyTensor)
    output_zp = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    CLAUSES = (syntax.array("kernel"), syntax.array("stride"), syntax.array("pad"), syntax.type_("acc_type"))
    SAME_ELEMENT_TYPE = (("input", "input_zp", "output_zp", "output"),)


class _ConvOp(TosaOp, ABC):
    """CONV2D, CONV3D, DEPTHWISE_CONV2D and TRANSPOSE_CONV2D share their operands."""

    input = operand_def(AnyTensor)
    weight = operand_def(AnyTensor)
    bias = operand_def(AnyTensor)
    input_zp = operand_def(AnyTensor)
    weight_zp = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE: ClassVar = (("input", "input_zp"), ("weight", "weight_zp"), ("bias", "output"))


_CONV_CLAUSES = (
    syntax.array("pad"), syntax.array("stride"), syntax.array("dilation"),
    syntax.type_("acc_type"), LOCAL_BOUND,
)


@tosa_op_definition
class Conv2DOp(_ConvOp):
    name = "tosa.conv2d"
    traits = traits_def(Pure(), CanonicalizationPatterns("FoldPadIntoConv"))
    CLAUSES = _CONV_CLAUSES


@tosa_op_definition
class Conv3DOp(_ConvOp):
    name = "tosa.conv3d"
    CLAUSES = _CONV_CLAUSES


@tosa_op_definition
class DepthwiseConv2DOp(_ConvOp):
    name = "tosa.depthwise_conv2d"
    traits = traits_def(Pure(), CanonicalizationPatterns("FoldPadIntoConv"))
    CLAUSES = _CONV_CLAUSES


@tosa_op_definition
class FFT2DOp(TosaOp):
    name = "tosa.fft2d"
    input_real = operand_def(AnyTensor)
    input_imag = operand_def(AnyTensor)
    output_real = result_def(AnyTensor)
    output_imag = result_def(AnyTensor)
    traits = traits_def(Pure())
    CLAUSES = (syntax.boolean("inverse"), LOCAL_BOUND)
    SAME_ELEMENT_TYPE = (("input_real", "input_imag", "output_real", "output_imag"),)


@tosa_op_definition
class MatMulOp(TosaOp):
    name = "tosa.matmul"
    a = operand_def(AnyTensor)
    b = operand_def(AnyTensor)
    a_zp = operand_def(AnyTensor)
    b_zp = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE = (("a", "a_zp"), ("b", "b_zp"))


@tosa_op_definition
class MaxPool2DOp(TosaOp):
    name = "tosa.max_pool2d"
    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), CanonicalizationPatterns("MaxPool1x1", "FoldPadIntoMaxPool"))
    CLAUSES = (syntax.array("kernel"), syntax.array("stride"), syntax.array("pad"), NAN_MODE)
    SAME_ELEMENT_TYPE = (("input", "output"),)


@tosa_op_definition
class RFFT2DOp(TosaOp):
    name = "tosa.rfft2d"
    input_real = operand_def(AnyTensor)
    output_real = result_def(AnyTensor)
    output_imag = result_def(AnyTensor)
    traits = traits_def(Pure())
    CLAUSES = (LOCAL_BOUND,)
    SAME_ELEMENT_TYPE = (("input_real", "output_real", "output_imag"),)


@tosa_op_definition
class TransposeConv2DOp(_ConvOp):
    name = "tosa.transpose_conv2d"
    CLAUSES = (syntax.array("out_pad"), syntax.array("stride"), syntax.type_("acc_type"), LOCAL_BOUND)


OPS = chapter_ops(globals())
