"""TOSA 1.0.2 (arm/tosa-specification v1.0.1..v1.0.2), one test per normative change
(docs/spec-1.0.2.md lists them with their section numbers)."""

from __future__ import annotations

import contextlib
import io

import ml_dtypes
import numpy as np
import pytest
from xdsl.parser import Parser

from tosa_xdsl import numerics as nx
from tosa_xdsl import spec_tables as st
from tosa_xdsl.context import make_context
from tosa_xdsl.interpreter.errors import TosaRunError
from tosa_xdsl.interpreter.runner import Session
from tosa_xdsl.interpreter.tensor_ops import argmax
from tosa_xdsl.spec_tables import errata
from tosa_xdsl.tools.tosa_opt import main as tosa_opt


def parse(text: str):
    return Parser(make_context(), text).parse_module()


def run_opt(tmp_path, text: str, *args: str) -> tuple[int, str, str]:
    (tmp_path / "in.mlir").write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = tosa_opt(["in.mlir", *args])
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------- 2.3.1 ARGMAX: REQUIRE on i


def test_argmax_require_is_in_the_spec_tables():
    texts = [c.text for c in st.op_spec("ARGMAX").requires]
    assert texts == ["i <= maximum<out_t>()"]
    assert st.source()["errata"] == "1.0.2"


def test_argmax_require_in_the_interpreter():
    x = np.zeros(200, np.float32)
    x[150] = 1.0
    # out_t = i32 (the only ARGMAX output type): index 150 fits
    assert argmax(x, 0, in_t="f32") == 150
    # the REQUIRE itself, with an output type whose maximum is below the index (i8: 127)
    with pytest.raises(nx.TosaUnpredictable, match=r"i <= maximum<out_t>\(\)"):
        argmax(x, 0, in_t="f32", out_t="i8")
    x[150], x[100] = 0.0, 1.0  # the maximum at 100 fits i8 although the axis is longer
    assert argmax(x, 0, in_t="f32", out_t="i8") == 100


def test_argmax_require_warning_in_tosa_validate(tmp_path):
    text = """func.func @main(%x: tensor<2147483650xf32>) -> tensor<i32> {
  %0 = tosa.argmax %x {axis = 0 : i32} : (tensor<2147483650xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}
"""
    code, _, err = run_opt(tmp_path, text, "-p", "tosa-validate{level=none}")
    assert code == 0, err
    assert "in.mlir:2:8: warning: 'tosa.argmax' op REQUIRE(i <= maximum<out_t>()) does not hold" in err
    small = text.replace("2147483650", "2147483648")  # indices up to 2^31 - 1 fit i32
    code, _, err = run_opt(tmp_path, small, "-p", "tosa-validate{level=none}")
    assert code == 0 and "REQUIRE" not in err


# --------------------------------------------------- Appendix A: mixed fp8 bounds removed


DTYPES = {"fp8e4m3": ml_dtypes.float8_e4m3fn, "fp8e5m2": ml_dtypes.float8_e5m2, "fp16": np.float16,
          "bf16": ml_dtypes.bfloat16, "fp32": np.float32}


@pytest.mark.parametrize("pair", sorted(errata.DOT_PRODUCT_B))
def test_dot_product_b_is_representable_and_its_square_fits(pair):
    in_t, out_t = pair
    b = errata.DOT_PRODUCT_B[pair]
    dtype = np.dtype(DTYPES[in_t])
    out_max = float(ml_dtypes.finfo(DTYPES[out_t]).max)
    stored = np.asarray(b).astype(dtype)
    assert float(stored) == b  # representable by the input type
    assert b * b <= out_max  # B*B does not overflow the output type
    # ... and the largest such value: the next value of the input type overflows (or B is
    # the input type's maximum)
    if b != float(ml_dtypes.finfo(dtype).max):
        bits = stored.reshape(1).view(f"u{dtype.itemsize}") + 1
        following = float(bits.view(dtype)[0])
        assert following * following > out_max, (pair, following)


def test_no_mixed_fp8_rows_in_appendix_a_or_in_any_operator():
    assert not any("and" in i for i, _ in errata.DOT_PRODUCT_B)
    # why they were invalid: no operator takes fp8e4m3 and fp8e5m2 inputs together
    for op in st.ops():
        for row in op.type_rows:
            fp8 = {t for t in row.types.values() if t.startswith("fp8")}
            assert len(fp8) <= 1, (op.name, dict(row.types))


# ------------------------------------- 1.4 / 4.3: graph_result as a value through subgraphs

COND_IF_INTDIV = """func.func @main(%c: tensor<i1>, %a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = tosa.cond_if %c (%x = %a, %y = %b) : tensor<i1> (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32> {
  ^bb0(%x: tensor<2xi32>, %y: tensor<2xi32>):
    %1 = tosa.intdiv %x, %y : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    tosa.yield %1 : tensor<2xi32>
  } else {
  ^bb0(%x: tensor<2xi32>, %y: tensor<2xi32>):
    tosa.yield %x : tensor<2xi32>
  }
  return %0 : tensor<2xi32>
}"""


