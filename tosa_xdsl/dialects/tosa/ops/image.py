"""Spec 2.12 Image Operators: RESIZE."""

from __future__ import annotations

from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import Pure

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import TosaOp, chapter_ops, tosa_op_definition
from tosa_xdsl.ir.enums import ResizeModeAttr
from tosa_xdsl.ir.types import AnyTensor, ShapeType


@tosa_op_definition
class ResizeOp(TosaOp):
    """scale = [scale_y_n, scale_y_d, scale_x_n, scale_x_d], offset = [y, x], border = [y, x]."""

    name = "tosa.resize"
    input = operand_def(AnyTensor)
    scale = operand_def(ShapeType)
    offset = operand_def(ShapeType)
    border = operand_def(ShapeType)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    CLAUSES = (syntax.enum_("mode", ResizeModeAttr),)


OPS = chapter_ops(globals())
