"""Spec 2.17 Variable Operators: VARIABLE, VARIABLE_WRITE and VARIABLE_READ have no ERROR_IF
in TOSA 1.0.1 - their conditions are REQUIREs (a missing variable, a type/shape mismatch:
UNPREDICTABLE, not ERROR). Their element types are checked by data_types.py.

Upstream's verifier nevertheless rejects a VARIABLE_READ/WRITE whose tensor differs from the
variable's (VariableReadOp/VariableWriteOp::verify, messages below), and so do we: otherwise the
interpreter refuses the graph only when it runs while the lowered stages compute on garbage.
The variable is looked up in the enclosing symbol tables (`_VariableAccessOp.variable`); a
missing one is left to the run (a REQUIRE: the spec's tosa_variable check)."""

from __future__ import annotations

from tosa_xdsl.dialects.tosa.ops.base import error_if_check
from tosa_xdsl.dialects.tosa.ops.variable import VariableReadOp, VariableWriteOp
from tosa_xdsl.ir.access import DYNAMIC, element_type, shape_of
from tosa_xdsl.verification.common import fail


@error_if_check(VariableReadOp, VariableWriteOp)
def _same_type_as_variable(op) -> None:
    var = op.variable()
    if var is None:
        return
    try:
        want = var.tensor_type
    except Exception:  # a malformed tosa.variable reports itself
        return
    label, t = (("'output1'", op.output.type) if isinstance(op, VariableReadOp)
                else ("'input1'", op.input1.type))
    got_elt, want_elt = element_type(t), want.element_type
    if got_elt != want_elt:
        fail(op, f"require same element type for {label} ('{got_elt}') and the input tensor "
                 f"('{want_elt}')")
    dims, var_dims = shape_of(t), shape_of(want)
    if dims is not None and var_dims is not None and (
            len(dims) != len(var_dims)
            or any(a != b and DYNAMIC not in (a, b) for a, b in zip(dims, var_dims))):
        fail(op, f"require same shapes for {label} ('{t}') and the input tensor ('{want}')")
