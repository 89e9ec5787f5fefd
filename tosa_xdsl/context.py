"""Put our `tosa` dialect into an xDSL `Context` (instead of xDSL's partial one).

xDSL ships a small `tosa` dialect of its own, and a Context refuses a second dialect of the
same name. We never register ours under the `xdsl.universe` entry point either: a second
`tosa` there makes every `xdsl-opt` in the environment fail on start-up. So the swap is
done per Context, here:

- `load_tosa(ctx, lazy=False)`: remove xDSL's `tosa` from `ctx` (registered or already
  loaded) and add ours; `lazy=True` only registers it, so `tosa_xdsl.dialects.tosa.dialect` is imported
  the first time a `tosa.*` op, type or attribute is looked up.
- `make_context(allow_unregistered=False)`: a fresh Context with every dialect xDSL ships
  (func, arith, math, tensor, linalg, bufferization, memref, affine, scf, cf, llvm,
  ml_program, ...) registered lazily, except xDSL's `tosa`, plus ours (also lazily);
  `linalg` and `ml_program` come extended with the ops our lowering needs
  (`tosa_xdsl/dialects/linalg_ext.py`, `ml_program_ext.py`, `llvm_ext.py`).

Both also install tosa_xdsl.xdsl_patches' parser patches (process-wide): dense constants
exactly as MLIR, a linear-time string-literal regex, the whole-line TOSA parser.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Dialect

from tosa_xdsl.xdsl_patches import install_parser_patches

TOSA = "tosa"


def _our_tosa() -> Dialect:
    from tosa_xdsl.dialects.tosa.dialect import Tosa

    return Tosa


def _drop_dialect(ctx: Context, name: str) -> None:
    # Context has no public way to unregister; these are its own bookkeeping dicts.
    ctx._registered_dialects.pop(name, None)  # pyright: ignore[reportPrivateUsage]
    dialect = ctx._loaded_dialects.pop(name, None)  # pyright: ignore[reportPrivateUsage]
    if dialect is None:
        return
    prefix = name + "."
    for table in (ctx._loaded_ops, ctx._loaded_attrs, ctx._loaded_types):  # pyright: ignore[reportPrivateUsage]
        for key in [k for k in table if k.startswith(prefix)]:
            del table[key]


def load_tosa(ctx: Context, lazy: bool = False) -> Context:
    """Replace whatever `tosa` dialect `ctx` has with ours; returns `ctx`.

    With `lazy=True` the dialect is only registered (imported on first use)."""
    _drop_dialect(ctx, TOSA)
    ctx.register_dialect(TOSA, _our_tosa)
    if not lazy:
        ctx.load_registered_dialect(TOSA)
    install_parser_patches()
    return ctx


def make_context(allow_unregistered: bool = False) -> Context:
    """A Context with every xDSL dialect but xDSL's `tosa` (lazily), and our `tosa`."""
    from xdsl.dialects import get_all_dialects

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        if name != TOSA:
            ctx.register_dialect(name, _EXTENDED.get(name, factory))
    _register_frontend_dialects(ctx)
    return load_tosa(ctx, lazy=True)


def _register_frontend_dialects(ctx: Context) -> None:
    # quant types and the tfl dialect (TFLite frontend), imported on first use
    from tosa_xdsl.dialects.quant import load_quant

    load_quant(ctx)
    if "tfl" not in ctx.registered_dialect_names:
        def tfl() -> Dialect:
            from tosa_xdsl.frontends.tflite.dialect import Tfl

            return Tfl

        ctx.register_dialect("tfl", tfl)


def _linalg_extended() -> Dialect:
    # linalg named ops the TOSA lowering emits that xDSL 0.74 lacks (batch_matmul, nhwc
    # pooling, depthwise conv, the _q convs)
    from tosa_xdsl.dialects.linalg_ext import linalg_dialect

    return linalg_dialect()


def _ml_program_extended() -> Dialect:
    # ml_program.global_load / global_store (tosa-to-mlprogram), missing in xDSL 0.74
    from tosa_xdsl.dialects.ml_program_ext import ml_program_dialect

    return ml_program_dialect()


def _llvm_extended() -> Dialect:
    # llvm.fptosi / fptoui / uitofp (convert-to-llvm), missing in xDSL 0.74
    from tosa_xdsl.dialects.llvm_ext import llvm_dialect

    return llvm_dialect()


_EXTENDED = {"linalg": _linalg_extended, "ml_program": _ml_program_extended, "llvm": _llvm_extended}
