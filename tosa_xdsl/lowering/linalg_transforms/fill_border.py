"""`linalg-fill-pad-border`: a padded buffer's fill covers only the border its interior write
leaves, not the whole buffer.

After bufferization (and linalg-write-into-copy-target) a pad is

    %p = memref.alloc();  linalg.fill ins(%c) outs(%p)
    %s = memref.subview %p[offsets] [sizes] [1, ...]
    W writes all of %s      -- memref.copy(%b, %s), or an elementwise linalg.generic outs(%s)

so every interior element is written twice, first with the pad value. The pass replaces the
fill by fills of the border pieces (at most two per padded dim: before and after the interior
along dim k, the interior's range along the dims before k, everything along the dims after
it), which are disjoint and cover exactly the elements of %p outside %s. On the example's
66x66x24 pads that is 6% of the elements; MobileNet's 225x225x3 input pad 1%.

When: %p is a static `memref.alloc` with the identity layout, or a function argument of that
type (a result buffer: bufferization's out-parameters, which alias no input); %s is a subview of it with
static offsets and sizes and unit strides; between the fill and W (same block, in this order)
nothing uses %p but the subview, and nothing uses %s before W; W writes every element of %s:
a memref.copy into %s, or a linalg.generic whose only output is %s with the identity map, all
parallel loops and an unused output block argument (it reads none of %s). Every element of
%p then ends up with the same value as before -- the pad value outside %s, W's value inside --
and nothing reads %p in between, so results are bit-identical.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr, StridedLayoutAttr
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

Box = list[tuple[int, int]]  # [start, end) per dim


def border_pieces(shape: list[int], offsets: list[int], sizes: list[int]) -> list[Box]:
    """Disjoint boxes covering the elements of `shape` outside the box offsets + sizes: along
    each dim k the part before and the part after the interior, with the interior's range on
    the dims before k and the whole extent on the dims after k."""
    if 0 in sizes:  # no interior: all border
        return [[(0, d) for d in shape]]
    pieces: list[Box] = []
    for k, (d, o, s) in enumerate(zip(shape, offsets, sizes)):
        inner = [(oo, oo + ss) for oo, ss in zip(offsets[:k], sizes[:k])]
        outer = [(0, dd) for dd in shape[k + 1:]]
        for lo, hi in ((0, o), (o + s, d)):
            if hi > lo:
                pieces.append(inner + [(lo, hi)] + outer)
    return pieces


def _static_box(sub: memref.SubviewOp) -> tuple[list[int], list[int]] | None:
    if sub.offsets or sub.sizes or sub.strides:
        return None
    strides = list(sub.static_strides.get_values())
    if any(st != 1 for st in strides):
        return None
    offsets, sizes = list(sub.static_offsets.get_values()), list(sub.static_sizes.get_values())
    if len(offsets) != len(sizes) or any(o < 0 for o in offsets) or any(s < 0 for s in sizes):
        return None
    return [int(o) for o in offsets], [int(s) for s in sizes]


def _writes_all(w: Operation, s: SSAValue) -> bool:
    if isinstance(w, memref.CopyOp):
        return w.destination is s and w.source is not s
    if not isinstance(w, linalg.GenericOp) or len(w.outputs) != 1 or w.outputs[0] is not s:
        return False
    if any(v is s for v in w.inputs) or any(t.data != IteratorType.PARALLEL for t in w.iterator_types.data):
        return False
    out_map = w.indexing_maps.data[-1].data
    return out_map == AffineMap.identity(out_map.num_dims) and w.body.block.args[-1].first_use is None


def _subview(p: SSAValue, box: Box, rewriter: PatternRewriter, at: InsertPoint) -> SSAValue:
    t = p.type
    assert isinstance(t, MemRefType)
    shape = [int(d) for d in t.get_shape()]
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    offsets, sizes = [lo for lo, _ in box], [hi - lo for lo, hi in box]
    offset = sum(o * st for o, st in zip(offsets, strides))
    rt = MemRefType(t.element_type, sizes, StridedLayoutAttr(strides, offset))
    sub = memref.SubviewOp(p, [], [], [], offsets, sizes, [1] * len(shape), rt)
    rewriter.insert_op(sub, at)
    return sub.result


class FillPadBorder(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, fill: linalg.FillOp, rewriter: PatternRewriter) -> None:
        if len(fill.outputs) != 1 or len(fill.inputs) != 1 or fill.res:
            return
        p = fill.outputs[0]
        alloc, block = p.owner, fill.parent_block()
        t = p.type
        fresh = isinstance(alloc, memref.AllocOp) and not alloc.operands
        out_param = isinstance(p, BlockArgument) and isinstance(p.block.parent_op(), func.FuncOp)
        if not (fresh or out_param) or block is None or not isinstance(t, MemRefType) or \
                not isinstance(t.layout, NoneAttr) or any(int(d) < 0 for d in t.get_shape()):
            return
        users = [u.operation for u in p.uses]
        if any(o.parent_block() is not block for o in users):
            return
        index = block.get_operation_index
        fi = index(fill)
        for sub in users:
            if not isinstance(sub, memref.SubviewOp) or index(sub) < fi:
                continue
            box = _static_box(sub)
            s_users = [u.operation for u in sub.result.uses]
            if box is None or not s_users or any(o.parent_block() is not block for o in s_users):
                continue
            w = min(s_users, key=index)
            wi = index(w)
            # nothing else touches %p before W is done (no view of it is read by W either)
            if not _writes_all(w, sub.result) or any(index(o) <= wi for o in users if o is not fill and o is not sub):
                continue
            self._rewrite(fill, p, box, rewriter)
            return

    @staticmethod
    def _rewrite(fill: linalg.FillOp, p: SSAValue, box: tuple[list[int], list[int]],
                 rewriter: PatternRewriter) -> None:
        t = p.type
        assert isinstance(t, MemRefType)
        shape = [int(d) for d in t.get_shape()]
        at = InsertPoint.before(fill)
        for piece in border_pieces(shape, *box):
            view = _subview(p, piece, rewriter, at)
            rewriter.insert_op(linalg.FillOp([fill.inputs[0]], [view], []), at)
        rewriter.erase_op(fill)


@dataclass(frozen=True)
class LinalgFillPadBorderPass(ModulePass):
    """A padded buffer's fill covers only the border its interior write leaves."""

    name: ClassVar[str] = "linalg-fill-pad-border"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FillPadBorder(), apply_recursively=False).rewrite_module(op)
