"""ml_program ops that upstream's tosa-to-mlprogram emits but xDSL 0.74 does not define:
`ml_program.global_load` and `ml_program.global_store`, with upstream's names and syntax.
`ml_program_dialect()` returns xDSL's ml_program extended with them; `make_context` registers
it in place of xDSL's."""

from __future__ import annotations

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.dialects.ml_program import MLProgram
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)

from tosa_xdsl.dialects.extend import extend_dialect


@irdl_op_definition
class GlobalLoadOp(IRDLOperation):
    """ml_program.global_load @sym : type"""

    name = "ml_program.global_load"
    global_ = prop_def(SymbolRefAttr, prop_name="global")
    result = result_def()
    assembly_format = "$global attr-dict `:` type($result)"

    def __init__(self, sym: SymbolRefAttr, result_type: Attribute):
        super().__init__(properties={"global": sym}, result_types=[result_type])


@irdl_op_definition
class GlobalStoreOp(IRDLOperation):
    """ml_program.global_store @sym = %value : type"""

    name = "ml_program.global_store"
    global_ = prop_def(SymbolRefAttr, prop_name="global")
    value = operand_def()
    assembly_format = "$global `=` $value attr-dict `:` type($value)"

    def __init__(self, sym: SymbolRefAttr, value: SSAValue):
        super().__init__(properties={"global": sym}, operands=[value])


ML_PROGRAM_OPS = (GlobalLoadOp, GlobalStoreOp)


def ml_program_dialect() -> Dialect:
    """xDSL's ml_program plus ML_PROGRAM_OPS."""
    return extend_dialect(MLProgram, ML_PROGRAM_OPS)
