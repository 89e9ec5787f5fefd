"""A loop outlined by `outline-parallel-loops` -> a call of the thread pool (part of
convert-to-llvm).

    func.call @f__parallel_0(%c0, %trip, %a, %b, %x) {tosa_xdsl.parallel_threads = 2 : i64}

becomes

    %ctx = llvm.alloca K x i64            (in the entry block: one slot per capture)
    store %a, %b, %x (and the run-time extents of dynamically shaped buffers) into the slots
    llvm.call @tosa_xdsl_parallel_for(@f__parallel_0__task, %ctx, %c0, %trip, 2)

and a new function, the task the pool calls on each chunk [lo, hi):

    llvm.func internal @f__parallel_0__task(%lo: i64, %hi: i64, %ctx: !llvm.ptr) {
      load the slots; llvm.call @f__parallel_0(%lo, %hi, %a, %b, %x); llvm.return
    }

`@f__parallel_0` is private (internal linkage, codegen/llvm.py), so LLVM inlines it into its
only caller, the task. Each capture's slot is 8 bytes holding the value in its llvm type
(a pointer, an i64, a float, ...; at most 8 bytes: wider scalars are refused). The pool: codegen/thread_pool.py.
"""

from __future__ import annotations

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerAttr, IntegerType, i64
from xdsl.ir import Attribute, Block, Region, SSAValue

from tosa_xdsl.lowering.to_llvm.emitter import PTR, Emitter, fail

POOL_SYMBOL = "tosa_xdsl_parallel_for"  # = codegen.thread_pool.SYMBOL
THREADS_ATTR = "tosa_xdsl.parallel_threads"  # = to_loops.outline_parallel.THREADS_ATTR


def parallel_call(em: Emitter, op: func.CallOp) -> None:
    from tosa_xdsl.lowering.to_llvm.memref import extents, is_dynamic

    threads = op.attributes[THREADS_ATTR]
    if not isinstance(threads, IntegerAttr) or len(op.arguments) < 2 or op.results:
        raise fail(op, f"a '{THREADS_ATTR}' call takes (lo, hi, captures...) and returns nothing")
    slots: list[SSAValue] = []
    for a in op.arguments[2:]:
        slots.append(em.get(a))
        if is_dynamic(a.type):
            shape = a.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
            slots += [e for e, d in zip(extents(em, a, op), shape) if int(d) < 0]
    if any(_size(v.type) > 8 for v in slots):
        raise fail(op, "a captured scalar wider than 64 bits does not fit a context slot")
    ctx = _entry_alloca(em, max(1, len(slots)))
    for i, v in enumerate(slots):
        em.add(llvm.StoreOp(v, em.add(_slot(ctx, i, v.type))))
    callee = op.callee.string_value()
    task = f"{callee}__task"
    if task not in em.module.decls:
        em.module.decls[task] = _task(task, callee, [s.type for s in slots])
        em.module.top.append(em.module.decls[task])
    em.module.declare(POOL_SYMBOL, [PTR, PTR, i64, i64, i64], llvm.LLVMVoidType())
    fn_ptr = em.add(llvm.AddressOfOp(task, PTR))
    lo, hi = (em.get(a) for a in op.arguments[:2])
    em.add(llvm.CallOp(POOL_SYMBOL, fn_ptr, ctx, lo, hi, em.int_const(threads.value.data, i64)))


def _slot(ctx: SSAValue, i: int, t: Attribute) -> llvm.GEPOp:
    """The address of slot `i` (8 bytes) typed as `t` (the backend's pointers are typed by
    the GEP's element type): element 8 * i / sizeof(t) of a `t` array."""
    return llvm.GEPOp(ctx, [8 * i // _size(t)], t)


def _size(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return next((b for b in (1, 2, 4, 8) if 8 * b >= t.width.data), 16)
    if isinstance(t, (Float16Type, Float32Type, Float64Type)):
        return t.bitwidth // 8
    return 8  # a pointer


def _entry_alloca(em: Emitter, count: int) -> SSAValue:
    """An alloca at the top of the entry block (one stack slot however often the call runs)."""
    size = em.int_const(count, i64)
    # slots typed as pointers: llvmlite (typed pointers underneath) folds the GEP's cast from
    # an i64 slot to a pointer slot and would then refuse to store a pointer into it
    alloca = llvm.AllocaOp(size, PTR, alignment=16)
    entry = em.region.blocks[0]
    entry.insert_op_after(alloca, size.owner)  # pyright: ignore[reportArgumentType]
    return alloca.results[0]


def _task(name: str, callee: str, slot_types: list) -> llvm.FuncOp:
    body = Block(arg_types=[i64, i64, PTR])
    lo, hi, ctx = body.args
    values: list[SSAValue] = []
    for i, t in enumerate(slot_types):
        gep = _slot(ctx, i, t)
        load = llvm.LoadOp(gep, t)
        body.add_ops([gep, load])
        values.append(load.dereferenced_value)
    body.add_op(llvm.CallOp(callee, lo, hi, *values))
    body.add_op(llvm.ReturnOp(None))
    return llvm.FuncOp(name, llvm.LLVMFunctionType([i64, i64, PTR], llvm.LLVMVoidType()),
                       linkage=llvm.LinkageAttr("internal"), body=Region(body))
