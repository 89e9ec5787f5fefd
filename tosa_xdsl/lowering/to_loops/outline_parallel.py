"""`outline-parallel-loops{threads=N}`: the loops `--threads N` runs on several threads.

Two halves:

* `mark_outer_parallel` (called by `convert-linalg-to-affine-loops{mark-parallel=true}`)
  puts the unit attribute `tosa_xdsl.parallel` on the outermost loop of a structured op's
  nest whose trip count is not 1, if that loop's dim is parallel: it appears as a bare `dN`
  in every output's indexing map, so two different values of it write disjoint output
  elements, and every output element still gets its whole reduction, in the same order,
  from one iteration. (Bufferization writes an op's input buffer in place only when the op
  reads it through the same map as it writes it, bufferize/linalg_rules.py: each iteration
  then reads only elements it writes itself.) A nest whose first non-trivial loop is a
  reduction (a linalg.reduce over its leading dim) gets no mark.

* the pass outlines the body of every marked `affine.for %i = lb to ub step s` of a
  function `@f` whose nest executes at least `min-work` operations (smaller nests are not
  worth waking a thread for; their mark is dropped) into

      func.func private @f__parallel_K(%lo: index, %hi: index, %captures...) {
        affine.for %i = lo * s + lb to hi * s + lb step s { the same body }
      }

  and replaces the loop by `func.call @f__parallel_K(%c0, %trip, %captures...)
  {tosa_xdsl.parallel_threads = N : i64}`, with %trip = ceildiv(ub - lb, s): the call runs
  iterations [0, trip), so the IR means the same with or without threads (the interpreter
  runs it as a plain call). The captures are the values the body uses from outside the loop
  (buffers, outer induction variables, run-time sizes, scalars), each once; constants and
  `memref.get_global`s are cloned into the new function instead. A captured buffer whose
  allocation (followed through views: subview, collapse/expand_shape, cast) is distinct
  from every other capture's gets `{llvm.noalias}`, as the entry function's arguments have
  under NativeModule, so LLVM keeps register tiles without run-time alias checks.

  `convert-to-llvm` (lowering/to_llvm/parallel_call.py) turns the marked call into a call of
  the pool, `tosa_xdsl_parallel_for(@f__parallel_K__task, ctx, 0, trip, N)`, the captures
  stored in `ctx` (codegen/thread_pool.py runs [0, trip) in N contiguous chunks). With
  `threads=1` the pass only drops the marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, llvm, memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    UnitAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.lowering.pipelines import MAX_THREADS

PARALLEL_ATTR = "tosa_xdsl.parallel"  # on an affine.for: its iterations are independent
THREADS_ATTR = "tosa_xdsl.parallel_threads"  # on the func.call that replaced it
PASS_NAME = "outline-parallel-loops"
DEFAULT_MIN_WORK = 1_000_000  # `work` of a nest: below, one thread is as fast (docs/native.md, "--threads N")

# --------------------------------------------------------------------------- marking


def constant_trip_count(loop: affine.ForOp) -> int | None:
    """The trip count of a loop whose bounds differ by a constant (constant bounds, or the
    tile loop [%i, %i + 8) of register tiling), else None."""
    lbm, ubm = loop.lowerBoundMap.data, loop.upperBoundMap.data
    if len(lbm.results) != 1 or len(ubm.results) != 1:
        return None
    if list(loop.lowerBoundOperands) != list(loop.upperBoundOperands) or \
            (lbm.num_dims, lbm.num_symbols) != (ubm.num_dims, ubm.num_symbols):
        return None
    n = lbm.num_dims + lbm.num_symbols
    spans = set()
    for point in ((0,) * n, tuple(range(3, 3 + n)), tuple(range(17, 17 + 5 * n, 5))):
        dims, syms = point[:lbm.num_dims], point[lbm.num_dims:]
        spans.add(ubm.eval(dims, syms)[0] - lbm.eval(dims, syms)[0])
    if len(spans) != 1:
        return None  # the span depends on the operands
    step = loop.step.value.data
    return max(0, -(-spans.pop() // step))


def mark_outer_parallel(nest: Sequence[tuple[Operation, int]], out_maps: Sequence[AffineMap]) -> None:
    """Mark the outermost non-trivial loop of `nest` ((loop, dim), outermost first) if its
    dim is parallel (a bare result of every output map)."""
    if not out_maps:
        return
    parallel = set.intersection(*({r.position for r in m.results if isinstance(r, AffineDimExpr)}
                                  for m in out_maps))
    for loop, dim in nest:
        if not isinstance(loop, affine.ForOp):
            return
        if constant_trip_count(loop) in (0, 1):
            continue
        if dim in parallel:
            loop.attributes[PARALLEL_ATTR] = UnitAttr()
        return


# --------------------------------------------------------------------------- outlining


def work(region: Region) -> float:
    """Operations the region executes: each op counts 1 per execution (its regions added), a
    loop its trip count times its body's (a run-time trip count counts as large).

    Why this estimate: it needs only the affine bounds the nest already has, it grows with
    what a thread saves (iterations times the work of each, reductions included), and it is
    the same number on every machine, so `min-work` is a plain option. It counts IR
    operations, not instructions: LLVM vectorises, keeps register tiles' accumulators in
    registers and hoists loop-invariant loads, so one counted op costs from ~5 ps (the
    register-tiled convolutions of the example: 2.4e8 ops in ~1.1 ms) to ~0.1 ns (a scalar
    elementwise nest) on the bench machine. The threshold is chosen for the cheap end, so a
    nest it keeps parallel is worth a fork/join whatever its kind (docs/native.md)."""
    total = 0.0
    for block in region.blocks:
        for op in block.ops:
            if isinstance(op, affine.ForOp):
                trips = constant_trip_count(op)
                total += (1e6 if trips is None else trips) * work(op.body)
            else:
                total += 1 + sum(work(r) for r in op.regions)
    return total


def nest_work(loop: affine.ForOp) -> float:
    """`work` of the whole loop: its trip count (a run-time one counts as large) times its body's."""
    trips = constant_trip_count(loop)
    return (1e6 if trips is None else trips) * work(loop.body)


