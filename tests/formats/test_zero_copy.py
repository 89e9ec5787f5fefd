"""Readers keep big weights where the input's bytes already are (bench/scale.py's memory
goal: peak memory at most 1.5x the weight bytes needs no second copy of them).

- MLIR bytecode: dense_resource blobs are views of the input `bytes`;
- .tosa flatbuffers: constants of LARGE_CONSTANT_BYTES and more become dense_resource views of
  the input (smaller ones stay `dense<...>`, as before);
- the interpreter's value of a float32 `dense<...>` constant is a view of the attribute's bytes;
- mutable buffers (bytearray) are still copied: a view would change under the module.

The values themselves are checked against the numpy arrays the models were built from."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DenseResourceAttr
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.formats.bytecode import read_bytecode, write_bytecode
from tosa_xdsl.formats.tosa_flatbuffer import deserialize, serialize
from tosa_xdsl.formats.tosa_flatbuffer.to_ir import LARGE_CONSTANT_BYTES
from tosa_xdsl.interpreter.data_nodes import dense_to_numpy
from tosa_xdsl.ir.dense import to_numpy
from tosa_xdsl.ir.resources import get_blob, make_dense_resource, put_blob


def _module_text(k: int, weights: np.ndarray, as_resource: bool) -> str:
    t_x, t_w = f"tensor<1x1x{k}xf32>", f"tensor<1x{k}x{k}xf32>"
    if as_resource:
        value = "dense_resource<zc_w>"
        tail = '{-#\n  dialect_resources: {\n    builtin: {\n      zc_w: "0x04000000' + \
            weights.tobytes().hex().upper() + '"\n    }\n  }\n#-}\n'
    else:
        value, tail = 'dense<"0x' + weights.tobytes().hex().upper() + '">', ""
    return f"""
func.func @main(%x: {t_x}) -> {t_x} {{
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{{values = {value} : {t_w}}}> : () -> {t_w}
  %y = tosa.matmul %x, %w, %zp, %zp : ({t_x}, {t_w}, tensor<1xf32>, tensor<1xf32>) -> {t_x}
  func.return %y : {t_x}
}}
""" + tail


def _weights(k: int) -> np.ndarray:
    return np.random.default_rng(k).standard_normal((1, k, k), dtype=np.float32)


def _const_values(module) -> list:
    return [op.properties["values"] for op in module.walk() if op.name == "tosa.const"]


def test_bytecode_blobs_are_views_of_the_input():
    k = 64
    w = _weights(k)
    data = write_bytecode(Parser(make_context(), _module_text(k, w, True)).parse_module())
    module = read_bytecode(bytes(data), make_context())
    big = [v for v in _const_values(module) if isinstance(v, DenseResourceAttr)]
    assert len(big) == 1
    arr = to_numpy(big[0])
    np.testing.assert_array_equal(arr, w)
    assert np.shares_memory(arr, np.frombuffer(data, np.uint8))


def test_tosa_flatbuffer_large_constants_are_views_of_the_input():
    k = 1 + int((LARGE_CONSTANT_BYTES / 4) ** 0.5)  # just over the threshold
    w = _weights(k)
    data = serialize(Parser(make_context(), _module_text(k, w, False)).parse_module())
    module = deserialize(data)
    values = _const_values(module)
    big = [v for v in values if isinstance(v, DenseResourceAttr)]
    small = [v for v in values if isinstance(v, DenseIntOrFPElementsAttr)]
    assert len(big) == 1 and len(small) == 1  # the 1-element zero point stays dense<...>
    arr = to_numpy(big[0])
    np.testing.assert_array_equal(arr, w)
    assert np.shares_memory(arr, np.frombuffer(data, np.uint8))


def test_interpreter_reads_dense_float_constants_without_a_copy():
    k = 16
    w = _weights(k)
    module = Parser(make_context(), _module_text(k, w, False)).parse_module()
    attr = next(v for v in _const_values(module) if v.type.get_shape() == (1, k, k))
    arr = dense_to_numpy(attr)
    np.testing.assert_array_equal(arr, w)
    assert np.shares_memory(arr, np.frombuffer(attr.data.data, np.uint8))
    assert not arr.flags.writeable


def test_mutable_buffers_are_copied():
    payload = bytearray(np.arange(256, dtype=np.float32).tobytes())
    key = put_blob(memoryview(payload), "zc_mutable", 4, copy=False)
    blob = get_blob(key)
    assert blob is not None
    payload[0:4] = b"\xff\xff\xff\xff"
    assert bytes(blob.data[:4]) == np.float32(0).tobytes()
    # immutable bytes at an aligned address: kept as they are
    frozen = np.arange(256, dtype=np.float32).tobytes()
    kept = get_blob(put_blob(frozen, "zc_frozen", 4, copy=False))
    assert kept is not None and np.shares_memory(np.frombuffer(kept.data, np.uint8), np.frombuffer(frozen, np.uint8))


def test_make_dense_resource_without_copy_keeps_the_view():
    from xdsl.dialects.builtin import TensorType, f32

    raw = np.arange(64, dtype=np.float32).tobytes()
    arr = np.frombuffer(raw, dtype=np.float32).reshape(8, 8)
    attr = make_dense_resource(arr, TensorType(f32, [8, 8]), "zc_view", copy=False)
    out = to_numpy(attr)
    np.testing.assert_array_equal(out, arr)
    assert np.shares_memory(out, arr)
