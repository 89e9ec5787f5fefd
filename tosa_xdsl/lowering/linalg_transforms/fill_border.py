"""`linalg-fill-pad-border`: a padded buffer's fill covers only the border its interior write
leaves, not the whole buffer.

After bufferization (and linalg-write-into-copy-target) a pad is

    %p = memref.alloc();  linalg.fill ins(%c) outs(%p)
    %s = memref.subview %p[offsets] [sizes] [1, ...]
    W writes all of %s      -- memref.copy(%b, %s), or an elementwise linalg.generic outs(%s)

so every interior element is written twice, first with the pad value. The pass replaces the
fill by one loop nest that stores the pad value into the elements of %p outside %s only (on
the example's 66x66x24 pads 6% of the elements; MobileNet's 225x225x3 input pad 1%):

- usually (every dim before the last two partial ones whole: NHWC spatial pads, one-sided
  pads, pads of any single dim) the interior is S runs evenly spaced in %p seen flat from the
  first partial dim on (a `collapse_shape` view); the border is the S + 1 gaps between and
  around them, one scf.for over the gaps and one over a gap's elements: two loops, which
  LLVM turns into memset-like stores and compiles in no more time than the whole fill
  (`build_gap_nest`; one loop, contiguous, covers the right border of one row and the left
  border of the next);
- otherwise (the box partial in two dims before its last partial one) a nest over the rows,
  each row in the box stored on its two edges, a row outside it whole (`build_border_nest`);
- a pad of the last dim only (a channel pad) keeps its fill: a few elements per pixel, a
  strided loop too small to be outlined, which then cost more compile time in the entry
  function than the contiguous fill it would save.

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
from math import prod
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, MemRefType, ModuleOp, NoneAttr, i64
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

def _padded_dim(shape: list[int], offsets: list[int], sizes: list[int]) -> int | None:
    """The last dim the interior does not cover whole (None: it covers the buffer)."""
    partial = [k for k, (d, o, s) in enumerate(zip(shape, offsets, sizes)) if o != 0 or s != d]
    return partial[-1] if partial else None


def _only_last_dim_padded(t: MemRefType, box: tuple[list[int], list[int]]) -> bool:
    """A pad of the last dim only (a channel pad): its border is a few elements per pixel, a
    strided store loop too small for outline-loop-nests, which then stays in the entry function
    and costs LLVM more compile time (the example: +0.1 s for its 11) than the whole fill
    would, a contiguous `memset`: such a fill stays."""
    shape = [int(d) for d in t.get_shape()]
    return _padded_dim(shape, *box) == len(shape) - 1 and all(
        o == 0 and s == d for o, s, d in zip(box[0][:-1], box[1][:-1], shape[:-1]))


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


class _NestBuilder:
    """Appends ops at an insertion point; `loop` opens an scf.for whose body the builder then
    fills; index constants are made once, before the nest."""

    def __init__(self, rewriter: PatternRewriter, at: InsertPoint):
        self.rewriter, self.at, self.consts = rewriter, at, {}
        self.top = at  # constants go before the nest's first op (outline-loop-nests re-creates them)
        self.first: Operation | None = None

    def index(self, v: int) -> SSAValue:
        if v not in self.consts:
            op = arith.ConstantOp.from_int_and_width(v, IndexType())
            self.rewriter.insert_op(op, self.top)
            self.consts[v] = op.result
        return self.consts[v]

    def add(self, op: Operation) -> Operation:
        self.rewriter.insert_op(op, self.at)
        if self.first is None:
            self.first, self.top = op, InsertPoint.before(op)
        return op

    def loop(self, lb: SSAValue, ub: SSAValue) -> SSAValue:
        """Opens the loop: what follows goes into its body. Returns its induction variable."""
        body = Block([scf.YieldOp()], arg_types=[IndexType()])
        self.add(scf.ForOp(lb, ub, self.index(1), [], body))
        self.at = InsertPoint.before(body.last_op)
        return body.args[0]


def build_border_nest(rewriter: PatternRewriter, at: InsertPoint, value: SSAValue, p: SSAValue,
                      shape: list[int], offsets: list[int], sizes: list[int]) -> None:
    """Stores `value` into the elements of `p` (shape `shape`) outside the box offsets + sizes
    (which has no empty dim and is not the whole buffer), in one scf.for nest.

    With k the last dim the box does not cover whole, the nest runs over dims 0..k-1 (the
    "rows"; each row, dims k.., is contiguous). A row outside the box on some dim is border
    whole; a row inside it has border only along dim k, before o_k and from o_k + s_k on,
    with every later dim whole. So, with dims k.. collapsed into one (a `collapse_shape` view),
    per row two loops, `[0, o_k)` and `[o_k + s_k, d_k)` (times the later dims' size) inside the box, `[0, d_k)` outside it: an scf.if, so that every
    loop has a constant trip count and LLVM stores the short edges inline (with bounds
    selected at run time each piece was a `memset` call of a run-time size: +9% per inference
    on the MobileNet-style model)."""
    k = _padded_dim(shape, offsets, sizes)
    assert k is not None and 0 not in sizes
    b = _NestBuilder(rewriter, at)
    if k + 1 < len(shape):  # dims k.. as one (contiguous in a row): one loop per edge, not a nest
        inner = prod(shape[k + 1:])
        t = p.type
        assert isinstance(t, MemRefType)
        groups = [[d] for d in range(k)] + [list(range(k, len(shape)))]
        reassociation = ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in g]) for g in groups])
        shape = shape[:k] + [shape[k] * inner]
        offsets, sizes = offsets[:k] + [offsets[k] * inner], sizes[:k] + [sizes[k] * inner]
        p = b.add(memref.CollapseShapeOp.build(operands=[p], result_types=[MemRefType(t.element_type, shape)],
                                               properties={"reassociation": reassociation})).results[0]
    # (a dim of extent 1 gets no loop: each loop costs LLVM compile time)
    ivs = [b.index(0) if shape[d] == 1 else b.loop(b.index(0), b.index(shape[d])) for d in range(k)]
    inside: SSAValue | None = None
    for d in range(k):
        if offsets[d] == 0 and sizes[d] == shape[d]:
            continue
        ge = b.add(arith.CmpiOp(ivs[d], b.index(offsets[d]), "sge")).results[0]
        lt = b.add(arith.CmpiOp(ivs[d], b.index(offsets[d] + sizes[d]), "slt")).results[0]
        both = b.add(arith.AndIOp(ge, lt)).results[0]
        inside = both if inside is None else b.add(arith.AndIOp(inside, both)).results[0]

    def fill_rows(ranges: list[tuple[int, int]]) -> None:  # at b.at: a loop over (collapsed) dim k per range
        row_at = b.at
        for first, last in ranges:
            if last <= first:
                continue
            b.at = row_at
            b.add(memref.StoreOp.get(value, p, [*ivs, b.loop(b.index(first), b.index(last))]))
        b.at = row_at

    edges = [(0, offsets[k]), (offsets[k] + sizes[k], shape[k])]
    if inside is None:
        fill_rows(edges)
        return
    then, other = Block([scf.YieldOp()]), Block([scf.YieldOp()])
    b.add(scf.IfOp(inside, [], Region(then), Region(other)))
    b.at = InsertPoint.before(then.last_op)
    fill_rows(edges)
    b.at = InsertPoint.before(other.last_op)
    fill_rows([(0, shape[k])])


def build_gap_nest(rewriter: PatternRewriter, at: InsertPoint, value: SSAValue, p: SSAValue,
                   shape: list[int], offsets: list[int], sizes: list[int]) -> bool:
    """The border as the gaps between the interior's runs, when they are evenly spaced: with
    k the last dim the box does not cover whole and j the one before it (k itself if none),
    every dim before j full, dims j.. collapsed into one of size T, the box is S runs of RL
    elements L apart from `base` on; gap g in [0, S] is [base + (g-1)*L + RL, base + g*L)
    (from 0 for the first, to T for the last): two loops (one over the gaps, one over a gap's
    elements) under loops over the full dims before j of extent > 1. False (nothing built)
    when some dim before j is not full."""
    k = _padded_dim(shape, offsets, sizes)
    assert k is not None and 0 not in sizes
    partial = [d for d in range(k) if offsets[d] != 0 or sizes[d] != shape[d]]
    if len(partial) > 1:
        return False
    j = partial[-1] if partial else k
    inner = prod(shape[k + 1:])
    L = prod(shape[k:])  # a row: dims k..
    rows_per = prod(shape[j + 1:k])  # rows per index of dim j (all full between j and k)
    runs = sizes[j] * rows_per if j < k else 1
    first_row = offsets[j] * rows_per if j < k else 0
    base = first_row * L + offsets[k] * inner
    step = L if j < k else 0
    run = sizes[k] * inner
    total = prod(shape[j:])
    b = _NestBuilder(rewriter, at)
    t = p.type
    assert isinstance(t, MemRefType)
    if j + 1 < len(shape):
        groups = [[d] for d in range(j)] + [list(range(j, len(shape)))]
        reassociation = ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in g]) for g in groups])
        p = b.add(memref.CollapseShapeOp.build(operands=[p], result_types=[MemRefType(t.element_type, shape[:j] + [total])],
                                               properties={"reassociation": reassociation})).results[0]
    ivs = [b.index(0) if shape[d] == 1 else b.loop(b.index(0), b.index(shape[d])) for d in range(j)]
    g = b.loop(b.index(0), b.index(runs + 1))
    # lo = base + (g-1)*step + run, hi = base + g*step; 0 and total at the ends
    at_g = b.add(arith.MuliOp(g, b.index(step))).results[0]
    hi = b.add(arith.AddiOp(at_g, b.index(base))).results[0]
    lo = b.add(arith.AddiOp(at_g, b.index(base - step + run))).results[0]
    first = b.add(arith.CmpiOp(g, b.index(0), "eq")).results[0]
    last = b.add(arith.CmpiOp(g, b.index(runs), "eq")).results[0]
    lo = b.add(arith.SelectOp(first, b.index(0), lo)).results[0]
    hi = b.add(arith.SelectOp(last, b.index(total), hi)).results[0]
    b.add(memref.StoreOp.get(value, p, [*ivs, b.loop(lo, hi)]))
    return True


class FillPadBorder(RewritePattern):
    def __init__(self) -> None:
        # op positions per block, numbered when first asked and kept until this pattern
        # rewrites in that block (Block.get_operation_index walks the block on every call, a
        # few dozen calls per fill on the example's ~700-op block; numbering per match was as
        # slow): nothing else changes the block during the pass
        self._positions: dict[Block, dict[Operation, int]] = {}

    def _position(self, block: Block, op: Operation) -> int:
        pos = self._positions.get(block)
        if pos is None:
            pos = self._positions[block] = {o: i for i, o in enumerate(block.ops)}
        return pos[op]

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
        here: Block = block

        def index(op: Operation) -> int:
            return self._position(here, op)

        fi = index(fill)
        for sub in users:
            if not isinstance(sub, memref.SubviewOp) or index(sub) < fi:
                continue
            box = _static_box(sub)
            if box is not None and (0 in box[1] or _only_last_dim_padded(t, box)):
                continue
            s_users = [u.operation for u in sub.result.uses]
            if box is None or not s_users or any(o.parent_block() is not block for o in s_users):
                continue
            w = min(s_users, key=index)
            wi = index(w)
            # nothing else touches %p before W is done (no view of it is read by W either)
            if not _writes_all(w, sub.result) or any(index(o) <= wi for o in users if o is not fill and o is not sub):
                continue
            self._positions.pop(here, None)  # the rewrite inserts ops: number again next time
            self._rewrite(fill, p, box, rewriter)
            return

    @staticmethod
    def _rewrite(fill: linalg.FillOp, p: SSAValue, box: tuple[list[int], list[int]],
                 rewriter: PatternRewriter) -> None:
        t = p.type
        assert isinstance(t, MemRefType)
        shape = [int(d) for d in t.get_shape()]
        if _padded_dim(shape, *box) is not None and not (
                build_gap_nest(rewriter, InsertPoint.before(fill), fill.inputs[0], p, shape, *box)):
            build_border_nest(rewriter, InsertPoint.before(fill), fill.inputs[0], p, shape, *box)
        rewriter.erase_op(fill)


@dataclass(frozen=True)
class LinalgFillPadBorderPass(ModulePass):
    """A padded buffer's fill covers only the border its interior write leaves."""

    name: ClassVar[str] = "linalg-fill-pad-border"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FillPadBorder(), apply_recursively=False).rewrite_module(op)
