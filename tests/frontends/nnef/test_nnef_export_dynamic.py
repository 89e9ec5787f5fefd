"""TOSA -> NNEF export of `?` dims (draft 2.6.1): a graph input's `?` is written `~|2147483647`
(TOSA has no upper bound; 2^31 - 1 is the largest extent TOSA's level 8K allows), an output's
`~` (derived), a reshape keeps TOSA's -1. NNEF(dynamic) -> TOSA -> NNEF -> TOSA is a fixpoint on
test_nnef_dynamic.py's documents (the re-imported graph against the same numpy references at
several shapes), on Khronos' conversion of an ONNX model with a dynamic batch (against
onnxruntime's committed outputs at batch 1 and 3) and on the quantized mobilenet with a `?`
batch (against LiteRT, bit for bit); Khronos' `skriptnd` reads the bound."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_nnef_dynamic import CASES, _inputs, graph, signature

from tosa_xdsl.frontends.nnef.export import (
    RUNTIME_BOUND,
    ExportError,
    export_nnef,
    export_nnef_folder,
)
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

MODELS = Path(__file__).parent / "models"



def round_trip(m1, tmp_path):
    """(NNEF text of the first export, TOSA after one and after two round trips)."""
    export_nnef_folder(m1, tmp_path / "a")
    m2 = import_nnef(tmp_path / "a")
    export_nnef_folder(m2, tmp_path / "b")
    m3 = import_nnef(tmp_path / "b")
    assert (tmp_path / "b" / "main.sknd").read_text() == (tmp_path / "a" / "main.sknd").read_text()
    assert str(m3) == str(m2)
    return (tmp_path / "a" / "main.sknd").read_text(), m2


@pytest.mark.parametrize("name", sorted(CASES))
def test_runtime_extents_round_trip(name, tmp_path):
    ins, body, ref, runs = CASES[name]
    m1 = import_nnef(graph(ins, body))
    text, m2 = round_trip(m1, tmp_path)
    assert f"~|{RUNTIME_BOUND}" in text
    assert signature(m2) == signature(m1)
    for shapes in runs:
        xs = _inputs(shapes, name)
        np.testing.assert_allclose(run(m2, xs, entry="G")[0], ref(*xs), rtol=2e-5, atol=1e-6)


def test_general_gather_with_a_runtime_extent_is_one_line():
    """GATHER in its general form (indices per batch) is written as a gather of the [N*K, C]
    view at indices + n*K: compile-time extents (the importer's own form with a `?` round-trips
    above, gather_runtime_axis_and_index)."""
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context
    src = """func.func @f(%v: tensor<2x?x3xf32>, %i: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
      %0 = tosa.gather %v, %i : (tensor<2x?x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
      return %0 : tensor<2x4x3xf32>
    }"""
    with pytest.raises(ExportError, match="'tosa.gather': tosa.gather with extents known only at run time") as info:
        export_nnef(Parser(make_context(), src).parse_module())
    assert "\n" not in str(info.value)


def test_dynamic_batch_onnx_model_round_trip_matches_onnxruntime(tmp_path):
    """models/dyn_batch (Khronos' conversion, `x: real[~,2,8,8]`): the exported input is
    `x: real[~|2147483647, 2, 8, 8]`, the output `[~, 5]`, the flatten a reshape to [-1, 64]."""
    text, m2 = round_trip(import_nnef(MODELS / "dyn_batch"), tmp_path)
    assert f"x: real[~|{RUNTIME_BOUND}, 2, 8, 8];" in text and "output0: real[~, 5];" in text
    assert "layout.reshape{shape=[-1, 64]}" in text
    assert signature(m2) == "(tensor<?x2x8x8xf32>) -> tensor<?x5xf32>"
    for b in (1, 3):
        x = np.load(MODELS / f"dyn_batch.input_{b}.npy")
        got = run(m2, [x], entry="dyn_batch")[0]
        np.testing.assert_allclose(got, np.load(MODELS / f"dyn_batch.expected_{b}.npy"), rtol=1e-5, atol=1e-6)


def test_quantized_runtime_batch_round_trip_matches_litert(tmp_path):
    from test_nnef_quantized import TFLITE, inputs_for, run_litert

    folder = tmp_path / "net"
    shutil.copytree(MODELS / "net_mobilenet.int8", folder)
    text = (folder / "main.sknd").read_text()
    for old, new in [("x: real[1,16,16,3]", "x: real[n|4,16,16,3]"), ("Identity: real[1,5]", "Identity: real[n,5]"),
                     ("layout.reshape{shape=[1, 16]}", "layout.reshape{shape=[-1, 16]}")]:
        text = text.replace(old, new)
    (folder / "main.sknd").write_text(text)
    m1 = import_nnef(folder)
    _, m2 = round_trip(m1, tmp_path)
    assert str(m2) == str(m1) and signature(m2) == "(tensor<?x16x16x3xi8>) -> tensor<?x5xi8>"
    tfl = TFLITE / "models" / "net_mobilenet.int8.tflite"
    items = [inputs_for(tfl, seed)[0] for seed in (0, 1, 2)]
    want = np.concatenate([run_litert(tfl, [x])[0] for x in items])
    np.testing.assert_array_equal(run(m2, [np.concatenate(items)], entry="main")[0], want)


def test_khronos_reader_reads_the_runtime_extent(tmp_path):
    skriptnd = pytest.importorskip("skriptnd")
    export_nnef_folder(import_nnef(MODELS / "dyn_batch"), tmp_path)
    g = skriptnd.read_model(str(tmp_path)).graphs[0]
    dim = g.inputs[0].shape[0]
    assert not isinstance(dim, int) and dim.max_value == RUNTIME_BOUND
    assert tuple(g.inputs[0].shape[1:]) == (2, 8, 8)
    assert "nn.conv" in [op.name for op in g.operations]
