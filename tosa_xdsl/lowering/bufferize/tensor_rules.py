"""The tensor-dialect rules of one-shot-bufferize.

* tensor.empty: no buffer of its own; each use as a destination gets a fresh alloc;
* extract / insert -> memref.load / memref.store (insert into its destination buffer);
* extract_slice -> `memref.subview` (a view), insert_slice -> subview of the destination +
  copy, pad -> alloc + `linalg.fill` + copy into the interior subview;
* collapse_shape / expand_shape / rank-0 reshape / cast -> the memref views (of a
  contiguous copy when the source is a strided view);
* concat -> alloc + copies into subviews, from_elements -> alloc + stores, splat -> alloc +
  `linalg.fill`, dim -> an index constant (static dims) or `memref.dim` of the buffer (dynamic dims);
  a dynamic tensor.empty's sizes become the sizes of the allocs made for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    StridedLayoutAttr,
    TensorType,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue

from tosa_xdsl.lowering.bufferize.common import buffer_type, fail, is_identity
from tosa_xdsl.lowering.bufferize.in_place import Root

if TYPE_CHECKING:
    from tosa_xdsl.lowering.bufferize.converter import Converter


def _strides_offset(t: MemRefType) -> tuple[list[int], int]:
    """Strides and offset of a memref type (identity layout: row major, offset 0)."""
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = [int(s.data) for s in layout.strides.data]  # type: ignore[union-attr]
        off = layout.offset
        return strides, int(off.data)  # type: ignore[union-attr]
    shape = list(t.get_shape())
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    return strides, 0


def _index_const(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _empty(c: Converter, op: tensor.EmptyOp) -> None:
    c.roots[op.tensor] = Root(writable=True, scope=op.parent_block(), empty=True)


def _extract(c: Converter, op: tensor.ExtractOp) -> None:
    load = c.emit(memref.LoadOp.get(c.buf(op.tensor), [c.vmap[i] for i in op.indices]))
    c.vmap[op.result] = load.results[0]


def _insert(c: Converter, op: tensor.InsertOp) -> None:
    target, root = c.dest(op.dest, op, 1, reads=True)
    c.emit(memref.StoreOp.get(c.vmap[op.scalar], target, [c.vmap[i] for i in op.indices]))
    c.vmap[op.result] = target
    c.bind(op.result, root)


# ------------------------------------------------------------------------------ slices, pad


def _static_list(op: Operation, dynamic, static: DenseArrayBase, what: str) -> list[int]:
    if len(dynamic):
        raise fail(op, f"dynamic {what} are not supported (static shapes are required)")
    return [int(v) for v in static.get_values()]


def _subview(c: Converter, op: Operation, base: SSAValue, offsets: list[int], sizes: list[int],
             strides: list[int], result_shape: list[int], dynamic_sizes: Sequence[SSAValue] = ()) -> SSAValue:
    """memref.subview of `base`, rank-reduced to `result_shape` (unit dims dropped). A
    dynamic size (-1 in `sizes` and `result_shape`) takes the next of `dynamic_sizes`; the
    strides must stay static (only leading dims of `base` may be dynamic)."""
    bt = base.type
    assert isinstance(bt, MemRefType)
    if any(int(d) < 0 for d in bt.get_shape()) or any(d < 0 for d in sizes):
        return _dynamic_subview(c, op, base, offsets, sizes, strides, dynamic_sizes)
    bstrides, boff = _strides_offset(bt)
    offset = boff + sum(o * s for o, s in zip(offsets, bstrides))
    full = [s * k for s, k in zip(bstrides, strides)]
    if len(result_shape) != len(sizes):  # rank-reducing: keep the dims the result keeps
        kept, j = [], 0
        for d, n in enumerate(sizes):
            if j < len(result_shape) and result_shape[j] == n and (n != 1 or len(sizes) - d - 1 < len(result_shape) - j):
                kept.append(d)
                j += 1
            elif n != 1:
                raise fail(op, "cannot match the rank-reduced result shape")
        if j != len(result_shape):
            raise fail(op, "cannot match the rank-reduced result shape")
        full = [full[d] for d in kept]
    layout = StridedLayoutAttr(full, offset)
    rt = MemRefType(bt.element_type, result_shape, layout)
    sv = c.emit(memref.SubviewOp(base, [], [], [], offsets, sizes, strides, rt))
    return sv.results[0]


def _dynamic_subview(c: Converter, op: Operation, base: SSAValue, offsets: list[int], sizes: list[int],
                     strides: list[int], dynamic_sizes: Sequence[SSAValue],
                     dynamic_offsets: Sequence[SSAValue] = ()) -> SSAValue:
    """A subview with dynamic sizes of an identity-layout buffer whose dynamic dims leave
    every stride static (a dynamic batch: strides are products of the inner, static dims)."""
    bt = base.type
    assert isinstance(bt, MemRefType)
    shape = [int(d) for d in bt.get_shape()]
    if not is_identity(bt) or len(sizes) != len(shape):
        raise fail(op, f"a slice of the dynamically shaped {bt} (non-identity layout or rank-reducing) "
                       "is not supported")
    bstrides, acc = [], 1
    for d in reversed(shape):
        bstrides.insert(0, acc)
        acc = acc * d if acc is not None and d >= 0 else None
    if any(st is None for st in bstrides):
        raise fail(op, f"a slice of {bt} would have dynamic strides (only the outermost dims may be dynamic)")
    dynamic_offset = any(o == DYNAMIC_INDEX for o in offsets)
    offset = None if dynamic_offset else sum(o * st for o, st in zip(offsets, bstrides))
    full = [st * k for st, k in zip(bstrides, strides)]
    rt = MemRefType(bt.element_type, [d if d >= 0 else DYNAMIC_INDEX for d in sizes], StridedLayoutAttr(full, offset))
    sv = c.emit(memref.SubviewOp(base, list(dynamic_offsets), list(dynamic_sizes), [], offsets,
                                 [d if d >= 0 else DYNAMIC_INDEX for d in sizes], strides, rt))
    return sv.results[0]


def _extract_slice(c: Converter, op: tensor.ExtractSliceOp) -> None:
    offsets = _static_list(op, op.offsets, op.static_offsets, "offsets")
    strides = _static_list(op, op.strides, op.static_strides, "strides")
    if len(op.sizes):
        # dynamic sizes with static offsets and strides (a data-dependent extent cut from its
        # upper-bound buffer, NNEF's layout.nonzero): a subview with dynamic sizes
        sizes = [int(v) if v != DYNAMIC_INDEX else -1 for v in op.static_sizes.get_values()]
        view = _dynamic_subview(c, op, c.buf(op.source), offsets, sizes, strides, [c.vmap[v] for v in op.sizes])
        c.vmap[op.result] = view
        c.bind(op.result, c.roots[op.source])
        return
    sizes = _static_list(op, op.sizes, op.static_sizes, "sizes")
    src = op.source
    r = c.roots.get(src)
    if r is not None and r.empty:  # a slice of undefined contents: a buffer to view
        base = c.alloc(src.type)  # type: ignore[arg-type]
        c.vmap[src] = base
        r.empty = False
        r.scope = op.parent_block()
    view = _subview(c, op, c.vmap[src], offsets, sizes, strides, list(op.result.type.get_shape()))
    c.vmap[op.result] = view
    c.bind(op.result, c.roots[src])


def _insert_slice(c: Converter, op: tensor.InsertSliceOp) -> None:
    if len(op.offsets) or len(op.sizes):
        # dynamic offsets/sizes (a concat of dynamic dims): a dynamic subview + copy
        strides = _static_list(op, op.strides, op.static_strides, "strides")
        target, root = c.dest(op.dest, op, 1, reads=True)
        view = _dynamic_subview(c, op, target, [int(v) for v in op.static_offsets.get_values()],
                                [int(v) if v != DYNAMIC_INDEX else -1 for v in op.static_sizes.get_values()],
                                strides, [c.vmap[v] for v in op.sizes], [c.vmap[v] for v in op.offsets])
        c.copy(c.buf(op.source), view)
        c.vmap[op.result] = target
        c.bind(op.result, root)
        return
    offsets = _static_list(op, op.offsets, op.static_offsets, "offsets")
    sizes = _static_list(op, op.sizes, op.static_sizes, "sizes")
    strides = _static_list(op, op.strides, op.static_strides, "strides")
    target, root = c.dest(op.dest, op, 1, reads=True)
    view = _subview(c, op, target, offsets, sizes, strides, list(op.source.type.get_shape()))
    c.copy(c.buf(op.source), view)
    c.vmap[op.result] = target
    c.bind(op.result, root)


def _pad(c: Converter, op: tensor.PadOp) -> None:
    low = _static_list(op, op.low, op.static_low, "low paddings")
    high = _static_list(op, op.high, op.static_high, "high paddings")
    if any(v < 0 for v in (*low, *high)):
        raise fail(op, "negative padding is not supported")
    block = op.region.block
    if any(a.uses for a in block.args):
        raise fail(op, "the padding value depends on the index (only a uniform value is supported)")
    term = block.last_op
    assert term is not None
    for o in block.ops:  # the padding value's computation (constants), once
        if o is not term:
            c.convert_op(o)
    value = c.vmap.get(term.operands[0], term.operands[0])
    src_shape = [int(d) if int(d) >= 0 else -1 for d in op.source.type.get_shape()]
    src_sizes: list[SSAValue] = []
    if -1 in src_shape:
        # a dynamic dim: the source's memref.dim, the result's = it + low + high
        src_buf = c.buf(op.source)
        out_sizes = []
        for d, n in enumerate(src_shape):
            if n >= 0:
                continue
            i = c.emit(_index_const(d)).results[0]
            size = c.emit(memref.DimOp.from_source_and_index(src_buf, i)).results[0]
            src_sizes.append(size)
            grow = c.emit(_index_const(low[d] + high[d])).results[0]
            out_sizes.append(c.emit(arith.AddiOp(size, grow)).results[0])
        out = c.emit(memref.AllocOp(out_sizes, [], buffer_type(op.result.type))).results[0]  # type: ignore[arg-type]
    else:
        out = c.alloc(op.result.type)  # type: ignore[arg-type]
    c.emit(linalg.FillOp([value], [out], res=()))
    if -1 in src_shape[1:]:
        # an inner dynamic dim: the interior view would have run-time strides, which the
        # buffer types here cannot describe (static strides only): copy with a loop nest
        _copy_at_offset(c, c.buf(op.source), out, low, src_shape, src_sizes)
    else:
        view = _subview(c, op, out, low, src_shape, [1] * len(low), src_shape, src_sizes)
        c.copy(c.buf(op.source), view)
    c.vmap[op.result] = out
    c.fresh_root(op.parent_block(), op.result)


def _copy_at_offset(c: Converter, src: SSAValue, out: SSAValue, low: Sequence[int], src_shape: Sequence[int],
                    src_sizes: Sequence[SSAValue]) -> None:
    """out[i + low] = src[i] for every index i of `src` (sizes: static, or `src_sizes` in order
    for the dynamic dims): an scf.for nest of memref.load / memref.store."""
    dyn = iter(src_sizes)
    zero = c.emit(_index_const(0)).results[0]
    one = c.emit(_index_const(1)).results[0]
    ubs = [next(dyn) if n < 0 else c.emit(_index_const(n)).results[0] for n in src_shape]
    lows = [c.emit(_index_const(lo)).results[0] if lo else None for lo in low]
    outer = Block()
    block, ivs = outer, []
    loops: list[tuple[Block, Operation]] = []
    for ub in ubs:
        body = Block(arg_types=[IndexType()])
        loops.append((block, scf.ForOp(zero, ub, one, [], Region(body))))
        ivs.append(body.args[0])
        block = body
    load = memref.LoadOp.get(src, ivs)
    block.add_op(load)
    out_idx = []
    for iv, lo in zip(ivs, lows):
        if lo is None:
            out_idx.append(iv)
        else:
            add = arith.AddiOp(iv, lo)
            block.add_op(add)
            out_idx.append(add.result)
    block.add_op(memref.StoreOp.get(load.res, out, out_idx))
    for parent, loop in reversed(loops):
        loop.body.block.add_op(scf.YieldOp())
        parent.add_op(loop)
    for o in list(outer.ops):
        o.detach()
        c.emit(o)


# ------------------------------------------------------------------------------ reshapes, cast


def _reshape_view(c: Converter, op: Operation, cls) -> None:
    src = op.operands[0]
    base = c.contiguous(src)
    rt = buffer_type(op.results[0].type)  # type: ignore[arg-type]
    props = {"reassociation": op.properties["reassociation"]}
    dynamic: list[SSAValue] = []
    if cls is memref.ExpandShapeOp:
        props["static_output_shape"] = getattr(op, "static_output_shape")
        dynamic = [c.vmap[v] for v in getattr(op, "dynamic_output_shape")]
    new = c.emit(cls.build(operands=[base, dynamic] if cls is memref.ExpandShapeOp else [base],
                           result_types=[rt], properties=props))
    c.vmap[op.results[0]] = new.results[0]
    if base is c.vmap.get(src):
        c.bind(op.results[0], c.roots[src])
    else:
        c.fresh_root(op.parent_block(), op.results[0])


def _collapse(c: Converter, op: tensor.CollapseShapeOp) -> None:
    _reshape_view(c, op, memref.CollapseShapeOp)


def _expand(c: Converter, op: tensor.ExpandShapeOp) -> None:
    _reshape_view(c, op, memref.ExpandShapeOp)


def _reshape(c: Converter, op: tensor.ReshapeOp) -> None:
    """tensor.reshape of a rank-0 tensor (tosa-to-linalg's rank-1 reductions emit it, as the
    tensor expand_shape verifier rejects the empty reassociation): memref.expand_shape with
    the empty reassociation, a view. Other reshapes are not emitted by our lowering."""
    rt = op.result.type
    if op.source.type.get_shape() or not isinstance(rt, TensorType) or -1 in rt.get_shape():
        raise fail(op, "no bufferization rule for this op (only a rank-0 source to a static shape)")
    base = c.contiguous(op.source)
    props = {"reassociation": ArrayAttr([]),
             "static_output_shape": DenseArrayBase.from_list(i64, list(rt.get_shape()))}
    new = c.emit(memref.ExpandShapeOp.build(operands=[base, []], result_types=[buffer_type(rt)],
                                            properties=props))
    c.vmap[op.result] = new.results[0]
    if base is c.vmap.get(op.source):
        c.bind(op.result, c.roots[op.source])
    else:
        c.fresh_root(op.parent_block(), op.result)


def _cast(c: Converter, op: tensor.CastOp) -> None:
    src = op.source
    if src.type == op.dest.type:
        c.vmap[op.dest] = c.buf(src)
    else:
        base = c.contiguous(src)
        c.vmap[op.dest] = c.emit(memref.CastOp.get(base, buffer_type(op.dest.type))).results[0]
    c.bind(op.dest, c.roots[src])


# ------------------------------------------------------------------------------ new tensors


def _concat(c: Converter, op: tensor.ConcatOp) -> None:
    out = c.alloc(op.result.type)  # type: ignore[arg-type]
    axis = op.dim.value.data
    rank = len(op.result.type.get_shape())
    at = 0
    for v in op.inputs:
        shape = list(v.type.get_shape())  # type: ignore[attr-defined]
        offsets = [at if d == axis else 0 for d in range(rank)]
        view = _subview(c, op, out, offsets, shape, [1] * rank, shape)
        c.copy(c.buf(v), view)
        at += shape[axis]
    c.vmap[op.result] = out
    c.fresh_root(op.parent_block(), op.result)


def _from_elements(c: Converter, op: tensor.FromElementsOp) -> None:
    t = op.result.type
    out = c.alloc(t)  # type: ignore[arg-type]
    shape = list(t.get_shape())  # type: ignore[attr-defined]
    consts: dict[int, SSAValue] = {}
    for flat, v in enumerate(op.elements):
        idx, rem = [], flat
        for d in reversed(shape):
            idx.insert(0, rem % d)
            rem //= d
        vals = []
        for i in idx:
            if i not in consts:
                consts[i] = c.emit(_index_const(i)).results[0]
            vals.append(consts[i])
        c.emit(memref.StoreOp.get(c.vmap[v], out, vals))
    c.vmap[op.result] = out
    c.fresh_root(op.parent_block(), op.result)


def _splat(c: Converter, op: tensor.SplatOp) -> None:
    if len(op.operands) > 1:
        raise fail(op, "dynamic sizes are not supported")
    out = c.alloc(op.result.type)  # type: ignore[arg-type]
    c.emit(linalg.FillOp([c.vmap[op.operands[0]]], [out], res=()))
    c.vmap[op.result] = out
    c.fresh_root(op.parent_block(), op.result)


def _dim(c: Converter, op: tensor.DimOp) -> None:
    index = op.index.owner
    if not isinstance(index, arith.ConstantOp):
        raise fail(op, "the dimension index must be a constant")
    d = index.value.value.data  # type: ignore[attr-defined]
    size = op.source.type.get_shape()[d]  # type: ignore[attr-defined]
    if int(size) < 0:  # a dynamic dim: read from the buffer
        c.vmap[op.result] = c.emit(memref.DimOp.from_source_and_index(c.buf(op.source), c.vmap[op.index])).results[0]
        return
    c.vmap[op.result] = c.emit(_index_const(int(size))).results[0]


def _unrealized_cast(c: Converter, op: UnrealizedConversionCastOp) -> None:
    """upstream's signless <-> unsigned tensor cast (elementwise lowering of ui8 ADD, ...):
    the same cast on the buffers, a view of the same bits."""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or not isinstance(op.outputs[0].type, TensorType):
        raise fail(op, "no bufferization rule for this cast")
    src = op.inputs[0]
    new = c.emit(UnrealizedConversionCastOp.get([c.buf(src)], [buffer_type(op.outputs[0].type)]))
    c.vmap[op.outputs[0]] = new.results[0]
    c.bind(op.outputs[0], c.roots[src])


HANDLERS = {
    UnrealizedConversionCastOp: _unrealized_cast,
    tensor.EmptyOp: _empty,
    tensor.ExtractOp: _extract,
    tensor.InsertOp: _insert,
    tensor.ExtractSliceOp: _extract_slice,
    tensor.InsertSliceOp: _insert_slice,
    tensor.PadOp: _pad,
    tensor.CollapseShapeOp: _collapse,
    tensor.ExpandShapeOp: _expand,
    tensor.ReshapeOp: _reshape,
    tensor.ConcatOp: _concat,
    tensor.FromElementsOp: _from_elements,
    tensor.SplatOp: _splat,
    tensor.CastOp: _cast,
    tensor.DimOp: _dim,
}
