"""TOSA -> NNEF export and the model folder: a stable round trip NNEF -> TOSA -> NNEF -> TOSA,
the tensor data files (byte layout checked against Khronos' writer when `skriptnd` is
installed; seeded fuzz of damaged files), and, when Khronos' `skriptnd` reader is installed
(built from NNEF-Tools v2.0 by hand, not a dependency), our export read back by it."""

from __future__ import annotations

import random
import re
import time

import numpy as np
import pytest

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.export import export_nnef, export_nnef_folder
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.frontends.nnef.tensor_data import (
    TensorFileError,
    decode_tensor,
    encode_tensor,
)
from tosa_xdsl.interpreter import run

SRC = """import nn; import math; import layout; import linalg;
graph Net {
  @input { x: real[1,2,6,6]; }
  @output { y: real[1,4]; }
  @variable { w: real[3,2,3,3]; b: real[3]; fc: real[4,27]; }
  @compose {
    c = nn.conv{padding=1}(x, w, b);
    r = nn.relu{max=6.0}(c);
    p = nn.max_pool{size=2, stride=2, padding=0}(r);
    f = layout.flatten{axis=1}(p);
    l = nn.linear(f, fc);
    s = math.sub(l, 0.5);
    y = nn.softmax(s);
  }
}"""
RNG = np.random.default_rng(11)
WEIGHTS = {"w": RNG.standard_normal((3, 2, 3, 3)).astype(np.float32),
           "b": RNG.standard_normal(3).astype(np.float32),
           "fc": RNG.standard_normal((4, 27)).astype(np.float32)}


def test_round_trip_is_stable(tmp_path):
    m1 = import_nnef(SRC, variables=WEIGHTS)
    text1, vars1 = export_nnef(m1)
    assert "layout.transpose" not in text1          # the conv/pool layout transposes vanish
    export_nnef_folder(m1, tmp_path / "a")
    m2 = import_nnef(tmp_path / "a")
    text2, vars2 = export_nnef(m2)
    assert text2 == text1 and vars1.keys() == vars2.keys()
    for k in vars1:
        np.testing.assert_array_equal(vars1[k], vars2[k])
    export_nnef_folder(m2, tmp_path / "b")
    m3 = import_nnef(tmp_path / "b")
    assert str(m3) == str(m2)                       # TOSA -> NNEF -> TOSA is a fixpoint
    x = RNG.standard_normal((1, 2, 6, 6)).astype(np.float32)
    np.testing.assert_array_equal(run(m1, [x], entry="Net")[0], run(m2, [x], entry="Net")[0])


def test_export_rejects_what_nnef_cannot_say():
    from xdsl.parser import Parser

    from tosa_xdsl.context import make_context
    from tosa_xdsl.frontends.nnef.export import ExportError
    src = """func.func @f(%a: tensor<4xi8>) -> tensor<4xi8> {
      %0 = tosa.abs %a : (tensor<4xi8>) -> tensor<4xi8>
      return %0 : tensor<4xi8>
    }"""
    with pytest.raises(ExportError, match="element type i8"):
        export_nnef(Parser(make_context(), src).parse_module())


@pytest.mark.parametrize("arr", [
    np.arange(24, dtype=np.float32).reshape(2, 3, 4), np.array(3.5, np.float32),
    np.array([[1, -2], [3, 4]], np.int32), np.array([True, False, True, True, False, False, True, False, True]),
    np.arange(6, dtype=np.uint8).reshape(3, 2), np.array([1.5, -2.25], np.float16),
])
def test_tensor_file_round_trip(arr, tmp_path):
    data = encode_tensor(arr)
    assert len(data) == 128 + (arr.nbytes if arr.dtype != np.bool_ else (arr.size + 7) // 8)
    out = decode_tensor(data)
    assert out.dtype == arr.dtype and out.shape == arr.shape
    np.testing.assert_array_equal(out, arr)
    skriptnd = pytest.importorskip("skriptnd")      # Khronos' writer as the oracle of the layout
    with open(tmp_path / "t.dat", "wb") as f:
        skriptnd.write_tensor(f, arr)
    assert (tmp_path / "t.dat").read_bytes() == data


def test_tensor_file_errors_are_located():
    good = encode_tensor(np.ones((2, 3), np.float32))
    cases = [
        (good[:100], "truncated header", 100),
        (b"XX" + good[2:], "not an NNEF tensor file", 0),
        (good[:4] + (2 ** 31).to_bytes(4, "little") + good[8:], "data length", 4),
        (good[:8] + (9).to_bytes(4, "little") + good[12:], "rank 9 exceeds 8", 8),
        (good[:44] + (7).to_bytes(4, "little") + good[48:], "unsupported item type", 44),
        (good + b"\0", "file size 153 does not match", 152),
        (good[:12] + (2 ** 32 - 1).to_bytes(4, "little") + good[16:], "data length", 4),
    ]
    for data, msg, off in cases:
        with pytest.raises(TensorFileError) as info:
            decode_tensor(data, "w.dat")
        assert str(info.value).startswith("w.dat: error: ") and msg in str(info.value)
        assert f"(offset {off})" in str(info.value)


def test_tensor_file_fuzz():
    rng = random.Random(7)
    seeds = [encode_tensor(np.arange(12, dtype=np.float32).reshape(3, 4)),
             encode_tensor(np.array([True, False] * 5)), encode_tensor(np.arange(5, dtype=np.int32))]
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            r = rng.random()
            if not data:
                break
            if r < 0.4:
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            elif r < 0.6:
                del data[rng.randrange(len(data)):]
            elif r < 0.8:
                k = rng.randrange(0, 48, 4)
                data[k:k + 4] = rng.choice([0xFFFFFFFF, 2 ** 31, 0, 9]).to_bytes(4, "little")
            else:
                data += bytes(rng.randrange(16))
        try:
            decode_tensor(bytes(data), "fz.dat")
        except TensorFileError as err:
            assert re.match(r"fz\.dat: error: .* \(offset \d+\)$", str(err))


def test_model_folder_variable_data_is_read(tmp_path):
    export_nnef_folder(import_nnef(SRC, variables=WEIGHTS), tmp_path)
    (tmp_path / next(p.name for p in tmp_path.glob("*.dat"))).write_bytes(b"garbage")
    with pytest.raises(NnefError, match=r"main\.Net\.w\d\.dat: error: truncated header"):
        import_nnef(tmp_path)


def test_khronos_reader_reads_our_export(tmp_path):
    skriptnd = pytest.importorskip("skriptnd")
    export_nnef_folder(import_nnef(SRC, variables=WEIGHTS), tmp_path)
    model = skriptnd.read_model(str(tmp_path))
    assert model is not None
    g = model.graphs[0]
    assert [tuple(t.shape) for t in g.outputs] == [(1, 4)]
    names = [op.name for op in g.operations]
    assert "nn.conv" in names and "nn.max_pool" in names and "linalg.matmul" in names
