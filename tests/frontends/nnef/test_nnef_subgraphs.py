"""@compose forms formerly reported "not supported by the importer yet": invoking a graph
(a sub-graph, draft 2.11: its own name scope, rooted at its name or at an explicit label) and
result lists `[a, b]` binding the items of a packed result (2.10); values from numpy."""

from __future__ import annotations

import numpy as np
import pytest

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.frontends.nnef.tensor_data import write_tensor
from tosa_xdsl.interpreter import run

RNG = np.random.default_rng(211)

DOC = """import math; import nn;
graph Dense {
  @input { x: real[2,3]; }
  @output { y: real[2,4]; }
  @variable { w: real[4,3]; b: real[4]; }
  @compose { y = nn.linear(x, w, b); }
}
graph Main {
  @input { x: real[2,3]; }
  @output { y: real; z: real; u: real; }
  @compose {
    h = Dense(x);
    y = nn.relu(h);
    z = second: Dense(x);
    u = Dense(x);
  }
}
"""


def test_sub_graph_variables_are_scoped(tmp_path):
    """Two scopes (the graph's name, the label `second`); the unlabelled invocations share
    `Dense.w` / `Dense.b`; the variables' data files `main.Main.<scope>.<name>.dat`."""
    (tmp_path / "main.sknd").write_text(DOC)
    ws = {scope: (RNG.standard_normal((4, 3)).astype(np.float32), RNG.standard_normal(4).astype(np.float32))
          for scope in ("Dense", "second")}
    for scope, (w, b) in ws.items():
        write_tensor(tmp_path / f"main.Main.{scope}.w.dat", w)
        write_tensor(tmp_path / f"main.Main.{scope}.b.dat", b)
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    y, z, u = run(import_nnef(tmp_path / "main.sknd", graph="Main"), [x], entry="Main")
    dense = {s: x.astype(np.float64) @ w.T + b for s, (w, b) in ws.items()}
    np.testing.assert_allclose(y, np.maximum(dense["Dense"], 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(z, dense["second"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(u, dense["Dense"], rtol=1e-5, atol=1e-6)


def test_sub_graph_without_data_takes_its_variables_as_arguments():
    module = import_nnef(DOC, graph="Main")
    func = next(op for op in module.walk() if op.name == "func.func")
    names = [str(a.name_hint) for a in func.body.block.args]
    assert names == ["x", "Dense_w", "Dense_b", "second_w", "second_b"]


def test_sub_graph_variable_types_must_agree_in_a_scope():
    doc = DOC.replace("graph Main", """graph Dense2 {
  @input { x: real[2,3]; }
  @output { y: real[2,4]; }
  @variable { w: real[4,3]; b: real[1,4]; }
  @compose { y = nn.linear(x, w, b); }
}
graph Main""").replace("u = Dense(x);", "u = Dense: Dense2(x);")
    with pytest.raises(NnefError, match=r"^\S+:\d+:\d+: error: variable 'Dense.b' has type"):
        import_nnef(doc, graph="Main")


def test_result_lists_bind_packed_items():
    """`[a, bs..(2), c] = layout.split{...}(x)`: the items in order (2.10)."""
    src = """import layout;
graph G { @input { x: real[8,3]; } @output { a: real; b: real; c: real; }
  @compose { [a, bs..(2), c] = layout.split{axis=0, count=4}(x); b = layout.concat{axis=1}(bs); } }
"""
    x = np.arange(24, dtype=np.float32).reshape(8, 3)
    a, b, c = run(import_nnef(src), [x], entry="G")
    np.testing.assert_array_equal(a, x[0:2])
    np.testing.assert_array_equal(b, np.concatenate([x[2:4], x[4:6]], axis=1))
    np.testing.assert_array_equal(c, x[6:8])
