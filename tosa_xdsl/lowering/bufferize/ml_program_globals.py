"""ml_program globals in one-shot-bufferize: `ml_program.global` -> `memref.global`
(private; constant unless mutable), global_load -> a copy of the global's buffer (a later
global_store must not change the value read), global_store -> a copy into it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import memref, ml_program
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    StringAttr,
    TensorType,
    UnitAttr,
)

from tosa_xdsl.dialects.ml_program_ext import GlobalLoadOp, GlobalStoreOp
from tosa_xdsl.lowering.bufferize.common import buffer_type, fail

if TYPE_CHECKING:
    from tosa_xdsl.lowering.bufferize.converter import Converter


def convert_global(op: ml_program.GlobalOp) -> memref.GlobalOp:
    t = op.type
    if not isinstance(t, TensorType) or any(int(d) < 0 for d in t.get_shape()):
        raise fail(op, f"static shapes are required, got {t}")
    init = op.value if op.value is not None else UnitAttr()
    if not isinstance(init, DenseIntOrFPElementsAttr | UnitAttr):
        raise fail(op, "only dense initial values are supported")
    return memref.GlobalOp.get(op.sym_name, buffer_type(t), init, StringAttr("private"),
                               constant=None if op.is_mutable is not None else UnitAttr())


def _global_load(c: Converter, op: GlobalLoadOp) -> None:
    t = op.result.type
    g = c.emit(memref.GetGlobalOp(op.global_.root_reference.data, buffer_type(t)))  # type: ignore[arg-type]
    # a copy: a later global_store must not change the value read here
    b = c.alloc(t)  # type: ignore[arg-type]
    c.copy(g.results[0], b)
    c.vmap[op.result] = b
    c.fresh_root(op.parent_block(), op.result)


def _global_store(c: Converter, op: GlobalStoreOp) -> None:
    t = op.value.type
    g = c.emit(memref.GetGlobalOp(op.global_.root_reference.data, buffer_type(t)))  # type: ignore[arg-type]
    c.copy(c.buf(op.value), g.results[0])


HANDLERS = {
    GlobalLoadOp: _global_load,
    GlobalStoreOp: _global_store,
}
