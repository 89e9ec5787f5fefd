"""tosa_xdsl: the TOSA 1.0.1 operator set as an xDSL dialect.

Public entry points:
- `tosa_xdsl.dialect.Tosa`: the `tosa` dialect (all 75 TOSA 1.0.1 operators).
- `tosa_xdsl.context.load_tosa(ctx)`: put our `tosa` into a user's xDSL `Context`.
- `tosa_xdsl.context.make_context()`: a Context with every dialect tosa-opt knows.
- `tosa_xdsl.load(path_or_bytes)`: a module from MLIR text, MLIR bytecode or a TOSA
  flatbuffer, recognised by content (`tosa_xdsl.formats.loader`).
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    # Lazy: `import tosa_xdsl` stays cheap; the loader pulls in xDSL on first use.
    if name == "load":
        from tosa_xdsl.formats.loader import load

        return load
    raise AttributeError(f"module 'tosa_xdsl' has no attribute {name!r}")
