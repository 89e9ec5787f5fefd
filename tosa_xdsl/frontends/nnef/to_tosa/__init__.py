"""Road 1: standard-library operators -> TOSA operators or short compositions (emit.py builds
the MLIR text, ops.py holds the core mappings and the registry MAPPINGS; activations.py,
image.py, indexing.py, deconv.py and quant.py add theirs to it on import;
integer.py holds the integer forms of @quantize, integer_functions.py and integer_layout.py add
theirs to its HANDLERS)."""

from tosa_xdsl.frontends.nnef.to_tosa import activations, deconv, image, indexing, quant  # noqa: F401  (register)
from tosa_xdsl.frontends.nnef.to_tosa import integer_functions, integer_layout  # noqa: F401  (integer forms)
from tosa_xdsl.frontends.nnef.to_tosa.ops import MAPPINGS  # noqa: F401
