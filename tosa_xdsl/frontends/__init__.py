"""Readers of other TOSA spellings that turn them into TOSA 1.0.1 (see docs/legacy.md)."""
