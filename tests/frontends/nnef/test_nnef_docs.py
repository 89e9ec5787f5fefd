"""docs/nnef.md is generated from the code (the standard-library table): it must be current."""

from pathlib import Path

from tosa_xdsl.frontends.nnef.docs import document


def test_docs_are_current():
    path = Path(__file__).resolve().parents[3] / "docs" / "nnef.md"
    assert path.read_text() == document(), "run: python -m tosa_xdsl.frontends.nnef.docs > docs/nnef.md"


def test_recogniser(tmp_path):
    from tosa_xdsl.frontends.nnef import looks_like_nnef
    (tmp_path / "main.sknd").write_text("graph G { @input { } }")
    assert looks_like_nnef(tmp_path) and looks_like_nnef(tmp_path / "main.sknd")
    assert looks_like_nnef("", b"# model\nimport nn;\n") and not looks_like_nnef("", b"func.func @f()")
