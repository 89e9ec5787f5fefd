"""Spec 2.17 Variable Operators: VARIABLE, VARIABLE_WRITE, VARIABLE_READ.

Variables are module-level symbols; reads and writes name them with `@name` in the custom
syntax and a string `name` property in the generic form, as upstream does:

    tosa.variable @v = dense<-1> : tensor<2x4xi32>     (with an initial value)
    tosa.variable @w : tensor<2x4xi32>                   (without)
    tosa.variable_write @v, %x : tensor<2x4xi32>
    %r = tosa.variable_read @v : tensor<2x4xi32>
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import operand_def, opt_prop_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl.dialects.tosa.ops.base import TosaOp, chapter_ops, tosa_op_definition
from tosa_xdsl.dialects.tosa.ops.data_nodes import ElementsAttrConstr
from tosa_xdsl.ir.types import AnyTensor


def _parse_symbol_name(parser: Parser) -> str:
    return parser.parse_symbol_name().data


@tosa_op_definition
class VariableOp(TosaOp):
    name = "tosa.variable"
    sym_name = prop_def(StringAttr)
    var_shape = prop_def(DenseIntOrFPElementsAttr)
    type = prop_def(Attribute)
    initial_value = opt_prop_def(ElementsAttrConstr)
    traits = traits_def(SymbolOpInterface())

    def __init__(self, sym_name: str, tensor_type: TensorType, initial_value: Attribute | None = None):
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(sym_name),
            "var_shape": DenseIntOrFPElementsAttr.from_list(
                TensorType(IndexType(), [tensor_type.get_num_dims()]), list(tensor_type.get_shape())
            ),
            "type": tensor_type.element_type,
        }
        if initial_value is not None:
            props["initial_value"] = initial_value
        # Sorted by name, as MLIR prints properties in the generic form.
        super().__init__(properties=dict(sorted(props.items())))

    @property
    def tensor_type(self) -> TensorType:
        shape = [int(d) for d in self.var_shape.get_values()]
        return TensorType(self.type, shape)

    @classmethod
    def parse(cls, parser: Parser) -> VariableOp:
        name = _parse_symbol_name(parser)
        if parser.parse_optional_punctuation("=") is not None:
            start = parser.pos
            initial = parser.parse_attribute()
            t = initial.get_type() if hasattr(initial, "get_type") else None
            if not isinstance(t, TensorType):
                # located at the value, not at the token after it
                parser.raise_error("tosa.variable initial value must be a tensor-typed dense attribute", start, parser.pos)
            op = cls(name, t, initial)
        else:
            parser.parse_punctuation(":")
            start = parser.pos
            t = parser.parse_type()
            if not isinstance(t, TensorType):
                parser.raise_error(f"tosa.variable expects a ranked tensor type, got {t}", start, parser.pos)
            op = cls(name, t)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.initial_value is not None:
            printer.print_string(" = ")
            printer.print_attribute(self.initial_value)
        else:
            printer.print_string(" : ")
            printer.print_attribute(self.tensor_type)
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_structure(self) -> None:
        t = self.var_shape.get_type()
        if not isinstance(t, TensorType) or not isinstance(t.element_type, IndexType) or t.get_num_dims() != 1:
            raise VerifyException(f"'{self.name}' op var_shape must be a rank-1 tensor of index, got {t}")
        if self.initial_value is not None and self.initial_value.get_type() != self.tensor_type:
            raise VerifyException(
                f"'{self.name}' op initial_value type {self.initial_value.get_type()} must equal the "
                f"variable type {self.tensor_type}"
            )


class _VariableAccessOp(TosaOp):
    """VARIABLE_READ/WRITE: `name` refers to a tosa.variable in an enclosing symbol table."""

    VERIFY_READS_CONTEXT: ClassVar[bool] = True  # the variable lookup (verify_cache.py)

    def variable(self) -> VariableOp | None:
        from xdsl.traits import SymbolTable

        op = self.parent_op()
        while op is not None:
            if op.has_trait(SymbolTable):
                found = SymbolTable.lookup_symbol(op, SymbolRefAttr(self.properties["name"].data))
                if isinstance(found, VariableOp):
                    return found
            op = op.parent_op()
        return None


@tosa_op_definition
class VariableWriteOp(_VariableAccessOp):
    name = "tosa.variable_write"
    name_ = prop_def(StringAttr, prop_name="name")
    input1 = operand_def(AnyTensor)

    @classmethod
    def parse(cls, parser: Parser) -> VariableWriteOp:
        pos = parser.pos
        name = _parse_symbol_name(parser)
        parser.parse_punctuation(",")
        operand = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        (value,) = parser.resolve_operands([operand], [t], pos)
        return cls.create(operands=[value], properties={"name": StringAttr(name)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.name_.data)
        printer.print_string(", ")
        printer.print_operand(self.input1)
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input1.type)


@tosa_op_definition
class VariableReadOp(_VariableAccessOp):
    name = "tosa.variable_read"
    name_ = prop_def(StringAttr, prop_name="name")
    output = result_def(AnyTensor)

    @classmethod
    def parse(cls, parser: Parser) -> VariableReadOp:
        name = _parse_symbol_name(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(result_types=[t], properties={"name": StringAttr(name)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.name_.data)
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)


OPS = chapter_ops(globals())
