"""The `one-shot-bufferize` pass: refuses leftover tosa/bufferization ops, converts every
function of the module (converter.py), then gives each its new signature and body and frees
its buffers (deallocation.py), and turns the ml_program globals and the dense constants into
memref globals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func, ml_program
from xdsl.dialects.builtin import FunctionType, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Block
from xdsl.passes import ModulePass

from tosa_xdsl.ir.walk import all_ops
from tosa_xdsl.lowering.bufferize.common import fail
from tosa_xdsl.lowering.bufferize.converter import Converter
from tosa_xdsl.lowering.bufferize.deallocation import insert_deallocs
from tosa_xdsl.lowering.bufferize.function_boundaries import (
    OUT_PARAMS_ATTR,
    convert_function,
)
from tosa_xdsl.lowering.bufferize.ml_program_globals import convert_global


@dataclass(frozen=True)
class OneShotBufferizePass(ModulePass):
    """Tensors -> memrefs with destination passing, out-params at function boundaries and
    deallocation (see the package docstring and docs/bufferization.md)."""

    name: ClassVar[str] = "one-shot-bufferize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in all_ops(op):
            if o.name.startswith("tosa.") or o.name.startswith("bufferization."):
                raise fail(o, "no bufferization rule for this op (lower it to linalg/tensor first)")
        c = Converter(op)
        done: list[tuple[func.FuncOp, Block | None, FunctionType, int]] = []
        for fn in [o for o in op.ops if isinstance(o, func.FuncOp)]:
            # tensor results become out-params, unless one is dynamic: then all are returned
            tensors = [t for t in fn.function_type.outputs.data if isinstance(t, TensorType)]
            n_out = 0 if any(int(d) < 0 for t in tensors for d in t.get_shape()) else len(tensors)
            new, ftype = convert_function(c, fn)
            done.append((fn, new, ftype, n_out))
        for fn, new, ftype, n_out in done:
            fn.properties["function_type"] = ftype
            fn.properties.pop("arg_attrs", None)
            fn.properties.pop("res_attrs", None)
            if n_out:
                fn.attributes[OUT_PARAMS_ATTR] = IntegerAttr(n_out, 64)
            if new is None:
                continue
            old = fn.body.blocks[0]
            fn.body.detach_block(old)
            fn.body.add_block(new)
            for o in reversed([o for top in old.ops for o in all_ops(top)]):
                o.drop_all_references()
            old.erase(safe_erase=False)
            insert_deallocs(fn)
        for o in list(op.ops):
            if isinstance(o, ml_program.GlobalOp):
                new_g = convert_global(o)
                op.body.block.insert_op_before(new_g, o)
                o.detach()
                o.erase()
        first = op.body.block.first_op
        for g in c.new_globals:
            if first is None:
                op.body.block.add_op(g)
            else:
                op.body.block.insert_op_before(g, first)
