"""tosa_xdsl: the TOSA 1.0.1 operator set as an xDSL dialect.

Public entry points:
- `tosa_xdsl.dialects.tosa.dialect.Tosa`: the `tosa` dialect (all 75 TOSA 1.0.1 operators).
- `tosa_xdsl.context.load_tosa(ctx)`: put our `tosa` into a user's xDSL `Context`.
- `tosa_xdsl.context.make_context()`: a Context with every dialect tosa-opt knows.
"""

__version__ = "0.1.0"
