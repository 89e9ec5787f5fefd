"""`lower-affine`: affine.for / load / store / apply / min / yield -> scf, memref and arith,
as upstream MLIR's pass (mlir/lib/Conversion/AffineToStandard).

Replaces xDSL's pass of the same name, which evaluates loop bounds without their operands
(so `affine.for %i = 0 to %n`, what convert-linalg-to-affine-loops emits for a dynamic size,
crashes it), takes only the first result of a bound map, and lowers `mod` to a bare
`arith.remsi` (wrong for negative operands) and floordiv/ceildiv to arith ops MLIR's LLVM
lowering does not take without arith-expand.

Affine expression semantics (MLIR's AffineExpr): `mod` is the non-negative remainder,
`floordiv` / `ceildiv` round toward -inf / +inf; with the constant positive divisors affine
maps allow, they expand exactly as MLIR's `expandAffineExpr` does:
    a mod b       = r < 0 ? r + b : r                     where r = remsi(a, b)
    a floordiv b  = a < 0 ? -1 - divsi(-1 - a, b) : divsi(a, b)
    a ceildiv b   = a <= 0 ? -divsi(-a, b) : divsi(a - 1, b) + 1
A lower bound with several results is their maximum, an upper bound their minimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tosa_xdsl.diagnostics import LocatedError

PASS_NAME = "lower-affine"


class _Expander:
    """Emits the arith ops of affine expressions into `ops`."""

    def __init__(self, dims: Sequence[SSAValue], symbols: Sequence[SSAValue]):
        self.dims, self.symbols = list(dims), list(symbols)
        self.ops: list[Operation] = []

    def _emit(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def const(self, v: int) -> SSAValue:
        return self._emit(arith.ConstantOp(IntegerAttr.from_index_int_value(v)))

    def expr(self, e: AffineExpr) -> SSAValue:
        if isinstance(e, AffineConstantExpr):
            return self.const(e.value)
        if isinstance(e, AffineDimExpr):
            return self.dims[e.position]
        if isinstance(e, AffineSymExpr):
            return self.symbols[e.position]
        assert isinstance(e, AffineBinaryOpExpr)
        a, b = self.expr(e.lhs), self.expr(e.rhs)
        k = e.kind
        if k == AffineBinaryOpKind.Add:
            return self._emit(arith.AddiOp(a, b))
        if k == AffineBinaryOpKind.Mul:
            return self._emit(arith.MuliOp(a, b))
        zero = self.const(0)
        if k == AffineBinaryOpKind.Mod:
            r = self._emit(arith.RemSIOp(a, b))
            neg = self._emit(arith.CmpiOp(r, zero, "slt"))
            return self._emit(arith.SelectOp(neg, self._emit(arith.AddiOp(r, b)), r))
        if k == AffineBinaryOpKind.FloorDiv:
            minus_one = self.const(-1)
            neg = self._emit(arith.CmpiOp(a, zero, "slt"))
            shifted = self._emit(arith.SubiOp(minus_one, a))
            dividend = self._emit(arith.SelectOp(neg, shifted, a))
            q = self._emit(arith.DivSIOp(dividend, b))
            return self._emit(arith.SelectOp(neg, self._emit(arith.SubiOp(minus_one, q)), q))
        if k == AffineBinaryOpKind.CeilDiv:
            one = self.const(1)
            nonpos = self._emit(arith.CmpiOp(a, zero, "sle"))
            negated = self._emit(arith.SubiOp(zero, a))
            decremented = self._emit(arith.SubiOp(a, one))
            dividend = self._emit(arith.SelectOp(nonpos, negated, decremented))
            q = self._emit(arith.DivSIOp(dividend, b))
            return self._emit(arith.SelectOp(nonpos, self._emit(arith.SubiOp(zero, q)),
                                             self._emit(arith.AddiOp(q, one))))
        raise ValueError(f"affine expression {e}")

    def map(self, m: AffineMap) -> list[SSAValue]:
        return [self.expr(r) for r in m.results]

    def reduce(self, values: list[SSAValue], pred: str) -> SSAValue:
        """max (pred "sgt") or min ("slt") of several bound values, as cmpi + select."""
        acc = values[0]
        for v in values[1:]:
            better = self._emit(arith.CmpiOp(v, acc, pred))
            acc = self._emit(arith.SelectOp(better, v, acc))
        return acc


def _expander(m: AffineMap, operands: Sequence[SSAValue]) -> _Expander:
    return _Expander(operands[: m.num_dims], operands[m.num_dims:])


class LowerAffineFor(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ForOp, rewriter: PatternRewriter, /):
        lb_map, ub_map = op.lowerBoundMap.data, op.upperBoundMap.data
        if not lb_map.results or not ub_map.results:
            raise LocatedError(op, f"{PASS_NAME}: cannot lower 'affine.for': a bound map without results")
        if _single_iteration(op):
            _inline_single_iteration(op, rewriter)
            return
        ex = _expander(lb_map, op.lowerBoundOperands)
        lb = ex.reduce(ex.map(lb_map), "sgt")
        ops = ex.ops
        ex = _expander(ub_map, op.upperBoundOperands)
        ub = ex.reduce(ex.map(ub_map), "slt")
        ops += ex.ops
        step = arith.ConstantOp(IntegerAttr.from_index_int_value(op.step.value.data))
        rewriter.insert([*ops, step])
        body = rewriter.move_region_contents_to_new_regions(op.body)
        rewriter.replace(op, scf.ForOp(lb, ub, step.result, op.inits, body))


def _constant_bound(m: AffineMap) -> int | None:
    if m.num_dims == 0 and m.num_symbols == 0 and len(m.results) == 1 \
            and isinstance(m.results[0], AffineConstantExpr):
        return m.results[0].value
    return None


def single_iteration_start(op: affine.ForOp) -> int | None:
    """The lower bound of a loop with constant bounds and exactly one iteration (a size-1
    dimension: a batch of 1, a 1x1 kernel window, ...), else None. The rule by which loops
    are run as their body once, here and on the JIT's direct road (codegen/direct_llvm)."""
    lb, ub = _constant_bound(op.lowerBoundMap.data), _constant_bound(op.upperBoundMap.data)
    return lb if lb is not None and ub is not None and lb < ub <= lb + op.step.value.data else None


