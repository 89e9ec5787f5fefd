"""Seeded, time-bounded fuzzing of the pre-1.0 reader and upgrade through tosa-opt:
truncations, bit flips, spliced tokens and huge numbers in old attributes. Every input must
end with exit code 0 or 1, within a few seconds, and with no traceback or internal error."""

from __future__ import annotations

import contextlib
import io
import os
import random
import signal
import time

import pytest

from tosa_xdsl.tools.tosa_opt import main as tosa_opt

SEEDS = [
    """func.func @main(%x: tensor<2x3xi8>, %w: tensor<4x3xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %0 = "tosa.fully_connected"(%x, %w, %b) {quantization_info = #tosa.conv_quant<input_zp = -7, weight_zp = 3>} : (tensor<2x3xi8>, tensor<4x3xi8>, tensor<4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}""",
    """func.func @main(%x: tensor<4x!quant.uniform<i8:f32, 0.1:-1>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-1>> {
  %0 = "tosa.clamp"(%x) {max_fp = 1.0 : f32, max_int = 60 : i64, min_fp = 0.0 : f32, min_int = -50 : i64} : (tensor<4x!quant.uniform<i8:f32, 0.1:-1>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-1>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.1:-1>>
}""",
    """func.func @main(%x: tensor<64xi32>) -> tensor<64xi8> {
  %0 = "tosa.rescale"(%x) {double_round = true, input_zp = 0 : i32, multiplier = [1518500250 : i32], output_zp = -3 : i32, per_channel = false, scale32 = true, shift = [37 : i32]} : (tensor<64xi32>) -> tensor<64xi8>
  return %0 : tensor<64xi8>
}""",
    """func.func @main(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %p = "tosa.const"() {value = dense<[2, 0, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tosa.transpose"(%x, %p) : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<4x2x3xf32>
  %1 = "tosa.reshape"(%0) {new_shape = [-1, 3]} : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  %2 = tosa.slice %1 {size = array<i64: 2, 3>, start = array<i64: 1, 0>} : (tensor<8x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.tile %2 {multiples = array<i64: 4, 1>} : (tensor<2x3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<4x2x3xf32>
}""",
    """func.func @main(%x: tensor<1x3x4x2xi8>) -> tensor<1x5x7x2xi32> {
  %0 = "tosa.resize"(%x) {mode = "BILINEAR", offset = [0, 0], offset_fp = [0.0 : f32, 0.0 : f32], output_size = [5, 7], shift = 10 : i32, stride = [512, 512], stride_fp = [0.0 : f32, 0.0 : f32]} : (tensor<1x3x4x2xi8>) -> tensor<1x5x7x2xi32>
  %p = "tosa.const"() {value = dense<[[0, 0], [1, 2], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %1 = "tosa.pad"(%x, %p) {quantization_info = #tosa.pad_quant<input_zp = -42>} : (tensor<1x3x4x2xi8>, tensor<4x2xi32>) -> tensor<1x6x5x2xi8>
  %2 = "tosa.avg_pool2d"(%1) {kernel = [2, 2], pad = [0, 0, 0, 0], quantization_info = #tosa.unary_quant<input_zp = 1, output_zp = 2>, stride = [1, 1]} : (tensor<1x6x5x2xi8>) -> tensor<1x5x4x2xi8>
  return %0 : tensor<1x5x7x2xi32>
}""",
]

SEEDS += [
    """func @main(%c: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = tosa.cond_if %c -> (tensor<f32>) {
    %1 = tosa.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  } else {
    %1 = "tosa.div"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}""",
    """module {
  tosa.variable @v = dense<3.0> : tensor<f32>
  func.func @main(%x: tensor<5x!quant.uniform<u8:f32, 0.1:128>>) -> tensor<5xi8> {
    %r = tosa.variable.read @v : tensor<f32>
    tosa.variable.write @v, %r : tensor<f32>
    %0 = "tosa.rescale"(%x) {double_round = false, input_zp = 128 : i32, multiplier = [1073741824 : i32], output_zp = -3 : i32, per_channel = false, scale32 = true, shift = [30 : i32]} : (tensor<5x!quant.uniform<u8:f32, 0.1:128>>) -> tensor<5xi8>
    %1 = "tosa.custom"(%0) {identifier = "x", config = "y"} : (tensor<5xi8>) -> tensor<5xi8>
    return %1 : tensor<5xi8>
  }
}""",
]

HUGE = ["9223372036854775807", "-9223372036854775808", "4294967296", "99999999999999999999", "-1", "0"]
TOKENS = ["quantization_info", "new_shape", "#tosa.conv_quant<", "!quant.uniform<", "[", "]", "{", "}",
          "(", ")", ",", ":", "%x", "tensor<", "x", "dense<", "array<i64:", "\"tosa.div\"", "tosa.custom"]


def mutate(rng: random.Random, text: str) -> str:
    kind = rng.randrange(5)
    if kind == 0:  # truncation
        return text[: rng.randrange(len(text))]
    if kind == 1:  # bit flips
        data = bytearray(text.encode())
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        return data.decode("utf-8", errors="replace")
    if kind == 2:  # a number replaced by a huge one
        import re

        # not integer type widths: `i4294967296` hangs xDSL's own IntegerType (1.0 path too)
        nums = list(re.finditer(r"(?<![iu0-9])-?\d+", text))
        if nums:
            m = rng.choice(nums)
            return text[: m.start()] + rng.choice(HUGE) + text[m.end():]
        return text
    if kind == 3:  # a token spliced in
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(TOKENS) + text[i:]
    i, j = sorted(rng.randrange(len(text)) for _ in range(2))  # a span duplicated
    return text[:j] + text[i:j] + text[j:]


def _plain_reader_crashes(text: str) -> bool:
    """Whether xDSL's parser with the 1.0 context (no legacy reader) also fails on `text`
    with something other than a ParseError: then the internal error is not the legacy
    reader's (e.g. `array<i4294967296: ...>` reaches an unimplemented branch of xDSL)."""
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    from tosa_xdsl.context import make_context

    try:
        Parser(make_context(), text).parse_module()
    except ParseError:
        return False
    except Exception:  # noqa: BLE001 - any crash of the plain reader is what we look for
        return True
    return False


class _Timeout(Exception):
    pass


def _alarm(signum, frame):  # pragma: no cover - only on a hang
    raise _Timeout()


def test_fuzz_legacy_reader(tmp_path):
    rng = random.Random(int(os.environ.get("LEGACY_FUZZ_SEED", "20261124")))
    deadline = time.monotonic() + float(os.environ.get("LEGACY_FUZZ_SECONDS", "8"))
    runs = 0
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        with contextlib.chdir(tmp_path):
            while time.monotonic() < deadline:
                text = rng.choice(SEEDS)
                for _ in range(rng.randint(1, 3)):
                    text = mutate(rng, text) or text
                with open("in.mlir", "w", encoding="utf-8") as f:
                    f.write(text)
                out, err = io.StringIO(), io.StringIO()
                signal.alarm(5)
                try:
                    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                        code = tosa_opt(["in.mlir", "-o", "out.mlir"])
                except _Timeout:
                    pytest.fail(f"tosa-opt took over 5 s on:\n{text}")
                finally:
                    signal.alarm(0)
                runs += 1
                message = err.getvalue()
                assert code in (0, 1), (code, text, message)
                assert "Traceback" not in message, (text, message)
                if "internal error" in message and not _plain_reader_crashes(text):
                    pytest.fail(f"internal error only on the legacy path:\n{text}\n{message}")
    finally:
        signal.signal(signal.SIGALRM, old)
    assert runs > 20
