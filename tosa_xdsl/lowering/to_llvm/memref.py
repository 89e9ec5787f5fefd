"""memref -> llvm (part of convert-to-llvm): bare pointers for static shapes.

A memref value is one `!llvm.ptr` to element [0, ..., 0] of the view it describes; its
type supplies everything else statically (shape, strides, element type). So:

* load/store: `getelementptr ptr[sum(i_k * stride_k)]` on the element's storage type
  (emitter.storage_type: i1 as a zero-extended byte, i4/i48 sign-extended to i8/i64), then
  llvm.load / llvm.store (with the extension / truncation).
* subview: the pointer moves by sum(offset_k * source_stride_k) elements; the result type's
  static strides describe the rest. collapse_shape, expand_shape, cast: the same pointer.
  reinterpret_cast: the pointer moves by (new offset - source offset), both static.
* alloc -> `malloc(bytes)` (`aligned_alloc(alignment, bytes rounded up)` when an alignment
  above 16 is asked), dealloc -> `free`, alloca -> llvm.alloca.
* copy: `llvm.memcpy` when both sides are contiguous (row-major strides), otherwise a loop
  over the elements (one counter, the multi-index recovered by div/rem by the sizes).
* global -> llvm.mlir.global of `!llvm.array<N x storage type>` (the initializer flattened,
  bf16/fp8 as their bits, i1/i4/i48 widened to their storage); get_global ->
  llvm.mlir.addressof. dim -> the static size.

Dynamic dims (EXT-DYNAMIC) of identity-layout memrefs: the pointer stays bare and the
run-time extents travel beside it (`Emitter.extents`): a memref argument with k dynamic dims
is its pointer followed by k i64 arguments (the sizes of those dims, in order);
`memref.alloc(%d)` mallocs the run-time byte size; `memref.dim` reads the extent;
collapse_shape multiplies extents, expand_shape takes its `output_shape` operands; loads and
stores compute the row-major strides from the extents; `memref.copy` of two identity-layout
buffers is one memcpy of the run-time size. A function result with dynamic dims (returned by
one-shot-bufferize) becomes a trailing `!llvm.ptr` argument to 1 + k i64 slots the caller
provides: the function stores the data pointer and the k extents there, and the caller owns
(frees) the buffer. Dynamic strides or offsets in a layout (a subview of a dynamic buffer)
are refused with a located error.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    UnitAttr,
    UnrealizedConversionCastOp,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_xdsl.lowering.to_llvm.emitter import (
    PTR,
    Emitter,
    fail,
    handles,
    int_width,
    is_small_float,
    storage_type,
    value_type,
)

_DYNAMIC = -(2**63)  # MLIR's kDynamic in static_offsets


def is_dynamic(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and any(int(d) < 0 for d in t.get_shape())


def _identity(t: MemRefType) -> bool:
    return isinstance(t.layout, NoneAttr)


def extents(em: Emitter, mem: SSAValue, op: Operation) -> list[SSAValue]:
    """The i64 size of every dim of memref value `mem` (constants for static dims)."""
    t = mem.type
    assert isinstance(t, MemRefType)
    if is_dynamic(t):
        got = em.extents.get(mem)
        if got is None:
            raise fail(op, f"the run-time sizes of {t} are not known here")
        return [g if g is not None else em.int_const(int(d), i64) for g, d in zip(got, t.get_shape())]
    return [em.int_const(int(d), i64) for d in t.get_shape()]


def _mul(em: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return em.add(llvm.MulOp(a, b))


def _dynamic_strides(em: Emitter, mem: SSAValue, op: Operation) -> list[SSAValue]:
    """Row-major strides of an identity-layout memref with dynamic dims, as i64 values."""
    t = mem.type
    assert isinstance(t, MemRefType)
    if not _identity(t):
        raise fail(op, f"dynamic dims with a non-identity layout ({t}) are not supported")
    sizes = extents(em, mem, op)
    out: list[SSAValue] = []
    acc = em.int_const(1, i64)
    for size in reversed(sizes):
        out.insert(0, acc)
        acc = _mul(em, acc, size)
    return out


def _layout_strides(t: MemRefType, op: Operation) -> list[int]:
    """The static strides of a strided layout (a view of a dynamically shaped buffer)."""
    got = t.get_strides()
    if got is None or any(st is None or st < 0 for st in got):
        raise fail(op, f"dynamic or unsupported strides in {t}")
    return [int(st) for st in got]


def _any_strides(em: Emitter, mem: SSAValue, op: Operation) -> list[SSAValue]:
    """Strides (i64 values) of a memref with dynamic dims: from the extents for an identity
    layout, from the layout's static strides otherwise."""
    t = mem.type
    assert isinstance(t, MemRefType)
    if _identity(t):
        return _dynamic_strides(em, mem, op)
    return [em.int_const(st, i64) for st in _layout_strides(t, op)]


