"""Road 1: standard-library operators -> TOSA operators or short compositions (emit.py builds
the MLIR text, ops.py holds one function per NNEF operator, registered in MAPPINGS)."""

from tosa_xdsl.frontends.nnef.to_tosa.ops import MAPPINGS  # noqa: F401
