"""`tosa-reduce-transposes`: remove TRANSPOSE ops, exactly.

Patterns (all bit-exact: they only move data, never change a value):
* transpose(transpose(x, p1), p2) -> transpose(x, p1∘p2), identity -> x;
* transpose(const) -> const (the data permuted at compile time);
* a transpose that only moves size-1 dims (the other dims keep their order) -> reshape;
* sinking: an elementwise op whose tensor operands are all single-use transposes with the
  same perms, or constants, is applied before the transpose:
  E(transpose(x, p), transpose(y, p), c) -> transpose(E(x, y, transpose(c, p^-1)), p).
  Transposes thus travel towards the outputs until they meet another transpose (and
  cancel or compose) or a non-elementwise op. Elementwise ops: the unary/binary/ternary/
  comparison/activation operators, CAST, NEGATE, TABLE, per-tensor RESCALE.
"""

from __future__ import annotations

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from tosa_xdsl.dialects.tosa.ops import activation as act
from tosa_xdsl.dialects.tosa.ops import base
from tosa_xdsl.dialects.tosa.ops import data_layout as dl
from tosa_xdsl.dialects.tosa.ops import elementwise_binary as eb
from tosa_xdsl.dialects.tosa.ops import elementwise_ternary as et
from tosa_xdsl.dialects.tosa.ops import elementwise_unary as eu
from tosa_xdsl.dialects.tosa.ops import type_conversion as tc
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp
from tosa_xdsl.interpreter.common import prop
from tosa_xdsl.passes._rewrite_utils import (
    const_tensor,
    make_const,
    make_reshape,
    make_transpose,
    perms_of,
    static_shape,
)
from tosa_xdsl.passes.canonicalization_patterns import (
    TransposeIdentity,
    TransposeTranspose,
)


def _valid_perms(op: dl.TransposeOp) -> list[int] | None:
    p = perms_of(op)
    t = op.input1.type
    if p is None or not isinstance(t, TensorType) or sorted(p) != list(range(t.get_num_dims())):
        return None
    return p


class TransposeConst(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if type(op) is not dl.TransposeOp or static_shape(op.output) is None:
            return
        p = _valid_perms(op)
        arr = const_tensor(op.input1)
        if p is None or arr is None:
            return
        rewriter.replace(op, make_const(np.ascontiguousarray(np.transpose(arr, p)), op.output.type))


class TransposeToReshape(RewritePattern):
    """A transpose that keeps the order of the dims of size != 1 is a reshape."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if type(op) is not dl.TransposeOp:
            return
        p = _valid_perms(op)
        shape = static_shape(op.input1)
        if p is None or shape is None or static_shape(op.output) is None:
            return
        if p == list(range(len(p))):
            return
        moved = [d for d in p if shape[d] != 1]
        if moved != sorted(moved):
            return
        rewriter.replace(op, make_reshape(op.input1, op.output.type))


def _tensor_operand_names(op: Operation) -> tuple[str, ...] | None:
    """The operands of an elementwise op that are indexed like its output."""
    if isinstance(op, (base.UnaryElementwiseOp, eu.NegateOp, eb.TableOp)):
        return ("input1",)
    if isinstance(op, (act.ActivationOp, tc.CastOp)):
        return ("input",)
    if isinstance(op, tc.RescaleOp):
        return None if prop(op, "per_channel", False) else ("input",)
    if isinstance(op, (base.BinaryElementwiseOp, base.ComparisonOp, eb.MulOp)):
        return ("input1", "input2")
    if isinstance(op, et.SelectOp):
        return ("input1", "input2", "input3")
    return None


class SinkTransposeThroughElementwise(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        names = _tensor_operand_names(op)
        if names is None or len(op.results) != 1:
            return
        out_t = op.results[0].type
        if not isinstance(out_t, TensorType):
            return
        perms = None
        for name in names:
            owner = getattr(op, name).owner
            if isinstance(owner, dl.TransposeOp):
                p = _valid_perms(owner)
                if p is None or (perms is not None and p != perms):
                    return
                perms = p
        if perms is None or len(perms) != out_t.get_num_dims():
            return
        inverse = [0] * len(perms)
        for i, d in enumerate(perms):
            inverse[d] = i
        new_ops: list[Operation] = []
        replacements: dict[str, SSAValue] = {}
        for name in names:
            value = getattr(op, name)
            owner = value.owner
            if isinstance(owner, dl.TransposeOp):
                if sum(1 for _ in value.uses) != 1:
                    return  # the transpose would stay for its other users
                replacements[name] = owner.input1
            elif isinstance(owner, ConstOp) and static_shape(value) is not None:
                arr = const_tensor(value)
                if arr is None:
                    return
                shape = static_shape(value)
                t = TensorType(value.type.element_type, [shape[d] for d in inverse])
                c = make_const(np.ascontiguousarray(np.transpose(arr, inverse)), t)
                new_ops.append(c)
                replacements[name] = c.output
            else:
                return
        shape = out_t.get_shape()
        new_out = TensorType(out_t.element_type, [shape[d] for d in inverse])
        operands = [replacements.get(self._name_of(op, i), v) for i, v in enumerate(op.operands)]
        new = type(op).create(operands=operands, result_types=[new_out],
                              properties=dict(op.properties), attributes=dict(op.attributes))
        back = make_transpose(new.results[0], perms, out_t)
        rewriter.replace(op, [*new_ops, new, back])

    @staticmethod
    def _name_of(op: Operation, index: int) -> str | None:
        for name in ("input", "input1", "input2", "input3"):
            v = getattr(op, name, None)
            if isinstance(v, SSAValue) and v is op.operands[index]:
                return name
        return None


PATTERNS: tuple[RewritePattern, ...] = (
    TransposeIdentity(), TransposeTranspose(), TransposeConst(), TransposeToReshape(),
    SinkTransposeThroughElementwise(),
)


class TosaReduceTransposesPass(ModulePass):
    name = "tosa-reduce-transposes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(list(PATTERNS))).rewrite_module(op)