def _element_count(em: Emitter, mem: SSAValue, op: Operation) -> SSAValue:
    total = em.int_const(1, i64)
    for size in extents(em, mem, op):
        total = _mul(em, total, size)
    return total


def _static_shape(t: MemRefType, op: Operation) -> list[int]:
    shape = list(t.get_shape())
    if any(d < 0 for d in shape):
        raise fail(op, f"dynamic shape {t}; static shapes are required")
    return shape


def strides(t: MemRefType, op: Operation) -> list[int]:
    """Static strides of `t` (row-major for the identity layout), or a located error."""
    _static_shape(t, op)
    got = t.get_strides()
    if got is None or any(s is None or s < 0 for s in got):
        raise fail(op, f"dynamic or unsupported strides in {t}")
    return [int(s) for s in got]


def _offset(t: MemRefType, op: Operation) -> int:
    layout = t.layout
    if isinstance(layout, NoneAttr):
        return 0
    if isinstance(layout, StridedLayoutAttr):
        off = layout.get_offset()
        if off is None or off < 0:
            raise fail(op, f"dynamic offset in {t}")
        return int(off)
    return 0


def _contiguous(t: MemRefType, op: Operation) -> bool:
    shape = _static_shape(t, op)
    expect, row_major = 1, []
    for d in reversed(shape):
        row_major.append(expect)
        expect *= d
    row_major.reverse()
    return all(d == 1 or s == r for d, s, r in zip(shape, strides(t, op), row_major))


def elem_bytes(t: Attribute, op: Operation) -> int:
    st = storage_type(t, op)
    return st.bitwidth // 8 if hasattr(st, "bitwidth") else int_width(st) // 8  # pyright: ignore


def _gep(em: Emitter, ptr: SSAValue, index: SSAValue, elem: Attribute) -> SSAValue:
    return em.add(llvm.GEPOp(ptr, [llvm.GEP_USE_SSA_VAL], elem, ssa_indices=[index]))


def _linear(em: Emitter, indices: list[SSAValue], st: list[int]) -> SSAValue:
    total: SSAValue | None = None
    for idx, s in zip(indices, st):
        if s == 0:
            continue
        term = idx if s == 1 else em.add(llvm.MulOp(idx, em.int_const(s, i64)))
        total = term if total is None else em.add(llvm.AddOp(total, term))
    return total if total is not None else em.int_const(0, i64)


def element_ptr(em: Emitter, op: Operation, mem: SSAValue, indices) -> tuple[SSAValue, Attribute, Attribute]:
    """(pointer to the element, storage type, element type) for memref.load/store."""
    t = mem.type
    assert isinstance(t, MemRefType)
    elem = t.get_element_type()
    st = storage_type(elem, op)
    if is_dynamic(t):
        lin: SSAValue | None = None
        for idx, stride in zip([em.get(i) for i in indices], _any_strides(em, mem, op)):
            term = _mul(em, idx, stride)
            lin = term if lin is None else em.add(llvm.AddOp(lin, term))
        return _gep(em, em.get(mem), lin if lin is not None else em.int_const(0, i64), st), st, elem
    lin = _linear(em, [em.get(i) for i in indices], strides(t, op))
    return _gep(em, em.get(mem), lin, st), st, elem


