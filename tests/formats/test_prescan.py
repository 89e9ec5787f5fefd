"""The pre-scan of large text models (tosa_xdsl/formats/prescan.py).

Oracles: numpy for the values (the weights are known: the result of a matmul chain), and
the in-memory parse of the same text for everything else: a pre-scanned file must give the
same results and, when it is malformed, the same diagnostics at the same file:line:col
(the in-memory path's locations are MLIR's, tests/producers/test_resources.py and friends).
A seeded, time-bounded fuzz (truncation, bit flips, huge sizes) compares the two paths."""

from __future__ import annotations

import io
import random
import re
import time
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest

from tosa_xdsl.formats import prescan
from tosa_xdsl.formats.prescan import prescan_file
from tosa_xdsl.interpreter.runner import Session
from tosa_xdsl.formats.loader import LoadError
from tosa_xdsl.formats.loader import load as load_any
from tosa_xdsl.tools import tosa_opt, tosa_run

K = 40  # 40x40 float32 weights: 6400 bytes, 12800 hex digits (> MIN below)
MIN = 4096  # literals from this many digits are left in the file (the CLI's is larger)


def weights(i: int) -> np.ndarray:
    return (np.random.default_rng(i).standard_normal((1, K, K)) / np.sqrt(K)).astype(np.float32)


def model(kind: str, tail: str = "") -> str:
    t_x, t_w = f"tensor<1x1x{K}xf32>", f"tensor<1x{K}x{K}xf32>"
    lines = ["module {", f"  func.func @main(%x: {t_x}) -> {t_x} {{",
             '    %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>']
    prev = "%x"
    for i in range(2):
        value = (f'dense<"0x{weights(i).tobytes().hex().upper()}">' if kind == "hex" else f"dense_resource<w{i}>")
        lines.append(f'    %w{i} = "tosa.const"() <{{values = {value} : {t_w}}}> : () -> {t_w}')
        lines.append(f"    %y{i} = tosa.matmul {prev}, %w{i}, %zp, %zp : ({t_x}, {t_w}, tensor<1xf32>, "
                     f"tensor<1xf32>) -> {t_x}")
        prev = f"%y{i}"
    lines += [f"    func.return {prev} : {t_x}", "  }", "}"]
    text = "\n".join(lines) + "\n"
    if kind == "resource":
        text += "{-#\n  dialect_resources: {\n    builtin: {\n"
        text += ",\n".join(f'      w{i}: "0x04000000{weights(i).tobytes().hex().upper()}"' for i in range(2))
        text += "\n    }\n  }\n#-}\n"
    return text + tail


def load(path: Path, use_prescan: bool):
    """(module or None, stderr) through tosa-run's loading, in memory or pre-scanned."""
    err = io.StringIO()
    with redirect_stderr(err):
        if use_prescan:
            src = prescan_file(str(path), min_literal=MIN)
            loaded = tosa_run.load_module(str(path), src.text, [], src)
        else:
            loaded = tosa_run.load_module(str(path), path.read_bytes().decode("utf-8", "replace"), [])
    return loaded, err.getvalue()


@pytest.mark.parametrize("kind", ["hex", "resource"])
def test_values_are_the_files(tmp_path, kind):
    path = tmp_path / f"m.{kind}.mlir"
    path.write_text(model(kind))
    src = prescan_file(str(path), min_literal=MIN)
    assert len(src.literals) == 2 and len(src.text) < 2000  # the weights stayed in the file
    loaded, err = load(path, True)
    assert loaded is not None, err
    x = np.random.default_rng(9).standard_normal((1, 1, K)).astype(np.float32)
    expected = x.astype(np.float64) @ weights(0)[0].astype(np.float64) @ weights(1)[0].astype(np.float64)
    got = Session(loaded.module).call([x], "main")[0]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    memory, _ = load(path, False)
    np.testing.assert_array_equal(got, Session(memory.module).call([x], "main")[0])


