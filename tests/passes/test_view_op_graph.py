"""view-op-graph and tosa-translate --to-svg: the graph has a node per operation (constants
folded into their users' labels unless fold-constants=false) and an edge per use, checked
against the module's own def-use structure; Graphviz renders it (the example model's SVG)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tosa_xdsl.passes.view_op_graph import (
    CONSTANT_OPS,
    GraphOptions,
    op_graph_dot,
    render_svg,
)
from tosa_xdsl.tools.tosa_run import load_module

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "face_detection_front.tosa.mlir"
SMALL = """
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %c = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = tosa.mul %0, %c, %s : (tensor<2xf32>, tensor<2xf32>, tensor<1xi8>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
"""


def _module(text: str):
    loaded = load_module("<test>", text, [])
    assert loaded is not None
    return loaded.module


def _counts(dot: str) -> tuple[int, int]:
    nodes = len(re.findall(r"^\s*v\d+ \[label", dot, re.M))
    edges = len(re.findall(r"^\s*v\d+ -> v\d+ \[label", dot, re.M))
    return nodes, edges


def _expected(module, fold: bool) -> tuple[int, int]:
    """Nodes and data-flow edges derived from the IR: one node per op except func/module
    (and folded constants), one per block argument; one edge per operand use whose producer
    is shown."""
    shown = [op for op in module.walk() if op.name not in ("func.func", "builtin.module")
             and not (fold and op.name in CONSTANT_OPS)]
    args = sum(len(b.args) for op in module.walk() for r in op.regions for b in r.blocks
               if op.name != "builtin.module")
    edges = sum(1 for op in shown for v in op.operands
                if not (fold and getattr(v.owner, "name", None) in CONSTANT_OPS))
    return len(shown) + args, edges


@pytest.mark.parametrize("fold", [True, False])
def test_graph_structure_matches_the_ir(fold):
    module = _module(SMALL)
    dot = op_graph_dot(module, GraphOptions(fold_constants=fold))
    assert _counts(dot) == _expected(module, fold)
    if fold:
        assert "#1 = tosa.const: tensor<2xf32>" in dot  # the folded constant, in its user's label


def test_pass_writes_dot_to_stderr_and_keeps_the_ir(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text(SMALL)
    proc = subprocess.run([sys.executable, "-m", "tosa_xdsl.tools.tosa_opt", str(src), "-p",
                           "view-op-graph{max-label-len=8 print-attrs=false}"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("digraph G {") and "tosa.add" in proc.stderr
    assert "tosa.add" in proc.stdout  # the module, printed unchanged after the pass


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")
def test_example_model_renders_as_svg():
    loaded = load_module(str(EXAMPLE), EXAMPLE.read_bytes(), [])
    module = loaded.module
    svg = render_svg(module)
    root = ET.fromstring(svg)
    ns = {"svg": "http://www.w3.org/2000/svg"}
    nodes = root.findall(".//svg:g[@class='node']", ns)
    edges = root.findall(".//svg:g[@class='edge']", ns)
    assert (len(nodes), len(edges)) == _expected(module, fold=True)
    titles = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "tosa.conv2d" in titles and "tosa.depthwise_conv2d" in titles


def test_to_svg_without_dot_is_one_clean_line(tmp_path, monkeypatch):
    from tosa_xdsl.tools.tosa_translate import main

    src = tmp_path / "m.mlir"
    src.write_text(EXAMPLE.read_text())
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot here
    assert main(["--to-svg", str(src), "-o", str(tmp_path / "out.svg")]) == 1