@handles(memref.LoadOp)
def _load(em: Emitter, op: memref.LoadOp) -> None:
    ptr, st, elem = element_ptr(em, op, op.memref, list(op.indices))
    v = em.add(llvm.LoadOp(ptr, st))
    want = value_type(elem, op)
    if want != st:  # i1 / i4 / i48 live widened in memory
        v = em.resize_int(v, int_width(want), True)
    em.set(op.res, v)


@handles(memref.StoreOp)
def _store(em: Emitter, op: memref.StoreOp) -> None:
    ptr, st, elem = element_ptr(em, op, op.memref, list(op.indices))
    v = em.get(op.value)
    if v.type != st:  # bool as 0/1, other narrow integers sign-extended (numpy's layout)
        v = em.resize_int(v, int_width(st), elem != i1)
    em.add(llvm.StoreOp(v, ptr))


def _byte_size(t: MemRefType, op: Operation) -> int:
    n = 1
    for d in _static_shape(t, op):
        n *= d
    return n * elem_bytes(t.get_element_type(), op)


@handles(memref.AllocOp)
def _alloc(em: Emitter, op: memref.AllocOp) -> None:
    t = op.memref.type
    if is_dynamic(t):
        dyn = iter(op.dynamic_sizes)
        em.extents[op.memref] = [em.get(next(dyn)) if int(d) < 0 else em.int_const(int(d), i64)
                                 for d in t.get_shape()]
        n = _mul(em, _element_count(em, op.memref, op), em.int_const(elem_bytes(t.get_element_type(), op), i64))
        n = em.add(llvm.OrOp(n, em.int_const(1, i64)))  # never malloc(0); one spare byte at most
        em.set(op.memref, em.call("malloc", [n], PTR))
        return
    size = _byte_size(t, op)
    align = op.alignment.value.data if op.alignment is not None else 0
    if align > 16:  # aligned_alloc wants a multiple of the alignment
        size = (size + align - 1) // align * align
        ptr = em.call("aligned_alloc", [em.int_const(align, i64), em.int_const(max(size, align), i64)], PTR)
    else:
        ptr = em.call("malloc", [em.int_const(max(size, 1), i64)], PTR)
    em.set(op.memref, ptr)


