"""The compiled-module cache (tosa_xdsl/codegen/cache.py): a hit loads the object code
without lowering, a miss compiles and stores; a corrupt, truncated or foreign entry is never
loaded (the module is recompiled and still gives the right results); every input that changes
the code changes the key. Functional, not timed. Every test uses its own tmp_path cache."""

from __future__ import annotations

import io
import os
import random
import time
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from codegen_model import WEIGHTS, cli_files, inputs, interpret, model, parse

from tosa_xdsl import jit
from tosa_xdsl.codegen import cache as cache_mod
from tosa_xdsl.codegen.cache import ModuleCache, cache_key, decode, encode
from tosa_xdsl.tools import tosa_run


def check(native: jit.NativeModule, text: str, seed: int = 0) -> None:
    args = inputs(seed)
    np.testing.assert_array_equal(native.call(args)[0], interpret(text, args)[0])


def entries(cache: ModuleCache) -> list:
    return sorted(cache.directory.glob("*.obj")) if cache.directory.exists() else []


def test_miss_then_hit(tmp_path):
    cache = ModuleCache(tmp_path)
    text = model()
    assert jit.NativeModule.cached(parse(text), cache=cache) is None
    first = jit.NativeModule(parse(text), cache=cache)
    assert not first.cache_hit and len(entries(cache)) == 1
    check(first, text)
    second = jit.NativeModule.cached(parse(text), cache=cache)
    assert second is not None and second.cache_hit
    check(second, text, seed=1)
    again = jit.NativeModule(parse(text), cache=cache)  # the constructor also reads it
    assert again.cache_hit and len(entries(cache)) == 1


@pytest.mark.parametrize("damage", ["truncate", "flip_object", "flip_header", "empty", "garbage", "foreign"])
def test_bad_entries_are_ignored(tmp_path, damage):
    cache = ModuleCache(tmp_path)
    text, other = model(), model(WEIGHTS[::-1].copy())
    jit.NativeModule(parse(text), cache=cache)
    jit.NativeModule(parse(other), cache=cache)
    key = jit.cache_key(parse(text), None, "main", 2)
    path = cache.path(key)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip_object":
        path.write_bytes(data[:-100] + bytes([data[-100] ^ 0x10]) + data[-99:])
    elif damage == "flip_header":
        path.write_bytes(data[:20] + bytes([data[20] ^ 0x01]) + data[21:])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "garbage":
        path.write_bytes(os.urandom(4096))
    else:  # another module's entry under this key's name: its key inside does not match
        path.write_bytes(cache.path(jit.cache_key(parse(other), None, "main", 2)).read_bytes())
    assert jit.NativeModule.cached(parse(text), cache=cache) is None
    native = jit.NativeModule(parse(text), cache=cache)  # recompiles and replaces the entry
    assert not native.cache_hit
    check(native, text)
    assert jit.NativeModule.cached(parse(text), cache=cache) is not None


def test_key_changes_with_everything_that_changes_the_code():
    base = jit.cache_key(parse(model()), None, "main", 2)
    assert base == jit.cache_key(parse(model()), None, "main", 2)  # deterministic
    changed_weights = WEIGHTS.copy()
    changed_weights[0, 0, 0, 0] += 1
    others = [
        jit.cache_key(parse(model(changed_weights)), None, "main", 2),
        jit.cache_key(parse(model(entry="other")), None, "other", 2),
        jit.cache_key(parse(model()), "tosa-to-llvm{validation=false}", "main", 2),
        jit.cache_key(parse(model()), None, "main", 1),
    ]
    assert len({base, *others}) == 5


def test_key_covers_versions_and_host(monkeypatch):
    base = cache_key("module", "p", "main", 2)
    assert cache_key("module", "p", "main", 2, "threads=2") != base
    assert cache_key("module2", "p", "main", 2) != base
    monkeypatch.setattr(cache_mod, "_versions", lambda: "tosa-xdsl 9.9.9")
    assert cache_key("module", "p", "main", 2) != base
    monkeypatch.undo()
    from tosa_xdsl.codegen import llvm as llvm_mod

    monkeypatch.setattr(llvm_mod, "target_description", lambda: "another-cpu")
    assert cache_key("module", "p", "main", 2) != base


