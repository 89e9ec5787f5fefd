"""Spec 2.18 Shape Operators: CONST_SHAPE has no ERROR_IF in TOSA 1.0.1 (its one
supported-data-types row has no type variable)."""
