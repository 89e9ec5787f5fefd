"""The .tflite reader: text round trip of the tfl module, quant types as MLIR prints them,
clean errors on bad files, and a seeded, time-bounded fuzz test."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from tflite_oracle import MODELS
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.frontends.tflite import TFLiteError, read_tflite

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"


def test_text_round_trip_of_quantized_model():
    data = (MODELS / "net_mobilenet.int8.tflite").read_bytes()
    ctx = make_context()
    module = read_tflite(data, ctx, "m.tflite")
    text = str(module)
    assert '"tfl.conv_2d"' in text and "!quant.uniform<i8:f32" in text
    assert "fused_activation_function" in text and "stride_h" in text and "dilation_h_factor" in text
    again = Parser(ctx, text).parse_module()
    again.verify()
    assert str(again) == text


@pytest.mark.skipif(not Path(MLIR_OPT).exists(), reason="MLIR 22 not installed")
def test_quant_types_print_as_mlir(tmp_path):
    """Upstream mlir-opt reads our quant types and prints them back identically."""
    ctx = make_context()
    module = read_tflite((MODELS / "conv_2d.int8.tflite").read_bytes(), ctx, "m.tflite")
    types = sorted({str(a.type) for op in module.walk() for a in op.results if "quant" in str(a.type)})
    assert any(":3, {" in t or ":0, {" in t for t in types)  # a per-axis weight type
    src = "".join(f"func.func private @f{i}(%a: {t})\n" for i, t in enumerate(types))
    f = tmp_path / "q.mlir"
    f.write_text(src)
    out = subprocess.run([MLIR_OPT, str(f)], capture_output=True, text=True, check=True).stdout
    for t in types:
        assert t in out


@pytest.mark.parametrize("data, message", [
    (b"", "truncated file"),
    (b"\x10\x00\x00\x00TFL", "truncated file"),
    (b"\x10\x00\x00\x00TOSA\x00\x00\x00\x00", "not a TFLite flatbuffer"),
    (b"\xff\xff\xff\x00TFL3\x00\x00\x00\x00", "past the end"),
])
def test_bad_headers(data, message):
    with pytest.raises(TFLiteError) as e:
        read_tflite(data, None, "bad.tflite")
    assert str(e.value).startswith("bad.tflite: error: ") and message in str(e.value)


def test_truncated_model_is_a_clean_error():
    data = (MODELS / "conv_2d.float.tflite").read_bytes()
    for n in range(8, len(data), max(1, len(data) // 64)):
        try:
            read_tflite(data[:n], None, "t.tflite")
        except TFLiteError:
            pass


def test_seeded_fuzz_bit_flips_and_huge_values():
    """Mutated models either read or raise TFLiteError; bounded in time."""
    rng = np.random.default_rng(2024)
    base = [(MODELS / n).read_bytes() for n in ("add.int8.tflite", "conv_2d.int8.tflite", "net_lstm.float.tflite")]
    deadline = time.monotonic() + 15.0
    for i in range(600):
        if time.monotonic() > deadline:
            break
        data = bytearray(base[i % len(base)])
        for _ in range(int(rng.integers(1, 8))):
            pos = int(rng.integers(8, len(data) - 4))
            kind = int(rng.integers(3))
            if kind == 0:
                data[pos] ^= 1 << int(rng.integers(8))
            elif kind == 1:  # a huge little-endian u32 (vector lengths, offsets)
                data[pos:pos + 4] = int(rng.integers(1 << 24, 1 << 32)).to_bytes(4, "little")
            else:
                data[pos:pos + 4] = b"\xff\xff\xff\x7f"
        t = time.monotonic()
        try:
            read_tflite(bytes(data), None, "f.tflite")
        except TFLiteError:
            pass
        assert time.monotonic() - t < 5.0


def test_seeded_fuzz_import_is_clean():
    """Mutated models through read + legalize: only TFLiteError / TflLegalizeError."""
    from tosa_xdsl.frontends.tflite import import_tflite
    from tosa_xdsl.frontends.tflite.legalize import TflLegalizeError

    rng = np.random.default_rng(77)
    base = [(MODELS / n).read_bytes() for n in ("conv_2d.int8.tflite", "net_mobilenet.float.tflite",
                                                "softmax.int8.tflite", "while.float.tflite")]
    deadline = time.monotonic() + 15.0
    for i in range(400):
        if time.monotonic() > deadline:
            break
        data = bytearray(base[i % len(base)])
        for _ in range(int(rng.integers(1, 4))):
            pos = int(rng.integers(8, len(data)))
            data[pos] ^= 1 << int(rng.integers(8))
        try:
            import_tflite(bytes(data), None, "f.tflite")
        except (TFLiteError, TflLegalizeError):
            pass


def test_custom_operator_is_named(tmp_path):
    """A custom op's code is reported by name (patched into a copy of a real model)."""
    data = bytearray((MODELS / "conv_2d.float.tflite").read_bytes())
    # Every operator code that stores its code: make it CUSTOM (32).
    from tosa_xdsl.frontends.tflite.schema import fb

    model = fb.Model.GetRootAs(bytes(data), 0)
    for i in range(model.OperatorCodesLength()):
        tab = model.OperatorCodes(i)._tab
        for slot, width in ((4, 1), (10, 4)):  # deprecated_builtin_code (int8), builtin_code (int32)
            o = tab.Offset(slot)
            if o:
                data[tab.Pos + o: tab.Pos + o + width] = (32).to_bytes(width, "little", signed=True)
    with pytest.raises(TFLiteError) as e:
        read_tflite(bytes(data), None, "c.tflite")
    assert "custom operator" in str(e.value) and "subgraph 0, operator 0" in str(e.value)
