"""linalg on buffers -> loop nests: `convert-linalg-to-loops` (scf.for + memref.load/store)
and `convert-linalg-to-affine-loops` (affine.for + affine.load/store), as upstream MLIR's
passes of the same names (mlir/lib/Dialect/Linalg/Transforms/Loops.cpp).

Every structured op on memrefs -- linalg.generic, the named ops (xDSL's and ours in
linalg_ops.py: batch_matmul, convolutions, depthwise, pooling, fill, copy, transpose, ...),
linalg.reduce and linalg.broadcast -- becomes one perfect loop nest over its iteration
space, with

* one loop per iteration dimension, in the op's dimension order d0, d1, ... (MLIR's order:
  the named ops put their reduction dims last, so the parallel dims are outermost; for every
  output element the reduction steps come in the same lexicographic order as in MLIR and in
  our linalg interpreter, so float sums round identically) -- with one change, `loop_order`:
  when the output's innermost (contiguous) dimension is a loop followed only by reduction
  loops, that loop moves innermost. Each output element still sees its reduction steps in
  the same order (only a parallel loop moved), so every result is bit-identical, but the
  innermost loop now walks contiguous outputs independently, which LLVM vectorises: a
  convolution's output channels, a matmul's columns (with HWCF convolution weights, which
  tosa-to-loops asks for, the example model runs natively 5x faster),
* lower bound 0, step 1, the upper bound from the first operand dimension that is indexed by
  that loop alone (a constant for a static size, `memref.dim` otherwise),
* the body's block arguments replaced by a load of each *used* input/output element through
  its indexing map (scalar operands are used as they are), `linalg.index` by the induction
  variable, and `linalg.yield` by a store into each output through its map.

The scf form computes non-trivial subscripts (`d1 * 2 + d4`) with `affine.apply` on the
induction variables that occur in them, as MLIR does; `lower-affine` turns those into arith.
The affine form puts the indexing map straight into `affine.load`/`affine.store` (dropping
the loop dims a map does not use).

xDSL has its own `convert-linalg-to-loops`; this one replaces it because xDSL's handles
neither linalg.reduce nor linalg.broadcast, mutates the op's region while rewriting (a
failure leaves the IR half-lowered), and rejects bad input with a Python exception instead
of a located diagnostic; and xDSL has no affine variant at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    ShapedType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.ir.walk import all_ops
from tosa_xdsl.lowering.to_loops import affine_ops
from tosa_xdsl.lowering.to_loops.nest_fusion import NestFusion, consumer_of, erase_unused, plan, root
from tosa_xdsl.lowering.to_loops.outline_parallel import mark_outer_parallel
from tosa_xdsl.lowering.to_loops.register_tiling import TiledLoop, register_tiled_order

# --------------------------------------------------------------------------- the op's view


@dataclass
class Structured:
    """What a loop nest needs from a structured op: its operands (inputs then outputs),
    one indexing map per operand, the body block (block args: one per operand)."""

    op: Operation
    operands: Sequence[SSAValue]
    num_inputs: int
    maps: Sequence[AffineMap]
    block: Block

    @property
    def num_loops(self) -> int:
        return self.maps[0].num_dims if self.maps else 0


def _identity_without(rank: int, dropped: set[int]) -> AffineMap:
    return AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in dropped))


def structured_view(op: Operation) -> Structured | None:
    """The structured view of a linalg op, or None for an op that is not a structured op
    (linalg.index, linalg.yield)."""
    if isinstance(op, LinalgStructuredOperation):
        maps = [m.data for m in op.get_indexing_maps().data]
        return Structured(op, list(op.operands), len(op.inputs), maps, op.body.block)
    if isinstance(op, linalg.ReduceOp):
        # ins: identity over the input's dims; init: the dims not reduced (MLIR's maps)
        rank = len(op.input.type.get_shape())
        dims = {int(d) for d in op.dimensions.get_values()}
        maps = [AffineMap.identity(rank), _identity_without(rank, dims)]
        return Structured(op, [op.input, op.init], 1, maps, op.region.block)
    if isinstance(op, linalg.BroadcastOp):
        rank = len(op.init.type.get_shape())
        dims = {int(d) for d in op.dimensions.get_values()}
        maps = [_identity_without(rank, dims), AffineMap.identity(rank)]
        return Structured(op, [op.input, op.init], 1, maps, op.hidden_region.block)
    return None


def _check(view: Structured, pass_name: str) -> None:
    op = view.op

    def fail(why: str):
        raise LocatedError(op, f"{pass_name}: cannot lower '{op.name}': {why}")

    if op.results:
        fail("it has tensor results (buffer semantics required: run one-shot-bufferize first)")
    for i, v in enumerate(view.operands):
        t = v.type
        if isinstance(t, ShapedType) and not isinstance(t, MemRefType):
            fail(f"operand #{i} is not a memref ({t}); buffer semantics required")
        if isinstance(t, MemRefType) and len(t.get_shape()) != len(view.maps[i].results):
            fail(f"indexing map #{i} has {len(view.maps[i].results)} results for a rank-"
                 f"{len(t.get_shape())} operand")
    if len(view.maps) != len(view.operands):
        fail(f"{len(view.maps)} indexing maps for {len(view.operands)} operands")
    if any(m.num_symbols for m in view.maps):
        fail("indexing maps with symbols are not supported")
    if any(m.num_dims != view.num_loops for m in view.maps):
        fail("indexing maps disagree on the number of loops")
    if len(view.block.args) != len(view.operands):
        fail(f"its body has {len(view.block.args)} arguments for {len(view.operands)} operands")
    last = view.block.last_op
    if not isinstance(last, linalg.YieldOp) or len(last.operands) != len(view.operands) - view.num_inputs:
        fail("its body must end in a linalg.yield of one value per output")


# --------------------------------------------------------------------------- loop bounds


def _bound_source(view: Structured, dim: int) -> tuple[SSAValue, int, int]:
    """(operand, its dimension, static size or -1): the first operand dimension indexed by
    loop `dim` alone, in operand order (MLIR's shapes-to-loops map takes the first too)."""
    for v, m in zip(view.operands, view.maps):
        t = v.type
        if not isinstance(t, MemRefType):
            continue
        for p, r in enumerate(m.results):
            if isinstance(r, AffineDimExpr) and r.position == dim:
                size = t.get_shape()[p]
                return v, p, (size if size >= 0 else -1)
    raise LocatedError(view.op, f"cannot lower '{view.op.name}': no operand dimension gives the "
                       f"extent of loop d{dim}")


def _index_const(rw: Rewriter, at: InsertPoint, value: int) -> SSAValue:
    c = arith.ConstantOp(IntegerAttr.from_index_int_value(value))
    rw.insert_op(c, at)
    return c.result


def _dim_op(rw: Rewriter, at: InsertPoint, v: SSAValue, p: int) -> SSAValue:
    d = memref.DimOp(v, _index_const(rw, at, p))
    rw.insert_op(d, at)
    return d.result


# --------------------------------------------------------------------------- the two flavours


class _Flavour:
    """How loops and memory accesses are spelled (scf + memref, or affine)."""

    def __init__(self, rw: Rewriter, view: Structured):
        self.rw = rw
        self.view = view

    def loop(self, at: InsertPoint, dim: int) -> tuple[Operation, Block]:
        raise NotImplementedError

    def load(self, at: InsertPoint, v: SSAValue, m: AffineMap, ivs: Sequence[SSAValue]) -> SSAValue:
        raise NotImplementedError

    def store(self, at: InsertPoint, x: SSAValue, v: SSAValue, m: AffineMap, ivs: Sequence[SSAValue]) -> None:
        raise NotImplementedError


class _ScfFlavour(_Flavour):
    def __init__(self, rw: Rewriter, view: Structured, before: InsertPoint):
        super().__init__(rw, view)
        # constants first, then the nest, as MLIR prints it
        consts: dict[int, SSAValue] = {}  # one constant per value (MLIR's canonical form)

        def const(value: int) -> SSAValue:
            if value not in consts:
                consts[value] = _index_const(rw, before, value)
            return consts[value]

        self.zero, self.one = const(0), const(1)
        self.ubs = []
        for d in range(view.num_loops):
            v, p, size = _bound_source(view, d)
            self.ubs.append(const(size) if size >= 0 else _dim_op(rw, before, v, p))

    def loop(self, at, dim):
        body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(self.zero, self.ubs[dim], self.one, [], Region(body))
        self.rw.insert_op(loop, at)
        self.rw.insert_op(scf.YieldOp(), InsertPoint.at_end(body))
        return loop, body

    def _indices(self, at, m: AffineMap, ivs) -> list[SSAValue]:
        out: list[SSAValue] = []
        for r in m.results:
            if isinstance(r, AffineDimExpr):
                out.append(ivs[r.position])
            elif isinstance(r, AffineConstantExpr):
                out.append(_index_const(self.rw, at, r.value))
            else:
                # affine.apply over the loop dims the subscript uses, renumbered from d0
                used = sorted(r.used_dims())
                sub = AffineMap(m.num_dims, 0, (r,)).drop_dims(
                    tuple(d not in used for d in range(m.num_dims)))
                apply = affine.ApplyOp([ivs[d] for d in used], AffineMapAttr(sub))
                self.rw.insert_op(apply, at)
                out.append(apply.result)
        return out

    def load(self, at, v, m, ivs):
        ld = memref.LoadOp.get(v, self._indices(at, m, ivs))
        self.rw.insert_op(ld, at)
        return ld.res

    def store(self, at, x, v, m, ivs):
        self.rw.insert_op(memref.StoreOp.get(x, v, self._indices(at, m, ivs)), at)


class _AffineFlavour(_Flavour):
    def __init__(self, rw: Rewriter, view: Structured, before: InsertPoint):
        super().__init__(rw, view)
        # (bound operands, bound map): a constant, or ()[s0] -> (s0) on memref.dim
        self.ubs: list[tuple[list[SSAValue], AffineMapAttr]] = []
        for d in range(view.num_loops):
            v, p, size = _bound_source(view, d)
            if size >= 0:
                self.ubs.append(([], _constant_map(size)))
            else:
                self.ubs.append(([_dim_op(rw, before, v, p)], AffineMapAttr(AffineMap(0, 1, (AffineExpr.symbol(0),)))))

    def loop(self, at, dim):
        body = Block(arg_types=[IndexType()])
        operands, ub = self.ubs[dim]
        loop = affine_ops.for_op([], operands, _constant_map(0), ub, body)
        self.rw.insert_op(loop, at)
        self.rw.insert_op(affine.YieldOp.get(), InsertPoint.at_end(body))
        return loop, body

    def tiled_loop(self, at, tl: TiledLoop, outer: SSAValue | None, part: int = 0):
        """A step-`tl.step` loop over the whole dim, or the tile [outer, outer + tile) (of a
        split tile: `part` 0 is [outer, outer + split), 1 is [outer + split, outer + tile))."""
        if not tl.tile and tl.step == 1:
            return self.loop(at, tl.dim)
        body = Block(arg_types=[IndexType()])
        if tl.tile:
            assert outer is not None
            lo, hi = (0, tl.tile) if not tl.split else ((0, tl.split) if part == 0 else (tl.split, tl.tile))
            loop = affine_ops.for_op([outer], [outer], _shift_map(lo), _shift_map(hi), body)
        else:
            operands, ub = self.ubs[tl.dim]
            loop = affine_ops.for_op([], operands, _constant_map(0), ub, body, tl.step)
        self.rw.insert_op(loop, at)
        self.rw.insert_op(affine.YieldOp.get(), InsertPoint.at_end(body))
        return loop, body

    @staticmethod
    def _compact(m: AffineMap, ivs) -> tuple[AffineMapAttr, list[SSAValue]]:
        """The map over only the loop dims it uses (as MLIR's canonical form prints it)."""
        cm, used = _compact_map(m)
        return cm, [ivs[d] for d in used]

    def load(self, at, v, m, ivs):
        cm, operands = self._compact(m, ivs)
        ld = affine_ops.load(v, operands, cm)
        self.rw.insert_op(ld, at)
        return ld.result

    def store(self, at, x, v, m, ivs):
        cm, operands = self._compact(m, ivs)
        self.rw.insert_op(affine_ops.store(x, v, operands, cm), at)


# the same few maps again and again (every jammed copy of a body, every nest of a shape):
# made once (compile time, issue 15; AffineMap and its attribute are immutable values)
@lru_cache(maxsize=1024)
def _compact_map(m: AffineMap) -> tuple[AffineMapAttr, tuple[int, ...]]:
    used = sorted(m.used_dims())
    return AffineMapAttr(m.drop_dims(tuple(d not in used for d in range(m.num_dims)))), tuple(used)


@lru_cache(maxsize=256)
def _constant_map(value: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap.constant_map(value))


@lru_cache(maxsize=256)
def _shift_map(k: int) -> AffineMapAttr:
    """(d0) -> (d0 + k)."""
    return AffineMapAttr(AffineMap(1, 0, (AffineExpr.dimension(0) + k,)))


# --------------------------------------------------------------------------- lowering one op


def loop_order(view: Structured) -> list[int]:
    return _order_and_moved(view)[0]


def _order_and_moved(view: Structured) -> tuple[list[int], list[int]]:
    """The loop nest's dims, outermost first: d0, d1, ..., except that the first output's
    innermost (contiguous) index dims -- as few as make more than one element, e.g. a
    convolution's output channels, a depthwise convolution's channels and its multiplier of
    1, a matmul's columns -- move innermost when only reduction loops (dims in no output
    map) follow them. Moving parallel loops never reorders the reduction steps of any one
    output element, so results are bit-identical; see the module docstring."""
    order = list(range(view.num_loops))
    out_maps = view.maps[view.num_inputs:]
    if not out_maps:
        return order, []
    in_outputs = {r.position for m in out_maps for r in m.results if isinstance(r, AffineDimExpr)}
    moved: list[int] = []
    extent = 1
    for r in reversed(out_maps[0].results):
        if not isinstance(r, AffineDimExpr) or extent > 1:
            break
        moved.insert(0, r.position)
        size = _bound_source(view, r.position)[2]
        extent = 2 if size < 0 else extent * size  # a dynamic extent counts as "more than one"
    rest_after = [a for a in order if moved and a > min(moved) and a not in moved]
    if not rest_after or any(a in in_outputs for a in rest_after):
        return order, []
    return [a for a in order if a not in moved] + moved, moved


def _tiled_order(view: Structured) -> list[TiledLoop]:
    """register_tiling's nest where it applies, else loop_order's (one TiledLoop per dim)."""
    order, moved = _order_and_moved(view)
    out_dims = {r.position for m in view.maps[view.num_inputs:] for r in m.results
                if isinstance(r, AffineDimExpr)}
    sizes = [_bound_source(view, d)[2] for d in range(view.num_loops)]
    reduction = set(range(view.num_loops)) - out_dims
    tiled = register_tiled_order(order, sizes, reduction, moved)
    return tiled if tiled is not None else [TiledLoop(d) for d in order]


def _reduction_dims(view: Structured) -> set[int]:
    out_dims = {r.position for m in view.maps[view.num_inputs:] for r in m.results
                if isinstance(r, AffineDimExpr)}
    return set(range(view.num_loops)) - out_dims


def lower_structured(view: Structured, flavour_cls: type[_Flavour], pass_name: str,
                     register_tiling: bool = False, mark_parallel: bool = False,
                     fusion: NestFusion | None = None) -> None:
    """Replace the op of `view` by its loop nest (the op is erased); `register_tiling`
    (affine loops only): register_tiling.py's order; `mark_parallel`: mark the nest's
    outermost parallel loop for outline-parallel-loops (outline_parallel.mark_outer_parallel);
    `fusion` (nest_fusion.plan, for a tiled nest): the init and the elementwise consumer run
    inside it and are erased too."""
    _check(view, pass_name)
    op = view.op
    rw = Rewriter()
    before = InsertPoint.before(op)
    anchor = op.prev_op  # the nest starts after it
    fl = flavour_cls(rw, view, before)  # type: ignore[call-arg]

    ivs_by_dim: dict[int, SSAValue] = {}
    at = before
    jam: TiledLoop | None = None
    nest: list[tuple[Operation, int]] = []  # (loop, its dim), outermost first
    tail: list[TiledLoop] = []  # the loops after the reductions (the block's V tile)
    block_at: InsertPoint | None = None  # in the loop around the reductions, before its yield
    first_reduction: Operation | None = None
    block_ivs: dict[int, SSAValue] = {}  # the ivs around the reductions
    split: tuple[TiledLoop, InsertPoint, dict[int, SSAValue]] | None = None  # the split tile's second part
    scratch: _Scratch | None = None
    if register_tiling and isinstance(fl, _AffineFlavour):
        reductions = _reduction_dims(view)
        tiled = _tiled_order(view)
        original = view
        if fusion is not None and fusion.scratch and not mark_parallel and fusion.init and fusion.epilogue:
            scratch = _Scratch.make(rw, view, tiled, before)
            view = scratch.retarget(view)
            fusion = NestFusion(*(scratch.retarget_fused(f) for f in (fusion.init, fusion.epilogue)), fusion.hoist)
        for tl in tiled:
            if tl.jam:
                jam = tl
                continue
            if tl.split:
                split = (tl, at, dict(ivs_by_dim))
            loop, body = fl.tiled_loop(at, tl, ivs_by_dim.get(tl.dim))
            nest.append((loop, tl.dim))
            if tl.dim in reductions and first_reduction is None:
                first_reduction, block_at, block_ivs = loop, at, dict(ivs_by_dim)
            elif first_reduction is not None and tl.dim not in reductions:
                tail.append(tl)
            ivs_by_dim[tl.dim] = body.args[0]
            at = InsertPoint.before(body.last_op)
    else:
        for d in loop_order(view):
            loop, body = fl.loop(at, d)
            nest.append((loop, d))
            ivs_by_dim[d] = body.args[0]
            at = InsertPoint.before(body.last_op)  # before the loop's yield
    if mark_parallel:
        mark_outer_parallel(nest, view.maps[view.num_inputs:])
    if scratch is not None:  # the block's base indices, as the extra dims of the retargeted maps
        for ivs in (ivs_by_dim, block_ivs):
            scratch.bind(ivs, block_ivs)
    # a rank-0 op (all operands scalars or 0-d memrefs) has no loop: the body goes in place
    _emit_jammed(rw, fl, view, at, ivs_by_dim, jam, pass_name)
    if split is not None:  # the rest of a split V tile: a sibling loop after the first, same body
        tl, split_at, outer_ivs = split
        assert isinstance(fl, _AffineFlavour) and tl == _tiled_order(original)[-1 - (jam is not None)]
        _, body = fl.tiled_loop(split_at, tl, outer_ivs.get(tl.dim), part=1)
        if scratch is not None:
            scratch.bind(outer_ivs, block_ivs)
        _emit_jammed(rw, fl, view, InsertPoint.before(body.last_op), {**outer_ivs, tl.dim: body.args[0]}, jam,
                     pass_name)
    if fusion is not None and first_reduction is not None and block_at is not None:
        nest_start = anchor.next_op if anchor is not None else op.parent_block().first_op  # pyright: ignore
        assert nest_start is not None
        for hoisted in fusion.hoist:  # G's buffers and views, defined after the reduction
            hoisted.detach()
            rw.insert_op(hoisted, InsertPoint.before(nest_start))
        for fused, where in ((fusion.init, InsertPoint.before(first_reduction)), (fusion.epilogue, block_at)):
            if fused is None:
                continue
            fused_view = Structured(fused.op, fused.operands, fused.num_inputs, fused.maps, fused.block)
            inner, ivs = where, dict(block_ivs)
            # the block as a loop nest (U rows, then the V tile and size-1 dims) around one copy
            # of the fused body: not jammed, it needs no registers across loops, and one copy
            # keeps the LLVM IR (and compile time) small
            rows = [TiledLoop(jam.dim, tile=jam.tile)] if jam is not None else []
            for tl in rows + [TiledLoop(t.dim, t.step, t.tile) for t in tail]:  # a split tile whole
                _, body = fl.tiled_loop(inner, tl, ivs.get(tl.dim))
                ivs[tl.dim] = body.args[0]
                inner = InsertPoint.before(body.last_op)
            _emit_jammed(rw, fl, fused_view, inner, ivs, None, pass_name)
            rw.erase_op(fused.op)
    rw.erase_op(op)
    if scratch is not None:
        erase_unused(root(scratch.out))


@dataclass
class _Scratch:
    """A fused nest's output block in a small buffer (nest_fusion's `scratch`): O's elements
    are initialised, reduced and read by the epilogue within one TU x TV block, so the block
    lives in a `memref.alloca` of the tiles' shape (1 in O's other dims) indexed by the
    element's offset in the block, `d - base` (the base: the tile's outer loop's iv, an extra
    dim of every map), and O's allocation goes. outline-loop-nests moves the alloca into the
    nest's function and codegen/llvm.py's passes after -O forward it into registers, so the
    block starts in registers and each output element is stored once, by the epilogue."""

    out: SSAValue
    buffer: SSAValue
    num_dims: int
    block_dims: list[int]  # the tiled dims, in the order of their extra map dims
    out_map: AffineMap

    @staticmethod
    def make(rw: Rewriter, view: Structured, tiled: list[TiledLoop], before: InsertPoint) -> _Scratch:
        tiles = {tl.dim: tl.tile for tl in tiled if tl.tile}
        block_dims = sorted(tiles)
        out, out_map = view.operands[-1], view.maps[-1]
        n = view.num_loops
        shape, results = [], []
        for r in out_map.results:
            assert isinstance(r, AffineDimExpr)
            if r.position in tiles:
                shape.append(tiles[r.position])
                results.append(r - AffineExpr.dimension(n + block_dims.index(r.position)))
            else:
                shape.append(1)
                results.append(AffineExpr.constant(0))
        assert isinstance(out.type, MemRefType)
        alloca = memref.AllocaOp.get(out.type.element_type, shape=shape)
        rw.insert_op(alloca, before)
        return _Scratch(out, alloca.memref, n, block_dims,
                        AffineMap(n + len(block_dims), 0, tuple(results)))

    def _widen(self, m: AffineMap) -> AffineMap:
        return AffineMap(self.num_dims + len(self.block_dims), m.num_symbols, m.results)

    def retarget(self, view: Structured) -> Structured:
        operands = [self.buffer if v is self.out else v for v in view.operands]
        maps = [self.out_map if v is self.out else self._widen(m) for v, m in zip(view.operands, view.maps)]
        return Structured(view.op, operands, view.num_inputs, maps, view.block)

    def retarget_fused(self, f):
        view = self.retarget(Structured(f.op, f.operands, f.num_inputs, f.maps, f.block))
        return type(f)(f.op, list(view.operands), f.num_inputs, list(view.maps), f.block)

    def bind(self, ivs: dict[int, SSAValue], block_ivs: dict[int, SSAValue]) -> None:
        for k, d in enumerate(self.block_dims):
            ivs[self.num_dims + k] = block_ivs[d]


def _emit_jammed(rw: Rewriter, fl: _Flavour, view: Structured, at: InsertPoint, ivs_by_dim: dict[int, SSAValue],
                 jam: TiledLoop | None, pass_name: str) -> None:
    """The body once, or `jam.tile` times at the jammed dim's iv + 0, 1, ... (dims no loop
    of this point binds -- a fused op's reductions -- are never used by its maps)."""
    if jam is None:
        _emit_body(rw, fl, view, at, [ivs_by_dim.get(d) for d in range(view.num_loops)], pass_name)
        return
    outer = ivs_by_dim[jam.dim]
    for k in range(jam.tile):
        shifted = affine_ops.apply([outer], _shift_map(k))
        rw.insert_op(shifted, at)
        ivs = [shifted.result if d == jam.dim else ivs_by_dim.get(d) for d in range(view.num_loops)]
        _emit_body(rw, fl, view, at, ivs, pass_name)


def _emit_body(rw: Rewriter, fl: _Flavour, view: Structured, at: InsertPoint, ivs: list[SSAValue | None],
               pass_name: str) -> None:
    """The op's body at `at` for one point `ivs` of the iteration space: loads, the cloned
    body ops, stores."""
    op = view.op
    # block arguments -> loaded elements (only those the body uses) or scalar operands
    mapping: dict[SSAValue, SSAValue] = {}
    for arg, v, m in zip(view.block.args, view.operands, view.maps):
        if not arg.uses:
            continue
        mapping[arg] = fl.load(at, v, m, ivs) if isinstance(v.type, MemRefType) else v

    yield_op = view.block.last_op
    assert yield_op is not None
    for body_op in view.block.ops:
        if body_op is yield_op:
            break
        if isinstance(body_op, linalg.IndexOp):
            mapping[body_op.result] = ivs[body_op.dim.value.data]
            continue
        # linalg.index only appears directly in the body (its verifier, as MLIR's, requires
        # the linalg op as parent), so the mapping above covers every use inside regions too
        rw.insert_op(body_op.clone(value_mapper=mapping), at)
    outputs = view.operands[view.num_inputs:]
    out_maps = view.maps[view.num_inputs:]
    for x, v, m in zip(yield_op.operands, outputs, out_maps):
        x = mapping.get(x, x)
        if not isinstance(v.type, MemRefType):
            raise LocatedError(op, f"{pass_name}: cannot lower '{op.name}': output is not a memref")
        fl.store(at, x, v, m, ivs)


def _fusions(views: list[Structured]) -> dict[Operation, NestFusion]:
    """nest_fusion's plan for every reduction that gets a register-tiled nest: its init is the
    structured op just before it, its consumer nest_fusion.consumer_of's (each fused at most
    once)."""
    out: dict[Operation, NestFusion] = {}
    claimed: set[Operation] = set()
    by_op = {view.op: view for view in views}
    for k, view in enumerate(views):
        if view.op in claimed or all(tl.step == 1 and not tl.tile for tl in _tiled_order(view)):
            continue
        before = views[k - 1] if k > 0 and views[k - 1].op not in claimed else None
        consumer = consumer_of(view)
        after = by_op.get(consumer) if consumer is not None and consumer not in claimed else None
        fusion = plan(view, view.maps[view.num_inputs], before, after)
        fused = [f.op for f in (fusion.init, fusion.epilogue) if f is not None]
        if fused:
            out[view.op] = fusion
            claimed.update(fused)
            claimed.add(view.op)
    return out


def _lower_module(module: ModuleOp, flavour_cls: type[_Flavour], pass_name: str,
                  register_tiling: bool = False, mark_parallel: bool = False, fuse: bool = False) -> None:
    # collect first, rewrite after: the rewrite inserts ops next to the one it replaces
    views: list[Structured] = []
    for op in all_ops(module):
        if op.dialect_name() != "linalg":
            continue
        view = structured_view(op)
        if view is not None:
            views.append(view)
        elif not isinstance(op, (linalg.IndexOp, linalg.YieldOp)):
            raise LocatedError(op, f"{pass_name}: cannot lower '{op.name}': not a structured op")
    for view in views:
        _check(view, pass_name)  # all or nothing: check every op before touching any
    fusions = _fusions(views) if fuse and register_tiling and flavour_cls is _AffineFlavour else {}
    fused = {f.op for n in fusions.values() for f in (n.init, n.epilogue) if f is not None}
    for view in views:
        if view.op not in fused:  # a fused op is lowered (and erased) with its reduction
            lower_structured(view, flavour_cls, pass_name, register_tiling, mark_parallel, fusions.get(view.op))


@dataclass(frozen=True)
class ConvertLinalgToLoopsPass(ModulePass):
    """linalg structured ops on memrefs -> scf.for nests with memref.load/store."""

    name = "convert-linalg-to-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _lower_module(op, _ScfFlavour, self.name)


@dataclass(frozen=True)
class ConvertLinalgToAffineLoopsPass(ModulePass):
    """linalg structured ops on memrefs -> affine.for nests with affine.load/store."""

    name = "convert-linalg-to-affine-loops"

    # ours, not upstream's: register_tiling.py's loop order for reductions (tosa-to-loops sets it)
    register_tiling: bool = False
    # ours: mark each nest's outermost parallel loop for outline-parallel-loops (--threads N)
    mark_parallel: bool = False
    # ours: with register tiling, a reduction's init and elementwise consumer run inside its nest
    # (nest_fusion.py; tosa-to-loops sets it unless mark-parallel, docs/native.md)
    fuse_init_and_epilogue: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _lower_module(op, _AffineFlavour, self.name, self.register_tiling, self.mark_parallel,
                      self.fuse_init_and_epilogue)


_ = Callable
