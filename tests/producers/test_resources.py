"""dense_resource blobs (tosa_xdsl/ir/resources.py).

Oracles: MLIR 22's mlir-opt re-printing the same text (the exact `{-# dialect_resources #-}`
layout and its parse errors), and numpy reading the payload bytes we wrote (dtype layouts).
"""

from __future__ import annotations

import random
import re
import subprocess
import time

import ml_dtypes
import numpy as np
import pytest
from test_fuzz_cli import check_output, run_tosa_opt
from xdsl.dialects.builtin import BFloat16Type, DenseResourceAttr, TensorType
from xdsl.parser import Parser

from tosa_xdsl.ir import resources
from tosa_xdsl.ir.dense import to_numpy
from tosa_xdsl.ir.resources import (
    ResourceError,
    dense_resource_array,
    dense_resource_problem,
    get_blob,
    make_dense_resource,
    put_blob,
)


def module_text(consts: list[tuple[str, str]], section: str) -> str:
    """A function returning one tosa.const per (key, type), then `section` verbatim."""
    body = "".join(
        f'  %{i} = "tosa.const"() {{values = dense_resource<{key}> : {ty}}} : () -> {ty}\n'
        for i, (key, ty) in enumerate(consts)
    )
    types = ", ".join(ty for _, ty in consts)
    values = ", ".join(f"%{i}" for i in range(len(consts)))
    return f"func.func @f() -> ({types}) {{\n{body}  return {values} : {types}\n}}\n{section}\n"


def section(entries: list[tuple[str, str]], dialect: str = "builtin") -> str:
    inner = ", ".join(f'{key}: "{blob}"' for key, blob in entries)
    return f"{{-# dialect_resources: {{ {dialect}: {{ {inner} }} }} #-}}"


ROUND_TRIPS = {
    "two keys, reverse section order, lowercase hex": module_text(
        [("zeta", "tensor<2xf32>"), ("alpha.b", "tensor<3xi8>")],
        section([("alpha.b", "0x10000000abcdef"), ("zeta", "0x040000000000803f00000040")]),
    ),
    "unused blob dropped, quoted key": module_text(
        [('"a-b"', "tensor<2xi16>")],
        section([("unused", "0x0400000001000000"), ('"a-b"', "0x0200000001000200")]),
    ),
    "64-byte alignment, i32, i1": module_text(
        [("e", "tensor<2xi1>"), ("d", "tensor<2xi32>")],
        section([("e", "0x010000000001"), ("d", "0x40000000010000000200000F")]),
    ),
    "same key used twice": module_text(
        [("w", "tensor<2xi8>"), ("w", "tensor<2xi8>")],
        section([("w", "0x01000000FF7F")]),
    ),
}


def resource_section(text: str) -> str:
    return text[text.index("{-#"):].rstrip("\n") if "{-#" in text else ""


