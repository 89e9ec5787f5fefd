"""MLIR bytecode reader/writer (tosa_xdsl/formats/bytecode) and text location aliases.

Oracles: mlir-opt 22 and iree-opt (they write the bytecode we read, and read back the
bytecode we write, each compared with the same tool's own text), the TFLite converter
(bytecode and text of the same model), and the reference outputs of the face detector.
"""

from __future__ import annotations

import io
import random
import re
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.formats.bytecode import BytecodeError, read_bytecode, write_bytecode
from tosa_xdsl.printing import TosaPrinter

ROOT = Path(__file__).resolve().parents[2]
MODELS = Path(__file__).resolve().parents[2] / "examples"
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
IREE_OPT = shutil.which("iree-opt")
CONVERTER = shutil.which("tosa-converter-for-tflite")
DIALECT_FILES = sorted(p for p in (ROOT / "tests/filecheck/dialect").glob("*.mlir")
                       if p.name != "invalid_syntax.mlir")

needs_mlir = pytest.mark.skipif(not Path(MLIR_OPT).exists(), reason="MLIR 22 not installed")
needs_iree = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt not installed")
needs_converter = pytest.mark.skipif(CONVERTER is None, reason="tosa-converter-for-tflite not installed")

SMALL = """
func.func @f(%arg0: tensor<2x3xf32> loc("in.py":1:2), %b: tensor<4xi1>) -> (tensor<2x3xf32>, i32) {
  %0 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> loc(fused["a.py":3:4, "b"("c.py":5:6)])
  %1 = arith.addf %arg0, %0 : tensor<2x3xf32> loc(callsite("x"("y":1:1) at "z":2:2))
  %2 = arith.constant dense<0.0> : tensor<1000xf32>
  %3 = arith.constant dense<[true, false, true, true]> : tensor<4xi1>
  %4 = arith.constant -7 : i32
  %5 = arith.constant 1.5 : f16
  %6 = arith.constant dense<[1, -2, 3]> : tensor<3xi8>
  %7 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  cf.br ^bb1(%4 : i32)
^bb1(%x: i32):
  return %1, %x : tensor<2x3xf32>, i32 loc("ret.py":9:9)
}
"""


def _ctx(**kw):
    return make_context(**kw)


def _normalised(module, arg_locs: bool = True) -> str:
    """Generic printout with value names and property/attribute order normalised
    (and block argument locations dropped unless `arg_locs`: xDSL's custom-syntax
    parsers of region ops do not read them from text)."""
    from xdsl.dialects.builtin import UnknownLoc

    for op in module.walk():
        op.properties = dict(sorted(op.properties.items()))
        op.attributes = dict(sorted(op.attributes.items()))
        for r in op.results:
            r.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    a.name_hint = None
                    if not arg_locs:
                        a.location = UnknownLoc()
    out = io.StringIO()
    TosaPrinter(stream=out, print_generic_format=True, print_debuginfo=True).print_op(module)
    return out.getvalue()


def _parse_text(text: str, **kw):
    return Parser(_ctx(**kw), text).parse_module()


def _run(cmd: list[str], data: bytes | None = None) -> bytes:
    res = subprocess.run(cmd, input=data, capture_output=True, timeout=60)
    assert res.returncode == 0, res.stderr.decode()[:2000]
    return res.stdout


# ------------------------------------------------------------------------- reading


@needs_mlir
@pytest.mark.parametrize("version", [0, 1, 2, 3, 4, 5, 6])
def test_read_mlir_opt_bytecode_every_version(version, tmp_path):
    src = tmp_path / "small.mlir"
    src.write_text(SMALL)
    bc = _run([MLIR_OPT, str(src), "--emit-bytecode", f"--emit-bytecode-version={version}"])
    text = _run([MLIR_OPT, str(src), "--mlir-print-debuginfo", "--mlir-print-local-scope"]).decode()
    ours = read_bytecode(bc, _ctx(), "small.mlirbc")
    # Location ranges ("c.py":5:6 to 7:8) do not occur in SMALL, so both sides agree exactly.
    assert _normalised(ours) == _normalised(_parse_text(text))