@handles(memref.AllocaOp)
def _alloca(em: Emitter, op: memref.AllocaOp) -> None:
    t = op.memref.type
    n = max(_byte_size(t, op) // elem_bytes(t.get_element_type(), op), 1)
    st = storage_type(t.get_element_type(), op)
    align = op.alignment.value.data if op.alignment is not None else 16
    em.set(op.memref, em.add(llvm.AllocaOp(em.int_const(n, i64), st, alignment=align)))


@handles(memref.DeallocOp)
def _dealloc(em: Emitter, op: memref.DeallocOp) -> None:
    em.call("free", [em.get(op.memref)], None)


@handles(memref.SubviewOp)
def _subview(em: Emitter, op: memref.SubviewOp) -> None:
    src_t = op.source.type
    if is_dynamic(src_t) or is_dynamic(op.result.type):
        _dynamic_subview(em, op)
        return
    st = strides(src_t, op)
    strides(op.result.type, op)  # the result must be describable statically
    dynamic = iter(op.offsets)
    offsets: list[SSAValue] = []
    for o in op.static_offsets.get_values():
        offsets.append(em.get(next(dynamic)) if o == _DYNAMIC
                       else em.int_const(int(o), i64))
    lin = _linear(em, offsets, st)
    elem = storage_type(src_t.get_element_type(), op)
    em.set(op.result, _gep(em, em.get(op.source), lin, elem))


def _dynamic_subview(em: Emitter, op: memref.SubviewOp) -> None:
    """A view of a dynamically shaped buffer: the pointer moves by sum(offset * stride) at run
    time; the result's strides must be static in its type (bufferization only makes such
    views: a dynamic batch, slices of inner static dims) and its sizes become its extents."""
    src_t, res_t = op.source.type, op.result.type
    if not is_dynamic(src_t) and not _identity(src_t):
        raise fail(op, f"a dynamic view of the strided {src_t} is not supported")
    _layout_strides(res_t, op)
    if is_dynamic(src_t) and not _identity(src_t):
        raise fail(op, f"a subview of the strided, dynamically shaped {src_t} is not supported")
    dyn_off = iter(op.offsets)
    offsets = [em.get(next(dyn_off)) if o == _DYNAMIC else em.int_const(int(o), i64)
               for o in op.static_offsets.get_values()]
    src_strides = _dynamic_strides(em, op.source, op) if is_dynamic(src_t) else \
        [em.int_const(st, i64) for st in strides(src_t, op)]
    lin: SSAValue = em.int_const(0, i64)
    for o, st in zip(offsets, src_strides):
        lin = em.add(llvm.AddOp(lin, _mul(em, o, st)))
    elem = storage_type(src_t.get_element_type(), op)
    em.set(op.result, _gep(em, em.get(op.source), lin, elem))
    dyn_size = iter(op.sizes)
    sizes = [em.get(next(dyn_size)) if sz == _DYNAMIC else em.int_const(int(sz), i64)
             for sz in op.static_sizes.get_values()]
    if len(sizes) != len(res_t.get_shape()):
        raise fail(op, "a rank-reducing view of a dynamically shaped buffer is not supported")
    em.extents[op.result] = sizes


@handles(UnrealizedConversionCastOp)
def _unrealized_cast(em: Emitter, op: UnrealizedConversionCastOp) -> None:
    """A signless <-> unsigned memref cast (bufferized ui8 arithmetic): the same pointer and
    extents; other casts are left to reconcile-unrealized-casts' rules (a located error)."""
    src, res = op.inputs[0] if len(op.inputs) == 1 else None, op.outputs[0] if len(op.outputs) == 1 else None
    if src is None or res is None or not (isinstance(src.type, MemRefType) and isinstance(res.type, MemRefType)):
        raise fail(op, "only a memref-to-memref unrealized_conversion_cast is supported")
    if is_dynamic(src.type):
        em.extents[res] = em.extents[src]
    em.set(res, em.get(src))


@handles(memref.CollapseShapeOp, memref.ExpandShapeOp, memref.CastOp)
def _same_pointer(em: Emitter, op: Operation) -> None:
    res_t = op.results[0].type
    src = op.operands[0]
    if is_dynamic(res_t) or is_dynamic(src.type):
        _reshaped_extents(em, op)
    elif isinstance(res_t, MemRefType):
        strides(res_t, op)
    em.set(op.results[0], em.get(src))


def _reshaped_extents(em: Emitter, op: Operation) -> None:
    """The result's extents of a view with dynamic dims: products of the source's extents
    (collapse), the output_shape (expand) or the source's (cast); identity layouts only."""
    res = op.results[0]
    src = op.operands[0]
    for t in (src.type, res.type):
        if not (isinstance(t, MemRefType) and _identity(t)):
            raise fail(op, f"dynamic dims with a non-identity layout ({t}) are not supported")
    shape = [int(d) for d in res.type.get_shape()]  # pyright: ignore
    if isinstance(op, memref.CollapseShapeOp):
        src_sizes = extents(em, src, op)
        out = []
        for group in op.reassociation.data:
            acc = em.int_const(1, i64)
            for k in group.data:
                acc = _mul(em, acc, src_sizes[k.value.data])
            out.append(acc)
    elif isinstance(op, memref.ExpandShapeOp):
        dyn = iter(op.output_shape)
        out = [em.get(next(dyn)) if d < 0 else em.int_const(d, i64) for d in shape]
    else:
        src_sizes = extents(em, src, op)
        out = [src_sizes[k] if d < 0 else em.int_const(d, i64) for k, d in enumerate(shape)]
    em.extents[res] = out


@handles(memref.ReinterpretCastOp)
def _reinterpret_cast(em: Emitter, op: memref.ReinterpretCastOp) -> None:
    src_t, res_t = op.source.type, op.result.type
    strides(res_t, op)
    delta = _offset(res_t, op) - _offset(src_t, op)
    elem = storage_type(src_t.get_element_type(), op)
    ptr = em.get(op.source)
    em.set(op.result, ptr if delta == 0 else _gep(em, ptr, em.int_const(delta, i64), elem))


@handles(memref.DimOp)
def _dim(em: Emitter, op: memref.DimOp) -> None:
    owner = op.index.owner
    from xdsl.dialects import arith

    if not (isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr)):
        raise fail(op, "a dimension index that is not a constant")
    if is_dynamic(op.source.type):
        em.set(op.result, extents(em, op.source, op)[owner.value.value.data])
        return
    shape = _static_shape(op.source.type, op)
    em.set(op.result, em.int_const(shape[owner.value.value.data], i64))