def test_short_and_other_literals_stay_in_the_text(tmp_path):
    # a 4 KiB-digit string outside `dense<` and a short dense literal are not replaced
    other = "0x" + "AB" * 4096
    path = tmp_path / "m.mlir"
    path.write_text(model("hex") + f'// dense<"0x12">\n"test.note"() {{s = "{other}"}} : () -> ()\n')
    src = prescan_file(str(path), min_literal=MIN)
    assert len(src.literals) == 2 and other in src.text


def errors_agree(tmp_path: Path, text: str | bytes, name: str = "m.mlir") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    a, err_a = load(path, False)
    b, err_b = load(path, True)
    assert (a is None) == (b is None)
    # the process-wide blob store renames a key seen before (w0 -> w0_7); not ours to compare
    assert re.sub(r"(w[01])_[0-9]+", r"\1", err_a) == re.sub(r"(w[01])_[0-9]+", r"\1", err_b)
    return err_a


def test_an_error_after_a_literal_on_its_line_is_located_in_the_file(tmp_path):
    text = model("hex").replace(f'> : tensor<1x{K}x{K}xf32>}}> : () -> tensor<1x{K}x{K}xf32>\n    %y0',
                                f'> : tensor<1x{K}x{K}xf32>}}> : () -> tensor<1x{K}x{K}xf99>\n    %y0', 1)
    err = errors_agree(tmp_path, text)
    line, col = err.split(":")[1:3]
    assert line == "4" and int(col) > 2 * K * K * 4 and "error" in err  # after the digits


def test_wrong_sizes_odd_digits_bad_digits_and_truncation_agree(tmp_path):
    hex_model = model("hex")
    cases = {
        "size": hex_model.replace(f"tensor<1x{K}x{K}xf32>}}>", f"tensor<1x{K}x{K + 1}xf32>}}>", 1),
        "odd": hex_model.replace('">', 'A">', 1),
        "bad digit": hex_model.replace('0x', '0xZ', 1),
        "cut": hex_model[:hex_model.index('0x') + 9000],
        "blob cut": model("resource")[:-300],
        "blob odd": model("resource").replace('",\n', 'F",\n', 1),
        "blob alignment": model("resource").replace('"0x04000000', '"0x03000000', 1),
        "blob size": model("resource").replace(f"tensor<1x{K}x{K}xf32>}}>", f"tensor<1x{K}x{K + 1}xf32>}}>", 1),
    }
    for name, text in cases.items():
        err = errors_agree(tmp_path, text)
        assert "error" in err, name


def test_fuzz_prescan_against_the_in_memory_parse(tmp_path):
    rng = random.Random(1515)
    bases = [model("hex").encode(), model("resource").encode()]
    deadline = time.monotonic() + 25
    runs = 0
    while time.monotonic() < deadline and runs < 60:
        data = bytearray(rng.choice(bases))
        kind = rng.randrange(4)
        if kind == 0:  # truncation
            del data[rng.randrange(len(data)):]
        elif kind == 1:  # bit flips, often inside a literal
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(len(data))
                data[i] ^= 1 << rng.randrange(7)
        elif kind == 2:  # huge sizes in the types
            text = data.decode()
            data = bytearray(text.replace(f"1x{K}x{K}xf32", rng.choice(
                ["1x4000000000x40xf32", f"1x{K}x{K * 1000}xf32", "1x0x40xf32"]), rng.randint(1, 3)).encode())
        else:  # a literal split by a quote or a newline
            i = data.index(b"0x") + rng.randrange(10, 12000)
            data[i:i] = rng.choice([b'"', b"\n", b" ", b"\\22"])
        errors_agree(tmp_path, bytes(data))
        runs += 1
    assert runs >= 10


def test_tosa_run_prescans_large_text_files(tmp_path, monkeypatch, capsys):
    path = tmp_path / "m.mlir"
    path.write_text(model("hex"))
    monkeypatch.setattr(prescan, "PRESCAN_BYTES", 1)
    monkeypatch.setattr(prescan, "MIN_LITERAL", MIN)
    seen = []
    real = prescan.prescan_file
    monkeypatch.setattr(prescan, "prescan_file", lambda *a, **k: seen.append(a) or real(*a, **k))
    x = tmp_path / "x.npy"
    np.save(x, np.ones((1, 1, K), np.float32))
    assert tosa_run.main([str(path), "-i", str(x), "-o", str(tmp_path / "y.npy")]) == 0
    assert seen
    expected = np.ones((1, 1, K)) @ weights(0)[0].astype(np.float64) @ weights(1)[0].astype(np.float64)
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), expected, rtol=1e-5, atol=1e-6)


