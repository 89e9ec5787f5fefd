"""Shared base classes of the TOSA operators.

Every operator is an IRDL op deriving from `TosaOp`, which gives it
- the custom syntax in both upstream spellings (tosa_xdsl.dialects.tosa.syntax), driven by `clauses`;
- its spec identity (`SPEC_NAME`, `SPEC_SECTION`) for diagnostics and generated docs, looked up
  in tosa_xdsl.spec_tables by the MLIR op name when the class is defined;
- layered verification: IRDL constraints, then `verify_structure` (what the Arguments table
  fixes: ranks, read from the spec tables too, and which operands share an element type), then
  the spec's ERROR_IF checks
  registered per op class with `@error_if_check(OpClass)` (tosa_xdsl/verification/).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ClassVar

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_xdsl import spec_tables
from tosa_xdsl.dialects.tosa import syntax
from tosa_xdsl.dialects.tosa.ops import verify_cache
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.ir.access import element_type, rank_of
from tosa_xdsl.ir.types import AnyTensor

# ERROR_IF checks per op class; filled by tosa_xdsl.verification at import.
_ERROR_IF_CHECKS: dict[type[IRDLOperation], list[Callable[[IRDLOperation], None]]] = {}


def error_if_check(*op_types: type[IRDLOperation]):
    """Register `fn(op)` as a spec ERROR_IF check of `op_types`; it raises VerifyException."""

    def register(fn: Callable[[IRDLOperation], None]):
        for op_type in op_types:
            _ERROR_IF_CHECKS.setdefault(op_type, []).append(fn)
        verify_cache.invalidate()
        return fn

    return register


_METADATA = (
    "IN_SPEC", "CLAUSES", "RANKS", "SAME_ELEMENT_TYPE",
    "PRINTS_GENERIC_IN_ATTR_DICT_STYLE", "VERIFY_READS_CONTEXT",
)


def tosa_op_definition(cls: type[TosaOp]) -> type[TosaOp]:
    """`irdl_op_definition` for TOSA ops: lets an op set the TosaOp metadata (CLAUSES,
    SAME_ELEMENT_TYPE, ...) in its class body without repeating the ClassVar annotation IRDL
    requires on every class that assigns a constant, and fills in what the spec tables know
    (SPEC_NAME, SPEC_SECTION, RANKS) so that no op class retypes it."""
    annotations = cls.__dict__.get("__annotations__")
    if annotations is None:
        annotations = {}
        cls.__annotations__ = annotations
    for key in _METADATA:
        if key in cls.__dict__:
            annotations.setdefault(key, ClassVar)
    # Each syntax clause is a property; declare the ones the class does not declare itself.
    for clause in cls.CLAUSES:
        if any(clause.name in klass.__dict__ for klass in cls.__mro__):
            continue
        constraint = syntax.property_constraint(clause)
        if clause.optional:
            setattr(cls, clause.name, opt_prop_def(constraint, default_value=clause.default))
        else:
            setattr(cls, clause.name, prop_def(constraint))
    defined = irdl_op_definition(cls)
    if defined.IN_SPEC:
        _set_spec_metadata(defined)
    # speed only: skip re-verifying a signature that passed before (verify_cache.py)
    if (cached := verify_cache.cached_verify(defined)) is not None:
        defined.verify_ = cached
    return defined


def chapter_ops(namespace: dict) -> tuple[type[TosaOp], ...]:
    """The spec operators a chapter module defines (call with `globals()` at its end), in
    spec order (by SPEC_SECTION): a new operator class is listed by being defined."""
    module = namespace["__name__"]
    ops = [c for c in namespace.values() if isinstance(c, type) and issubclass(c, TosaOp)
           and c.__module__ == module and c.IN_SPEC and c.SPEC_SECTION]
    return tuple(sorted(ops, key=lambda c: tuple(int(n) for n in c.SPEC_SECTION.split("."))))


def spec_argument_operand(argument: str, names: Collection[str]) -> str | None:
    """Our operand/result name for the spec argument `argument`, None if the op has none.
    MLIR spells the arguments as the spec does, except that it lower-cases MATMUL's A, B,
    A_zp, B_zp."""
    for name in (argument, argument.lower()):
        if name in names:
            return name
    return None


def _set_spec_metadata(cls: type[TosaOp]) -> None:
    """SPEC_NAME and SPEC_SECTION of the spec operator named like the MLIR op
    (`tosa.arithmetic_right_shift` -> ARITHMETIC_RIGHT_SHIFT, 2.5.2), and unless the class sets
    RANKS itself, the fixed rank of each tensor argument whose Arguments row gives one number."""
    spec = spec_tables.op_spec(cls.name)  # KeyError: not a TOSA 1.0.1 operator (set IN_SPEC)
    cls.SPEC_NAME, cls.SPEC_SECTION = spec.name, spec.section
    if "RANKS" in cls.__dict__:
        return
    definition = cls.get_irdl_definition()
    names = {n for n, _ in definition.operands} | {n for n, _ in definition.results}
    ranks = {}
    for argument in spec.arguments:
        # shape_t operands are !tosa.shape values, not tensors: their rank row is not a
        # tensor rank. Attributes are properties, checked by their constraints.
        if argument.kind == "Attribute" or not argument.type.startswith("T<"):
            continue
        name = spec_argument_operand(argument.name, names)
        if name is not None and argument.rank.strip().isdigit():
            ranks[name] = int(argument.rank)
    cls.RANKS = ranks


class TosaOp(IRDLOperation, ABC):
    """Base of every TOSA operator."""

    # False for ops MLIR needs that the spec does not define (the region terminator tosa.yield).
    IN_SPEC: ClassVar[bool] = True
    # Set by tosa_op_definition from tosa_xdsl.spec_tables.
    SPEC_NAME: ClassVar[str] = ""
    SPEC_SECTION: ClassVar[str] = ""
    CLAUSES: ClassVar[tuple[syntax.Clause, ...]] = ()
    # Operands/results that must have this rank (Arguments table), e.g. {"input": 4}; derived
    # by tosa_op_definition from the spec tables unless a class sets it.
    RANKS: ClassVar[dict[str, int]] = {}
    # Groups of operand/result names that share one element type variable (e.g. in_t).
    SAME_ELEMENT_TYPE: ClassVar[tuple[tuple[str, ...], ...]] = ()
    # tosa.const has no custom form in older MLIR: print it generic in the attr-dict style.
    PRINTS_GENERIC_IN_ATTR_DICT_STYLE: ClassVar[bool] = False
    # True when the verifier reads more than the op's types, properties, attributes and its
    # constant producers (a symbol lookup, parent ops): its verdicts are never cached
    # (tosa_xdsl/dialects/tosa/ops/verify_cache.py).
    VERIFY_READS_CONTEXT: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser) -> TosaOp:
        return syntax.parse_tosa_op(cls, parser, cls.CLAUSES)

    def print(self, printer: Printer) -> None:
        syntax.print_tosa_op(self, printer, self.CLAUSES)

    # ------------------------------------------------------------------ verification

    def value_named(self, name: str) -> SSAValue | None:
        """The operand or result called `name` (None for an absent optional one)."""
        value = getattr(self, name)
        return value if isinstance(value, SSAValue) else None

    def verify_(self) -> None:
        self.verify_structure()
        for check in _ERROR_IF_CHECKS.get(type(self), ()):
            check(self)

    def verify_structure(self) -> None:
        for name, rank in self.RANKS.items():
            value = self.value_named(name)
            if value is not None and isinstance(value.type, TensorType):
                actual = value.type.get_num_dims()
                if actual != rank:
                    raise VerifyException(
                        f"'{self.name}' op {name} must be a rank {rank} tensor, got rank {actual} "
                        f"({value.type})"
                    )
        for group in self.SAME_ELEMENT_TYPE:
            values = [(n, self.value_named(n)) for n in group]
            present = [(n, v) for n, v in values if v is not None]
            if not present:
                continue
            first_name, first = present[0]
            expected = element_type(first.type)
            for other_name, other in present[1:]:
                actual = element_type(other.type)
                if actual != expected:
                    raise VerifyException(
                        f"'{self.name}' op {other_name} element type {actual} must equal "
                        f"{first_name} element type {expected}"
                    )


def broadcast_type(a: Attribute, b: Attribute) -> Attribute:
    """The result tensor type of broadcasting `a` with `b` (spec 1.11.3: equal ranks, each
    dimension equal or 1; dynamic dims stay dynamic). Falls back to `a` when not both ranked."""
    if not (isinstance(a, TensorType) and isinstance(b, TensorType)):
        return a
    dims = [
        db if da == 1 else da
        for da, db in zip(a.get_shape(), b.get_shape())
    ]
    return TensorType(a.element_type, dims)


class UnaryElementwiseOp(TosaOp, ABC):
    """`input1` -> `output` of the same element type and rank (spec 2.6)."""

    def __init__(self, input1: SSAValue | Operation, result_type: Attribute | None = None,
                 properties: dict[str, Attribute] | None = None):
        input1 = SSAValue.get(input1)
        super().__init__(operands=[input1], result_types=[result_type or input1.type],
                         properties=properties or {})

    input1 = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE: ClassVar = (("input1", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "output"))


class BinaryElementwiseOp(TosaOp, ABC):
    """`input1`, `input2` -> `output`, one element type, equal ranks, broadcast (spec 2.5)."""

    def __init__(self, input1: SSAValue | Operation, input2: SSAValue | Operation,
                 result_type: Attribute | None = None, properties: dict[str, Attribute] | None = None):
        input1, input2 = SSAValue.get(input1), SSAValue.get(input2)
        result_type = result_type or broadcast_type(input1.type, input2.type)
        super().__init__(operands=[input1, input2], result_types=[result_type],
                         properties=properties or {})

    input1 = operand_def(AnyTensor)
    input2 = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE: ClassVar = (("input1", "input2", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "input2", "output"), broadcast=True)


class ComparisonOp(TosaOp, ABC):
    """`input1`, `input2` -> boolean `output` (spec 2.8)."""

    input1 = operand_def(AnyTensor)
    input2 = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(Pure())
    SAME_ELEMENT_TYPE: ClassVar = (("input1", "input2"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input1", "input2", "output"), broadcast=True)
        require_bool(self, "output")


class ReductionOp(TosaOp, ABC):
    """`input` reduced along `axis` to `output` of the same rank (spec 2.9)."""

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    # One pattern serves every reduction (declared here, shared by the subclasses).
    traits = traits_def(Pure(), CanonicalizationPatterns("ReduceSize1"))
    CLAUSES: ClassVar = (syntax.int32("axis"),)
    SAME_ELEMENT_TYPE: ClassVar = (("input", "output"),)

    def verify_structure(self) -> None:
        super().verify_structure()
        same_rank(self, ("input", "output"))


# Set while the driver verifies input for a pipeline that starts with tosa-make-broadcastable:
# that pass exists to give lower-rank operands of broadcasting operators their leading 1s
# (numpy's first step, the legalization guide's apply_rank_broadcast), so its input may have
# them. Every other check still applies, and the pass's output must have equal ranks.
_RANK_BROADCAST: ContextVar[bool] = ContextVar("tosa_rank_broadcast", default=False)


@contextmanager
def rank_broadcast_allowed(allowed: bool = True) -> Iterator[None]:
    """Within: a broadcasting operand of lower rank than the output counts as if it had
    leading 1s (tosa-make-broadcastable's input)."""
    token = _RANK_BROADCAST.set(allowed)
    try:
        yield
    finally:
        _RANK_BROADCAST.reset(token)


def rank_broadcast_active() -> bool:
    return _RANK_BROADCAST.get()


verify_cache.BYPASS.append(rank_broadcast_active)  # a verdict under it would not hold outside


def same_rank(op: TosaOp, names: Sequence[str], broadcast: bool = False) -> None:
    ranked = [(n, rank_of(op.value_named(n))) for n in names if op.value_named(n) is not None]
    ranked = [(n, r) for n, r in ranked if r is not None]
    if broadcast and _RANK_BROADCAST.get() and ranked and ranked[-1][0] == "output":
        out_rank = ranked[-1][1]
        ranked = [(n, max(r, out_rank)) for n, r in ranked]
    if len({r for _, r in ranked}) > 1:
        detail = ", ".join(f"{n} has rank {r}" for n, r in ranked)
        raise VerifyException(f"'{op.name}' op operands and result must have the same rank: {detail}")


def require_bool(op: TosaOp, name: str) -> None:
    value = op.value_named(name)
    if value is None:
        return
    t = element_type(value.type)
    if str(t) != "i1":
        raise VerifyException(f"'{op.name}' op {name} must have element type i1 (bool_t), got {t}")