@needs_mlir
def test_read_locations_from_bytecode():
    bc = _run([MLIR_OPT, "-", "--emit-bytecode"], SMALL.encode())
    text = _normalised(read_bytecode(bc, _ctx()))
    assert 'loc(fused["a.py":3:4, "b"("c.py":5:6)])' in text
    assert 'loc(callsite("x"("y":1:1) at "z":2:2))' in text
    assert 'loc("ret.py":9:9)' in text


def _accepted_chunks(tool: str) -> str:
    """Every lit chunk `tool` accepts, each as a nested module of one module (so a
    handful of runs cover all files; the machine is shared)."""
    chunks = [c for path in DIALECT_FILES for c in path.read_text().split("// -----")]
    res = subprocess.run([tool, "-", "--split-input-file"], capture_output=True,
                         input="// -----".join(chunks).encode(), timeout=120)
    printed = res.stdout.decode().split("// -----")
    assert len(printed) == len(chunks)
    accepted = [c for c, out in zip(chunks, printed) if out.strip()]
    return "module {\n" + "".join(f"module {{\n{c}\n}}\n" for c in accepted) + "}\n"


@pytest.fixture(scope="module")
def iree_chunks() -> str:
    if IREE_OPT is None:
        pytest.skip("iree-opt not installed")
    text = _accepted_chunks(IREE_OPT)
    assert text.count("module {") > 50
    return text


@needs_mlir
def test_mlir_opt_reads_our_bytecode_of_lit_files():
    """The lit chunks MLIR 22 parses: our bytecode, printed by mlir-opt 22 == mlir-opt 22's
    print of the text (tosa syntax MLIR 22 lacks is covered by the iree-opt tests)."""
    text = _accepted_chunks(MLIR_OPT)
    assert text.count("module {") > 10
    want = _run([MLIR_OPT, "-", "--mlir-print-op-generic"], text.encode()).decode()
    got = _run([MLIR_OPT, "-", "--mlir-print-op-generic"], write_bytecode(_parse_text(text))).decode()
    assert got == want, _first_difference(got, want)


def _first_difference(a: str, b: str) -> str:
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            return f"\n ours: {x[:300]}\n want: {y[:300]}"
    return f"lengths {len(a)} != {len(b)}"


def test_read_iree_bytecode(iree_chunks):
    """iree-opt's bytecode of every accepted lit chunk == iree-opt's text of it, via us."""
    data = _run([IREE_OPT, "-", "--emit-bytecode"], iree_chunks.encode())
    text = _run([IREE_OPT, "-", "--mlir-print-debuginfo", "--mlir-print-local-scope"],
                iree_chunks.encode()).decode()
    ours, want = _normalised(read_bytecode(data, _ctx()), False), _normalised(_parse_text(text), False)
    assert ours == want, _first_difference(ours, want)


@pytest.fixture(scope="module")
def face_bytecode(tmp_path_factory) -> tuple[bytes, str]:
    if CONVERTER is None or not (MODELS / "face_detection_front.tflite").exists():
        pytest.skip("converter or model missing")
    d = tmp_path_factory.mktemp("face")
    bc, txt = d / "face.mlirbc", d / "face.mlir"
    _run([CONVERTER, str(MODELS / "face_detection_front.tflite"), "-o", str(bc)])
    _run([CONVERTER, str(MODELS / "face_detection_front.tflite"), "--text", "-o", str(txt)])
    return bc.read_bytes(), txt.read_text()


def test_converter_bytecode_equals_its_text(face_bytecode):
    data, text = face_bytecode
    assert data[:4] == b"ML\xefR"
    assert _normalised(read_bytecode(data, _ctx())) == _normalised(_parse_text(text))