@handles(memref.CopyOp)
def _copy(em: Emitter, op: memref.CopyOp) -> None:
    src_t, dst_t = op.source.type, op.destination.type
    src, dst = em.get(op.source), em.get(op.destination)
    if is_dynamic(src_t) or is_dynamic(dst_t):
        if _identity(src_t) and _identity(dst_t):
            n = _mul(em, _element_count(em, op.source, op), em.int_const(elem_bytes(src_t.get_element_type(), op), i64))
            em.intrinsic("llvm.memcpy.p0.p0.i64", [dst, src, n, em.int_const(0, i1)], None)
        else:
            _copy_loop(em, op, extents(em, op.source, op), _any_strides(em, op.source, op),
                       _any_strides(em, op.destination, op))
        return
    if _contiguous(src_t, op) and _contiguous(dst_t, op):
        n = _byte_size(src_t, op)
        if n:
            em.intrinsic("llvm.memcpy.p0.p0.i64", [dst, src, em.int_const(n, i64), em.int_const(0, i1)], None)
        return
    shape = _static_shape(src_t, op)
    total = 1
    for d in shape:
        total *= d
    if total == 0:
        return
    s_st, d_st = strides(src_t, op), strides(dst_t, op)
    elem = storage_type(src_t.get_element_type(), op)
    # for (i = 0; i < total; ++i) { multi-index of i; dst[...] = src[...] }
    header = em.new_block([i64])
    em.add(llvm.BrOp(header, em.int_const(0, i64)))
    em.block = header
    i = header.args[0]
    exit_block = em.new_block()  # order: header, body, exit
    body = em.new_block()
    em.add(llvm.CondBrOp(em.icmp("slt", i, em.int_const(total, i64)), body, [], exit_block, []))
    em.block = body
    rem = i
    src_off: SSAValue = em.int_const(0, i64)
    dst_off: SSAValue = em.int_const(0, i64)
    for k in range(len(shape) - 1, -1, -1):
        d = shape[k]
        if k > 0:
            idx = em.add(llvm.URemOp(rem, em.int_const(d, i64)))
            rem = em.add(llvm.UDivOp(rem, em.int_const(d, i64)))
        else:
            idx = rem
        src_off = em.add(llvm.AddOp(src_off, em.add(llvm.MulOp(idx, em.int_const(s_st[k], i64)))))
        dst_off = em.add(llvm.AddOp(dst_off, em.add(llvm.MulOp(idx, em.int_const(d_st[k], i64)))))
    v = em.add(llvm.LoadOp(_gep(em, src, src_off, elem), elem))
    em.add(llvm.StoreOp(v, _gep(em, dst, dst_off, elem)))
    em.add(llvm.BrOp(header, em.add(llvm.AddOp(i, em.int_const(1, i64)))))
    em.block = exit_block