_CLONED = (arith.ConstantOp, memref.GetGlobalOp)  # cheaper to repeat than to pass
_VIEWS = (memref.SubviewOp, memref.CollapseShapeOp, memref.ExpandShapeOp, memref.CastOp,
          memref.ReinterpretCastOp, UnrealizedConversionCastOp)


def _inside(v: SSAValue, loop: Operation) -> bool:
    owner = v.op if isinstance(v, OpResult) else v.block if isinstance(v, BlockArgument) else None
    return owner is not None and loop.is_ancestor(owner)


def _free_values(loop: Operation) -> list[SSAValue]:
    """Values used in `loop` and defined outside it, in order of first use."""
    seen: dict[SSAValue, None] = {}
    for op in loop.walk():
        if op is loop:
            continue
        for v in op.operands:
            if v not in seen and not _inside(v, loop):
                seen[v] = None
    return list(seen)


def _single_iteration_value(v: SSAValue) -> int | None:
    """The value of the induction variable of an enclosing loop with one iteration (a batch
    of 1): a constant, so LLVM folds it out of the addresses as in the caller."""
    if not isinstance(v, BlockArgument) or v.index != 0:
        return None
    loop = v.block.parent_op()
    if not isinstance(loop, affine.ForOp) or constant_trip_count(loop) != 1 or loop.lowerBoundOperands:
        return None
    lo = loop.lowerBoundMap.data.results[0]
    return lo.value if isinstance(lo, AffineConstantExpr) else None


def _root(v: SSAValue, called: set[str]) -> object | None:
    """The allocation a buffer value views (an op result, an argument of a function nothing
    in the module calls, a global's name), or None when it cannot be told (a loop-carried
    or block argument, an argument of a function called with who knows what)."""
    while isinstance(v, OpResult) and isinstance(v.op, _VIEWS):
        v = v.op.operands[0]
    if isinstance(v, OpResult):
        if isinstance(v.op, memref.GetGlobalOp):
            return ("global", v.op.name_prop.root_reference.data)
        if isinstance(v.op, (memref.AllocOp, memref.AllocaOp)):
            return v.op
        return None
    fn = v.block.parent_op() if isinstance(v, BlockArgument) else None
    if isinstance(fn, func.FuncOp) and v.block is fn.body.blocks[0] and fn.sym_name.data not in called:
        return ("arg", v.index)  # pyright: ignore[reportAttributeAccessIssue]
    return None


def _noalias(captures: Sequence[SSAValue], called: set[str]) -> list[bool]:
    """Which captured buffers may be marked noalias: their root is known and no other
    capture shares it (the function's own arguments are distinct buffers or read-only
    inputs: the ABI of docs/native.md)."""
    roots = [_root(v, called) if isinstance(v.type, MemRefType) else None for v in captures]
    buffers = [r for r, v in zip(roots, captures) if isinstance(v.type, MemRefType)]
    if any(r is None for r in buffers):
        return [False] * len(captures)
    return [r is not None and buffers.count(r) == 1 for r in roots]


def _check_bounds(loop: affine.ForOp) -> int:
    lbm = loop.lowerBoundMap.data
    if loop.lowerBoundOperands or len(lbm.results) != 1 or not isinstance(lbm.results[0], AffineConstantExpr):
        raise LocatedError(loop, f"{PASS_NAME}: a parallel loop needs a constant lower bound")
    if len(loop.upperBoundMap.data.results) != 1:
        raise LocatedError(loop, f"{PASS_NAME}: a parallel loop needs a single upper bound")
    if loop.inits:
        raise LocatedError(loop, f"{PASS_NAME}: a parallel loop cannot carry values")
    return lbm.results[0].value


