"""`memref-copy-to-affine-loops`: a strided `memref.copy` with static shapes becomes an affine
loop nest over views of both sides in which every run of adjacent dims contiguous in both
layouts is collapsed into one, so the innermost loop runs over the longest contiguous stretch.

Why: a copy into (or out of) a strided view -- a pad of a tensor with several readers, the
channel padding of a residual add (`%b -> subview %p[0, 0, 0, 0] [1, 64, 64, 24]` of a
28-channel buffer) -- was emitted by convert-to-llvm as one flat loop that recomputes the
multi-index of every element with a division and a remainder per dim: LLVM cannot vectorise
it and it stays in the entry function. On the example it was ~19% of the per-inference time
(perf, docs/native.md). As an affine nest over views collapsed to the contiguous stretch
(`[1, 64, 64*24]` for a spatial pad of a 64x64x24 tensor, `[1, 4096, 24]` for the channel pad),
the inner loop is a unit-stride load/store loop that LLVM vectorises, and outline-loop-nests
moves the nest into a function of its own like any other. (Upstream's finalize-memref-to-llvm
calls a runtime `memrefCopy` for such copies, which also walks the elements one by one.)

Contiguous copies (both sides row-major) stay `memref.copy`: convert-to-llvm makes them one
`llvm.memcpy`. Copies with dynamic shapes or strides stay too.

Results are identical: every element is copied once, bits unchanged (loads and stores only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    i64,
)
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint


def _layout(t: MemRefType) -> tuple[list[int], int] | None:
    """(strides, offset) of a static memref type, or None (dynamic shape, strides or offset)."""
    shape = [int(d) for d in t.get_shape()]
    got = t.get_strides()
    if any(d < 0 for d in shape) or got is None or any(s is None for s in got):
        return None
    layout = t.layout
    offset = layout.get_offset() if isinstance(layout, StridedLayoutAttr) else 0
    if offset is None:
        return None
    return [int(s) for s in got], int(offset)


def _contiguous(shape: list[int], strides: list[int]) -> bool:
    expect = 1
    for d, s in zip(reversed(shape), reversed(strides)):
        if d != 1 and s != expect:
            return False
        expect *= d
    return True


def groups_of(shape: list[int], src: list[int], dst: list[int]) -> list[list[int]]:
    """The reassociation that collapses every run of adjacent dims that is contiguous in both
    layouts (dim k joins the group after it when its stride is the next non-unit dim's stride
    times that dim's size, in the source and in the destination; a size-1 dim always joins)."""
    groups = [[len(shape) - 1]]
    for k in range(len(shape) - 2, -1, -1):
        inner = next((j for j in groups[0] if shape[j] != 1), None)
        if shape[k] == 1 or inner is None or all(st[k] == st[inner] * shape[inner] for st in (src, dst)):
            groups[0].insert(0, k)
        else:
            groups.insert(0, [k])
    return groups


def _group_stride(shape: list[int], strides: list[int], group: list[int]) -> int:
    inner = [k for k in group if shape[k] != 1]
    return strides[inner[-1] if inner else group[-1]]


def _collapsed(value: SSAValue, groups: list[list[int]], rewriter: PatternRewriter, before) -> SSAValue:
    t = value.type
    assert isinstance(t, MemRefType)
    if all(len(g) == 1 for g in groups):
        return value
    shape = [int(d) for d in t.get_shape()]
    layout = _layout(t)
    assert layout is not None
    strides, offset = layout
    sizes = [1] * len(groups)
    for j, g in enumerate(groups):
        for k in g:
            sizes[j] *= shape[k]
    if isinstance(t.layout, StridedLayoutAttr):
        layout_attr = StridedLayoutAttr([_group_stride(shape, strides, g) for g in groups], offset)
        rt = MemRefType(t.element_type, sizes, layout_attr)
    else:  # the identity layout collapses to the identity layout
        rt = MemRefType(t.element_type, sizes)
    reassociation = ArrayAttr([ArrayAttr([IntegerAttr(k, i64) for k in g]) for g in groups])
    op = memref.CollapseShapeOp.build(operands=[value], result_types=[rt], properties={"reassociation": reassociation})
    rewriter.insert_op(op, before)
    return op.results[0]


class CopyToAffineLoops(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, copy: memref.CopyOp, rewriter: PatternRewriter) -> None:
        src_t, dst_t = copy.source.type, copy.destination.type
        if not isinstance(src_t, MemRefType) or not isinstance(dst_t, MemRefType):
            return
        shape = [int(d) for d in src_t.get_shape()]
        if shape != [int(d) for d in dst_t.get_shape()] or not shape or 0 in shape:
            return
        src_l, dst_l = _layout(src_t), _layout(dst_t)
        if src_l is None or dst_l is None:
            return
        if _contiguous(shape, src_l[0]) and _contiguous(shape, dst_l[0]):
            return  # one memcpy
        groups = groups_of(shape, src_l[0], dst_l[0])
        at = InsertPoint.before(copy)
        src = _collapsed(copy.source, groups, rewriter, at)
        dst = _collapsed(copy.destination, groups, rewriter, at)
        sizes = [int(d) for d in src.type.get_shape()]  # type: ignore[union-attr]
        ivs: list[SSAValue] = []
        for size in sizes:
            body = Block(arg_types=[IndexType()])
            loop = affine.ForOp.from_region([], [], [], [], AffineMapAttr(AffineMap.constant_map(0)),
                                            AffineMapAttr(AffineMap.constant_map(size)), Region(body), 1)
            rewriter.insert_op(loop, at)
            rewriter.insert_op(affine.YieldOp.get(), InsertPoint.at_end(body))
            ivs.append(body.args[0])
            at = InsertPoint.before(body.last_op)  # type: ignore[arg-type]
        identity = AffineMapAttr(AffineMap.identity(len(sizes)))
        load = affine.LoadOp(src, ivs, identity)
        rewriter.insert_op(load, at)
        rewriter.insert_op(affine.StoreOp(load.result, dst, ivs, identity), at)
        rewriter.erase_op(copy)


@dataclass(frozen=True)
class MemrefCopyToAffineLoopsPass(ModulePass):
    """Strided static memref.copy -> an affine nest with a contiguous innermost loop."""

    name: ClassVar[str] = "memref-copy-to-affine-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(CopyToAffineLoops(), apply_recursively=False).rewrite_module(op)
