"""tosa-opt on pre-1.0 input: upgrade remark, --tosa-no-upgrade, located errors for what has
no TOSA 1.0 equivalent, and 1.0 input (valid or not) behaving exactly as before."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from tosa_xdsl.tools.tosa_opt import main as tosa_opt


def run_opt(tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    src = tmp_path / "in.mlir"
    src.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = tosa_opt(["in.mlir", *args])
    return code, out.getvalue(), err.getvalue()


OLD_CLAMP = """func.func @main(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = "tosa.clamp"(%x) {max_fp = 6.0 : f32, max_int = 6 : i64, min_fp = 0.0 : f32, min_int = 0 : i64} : (tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
"""


def test_upgrade_on_read_prints_remark_and_1_0(tmp_path):
    code, out, err = run_opt(tmp_path, OLD_CLAMP, "--tosa-syntax=attr-dict")
    assert code == 0, err
    assert "in.mlir:2:8: remark: upgraded pre-1.0 TOSA to TOSA 1.0.1 (tosa-upgrade-to-1.0): 1 tosa.clamp" in err
    assert "min_val = 0 : i8" in out and "max_val = 6 : i8" in out and "min_int" not in out


def test_upgraded_output_reads_back_without_upgrade(tmp_path):
    _, out, _ = run_opt(tmp_path, OLD_CLAMP)
    code, again, err = run_opt(tmp_path, out, "--tosa-no-upgrade")
    assert code == 0 and err == "" and again == out


def test_no_upgrade_flag_makes_legacy_input_an_error(tmp_path):
    code, out, err = run_opt(tmp_path, OLD_CLAMP, "--tosa-no-upgrade")
    assert code == 1 and out == ""
    assert err.startswith("in.mlir:2:8: error: pre-1.0 TOSA input: 'tosa.clamp' has the pre-1.0 attribute")
    assert "--tosa-no-upgrade" in err


def test_upgrade_pass_is_registered(tmp_path):
    code, out, _ = run_opt(tmp_path, "", "--list-passes")
    assert code == 0 and "tosa-upgrade-to-1.0" in out.split()


def test_python_api_pass_upgrades_in_memory():
    from xdsl.context import Context

    from tosa_xdsl.frontends.legacy import read_legacy
    from tosa_xdsl.frontends.legacy.upgrade import TosaUpgradeTo10Pass

    module = read_legacy(OLD_CLAMP)
    assert any(op.name == "tosa.clamp" and "min_int" in op.attributes for op in module.walk())
    TosaUpgradeTo10Pass().apply(Context(), module)
    module.verify()
    (clamp,) = [op for op in module.walk() if op.name == "tosa.clamp"]
    assert "min_val" in clamp.properties


def test_valid_1_0_input_is_untouched(tmp_path):
    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.clamp %x {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    code, _, err = run_opt(tmp_path, text)
    assert code == 0 and err == ""


def test_invalid_1_0_input_keeps_its_own_error(tmp_path):
    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.clamp %x {max_val = 0.0 : f32, min_val = 6.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    code, _, err = run_opt(tmp_path, text)
    assert code == 1
    assert err.startswith("in.mlir:2:8: error:") and "remark" not in err and "pre-1.0" not in err


NO_EQUIVALENT = [
    # PAD's padding computed at run time: 1.0 needs a compile-time !tosa.shape
    ("""func.func @main(%x: tensor<2xf32>, %p: tensor<1x2xi32>) -> tensor<4xf32> {
  %0 = "tosa.pad"(%x, %p) : (tensor<2xf32>, tensor<1x2xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "in.mlir:2:8: error: 'tosa.pad' padding operand is not a constant"),
    # TRANSPOSE perms computed at run time
    ("""func.func @main(%x: tensor<2x3xf32>, %p: tensor<2xi32>) -> tensor<3x2xf32> {
  %0 = "tosa.transpose"(%x, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
""", "in.mlir:2:8: error: 'tosa.transpose' perms operand is not a constant"),
    # unsigned 32-bit RESCALE data: 1.0 has unsigned RESCALE data of 8 and 16 bits only
    ("""func.func @main(%x: tensor<4x!quant.uniform<u32:f32, 0.1:0>>) -> tensor<4xi8> {
  %0 = "tosa.rescale"(%x) {double_round = false, input_zp = 0 : i32, multiplier = [1073741824 : i32], output_zp = 0 : i32, per_channel = false, scale32 = true, shift = [30 : i32]} : (tensor<4x!quant.uniform<u32:f32, 0.1:0>>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
""", "in.mlir:2:8: error: 'tosa.rescale' with an unsigned input type ui32"),
    # floating-point RESIZE whose stride is no ratio of small integers
    ("""func.func @main(%x: tensor<1x3x3x1xf32>) -> tensor<1x4x4x1xf32> {
  %0 = "tosa.resize"(%x) {mode = "BILINEAR", offset = [0, 0], offset_fp = [0.0 : f32, 0.0 : f32], output_size = [4, 4], shift = 0 : i32, stride = [0, 0], stride_fp = [0.7071 : f32, 0.7071 : f32]} : (tensor<1x3x3x1xf32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}
""", "in.mlir:2:8: error: 'tosa.resize' stride_fp"),
    # MLIR's helper op apply_scale is no TOSA operator
    ("""func.func @main(%x: i32, %m: i32, %s: i8) -> i32 {
  %0 = "tosa.apply_scale"(%x, %m, %s) {double_round = false} : (i32, i32, i8) -> i32
  return %0 : i32
}
""", "in.mlir:2:8: error: 'tosa.apply_scale' (an MLIR-internal helper op) has no TOSA 1.0 operator"),
    # RESHAPE with an inferred extent and a dynamic result
    ("""func.func @main(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %0 = "tosa.reshape"(%x) {new_shape = [-1]} : (tensor<?x4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
""", "in.mlir:2:8: error: 'tosa.reshape' new_shape [-1] has an inferred (-1) extent"),
]


@pytest.mark.parametrize("text,message", NO_EQUIVALENT, ids=["pad", "transpose", "rescale-u32", "resize-fp",
                                                             "apply_scale", "reshape-dynamic"])
def test_no_1_0_equivalent_is_a_located_error(tmp_path, text, message):
    code, out, err = run_opt(tmp_path, text)
    assert code == 1 and out == ""
    assert err.startswith(message), err
    assert "Traceback" not in err


def test_every_failure_is_reported(tmp_path):
    text = """func.func @main(%x: tensor<2x3xf32>, %p: tensor<2xi32>) -> tensor<3x2xf32> {
  %0 = "tosa.transpose"(%x, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %1 = "tosa.transpose"(%0, %p) : (tensor<3x2xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %2 = "tosa.transpose"(%1, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %2 : tensor<3x2xf32>
}
"""
    code, _, err = run_opt(tmp_path, text)
    assert code == 1
    located = [line.split(": error:")[0] for line in err.splitlines() if ": error:" in line]
    assert located == ["in.mlir:2:8", "in.mlir:3:8", "in.mlir:4:8"]


def test_bad_quant_attribute_is_a_parse_error_of_the_1_0_reader(tmp_path):
    text = """func.func @main(%x: tensor<1x1x1x1xi8>, %w: tensor<1x1x1x1xi8>, %b: tensor<1xi32>) -> tensor<1x1x1x1xi32> {
  %0 = "tosa.conv2d"(%x, %w, %b) {dilation = [1, 1], pad = [0, 0, 0, 0], quantization_info = #tosa.conv_quant<input_zp = 1, bogus = 2>, stride = [1, 1]} : (tensor<1x1x1x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>) -> tensor<1x1x1x1xi32>
  return %0 : tensor<1x1x1x1xi32>
}
"""
    code, _, err = run_opt(tmp_path, text)
    assert code == 1 and "Traceback" not in err and "error:" in err


def test_llvm14_function_syntax_alone_is_upgraded(tmp_path):
    text = """func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tosa.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    code, out, err = run_opt(tmp_path, text)
    assert code == 0, err
    assert "remark: upgraded pre-1.0 TOSA" in err and "func.func @main" in out


def test_split_input_file_upgrades_per_chunk(tmp_path):
    new = """func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    code, out, err = run_opt(tmp_path, new + "// -----\n" + OLD_CLAMP, "--split-input-file")
    assert code == 0, err
    assert err.count("remark:") == 1 and "in.mlir:7:8: remark" in err
    assert "tosa.abs" in out and "min_val" in out
