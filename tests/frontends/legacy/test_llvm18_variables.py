"""LLVM 18's tosa.variable, in both of its spellings: the custom form (1.0's syntax, but
`tosa.variable.read/.write`) and the generic form (`name` and a tensor `type`, where 1.0 has
sym_name, var_shape and an element type). Upgraded, the graph has spec 2.17's semantics: the
first read gives the initial value, later reads what the previous call wrote."""

from __future__ import annotations

import numpy as np
import pytest

from tosa_xdsl.frontends.legacy.reader import upgrade_text
from tosa_xdsl.interpreter.runner import Session

CUSTOM = """
module {
  tosa.variable @stored_var = dense<-1> : tensor<2x4xi32>
  func.func @f(%arg0: tensor<2x4xi32>) -> tensor<2x4xi32> {
    %0 = tosa.variable.read @stored_var : tensor<2x4xi32>
    tosa.variable.write @stored_var, %arg0 : tensor<2x4xi32>
    return %0 : tensor<2x4xi32>
  }
}
"""
GENERIC = """
module {
  "tosa.variable"() <{initial_value = dense<-1> : tensor<2x4xi32>, name = "stored_var", type = tensor<2x4xi32>}> : () -> ()
  func.func @f(%arg0: tensor<2x4xi32>) -> tensor<2x4xi32> {
    %0 = "tosa.variable.read"() <{name = "stored_var"}> : () -> tensor<2x4xi32>
    "tosa.variable.write"(%arg0) <{name = "stored_var"}> : (tensor<2x4xi32>) -> ()
    return %0 : tensor<2x4xi32>
  }
}
"""


@pytest.mark.parametrize("text", [CUSTOM, GENERIC], ids=["custom", "generic"])
def test_llvm18_variables_upgrade_and_keep_their_state(text):
    module = upgrade_text(text)
    names = [op.name for op in module.walk()]
    assert "tosa.variable" in names and "tosa.variable_read" in names and "tosa.variable_write" in names
    session = Session(module)
    first = np.arange(8, dtype=np.int32).reshape(2, 4)
    second = first + 100
    np.testing.assert_array_equal(session.call([first], "f")[0], np.full((2, 4), -1, np.int32))
    np.testing.assert_array_equal(session.call([second], "f")[0], first)


def test_generic_variable_without_a_tensor_type_is_a_located_error():
    from tosa_xdsl.frontends.legacy.upgrade import UpgradeError

    bad = GENERIC.replace("type = tensor<2x4xi32>}>", "type = i32}>")
    with pytest.raises(UpgradeError, match="needs a ranked tensor 'type'"):
        upgrade_text(bad)


def test_tosa_run_upgrades_on_read(tmp_path, capsys):
    from tosa_xdsl.tools import tosa_run

    src = tmp_path / "old.mlir"
    src.write_text(GENERIC)
    x = tmp_path / "x.npy"
    np.save(x, np.zeros((2, 4), np.int32))
    assert tosa_run.main([str(src), "-i", str(x), "--entry", "f", "--print"]) == 0
    captured = capsys.readouterr()
    assert "remark: upgraded pre-1.0 TOSA to TOSA 1.0.1" in captured.err
    assert "[[-1, -1, -1, -1], [-1, -1, -1, -1]]" in captured.out
