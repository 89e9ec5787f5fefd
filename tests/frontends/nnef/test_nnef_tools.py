"""NNEF through the tools: the loader recognises a SkriptND document by content, tosa-run
runs a model folder's main.sknd directly, tosa-translate imports (both roads) and exports a
model folder that imports back to the same results. Expected outputs: the reference model's
(examples/), as in test_nnef_models.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tosa_xdsl.formats import loader
from tosa_xdsl.interpreter import run
from tosa_xdsl.tools import tosa_run, tosa_translate

HERE = Path(__file__).parent
MODEL = HERE / "models" / "face_detection_front"
EXAMPLES = HERE.parents[2] / "examples"
ENTRY = "keras2tflite_facedetector_front_tflite_generated"
SMALL = """version 2.0;
import math;
graph G {
    @input { x: real[2,3]; }
    @output { y: real[2,3]; }
    @compose { y = math.exp(x); }
}
"""


def test_loader_recognises_nnef_text_but_not_mlir():
    assert loader.detect(SMALL.encode()).name == "nnef"
    assert loader.detect(b"// a comment\nfunc.func @f() {\n  return\n}\n") is None
    assert loader.detect(b"#map = affine_map<(d0) -> (d0)>\nmodule {}\n") is None


def test_tosa_run_reads_a_model_folder_document(tmp_path, capsys):
    x = EXAMPLES / "face_detection_front.input_0.npy"
    out0 = tmp_path / "o0.npy"
    code = tosa_run.main([str(MODEL / "main.sknd"), "-i", str(x), "-o", str(out0), "--entry", ENTRY])
    assert code == 0, capsys.readouterr().err
    ref = np.load(EXAMPLES / "face_detection_front.expected_0.npy")
    np.testing.assert_allclose(np.load(out0), ref, rtol=1e-4, atol=1e-3 * float(np.abs(ref).max()))


def test_translate_import_both_roads_and_export_round_trip(tmp_path):
    src = tmp_path / "small.sknd"
    src.write_text(SMALL)
    x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    results = []
    for extra in ([], ["--nnef-lower-all"]):
        out = tmp_path / f"small{len(extra)}.mlir"
        assert tosa_translate.main(["--import-nnef", str(src), "-o", str(out), *extra]) == 0
        module = loader.load(out)
        names = {op.name for op in module.walk()}
        assert ("linalg.generic" in names) == bool(extra)
        results.append(run(module, [x], entry="G")[0])
    np.testing.assert_allclose(results[0], np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(results[1], np.exp(x), rtol=1e-6)
    folder = tmp_path / "exported"
    assert tosa_translate.main(["--export-nnef", str(tmp_path / "small0.mlir"), "-o", str(folder)]) == 0
    back = tmp_path / "back.mlir"
    assert tosa_translate.main(["--import-nnef", str(folder), "-o", str(back)]) == 0
    np.testing.assert_allclose(run(loader.load(back), [x], entry="G")[0], np.exp(x), rtol=1e-6)


def test_export_needs_a_folder(capsys):
    assert tosa_translate.main(["--export-nnef", str(EXAMPLES / "face_detection_front.tosa.mlir")]) == 2
    assert "-o DIR" in capsys.readouterr().err
