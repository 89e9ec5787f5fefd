"""Lowering of TOSA through linalg, bufferization and loops (installed as tosa_xdsl.lowering)."""
