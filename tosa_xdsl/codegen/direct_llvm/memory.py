"""memref -> LLVM IR text (direct road), as lowering/to_llvm/memref.py emits it: bare
pointers, static shapes and strides."""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    IntegerType,
    MemRefType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Operation

from tosa_xdsl.codegen.direct_llvm.scalars import _resize
from tosa_xdsl.codegen.direct_llvm.text import (
    _DYNAMIC,
    HANDLERS,
    Function,
    Unsupported,
    _contiguous,
    _offset,
    _static,
    _strides,
    elem_bytes,
    ir_type,
    storage,
)


def _loaded(fn: Function, ptr: str, ty: str, elem: Attribute) -> str:
    """A load, narrowed to the value's width (i1 / i4 / i48 live widened in memory)."""
    v = fn.emit(f"load {ty}, ptr {ptr}")
    want = ir_type(elem)
    return _resize(fn, v, int(ty[1:]), int(want[1:]), True) if want != ty else v


def _stored(fn: Function, ptr: str, ty: str, elem: Attribute, value: str) -> None:
    """A store, widened to the storage (bool as 0/1, other narrow integers sign-extended)."""
    want = ir_type(elem)
    if want != ty:
        value = _resize(fn, value, int(want[1:]), int(ty[1:]), elem != IntegerType(1))
    fn.line(f"store {ty} {value}, ptr {ptr}")


def _load(fn: Function, op: memref.LoadOp) -> None:
    ptr, ty = fn.element(op.memref, list(op.indices))
    fn.names[op.res] = _loaded(fn, ptr, ty, op.res.type)


def _store(fn: Function, op: memref.StoreOp) -> None:
    ptr, ty = fn.element(op.memref, list(op.indices))
    _stored(fn, ptr, ty, op.value.type, fn.get(op.value))


def _byte_size(t: MemRefType) -> int:
    n = 1
    for d in _static(t):
        n *= d
    return n * elem_bytes(storage(t.get_element_type()))


def _alloc(fn: Function, op: memref.AllocOp) -> None:
    t = op.memref.type
    size = _byte_size(t)
    align = op.alignment.value.data if op.alignment is not None else 0
    if align > 16:
        size = (size + align - 1) // align * align
        r = fn.call("aligned_alloc", "ptr", [("i64", fn.const(align)), ("i64", fn.const(max(size, align)))])
    else:
        r = fn.call("malloc", "ptr", [("i64", fn.const(max(size, 1)))])
    fn.names[op.memref] = r  # pyright: ignore[reportArgumentType]


