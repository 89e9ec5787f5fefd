"""Road 1: standard-library operators -> TOSA operators or short compositions (emit.py builds
the MLIR text, ops.py holds the core mappings and the registry MAPPINGS; activations.py,
image.py, indexing.py, deconv.py and quant.py add theirs to it on import)."""

from tosa_xdsl.frontends.nnef.to_tosa import activations, deconv, image, indexing, quant  # noqa: F401  (register)
from tosa_xdsl.frontends.nnef.to_tosa.ops import MAPPINGS  # noqa: F401
