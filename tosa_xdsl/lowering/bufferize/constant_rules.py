"""The arith.constant rule of one-shot-bufferize: a dense tensor constant becomes a
`memref.global "private" constant` (one per distinct type and value) read through
`memref.get_global`; being read-only, it is never a destination written in place. Scalar
constants are kept as they are."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
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
    if not isinstance(value, (DenseIntOrFPElementsAttr, DenseResourceAttr)):
        raise fail(op, f"only dense constants can become globals, got {type(value).__name__}")
    if isinstance(value, DenseResourceAttr):
        # Upstream's global keeps the dense_resource; xDSL 0.74's memref.global accepts only
        # dense literals, so the blob's bytes are copied once into one (binary, no lists).
        from tosa_xdsl.ir.dense import from_numpy
        from tosa_xdsl.ir.resources import ResourceError, dense_resource_array

        try:
            value = from_numpy(dense_resource_array(value), t)
        except ResourceError as err:
            raise fail(op, str(err)) from None
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