def test_face_detector_from_converter_bytecode_runs(face_bytecode, tmp_path):
    """converter bytecode (odd file name) -> tosa-run -> the reference outputs."""
    model = tmp_path / "model.bin"
    model.write_bytes(face_bytecode[0])
    outs = [tmp_path / "o0.npy", tmp_path / "o1.npy"]
    from tosa_xdsl.tools.tosa_run import main as run_main

    code = run_main([str(model), "-i", str(MODELS / "face_detection_front.input_0.npy"),
                     "-o", str(outs[0]), "-o", str(outs[1])])
    assert code == 0
    for i, out in enumerate(outs):
        expected = np.load(MODELS / f"face_detection_front.expected_{i}.npy")
        got = np.load(out)
        assert got.shape == expected.shape
        assert np.abs(got.astype(np.float64) - expected).max() < 1e-3


def test_large_constants_are_read_as_binary():
    """A 1M-element constant is one numpy buffer, not per-element objects (time bound)."""
    from xdsl.dialects.arith import ConstantOp
    from xdsl.dialects.builtin import Float32Type, ModuleOp, TensorType

    from tosa_xdsl.ir.dense import from_numpy, to_numpy

    arr = np.arange(1 << 20, dtype=np.float32)
    t = TensorType(Float32Type(), [1 << 20])
    module = ModuleOp([ConstantOp(from_numpy(arr, t), t)])
    data = write_bytecode(module)
    start = time.perf_counter()
    back = read_bytecode(data, _ctx())
    assert time.perf_counter() - start < 2.0
    const = next(op for op in back.walk() if isinstance(op, ConstantOp))
    assert np.array_equal(to_numpy(const.value), arr)  # pyright: ignore[reportArgumentType]


# ------------------------------------------------------------------------- writing


def _chunks(path: Path) -> list[str]:
    return [c for c in path.read_text().split("// -----") if "func.func" in c or "tosa." in c]


@pytest.mark.parametrize("path", DIALECT_FILES, ids=lambda p: p.stem)
def test_text_bytecode_text_round_trip(path):
    """text -> our bytecode -> our reader == text, every lit file, versions 6 and 4."""
    for chunk in _chunks(path):
        module = _parse_text(chunk)
        expected = _normalised(_parse_text(chunk))
        for version in (6, 4):
            back = read_bytecode(write_bytecode(module, version), _ctx())
            assert _normalised(back) == expected


@pytest.mark.parametrize("version", [6, 4])
def test_iree_opt_reads_our_bytecode(iree_chunks, version):
    """Our bytecode of every accepted lit chunk, printed by iree-opt == iree-opt's print
    of the text."""
    want = _run([IREE_OPT, "-", "--mlir-print-op-generic"], iree_chunks.encode()).decode()
    data = write_bytecode(_parse_text(iree_chunks), version)
    got = _run([IREE_OPT, "-", "--mlir-print-op-generic"], data).decode()
    assert got == want, _first_difference(got, want)


@needs_mlir
@pytest.mark.parametrize("version", [0, 1, 2, 3, 4, 5, 6])
def test_mlir_opt_reads_our_bytecode(version, tmp_path):
    src = tmp_path / "small.mlir"
    src.write_text(SMALL)
    module = _parse_text(SMALL)
    data = write_bytecode(module, version)
    got = _run([MLIR_OPT, "-", "--mlir-print-op-generic", "--mlir-print-debuginfo",
                "--mlir-print-local-scope"], data)
    want = _run([MLIR_OPT, str(src), "--mlir-print-op-generic", "--mlir-print-debuginfo",
                 "--mlir-print-local-scope"])
    # mlir-opt stamps the text input's own file:line:col where xDSL's parser left none
    strip = re.compile(rb' loc\((unknown|"[^"]*small\.mlir":\d+:\d+|"-":\d+:\d+)\)')
    assert strip.sub(b"", got) == strip.sub(b"", want)


