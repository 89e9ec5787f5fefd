"""`tosa-convert-integer-type-to-signless`: ui/si integer tensor types become signless (upstream's
pass and semantics; TOSA is signless, signedness lives in ops such as RESCALE's
input_unsigned/output_unsigned).

Every op's operand/result types, the block arguments of its regions and the function
signatures change; a tosa.const keeps its bits (ui8 255 becomes i8 -1, as upstream rebuilds
the attribute from the raw data); a dense_resource keeps its blob (only the type changes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FunctionType,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter


def signless(t: Attribute) -> Attribute:
    """`t` with a signed/unsigned integer element type made signless (other types unchanged)."""
    if not isinstance(t, (TensorType, UnrankedTensorType)):
        return t
    e = t.element_type
    if not isinstance(e, IntegerType) or e.signedness.data == Signedness.SIGNLESS:
        return t
    new = IntegerType(e.width.data)
    return TensorType(new, t.get_shape(), t.encoding) if isinstance(t, TensorType) else UnrankedTensorType(new)


def _signless_values(attr: Attribute) -> Attribute:
    if isinstance(attr, DenseIntOrFPElementsAttr) and signless(attr.get_type()) != attr.get_type():
        from tosa_xdsl.ir.dense import from_numpy, to_numpy

        values = to_numpy(attr)  # xDSL storage keeps the bits: reinterpret as signed
        return from_numpy(values.view(values.dtype.str.replace("u", "i")), signless(attr.get_type()))
    if isinstance(attr, DenseResourceAttr) and signless(attr.get_type()) != attr.get_type():
        return DenseResourceAttr.from_params(attr.resource_handle, signless(attr.get_type()))  # same bytes
    return attr


@dataclass(frozen=True)
class TosaConvertIntegerTypeToSignlessPass(ModulePass):
    name: ClassVar[str] = "tosa-convert-integer-type-to-signless"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            for value in (*inner.results, *(a for r in inner.regions for b in r.blocks for a in b.args)):
                if signless(value.type) != value.type:
                    Rewriter.replace_value_with_new_type(value, signless(value.type))
            if inner.name == "tosa.const":
                inner.properties["values"] = _signless_values(inner.properties["values"])
            if isinstance(inner, func.FuncOp):
                t = inner.function_type
                inner.properties["function_type"] = FunctionType.from_lists(
                    [signless(x) for x in t.inputs.data], [signless(x) for x in t.outputs.data])
