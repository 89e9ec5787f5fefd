"""The `tosa` dialect: every TOSA 1.0.1 operator (tosa_xdsl.dialects.tosa.ops) and the dialect's types and
attributes (tosa_xdsl.ir). Use tosa_xdsl.context.load_tosa(ctx) to put it into a Context
in place of xDSL's partial `tosa`."""

from xdsl.ir import Dialect

from tosa_xdsl.dialects.tosa.ops import ALL_OPS
from tosa_xdsl.ir import ATTRIBUTES

Tosa = Dialect("tosa", list(ALL_OPS), list(ATTRIBUTES))

# Registers the spec's ERROR_IF checks with the op verifiers.
import tosa_xdsl.verification  # noqa: E402,F401