def test_unwritable_cache_does_not_fail_the_run(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = ModuleCache(blocker / "sub")
    native = jit.NativeModule(parse(model()), cache=cache)
    check(native, model())


def test_decode_fuzz():
    """Seeded, time-bounded: truncations, bit flips, random sizes never raise and never give
    an entry other than the one written."""
    rng = random.Random(15)
    obj = bytes(rng.randrange(256) for _ in range(3000))
    good = encode("k" * 64, obj, {"entry": "main", "function_type": "!llvm.func<void (ptr)>"})
    assert decode(good, "k" * 64).object == obj
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        data = bytearray(good)
        for _ in range(rng.randrange(1, 4)):
            kind = rng.randrange(3)
            if kind == 0 and data:
                del data[rng.randrange(len(data)):]
            elif kind == 1 and data:
                i = rng.randrange(len(data))
                data[i] ^= 1 << rng.randrange(8)
            else:  # a huge or odd metadata length
                n = len(cache_mod.MAGIC)
                data[n:n + 4] = rng.randrange(2**32).to_bytes(4, "little")
        got = decode(bytes(data), "k" * 64)
        assert got is None or got.object == obj


def run_cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = tosa_run.main(list(argv))
    return code, err.getvalue() + out.getvalue()


def test_tosa_run_second_start_uses_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TOSA_XDSL_CACHE_DIR", str(tmp_path / "cache"))
    files, (x, y) = cli_files(tmp_path, 3)
    argv = [*files, "--backend", "jit"]
    expected = interpret(model(), [x, y])[0]

    code, err = run_cli(*argv, "--no-cache", "-o", str(tmp_path / "o0.npy"))
    assert code == 0, err
    assert not (tmp_path / "cache").exists()  # --no-cache writes nothing
    code, err = run_cli(*argv, "-o", str(tmp_path / "o1.npy"))
    assert code == 0, err
    assert len(list((tmp_path / "cache").glob("*.obj"))) == 1

    lowered = []
    original = tosa_run.apply_passes
    monkeypatch.setattr(tosa_run, "apply_passes", lambda *a: lowered.append(a) or original(*a))
    code, err = run_cli(*argv, "-o", str(tmp_path / "o2.npy"))
    assert code == 0, err
    # a lowering: tosa-to-llvm (a spec, or its stages up to the direct road as a pass object)
    def lowerings():
        return [a for a in lowered if "tosa-to-llvm" in (a[-1] if isinstance(a[-1], str) else a[-1][0].name)]

    assert not lowerings()  # the hit lowered nothing
    for i in range(3):
        np.testing.assert_array_equal(np.load(tmp_path / f"o{i}.npy"), expected)
    monkeypatch.setenv("TOSA_XDSL_NO_CACHE", "1")
    code, err = run_cli(*argv, "-o", str(tmp_path / "o3.npy"))
    assert code == 0, err
    assert lowerings()  # disabled by the environment


def test_tosa_run_cache_hit_imports_no_compiler(tmp_path):
    # A hit only loads object code: the direct road's code generators (codegen/direct_llvm/) and
    # the lowering passes (outline_parallel, the loop passes) are not imported, which keeps a
    # cached start short (issue 15: under 0.5 s). Checked in a fresh process, where nothing else
    # has imported them; functional (which modules load), not timed.
    import subprocess
    import sys

    files, (x, y) = cli_files(tmp_path, 4)
    argv = [*files, "--backend", "jit", "-o", str(tmp_path / "o.npy")]
    script = ("import sys\nfrom tosa_xdsl.tools.tosa_run import _main\ncode = _main(sys.argv[1:], cli=False)\n"
              "heavy = sorted(m for m in sys.modules if m.startswith(('tosa_xdsl.codegen.direct_llvm',"
              " 'tosa_xdsl.lowering.to_loops', 'tosa_xdsl.lowering.linalg_transforms')))\n"
              "print(code, ' '.join(heavy))\n")
    env = dict(os.environ, TOSA_XDSL_CACHE_DIR=str(tmp_path / "cache"))
    first = subprocess.run([sys.executable, "-c", script, *argv], env=env, capture_output=True, text=True, check=False)
    assert first.stdout.split()[0] == "0", first.stderr
    assert "tosa_xdsl.codegen.direct_llvm" in first.stdout  # the miss compiled (the check can fail)
    hit = subprocess.run([sys.executable, "-c", script, *argv], env=env, capture_output=True, text=True, check=False)
    assert hit.stdout.split() == ["0"], hit.stdout + hit.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "o.npy"), interpret(model(), [x, y])[0])
