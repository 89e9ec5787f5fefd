"""TOSA types: `!tosa.shape<N>` and the tensor constraints operators are declared with.

TOSA operands are tensors; upstream MLIR accepts ranked and unranked tensors (`tensor<*xf32>`)
before shape inference, so the operand constraint admits both. In xDSL an unranked tensor is
not a `TensorType`, hence the union.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, TensorType, UnrankedTensorType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import base, irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class ShapeType(ParametrizedAttribute, TypeAttribute):
    """`!tosa.shape<N>`: a shape value of N index elements (spec 1.11.1, shape_t)."""

    name = "tosa.shape"

    rank: IntAttr = param_def(converter=IntAttr.get)

    def __init__(self, rank: int | IntAttr):
        super().__init__(rank if isinstance(rank, IntAttr) else IntAttr(rank))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_int(self.rank.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr]:
        with parser.in_angle_brackets():
            return (IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False)),)

    def verify(self) -> None:
        if self.rank.data < 0:
            raise VerifyException(f"!tosa.shape rank must be >= 0, got {self.rank.data}")


# Any ranked or unranked tensor; element types are checked against the spec's tables.
AnyTensor = base(TensorType) | base(UnrankedTensorType)
TensorOrShape = AnyTensor | base(ShapeType)


def is_tensor(t: Attribute) -> bool:
    return isinstance(t, (TensorType, UnrankedTensorType))



