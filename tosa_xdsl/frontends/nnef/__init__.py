"""NNEF 2.0 (SkriptND) frontend: `import_nnef` (a .sknd file, a model folder or text -> a
module of TOSA + linalg) and `export_nnef_folder` (TOSA -> NNEF); see docs/nnef.md."""

from __future__ import annotations

from pathlib import Path


def import_nnef(path_or_text, ctx=None, **kwargs):
    from tosa_xdsl.frontends.nnef.importer import import_nnef as _imp
    return _imp(path_or_text, ctx, **kwargs)


def export_nnef_folder(module, folder, entry=None):
    from tosa_xdsl.frontends.nnef.export import export_nnef_folder as _exp
    return _exp(module, folder, entry)


def load_nnef(data: bytes, ctx, filename: str, lower_all: bool = False, fake_quant: bool = False,
              input_shapes: dict | None = None):
    """Loader-registry entry (`load(data, ctx, filename) -> ModuleOp`): the document's bytes;
    imported modules and variable data files are looked up next to `filename`. `lower_all`
    compiles every operator from its @lower formulas (tosa-translate --nnef-lower-all);
    `fake_quant` imports @quantize entries as the definitions' fake quantization in reals
    instead of integer TOSA (--nnef-fake-quant); `input_shapes` fixes graph inputs' run-time
    extents (--nnef-input-shape)."""
    from tosa_xdsl.frontends.nnef.importer import import_nnef as _imp
    p = Path(filename) if filename else None
    if p is not None and p.is_dir():
        return _imp(p, ctx, lower_all=lower_all, fake_quant=fake_quant, input_shapes=input_shapes)
    text = bytes(data).decode("utf-8", "replace")
    root = p.parent if p is not None and p.exists() else None
    return _imp(text, ctx, file=filename or "<input>", root=root, lower_all=lower_all, fake_quant=fake_quant,
                input_shapes=input_shapes)


def load_nnef_lower_all(data: bytes, ctx, filename: str):
    """`load_nnef` with every operator compiled from its formulas."""
    return load_nnef(data, ctx, filename, lower_all=True)


def load_nnef_fake_quant(data: bytes, ctx, filename: str):
    """`load_nnef` with @quantize entries as fake quantization (reals)."""
    return load_nnef(data, ctx, filename, fake_quant=True)


def export_nnef_to(module, folder) -> None:
    """tosa-translate --export-nnef: the model folder (main.sknd + one .dat per variable)."""
    export_nnef_folder(module, folder)


def looks_like_nnef(path: str | Path, head: bytes = b"") -> bool:
    """Recogniser for a content-based loader: a model folder with main.sknd, a .sknd file, or
    text that starts (after comments) with 'version', 'import', 'graph', 'operator', 'public'."""
    p = Path(path) if path else None
    if p is not None and p.is_dir():
        return (p / "main.sknd").exists()
    if p is not None and p.suffix == ".sknd":
        return True
    text = head.decode("utf-8", "replace")
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        return s.split()[0] in ("version", "import", "graph", "operator", "public")
    return False
