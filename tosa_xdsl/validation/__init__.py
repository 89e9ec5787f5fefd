"""The `tosa-validate` checks (spec 1.6 profiles/extensions, 1.7 levels, 2.1 compile-time
constants, REQUIRE statements decidable statically), one module per kind:

- `target`   : the target environment (level, profiles, extensions) and name conversions;
- `levels`   : every LEVEL_CHECK of the operators (keyed "CONV2D#L1", ...), MAX_RANK on every
               tensor, the tensor size limit (MAX_LOG2_SIZE), MAX_NESTING, MAX_TENSOR_LIST_SIZE;
- `profiles` : supported-data-type rows per enabled profile/extension, enum values that need
               an extension (RESCALE rounding_mode);
- `ctc`      : Compile Time Constant Status tables;
- `requires` : REQUIRE statements that constants decide (warnings: unpredictable, not errors).

`validate_module(module, target)` runs them all and emits located diagnostics through
tosa_xdsl.diagnostics; it returns the number of errors.
"""

from __future__ import annotations

from tosa_xdsl.validation.target import Target, default_target, target_of

__all__ = ["Target", "default_target", "target_of", "validate_module"]


def validate_module(module, target: Target, check_types: bool = True) -> int:
    from tosa_xdsl.validation.run import validate_module as run

    return run(module, target, check_types)