def test_tosa_opt_emit_bytecode_cli(tmp_path):
    from tosa_xdsl.tools.tosa_opt import main as opt_main

    src = tmp_path / "m.mlir"
    src.write_text(_chunks(DIALECT_FILES[0])[0])
    out = tmp_path / "m.out"
    assert opt_main([str(src), "--emit-bytecode", "--emit-bytecode-version", "5", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:4] == b"ML\xefR" and data[4] == (5 << 1) | 1
    text_out = tmp_path / "m.txt"
    assert opt_main([str(out), "-o", str(text_out)]) == 0
    assert opt_main([str(src), "-o", str(tmp_path / "ref.txt")]) == 0
    # bytecode keeps no value names: compare the parsed, normalised modules
    assert _normalised(_parse_text(text_out.read_text())) == _normalised(
        _parse_text((tmp_path / "ref.txt").read_text()))


# ------------------------------------------------------------------ location aliases


@needs_converter
def test_trailing_location_aliases_from_converter(tmp_path):
    """`--emit-debug-info` text defines #locN at the end. Oracle: each op's `loc(#locN)`
    resolved by plain textual substitution of the file's own alias definitions."""
    txt = tmp_path / "face.mlir"
    _run([CONVERTER, str(MODELS / "face_detection_front.tflite"), "--text", "--emit-debug-info",
          "-o", str(txt)])
    text = txt.read_text()
    assert re.search(r"^#loc\d+ = loc\(", text.rsplit("\n}", 1)[1], re.M)  # defined after use
    defs = dict(re.findall(r"^(#loc\d*) = loc\((.*)\)$", text, re.M))

    def resolve(s: str) -> str:
        return re.sub(r"#loc\d*\b", lambda m: resolve(defs[m.group(0)]), s)

    expected = [resolve(m) for m in re.findall(r"^\s*(?:%\S+ = )?\"?tosa\..* loc\((#loc\d*)\)$", text, re.M)]
    from tosa_xdsl.tools.tosa_opt import main as opt_main

    ours = tmp_path / "ours.mlir"
    assert opt_main([str(txt), "--print-debuginfo", "--print-op-generic", "-o", str(ours)]) == 0
    got = re.findall(r'^\s*(?:%\S+ = )?"tosa\.[^"]+".* loc\((.*)\)$', ours.read_text(), re.M)
    assert len(got) == len(expected) > 100
    # an explicit loc(unknown) is indistinguishable from none for tosa-opt's parser, which
    # stamps the op's own file:line:col there (pre-existing driver behaviour)
    assert [g for g, e in zip(got, expected) if e != "unknown"] == [e for e in expected if e != "unknown"]


def test_location_alias_used_before_definition():
    from tosa_xdsl.tools.tosa_opt import main as opt_main

    text = ('func.func @f() {\n  return loc(#loc2)\n} loc(#loc1)\n'
            '#loc = loc("m.py":1:2)\n#loc1 = loc("f"(#loc))\n#loc2 = loc("r.py":3:4 to 5:6)\n')
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "a.mlir"
        p.write_text(text)
        out = Path(d) / "o.mlir"
        assert opt_main([str(p), "--print-debuginfo", "-o", str(out)]) == 0
        printed = out.read_text()
    assert 'loc("r.py":3:4)' in printed and 'loc("f"("m.py":1:2))' in printed


# -------------------------------------------------------------------------- robustness


def _sample_bytecode() -> bytes:
    return write_bytecode(_parse_text(SMALL))


def test_errors_are_one_clean_line(tmp_path, capsys):
    from tosa_xdsl.tools.tosa_opt import main as opt_main

    data = _sample_bytecode()
    bad = tmp_path / "bad.mlirbc"
    bad.write_bytes(data[:40])
    assert opt_main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert re.fullmatch(r".*bad\.mlirbc: error: invalid MLIR bytecode: .* at offset \d+\n", err)
    junk = tmp_path / "junk"
    junk.write_bytes(bytes(range(256)) * 4)
    assert opt_main([str(junk)]) == 1
    err = capsys.readouterr().err
    from tosa_xdsl.formats.loader import unknown_message

    assert err == f"{junk}: error: {unknown_message()}\n"
    assert unknown_message().startswith("not MLIR text, MLIR bytecode")


def test_version_too_new_is_named():
    data = bytearray(_sample_bytecode())
    data[4] = (7 << 1) | 1
    with pytest.raises(BytecodeError, match="version 7 is not supported"):
        read_bytecode(bytes(data), _ctx())


def test_huge_declared_sizes_do_not_allocate():
    # a string section declaring 2^60 strings, then nothing
    data = b"ML\xefR" + bytes([(6 << 1) | 1]) + b"x\x00" + bytes([0, 9 << 1 | 1]) + b"\x00" + (1 << 60).to_bytes(8, "little")
    with pytest.raises(BytecodeError):
        read_bytecode(data, _ctx())


def test_deep_region_nesting_is_an_error():
    from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
    from xdsl.ir import Block, Region

    inner: list = []
    op_type = UnregisteredOp.with_name("test.nest")
    for _ in range(140):
        inner = [op_type.create(regions=[Region(Block(inner))])]
    data = write_bytecode(ModuleOp(inner))
    with pytest.raises(BytecodeError, match="nested deeper"):
        read_bytecode(data, _ctx(allow_unregistered=True))


def test_fuzz_reader_seeded():
    """Truncations, bit flips, byte replacements and huge varints: BytecodeError or a
    module, never another exception; bounded to ~10 s."""
    rng = random.Random(13)
    control_flow = next(p for p in DIALECT_FILES if p.stem == "control_flow")
    seeds = [
        _sample_bytecode(),  # locations, blocks, successors, dense constants
        write_bytecode(_parse_text(_chunks(DIALECT_FILES[0])[0]), 4),  # tosa ops, version 4
        write_bytecode(_parse_text(_chunks(control_flow)[0])),  # nested regions
        write_bytecode(_parse_text(RESOURCE_TEXT)),  # dense_resource blob, aligned section
    ]
    deadline = time.monotonic() + 10
    runs = 0
    while time.monotonic() < deadline and runs < 3000:
        data = bytearray(rng.choice(seeds))
        kind = rng.randrange(4)
        if kind == 0:
            data = data[: rng.randrange(len(data))]
        elif kind == 1:
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(4, len(data))
                data[i] ^= 1 << rng.randrange(8)
        elif kind == 2:
            i = rng.randrange(4, len(data))
            data[i : i + 9] = b"\x00" + rng.getrandbits(64).to_bytes(8, "little")
        else:
            i = rng.randrange(4, len(data))
            data[i] = rng.randrange(256)
        try:
            read_bytecode(bytes(data), _ctx(allow_unregistered=True))
        except BytecodeError as err:
            # "malformed input (...)" is the reader's last-resort wrapper of an unexpected
            # exception: every malformation must be caught by a specific check instead
            assert not err.message.startswith("malformed input"), err.message
        runs += 1
    assert runs > 50


RESOURCE_TEXT = """func.func @f() -> tensor<3xi16> {
  %0 = arith.constant dense_resource<blob1> : tensor<3xi16>
  return %0 : tensor<3xi16>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x02000000010002000300"
    }
  }
#-}
"""


@needs_mlir
def test_dense_resource_blobs_both_ways():
    """mlir-opt's bytecode blob -> our reader (numpy view) and our writer -> mlir-opt's
    text of the blob (alignment 2, values 1 2 3 as little-endian i16)."""
    from xdsl.dialects.arith import ConstantOp

    try:
        from tosa_xdsl.ir.dense import to_numpy  # pyright: ignore
    except ImportError:
        from tosa_xdsl.ir.dense import to_numpy
    data = _run([MLIR_OPT, "-", "--emit-bytecode"], RESOURCE_TEXT.encode())
    module = read_bytecode(data, _ctx())
    const = next(op for op in module.walk() if isinstance(op, ConstantOp))
    assert to_numpy(const.value).tolist() == [1, 2, 3]  # pyright: ignore[reportArgumentType]
    text = _run([MLIR_OPT, "-"], write_bytecode(module)).decode()
    # the store may rename a key already used in this process (blob1_N)
    assert re.search(r'blob1(_\d+)?: "0x02000000010002000300"', text), text


QUANT_TYPES = [
    "!quant.uniform<i8:f32, 5.000000e-01:-3>",
    "!quant.uniform<i8<-127:127>:f32, 2.500000e-01>",
    "!quant.uniform<i16:f32, 1.250000e-01>",
    "!quant.uniform<u8:f32:1, {2.000000e+00:1,3.000000e+00:-2}>",
    "!quant.any<i8:f32>",
    "!quant.calibrated<f32<-1.000000e+00:1.000000e+00>>",
]


@needs_mlir
@pytest.mark.parametrize("qtype", QUANT_TYPES)
def test_quant_types_in_their_binary_encoding(qtype):
    """The quant dialect encodes its types in binary; we rebuild the exact text mlir-opt
    prints for them (checked first) and parse that in our context."""
    src = f"func.func @f(%a: tensor<2x{qtype}>) {{\n  return\n}}\n"
    assert qtype in _run([MLIR_OPT, "-"], src.encode()).decode()  # the oracle's spelling
    data = _run([MLIR_OPT, "-", "--emit-bytecode"], src.encode())
    try:
        module = read_bytecode(data, _ctx())
    except BytecodeError as err:  # no quant dialect registered in this context yet
        assert f"cannot parse type '{qtype}'" in err.message
        return
    assert qtype in _normalised(module)


def test_deeply_nested_attributes_are_an_error():
    from xdsl.dialects.builtin import ArrayAttr, ModuleOp

    attr = ArrayAttr([])
    for _ in range(100):
        attr = ArrayAttr([attr])
    module = ModuleOp([])
    module.attributes["deep"] = attr
    with pytest.raises(BytecodeError, match="nested deeper"):
        read_bytecode(write_bytecode(module), _ctx())
    shallow = ModuleOp([])
    shallow.attributes["ok"] = ArrayAttr([ArrayAttr([ArrayAttr([])])])
    assert "ok = [[[]]]" in _normalised(read_bytecode(write_bytecode(shallow), _ctx()))


def test_bad_bytecode_version_option_is_a_usage_error(capsys):
    from tosa_xdsl.tools.tosa_opt import main as opt_main

    assert opt_main([str(DIALECT_FILES[0]), "--emit-bytecode", "--emit-bytecode-version", "9"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


LOC_TEXT = """func.func @f(%arg0: tensor<2x3xf32> loc("in.py":1:2)) -> tensor<2x3xf32> {
  %0 = arith.constant dense<1.0> : tensor<2x3xf32> loc(fused["a.py":3:4, "b"("c.py":5:6 to 7:8)])
  %1 = arith.addf %arg0, %0 : tensor<2x3xf32> loc(callsite("x"("y":1:1) at "z":2:2))
  return %1 : tensor<2x3xf32> loc(fused<"meta">["q":1:1 to :9])
} loc("f.py":1:1)
"""


@needs_mlir
def test_mlir_opt_debuginfo_aliases_at_the_end(tmp_path):
    """mlir-opt --mlir-print-debuginfo puts every #loc at the end; we read each op's
    location as mlir-opt's --mlir-print-local-scope prints it (ranges keep their start)."""
    from tosa_xdsl.tools.tosa_opt import main as opt_main

    aliased = _run([MLIR_OPT, "-", "--mlir-print-debuginfo"], LOC_TEXT.encode()).decode()
    assert aliased.rstrip().splitlines()[-1].startswith("#loc")
    local = _run([MLIR_OPT, "-", "--mlir-print-debuginfo", "--mlir-print-local-scope"],
                 LOC_TEXT.encode()).decode()
    src = tmp_path / "aliased.mlir"
    src.write_text(aliased)
    out = tmp_path / "ours.mlir"
    assert opt_main([str(src), "--print-debuginfo", "-o", str(out)]) == 0
    ours = out.read_text()
    for line in local.splitlines():
        if "arith." in line or "return" in line:
            loc = re.sub(r"(:\d+:\d+) to \d*:?\d*", r"\1", line[line.index(" loc(") :])
            assert loc in ours, (loc, ours)


@needs_mlir
def test_builtin_attributes_and_types_through_mlir_opt():
    """Every builtin encoding we read and write (big/unsigned/index integers, floats,
    symbol references, dense arrays, packed i1, i4, memref layouts and memory spaces,
    unranked and scalable types, affine maps, tuples): mlir-opt's bytecode -> ours ->
    our bytecode -> mlir-opt prints what mlir-opt prints for the text."""
    path = Path(__file__).with_name("builtin_types.mlir")
    want = _run([MLIR_OPT, str(path)]).decode()
    module = read_bytecode(_run([MLIR_OPT, str(path), "--emit-bytecode"]), _ctx())
    for version in (6, 4, 0):
        got = _run([MLIR_OPT, "-"], write_bytecode(module, version)).decode()
        assert got == want, _first_difference(got, want)


USE_LIST_TEXT = """func.func @f(%x: i32, %y: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %a = arith.addi %x, %y : i32
  %b = arith.addi %a, %c0 : i32
  %c = arith.muli %x, %b : i32
  %d = arith.subi %b, %x : i32
  %e = arith.addi %d, %a : i32
  return %a, %b, %c, %e : i32, i32, i32, i32
}
"""


@needs_mlir
def test_use_list_orders_are_accepted(monkeypatch):
    """-canonicalize reorders use lists; mlir-opt then writes use-list orders (v3+),
    which we read (and drop) with the rest of the module unchanged."""
    from tosa_xdsl.formats.bytecode import reader as reader_mod

    seen: list[int] = []
    original = reader_mod.Reader._use_lists  # noqa: SLF001

    def spy(self, s, n):
        seen.append(n)
        return original(self, s, n)

    monkeypatch.setattr(reader_mod.Reader, "_use_lists", spy)
    data = _run([MLIR_OPT, "-", "-canonicalize", "--emit-bytecode"], USE_LIST_TEXT.encode())
    text = _run([MLIR_OPT, "-", "-canonicalize", "--mlir-print-debuginfo", "--mlir-print-local-scope"],
                USE_LIST_TEXT.encode()).decode()
    module = read_bytecode(data, _ctx())
    assert seen, "mlir-opt wrote no use-list order: the test input no longer exercises them"
    assert _normalised(module, False) == _normalised(_parse_text(text), False)


@needs_iree
def test_iree_opt_reads_our_bytecode_of_the_face_detector(face_bytecode):
    """converter bytecode -> ours -> our bytecode: iree-opt prints it exactly as it
    prints the converter's own bytecode."""
    data = face_bytecode[0]
    ours = write_bytecode(read_bytecode(data, _ctx()))
    want = _run([IREE_OPT, "-", "--mlir-print-op-generic"], data).decode()
    got = _run([IREE_OPT, "-", "--mlir-print-op-generic"], ours).decode()
    assert got == want, _first_difference(got, want)


def test_wrong_section_id_and_every_truncation():
    data = _sample_bytecode()
    header = data[: data.index(b"\x00", 5) + 1]  # magic, version, producer
    with pytest.raises(BytecodeError, match="invalid section id 15 at offset"):
        read_bytecode(header + bytes([15, 1]), _ctx())
    with pytest.raises(BytecodeError, match="duplicate"):
        read_bytecode(header + bytes([0, 1, 0, 1]), _ctx())
    for n in range(len(data)):  # every proper prefix is refused with a located error
        with pytest.raises(BytecodeError, match=r"at offset \d+$"):
            read_bytecode(data[:n], _ctx())
