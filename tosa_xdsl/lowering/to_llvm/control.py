"""func and cf -> llvm (part of convert-to-llvm), and the function-level driver.

func.func -> llvm.func (external linkage; a declaration stays a declaration), its blocks
converted in reverse post-order (so a value is always converted before its uses), block
arguments with converted types; func.return -> llvm.return (at most one result),
func.call -> llvm.call, cf.br / cf.cond_br -> llvm.br / llvm.cond_br.
"""

from __future__ import annotations

from xdsl.dialects import cf, func, llvm
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, MemRefType, UnitAttr, i64
from xdsl.ir import Block, Operation, Region

from tosa_xdsl.lowering.to_llvm.emitter import (
    PTR,
    Emitter,
    ModuleState,
    fail,
    handles,
    value_type,
)
from tosa_xdsl.lowering.to_llvm.parallel_call import THREADS_ATTR, parallel_call


def _dynamic_count(t) -> int:
    return sum(int(d) < 0 for d in t.get_shape()) if isinstance(t, MemRefType) else 0


def function_type(op: Operation, inputs, outputs) -> llvm.LLVMFunctionType:
    if any(_dynamic_count(t) for t in (*inputs, *outputs)):
        return _dynamic_function_type(op, inputs, outputs)
    if len(outputs) > 1:
        raise fail(op, f"{len(outputs)} results; the LLVM stage takes at most one "
                   "(bufferization turns tensor results into out-parameters)")
    ins = [value_type(t, op) for t in inputs]
    out = value_type(outputs[0], op) if outputs else llvm.LLVMVoidType()
    return llvm.LLVMFunctionType(ins, out)


def _dynamic_function_type(op: Operation, inputs, outputs) -> llvm.LLVMFunctionType:
    """EXT-DYNAMIC (memref.py): each memref argument is followed by one i64 per dynamic dim;
    each returned memref (dynamic dims) becomes a trailing pointer to 1 + k i64 slots."""
    if any(not isinstance(t, MemRefType) for t in outputs):
        raise fail(op, "a function with dynamically shaped buffers may only return memrefs")
    ins: list = []
    for t in inputs:
        ins.append(value_type(t, op))
        ins += [i64] * _dynamic_count(t)
    ins += [PTR] * len(outputs)
    return llvm.LLVMFunctionType(ins, llvm.LLVMVoidType())


@handles(func.ReturnOp)
def _return(em: Emitter, op: func.ReturnOp) -> None:
    slots = getattr(em, "result_slots", None)
    if slots is not None:
        # store each returned buffer's pointer and extents into the caller's slots
        from tosa_xdsl.lowering.to_llvm.memref import extents

        for v, slot in zip(op.arguments, slots):
            em.add(llvm.StoreOp(em.get(v), slot))
            sizes = [e for e, d in zip(extents(em, v, op), v.type.get_shape()) if int(d) < 0]  # pyright: ignore
            for k, size in enumerate(sizes, start=1):
                ptr = em.add(llvm.GEPOp(slot, [k], i64))
                em.add(llvm.StoreOp(size, ptr))
        em.add(llvm.ReturnOp(None))
        return
    if len(op.arguments) > 1:
        raise fail(op, "more than one returned value")
    em.add(llvm.ReturnOp(em.get(op.arguments[0]) if op.arguments else None))


@handles(func.CallOp)
def _call(em: Emitter, op: func.CallOp) -> None:
    if THREADS_ATTR in op.attributes:  # a loop outline-parallel-loops outlined: the thread pool
        return parallel_call(em, op)
    if any(_dynamic_count(v.type) for v in (*op.arguments, *op.results)):
        raise fail(op, "a call passing dynamically shaped buffers is not supported")
    ft = function_type(op, [a.type for a in op.arguments], [r.type for r in op.results])
    out = None if isinstance(ft.output, llvm.LLVMVoidType) else ft.output
    r = em.add(llvm.CallOp(op.callee, *[em.get(a) for a in op.arguments], return_type=out))
    if op.results:
        em.set(op.results[0], r)


def _branch_operands(em: Emitter, op: Operation, values) -> list:
    """Branch operands under the dynamic-shape convention: a memref with dynamic dims is its
    pointer followed by the i64 extents of those dims (the successor's block arguments, see
    convert_function), as at function boundaries."""
    from tosa_xdsl.lowering.to_llvm.memref import extents

    out = []
    for v in values:
        out.append(em.get(v))
        if _dynamic_count(v.type):
            out += [e for e, d in zip(extents(em, v, op), v.type.get_shape()) if int(d) < 0]
    return out


@handles(cf.BranchOp)
def _br(em: Emitter, op: cf.BranchOp) -> None:
    em.add(llvm.BrOp(em.blocks[op.successor], *_branch_operands(em, op, op.arguments)))


@handles(cf.ConditionalBranchOp)
def _cond_br(em: Emitter, op: cf.ConditionalBranchOp) -> None:
    em.add(llvm.CondBrOp(em.get(op.cond), em.blocks[op.then_block], _branch_operands(em, op, op.then_arguments),
                         em.blocks[op.else_block], _branch_operands(em, op, op.else_arguments)))