@pytest.mark.parametrize("text", ROUND_TRIPS.values(), ids=ROUND_TRIPS.keys())
def test_prints_resources_as_mlir_opt(text, mlir_opt_22, tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(text)
    theirs = subprocess.run([mlir_opt_22, path], capture_output=True, text=True, check=True).stdout
    code, ours, err, _ = run_tosa_opt(text, [])
    assert code == 0, err
    assert resource_section(ours) == resource_section(theirs)
    handles = re.compile(r"dense_resource<[^>]*>")
    assert handles.findall(ours) == handles.findall(theirs)
    # and our own output reads back to the same text
    code, again, err, _ = run_tosa_opt(ours, [])
    assert code == 0, err
    assert again == ours


def test_second_parse_in_process_stays_consistent(ctx):
    """A key seen before in the process is renamed (as MLIR renames within one context), and
    every reference in the new file follows the rename: the constant still gets its blob."""
    text = ROUND_TRIPS["same key used twice"]
    for _ in range(3):
        module = Parser(ctx, text).parse_module()
        attrs = [op.properties["values"] for op in module.walk() if op.name == "tosa.const"]
        assert len({a.resource_handle.data for a in attrs}) == 1
        for attr in attrs:
            np.testing.assert_array_equal(dense_resource_array(attr), np.array([-1, 127], np.int8))


BAD_SECTIONS = {
    "odd hex digits": section([("zeta", "0x0400000000803F0000004")]),
    "not hex": section([("zeta", "hello")]),
    "no alignment": section([("zeta", "0x0400")]),
    "alignment 3": section([("zeta", "0x030000000000803F00000040")]),
    "wrong dialect section": section([("zeta", "0x040000000000803F00000040")], dialect="tosa"),
}


@pytest.mark.parametrize("bad", BAD_SECTIONS.values(), ids=BAD_SECTIONS.keys())
def test_malformed_blob_errors_as_mlir_opt(bad, mlir_opt_22, tmp_path):
    text = module_text([("zeta", "tensor<2xf32>")], bad)
    path = tmp_path / "in.mlir"
    path.write_text(text)
    theirs = subprocess.run([mlir_opt_22, path], capture_output=True, text=True)
    assert theirs.returncode == 1
    code, _, err, ours_path = run_tosa_opt(text, [])
    assert code == 1
    first = err.splitlines()[0].replace(ours_path, "FILE")
    assert first == theirs.stderr.splitlines()[0].replace(str(path), "FILE")


def test_zero_alignment_is_an_error_not_a_crash():
    # mlir-opt 22 aborts ("out of memory") on this header.
    text = module_text([("zeta", "tensor<2xf32>")], section([("zeta", "0x000000000000803F00000040")]))
    code, _, err, path = run_tosa_opt(text, [])
    assert code == 1
    assert "non-power-of-2 value: 0" in err
    check_output(text, code, err, path)


# ------------------------------------------------------------------ numpy views


def _attr(key: str, ty: str, ctx) -> DenseResourceAttr:
    """An attribute naming an existing key (parsing `dense_resource<key>` would declare a new
    key of the parsed file, renamed away from the stored one)."""
    return DenseResourceAttr.from_params(key, Parser(ctx, ty).parse_type())


VIEW_CASES = [
    # (type, payload bytes, expected array): payloads written with numpy, MLIR's raw layout
    ("tensor<2x2xf32>", np.array([1, -2, 3.5, 0], "<f4").tobytes(), np.array([[1, -2], [3.5, 0]], np.float32)),
    ("tensor<2xf64>", np.array([0.1, -1e300], "<f8").tobytes(), np.array([0.1, -1e300])),
    ("tensor<3xf16>", np.array([1, 2, 65504], "<f2").tobytes(), np.array([1, 2, 65504], np.float16)),
    ("tensor<2xbf16>", np.array([1.5, -3], ml_dtypes.bfloat16).tobytes(), np.array([1.5, -3], ml_dtypes.bfloat16)),
    ("tensor<3xi8>", bytes([0xFF, 0x80, 0x7F]), np.array([-1, -128, 127], np.int8)),
    ("tensor<2xui8>", bytes([0xFF, 0x01]), np.array([255, 1], np.uint8)),
    ("tensor<2xi16>", np.array([-300, 7], "<i2").tobytes(), np.array([-300, 7], np.int16)),
    ("tensor<2xi32>", np.array([-(2**31), 5], "<i4").tobytes(), np.array([-(2**31), 5], np.int32)),
    ("tensor<2xi64>", np.array([-(2**63), 2**40], "<i8").tobytes(), np.array([-(2**63), 2**40], np.int64)),
    # i1: one byte per element, non-zero is true (MLIR's DenseBoolResourceElementsAttr)
    ("tensor<3xi1>", bytes([0, 1, 2]), np.array([False, True, True])),
    # i4: one byte per element, low 4 bits, sign-extended
    ("tensor<3xi4>", bytes([0x07, 0x08, 0x0F]), np.array([7, -8, -1], np.int8)),
]


@pytest.mark.parametrize("ty,payload,expected", VIEW_CASES, ids=[c[0] for c in VIEW_CASES])
def test_dense_resource_array(ty, payload, expected, ctx):
    key = put_blob(payload, key_hint="view")
    attr = _attr(key, ty, ctx)
    arr = dense_resource_array(attr)
    assert arr.dtype == expected.dtype
    np.testing.assert_array_equal(arr, expected)
    assert not arr.flags.writeable
    np.testing.assert_array_equal(to_numpy(attr), expected)  # dense.to_numpy delegates here


def test_view_shares_the_blob_and_is_aligned(ctx):
    weights = np.arange(1024, dtype=np.float32)
    key = put_blob(weights, key_hint="w", alignment=64)
    blob = get_blob(key)
    assert blob.alignment == 64 and len(blob.data) == weights.nbytes
    arr = dense_resource_array(_attr(key, "tensor<32x32xf32>", ctx))
    assert np.shares_memory(arr, np.frombuffer(blob.data, np.uint8))
    assert arr.ctypes.data % 64 == 0
    np.testing.assert_array_equal(arr.reshape(-1), weights)


def test_empty_blob():
    blob = resources.decode_blob_text("0x04000000")
    assert len(blob.data) == 0 and blob.alignment == 4
    assert resources.encode_blob_text(blob) == "0x04000000"


def test_parsed_blob_is_binary_and_aligned(ctx):
    text = module_text([("al", "tensor<2xf64>")], section([("al", "0x40000000" + np.array([1.0, 2.0]).tobytes().hex())]))
    module = Parser(ctx, text).parse_module()
    attr = next(op.properties["values"] for op in module.walk() if op.name == "tosa.const")
    blob = get_blob(attr.resource_handle.data)
    assert isinstance(blob.data, memoryview) and blob.alignment == 64
    assert np.frombuffer(blob.data, np.uint8).ctypes.data % 64 == 0


@pytest.mark.parametrize(
    "ty,payload,message",
    [
        ("tensor<3xf32>", bytes(8), "blob holds 8 bytes but tensor<3xf32> needs 12 (blob too short)"),
        ("tensor<1xi8>", bytes(2), "blob too long"),
        ("tensor<?xf32>", bytes(4), "needs a static shape"),
    ],
)
def test_blob_that_does_not_fit_its_type(ty, payload, message, ctx):
    attr = _attr(put_blob(payload, key_hint="bad"), ty, ctx)
    assert message in dense_resource_problem(attr)
    with pytest.raises(ResourceError, match=re.escape(message)):
        dense_resource_array(attr)


def test_unknown_resource_name(ctx):
    attr = _attr("never_defined_anywhere", "tensor<2xf32>", ctx)
    assert "has no blob" in dense_resource_problem(attr)
    with pytest.raises(ResourceError, match="no entry 'never_defined_anywhere'"):
        dense_resource_array(attr)


def test_make_dense_resource_round_trips(ctx):
    ty = TensorType(BFloat16Type(), [3])
    attr = make_dense_resource(np.array([1.0, 2.5, -4.0]), ty, "made")
    np.testing.assert_array_equal(dense_resource_array(attr).astype(np.float32), [1.0, 2.5, -4.0])
    blob = get_blob(attr.resource_handle.data)
    assert blob.alignment == 2
    # bf16 1.0 = 0x3F80, 2.5 = 0x4020, -4.0 = 0xC080, little-endian
    assert resources.encode_blob_text(blob) == "0x02000000803F204080C0"


# ------------------------------------------------------------------ fuzz


def test_fuzz_malformed_sections():
    """Seeded, time-bounded: truncations, bit flips and huge headers in a resource section
    give a located error or a clean parse, never a traceback or an internal error."""
    rng = random.Random(12)
    payload = np.arange(6, dtype=np.float32).tobytes().hex().upper()
    good = module_text([("w", "tensor<2x3xf32>"), ("m", "tensor<2xi1>")],
                       section([("w", "0x04000000" + payload), ("m", "0x010000000001")]))
    start = good.index("{-#")
    deadline = time.monotonic() + 8
    runs = 0
    while time.monotonic() < deadline and runs < 400:
        text = good
        how = rng.randrange(4)
        if how == 0:  # truncate inside the section
            text = text[: rng.randrange(start, len(text))]
        elif how == 1:  # flip a character of the section
            i = rng.randrange(start, len(text))
            text = text[:i] + chr(ord(text[i]) ^ (1 << rng.randrange(7))) + text[i + 1:]
        elif how == 2:  # huge / odd alignment headers
            header = rng.choice(["FFFFFFFF", "00000080", "00000000", "08000000", "0100"])
            text = text.replace("0x04000000", "0x" + header, 1)
        else:  # drop or duplicate part of the payload
            i = text.index(payload)
            cut = rng.randrange(1, len(payload))
            text = text[:i] + (payload[:cut] if rng.random() < 0.5 else payload + payload[:cut]) + text[i + len(payload):]
        code, _, err, path = run_tosa_opt(text, [])
        check_output(text, code, err, path)
        assert "internal error" not in err, err
        runs += 1
    assert runs > 20


def test_print_ir_prints_the_blobs(ctx):
    from tosa_xdsl.printing import print_ir

    text = module_text([("pi", "tensor<1xf32>")], section([("pi", "0x04000000DB0F4940")]))
    out = print_ir(Parser(ctx, text).parse_module())
    assert out.endswith('    builtin: {\n      pi: "0x04000000DB0F4940"\n    }\n  }\n#-}\n')
