"""Interpreter implementations for the lowered stages of the pipeline: the arith, math,
tensor, linalg, scf, ml_program, memref, affine and cf ops that the lowering emits, on the
same numpy values as the TOSA-level interpreter (see `common.py` for scalars).

Each module holds one `InterpreterFunctions` class; `tosa_xdsl.interpreter.
implementation_classes()` finds them by listing this package, so `build_interpreter` / `run`
/ `Session` run TOSA and lowered IR (or a mix) alike. See docs/interpreter.md, "Lowered stages"."""
