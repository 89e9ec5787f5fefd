"""Spec 2.10 Data Layout: CONCAT, PAD, RESHAPE, REVERSE, SLICE, TILE, TRANSPOSE.

Shapes (PAD's padding, RESHAPE's shape, SLICE's start/size, TILE's multiples) are
`!tosa.shape<N>` operands, produced by `tosa.const_shape` (spec 2.18).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import i32
from xdsl.irdl import operand_def, result_def, traits_def, var_operand_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops.base import (
    TosaOp,
    chapter_ops,
    same_rank,
    tosa_op_definition,
)
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.ir.access import element_type
from tosa_xdsl.ir.types import AnyTensor, ShapeType


class _LayoutOp(TosaOp):
    """`input1` -> `output` of the same element type."""

    input1 = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE: ClassVar = (("input1", "output"),)


@tosa_op_definition
class ConcatOp(TosaOp):
    name = "tosa.concat"
    input1 = var_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure(), CanonicalizationPatterns("ConcatSingle"))
    CLAUSES = (syntax.int32("axis"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        expected = element_type(self.output.type)
        for i, operand in enumerate(self.input1):
            if element_type(operand.type) != expected:
                raise VerifyException(
                    f"'{self.name}' op input1[{i}] element type {element_type(operand.type)} "
                    f"must equal output element type {expected}"
                )


@tosa_op_definition
class PadOp(_LayoutOp):
    name = "tosa.pad"
    traits = traits_def(Pure(), CanonicalizationPatterns("PadZero"))
    input1 = operand_def(AnyTensor)
    padding = operand_def(ShapeType)
    pad_const = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    SAME_ELEMENT_TYPE = (("input1", "pad_const", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


@tosa_op_definition
class ReshapeOp(_LayoutOp):
    name = "tosa.reshape"
    traits = traits_def(Pure(), CanonicalizationPatterns(
        "ReshapeIdentity", "ReshapeReshape", "ReshapeSplatConst"))
    input1 = operand_def(AnyTensor)
    shape = operand_def(ShapeType)
    output = result_def(AnyTensor)


@tosa_op_definition
class ReverseOp(_LayoutOp):
    name = "tosa.reverse"
    traits = traits_def(Pure(), CanonicalizationPatterns("ReverseSize1"))
    CLAUSES = (syntax.int32("axis"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


@tosa_op_definition
class SliceOp(_LayoutOp):
    name = "tosa.slice"
    traits = traits_def(Pure(), CanonicalizationPatterns("SliceFull"))
    input1 = operand_def(AnyTensor)
    start = operand_def(ShapeType)
    size = operand_def(ShapeType)
    output = result_def(AnyTensor)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


@tosa_op_definition
class TileOp(_LayoutOp):
    name = "tosa.tile"
    traits = traits_def(Pure(), CanonicalizationPatterns("TileOnes"))
    input1 = operand_def(AnyTensor)
    multiples = operand_def(ShapeType)
    output = result_def(AnyTensor)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


@tosa_op_definition
class TransposeOp(_LayoutOp):
    name = "tosa.transpose"
    traits = traits_def(Pure(), CanonicalizationPatterns(
        "TransposeIdentity", "TransposeTranspose", "TransposeSplatConst"))
    CLAUSES = (syntax.array("perms", element=i32),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


OPS = chapter_ops(globals())
