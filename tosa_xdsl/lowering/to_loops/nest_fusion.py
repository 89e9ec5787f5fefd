"""Fusing a register-tiled reduction's initialisation and its elementwise consumer into its
loop nest: `convert-linalg-to-affine-loops{register-tiling=true fuse-init-and-epilogue=true}`
(tosa-to-loops sets it, except with mark-parallel; docs/native.md).

After bufferization a convolution or matmul is three loop nests over its output O: an init
(`linalg.fill` of 0, or a generic broadcasting the bias into O), the reduction, and an
elementwise generic G reading O (bias add, clamp, residual add; often through a
memref.collapse_shape/expand_shape of O) into a new buffer. Each is a full pass over O. In the
register-tiled nest (register_tiling.py)

    P..., U step TU, V step TV, { init block } R..., { epilogue block }

a TU x TV block of O is final once the reduction loops R... finish, so the init runs on the
block just before them and G's body just after them, while the block is still in registers:

    P..., U step TU, V step TV {
      V in [v, v+TV) { init at u..u+TU-1 }          -- the fill / bias broadcast
      R... { V in [v, v+TV) { reduction body } }
      V in [v, v+TV) { G's body at u..u+TU-1 }      -- loads O, stores G's outputs
    }

and the init and G are erased. Why the results are unchanged: every element of O is initialised
before its reduction steps and read by G after its last one, exactly as before; G is elementwise
(all loops parallel, no linalg.index), so evaluating it element by element in another order
gives the same values, provided nothing it reads is written by the nest in between and nothing
it writes is read by the nest (`plan` checks both through the buffers' roots: allocation, view
chains). Ops between the init and the reduction may only be allocations, constants, global
addresses and reshapes; between the reduction and G also subviews, scalar loads, copies and
fills (a residual operand's pad), or store nests (linalg-fill-pad-border's border fill of a pad)
that touch none of the nest's buffers, which are moved before the nest, and deallocations of buffers G does not use, which stay after it.

G's iteration space may be a reshape of O (a matmul's 1x12544x32 output read as 1x112x112x32):
`reshape_correspondence` writes each of G's dims as an affine function of O's indices (a merge
of dims is `i * 112 + j`, a split `(i floordiv 112) mod 112`), so G's other operands are read at
the right elements; the divisions depend on the row only and LLVM hoists them out of the
vectorised loop.

The scratch block (`scratch_ok`, built by linalg_to_loops._Scratch): when O is a fresh
allocation that only the fused ops use, its elements never outlive their block, so the nest
keeps the block in a `memref.alloca` of the tile's shape, indexed by the offset in the block,
and O's allocation is erased. Fused through O itself, the block still went to O's memory
between the reduction and the epilogue (the stored block was read back), and O's pass through
the cache remained: measured slower than the separate nests. With the scratch block,
outline-loop-nests moves the alloca into the nest's function, and after LLVM's -O pipeline
(whose late LICM keeps the block in registers across the reduction) SROA/NewGVN/DSE
(codegen/llvm.py) forward its stores to its loads: the block starts in registers (zeros, or the
bias) and each output element is stored once, by the epilogue. The values and their order are
those of the separate nests (only memory operations go), so results stay bit-identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

_RESHAPES = (memref.CollapseShapeOp, memref.ExpandShapeOp)
_VIEWS = (*_RESHAPES, memref.SubviewOp, memref.CastOp, memref.ReinterpretCastOp)
# ops that may sit between the init and the reduction: they touch no element
_NEUTRAL = (arith.ConstantOp, memref.GetGlobalOp, memref.AllocOp, *_RESHAPES)
# ops that may sit between the reduction and the consumer, moved before the nest when they touch
# none of its buffers (a residual's pad: alloc, fill, copy into a subview; also a store nest, _movable)
_MOVABLE = (*_NEUTRAL, memref.SubviewOp, memref.LoadOp, memref.CopyOp, linalg.FillOp)


@dataclass
class Fused:
    """An op to run inside the nest: its operands and, per operand, the map from the
    reduction's loop dims to the operand's indices."""

    op: Operation
    operands: list[SSAValue]
    num_inputs: int
    maps: list[AffineMap]
    block: Block


@dataclass
class NestFusion:
    init: Fused | None
    epilogue: Fused | None
    hoist: list[Operation]  # defined between the reduction and G, used by G: moved before the nest
    # init and G both fused and O used by nothing else: O's elements live only in the block, so
    # the nest keeps the block in a TU x TV scratch buffer instead (`scratch_ok`)
    scratch: bool = False


def root(v: SSAValue) -> SSAValue:
    """The buffer a memref value views (through reshapes, subviews, casts)."""
    while isinstance(v.owner, _VIEWS):
        v = v.owner.operands[0]
    return v


def _contiguous(t) -> bool:
    return (isinstance(t, MemRefType) and isinstance(t.layout, NoneAttr)
            and all(d >= 0 for d in t.get_shape()))


def _strides(shape: Sequence[int]) -> list[int]:
    out, s = [], 1
    for d in reversed(shape):
        out.insert(0, s)
        s *= d
    return out


def reshape_correspondence(src: Sequence[int], dst: Sequence[int]) -> list[AffineExpr] | None:
    """Each index of a contiguous `dst`-shaped view of a contiguous `src`-shaped buffer as an
    affine function of the `src` indices (d0, d1, ...), or None when a `dst` dim straddles
    `src` dims without nesting in them or covering them whole."""
    import math

    if math.prod(src) != math.prod(dst):
        return None
    s_str, d_str = _strides(src), _strides(dst)
    big = [i for i, n in enumerate(src) if n > 1]
    out: list[AffineExpr] = []
    for j, n in enumerate(dst):
        if n == 1:
            out.append(AffineExpr.constant(0))
            continue
        lo, hi = d_str[j], d_str[j] * n  # the dst dim covers the linear strides [lo, hi)
        inside = [i for i in big if lo <= s_str[i] and s_str[i] * src[i] <= hi]
        if inside and min(s_str[i] for i in inside) == lo and math.prod(src[i] for i in inside) == n:
            expr: AffineExpr = AffineExpr.constant(0)
            for i in inside:  # a merge of whole src dims (or one equal dim)
                expr = expr + AffineExpr.dimension(i) * (s_str[i] // lo)
            out.append(expr)
            continue
        around = [i for i in big if s_str[i] <= lo and hi <= s_str[i] * src[i]
                  and lo % s_str[i] == 0 and (s_str[i] * src[i]) % hi == 0]
        if len(around) != 1:
            return None
        i = around[0]
        expr = AffineExpr.dimension(i)  # a split of one src dim
        if lo != s_str[i]:
            expr = expr // (lo // s_str[i])
        if hi != s_str[i] * src[i]:
            expr = expr % n
        out.append(expr)
    return out


def _all_parallel_elementwise(op: Operation) -> bool:
    iterators = getattr(op, "iterator_types", None)
    if isinstance(op, linalg.FillOp):
        return True
    if not isinstance(op, linalg.GenericOp) or iterators is None:
        return False
    from xdsl.dialects.linalg.attrs import IteratorType

    if any(t.data != IteratorType.PARALLEL for t in iterators.data):
        return False
    return not any(isinstance(o, linalg.IndexOp) for o in op.body.walk())


def _identity(m: AffineMap) -> bool:
    return m == AffineMap.identity(m.num_dims) and len(m.results) == m.num_dims


def _between(first: Operation, last: Operation) -> list[Operation] | None:
    """The ops strictly between `first` and `last` in one block, None if not in one block."""
    if first.parent_block() is None or first.parent_block() is not last.parent_block():
        return None
    out, op = [], first.next_op
    while op is not None and op is not last:
        out.append(op)
        op = op.next_op
    return out if op is last else None


def _buffers(values) -> set[SSAValue]:
    return {root(v) for v in values if isinstance(v.type, MemRefType)}


# the ops of a plain store nest: linalg-fill-pad-border's fill of a pad's border
_STORE_NEST_OPS = (scf.ForOp, scf.IfOp, scf.YieldOp, arith.ConstantOp, arith.CmpiOp, arith.AndIOp, arith.AddiOp,
                   arith.MuliOp, arith.SelectOp, memref.StoreOp)


def _movable(op: Operation) -> bool:
    return isinstance(op, _MOVABLE) or _is_store_nest(op)


def _is_store_nest(op: Operation) -> bool:
    return isinstance(op, scf.ForOp) and not op.results and all(isinstance(o, _STORE_NEST_OPS) for o in op.walk())


def _touched(op: Operation) -> set[SSAValue]:
    """The buffers `op` reads or writes (a store nest's: those it stores into)."""
    if _is_store_nest(op):
        return _buffers(o.memref for o in op.walk() if isinstance(o, memref.StoreOp))
    return _buffers(op.operands)


def consumer_of(reduction) -> Operation | None:
    """The first linalg.generic after the reduction in its block that uses its output's buffer,
    when only movable ops (`_movable`) and deallocations come before it."""
    o_root = root(reduction.operands[-1])
    op = reduction.op.next_op
    while op is not None:
        if isinstance(op, linalg.GenericOp):
            return op if o_root in _buffers(op.operands) else None
        if not (_movable(op) or isinstance(op, memref.DeallocOp)):
            return None
        op = op.next_op
    return None


def plan(reduction, out_map: AffineMap, init, consumer) -> NestFusion:
    """What of `init` (the structured view just before the reduction, or None) and `consumer`
    (consumer_of's, or None) fuses into the reduction's tiled nest; views are linalg_to_loops'
    Structured. `out_map`: the reduction's output map (loop dims -> output indices)."""
    none = NestFusion(None, None, [])
    outputs = reduction.operands[reduction.num_inputs:]
    if len(outputs) != 1 or not _contiguous(outputs[0].type):
        return none
    if not all(isinstance(r, AffineDimExpr) for r in out_map.results):
        return none
    out = outputs[0]
    read = _buffers(reduction.operands[:reduction.num_inputs])
    if root(out) in read:
        return none
    result = NestFusion(_plan_init(reduction, out, out_map, init, read), None, [])
    if consumer is not None:
        fused = _plan_epilogue(reduction, out, out_map, consumer, read | (
            _buffers(init.operands[:init.num_inputs]) if result.init else set()))
        if fused is not None:
            result.epilogue, result.hoist = fused
    # the scratch block only in a function's own block: inside a loop's region (a WHILE_LOOP
    # body) each iteration would grow the stack by another alloca
    if result.init is not None and result.epilogue is not None and isinstance(reduction.op.parent_op(), func.FuncOp):
        result.scratch = scratch_ok(out, {reduction.op, result.init.op, result.epilogue.op})
    return result


def scratch_ok(out: SSAValue, fused: set[Operation]) -> bool:
    """O is a fresh allocation that only the fused ops use (through views), besides its
    deallocation: once they run inside the nest no element of O outlives its block."""
    alloc = root(out).owner
    if not isinstance(alloc, memref.AllocOp):
        return False
    pending = [alloc.memref]
    while pending:
        v = pending.pop()
        for use in v.uses:
            user = use.operation
            if isinstance(user, _VIEWS):
                pending.append(user.results[0])
            elif user not in fused and not isinstance(user, memref.DeallocOp):
                return False
    return True


def erase_unused(alloc_value: SSAValue) -> None:
    """Erase an allocation left with only views and deallocations (scratch_ok's O after the
    nest took over its elements)."""
    users = []
    pending = [alloc_value]
    while pending:
        v = pending.pop()
        for use in v.uses:
            users.append(use.operation)
            if isinstance(use.operation, _VIEWS):
                pending.append(use.operation.results[0])
    for user in reversed(users):  # views of views first
        if user.parent is not None:
            user.detach()
            user.erase(safe_erase=False)
    owner = alloc_value.owner
    owner.detach()
    owner.erase()


def _plan_init(reduction, out: SSAValue, out_map: AffineMap, init, read) -> Fused | None:
    if init is None or not _all_parallel_elementwise(init.op):
        return None
    between = _between(init.op, reduction.op)
    if between is None or not all(isinstance(o, _NEUTRAL) for o in between):
        return None
    outs = init.operands[init.num_inputs:]
    if len(outs) != 1 or outs[0] is not out or not _identity(init.maps[-1]):
        return None
    if root(out) in _buffers(init.operands[:init.num_inputs]):
        return None
    # the init body must not read O itself (it would see a partially reduced block)
    if init.block.args[-1].first_use is not None:
        return None
    return Fused(init.op, list(init.operands), init.num_inputs, [m.compose(out_map) for m in init.maps], init.block)


def _plan_epilogue(reduction, out: SSAValue, out_map: AffineMap, g, read) -> tuple[Fused, list[Operation]] | None:
    if not isinstance(g.op, linalg.GenericOp) or not _all_parallel_elementwise(g.op):
        return None
    between = _between(reduction.op, g.op)
    if between is None:
        return None
    used_by_g = _buffers(g.operands)
    o_root = root(out)
    nest_buffers = read | {o_root}
    for o in between:
        if isinstance(o, memref.DeallocOp):
            if root(o.memref) in used_by_g:
                return None
        elif not _movable(o) or (not isinstance(o, _RESHAPES) and _touched(o) & nest_buffers):
            return None  # moved before the nest, it must touch none of the nest's buffers
    # G's operands that are O (or reshapes of O): read/written at the same element
    on_o = [k for k, v in enumerate(g.operands) if isinstance(v.type, MemRefType) and root(v) is o_root]
    if not on_o or not any(k < g.num_inputs for k in on_o):
        return None
    view = g.operands[on_o[0]]
    for k in on_o:
        v = g.operands[k]
        if not _identity(g.maps[k]) or v.type != view.type or not _reshapes_of(v, out):
            return None
    written = _buffers(g.operands[g.num_inputs:]) - {o_root}
    if written & read or written & (_buffers(g.operands[:g.num_inputs]) - {o_root}):
        return None
    if any(not _identity(g.maps[k]) for k in range(g.num_inputs, len(g.operands))):
        return None
    corr = reshape_correspondence(out.type.get_shape(), view.type.get_shape())
    if corr is None:
        return None
    to_g = AffineMap(len(out_map.results), 0, tuple(corr)).compose(out_map)  # nest dims -> G dims
    operands, maps = [], []
    for k, (v, m) in enumerate(zip(g.operands, g.maps)):
        if k in on_o:
            operands.append(out)
            maps.append(out_map)
        else:
            operands.append(v)
            maps.append(m.compose(to_g))
    hoist = [o for o in between if not isinstance(o, memref.DeallocOp)]
    return Fused(g.op, operands, g.num_inputs, maps, g.block), hoist


def _reshapes_of(v: SSAValue, out: SSAValue) -> bool:
    """`v` is `out` or a chain of collapse/expand_shape of it, all contiguous."""
    while v is not out:
        if not isinstance(v.owner, _RESHAPES) or not _contiguous(v.type):
            return False
        v = v.owner.operands[0]
    return True

