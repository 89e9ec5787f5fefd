"""Deallocation in one-shot-bufferize: every `memref.alloc` gets one `memref.dealloc`, after
the last use of the buffer or of a view of it, in the alloc's block. That suffices because
the rules never let an alloc escape its block: yields and returns copy out, or have the
alloc replaced by the destination buffer (Converter.store_results). The one exception is
a dynamically shaped function result, returned to the caller, who frees it."""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Operation

# ops whose result views their operand #0: a use of the view is a use of the buffer
_VIEW_OPS = (memref.SubviewOp, memref.CollapseShapeOp, memref.ExpandShapeOp, memref.CastOp,
             UnrealizedConversionCastOp)


def insert_deallocs(root: Operation) -> None:
    """A memref.dealloc after the last use of each alloc (or of a view of it) in its block."""
    for alloc in [o for o in root.walk() if isinstance(o, memref.AllocOp)]:
        block = alloc.parent_block()
        assert block is not None
        views = [alloc.results[0]]
        last: Operation = alloc
        pos = {o: i for i, o in enumerate(block.ops)}
        if any(isinstance(u.operation, func.ReturnOp) for u in alloc.results[0].uses):
            continue  # a dynamically shaped result: the caller owns it (function_boundaries.py)
        k = 0
        while k < len(views):
            for use in views[k].uses:
                user = use.operation
                if isinstance(user, _VIEW_OPS) and use.index == 0:
                    views.append(user.results[0])
                anc = block.find_ancestor_op_in_block(user)
                assert anc is not None, "a buffer escaped its block"
                if pos[anc] > pos[last]:
                    last = anc
            k += 1
        block.insert_op_after(memref.DeallocOp.get(alloc.results[0]), last)