def _single_iteration(op: affine.ForOp) -> bool:
    return single_iteration_start(op) is not None


def _inline_single_iteration(op: affine.ForOp, rewriter: PatternRewriter) -> None:
    """The body, once, with the induction variable = the lower bound: what MLIR's affine
    canonicalization (promoteIfSingleIteration) does before lowering. Same computation, one
    loop fewer (the example model has 229 of them): less IR for every later stage and LLVM."""
    block = op.body.block
    terminator = block.last_op
    assert isinstance(terminator, affine.YieldOp)
    results = list(terminator.arguments)
    iv = arith.ConstantOp(IntegerAttr.from_index_int_value(_constant_bound(op.lowerBoundMap.data) or 0))
    rewriter.insert(iv)
    rewriter.erase(terminator)
    rewriter.inline_block(block, InsertPoint.before(op), [iv.result, *op.inits])
    rewriter.replace(op, [], results)


class LowerAffineYield(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.YieldOp, rewriter: PatternRewriter, /):
        rewriter.replace(op, scf.YieldOp(*op.arguments))


class LowerAffineLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.LoadOp, rewriter: PatternRewriter, /):
        ex = _expander(op.map.data, op.indices)
        indices = ex.map(op.map.data)
        rewriter.replace(op, [*ex.ops, memref.LoadOp.get(op.memref, indices)])


class LowerAffineStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.StoreOp, rewriter: PatternRewriter, /):
        ex = _expander(op.map.data, op.indices)
        indices = ex.map(op.map.data)
        rewriter.replace(op, [*ex.ops, memref.StoreOp.get(op.value, op.memref, indices)])


class LowerAffineApply(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ApplyOp, rewriter: PatternRewriter, /):
        ex = _expander(op.map.data, op.mapOperands)
        (value,) = ex.map(op.map.data)
        rewriter.replace(op, ex.ops, [value])


class LowerAffineMin(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.MinOp, rewriter: PatternRewriter, /):
        ex = _expander(op.map.data, op.operands)
        value = ex.reduce(ex.map(op.map.data), "slt")
        rewriter.replace(op, ex.ops, [value])


@dataclass(frozen=True)
class LowerAffinePass(ModulePass):
    """affine -> scf + memref + arith (replaces xDSL's lower-affine)."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [LowerAffineFor(), LowerAffineYield(), LowerAffineLoad(), LowerAffineStore(),
                 LowerAffineApply(), LowerAffineMin()],
                dce_enabled=False,
            )
        ).rewrite_module(op)
        for left in op.walk():
            if left.name.startswith("affine."):
                raise LocatedError(left, f"{PASS_NAME}: cannot lower '{left.name}'")
