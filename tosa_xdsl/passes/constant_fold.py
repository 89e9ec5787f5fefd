"""`tosa-layerwise-constant-fold`: replace operators whose inputs are all constants by a
`tosa.const` holding their result.

    tosa-opt -p 'tosa-layerwise-constant-fold'
    tosa-opt -p 'tosa-layerwise-constant-fold{aggressive-reduce-constant=true max-elements=4096}'

The result is computed by the reference interpreter's own implementation of the operator
(tosa_xdsl.interpreter: the same numpy kernels `tosa-run` uses), so folding can never
disagree with running the graph; it is materialized with `dense.from_numpy`, bit-exact for
every element type (i48, i4, bf16, fp8, NaN payloads).

Folded: the elementwise operators (binary, unary, ternary, comparison, activation, TABLE),
CAST, RESCALE, IDENTITY, the data-layout operators (CONCAT, PAD, RESHAPE, REVERSE, SLICE,
TILE, TRANSPOSE), the reductions and ARGMAX. Not folded: CONV/POOL/MATMUL/FFT/RESIZE/
GATHER/SCATTER (compute-heavy, left to the backend), ops with regions or side effects
(COND_IF, WHILE_LOOP, variables, CUSTOM).

An operator is left alone when
* an input is not a `tosa.const`/`tosa.const_shape` with a dense literal, or a result type
  is not fully static;
* any input or result has more than `max-elements` elements (default 2^20);
* the interpreter reports an ERROR_IF or a failed REQUIRE (the graph keeps its error for
  run time; no diagnostic here) or cannot run it;
* folding would duplicate a constant (as upstream): a non-splat constant input that also
  feeds other operators is only folded when the result is a splat, or, for the reductions
  and ARGMAX, with `aggressive-reduce-constant=true`.
Constants left without users by folding are erased.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_xdsl.dialects.tosa.ops import (
    activation,
    comparison,
    data_layout,
    elementwise_binary,
    elementwise_ternary,
    elementwise_unary,
    reduction,
    type_conversion,
)
from tosa_xdsl.dialects.tosa.ops.data_nodes import ConstOp, IdentityOp
from tosa_xdsl.dialects.tosa.ops.shape import ConstShapeOp
from tosa_xdsl.dialects.tosa.ops.tensor import ArgMaxOp

REDUCING: tuple[type[Operation], ...] = (*reduction.OPS, ArgMaxOp)
FOLDABLE: tuple[type[Operation], ...] = (
    *elementwise_binary.OPS, *elementwise_unary.OPS, *elementwise_ternary.OPS,
    *comparison.OPS, *activation.OPS, *type_conversion.OPS, *data_layout.OPS,
    IdentityOp, *REDUCING,
)

DEFAULT_MAX_ELEMENTS = 1 << 20


def _elements(t: Any) -> int | None:
    if isinstance(t, TensorType) and t.has_static_shape():
        return math.prod(t.get_shape())
    return None


def _is_splat(value: np.ndarray) -> bool:
    if value.size <= 1:
        return True
    flat = np.ascontiguousarray(value).reshape(-1)
    # compare bit patterns (NaN payloads, -0.0) rather than values
    raw = flat.view(np.uint8).reshape(flat.size, -1)
    return bool((raw == raw[0]).all())


class ConstantFolder:
    def __init__(self, module: ModuleOp, *, aggressive_reduce_constant: bool = False,
                 max_elements: int = DEFAULT_MAX_ELEMENTS):
        from tosa_xdsl.interpreter.runner import build_interpreter

        self.interpreter = build_interpreter(module)
        self.aggressive = aggressive_reduce_constant
        self.max_elements = max_elements
        self.folded = 0

    def _run(self, op: Operation, args: tuple) -> tuple | None:
        from tosa_xdsl.interpreter.errors import TosaRunError

        self.interpreter.op_stack = []
        try:
            with np.errstate(all="ignore"):
                return tuple(self.interpreter._run_op(op, args).values)  # pyright: ignore[reportPrivateUsage]
        except TosaRunError:
            return None  # ERROR_IF, REQUIRE, unsupported or internal: leave the op

    def _value(self, op: Operation) -> Any | None:
        """The value of a constant-producing op, or None."""
        if isinstance(op, ConstShapeOp):
            return tuple(op.shape_values())
        if isinstance(op, ConstOp) and isinstance(op.values, (DenseIntOrFPElementsAttr, DenseResourceAttr)):
            n = _elements(op.output.type)
            if n is None or n > self.max_elements:
                return None
            result = self._run(op, ())
            return None if result is None else result[0]
        return None

    def fold(self, op: Operation) -> bool:
        if not _foldable(type(op)) or op.regions or op.parent is None:
            return False
        for r in op.results:
            n = _elements(r.type)
            if n is None or n > self.max_elements:
                return False
        producers: list[Operation] = []
        args = []
        for operand in op.operands:
            owner = operand.owner
            if not isinstance(owner, (ConstOp, ConstShapeOp)):
                return False
            value = self._value(owner)
            if value is None:
                return False
            producers.append(owner)
            args.append(value)
        results = self._run(op, tuple(args))
        if results is None:
            return False
        shared = any(
            isinstance(p, ConstOp) and not _is_splat(v)
            and any(use.operation is not op for use in p.output.uses)
            for p, v in zip(producers, args)
        )
        if shared and not all(_is_splat(r) for r in results):
            if not (self.aggressive and isinstance(op, REDUCING)):
                return False
        from tosa_xdsl.ir.dense import from_numpy

        try:
            new_ops = [ConstOp(from_numpy(value, r.type)) for value, r in zip(results, op.results)]
        except (ValueError, TypeError, NotImplementedError):
            return False
        for new in new_ops:
            new.location = op.location  # pyright: ignore[reportAttributeAccessIssue]
        Rewriter.replace_op(op, new_ops, [n.output for n in new_ops])
        for p in producers:
            if p.parent is not None and all(not r.uses for r in p.results):
                Rewriter.erase_op(p)
        self.folded += 1
        return True


@cache  # one entry per op class
def _foldable(cls: type[Operation]) -> bool:
    """isinstance(op, FOLDABLE) by the op's class: the ops are ABCs, and isinstance against a
    tuple of ~50 of them took ~1/5 of the pass (compile time, issue 15)."""
    return issubclass(cls, FOLDABLE)


def constant_fold(module: ModuleOp, *, aggressive_reduce_constant: bool = False,
                  max_elements: int = DEFAULT_MAX_ELEMENTS) -> int:
    """Fold `module` in place (one forward sweep reaches a fixed point, since the ops of a
    block are in dependence order); the number of operators folded."""
    folder = ConstantFolder(module, aggressive_reduce_constant=aggressive_reduce_constant,
                            max_elements=max_elements)
    for op in list(module.walk()):
        folder.fold(op)
    return folder.folded


@dataclass(frozen=True)
class TosaLayerwiseConstantFoldPass(ModulePass):
    name: ClassVar[str] = "tosa-layerwise-constant-fold"

    aggressive_reduce_constant: bool = False
    max_elements: int = DEFAULT_MAX_ELEMENTS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        constant_fold(op, aggressive_reduce_constant=self.aggressive_reduce_constant,
                      max_elements=self.max_elements)
