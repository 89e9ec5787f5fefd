"""The arith.constant rule of one-shot-bufferize: a dense tensor constant becomes a
`memref.global "private" constant` (one per distinct type and value) read through
`memref.get_global`; being read-only, it is never a destination written in place. Scalar
constants are kept as they are."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    StringAttr,
    TensorType,
    UnitAttr,
)

from tosa_xdsl.lowering.bufferize.common import buffer_type, fail
from tosa_xdsl.lowering.bufferize.in_place import Root

if TYPE_CHECKING:
    from tosa_xdsl.lowering.bufferize.converter import Converter


def _constant(c: Converter, op: arith.ConstantOp) -> None:
    t = op.result.type
    if not isinstance(t, TensorType):
        c.emit(op.clone(c.vmap))
        return
    value = op.value
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise fail(op, f"only dense constants can become globals, got {type(value).__name__}")
    key = (t, value)
    name = c.globals.get(key)
    mt = buffer_type(t)
    if name is None:
        shape = "x".join(str(d) for d in t.get_shape())
        base = f"__constant_{shape + 'x' if shape else ''}{t.element_type}"
        name, n = base, 0
        while name in c.symbols:
            n += 1
            name = f"{base}_{n}"
        c.symbols.add(name)
        c.globals[key] = name
        c.new_globals.append(memref.GlobalOp.get(StringAttr(name), mt, value, StringAttr("private"),
                                                 constant=UnitAttr(), alignment=64))
    g = c.emit(memref.GetGlobalOp(name, mt))
    c.vmap[op.result] = g.results[0]
    c.bind(op.result, Root(writable=False, scope=None))


HANDLERS = {arith.ConstantOp: _constant}
