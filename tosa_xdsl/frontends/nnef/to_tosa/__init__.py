"""Road 1: standard-library operators -> TOSA operators or short compositions (emit.py builds
the MLIR text, ops.py holds the core mappings and the registry MAPPINGS; activations.py,
image.py, indexing.py, deconv.py and quant.py add theirs to it on import;
integer.py holds the integer forms of @quantize, integer_functions.py and integer_layout.py add
theirs to its HANDLERS)."""

# imported for what importing them does: the first five add their mappings to MAPPINGS,
# integer_functions and integer_layout their integer forms to integer.py's HANDLERS
from tosa_xdsl.frontends.nnef.to_tosa import (  # noqa: F401
    activations,
    deconv,
    image,
    indexing,
    integer_functions,
    integer_layout,
    quant,
)
from tosa_xdsl.frontends.nnef.to_tosa.ops import MAPPINGS  # noqa: F401
