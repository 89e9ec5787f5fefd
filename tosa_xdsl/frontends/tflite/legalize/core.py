"""The walk of `tosa-legalize-tfl` and what every legalizer gets.

Each `tfl` op is replaced, in order, by the values its legalizer returns. Quantized values
become their storage type (`!quant.uniform<i8:...>` -> i8); `Legalizer.q(value)` still
gives the quant type of a value produced by an already-legalized op or a function argument
(kept in a side table: TOSA types carry no scale). A `tfl` op without a legalizer, or one
its legalizer refuses, is a located error naming the operator: nothing is left behind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    NoneType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from tosa_xdsl.dialects.quant import quant_of, storage_tensor_type
from tosa_xdsl.frontends.legalize_common import Emitter, LegalizeError
from tosa_xdsl.frontends.tflite.dialect import TflOp
from tosa_xdsl.ir.dense import to_numpy

LegalizeFn = Callable[["Legalizer"], "list[SSAValue] | SSAValue"]
LEGALIZERS: dict[str, LegalizeFn] = {}


def legalizes(*names: str):
    def register(fn: LegalizeFn) -> LegalizeFn:
        for n in names:
            LEGALIZERS[n] = fn
        return fn

    return register


class TflLegalizeError(Exception):
    """`where: error: 'tfl.x' ...`: an operator that cannot be legalized."""


class Legalizer(Emitter):
    """The op being legalized, its operands (already TOSA), options and quant types."""

    def __init__(self, op: Operation, quant: dict[SSAValue, Attribute], consts: dict[SSAValue, np.ndarray]):
        super().__init__(op)
        self.op = op
        self._quant = quant
        self._consts = consts

    # operands and results
    @property
    def operands(self) -> list[SSAValue]:
        return list(self.op.operands)

    def operand(self, i: int) -> SSAValue:
        if i >= len(self.op.operands):
            self.fail(f"expects at least {i + 1} operands, has {len(self.op.operands)}")
        return self.op.operands[i]

    def has_operand(self, i: int) -> bool:
        return i < len(self.op.operands) and not isinstance(self.op.operands[i].type, NoneType)

    def out_type(self, i: int = 0) -> TensorType:
        """The original (possibly quantized) type of result i."""
        t = self.op.results[i].type
        if not isinstance(t, TensorType):
            self.fail(f"result {i} is not a ranked tensor ({t})")
        return t

    def storage(self, t: Attribute) -> TensorType:
        s = storage_tensor_type(t)
        assert isinstance(s, TensorType)
        return s

    def out_storage(self, i: int = 0) -> TensorType:
        return self.storage(self.out_type(i))

    def q(self, v: SSAValue | Attribute):
        """The quant type of an operand (or of a type), None for a float/int value."""
        if isinstance(v, SSAValue):
            return self._quant.get(v) or quant_of(v.type)
        return quant_of(v)

    def keep_quant(self, new: SSAValue, like: SSAValue) -> SSAValue:
        """`new` (a reshape of `like`, say) carries `like`'s scale and zero point."""
        q = self.q(like)
        if q is not None:
            self._quant[new] = q
        return new

    def shape(self, v: SSAValue) -> list[int]:  # type: ignore[override]
        t = v.type
        if not isinstance(t, TensorType):
            self.fail(f"operand of type {t} is not a ranked tensor")
        s = list(t.get_shape())
        if any(d < 0 for d in s):
            self.fail(f"dynamic shape {t} is not supported (TOSA needs static shapes here)")
        return s

    def constant(self, v: SSAValue, what: str) -> np.ndarray:
        """A compile-time constant operand as numpy (storage values for quantized ones)."""
        if v in self._consts:
            return self._consts[v]
        owner = v.owner
        attr = getattr(owner, "properties", {}).get("values") if isinstance(owner, Operation) else None
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return to_numpy(attr)
        self.fail(f"{what} must be a constant (data-dependent {what} is not supported)")
        raise AssertionError

    def option(self, name: str, default=None):
        attr = self.op.properties.get(name, self.op.attributes.get(name))  # type: ignore[union-attr]
        if attr is None:
            if default is None:
                self.fail(f"missing option '{name}'")
            return default
        if isinstance(attr, StringAttr):
            return attr.data
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        if hasattr(attr, "value") and hasattr(attr.value, "data"):
            return attr.value.data
        if hasattr(attr, "iter_values"):
            return [int(x) for x in attr.iter_values()]
        return attr

    def fail(self, message: str):
        raise LegalizeError(message)

    def is_float(self, v: SSAValue | Attribute) -> bool:
        t = v.type if isinstance(v, SSAValue) else v
        return isinstance(t, TensorType) and isinstance(t.element_type, AnyFloat)


def _where(op: Operation) -> str:
    from tosa_xdsl.frontends.tflite.reader import LOCATIONS

    return LOCATIONS.get(op, "")


def _legalize_block_args(fn: func.FuncOp, quant: dict[SSAValue, Attribute]) -> None:
    for arg in fn.body.blocks[0].args if fn.body.blocks else []:
        q = quant_of(arg.type)
        if q is not None:
            quant[arg] = q
            arg._type = storage_tensor_type(arg.type)  # pyright: ignore[reportPrivateUsage]


def _fix_function_type(fn: func.FuncOp) -> None:
    if not fn.body.blocks:
        return
    ins = [a.type for a in fn.body.blocks[0].args]
    outs = list(fn.function_type.outputs.data)
    for op in fn.body.blocks[-1].ops:
        if isinstance(op, func.ReturnOp):
            outs = [v.type for v in op.operands]
    fn.function_type = FunctionType.from_lists(ins, outs)


