"""!quant.uniform types (tosa_xdsl/dialects/quant.py): what we print is what MLIR 22's
mlir-opt prints for the same text, and malformed types are parse errors, not tracebacks."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from tosa_xdsl.context import make_context
from tosa_xdsl.dialects.quant import (
    UniformQuantizedPerAxisType,
    UniformQuantizedType,
    quant_of,
    storage_tensor_type,
)

MLIR_OPT = Path("/usr/lib/llvm-22/bin/mlir-opt")
# `!quant.uniform<...>` with at most one nested <min:max>
_QTYPE = re.compile(r"!quant\.uniform<[^<>]*(?:<[^<>]*>[^<>]*)?>")

TYPES = [
    "!quant.uniform<i8:f32, 0.0078:-1>",
    "!quant.uniform<i8:f32, 2.0>",
    "!quant.uniform<u8:f32, 0.5:128>",
    "!quant.uniform<i8<-127:127>:f32, 0.1>",
    "!quant.uniform<i16:f32, 3.0517578125E-5>",
    "!quant.uniform<i32:f32, 1.0e-3>",
    "!quant.uniform<i8:f32:0, {0.1,0.2:3,1.0e-3}>",
    "!quant.uniform<i8<-127:127>:f32:3, {0.5:1,0.25}>",
    "!quant.uniform<u8<1:255>:f16, 0.00390625:128>",
    "!quant.uniform<i8:bf16, 0.0039215686274509803:-128>",
]


def _module(types: list[str]) -> str:
    return "".join(f"func.func private @f{i}(%a: tensor<2x{t}>)\n" for i, t in enumerate(types))


def _ours(text: str) -> str:
    m = Parser(make_context(), text).parse_module()
    m.verify()
    return str(m)


@pytest.mark.skipif(not MLIR_OPT.exists(), reason="MLIR 22 not installed")
def test_print_matches_mlir_opt(tmp_path):
    src = tmp_path / "q.mlir"
    src.write_text(_module(TYPES))
    theirs = subprocess.run([str(MLIR_OPT), str(src)], capture_output=True, text=True, check=True).stdout
    ours = _ours(src.read_text())
    for i in range(len(TYPES)):
        line_t = next(ln for ln in theirs.splitlines() if f"@f{i}(" in ln)
        line_o = next(ln for ln in ours.splitlines() if f"@f{i}(" in ln)
        assert _QTYPE.search(line_t).group(0) == _QTYPE.search(line_o).group(0)


def test_round_trip_and_accessors():
    text = _ours(_module(TYPES))
    assert _ours(text) == text
    m = Parser(make_context(), _module(TYPES[6:7])).parse_module()
    arg_t = next(iter(m.body.block.ops)).function_type.inputs.data[0]
    q = quant_of(arg_t)
    assert isinstance(q, UniformQuantizedPerAxisType)
    assert list(q.scales) == [0.1, 0.2, 1.0e-3] and list(q.zero_points) == [0, 3, 0] and q.axis.data == 0
    assert str(storage_tensor_type(arg_t)) == "tensor<2xi8>"
    u8 = UniformQuantizedType(8, False, arg_t.element_type.expressed_type, 0.5, 128)
    assert (u8.qmin, u8.qmax) == (0, 255)


@pytest.mark.parametrize("bad", [
    "!quant.uniform<x8:f32, 0.1>",          # storage type prefix
    "!quant.uniform<i8:f32, -0.1>",         # negative scale
    "!quant.uniform<i8:f32, 0.0>",          # zero scale
    "!quant.uniform<i8<-200:127>:f32, 0.1>",  # range outside i8
    "!quant.uniform<i8<5:1>:f32, 0.1>",     # min > max
    "!quant.uniform<i8:f32, 0.1",           # truncated
    "!quant.uniform<i8:f32:0, {0.1,}>",     # empty per-axis entry
    "!quant.uniform<i99:f32, 0.1>",         # width
])
def test_malformed_types_are_parse_errors(bad):
    with pytest.raises((ParseError, VerifyException)):
        _ours(_module([bad]))
