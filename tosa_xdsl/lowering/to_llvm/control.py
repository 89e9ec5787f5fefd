"""func and cf -> llvm (part of convert-to-llvm), and the function-level driver.

func.func -> llvm.func (external linkage; a declaration stays a declaration), its blocks
converted in reverse post-order (so a value is always converted before its uses), block
arguments with converted types; func.return -> llvm.return (at most one result),
func.call -> llvm.call, cf.br / cf.cond_br -> llvm.br / llvm.cond_br.
"""

from __future__ import annotations

from xdsl.dialects import cf, func, llvm
from xdsl.ir import Block, Operation, Region

from tosa_xdsl.lowering.to_llvm.emitter import (
    Emitter,
    ModuleState,
    fail,
    handles,
    value_type,
)


def function_type(op: Operation, inputs, outputs) -> llvm.LLVMFunctionType:
    if len(outputs) > 1:
        raise fail(op, f"{len(outputs)} results; the LLVM stage takes at most one "
                   "(bufferization turns tensor results into out-parameters)")
    ins = [value_type(t, op) for t in inputs]
    out = value_type(outputs[0], op) if outputs else llvm.LLVMVoidType()
    return llvm.LLVMFunctionType(ins, out)


@handles(func.ReturnOp)
def _return(em: Emitter, op: func.ReturnOp) -> None:
    if len(op.arguments) > 1:
        raise fail(op, "more than one returned value")
    em.add(llvm.ReturnOp(em.get(op.arguments[0]) if op.arguments else None))


@handles(func.CallOp)
def _call(em: Emitter, op: func.CallOp) -> None:
    ft = function_type(op, [a.type for a in op.arguments], [r.type for r in op.results])
    out = None if isinstance(ft.output, llvm.LLVMVoidType) else ft.output
    r = em.add(llvm.CallOp(op.callee, *[em.get(a) for a in op.arguments], return_type=out))
    if op.results:
        em.set(op.results[0], r)


@handles(cf.BranchOp)
def _br(em: Emitter, op: cf.BranchOp) -> None:
    em.add(llvm.BrOp(em.blocks[op.successor], *[em.get(a) for a in op.arguments]))


@handles(cf.ConditionalBranchOp)
def _cond_br(em: Emitter, op: cf.ConditionalBranchOp) -> None:
    em.add(llvm.CondBrOp(em.get(op.cond), em.blocks[op.then_block], [em.get(a) for a in op.then_arguments],
                         em.blocks[op.else_block], [em.get(a) for a in op.else_arguments]))


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


def convert_function(fn: func.FuncOp, module: ModuleState, handlers: dict) -> llvm.FuncOp:
    ft = fn.function_type
    lft = function_type(fn, list(ft.inputs.data), list(ft.outputs.data))
    if not fn.body.blocks:
        return llvm.FuncOp(fn.sym_name, lft, linkage=llvm.LinkageAttr("external"))
    region = Region()
    em = Emitter(module, region)
    em.blocks = {}  # pyright: ignore[reportAttributeAccessIssue]
    for block in fn.body.blocks:  # every llvm block first: branches may point forward
        new = Block(arg_types=[value_type(a.type, fn) for a in block.args])
        region.add_block(new)
        em.blocks[block] = new  # pyright: ignore[reportAttributeAccessIssue]
        for old_arg, new_arg in zip(block.args, new.args):
            em.set(old_arg, new_arg)
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
    return llvm.FuncOp(fn.sym_name, lft, linkage=llvm.LinkageAttr("external"), body=region)