def _copy_loop(em: Emitter, op: memref.CopyOp, sizes: list[SSAValue], s_st: list[SSAValue],
               d_st: list[SSAValue]) -> None:
    """for (i = 0; i < prod(sizes); ++i) dst[multi-index of i] = src[...] with run-time sizes
    and strides (the dynamic-dims twin of the static loop in _copy)."""
    src, dst = em.get(op.source), em.get(op.destination)
    elem = storage_type(op.source.type.get_element_type(), op)  # pyright: ignore
    total = em.int_const(1, i64)
    for size in sizes:
        total = _mul(em, total, size)
    header = em.new_block([i64])
    em.add(llvm.BrOp(header, em.int_const(0, i64)))
    em.block = header
    i = header.args[0]
    exit_block = em.new_block()
    body = em.new_block()
    em.add(llvm.CondBrOp(em.icmp("slt", i, total), body, [], exit_block, []))
    em.block = body
    rem = i
    src_off: SSAValue = em.int_const(0, i64)
    dst_off: SSAValue = em.int_const(0, i64)
    for k in range(len(sizes) - 1, -1, -1):
        if k > 0:
            idx = em.add(llvm.URemOp(rem, sizes[k]))
            rem = em.add(llvm.UDivOp(rem, sizes[k]))
        else:
            idx = rem
        src_off = em.add(llvm.AddOp(src_off, _mul(em, idx, s_st[k])))
        dst_off = em.add(llvm.AddOp(dst_off, _mul(em, idx, d_st[k])))
    v = em.add(llvm.LoadOp(_gep(em, src, src_off, elem), elem))
    em.add(llvm.StoreOp(v, _gep(em, dst, dst_off, elem)))
    em.add(llvm.BrOp(header, em.add(llvm.AddOp(i, em.int_const(1, i64)))))
    em.block = exit_block


# ------------------------------------------------------------------------ globals


def global_initializer(op: memref.GlobalOp) -> tuple[Attribute, DenseIntOrFPElementsAttr | None]:
    """(the llvm array type, its initializer as a flat dense attribute of storage values)."""
    t = op.type
    assert isinstance(t, MemRefType)
    shape = _static_shape(t, op)
    n = int(np.prod(shape)) if shape else 1
    elem = t.get_element_type()
    st = storage_type(elem, op)
    array_t = llvm.LLVMArrayType(IntAttr(n), st)
    init = op.initial_value
    if init is None or isinstance(init, UnitAttr):  # uninitialized: zeros
        zero = 0.0 if isinstance(st, (Float16Type, Float32Type, Float64Type)) else 0
        return array_t, DenseIntOrFPElementsAttr.from_list(TensorType(st, [n]), [zero] * n)
    from tosa_xdsl.interpreter.values import dtype_of
    from tosa_xdsl.ir import dense

    values = np.asarray(dense.to_numpy(init)).astype(dtype_of(elem)).reshape(-1)
    if values.size == 1 and n != 1:  # a splat
        values = np.broadcast_to(values, (n,))
    if is_small_float(elem):
        values = values.view(np.uint16 if st.bitwidth == 16 else np.uint8).astype(np.int64)  # pyright: ignore
        values = np.where(values >= 1 << (st.bitwidth - 1), values - (1 << st.bitwidth), values)  # pyright: ignore
    elif values.dtype == np.bool_:
        values = values.astype(np.int64)
    # from bytes, not Python lists: a model's weights stay binary
    attr = dense.from_numpy(np.ascontiguousarray(values), TensorType(st, [n]))
    return array_t, attr


def convert_global(op: memref.GlobalOp) -> llvm.GlobalOp:
    array_t, init = global_initializer(op)
    private = op.sym_visibility is not None and op.sym_visibility.data == "private"
    align = op.alignment.value.data if op.alignment is not None else None
    return llvm.GlobalOp(array_t, op.sym_name, "private" if private else "external",
                         constant=op.constant is not None or None, value=init, alignment=align)


@handles(memref.GetGlobalOp)
def _get_global(em: Emitter, op: memref.GetGlobalOp) -> None:
    em.set(op.memref, em.add(llvm.AddressOfOp(op.name_, PTR)))