def outline(loop: affine.ForOp, name: str, threads: int, called: set[str]) -> func.FuncOp:
    """Outline `loop` into a new function `name` and replace it by the marked call; returns
    the new function (not yet inserted). `called`: the functions the module calls."""
    lb = _check_bounds(loop)
    step = loop.step.value.data
    free = _free_values(loop)
    cloned = [v for v in free if isinstance(v, OpResult) and isinstance(v.op, _CLONED)]
    fixed = {v: c for v in free if (c := _single_iteration_value(v)) is not None}
    captures = [v for v in free if v not in cloned and v not in fixed]

    body = Block(arg_types=[IndexType(), IndexType(), *[v.type for v in captures]])
    lo, hi = body.args[0], body.args[1]
    mapping: dict[SSAValue, SSAValue] = dict(zip(captures, body.args[2:]))
    for v in cloned:
        assert isinstance(v, OpResult)
        c = v.op.clone()
        body.add_op(c)
        mapping[v] = c.results[v.index]
    for v, value in fixed.items():  # lower-affine makes them constants in the caller too
        c = arith.ConstantOp(IntegerAttr.from_index_int_value(value))
        body.add_op(c)
        mapping[v] = c.result
    s0 = AffineExpr.symbol(0)
    bound = AffineMapAttr(AffineMap(0, 1, (s0 * step + lb,)))
    new_loop = affine.ForOp.from_region([lo], [hi], [], [], bound, bound, Region(), step)
    loop.body.clone_into(new_loop.body, value_mapper=mapping)
    for inner in new_loop.walk():
        inner.attributes.pop(PARALLEL_ATTR, None)  # one level of threads
    body.add_op(new_loop)
    body.add_op(func.ReturnOp())
    arg_attrs = [DictionaryAttr({}), DictionaryAttr({})] + [
        DictionaryAttr({"llvm.noalias": UnitAttr()} if na else {}) for na in _noalias(captures, called)]
    outlined = func.FuncOp(name, ([t for t in body.arg_types], []), Region(body), visibility="private",
                           arg_attrs=ArrayAttr(arg_attrs))
    outlined.attributes["llvm.linkage"] = llvm.LinkageAttr("internal")  # upstream's func-to-llvm reads it

    # the call: iterations [0, trip)
    ubm = loop.upperBoundMap.data
    trip_expr = ubm.results[0] if (lb, step) == (0, 1) else (ubm.results[0] - lb).ceil_div(step)
    pre: list[Operation] = []
    zero = arith.ConstantOp(IntegerAttr.from_index_int_value(0))
    pre.append(zero)
    trips = constant_trip_count(loop)
    if trips is not None:
        trip_op: Operation = arith.ConstantOp(IntegerAttr.from_index_int_value(trips))
    else:
        trip_op = affine.ApplyOp(list(loop.upperBoundOperands),
                                 AffineMapAttr(AffineMap(ubm.num_dims, ubm.num_symbols, (trip_expr,))))
    pre.append(trip_op)
    call = func.CallOp(name, [zero.result, trip_op.results[0], *captures], [])
    call.attributes[THREADS_ATTR] = IntegerAttr(threads, i64)
    parent = loop.parent_block()
    assert parent is not None
    for op in (*pre, call):
        parent.insert_op_before(op, loop)
    loop.detach()
    loop.erase()
    return outlined


@dataclass(frozen=True)
class OutlineParallelLoopsPass(ModulePass):
    """Outline each loop marked `tosa_xdsl.parallel` into a function called through the
    thread pool (`threads` > 1); with threads=1 only the marks are dropped."""

    name: ClassVar[str] = PASS_NAME

    threads: int = 2
    min_work: int = DEFAULT_MIN_WORK

    def __post_init__(self) -> None:  # a bad option is a CLI error (exit 2), caught at parse time
        if not 1 <= self.threads <= MAX_THREADS:
            raise ValueError(f"{PASS_NAME}: threads must be between 1 and {MAX_THREADS}, got {self.threads}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        called = {c.callee.string_value() for c in op.walk() if isinstance(c, func.CallOp)}
        names = {str(getattr(f, "sym_name").data) for f in op.ops if hasattr(f, "sym_name")}
        for fn in [f for f in op.ops if isinstance(f, func.FuncOp)]:
            marked = [lp for lp in fn.walk() if isinstance(lp, affine.ForOp) and PARALLEL_ATTR in lp.attributes]
            last: Operation = fn
            for loop in marked:
                if not fn.is_ancestor(loop):
                    continue  # inside a loop outlined before (erased; its copy lost the mark)
                del loop.attributes[PARALLEL_ATTR]
                if self.threads == 1 or self._too_small(loop):
                    continue
                name = _fresh(f"{fn.sym_name.data}__parallel", names)
                new = outline(loop, name, self.threads, called)
                op.body.block.insert_op_after(new, last)
                last = new

    def _too_small(self, loop: affine.ForOp) -> bool:
        return nest_work(loop) < self.min_work


def _fresh(base: str, names: set[str]) -> str:
    k = 0
    while f"{base}_{k}" in names:
        k += 1
    names.add(f"{base}_{k}")
    return f"{base}_{k}"

