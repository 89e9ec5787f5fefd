"""`linalg-write-into-copy-target`: an elementwise op that fills a fresh buffer only to have it
copied into a subview (a pad's interior) writes into the subview directly.

After bufferization a tosa.pad (and the padding of a convolution) of a computed tensor is

    linalg.generic ... outs(%b)                          -- %b = memref.alloc(), fully written
    %p = memref.alloc();  linalg.fill ins(%c) outs(%p)    -- the padded buffer
    %s = memref.subview %p[...];  memref.copy(%b, %s);  memref.dealloc %b

(upstream's one-shot-bufferize avoids the copy by bufferizing the tensor.insert_slice in
place; ours does not yet). The pattern moves %p's allocation, its fill and the subview before
the generic, makes the generic write %s, and erases the copy and %b: one pass over the
tensor and one allocation fewer per pad (one per depthwise convolution of a MobileNet).

When: the generic is all-parallel, its single output is %b with the identity map and its body
does not read the output (every element of %b is written, none read); %b is a static
`memref.alloc` whose only other uses are the copy, deallocations and ops after the copy (same
block) that only read it (copies out of it, linalg ops with it among their inputs only: a
residual branch, a second pad) -- those then read %s, which holds the same values, provided
nothing but reads and a deallocation uses %p after the copy and %p's deallocation moves to
where %b's was (the example: 32 copies -> 17); %p is a `memref.alloc`
used between the generic and the copy only by one `linalg.fill` (of a value defined before the
generic, or a constant or scalar load of a global, moved along) and the subview, whose offsets are static. The generic then writes the same values
into the same elements of %s that the copy would have written, after the fill as before, so
results are bit-identical.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint


def _reads_only(op: Operation, v: SSAValue) -> bool:
    """`op` reads `v` and cannot write it: a copy out of it, or a linalg op with it among its
    inputs and not its outputs."""
    if isinstance(op, memref.CopyOp):
        return op.source is v and op.destination is not v
    if isinstance(op, linalg.LinalgStructuredOperation):
        return any(x is v for x in op.inputs) and all(x is not v for x in op.outputs)
    return False


def _readers_after(b: SSAValue, copy: memref.CopyOp) -> list[Operation] | None:
    """The uses of %b besides its writer, the copy and deallocs: ops after the copy, in its
    block, that only read %b (then they may read the copy's target instead), else None."""
    block = copy.parent_block()
    assert block is not None
    readers = []
    for u in b.uses:
        op = u.operation
        if op is copy or isinstance(op, memref.DeallocOp) or (isinstance(op, linalg.GenericOp) and b in op.outputs):
            continue
        if op.parent_block() is not block or block.get_operation_index(op) < block.get_operation_index(copy) \
                or not _reads_only(op, b):
            return None
        readers.append(op)
    return readers


def _writer(b: SSAValue, copy: memref.CopyOp) -> linalg.GenericOp | None:
    """The generic that writes all of %b (its only use besides the copy, deallocs and readers
    after the copy)."""
    writers = [u.operation for u in b.uses if isinstance(u.operation, linalg.GenericOp) and b in u.operation.outputs]
    if len(writers) != 1 or _readers_after(b, copy) is None:
        return None
    g = writers[0]
    if not isinstance(g, linalg.GenericOp) or len(g.outputs) != 1 or g.outputs[0] is not b:
        return None
    if any(v is b for v in g.inputs) or any(t.data != IteratorType.PARALLEL for t in g.iterator_types.data):
        return None
    out_map = g.indexing_maps.data[-1].data
    if out_map != AffineMap.identity(out_map.num_dims) or g.body.block.args[-1].first_use is not None:
        return None
    return g


def _defined_before(v: SSAValue, op: Operation) -> bool:
    owner = v.owner
    if not isinstance(owner, Operation) or owner.parent_block() is not op.parent_block():
        return True  # a block argument, or defined in an enclosing block
    block = op.parent_block()
    assert block is not None
    return block.get_operation_index(owner) < block.get_operation_index(op)


_PAD_VALUE_OPS = (arith.ConstantOp, memref.GetGlobalOp, memref.LoadOp)


def _pad_value_slice(fill: linalg.FillOp, g: Operation) -> list[Operation] | None:
    """The ops after `g` that compute the fill's value, in order (constants, a global's address,
    a scalar load of it: none can be written by `g`, whose only output is a fresh buffer), or
    None when the value needs anything else."""
    slice_: list[Operation] = []
    todo = [v for v in fill.inputs if not _defined_before(v, g)]
    while todo:
        owner = todo.pop().owner
        if not isinstance(owner, _PAD_VALUE_OPS):
            return None
        if owner not in slice_:
            slice_.append(owner)
            todo += [v for v in owner.operands if not _defined_before(v, g)]
    block = g.parent_block()
    assert block is not None
    return sorted(slice_, key=block.get_operation_index)


class WriteIntoCopyTarget(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, copy: memref.CopyOp, rewriter: PatternRewriter) -> None:
        b, s = copy.source, copy.destination
        if not isinstance(b.owner, memref.AllocOp) or not isinstance(s.owner, memref.SubviewOp):
            return
        sub = s.owner
        if sub.offsets or sub.sizes or sub.strides:  # dynamic offsets: keep it simple
            return
        p = sub.source
        alloc_p = p.owner
        g = _writer(b, copy)
        block = copy.parent_block()
        if g is None or not isinstance(alloc_p, memref.AllocOp) or block is None:
            return
        if g.parent_block() is not block or alloc_p.parent_block() is not block or alloc_p.operands:
            return
        gi, pi, ci = (block.get_operation_index(o) for o in (g, alloc_p, copy))
        if not gi < pi < ci:
            return
        # %p between the generic and the copy: one fill (of a value from before the generic)
        # and the subview; nothing else (its users after the copy, the padded tensor's
        # readers, are unaffected)
        users = [u.operation for u in p.uses]
        if any(u.parent_block() is not block for u in users):
            return
        early = [u for u in users if block.get_operation_index(u) < ci]
        fills = [u for u in early if isinstance(u, linalg.FillOp)]
        if len(fills) != 1 or len(early) != 2 or sub not in early:
            return
        fill = fills[0]
        late = _pad_value_slice(fill, g)
        if fill.outputs[0] is not p or late is None:
            return
        readers = _readers_after(b, copy)
        assert readers is not None
        b_deallocs = [u.operation for u in b.uses if isinstance(u.operation, memref.DeallocOp)]
        p_deallocs = [u for u in users if isinstance(u, memref.DeallocOp)]
        # readers read %s instead: %p must not be written after the copy, and must live as
        # long as %b did
        if readers and (len(b_deallocs) != 1 or len(p_deallocs) > 1 or any(
                not (u is fill or u is sub or isinstance(u, memref.DeallocOp) or _reads_only(u, p)) for u in users)
                or any(u.operation is not copy for u in s.uses)):
            return
        for moved in (*late, alloc_p, fill, sub):
            moved.detach()
            rewriter.insert_op(moved, InsertPoint.before(g))
        g.operands = (*g.inputs, s)
        rewriter.erase_op(copy)
        for reader in readers:
            reader.operands = [s if x is b else x for x in reader.operands]
        if readers and p_deallocs and block.get_operation_index(p_deallocs[0]) < block.get_operation_index(b_deallocs[0]):
            p_deallocs[0].detach()
            rewriter.insert_op(p_deallocs[0], InsertPoint.before(b_deallocs[0]))
        for use in list(b.uses):
            rewriter.erase_op(use.operation)  # the deallocations
        rewriter.erase_op(b.owner)


@dataclass(frozen=True)
class LinalgWriteIntoCopyTargetPass(ModulePass):
    """An elementwise op filling a buffer that is then copied into a subview writes the subview."""

    name = "linalg-write-into-copy-target"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(WriteIntoCopyTarget(), apply_recursively=False).rewrite_module(op)
