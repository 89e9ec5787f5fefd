"""Supported Data Types (every operator's table in spec chapter 2; tosa_execute_graph#6 in
spec 2.2: "operator data types do not meet requirement of operator Supported Data Types").

An operator's element types must form a row of its table in SOME profile or extension (which
ones a target enables is the tosa-validate pass's business). Each type variable of the table
(in_t, weight_t, out_t, acc_t, ...) is read from our operands/results/properties through the
Arguments table: the spec's argument names match ours up to case (MATMUL's A/B/A_zp/B_zp) and
two renames (VARIABLE_READ output1 -> output; VARIABLE's var_t `type` property gives in_t);
`acc_type` is a property holding acc_t; list arguments (CONCAT input1) give one type per
element. Variables no argument carries (NEGATE/REDUCE_SUM acc_t, RESIZE resize_t) are
projected away; arguments of a fixed type (MUL shift T<i8_t>, SELECT input1 / COND_IF
condition T<bool_t>) must have that type. RESCALE's multiplier (mul_t: i32 if scale32 else
i16) is not a table column and is left to the 2.13 checks. TABLE's non-type column TABLE_SIZE
is the length of `table`. Unsigned types appear in no 1.0.1 table (RESCALE selects
unsignedness with input_unsigned/output_unsigned on signless types).

Everything is precomputed per op class at import: a check is a few attribute reads, a tuple
build and one set lookup.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, SSAValue

from tosa_xdsl import spec_tables as st
from tosa_xdsl.dialects.tosa.ops import SPEC_OPS
from tosa_xdsl.ir.access import element_type
from tosa_xdsl.verification.helpers import fail
from tosa_xdsl.verification.producer_types import widened_keys
from tosa_xdsl.verification.registry import spec_check

CONDITION_IDS = ("supported_data_types", "tosa_execute_graph#6")

# (spec op, spec argument) -> our operand/result/property name, where not equal up to case.
_RENAMES = {("VARIABLE_READ", "output1"): "output"}
# Properties that hold a type variable's value as a type (not as typed data).
_TYPE_PROPERTIES = {("VARIABLE", "type"): "in_t"}

Getter = Callable[[object], Iterable[tuple[str, Attribute]]]


def _value_getter(name: str) -> Getter:
    def get(op):
        value = getattr(op, name)
        if isinstance(value, SSAValue):
            yield name, element_type(value.type)
        elif value is not None and not isinstance(value, Attribute):  # variadic
            for i, v in enumerate(value):
                yield f"{name}[{i}]", element_type(v.type)
    return get


def _data_property_getter(name: str) -> Getter:
    def get(op):
        attr = op.properties.get(name)
        if attr is not None and hasattr(attr, "get_type"):
            yield name, element_type(attr.get_type())
    return get


def _type_property_getter(name: str) -> Getter:
    def get(op):
        attr = op.properties.get(name)
        if attr is not None:
            yield name, attr
    return get


@dataclass(frozen=True)
class _Rule:
    variables: tuple[str, ...]  # the observable type variables, in table column order
    getters: tuple[tuple[str, Getter], ...]  # (variable, getter), arguments in spec order
    fixed: tuple[tuple[str, str, Getter], ...]  # (spec type, MLIR type, getter)
    allowed: frozenset[tuple[str, ...]]  # the spec's rows and the producer rows below
    rows: tuple[tuple[tuple[str, ...], str, dict[str, str]], ...]  # (types, requirement, values)


def _build_rule(cls) -> _Rule:
    spec = st.op_spec(cls.SPEC_NAME)
    definition = cls.get_irdl_definition()
    values = {n for n, _ in definition.operands} | {n for n, _ in definition.results}
    props = set(definition.properties) | set(definition.opt_properties) \
        if hasattr(definition, "opt_properties") else set(definition.properties)
    columns = [c for c in spec.type_columns if any(c in r.spec_types for r in spec.type_rows)]
    getters: list[tuple[str, Getter]] = []
    fixed: list[tuple[str, str, Getter]] = []
    for arg in spec.arguments:
        ours = _RENAMES.get((spec.name, arg.name), arg.name)
        if ours not in values | props:
            ours = ours.lower()
        var = arg.type_variable
        if (spec.name, arg.name) in _TYPE_PROPERTIES:
            getters.append((_TYPE_PROPERTIES[spec.name, arg.name], _type_property_getter(ours)))
        elif arg.name == "acc_type" and "acc_t" in columns and ours in props:
            getters.append(("acc_t", _type_property_getter(ours)))
        elif var in columns:
            if ours in values:
                getters.append((var, _value_getter(ours)))
            elif ours in props:
                getters.append((var, _data_property_getter(ours)))
        elif var in st.SPEC_TO_MLIR_ELEMENT_TYPE and arg.kind != "Attribute" and ours in values:
            fixed.append((var, st.mlir_element_type(var), _value_getter(ours)))
    observable = tuple(c for c in columns if any(v == c for v, _ in getters))
    rows = []
    for r in spec.type_rows:
        types = r.types
        rows.append((tuple(types.get(v, "") for v in observable), r.requirement_text,
                     dict(r.values)))
    spec_keys = frozenset(t for t, _, _ in rows)
    # f64 / i64 rows as upstream's verifier accepts them; tosa-validate reports them
    # (tosa_xdsl/verification/producer_types.py)
    return _Rule(observable, tuple(getters), tuple(fixed),
                 spec_keys | widened_keys(spec.name, spec_keys), tuple(rows))


_RULES = {cls: _build_rule(cls) for cls in SPEC_OPS}


def _supported(rule: _Rule) -> str:
    """'f16, f32 (PRO-FP); i32 (PRO-INT or PRO-FP); bf16 (EXT-BF16)' - rows grouped by
    requirement, in table order."""
    groups: dict[str, list[str]] = {}
    seen = set()
    for types, requirement, _ in rule.rows:
        if (types, requirement) in seen:
            continue
        seen.add((types, requirement))
        if len(rule.variables) == 1:
            text = types[0]
        else:
            text = "(" + ", ".join(f"{v}={t}" for v, t in zip(rule.variables, types)) + ")"
        groups.setdefault(requirement, []).append(text)
    return "; ".join(f"{', '.join(ts)} ({req})" for req, ts in groups.items())


def _signature(op, rule: _Rule) -> str:
    """'(i8, i8) -> i8' from the op's operands and results (plus typed properties)."""
    ins = [str(element_type(v.type)) for v in op.operands if isinstance(v.type, TensorType)
           or hasattr(v.type, "element_type")]
    outs = [str(element_type(r.type)) for r in op.results]
    text = f"({', '.join(ins)}) -> {', '.join(outs) if len(outs) == 1 else '(' + ', '.join(outs) + ')'}"
    extra = [f"{label} = {t}" for var, get in rule.getters for label, t in get(op)
             if label in op.properties]
    if not ins and not outs:
        return ", ".join(extra)
    return text + (f" with {', '.join(extra)}" if extra else "")


