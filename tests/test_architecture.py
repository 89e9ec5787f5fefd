"""The package's layering (docs/architecture.md): imports run one way, no import cycles, and
nothing in the package imports the tests.

Layers, lowest first: the foundations (numerics, diagnostics, spec tables, xDSL patches), ir,
dialects with their verifiers, validation, interpreter/passes, lowering, then the drivers and
frontends, then the CLIs. A module may import its own layer or lower ones, at module level or
lazily inside a function. Two tables are exempt because they name their targets without
depending on them: `pass_registry` (pass name -> lazily imported class) and `xdsl_patches`
(patched attribute -> lazily imported replacement).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tosa_xdsl"

LAYERS = {
    "numerics": 0, "diagnostics": 0, "spec_tables": 0, "xdsl_patches": 0, "progress": 0,
    "ir": 1,
    "dialects": 2, "printing": 2, "verification": 2,  # an op's verifier is part of the dialect
    "validation": 3,
    "interpreter": 4, "passes": 4,
    "lowering": 5,
    "jit": 6, "codegen": 6, "context": 6, "driver": 6, "docs_gen": 6, "formats": 6, "frontends": 6,
    "tools": 7,
}
# (importing module's top-level name, imported module) pairs allowed against the order.
EXEMPT_IMPORTERS = {"pass_registry", "xdsl_patches"}
ALLOWED = {
    # numerics' RESIZE size check uses the operator's shape rule, an import-free module
    ("numerics", "tosa_xdsl.dialects.tosa.shapes"),
    # an op declares its canonicalization patterns; they are imported on first use (as
    # xDSL's arith declares patterns living in xdsl.transforms)
    ("dialects", "tosa_xdsl.passes.canonicalization_patterns"),
    # the lowering pipelines build their sub-pipelines by pass name
    ("lowering", "tosa_xdsl.pass_registry"),
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(path: Path, module: str, lazy: bool) -> list[tuple[int, str]]:
    """tosa_xdsl modules imported by `path` (module level only unless `lazy`), resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = ast.walk(tree) if lazy else tree.body
    out = []
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in nodes:
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("tosa_xdsl")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package
                for _ in range(node.level - 1):
                    parent = parent.rsplit(".", 1)[0]
                base = f"{parent}.{base}" if base else parent
            if base.startswith("tosa_xdsl"):
                out.append((node.lineno, base))
                out += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return out


def test_every_top_level_module_has_a_layer():
    tops = {p.relative_to(PACKAGE).parts[0].removesuffix(".py") for p in PACKAGE.rglob("*.py")}
    tops -= {"__init__", "pass_registry"}
    assert tops <= set(LAYERS), f"give these a layer in this test and docs/architecture.md: {tops - set(LAYERS)}"


def test_imports_follow_the_layers():
    bad = []
    for module, path in _modules().items():
        parts = module.split(".")
        if len(parts) < 2 or parts[1] in EXEMPT_IMPORTERS:
            continue
        mine = LAYERS[parts[1]]
        imports = _imports(path, module, lazy=True)
        for line, target in imports:
            tparts = target.split(".")
            if len(tparts) < 2 or tparts[1] not in LAYERS or LAYERS[tparts[1]] <= mine:
                continue
            # `from a.b import c` names a.b and a.b.c: allowed if a.b.c is
            names = [t for ln, t in imports if ln == line and (t == target or t.startswith(target + "."))]
            if any(parts[1] == who and any(t == what or t.startswith(what + ".") for t in names)
                   for who, what in ALLOWED):
                continue
            bad.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not bad, "imports against the layering:\n" + "\n".join(sorted(set(bad)))


def test_no_import_cycles_at_module_level():
    modules = _modules()
    graph = {m: set() for m in modules}
    for module, path in modules.items():
        for _, target in _imports(path, module, lazy=False):
            parent = target.rsplit(".", 1)[0]
            if target not in modules and parent in modules and parent != module:
                # `from package import name` of a name the package's __init__ defines:
                # a dependency on that __init__'s body, even from inside the package
                graph[module].add(parent)
            # importing a.b.c runs a/__init__ and a/b/__init__ too (except the packages the
            # importing module is itself inside: they are already being initialised)
            parts = target.split(".")
            for i in range(2, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix in modules and prefix != module and not module.startswith(prefix + "."):
                    graph[module].add(prefix)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, f"module-level import cycles: {cycles}"


def test_the_package_does_not_import_tests():
    bad = [f"{path}:{line}" for module, path in _modules().items()
           for line, target in _imports(path, module, lazy=True) if target.startswith("tests")]
    text_hits = [str(p) for p in PACKAGE.rglob("*.py") if "sys.path.insert" in p.read_text(encoding="utf-8")]
    assert not bad and not text_hits, (bad, text_hits)
