"""`tosa-legalize-tfl`: the `tfl` dialect -> TOSA 1.0.1, as the legalization guide says.

One module per operator family registers its legalizers with `@legalizes("tfl.x", ...)`
(`core.py` holds the registry and the walk). Importing this package imports every family.
"""

from tosa_xdsl.frontends.tflite.legalize import (  # noqa: F401  (registration)
    activations,
    constants,
    conv,
    elementwise,
    layout,
    layout_more,
    matmul,
    misc,
    pooling,
    reduction,
)
from tosa_xdsl.frontends.tflite.legalize.core import (
    LEGALIZERS,
    TflLegalizeError,
    TosaLegalizeTflPass,
    legalize_tfl,
)

__all__ = ["LEGALIZERS", "TflLegalizeError", "TosaLegalizeTflPass", "legalize_tfl"]
