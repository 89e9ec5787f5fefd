"""The module system (draft 2.15): a model folder's main document imports modules by name;
`nn` is found in the folder (`nn.sknd`, nested `a/b.sknd` for `a.b`) or else in our standard
library copy; operators are referenced as `module.op` (or unqualified in their own module)."""

from __future__ import annotations

from pathlib import Path

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef.errors import Loc, NnefError
from tosa_xdsl.frontends.nnef.parser import parse
from tosa_xdsl.frontends.nnef.stdlib import MODULES as STDLIB_MODULES
from tosa_xdsl.frontends.nnef.stdlib import module_path

# Khronos' v2.0 library spells a few operators differently from the draft: both resolve
ALIASES = {"math.axpby": "math.axpy"}


class Library:
    def __init__(self, root: Path | None = None):
        self.root = root
        self.modules: dict[str, A.Document] = {}
        self.loading: set[str] = set()

    def load_module(self, name: str, loc: Loc) -> A.Document:
        if name in self.modules:
            return self.modules[name]
        if name in self.loading:
            raise NnefError(loc, f"circular import of module '{name}'")
        path = None
        if self.root is not None:
            cand = self.root.joinpath(*name.split(".")).with_suffix(".sknd")
            if cand.exists():
                path = cand
        if path is None:
            path = module_path(name)
        if path is None:
            raise NnefError(loc, f"module '{name}' not found")
        self.loading.add(name)
        try:
            doc = parse(path.read_text(), str(path))
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
