"""Seeded, time-bounded fuzzing of the TOSA flatbuffer reader: truncations, bit flips,
corrupted offsets and vtables, wrong identifiers, huge declared vector lengths, regions
that contain themselves, nest deeply or are shared exponentially. Every input must give a
one-line TosaFlatbufferError (never another exception, never an "internal error"), in
bounded time and memory."""

from __future__ import annotations

import struct
import time
import tracemalloc

import numpy as np
import pytest
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.formats.tosa_flatbuffer import (
    TosaFlatbufferError,
    deserialize,
    schema,
    serialize,
)
from tosa_xdsl.formats.tosa_flatbuffer.writer import encode

SEEDS = [
    """func.func @main(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
      %c = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>}> : () -> tensor<1x3xf32>
      %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
      %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %s = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %2 = tosa.reshape %1, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
      %3 = tosa.transpose %2 {perms = array<i32: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
      return %3 : tensor<2x3xf32>
    }""",
    """func.func @main(%c: tensor<i1>, %x: tensor<2xi32>) -> tensor<2xi32> {
      %0 = tosa.cond_if %c (%y = %x) : tensor<i1> (tensor<2xi32>) -> tensor<2xi32> {
      ^bb0(%y: tensor<2xi32>):
        %1 = tosa.abs %y : (tensor<2xi32>) -> tensor<2xi32>
        tosa.yield %1 : tensor<2xi32>
      } else {
      ^bb0(%y: tensor<2xi32>):
        tosa.yield %y : tensor<2xi32>
      }
      return %0 : tensor<2xi32>
    }""",
    """module {
      tosa.variable @v = dense<[1, -2, 3, 4, 5]> : tensor<5xi8>
      func.func @main(%x: tensor<5xi8>) -> tensor<5xi8> {
        tosa.variable_write @v, %x : tensor<5xi8>
        %0 = tosa.variable_read @v : tensor<5xi8>
        return %0 : tensor<5xi8>
      }
    }""",
]


def _seed_files() -> list[bytes]:
    return [serialize(Parser(make_context(), s).parse_module()) for s in SEEDS]


def _check(data: bytes) -> None:
    try:
        deserialize(data)
    except TosaFlatbufferError as e:
        msg = str(e)
        assert "\n" not in msg and msg, repr(msg)
        assert "internal error" not in msg, msg