def test_require_in_a_cond_if_branch_makes_the_graph_unpredictable():
    session = Session(parse(COND_IF_INTDIV))
    a, zero = np.array([4, 6], np.int32), np.array([2, 0], np.int32)
    with pytest.raises(TosaRunError) as info:
        session.call([np.array(True), a, zero])
    assert info.value.kind == "unpredictable" and session.graph_result == "unpredictable"
    session.call([np.array(False), a, zero])  # the branch not taken: valid
    assert session.graph_result == "valid"


def test_error_if_after_an_unpredictable_require_leaves_the_result_unpredictable():
    # 4.3: ERROR_IF_IMPL does not register an error once graph_result is unpredictable.
    # (Not verified on purpose: the RESHAPE's ERROR_IF is left for the run to find.)
    text = """func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<3xi32> {
  %0 = tosa.intdiv %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %s = tosa.const_shape {values = dense<[3]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %1 = tosa.reshape %0, %s : (tensor<2xi32>, !tosa.shape<1>) -> tensor<3xi32>
  return %1 : tensor<3xi32>
}"""
    a, zero = np.array([4, 6], np.int32), np.array([2, 0], np.int32)
    strict = Session(parse(text))
    with pytest.raises(TosaRunError) as info:
        strict.call([a, zero])
    assert info.value.kind == "unpredictable"  # REQUIRE first: stops there
    lenient = Session(parse(text), allow_unpredictable=True)
    with pytest.raises(TosaRunError) as info:
        lenient.call([a, zero])
    assert info.value.kind == "unpredictable" and "ERROR_IF" in info.value.message
    assert lenient.graph_result == "unpredictable"
    with pytest.raises(TosaRunError) as info:
        lenient.call([a, np.array([1, 2], np.int32)])  # no REQUIRE failure: a plain error
    assert info.value.kind == "error" and lenient.graph_result == "error"


# ---------------------------------- 1.4: unpredictable must not write outside any tensor


def test_unpredictable_scatter_and_gather_stay_in_bounds():
    text = """func.func @main(%v: tensor<1x4x2xf32>, %in: tensor<1x3x2xf32>) -> (tensor<1x4x2xf32>, tensor<1x3x2xf32>) {
  %i = tosa.const {values = dense<[[0, 9, -5]]> : tensor<1x3xi32>} : () -> tensor<1x3xi32>
  %0 = tosa.scatter %v, %i, %in : (tensor<1x4x2xf32>, tensor<1x3xi32>, tensor<1x3x2xf32>) -> tensor<1x4x2xf32>
  %1 = tosa.gather %v, %i : (tensor<1x4x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  return %0, %1 : tensor<1x4x2xf32>, tensor<1x3x2xf32>
}"""
    v = np.arange(8, dtype=np.float32).reshape(1, 4, 2)
    inp = -np.ones((1, 3, 2), np.float32)
    before = v.copy()
    session = Session(parse(text), allow_unpredictable=True)
    scattered, gathered = session.call([v, inp])
    assert session.graph_result == "unpredictable" and session.warnings
    assert np.asarray(scattered).shape == (1, 4, 2) and np.asarray(gathered).shape == (1, 3, 2)
    np.testing.assert_array_equal(v, before)  # the input tensor was not written


# ------------------------------------- 2.1: output shapes derivable from inputs/attributes


def test_output_shape_not_derivable_from_inputs_is_rejected(tmp_path):
    # TILE's output shape follows from input1 and the compile-time multiples: [2, 1] on 2x3
    # gives 4x3, so a 5x3 result is rejected where it is declared.
    text = """func.func @main(%a: tensor<2x3xf32>) -> tensor<5x3xf32> {
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %a, %m : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
"""
    code, _, err = run_opt(tmp_path, text)
    assert code == 1 and err.startswith("in.mlir:3:8: error: 'tosa.tile' op"), err
    code, _, err = run_opt(tmp_path, text.replace("5x3", "4x3"))
    assert code == 0, err


# ---------------------------------------- tosa-attach-target specification_version (upstream)


@pytest.mark.parametrize("version", ["1.0", "1.1.draft"])
def test_attach_target_specification_version(tmp_path, version):
    text = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n"
    code, out, err = run_opt(tmp_path, text, "-p", f"tosa-attach-target{{specification_version={version}}}")
    assert code == 0, err
    assert f'#tosa.target_env<specification_version = "{version}"' in out


def test_attach_target_rejects_unknown_version(tmp_path):
    text = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n"
    code, _, err = run_opt(tmp_path, text, "-p", "tosa-attach-target{specification_version=1.0.2}")
    assert code == 1
    assert "unsupported TOSA specification_version '1.0.2' (supported: 1.0, 1.1.draft)" in err
