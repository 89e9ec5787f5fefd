"""Loops, branches and calls -> LLVM IR text (direct road): affine loops expanded as
lower-affine does, scf.for / scf.if as convert-scf-to-cf's blocks, func.call / return, and the
thread pool's calls as to_llvm/parallel_call.py makes them."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, func, scf
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
)
from xdsl.ir import Block, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from tosa_xdsl.codegen.direct_llvm.memory import _loaded, _stored
from tosa_xdsl.codegen.direct_llvm.scalars import _safe_divisor, _zero_if
from tosa_xdsl.lowering.to_loops.lower_affine import single_iteration_start
from tosa_xdsl.codegen.direct_llvm.text import (
    HANDLERS,
    Function,
    Unsupported,
    _static,
    ir_type,
)


def _loop(fn: Function, ity: str, lb: str, ub: str, step: str, inits: list[str], body: Block,
          results: Sequence[SSAValue]) -> None:
    """convert-scf-to-cf's shape of an scf.for: br header; header: phis, icmp slt, br body /
    exit; body ... iv + step, br header. The loop's results are the header's phis."""
    header, body_label, done = fn.new_label(), fn.new_label(), fn.new_label()
    before = fn.label
    fn.line(f"br label %{header}")
    fn.start(header)
    iv = fn.fresh()
    carried = [fn.fresh() for _ in inits]
    types = [ir_type(a.type) for a in body.args[1:]]
    phi_at = len(fn.out)
    fn.out.extend("" for _ in range(1 + len(inits)))
    cond = fn.emit(f"icmp slt {ity} {iv}, {ub}")
    fn.line(f"br i1 {cond}, label %{body_label}, label %{done}")
    fn.start(body_label)
    fn.names[body.args[0]] = iv
    for a, c in zip(body.args[1:], carried):
        fn.names[a] = c
    yielded = fn.body(body)
    nxt = fn.emit(f"add {ity} {iv}, {step}")
    latch = fn.label
    fn.line(f"br label %{header}")
    fn.out[phi_at] = f"  {iv} = phi {ity} [{lb}, %{before}], [{nxt}, %{latch}]"
    for k, (c, t, init, y) in enumerate(zip(carried, types, inits, yielded)):
        fn.out[phi_at + 1 + k] = f"  {c} = phi {t} [{init}, %{before}], [{y}, %{latch}]"
    for r, c in zip(results, carried):
        fn.names[r] = c
    fn.start(done)


def _for(fn: Function, op: scf.ForOp) -> None:
    _loop(fn, ir_type(op.lb.type), fn.get(op.lb), fn.get(op.ub), fn.get(op.step), [fn.get(v) for v in op.iter_args],
          op.body.block, op.results)


# ------------------------------------------------------------------------ affine (lower-affine's expansion)

def _affine_expr(fn: Function, e: AffineExpr, dims: Sequence[str], symbols: Sequence[str]) -> str:
    """lower-affine's `_Expander.expr`, then convert-to-llvm's arith: the same instructions in
    the same order (mod and floordiv: a fused epilogue's reshape, nest_fusion.py; ceildiv:
    Unsupported, the llvm-dialect road has it)."""
    kind = type(e)  # the expression classes are final; isinstance on them is an ABC check
    if kind is AffineDimExpr:
        return dims[e.position]  # pyright: ignore[reportAttributeAccessIssue]
    if kind is AffineConstantExpr:
        return fn.const(e.value)  # pyright: ignore[reportAttributeAccessIssue]
    if kind is AffineSymExpr:
        return symbols[e.position]  # pyright: ignore[reportAttributeAccessIssue]
    assert isinstance(e, AffineBinaryOpExpr)
    a, b = _affine_expr(fn, e.lhs, dims, symbols), _affine_expr(fn, e.rhs, dims, symbols)
    if e.kind == AffineBinaryOpKind.Add:
        return fn.emit(f"add i64 {a}, {b}")
    if e.kind == AffineBinaryOpKind.Mul:
        return fn.emit(f"mul i64 {a}, {b}")
    if e.kind == AffineBinaryOpKind.Mod:  # remsi, then + b where negative
        r = _signed_div(fn, "srem", a, b)
        neg = fn.emit(f"icmp slt i64 {r}, 0")
        return fn.emit(f"select i1 {neg}, i64 {fn.emit(f'add i64 {r}, {b}')}, i64 {r}")
    if e.kind == AffineBinaryOpKind.FloorDiv:  # a < 0 ? -1 - divsi(-1 - a, b) : divsi(a, b)
        neg = fn.emit(f"icmp slt i64 {a}, 0")
        shifted = fn.emit(f"sub i64 -1, {a}")
        q = _signed_div(fn, "sdiv", fn.emit(f"select i1 {neg}, i64 {shifted}, i64 {a}"), b)
        return fn.emit(f"select i1 {neg}, i64 {fn.emit(f'sub i64 -1, {q}')}, i64 {q}")
    raise Unsupported(f"affine expression {e}")


def _signed_div(fn: Function, kind: str, a: str, b: str) -> str:
    """arith.divsi / remsi on index values as convert-to-llvm writes them (scalars._div_rem)."""
    safe, zero = _safe_divisor(fn, a, b, "i64", 64, True)
    return _zero_if(fn, zero, fn.emit(f"{kind} i64 {a}, {safe}"), "i64")


def _affine_map(fn: Function, m: AffineMap, operands: Sequence[SSAValue]) -> list[str]:
    names = [fn.get(v) for v in operands]
    dims, symbols = names[:m.num_dims], names[m.num_dims:]
    return [_affine_expr(fn, r, dims, symbols) for r in m.results]


def _reduce(fn: Function, values: list[str], pred: str) -> str:
    acc = values[0]
    for v in values[1:]:
        better = fn.emit(f"icmp {pred} i64 {v}, {acc}")
        acc = fn.emit(f"select i1 {better}, i64 {v}, i64 {acc}")
    return acc


def _affine_for(fn: Function, op: affine.ForOp) -> None:
    lb_map, ub_map = op.lowerBoundMap.data, op.upperBoundMap.data
    if not lb_map.results or not ub_map.results:
        raise Unsupported("a bound map without results")
    step = op.step.value.data
    body = op.body.block
    inits = [fn.get(v) for v in op.inits]
    lo = single_iteration_start(op)
    if lo is not None:
        # one iteration: the body once, as lower-affine does (its promoteIfSingleIteration)
        fn.names[body.args[0]] = fn.const(lo)
        for a, v in zip(body.args[1:], inits):
            fn.names[a] = v
        for r, v in zip(op.results, fn.body(body)):
            fn.names[r] = v
        return
    lb = _reduce(fn, _affine_map(fn, lb_map, op.lowerBoundOperands), "sgt")
    ub = _reduce(fn, _affine_map(fn, ub_map, op.upperBoundOperands), "slt")
    _loop(fn, "i64", lb, ub, fn.const(step), inits, body, op.results)


def _affine_load(fn: Function, op: affine.LoadOp) -> None:
    indices = _affine_map(fn, op.map.data, op.indices)
    ptr, ty = fn.element_at(op.memref, indices)
    fn.names[op.result] = _loaded(fn, ptr, ty, op.result.type)


def _affine_store(fn: Function, op: affine.StoreOp) -> None:
    indices = _affine_map(fn, op.map.data, op.indices)
    ptr, ty = fn.element_at(op.memref, indices)
    _stored(fn, ptr, ty, op.value.type, fn.get(op.value))


def _affine_apply(fn: Function, op: affine.ApplyOp) -> None:
    (fn.names[op.result],) = _affine_map(fn, op.map.data, op.mapOperands)


def _affine_min(fn: Function, op: affine.MinOp) -> None:
    fn.names[op.result] = _reduce(fn, _affine_map(fn, op.map.data, op.operands), "slt")


def _if(fn: Function, op: scf.IfOp) -> None:
    then_label, else_label, done = fn.new_label(), fn.new_label(), fn.new_label()
    fn.line(f"br i1 {fn.get(op.cond)}, label %{then_label}, label %{else_label}")
    incoming = []
    for label, region in ((then_label, op.true_region), (else_label, op.false_region)):
        fn.start(label)
        yielded: list[str] = []
        if region.blocks:
            if len(region.blocks) != 1:
                raise Unsupported("an scf.if region of several blocks")
            yielded = fn.body(region.block)
        incoming.append((yielded, fn.label))
        fn.line(f"br label %{done}")
    fn.start(done)
    for k, r in enumerate(op.results):
        t = ir_type(r.type)
        (a, la), (b, lb) = incoming
        fn.names[r] = fn.emit(f"phi {t} [{a[k]}, %{la}], [{b[k]}, %{lb}]")


def _slot_size(ty: str) -> int:
    """parallel_call._size: bytes of a context slot's value."""
    if ty == "ptr":
        return 8
    if ty[0] == "i":
        return next((b for b in (1, 2, 4, 8) if 8 * b >= int(ty[1:])), 16)
    return {"half": 2, "float": 4, "double": 8}[ty]