def _mutate(rng: np.random.Generator, data: bytes) -> bytes:
    b = bytearray(data)
    kind = rng.integers(7)
    if kind == 0:  # truncate
        return bytes(b[: rng.integers(len(b))])
    if kind == 1:  # flip bits
        for _ in range(rng.integers(1, 8)):
            i = rng.integers(len(b))
            b[i] ^= 1 << rng.integers(8)
    elif kind == 2:  # corrupt an aligned 32-bit word (offsets, lengths, vtable refs)
        i = 4 * rng.integers(len(b) // 4)
        val = rng.choice([0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0xFFFFFFF0, int(rng.integers(1 << 32))])
        struct.pack_into("<I", b, i, int(val))
    elif kind == 3:  # corrupt a 16-bit word (vtable entries)
        i = 2 * rng.integers(len(b) // 2)
        struct.pack_into("<H", b, i, int(rng.integers(1 << 16)))
    elif kind == 4:  # wrong identifier
        b[4:8] = bytes(rng.integers(0, 256, 4, dtype=np.uint8))
    elif kind == 5:  # random bytes
        i = rng.integers(len(b))
        n = int(rng.integers(1, 32))
        b[i:i + n] = bytes(rng.integers(0, 256, n, dtype=np.uint8))
    else:  # huge declared length at every vector-looking place
        for i in range(8, len(b) - 4, 4):
            if struct.unpack_from("<I", b, i)[0] in range(1, 64) and rng.random() < 0.2:
                struct.pack_into("<I", b, i, 0x3FFFFFFF)
    return bytes(b)


def test_fuzz_mutations():
    rng = np.random.default_rng(1234)
    seeds = _seed_files()
    for s in seeds:
        deserialize(s)  # the seeds themselves are valid
    tracemalloc.start()
    deadline = time.monotonic() + 4.0
    n = 0
    try:
        while time.monotonic() < deadline:
            _check(_mutate(rng, seeds[n % len(seeds)]))
            n += 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert n > 200
    assert peak < 64 << 20, f"peak {peak} bytes"


def _graph_with_regions(regions: dict[str, list[str]]) -> bytes:
    """A graph whose region `main` and others each hold one COND_IF per listed target
    (then and else both the target); tensors: bool condition c, f32 x."""
    code = schema.OPS.index("COND_IF")
    tensors = [{"name": "c", "shape": [], "type": 1}, {"name": "x", "shape": [2], "type": 7}]
    out = []
    for name, targets in regions.items():
        ops = [{"op": code, "attribute_type": code, "inputs": ["c", "x"], "outputs": ["x"],
                "attribute": {"then_graph": t, "else_graph": t}} for t in targets]
        out.append({"name": name, "blocks": [{"name": name, "operators": ops, "tensors": tensors,
                                               "inputs": ["c", "x"], "outputs": ["x"]}]})
    return encode({"version": {"_major": 1, "_minor": 1, "_patch": 0, "_draft": True}, "regions": out})


@pytest.mark.parametrize("regions,message", [
    ({"main": ["main"]}, "contains itself"),
    ({"main": ["a"], "a": ["b"], "b": ["a"]}, "contains itself"),
    ({"main": ["r0"], **{f"r{i}": [f"r{i + 1}"] for i in range(2000)}, "r2000": []}, "nested deeper"),
    ({"main": ["s0", "s0"], **{f"s{i}": [f"s{i + 1}", f"s{i + 1}"] for i in range(40)}, "s40": []},
     "too many operators"),
    ({"main": ["nowhere"]}, "no region named 'nowhere'"),
], ids=["self", "cycle", "deep", "exponential", "missing"])
def test_region_bombs(regions, message):
    t0 = time.monotonic()
    with pytest.raises(TosaFlatbufferError, match=message):
        deserialize(_graph_with_regions(regions))
    assert time.monotonic() - t0 < 5


def test_shared_tables_cannot_amplify():
    """Offsets may share targets: 3000 blocks that are one block of 3000 operators that are
    one operator is a 30 kB file but 9 million decoded objects. The reader stops early."""
    from tosa_xdsl.formats.tosa_flatbuffer.writer import _Encoder

    enc = _Encoder(0)
    b = enc.b
    code = schema.OPS.index("ABS")
    op = enc.table("TosaOperator", {"op": code, "attribute_type": code, "attribute": {},
                                    "inputs": ["x"], "outputs": ["y"]})
    ops = enc.offset_vector([op] * 3000)
    b.StartObject(6)
    b.PrependUOffsetTRelativeSlot(1, ops, 0)
    block = b.EndObject()
    blocks = enc.offset_vector([block] * 3000)
    name = b.CreateString("main")
    b.StartObject(2)
    b.PrependUOffsetTRelativeSlot(0, name, 0)
    b.PrependUOffsetTRelativeSlot(1, blocks, 0)
    region = b.EndObject()
    regions = enc.offset_vector([region])
    version = enc.table("Version", {"_major": 1, "_minor": 1})
    b.StartObject(4)
    b.PrependUOffsetTRelativeSlot(0, version, 0)
    b.PrependUOffsetTRelativeSlot(1, regions, 0)
    b.Finish(b.EndObject(), file_identifier=b"TOSA")
    data = bytes(b.Output())
    assert len(data) < 40_000
    t0 = time.monotonic()
    with pytest.raises(TosaFlatbufferError, match="too many objects"):
        deserialize(data)
    assert time.monotonic() - t0 < 2


@pytest.mark.parametrize("data", [
    b"", b"\x00" * 4, b"\x08\x00\x00\x00TOSA", b"\xff\xff\xff\xffTOSA" + b"\x00" * 16,
    b"\x0c\x00\x00\x00TOSA" + b"\x00" * 8,
])
def test_tiny_and_hostile(data):
    with pytest.raises(TosaFlatbufferError):
        deserialize(data)


def test_a_name_that_swallows_the_next_bytes_is_quoted_on_one_line():
    # A damaged string length makes a name run on into the bytes after it (NULs, newlines):
    # the message quoting it escapes them and stays one line (found with a 10x fuzz budget).
    data = bytearray(_seed_files()[1])  # the COND_IF seed
    name = b"tosa.cond_if_0_then"
    starts = [i for i in range(len(data) - len(name)) if data.startswith(name, i)]
    quoted = []
    for at in (i - 4 for i in starts if struct.unpack_from("<I", data, i - 4)[0] == len(name)):
        for n in range(len(name) + 1, min(len(data) - at - 4, 64)):  # the region's name, the COND_IF's
            damaged = bytearray(data)
            struct.pack_into("<I", damaged, at, n)
            with pytest.raises(TosaFlatbufferError) as err:
                deserialize(bytes(damaged))
            msg = str(err.value)
            assert msg.isprintable(), msg
            quoted += [msg] if "no region named 'tosa.cond_if_0_then\\x00" in msg else []
    assert quoted  # some lengths give the quoted, run-on name (others: not UTF-8)
