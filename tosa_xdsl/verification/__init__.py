"""The spec's ERROR_IF conditions as op verifiers (see registry.py for the conventions).

Importing this package registers every check; tosa_xdsl.dialect imports it, so a Context with
our `tosa` dialect always verifies them.
"""

from tosa_xdsl.verification.registry import CHECKS, checked_condition_ids, spec_check

__all__ = ["CHECKS", "checked_condition_ids", "spec_check"]