def _parallel_call(fn: Function, op: func.CallOp) -> None:
    """to_llvm/parallel_call.py: the captures stored into an entry-block alloca of 8-byte
    slots, `tosa_xdsl_parallel_for(@task, ctx, lo, hi, threads)`, and the task function that
    loads them and calls the outlined loop."""
    from tosa_xdsl.lowering.to_llvm.parallel_call import POOL_SYMBOL, THREADS_ATTR

    threads = op.attributes[THREADS_ATTR]
    if not isinstance(threads, IntegerAttr) or len(op.arguments) < 2 or op.results:
        raise Unsupported("a malformed thread-pool call")
    captures = op.arguments[2:]
    for a in captures:
        if isinstance(a.type, MemRefType):
            _static(a.type)
    types = [ir_type(a.type) for a in captures]
    if any(_slot_size(t) > 8 for t in types):
        raise Unsupported("a capture wider than 64 bits")
    ctx = fn.fresh()
    fn.entry.insert(0, f"  {ctx} = alloca ptr, i64 {max(1, len(captures))}, align 16")
    for i, (a, t) in enumerate(zip(captures, types)):
        slot = fn.emit(f"getelementptr {t}, ptr {ctx}, i32 {8 * i // _slot_size(t)}")
        fn.line(f"store {t} {fn.get(a)}, ptr {slot}")
    callee = op.callee.root_reference.data
    task = f"{callee}__task"
    tasks = fn.module.tasks
    assert tasks is not None
    if task not in tasks:
        lines = [f'define internal void @"{task}"(i64 %lo, i64 %hi, ptr %ctx)', "{", "entry:"]
        loaded = []
        for i, t in enumerate(types):
            lines.append(f"  %s{i} = getelementptr {t}, ptr %ctx, i32 {8 * i // _slot_size(t)}")
            lines.append(f"  %l{i} = load {t}, ptr %s{i}")
            loaded.append(f"{t} %l{i}")
        lines += [f'  call void @"{callee}"({", ".join(["i64 %lo", "i64 %hi", *loaded])})', "  ret void", "}"]
        tasks[task] = lines
        fn.module.size += 2 * len(types) + 2
    lo, hi = (fn.get(a) for a in op.arguments[:2])
    fn.call(POOL_SYMBOL, "void", [("ptr", f'@"{task}"'), ("ptr", ctx), ("i64", lo), ("i64", hi),
                                  ("i64", fn.const(threads.value.data))])


