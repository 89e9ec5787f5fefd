"""The linalg rule of one-shot-bufferize (destination passing): each `outs` tensor becomes
the buffer the op writes and the op loses its results.

The buffer is the init's own buffer when the in-place analysis proves writing it safe,
otherwise a new `memref.alloc`, plus a `memref.copy` of the init only when the op reads it
(`tensor.empty` inits always get a fresh alloc).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation, SSAValue

from tosa_xdsl.lowering.bufferize.common import fail, is_tensor

if TYPE_CHECKING:
    from tosa_xdsl.lowering.bufferize.converter import Converter

# ops that overwrite their init without reading it: no copy of the init into a new buffer
_NO_READ_INIT = (linalg.FillOp, linalg.TransposeOp, linalg.BroadcastOp, linalg.CopyOp)


def is_linalg(op: Operation) -> bool:
    """A linalg op with inputs and inits: a structured op, linalg.reduce/broadcast, or any
    other `linalg.*` op with `inputs` and `outputs`."""
    return isinstance(op, LinalgStructuredOperation | linalg.ReduceOp | linalg.BroadcastOp) or (
        op.name.startswith("linalg.") and hasattr(op, "inputs") and hasattr(op, "outputs"))


def bufferize_linalg(c: Converter, op: Operation) -> None:
    if isinstance(op, linalg.ReduceOp | linalg.BroadcastOp):  # single input/init operands
        ins, outs = [op.input], [op.init]
    else:
        ins = list(op.inputs)  # type: ignore[attr-defined]
        outs = list(op.outputs)  # type: ignore[attr-defined]
    n_in = len(ins)
    new_ins = [c.buf(v) if is_tensor(v.type) else c.vmap.get(v, v) for v in ins]
    block = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    same_map = _same_map_ok(op, n_in)
    new_outs: list[SSAValue] = []
    for j, init in enumerate(outs):
        if not is_tensor(init.type):
            raise fail(op, "linalg on buffers is not an input of this pass")
        if isinstance(op, _NO_READ_INIT):
            reads = False
        elif block is not None and len(block.args) == n_in + len(outs):
            reads = bool(block.args[n_in + j].uses)
        else:
            reads = True
        target, root = c.dest(init, op, n_in + j, reads, lambda i, j=j: same_map(i, n_in + j))
        new_outs.append(target)
        c.vmap[op.results[j]] = target
        c.bind(op.results[j], root)
    regions = [c.convert_region_like(r) for r in op.regions]
    new = type(op).create(operands=[*new_ins, *new_outs], result_types=[],
                          properties=dict(op.properties), attributes=dict(op.attributes),
                          regions=regions)
    c.emit(new)


def _same_map_ok(op: Operation, n_in: int):
    """For an all-parallel generic: input i may share the output's buffer if it reads
    each element through the same map as the output writes it (element-wise in place)."""
    if not isinstance(op, linalg.GenericOp):
        return lambda i, j: False
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types.data):
        return lambda i, j: False
    maps = [m.data for m in op.indexing_maps.data]
    return lambda i, j: i < n_in and maps[i] == maps[j]
