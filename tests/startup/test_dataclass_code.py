"""The CLIs' disk cache of dataclass method code (tosa_xdsl/tools/dataclass_code.py).

The oracle is Python's own `dataclasses` in a process without the cache: classes built from
cached code behave the same (init, defaults, repr, eq, order, hash, frozen assignment), a
second process really uses the file (no compilation), and a damaged file (seeded fuzz:
truncation, bit flips, other marshalled values, huge sizes) is ignored, never trusted."""

from __future__ import annotations

import marshal
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tosa_xdsl.tools import dataclass_code

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache serves CPython 3.11 only")

PROBE = r"""
import dataclasses, json, sys
from tosa_xdsl.tools import dataclass_code
if sys.argv[1] == "cache":
    assert dataclass_code.install()
from dataclasses import dataclass, field, FrozenInstanceError

@dataclass(frozen=True, order=True)
class P:
    x: int
    y: tuple = ()
    z: list = field(default_factory=list, compare=False)

@dataclass(eq=True, unsafe_hash=True)
class Q:
    a: str = "q"

p, q = P(1, (2,)), P(1, (3,), [9])
try:
    p.x = 5
    frozen = "assigned"
except FrozenInstanceError as e:
    frozen = type(e).__name__
print(json.dumps({"repr": [repr(p), repr(q), repr(Q())], "eq": [p == P(1, (2,), [7]), p == q],
                  "lt": p < q, "hash": hash(p) == hash(P(1, (2,))), "qhash": hash(Q()) == hash(Q("q")),
                  "frozen": frozen, "default": P(4).z, "compiled": dataclass_code.compiled_here()}))
"""


def probe(mode: str, cache_dir: Path, write: bool = True) -> dict:
    import json

    env = dict(os.environ, TOSA_XDSL_CACHE_DIR=str(cache_dir))
    env.pop("TOSA_XDSL_NO_CACHE", None)
    if write:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = subprocess.run([sys.executable, "-c", PROBE, mode], env=env, capture_output=True, text=True,
                         timeout=60, check=True)
    return json.loads(out.stdout)


def behaviour(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "compiled"}


def test_cached_classes_behave_as_pythons_own(tmp_path):
    plain = probe("plain", tmp_path)
    first = probe("cache", tmp_path)
    assert (tmp_path / Path(dataclass_code.cache_file()).name).exists()
    second = probe("cache", tmp_path)
    assert behaviour(first) == behaviour(second) == behaviour(plain)
    assert plain["compiled"] == 0 and first["compiled"] > 0  # plain: dataclasses' own exec
    assert second["compiled"] == 0  # every method came from the file


def test_nothing_written_when_bytecode_writing_is_off(tmp_path):
    probe("cache", tmp_path, write=False)
    assert not list(tmp_path.iterdir())


def test_a_damaged_file_is_ignored(tmp_path):
    probe("cache", tmp_path)
    path = tmp_path / Path(dataclass_code.cache_file()).name
    good = path.read_bytes()
    assert dataclass_code.load(str(path))
    plain = behaviour(probe("plain", tmp_path / "none"))
    rng = random.Random(15)
    head = len(dataclass_code.MAGIC) + 32
    damaged = [good[:n] for n in (0, 1, 5, head, len(good) // 2, len(good) - 1)]
    damaged += [good[:head] + marshal.dumps(v) for v in ([1, 2], {"a": 1}, "x" * 100)]
    for _ in range(20):
        flipped = bytearray(good)
        for _ in range(rng.randint(1, 8)):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        damaged.append(bytes(flipped))
    # a payload claiming 2**31 dict entries, with a matching checksum: marshal refuses it
    import hashlib
    huge = b"{" + b"\xff\xff\xff\x7f"
    damaged.append(dataclass_code.MAGIC + hashlib.sha256(huge).digest() + huge)
    deadline = time.monotonic() + 20
    for data in damaged:
        assert time.monotonic() < deadline, "load is slow on damaged input"
        path.write_bytes(data)
        assert dataclass_code.load(str(path)) == {}
    # and a process given a damaged file compiles as usual and behaves as Python's own
    path.write_bytes(damaged[-2])
    result = probe("cache", tmp_path)
    assert result["compiled"] > 0 and behaviour(result) == plain
    assert dataclass_code.load(str(path))  # replaced at exit by a good file


def test_the_cli_output_is_the_same_with_and_without_the_cache(tmp_path):
    root = Path(__file__).resolve().parents[2]
    args = [str(root / "examples/face_detection_front.tosa.mlir"), "-i",
            str(root / "examples/face_detection_front.input_0.npy")]
    env = dict(os.environ, TOSA_XDSL_CACHE_DIR=str(tmp_path))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    runs = [subprocess.run([sys.executable, "-m", "tosa_xdsl.tools.tosa_run", *args], env=e, capture_output=True,
                           text=True, timeout=120) for e in (dict(env, TOSA_XDSL_NO_CACHE="1"), env, env)]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout
    assert (tmp_path / Path(dataclass_code.cache_file()).name).exists()
