"""The engine of `tosa-narrow-i64-to-i32` and `tosa-narrow-f64-to-f32` (upstream's
TosaNarrowTypes.cpp semantics; the passes are narrow_i64_to_i32.py / narrow_f64_to_f32.py).

Tensor element type i64 (any signedness) becomes signless i32, or f64 becomes f32:

- by default only operators that move data without computing on it are rewritten (CONST,
  CONCAT, PAD, RESHAPE, REVERSE, SLICE, TILE, TRANSPOSE, IDENTITY, COND_IF, WHILE_LOOP and
  their YIELD), plus, with a bounds check, CAST (not when the narrowed input is wider than an
  integer/float result: data loss), ARGMAX for i64 (the reduced dim must be static and below
  2^31-1) and CLAMP for i64 (min_val/max_val must fit i32). Any other TOSA operator, or any
  other dialect's op, still holding a wide type fails as upstream's full conversion does:
  "failed to legalize operation '<name>'" at the op;
- `aggressive-rewrite`: every TOSA operator is rewritten (values may be lost);
- `convert-function-boundaries`: function arguments and results change type too; otherwise a
  `tosa.cast` narrows each used wide argument on entry and widens each returned value back.

Attribute payloads follow the types: i64 integer attributes and dense values saturate to i32
(APInt::truncSSat), f64 ones round to nearest even (overflow to inf); a dense_resource gets a
new blob in the narrow layout, under the same name; TypeAttr-like properties (acc_type)
narrow too. The pass checks every op before changing any, so a failure leaves the IR as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float64Type,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    UnrankedTensorType,
    f32,
    i32,
)
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_xdsl.diagnostics import LocatedError

# operators rewritten without aggressive-rewrite (upstream's list; CAST/ARGMAX/CLAMP checked)
DATA_MOVEMENT = frozenset({
    "tosa.const", "tosa.concat", "tosa.pad", "tosa.reshape", "tosa.reverse", "tosa.slice",
    "tosa.tile", "tosa.transpose", "tosa.identity", "tosa.cond_if", "tosa.while_loop",
})
_LEGAL_CONTAINERS = frozenset({"builtin.module", "func.func", "func.return"})


@dataclass(frozen=True)
class Narrowing:
    """What is narrowed to what."""

    is_wide: Callable[[Attribute], bool]  # an element type to narrow
    narrow: Attribute  # what it becomes
    numpy_narrow: Callable[[np.ndarray], np.ndarray]
    checked: frozenset[str]  # ops also rewritten by default, each with its bounds check


def _i64(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 64


def _saturate_i32(a: np.ndarray) -> np.ndarray:
    return np.clip(np.asarray(a, np.int64), -(2**31), 2**31 - 1).astype(np.int32)


def _round_f32(a: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.asarray(a, np.float64).astype(np.float32)


I64_TO_I32 = Narrowing(_i64, i32, _saturate_i32, frozenset({"tosa.argmax", "tosa.clamp", "tosa.cast"}))
F64_TO_F32 = Narrowing(lambda t: isinstance(t, Float64Type), f32, _round_f32, frozenset({"tosa.cast"}))


def _element(t: Attribute) -> Attribute | None:
    return t.element_type if isinstance(t, (TensorType, UnrankedTensorType)) else None


class _Narrower:
    def __init__(self, kind: Narrowing, aggressive: bool, boundaries: bool):
        self.kind = kind
        self.aggressive = aggressive
        self.boundaries = boundaries

    # -- types and attributes --

    def wide(self, t: Attribute) -> bool:
        e = _element(t)
        return e is not None and self.kind.is_wide(e)

    def convert_type(self, t: Attribute) -> Attribute:
        if not self.wide(t):
            return t
        if isinstance(t, TensorType):
            return TensorType(self.kind.narrow, t.get_shape(), t.encoding)
        return UnrankedTensorType(self.kind.narrow)

    def convert_attr(self, attr: Attribute) -> Attribute:
        kind = self.kind
        if isinstance(attr, IntegerAttr) and kind.is_wide(attr.type):
            return IntegerAttr(int(_saturate_i32(np.array(attr.value.data))), i32)
        if isinstance(attr, FloatAttr) and kind.is_wide(attr.type):
            return FloatAttr(float(_round_f32(np.array(attr.value.data))), f32)
        if isinstance(attr, (IntegerType, Float64Type)) and kind.is_wide(attr):
            return kind.narrow  # a type-valued property (acc_type)
        if isinstance(attr, (DenseIntOrFPElementsAttr, DenseResourceAttr)) and self.wide(attr.get_type()):
            from tosa_xdsl.ir.dense import from_numpy, to_numpy

            new_type = self.convert_type(attr.get_type())
            values = kind.numpy_narrow(to_numpy(attr))
            if isinstance(attr, DenseResourceAttr):
                from tosa_xdsl.ir.resources import make_dense_resource, store

                return make_dense_resource(values, new_type, store().preferred_name(attr.resource_handle.data))
            return from_numpy(values, new_type)
        return attr

    # -- legality --

    def needs(self, op: Operation) -> bool:
        if any(self.wide(v.type) for v in (*op.operands, *op.results)):
            return True
        return any(self.wide(a.type) for r in op.regions for b in r.blocks for a in b.args)

    def check(self, op: Operation) -> None:
        """Raise "failed to legalize" when `op` keeps a wide type and may not be rewritten."""
        if op.name in _LEGAL_CONTAINERS or not self.needs(op):
            return
        name = op.name
        ok = name.startswith("tosa.") and (
            self.aggressive or name in DATA_MOVEMENT or name == "tosa.yield"
            or (name in self.kind.checked and self._bounds_ok(op)))
        if not ok:
            raise LocatedError(op, f"failed to legalize operation '{name}'")
        for attr in op.properties.values():
            if isinstance(attr, DenseResourceAttr) and self.wide(attr.get_type()):
                from tosa_xdsl.ir.resources import dense_resource_problem

                if (problem := dense_resource_problem(attr)) is not None:
                    raise LocatedError(op, f"cannot narrow '{name}': {problem}")

    def _bounds_ok(self, op: Operation) -> bool:
        if op.name == "tosa.argmax":
            t = op.operands[0].type
            axis = op.properties["axis"].value.data
            if not isinstance(t, TensorType) or not 0 <= axis < len(t.get_shape()):
                return False
            dim = t.get_shape()[axis]
            return 0 <= dim < 2**31 - 1
        if op.name == "tosa.clamp":
            bounds = (op.properties.get("min_val"), op.properties.get("max_val"))
            return all(isinstance(b, IntegerAttr) and -(2**31) <= b.value.data < 2**31 for b in bounds)
        if op.name == "tosa.cast":
            src = _element(self.convert_type(op.operands[0].type))
            dst = _element(op.results[0].type)
            both_int = isinstance(src, IntegerType) and isinstance(dst, IntegerType)
            both_float = not isinstance(src, IntegerType) and not isinstance(dst, IntegerType)
            width = (lambda e: e.width.data if isinstance(e, IntegerType) else e.bitwidth)
            return not ((both_int or both_float) and width(src) > width(dst))
        return False

    # -- rewriting --

    def rewrite(self, op: Operation) -> None:
        for r in list(op.results):
            if self.wide(r.type):
                Rewriter.replace_value_with_new_type(r, self.convert_type(r.type))
        for region in op.regions:
            for block in region.blocks:
                for a in list(block.args):
                    if self.wide(a.type):
                        Rewriter.replace_value_with_new_type(a, self.convert_type(a.type))
        for table in (op.properties, op.attributes):
            for key, value in list(table.items()):
                table[key] = self.convert_attr(value)

    def run(self, module: ModuleOp) -> None:
        ops = list(module.walk())
        for op in ops:
            self.check(op)
        for op in ops:
            if op.name.startswith("tosa.") and self.needs(op):
                self.rewrite(op)
        for fn in (op for op in ops if isinstance(op, func.FuncOp)):
            self.fix_boundaries(fn)

    def fix_boundaries(self, fn: func.FuncOp) -> None:
        if not fn.body.blocks:
            return
        entry = fn.body.blocks.first
        assert entry is not None
        from tosa_xdsl.dialects.tosa.ops.type_conversion import CastOp

        outputs = list(fn.function_type.outputs.data)
        if self.boundaries:
            for a in list(entry.args):
                if self.wide(a.type):
                    Rewriter.replace_value_with_new_type(a, self.convert_type(a.type))
            outputs = [self.convert_type(t) for t in outputs]
        else:
            for a in entry.args:
                if self.wide(a.type) and a.uses:
                    cast = CastOp.create(operands=[a], result_types=[self.convert_type(a.type)])
                    Rewriter.insert_op(cast, InsertPoint.at_start(entry))
                    a.replace_uses_with_if(cast.results[0], lambda use, c=cast: use.operation is not c)
        for block in fn.body.blocks:
            ret = block.last_op
            if not isinstance(ret, func.ReturnOp):
                continue
            operands = list(ret.operands)
            for i, (value, want) in enumerate(zip(operands, outputs)):
                if value.type != want:
                    cast = CastOp.create(operands=[value], result_types=[want])
                    Rewriter.insert_op(cast, InsertPoint.before(ret))
                    operands[i] = cast.results[0]
            ret.operands = operands
        fn.properties["function_type"] = FunctionType.from_lists([a.type for a in entry.args], outputs)


def narrow(module: ModuleOp, kind: Narrowing, aggressive_rewrite: bool, convert_function_boundaries: bool) -> None:
    _Narrower(kind, aggressive_rewrite, convert_function_boundaries).run(module)


__all__ = ["F64_TO_F32", "I64_TO_I32", "Narrowing", "narrow"]
