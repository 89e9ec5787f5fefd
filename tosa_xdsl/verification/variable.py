"""Spec 2.17 Variable Operators: VARIABLE, VARIABLE_WRITE and VARIABLE_READ have no ERROR_IF
in TOSA 1.0.1 - their conditions are REQUIREs (a missing variable, a type/shape mismatch:
UNPREDICTABLE, not ERROR). Their element types are checked by data_types.py."""
