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


def test_loader_entry_reads_a_folder_document(tmp_path):
    """The loader-registry signature load(data, ctx, filename): data files found next to it."""
    import numpy as np

    from tosa_xdsl.frontends.nnef import load_nnef
    from tosa_xdsl.frontends.nnef.tensor_data import write_tensor
    text = ("import math;\ngraph G { @input { x: real[2]; } @output { y: real[2]; } "
            "@variable { w: real[2]; } @compose { y = math.add(x, w); } }\n")
    (tmp_path / "main.sknd").write_text(text)
    write_tensor(tmp_path / "main.G.w.dat", np.array([1.0, 2.0], np.float32))
    module = load_nnef(text.encode(), None, str(tmp_path / "main.sknd"))
    assert sum(op.name == "tosa.const" for op in module.walk()) == 1
