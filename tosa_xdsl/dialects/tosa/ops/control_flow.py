"""Spec 2.16 Control Flow Operators: COND_IF, WHILE_LOOP, and their region terminator
`tosa.yield` (MLIR's spelling of a graph's outputs).

Syntax, the same in both upstream spellings:

    %r = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<f32>) -> tensor<f32> {
    ^bb0(%a: tensor<f32>):  tosa.yield %a : tensor<f32>
    } else { ... }
    %r = tosa.cond_if %c : tensor<i1> -> tensor<f32> { ... } else { ... }
    %w = tosa.while_loop (%i = %x) : (tensor<i32>) -> tensor<i32> {
      ... tosa.yield %cond : tensor<i1>          // cond_graph: the names above are its arguments
    } do {
    ^bb0(%i: tensor<i32>): ... tosa.yield %next : tensor<i32>
    }
"""

from __future__ import annotations

from xdsl.ir import Attribute, Block, Region
from xdsl.irdl import (
    lazy_traits_def,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from tosa_xdsl.dialects.tosa.ops.base import TosaOp, chapter_ops, tosa_op_definition
from tosa_xdsl.dialects.tosa.syntax import parse_functional_type
from tosa_xdsl.ir.types import AnyTensor


def _parse_assignment_list(parser: Parser):
    """`(%arg = %operand, ...)` -> (block arguments, unresolved operands)."""
    args: list[Parser.Argument] = []
    operands: list[Parser.UnresolvedOperand] = []

    def parse_one() -> None:
        args.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        operands.append(parser.parse_unresolved_operand())

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_one)
    return args, operands


def _print_assignment_list(printer: Printer, block_args, operands) -> None:
    printer.print_string(" (")
    for i, (arg, operand) in enumerate(zip(block_args, operands)):
        if i:
            printer.print_string(", ")
        printer.print_operand(arg)
        printer.print_string(" = ")
        printer.print_operand(operand)
    printer.print_string(")")


def _print_result_types(printer: Printer, types) -> None:
    if len(types) == 1:
        printer.print_attribute(types[0])
    else:
        printer.print_string("(")
        printer.print_list(types, printer.print_attribute)
        printer.print_string(")")


def _yield_of(region: Region) -> YieldOp | None:
    if not region.blocks:
        return None
    last = region.blocks[-1].last_op
    return last if isinstance(last, YieldOp) else None


def _check_block_args(op: TosaOp, region_name: str, region: Region, types) -> None:
    if not region.blocks:
        raise VerifyException(f"'{op.name}' op {region_name} must not be empty")
    arg_types = list(region.blocks[0].arg_types)
    if arg_types != list(types):
        raise VerifyException(
            f"'{op.name}' op {region_name} arguments ({', '.join(map(str, arg_types))}) must match "
            f"the input_list types ({', '.join(map(str, types))})"
        )


def _check_yield(op: TosaOp, region_name: str, region: Region, types) -> None:
    terminator = _yield_of(region)
    if terminator is None:
        raise VerifyException(f"'{op.name}' op {region_name} must end with tosa.yield")
    yielded = list(terminator.inputs.types)
    if yielded != list(types):
        raise VerifyException(
            f"'{op.name}' op {region_name} yields ({', '.join(map(str, yielded))}) but "
            f"({', '.join(map(str, types))}) is expected"
        )