@functools.lru_cache(maxsize=None)
def _type_name(t: Attribute) -> str:
    """MLIR spelling of an element type; cached because printing runs xDSL's printer and
    attributes are immutable and hashable."""
    return str(t)


def _assign(op, rule: _Rule):
    """Type variable -> (first argument label, MLIR element type) as the op's operands,
    results and typed properties fill the table's columns; plus the first clash found
    ((label, type), (label, type), variable) when two arguments of one variable differ."""
    found: dict[str, tuple[str, str]] = {}
    for var, get in rule.getters:
        for label, t in get(op):
            t = _type_name(t)
            if var in found and found[var][1] != t:
                return found, (found[var], (label, t), var)
            found.setdefault(var, (label, t))
    return found, None


def type_assignment(op) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(type variables, their MLIR element types) in the op's Supported Data Types columns;
    None when the op has no table, or a type is missing or inconsistent (then the
    supported-data-types check below reports it). Used by tosa-validate's profile check."""
    rule = _RULES.get(type(op))
    if rule is None:
        return None
    found, clash = _assign(op, rule)
    if clash is not None or len(found) != len(rule.variables):
        return None
    return rule.variables, tuple(found[v][1] for v in rule.variables)


@spec_check(tuple(_RULES), *CONDITION_IDS)
def _supported_data_types(op):
    # 2.2 tosa_execute_graph#6: ERROR_IF(operator data types do not meet requirement of operator Supported Data Types)
    rule = _RULES[type(op)]
    for spec_type, mlir, get in rule.fixed:
        for label, t in get(op):
            if _type_name(t) != mlir:
                fail(op, f"{label} element type is {t} but must be {mlir} ({spec_type})")
    if not rule.variables:
        return
    found, clash = _assign(op, rule)
    if clash is not None:
        (label1, t1), (label2, t2), var = clash
        fail(op, f"{label1} and {label2} share the type {var} but are {t1} and {t2}")
    if len(found) != len(rule.variables):
        return  # an optional argument (VARIABLE's initial_value) is absent: nothing to check
    key = tuple(found[v][1] for v in rule.variables)
    if key not in rule.allowed:
        assignment = "" if len(key) == 1 else " (" + ", ".join(
            f"{v}={t}" for v, t in zip(rule.variables, key)) + ")"
        fail(op, f"operand/result element types {_signature(op, rule)}{assignment} are not a "
                 f"supported combination; supported: {_supported(rule)}")
    sizes = {r[2].get("TABLE_SIZE") for r in rule.rows if r[0] == key} - {None}
    if sizes and hasattr(op, "table"):
        dims = op.table.type.get_shape() if isinstance(op.table.type, TensorType) else ()
        if len(dims) == 1 and dims[0] >= 0 and str(dims[0]) not in sizes:
            fail(op, f"table has {dims[0]} entries but TABLE_SIZE is {', '.join(sorted(sizes))} "
                     f"for input element type {key[0]}")