def spy_prescans(monkeypatch) -> list:
    """Every tool pre-scans from one byte: the calls of prescan_file, recorded."""
    monkeypatch.setattr(prescan, "PRESCAN_BYTES", 1)
    monkeypatch.setattr(prescan, "MIN_LITERAL", MIN)
    seen: list = []
    real = prescan.prescan_file
    monkeypatch.setattr(prescan, "prescan_file", lambda *a, **k: seen.append(a) or real(*a, **k))
    return seen


def tosa_opt_output(path: Path, out: Path, capsys) -> tuple[int, str, str]:
    code = tosa_opt.main([str(path), "-o", str(out)])
    return code, out.read_text() if out.exists() else "", capsys.readouterr().err


@pytest.mark.parametrize("kind", ["hex", "resource"])
def test_tosa_opt_prescans_large_text_files(tmp_path, monkeypatch, capsys, kind):
    # oracle: the in-memory parse of the same file prints the same module
    path = tmp_path / "m.mlir"
    path.write_text(model(kind))
    expected = tosa_opt_output(path, tmp_path / "a.mlir", capsys)
    seen = spy_prescans(monkeypatch)
    got = tosa_opt_output(path, tmp_path / "b.mlir", capsys)
    assert seen and got == expected and expected[0] == 0


def test_tosa_opt_locates_errors_in_a_prescanned_file(tmp_path, monkeypatch, capsys):
    path = tmp_path / "m.mlir"
    path.write_text(model("hex").replace(f"() -> tensor<1x{K}x{K}xf32>\n    %y0",
                                         f"() -> tensor<1x{K}x{K}xf99>\n    %y0", 1))
    expected = tosa_opt_output(path, tmp_path / "a.mlir", capsys)
    seen = spy_prescans(monkeypatch)
    got = tosa_opt_output(path, tmp_path / "b.mlir", capsys)
    assert seen and got[0] == expected[0] == 1
    assert got[2].splitlines()[0] == expected[2].splitlines()[0]
    assert expected[2].startswith(f"{path}:4:")


def test_tosa_opt_split_input_reads_the_whole_text(tmp_path, monkeypatch, capsys):
    path = tmp_path / "m.mlir"
    path.write_text(model("hex") + "// -----\n" + model("hex"))
    seen = spy_prescans(monkeypatch)
    assert tosa_opt.main([str(path), "--split-input-file", "-o", str(tmp_path / "o.mlir")]) == 0
    assert not seen


def test_load_prescans_large_text_files(tmp_path, monkeypatch):
    path = tmp_path / "m.mlir"
    path.write_text(model("hex"))
    x = np.random.default_rng(4).standard_normal((1, 1, K)).astype(np.float32)
    expected = Session(load_any(path)).call([x], "main")[0]  # in memory: the oracle
    seen = spy_prescans(monkeypatch)
    got = Session(load_any(path)).call([x], "main")[0]
    assert seen
    np.testing.assert_array_equal(got, expected)


def test_load_locates_errors_in_a_prescanned_file(tmp_path, monkeypatch):
    path = tmp_path / "m.mlir"
    path.write_text(model("hex").replace(f"() -> tensor<1x{K}x{K}xf32>\n    %y0",
                                         f"() -> tensor<1x{K}x{K}xf99>\n    %y0", 1))
    with pytest.raises(LoadError) as in_memory:
        load_any(path)
    spy_prescans(monkeypatch)
    with pytest.raises(LoadError) as prescanned:
        load_any(path)
    assert str(prescanned.value) == str(in_memory.value)
    assert str(in_memory.value).startswith(f"{path}:4:")  # after the digits on line 4