def _alloca(fn: Function, op: memref.AllocaOp) -> None:
    """to_llvm/memref.py's `llvm.alloca` of the element count (a fused nest's scratch block)."""
    t = op.memref.type
    n = max(_byte_size(t) // elem_bytes(storage(t.get_element_type())), 1)
    align = op.alignment.value.data if op.alignment is not None else 16
    fn.names[op.memref] = fn.emit(  # pyright: ignore[reportArgumentType]
        f"alloca {storage(t.get_element_type())}, i64 {n}, align {align}")


def _dealloc(fn: Function, op: memref.DeallocOp) -> None:
    fn.call("free", "void", [("ptr", fn.get(op.memref))])


def _get_global(fn: Function, op: memref.GetGlobalOp) -> None:
    _static(op.memref.type)
    fn.names[op.memref] = f'@"{op.name_.root_reference.data}"'


def _same_pointer(fn: Function, op: Operation) -> None:
    _strides(op.operands[0].type)  # pyright: ignore[reportArgumentType]
    _strides(op.results[0].type)  # pyright: ignore[reportArgumentType]
    fn.names[op.results[0]] = fn.get(op.operands[0])


def _unrealized_cast(fn: Function, op: UnrealizedConversionCastOp) -> None:
    """A signless <-> unsigned memref cast (bufferized ui8 arithmetic): the same pointer."""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or not all(
            isinstance(v.type, MemRefType) for v in (op.inputs[0], op.outputs[0])):
        raise Unsupported("an unrealized_conversion_cast that is not memref to memref")
    _same_pointer(fn, op)


def _subview(fn: Function, op: memref.SubviewOp) -> None:
    src_t = op.source.type
    st = _strides(src_t)
    _strides(op.result.type)
    dynamic = iter(op.offsets)
    offsets = [fn.get(next(dynamic)) if o == _DYNAMIC else fn.const(int(o)) for o in op.static_offsets.get_values()]
    lin = fn.linear(offsets, st)
    ty = storage(src_t.get_element_type())
    fn.names[op.result] = fn.emit(f"getelementptr {ty}, ptr {fn.get(op.source)}, i64 {lin}")


def _reinterpret_cast(fn: Function, op: memref.ReinterpretCastOp) -> None:
    src_t, res_t = op.source.type, op.result.type
    _strides(res_t)
    delta = _offset(res_t) - _offset(src_t)
    ptr = fn.get(op.source)
    ty = storage(src_t.get_element_type())
    fn.names[op.result] = ptr if delta == 0 else fn.emit(f"getelementptr {ty}, ptr {ptr}, i64 {fn.const(delta)}")


def _copy(fn: Function, op: memref.CopyOp) -> None:
    src_t, dst_t = op.source.type, op.destination.type
    src, dst = fn.get(op.source), fn.get(op.destination)
    ty = storage(src_t.get_element_type())
    if _contiguous(src_t) and _contiguous(dst_t):
        n = _byte_size(src_t)
        if n:
            fn.call("llvm.memcpy.p0.p0.i64", "void", [("ptr", dst), ("ptr", src), ("i64", fn.const(n)),
                                                       ("i1", "false")])
        return
    shape = _static(src_t)
    total = 1
    for d in shape:
        total *= d
    if total == 0:
        return
    s_st, d_st = _strides(src_t), _strides(dst_t)
    # memref.py's copy loop: one counter, the multi-index recovered by urem/udiv
    header, body, done = fn.new_label(), fn.new_label(), fn.new_label()
    before = fn.label
    fn.line(f"br label %{header}")
    fn.start(header)
    i = fn.fresh()
    phi_at = len(fn.out)
    fn.out.append("")  # the phi, once the latch is known
    cond = fn.emit(f"icmp slt i64 {i}, {fn.const(total)}")
    fn.line(f"br i1 {cond}, label %{body}, label %{done}")
    fn.start(body)
    rem, src_off, dst_off = i, fn.const(0), fn.const(0)
    for k in range(len(shape) - 1, -1, -1):
        if k > 0:
            idx = fn.emit(f"urem i64 {rem}, {fn.const(shape[k])}")
            rem = fn.emit(f"udiv i64 {rem}, {fn.const(shape[k])}")
        else:
            idx = rem
        src_off = fn.emit(f"add i64 {src_off}, {fn.emit(f'mul i64 {idx}, {fn.const(s_st[k])}')}")
        dst_off = fn.emit(f"add i64 {dst_off}, {fn.emit(f'mul i64 {idx}, {fn.const(d_st[k])}')}")
    v = fn.emit(f"load {ty}, ptr {fn.emit(f'getelementptr {ty}, ptr {src}, i64 {src_off}')}")
    fn.line(f"store {ty} {v}, ptr {fn.emit(f'getelementptr {ty}, ptr {dst}, i64 {dst_off}')}")
    nxt = fn.emit(f"add i64 {i}, 1")
    fn.line(f"br label %{header}")
    fn.out[phi_at] = f"  {i} = phi i64 [0, %{before}], [{nxt}, %{body}]"
    fn.start(done)



HANDLERS.update({
    memref.LoadOp: _load,
    memref.StoreOp: _store,
    memref.AllocOp: _alloc,
    memref.AllocaOp: _alloca,
    memref.DeallocOp: _dealloc,
    memref.GetGlobalOp: _get_global,
    **dict.fromkeys((memref.CollapseShapeOp, memref.ExpandShapeOp, memref.CastOp), _same_pointer),
    memref.SubviewOp: _subview,
    UnrealizedConversionCastOp: _unrealized_cast,
    memref.ReinterpretCastOp: _reinterpret_cast,
    memref.CopyOp: _copy,
})