def legalize_tfl(module: ModuleOp, filename: str = "") -> None:
    """Replace every `tfl` op in `module` by TOSA; raises TflLegalizeError (located)."""
    from tosa_xdsl.frontends.tflite.legalize.qu8_to_qi8 import convert_tflite_qu8_to_qi8

    convert_tflite_qu8_to_qi8(module)
    quant: dict[SSAValue, Attribute] = {}
    consts: dict[SSAValue, np.ndarray] = {}
    for fn in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        _legalize_block_args(fn, quant)
        for op in list(fn.walk()):
            if op.parent is None or not (isinstance(op, TflOp) or (
                    op.name == "arith.constant" and isinstance(op.results[0].type, TensorType))):
                continue  # (arith.constant: TensorFlow's importer writes float tensor constants so;
                #            a scalar one, as lowered code has, is not a TFLite constant)
            if op.name in ("tfl.yield", "tfl.no_value") or op.name in CONTROL_FLOW:
                continue
            rule = LEGALIZERS.get(op.name)
            where = _where(op)
            prefix = f"{filename}: " if filename else ""
            loc = f" ({where})" if where else ""
            if rule is None:
                raise TflLegalizeError(f"{prefix}error: '{op.name}'{loc}: operator has no TOSA legalization")
            lg = Legalizer(op, quant, consts)
            try:
                new = rule(lg)
            except LegalizeError as e:
                raise TflLegalizeError(f"{prefix}error: '{op.name}'{loc}: {e}") from None
            except (ValueError, TypeError, IndexError, KeyError, AttributeError, AssertionError,
                    ArithmeticError, MemoryError) as e:
                # malformed operands/options the checks above did not foresee: still one
                # located line, never a traceback
                raise TflLegalizeError(f"{prefix}error: '{op.name}'{loc}: cannot legalize: "
                                       f"{type(e).__name__}: {e}") from None
            news = [new] if isinstance(new, SSAValue) else list(new)
            if len(news) != len(op.results):
                raise TflLegalizeError(f"{prefix}error: '{op.name}'{loc}: legalized into {len(news)} values, "
                                       f"expected {len(op.results)}")
            for old, nv in zip(op.results, news):
                q = quant_of(old.type)
                if q is not None:
                    quant[nv] = q
                old.replace_all_uses_with(nv)
            op.detach()
            op.erase()
        for op in list(fn.walk()):
            if op.name == "tfl.no_value" and not any(r.uses for r in op.results):
                op.detach()
                op.erase()
        _fix_function_type(fn)
    _legalize_control_flow(module, filename)


CONTROL_FLOW = ("tfl.while", "tfl.if")


def _legalize_control_flow(module: ModuleOp, filename: str) -> None:
    """tfl.while / tfl.if -> tosa.while_loop / tosa.cond_if, once every function is TOSA:
    the regions get a copy of the (legalized) cond/body or then/else subgraph function,
    its func.return becoming tosa.yield; functions used only that way are then removed."""
    from tosa_xdsl.dialects.tosa.ops.control_flow import CondIfOp, WhileLoopOp, YieldOp

    funcs = {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, func.FuncOp)}
    inlined: set[str] = set()
    for op in [o for o in module.walk() if o.name in CONTROL_FLOW]:
        where = _where(op)
        loc = f" ({where})" if where else ""
        prefix = f"{filename}: " if filename else ""
        regions = []
        for region in op.regions:
            calls = [o for o in region.walk() if isinstance(o, func.CallOp)]
            callee = funcs.get(calls[0].callee.root_reference.data) if len(calls) == 1 else None
            if callee is None:
                raise TflLegalizeError(f"{prefix}error: '{op.name}'{loc}: region does not call one subgraph")
            body = callee.body.clone()
            for term in [o for o in body.blocks[-1].ops if isinstance(o, func.ReturnOp)]:
                term.parent_block().insert_op_before(YieldOp.create(operands=list(term.operands)), term)  # type: ignore[union-attr]
                term.detach()
                term.erase()
            inlined.add(callee.sym_name.data)
            regions.append(body)
        operands = list(op.operands)
        result_types = [storage_tensor_type(r.type) for r in op.results]
        if op.name == "tfl.while":
            new = WhileLoopOp.create(operands=operands, result_types=result_types, regions=regions)
        else:
            cond, inputs = operands[0], operands[1:]
            if isinstance(cond.type, TensorType) and cond.type.get_shape():
                em = Emitter(op)
                cond = em.reshape(cond, [])
            new = CondIfOp.create(operands=[cond, *inputs], result_types=result_types, regions=regions)
        parent = op.parent_block()
        assert parent is not None
        parent.insert_op_before(new, op)
        for old, nv in zip(op.results, new.results):
            old.replace_all_uses_with(nv)
        op.detach()
        op.erase()
    used = {o.callee.root_reference.data for o in module.walk() if isinstance(o, func.CallOp)}
    for name in inlined - used - {"main"}:
        funcs[name].detach()
        funcs[name].erase()


@dataclass(frozen=True)
class TosaLegalizeTflPass(ModulePass):
    """tfl -> tosa (the guide's legalize_tflite, after convert_tflite_qu8_to_qi8)."""

    name: ClassVar[str] = "tosa-legalize-tfl"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.utils.exceptions import DiagnosticException

        try:
            legalize_tfl(op)
        except TflLegalizeError as err:  # a diagnostic (naming the op), not a crash of the pass
            raise DiagnosticException(str(err).split("error: ", 1)[-1]) from None
