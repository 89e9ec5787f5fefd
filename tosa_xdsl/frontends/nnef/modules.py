"""The module system (draft 2.15): a model folder's main document imports modules by name;
`nn` is found in the folder (`nn.sknd`, nested `a/b.sknd` for `a.b`) or else in our standard
library copy; operators are referenced as `module.op` (or unqualified in their own module).

The bundled standard library is parsed once per process (`stdlib_document`): its documents are
read-only downstream (semantics, composition and both roads only read the syntax tree;
tests/frontends/nnef/test_nnef_stdlib_cache.py, and tests/conftest.py after every session, check
that the cached trees still equal a fresh parse). Modules of a user's folder are read fresh on every import.
TOSA_XDSL_NNEF_STDLIB_CACHE=0 (or `Library(cache=False)`) parses the library anew each time."""

from __future__ import annotations

import os
from pathlib import Path

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import Loc, NnefError
from tosa_xdsl.frontends.nnef.parser import parse
from tosa_xdsl.frontends.nnef.stdlib import MODULES as STDLIB_MODULES
from tosa_xdsl.frontends.nnef.stdlib import module_path

# Khronos' v2.0 library spells a few operators differently from the draft: both resolve
ALIASES = {"math.axpby": "math.axpy"}

CACHE_ENV = "TOSA_XDSL_NNEF_STDLIB_CACHE"
# a bundled module's path -> ((mtime_ns, size) when parsed, its document)
_STDLIB_CACHE: dict[Path, tuple[tuple[int, int], A.Document]] = {}


def cache_enabled() -> bool:
    return os.environ.get(CACHE_ENV, "1") != "0"


def stdlib_document(path: Path) -> A.Document:
    """The parsed bundled module at `path`, parsed again only when the file changed (an edit
    of the library, e.g. by stdlib/extract.py, in a long-lived process)."""
    st = path.stat()
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _STDLIB_CACHE.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    doc = parse(path.read_text(), str(path))
    _STDLIB_CACHE[path] = (stamp, doc)
    return doc


def clear_stdlib_cache() -> None:
    _STDLIB_CACHE.clear()


def stale_stdlib_documents() -> list[str]:
    """The cached library documents that no longer equal a fresh parse of their file: a
    syntax tree changed in place by a user of the cache (the dataclasses compare deeply)."""
    return [str(path) for path, (_, doc) in _STDLIB_CACHE.items()
            if doc != parse(path.read_text(), str(path))]


class Library:
    def __init__(self, root: Path | None = None, cache: bool | None = None):
        self.root = root
        self.cache = cache_enabled() if cache is None else cache
        self.modules: dict[str, A.Document] = {}
        self.loading: set[str] = set()

    def load_module(self, name: str, loc: Loc) -> A.Document:
        if name in self.modules:
            return self.modules[name]
        if name in self.loading:
            raise NnefError(loc, f"circular import of module '{name}'")
        path, bundled = None, False
        if self.root is not None:
            cand = self.root.joinpath(*name.split(".")).with_suffix(".sknd")
            if cand.exists():
                path = cand
        if path is None:
            path = module_path(name)
            bundled = path is not None
        if path is None:
            raise NnefError(loc, f"module '{name}' not found")
        self.loading.add(name)
        try:
            doc = stdlib_document(path) if bundled and self.cache else parse(path.read_text(), str(path))
            self.add(name, doc)
        finally:
            self.loading.discard(name)
        for op in doc.operators:
            if op.is_graph:
                raise NnefError(op.loc, f"imported module '{name}' must not define graphs")
        return doc

    def add(self, name: str, doc: A.Document):
        self.modules[name] = doc
        for imp in doc.imports:
            self.load_module(imp.name, imp.loc)

    def lookup(self, qualified: str, current: str, loc: Loc) -> tuple[str, A.Operator]:
        qualified = ALIASES.get(qualified, qualified)
        if "." in qualified:
            mod, _, name = qualified.rpartition(".")
        else:
            mod, name = current, qualified
        doc = self.modules.get(mod)
        if doc is None and current in STDLIB_MODULES and mod in STDLIB_MODULES:
            # chapter 4 lists its definitions without import lines: library modules see each other
            doc = self.load_module(mod, loc)
        if doc is None:
            raise NnefError(loc, f"module '{mod}' is not imported (add 'import {mod};')")
        for op in doc.operators:
            if op.name == name:
                return f"{mod}.{name}", op
        raise NnefError(loc, f"operator '{name}' is not defined in module '{mod}'")
