"""Deallocation in one-shot-bufferize: every owned buffer that is not handed over gets one
`memref.dealloc`, after the last use of the buffer or of a view of it, in its block.

Owned buffers: each `memref.alloc`; and, with dynamic shapes (scf_rules.py), the memref
results of scf.if / scf.while and the memref block arguments of scf.while's regions. A
buffer is handed over when it is an operand of scf.yield, scf.condition or func.return
(a dynamically shaped result: the caller frees it) or an init of scf.while: the receiving
block owns it from then on. The rules never let any other buffer escape its block (static
yields and returns copy out, or have the alloc replaced by the destination buffer:
Converter.store_results), so no ownership indicators are needed (upstream's
ownership-based-buffer-deallocation keeps them at run time)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import MemRefType, UnrealizedConversionCastOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from tosa_xdsl.ir.walk import all_ops

# ops whose result views their operand #0: a use of the view is a use of the buffer
_VIEW_OPS = (memref.SubviewOp, memref.CollapseShapeOp, memref.ExpandShapeOp, memref.CastOp,
             UnrealizedConversionCastOp)
# ops that take over the buffer they are given
_HANDOVER_OPS = (scf.YieldOp, scf.ConditionOp, func.ReturnOp, scf.WhileOp)


def _owned(root: Operation) -> Iterator[tuple[SSAValue, Block, Operation | None]]:
    """(buffer, its block, the op defining it or None for a block argument)."""
    for o in all_ops(root):
        if isinstance(o, memref.AllocOp):
            yield o.results[0], o.parent_block(), o  # type: ignore[misc]
        elif isinstance(o, scf.IfOp | scf.WhileOp):
            for r in o.results:
                if isinstance(r.type, MemRefType):
                    yield r, o.parent_block(), o  # type: ignore[misc]
            if isinstance(o, scf.WhileOp):
                for region in (o.before_region, o.after_region):
                    for a in region.block.args:
                        if isinstance(a.type, MemRefType):
                            yield a, region.block, None


def insert_deallocs(root: Operation) -> None:
    """A memref.dealloc after the last use of each owned buffer (or of a view of it) in its
    block, unless the buffer is handed over."""
    # each block's op positions, numbered once: the deallocs inserted on the way are never
    # the last use of another buffer, and the order of the numbered ops does not change
    # (renumbering per buffer was quadratic: ~100 buffers in one ~800-op block on the example)
    positions: dict[Block, dict[Operation, int]] = {}
    for buffer, block, definer in list(_owned(root)):
        if any(isinstance(u.operation, _HANDOVER_OPS) for u in buffer.uses):
            continue
        pos = positions.get(block)
        if pos is None:
            pos = positions[block] = {o: i for i, o in enumerate(block.ops)}
        views = [buffer]
        last: Operation | None = definer
        k = 0
        while k < len(views):
            for use in views[k].uses:
                user = use.operation
                if isinstance(user, _VIEW_OPS) and use.index == 0:
                    views.append(user.results[0])
                anc = block.find_ancestor_op_in_block(user)
                assert anc is not None, "a buffer escaped its block"
                if last is None or pos[anc] > pos[last]:
                    last = anc
            k += 1
        dealloc = memref.DeallocOp.get(buffer)
        if last is None:  # an unused block argument
            block.insert_op_before(dealloc, block.first_op) if block.first_op else block.add_op(dealloc)
        elif last.has_trait(IsTerminator):
            block.insert_op_before(dealloc, last)
        else:
            block.insert_op_after(dealloc, last)
