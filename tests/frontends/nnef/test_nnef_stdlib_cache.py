"""The per-process cache of the parsed standard library (frontends/nnef/modules.py): the bundled
.sknd modules are parsed once and their syntax trees shared by every import, so nothing
downstream may change them. Checked here: after imports that use every operator of
nnef_cases.py on both roads and a quantized model, the cached trees equal a fresh parse, and a
later import prints the same module as one with the cache disabled; the check itself notices a
changed tree; a user's own modules and a changed library file are read again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from nnef_cases import CASES, COMPOSITES, ROAD2_PENDING, source

from tosa_xdsl.frontends.nnef import ast as A
from tosa_xdsl.frontends.nnef import modules
from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef, load_document
from tosa_xdsl.frontends.nnef.stdlib import MODULES, module_path

MODELS = Path(__file__).parent / "models"
QUANTIZED = MODELS / "net_mobilenet.int8"
ALGO = ("import algo;\ngraph G {\n @input { x: real[3,7]; b: real[1,5,4]; s: real[1,2,5]; }\n"
        " @output { v: real; i: int; n: int; }\n"
        " @compose { v, i = algo.top_k{k=3, axis=1}(x); n = algo.nonmax_suppress(b, s); }\n}\n")

# imports after the warm-up, compared with the cache disabled: road 1, road 2, composites,
# loops of formulas, integer TOSA from @quantize
LATER = [(source("nn.conv"), {}), (source("nn.softmax"), {"lower_all": True}),
         (source("layout.scatter"), {"lower_all": True}), (source("image.cubic_resize"), {}),
         (ALGO, {}), (QUANTIZED, {})]


@pytest.fixture(scope="module")
def warmed():
    """Every case operator imported by road 1 and by road 2 (where it compiles), and a
    quantized model, all through the cache."""
    modules.clear_stdlib_cache()
    for op in [*CASES, *COMPOSITES]:
        import_nnef(source(op))
        if op not in ROAD2_PENDING:
            try:
                import_nnef(source(op), lower_all=True)
            except NnefError:
                pass      # an instance road 2 declines with a located error (KNOWN_GAPS)
    import_nnef(ALGO)
    import_nnef(QUANTIZED)
    import_nnef(QUANTIZED, fake_quant=True)
    return len(modules._STDLIB_CACHE)


def test_imports_leave_the_cached_library_unchanged(warmed):
    assert warmed == len(MODULES)
    assert modules.stale_stdlib_documents() == []


@pytest.mark.parametrize("case", range(len(LATER)))
def test_later_import_equals_uncached_import(warmed, case, monkeypatch):
    doc, kwargs = LATER[case]
    cached = str(import_nnef(doc, **kwargs))
    monkeypatch.setenv(modules.CACHE_ENV, "0")
    assert str(import_nnef(doc, **kwargs)) == cached


def _first(node, kind):
    """The first `kind` node in a syntax tree (depth first over dataclass fields and lists)."""
    if isinstance(node, kind):
        return node
    if isinstance(node, (list, tuple)):
        items = node
    elif hasattr(node, "__dataclass_fields__"):
        items = [getattr(node, f) for f in node.__dataclass_fields__]
    else:
        return None
    for x in items:
        found = _first(x, kind)
        if found is not None:
            return found
    return None


def test_stale_check_notices_a_changed_tree():
    modules.clear_stdlib_cache()
    try:
        _, lib = load_document(source("nn.conv"))
        nn = lib.modules["nn"]
        assert modules.stale_stdlib_documents() == []
        conv = next(op for op in nn.operators if op.name == "conv")
        literal = _first(conv.lowerings, A.Literal)
        assert literal is not None
        literal.value = "changed"                       # a value deep in an expression
        assert modules.stale_stdlib_documents() == [str(module_path("nn"))]
        modules.clear_stdlib_cache()
        _, lib = load_document(source("nn.conv"))
        lib.modules["math"].operators[0].asserts.append(None)      # a list grown in place
        assert modules.stale_stdlib_documents() == [str(module_path("math"))]
    finally:
        modules.clear_stdlib_cache()


def test_library_parsed_once_user_main_each_time():
    _, a = load_document(source("nn.conv"))
    _, b = load_document(source("nn.conv"))
    assert all(a.modules[m] is b.modules[m] for m in ("nn", "math", "layout", "linalg", "image", "quant"))
    assert a.modules["main"] is not b.modules["main"]


def test_cache_disabled_by_environment_or_argument(monkeypatch):
    _, a = load_document(source("nn.conv"))
    monkeypatch.setenv(modules.CACHE_ENV, "0")
    _, b = load_document(source("nn.conv"))
    assert b.modules["nn"] is not a.modules["nn"] and b.modules["nn"] == a.modules["nn"]
    monkeypatch.delenv(modules.CACHE_ENV)
    lib = modules.Library(cache=False)
    assert lib.load_module("nn", None) is not a.modules["nn"]
    assert modules.Library().load_module("nn", None) is a.modules["nn"]


USER = """operator twice {{
    @input {{ x: real[n]; }}
    @output {{ y: real[n]; }}
    @compose {{ y = math.mul(x, {k}.0); }}
}}
"""


def test_user_module_read_each_import(tmp_path):
    """A module of the model's folder is not cached: an edit shows in the next import."""
    (tmp_path / "main.sknd").write_text("import mine; import math;\ngraph G {\n @input { x: real[3]; }\n"
                                        " @output { y: real[3]; }\n @compose { y = mine.twice(x); }\n}\n")
    (tmp_path / "mine.sknd").write_text("import math;\n" + USER.format(k=2))
    assert "2.0" in str(import_nnef(tmp_path))
    (tmp_path / "mine.sknd").write_text("import math;\n" + USER.format(k=7))
    text = str(import_nnef(tmp_path))
    assert "7.0" in text and "2.0" not in text


def test_changed_library_file_parsed_again(tmp_path):
    """The cache is keyed by the file's modification time and size: an edited library file
    (stdlib/extract.py rewriting it in a long-lived process) is parsed again."""
    p = tmp_path / "lib.sknd"
    p.write_text(USER.format(k=2))
    first = modules.stdlib_document(p)
    assert modules.stdlib_document(p) is first
    p.write_text(USER.format(k=17))
    second = modules.stdlib_document(p)
    assert second is not first and second != first
    modules._STDLIB_CACHE.pop(p)