@tosa_op_definition
class CondIfOp(TosaOp):
    name = "tosa.cond_if"
    condition = operand_def(AnyTensor)
    input_list = var_operand_def(AnyTensor)
    output_list = var_result_def(AnyTensor)
    then_graph = region_def()
    else_graph = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> CondIfOp:
        pos = parser.pos
        cond = parser.parse_unresolved_operand()
        operands: list[Parser.UnresolvedOperand] = []
        if parser._current_token.kind == MLIRTokenKind.L_PAREN:  # pyright: ignore[reportPrivateUsage]
            _, operands = _parse_assignment_list(parser)
        parser.parse_punctuation(":")
        cond_type = parser.parse_type()
        input_types: list[Attribute] = []
        if parser._current_token.kind == MLIRTokenKind.L_PAREN:  # pyright: ignore[reportPrivateUsage]
            input_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        if parser._current_token.kind == MLIRTokenKind.L_PAREN:  # pyright: ignore[reportPrivateUsage]
            result_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        else:
            result_types = [parser.parse_type()]
        if len(input_types) != len(operands):
            parser.raise_error(
                f"'tosa.cond_if' has {len(operands)} inputs but {len(input_types)} input types"
            )
        resolved = parser.resolve_operands([cond, *operands], [cond_type, *input_types], pos)
        then_graph = parser.parse_region()
        parser.parse_keyword("else")
        else_graph = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=resolved,
            result_types=result_types,
            regions=[then_graph, else_graph],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.condition)
        if self.input_list and self.then_graph.blocks:
            _print_assignment_list(printer, self.then_graph.blocks[0].args, self.input_list)
        printer.print_string(" : ")
        printer.print_attribute(self.condition.type)
        if self.input_list:
            printer.print_string(" (")
            printer.print_list(self.input_list.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" -> ")
        _print_result_types(printer, self.output_list.types)
        printer.print_string(" ")
        printer.print_region(self.then_graph, print_entry_block_args=True)
        printer.print_string(" else ")
        printer.print_region(self.else_graph, print_entry_block_args=True)
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_structure(self) -> None:
        inputs = list(self.input_list.types)
        outputs = list(self.output_list.types)
        for name, region in (("then_graph", self.then_graph), ("else_graph", self.else_graph)):
            _check_block_args(self, name, region, inputs)
            _check_yield(self, name, region, outputs)


@tosa_op_definition
class WhileLoopOp(TosaOp):
    name = "tosa.while_loop"
    input_list = var_operand_def(AnyTensor)
    output_list = var_result_def(AnyTensor)
    cond_graph = region_def()
    body_graph = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> WhileLoopOp:
        pos = parser.pos
        args, operands = _parse_assignment_list(parser)
        parser.parse_punctuation(":")
        input_types, result_types = parse_functional_type(parser)
        if len(input_types) != len(operands):
            parser.raise_error(
                f"'tosa.while_loop' has {len(operands)} inputs but {len(input_types)} input types"
            )
        resolved = parser.resolve_operands(operands, input_types, pos)
        typed_args = [arg.resolve(t) for arg, t in zip(args, input_types)]
        cond_graph = parser.parse_region(typed_args)
        parser.parse_keyword("do")
        body_graph = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=resolved,
            result_types=result_types,
            regions=[cond_graph, body_graph],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        block: Block | None = self.cond_graph.blocks[0] if self.cond_graph.blocks else None
        _print_assignment_list(printer, block.args if block else (), self.input_list)
        printer.print_string(" : ")
        printer.print_function_type(self.input_list.types, self.output_list.types)
        printer.print_string(" ")
        printer.print_region(self.cond_graph, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.body_graph, print_entry_block_args=True)
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_structure(self) -> None:
        inputs = list(self.input_list.types)
        if list(self.output_list.types) != inputs:
            raise VerifyException(
                f"'{self.name}' op output_list types must equal input_list types"
            )
        _check_block_args(self, "cond_graph", self.cond_graph, inputs)
        _check_block_args(self, "body_graph", self.body_graph, inputs)
        _check_yield(self, "body_graph", self.body_graph, inputs)
        terminator = _yield_of(self.cond_graph)
        if terminator is None or len(terminator.inputs) != 1:
            raise VerifyException(
                f"'{self.name}' op cond_graph must yield exactly one boolean tensor"
            )


@tosa_op_definition
class YieldOp(TosaOp):
    """Terminator of COND_IF / WHILE_LOOP regions: the graph's outputs."""

    name = "tosa.yield"
    # MLIR's region terminator: the spec has no YIELD operator (its graphs end in outputs).
    IN_SPEC = False
    inputs = var_operand_def(AnyTensor)
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(CondIfOp, WhileLoopOp)))

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        pos = parser.pos
        operands = []
        if parser._current_token.kind == MLIRTokenKind.PERCENT_IDENT:  # pyright: ignore[reportPrivateUsage]
            operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        types = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.create(operands=parser.resolve_operands(operands, types, pos), attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string(" ")
            printer.print_list(self.inputs, printer.print_operand)
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        if self.inputs:
            printer.print_string(" : ")
            printer.print_list(self.inputs.types, printer.print_attribute)


OPS = chapter_ops(globals())
TERMINATORS = (YieldOp,)
