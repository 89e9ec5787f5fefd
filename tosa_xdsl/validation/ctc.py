"""Compile-time constants (spec 2.1 and the operators' Compile Time Constant Status tables):
an input listed for an enabled profile must be connected to a CTC output - the output of
tosa.const or tosa.const_shape - unless an extension that lifts it (EXT-DYNAMIC) is enabled.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation, SSAValue

from tosa_xdsl import spec_tables as st
from tosa_xdsl.validation.target import Target, mlir_name

CTC_PRODUCERS = ("tosa.const", "tosa.const_shape")


def _operand_index(op: Operation, value: SSAValue) -> int:
    for i, v in enumerate(op.operands):
        if v is value:
            return i
    return -1


def check_op(op: Operation, target: Target, fail: Callable[[str], None]) -> None:
    spec_name = getattr(op, "SPEC_NAME", "")
    if not spec_name:
        return
    spec = st.op_spec(spec_name)
    for row in spec.ctc:
        if not row.is_constant(target.enabled):
            continue
        value = getattr(op, row.argument, None)
        if not isinstance(value, SSAValue):
            value = getattr(op, row.argument.lower(), None)
        if not isinstance(value, SSAValue) or value in op.results:
            continue  # an output (CONST/CONST_SHAPE output): constant by construction
        owner = value.owner
        if isinstance(owner, Operation) and owner.name in CTC_PRODUCERS:
            continue
        producer = f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument"
        lifted = ", ".join(mlir_name(e) for e in sorted(row.disabled_extensions))
        profiles = ", ".join(mlir_name(p) for p in sorted(row.enabled_profiles & target.enabled))
        fail(f"'{op.name}' op expected compile time resolvable constant, but got variable value "
             f"for operand #{_operand_index(op, value)} ({row.argument}, produced by {producer}):"
             f" it is a compile-time constant under {profiles}"
             + (f" unless extension {lifted} is enabled" if lifted else ""))
