"""The spec's ERROR_IF conditions as op verifiers (see registry.py for the conventions).

Importing this package registers every check; tosa_xdsl.dialects.tosa.dialect imports it, so a Context with
our `tosa` dialect always verifies them.
"""

# Chapters 2.4-2.10, 2.14-2.18, chapter-4 helpers and Supported Data Types.
# Chapters 2.3 (tensor), 2.12 (image), 2.13 (type conversion).
from tosa_xdsl.verification import (  # noqa: E402,F401  (importing registers the checks)  # noqa: E402,F401
    activation,
    comparison,
    control_flow,
    data_layout,
    data_types,
    elementwise,
    helpers,
    image,
    reduction,
    shape,
    tensor,
    type_conversion,
    variable,
)

# isort: off
# Registration order matters: the generic checks run after the specific ones, whose
# messages are the ones users see first.
from tosa_xdsl.verification import constant_operands  # noqa: E402,F401
from tosa_xdsl.verification import argument_shapes  # noqa: E402,F401  (last: after the specific checks)
# isort: on
from tosa_xdsl.verification.registry import CHECKS, checked_condition_ids, spec_check

# ERROR_IF ids (tosa_xdsl.spec_tables) that no verifier decides, and why. The coverage test
# (tests/test_error_if_coverage.py) and docs/error-if.md read this table.
EXEMPT_CONDITIONS: dict[str, str] = {
    "apply_broadcast#2": (
        "rank(out_shape) != rank(index): `index` is always a position of out_shape, generated "
        "by the operator itself (for_each_data_position), so a graph cannot make it fail"),
    "tosa_execute_graph#4": (
        "operator attributes vs the Arguments table: decided by IRDL property constraints "
        "(attribute kinds and types) and by each operator's own attribute ERROR_IFs "
        "(axis, perms, kernel, stride, ...); no further generic rule exists"),
}

__all__ = ["CHECKS", "EXEMPT_CONDITIONS", "checked_condition_ids", "spec_check"]
