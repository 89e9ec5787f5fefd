"""Graphs written by a real pre-1.0 tool: IREE's `iree-import-tflite` of May 2022 (LLVM 15
era: I64ArrayAttr lists, generic form) and February 2023 (LLVM 17 git: DenseI64ArrayAttr),
converting examples/face_detection_front.tflite (fixtures made by
tests/fixtures/legacy/make_iree_import_fixtures.py).

`tosa-opt old.mlir` upgrades them on read; the upgraded graph must compute exactly what
Arm's reference model computes on the modern conversion of the same .tflite
(examples/ expected outputs = tosa_reference_model on face_detection_front.tosa.mlir), both
with our interpreter and with the reference model itself running the upgraded graph.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from tosa_xdsl.tools.tosa_opt import main as tosa_opt

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "legacy"
VINTAGES = sorted(FIXTURES.glob("face_detection_front.iree-import-tflite-*.mlir.gz"))
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _model_file(name: str) -> Path:
    for base in (EXAMPLES, Path(__file__).resolve().parents[4] / "shared" / "models"):
        for cand in base.glob(f"*{name}"):
            return cand
    pytest.skip(f"{name} not found")


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory) -> dict[str, tuple[str, str]]:
    """vintage -> (upgraded text in the attr-dict syntax, stderr of tosa-opt)."""
    out: dict[str, tuple[str, str]] = {}
    tmp = tmp_path_factory.mktemp("legacy")
    for path in VINTAGES:
        src = tmp / path.name.removesuffix(".gz")
        src.write_bytes(gzip.decompress(path.read_bytes()))
        dst = tmp / ("new-" + src.name)
        import contextlib
        import io

        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = tosa_opt([str(src), "--tosa-syntax=attr-dict", "-o", str(dst)])
        assert code == 0, err.getvalue()
        out[path.name] = (dst.read_text(), err.getvalue())
    return out


def test_two_vintages_are_present():
    assert len(VINTAGES) >= 2


@pytest.mark.parametrize("name", [p.name for p in VINTAGES])
def test_upgrade_remark_names_the_pass(upgraded, name):
    text, stderr = upgraded[name]
    assert "remark: upgraded pre-1.0 TOSA to TOSA 1.0.1 (tosa-upgrade-to-1.0)" in stderr
    assert "error" not in stderr
    assert "quantization_info" not in text and "new_shape" not in text


@pytest.fixture(scope="module")
def modern_outputs() -> list[np.ndarray]:
    """Our interpreter on the modern (tosa-converter-for-tflite) conversion of the model."""
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context
    from tosa_xdsl.interpreter import run

    module = Parser(make_context(), _model_file("face_detection_front.tosa.mlir").read_text()).parse_module()
    return [np.asarray(r) for r in run(module, [np.load(_model_file("face_detection_front.input_0.npy"))])]


@pytest.mark.parametrize("name", [p.name for p in VINTAGES])
def test_upgraded_graph_computes_what_the_modern_conversion_computes(upgraded, modern_outputs, name):
    """Same interpreter, two graphs: bit-exact. (The interpreter itself differs from the
    reference model by a few f16 ulps on this model, hence the tolerance on the second check.)"""
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context
    from tosa_xdsl.interpreter import run

    text, _ = upgraded[name]
    x = np.load(_model_file("face_detection_front.input_0.npy"))
    module = Parser(make_context(), text).parse_module()
    outs = [np.asarray(r) for r in run(module, [x])]
    for i, (got, modern) in enumerate(zip(outs, modern_outputs)):
        np.testing.assert_array_equal(got, modern)
        want = np.load(_model_file(f"face_detection_front.expected_{i}.npy"))
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("name", [p.name for p in VINTAGES])
def test_reference_model_runs_the_upgraded_graph(upgraded, name):
    import oracle

    if not oracle.REFERENCE_MODEL.exists():
        pytest.skip("tosa_reference_model not installed")
    text, _ = upgraded[name]
    x = np.load(_model_file("face_detection_front.input_0.npy"))
    outs = oracle.run(text, x)
    for i, got in enumerate(outs):
        np.testing.assert_array_equal(got, np.load(_model_file(f"face_detection_front.expected_{i}.npy")))
