"""Interpreter implementations for the lowered stages of the pipeline: the arith, math,
tensor, linalg, scf and ml_program ops that tosa-to-linalg(-named)/tensor/arith/scf/mlprogram
emit, on the same numpy values as the TOSA-level interpreter (see `common.py` for scalars).

Each module holds one `InterpreterFunctions` class; `tosa_xdsl.interpreter.IMPL_MODULES`
lists them (as "lowered.<name>") so `build_interpreter` / `run` / `Session` run TOSA and
lowered IR (or a mix) alike. See docs/interpreter.md, "Lowered stages"."""

MODULES = ("arith", "math", "tensor", "linalg", "scf", "ml_program")