def _reverse_post_order(region: Region) -> list[Block]:
    entry = region.blocks[0]
    seen: set[Block] = set()
    order: list[Block] = []
    stack: list[tuple[Block, int]] = [(entry, 0)]
    seen.add(entry)
    while stack:
        block, i = stack.pop()
        succs = block.last_op.successors if block.last_op is not None else ()
        if i < len(succs):
            stack.append((block, i + 1))
            nxt = succs[i]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, 0))
        else:
            order.append(block)
    order.reverse()
    return order


def _bind_dynamic_arguments(em: Emitter, old: Block, new: Block, n_results: int) -> None:
    """The entry block under the dynamic-shape convention: pointer then extents per memref,
    then the result slots (Emitter.result_slots, used by func.return)."""
    args = iter(new.args)
    for a in old.args:
        em.set(a, next(args))
        if _dynamic_count(a.type):
            # static dims: None, made constants where used (no block to emit into yet)
            em.extents[a] = [next(args) if int(d) < 0 else None
                             for d in a.type.get_shape()]  # pyright: ignore
    em.result_slots = [next(args) for _ in range(n_results)]  # pyright: ignore[reportAttributeAccessIssue]


def convert_function(fn: func.FuncOp, module: ModuleState, handlers: dict) -> llvm.FuncOp:
    ft = fn.function_type
    lft = function_type(fn, list(ft.inputs.data), list(ft.outputs.data))
    if not fn.body.blocks:
        return llvm.FuncOp(fn.sym_name, lft, linkage=llvm.LinkageAttr("external"))
    region = Region()
    em = Emitter(module, region)
    em.blocks = {}  # pyright: ignore[reportAttributeAccessIssue]
    dynamic = isinstance(lft.output, llvm.LLVMVoidType) and any(
        _dynamic_count(t) for t in (*ft.inputs.data, *ft.outputs.data))
    for block in fn.body.blocks:  # every llvm block first: branches may point forward
        if dynamic and block is fn.body.blocks[0]:
            new = Block(arg_types=list(lft.inputs.data))
            _bind_dynamic_arguments(em, block, new, len(ft.outputs.data))
        else:
            # a memref block argument with k dynamic dims (an scf.if / scf.while carrying
            # a dynamically shaped buffer) is its pointer and k i64 extents (_branch_operands)
            types: list = []
            for a in block.args:
                types += [value_type(a.type, fn)] + [i64] * _dynamic_count(a.type)
            new = Block(arg_types=types)
            args = iter(new.args)
            for old_arg in block.args:
                em.set(old_arg, next(args))
                if _dynamic_count(old_arg.type):
                    em.extents[old_arg] = [next(args) if int(d) < 0 else None
                                           for d in old_arg.type.get_shape()]  # pyright: ignore
        region.add_block(new)
        em.blocks[block] = new  # pyright: ignore[reportAttributeAccessIssue]
    for block in _reverse_post_order(fn.body):
        em.block = em.blocks[block]  # pyright: ignore[reportAttributeAccessIssue]
        for op in block.ops:
            handler = handlers.get(type(op))
            if handler is None:
                dialect = op.name.split(".", 1)[0]
                hint = {"scf": "; run convert-scf-to-cf first",
                        "linalg": "; run convert-linalg-to-loops first",
                        "tensor": "; bufferize first (one-shot-bufferize)",
                        "bufferization": "; bufferize first (one-shot-bufferize)",
                        "tosa": "; lower TOSA first (tosa-to-linalg-pipeline)",
                        "affine": "; run lower-affine first"}.get(dialect, "")
                raise fail(op, f"no conversion to the llvm dialect{hint}")
            em.op = op
            handler(em, op)
    return _with_attributes(fn, llvm.FuncOp(fn.sym_name, lft, linkage=llvm.LinkageAttr("external"), body=region),
                            lft)


def _with_attributes(fn: func.FuncOp, new: llvm.FuncOp, lft: llvm.LLVMFunctionType) -> llvm.FuncOp:
    """What the outlining passes ask of LLVM, as upstream's func-to-llvm reads it: an
    `llvm.linkage` attribute sets the linkage (an outlined parallel loop is internal: LLVM
    inlines it into its task), a private function with a body is internal (outline-loop-nests),
    `no_inline` is LLVM's noinline (or LLVM inlines the nests straight back into one huge
    function), and `llvm.noalias` argument marks carry over."""
    linkage = fn.attributes.get("llvm.linkage")
    if isinstance(linkage, llvm.LinkageAttr):
        new.linkage = linkage
    elif fn.sym_visibility is not None and fn.sym_visibility.data == "private":
        new.linkage = llvm.LinkageAttr("internal")
    if "no_inline" in fn.attributes:
        new.no_inline = UnitAttr()
    marks = _noalias_attrs(fn, lft)
    if marks is not None:
        new.arg_attrs = marks
    return new


def _noalias_attrs(fn: func.FuncOp, lft: llvm.LLVMFunctionType) -> ArrayAttr | None:
    """The `llvm.noalias` marks of `fn`'s arguments, when they map one to one (the static
    convention: a dynamic memref argument is followed by its extents)."""
    if fn.arg_attrs is None or len(fn.arg_attrs.data) != len(lft.inputs.data):
        return None
    marks = [DictionaryAttr({"llvm.noalias": UnitAttr()} if "llvm.noalias" in d.data else {})
             for d in fn.arg_attrs.data]
    return ArrayAttr(marks) if any(m.data for m in marks) else None
