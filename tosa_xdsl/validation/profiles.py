"""Profiles and extensions (spec 1.6): an operator/type combination is legal for a target
only when a row of the operator's Supported Data Types table with those types is available,
i.e. every name of one of the row's alternatives ("PRO-INT or PRO-FP", "EXT-BF16 and
EXT-FP8E4M3") is enabled; and enum values that an extension adds (chapter 3 enumerations:
RESCALE rounding_mode INEXACT_ROUND needs EXT-INEXACTROUND, DOUBLE_ROUND needs
EXT-DOUBLEROUND) are legal only with that extension.

The op's element types are read the way the Supported Data Types ERROR_IF (2.2
tosa_execute_graph#6, tosa_xdsl/verification/data_types.py) reads them; a combination that is
in no row at all is that verifier's error and is not repeated here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from xdsl.ir import Operation

from tosa_xdsl import spec_tables as st
from tosa_xdsl.validation.target import Target, mlir_name

# enum-valued property -> the spec enumeration it holds
_ENUM_PROPERTIES = {"rounding_mode": "rounding_mode_t", "nan_mode": "nan_propagation_mode_t",
                    "mode": "resize_mode_t"}


def type_key(op: Operation) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(type variables, their MLIR element types) as the op's table columns read them; None
    when the op has no table or a type is missing/inconsistent (the verifier's business).
    The one reading of an op's types is the supported-data-types check's."""
    from tosa_xdsl.verification.data_types import type_assignment

    return type_assignment(op)


@lru_cache(maxsize=None)
def _rows_by_key(op_name: str, variables: tuple[str, ...]):
    index: dict[tuple[str, ...], list[st.TypeRow]] = {}
    for row in st.op_spec(op_name).type_rows:
        key = tuple(row.types.get(v, "") for v in variables)
        index.setdefault(key, []).append(row)
    return index


def describe_alternative(alt: frozenset[str]) -> str:
    profiles = sorted(mlir_name(n) for n in alt if n.startswith("PRO-"))
    extensions = sorted(mlir_name(n) for n in alt if n.startswith("EXT-"))
    parts = []
    if profiles:
        parts.append(("profile " if len(profiles) == 1 else "profiles ") + " and ".join(profiles))
    if extensions:
        parts.append(("extension " if len(extensions) == 1 else "extensions ")
                     + " and ".join(extensions))
    return " and ".join(parts)


def requirement_text(rows, target: Target) -> str:
    """'extension int16', 'profile pro_fp or extension bf16', ... : what would allow it,
    listing first the alternatives closest to the target (fewest names missing)."""
    alts: list[frozenset[str]] = []
    for row in rows:
        for alt in row.requirements:
            if alt not in alts:
                alts.append(alt)
    # Name what is missing; an alternative whose missing part is a subset of another's is enough.
    missing = []
    for alt in sorted(alts, key=lambda a: (len(a - target.enabled), sorted(a))):
        need = frozenset(alt - target.enabled)
        if not any(m <= need for m in missing):
            missing.append(need)
    return " or ".join(describe_alternative(m) for m in missing)


def check_op(op: Operation, target: Target, fail: Callable[[str], None],
             check_types: bool = True) -> None:
    spec_name = getattr(op, "SPEC_NAME", "")
    if not spec_name:
        return
    key = type_key(op) if check_types else None
    if key is not None:
        variables, types = key
        rows = _rows_by_key(spec_name, variables).get(types)
        if not rows and types:
            # in no row: a producer's f64/i64 row the verifier lets through (producer_types.py)
            from tosa_xdsl.verification.producer_types import producer_type_message

            fail(producer_type_message(op.name, types, variables))
        elif rows and not any(r.is_available(target.enabled) for r in rows):
            combo = f"({', '.join(types)})" if types else "the operator"
            what = f"type combination {combo}" if types else "the operator"
            fail(f"'{op.name}' op {what} requires {requirement_text(rows, target)} "
                 f"(enabled: {target.describe_enabled()})")
    for prop, enum_name in _ENUM_PROPERTIES.items():
        attr = op.properties.get(prop)
        if attr is None or not hasattr(attr, "data"):
            continue
        value = str(getattr(attr.data, "value", attr.data))
        for ev in st.enums().get(enum_name, ()):
            if ev.name == value and ev.required_extension and \
                    ev.required_extension not in target.enabled:
                fail(f"'{op.name}' op {prop} {value} requires extension "
                     f"{mlir_name(ev.required_extension)} (enabled: {target.describe_enabled()})")