def _call(fn: Function, op: func.CallOp) -> None:
    from tosa_xdsl.lowering.to_llvm.parallel_call import THREADS_ATTR

    if THREADS_ATTR in op.attributes:
        _parallel_call(fn, op)
        return
    if op.attributes:
        raise Unsupported("a call with attributes")
    if len(op.results) > 1:
        raise Unsupported("a call with several results")
    for v in (*op.arguments, *op.results):
        if isinstance(v.type, MemRefType):
            _static(v.type)
    result = ir_type(op.results[0].type) if op.results else "void"
    args = ", ".join(f"{ir_type(a.type)} {fn.get(a)}" for a in op.arguments)
    text = f'call {result} @"{op.callee.root_reference.data}"({args})'
    if op.results:
        fn.names[op.results[0]] = fn.emit(text)
    else:
        fn.line(text)


def _return(fn: Function, op: func.ReturnOp) -> None:
    if len(op.arguments) > 1:
        raise Unsupported("several returned values")
    if op.arguments:
        v = op.arguments[0]
        fn.line(f"ret {ir_type(v.type)} {fn.get(v)}")
    else:
        fn.line("ret void")



HANDLERS.update({
    scf.ForOp: _for,
    affine.ForOp: _affine_for,
    affine.LoadOp: _affine_load,
    affine.StoreOp: _affine_store,
    affine.ApplyOp: _affine_apply,
    affine.MinOp: _affine_min,
    scf.IfOp: _if,
    func.CallOp: _call,
    func.ReturnOp: _return,
})
