"""Road 2 under random formulas (seeded, time-bounded): user operators whose @lower reads
tensors at random index expressions (affine, computed from reals, read from tensors, guarded
`|e|`, remapped `|e <> lo : hi|`, packs, counters) either import or give a located error
(`file:line:col: error:`), never a traceback; those that import also run."""

from __future__ import annotations

import random
import re
import time

import numpy as np

from tosa_xdsl.frontends.nnef.errors import NnefError
from tosa_xdsl.frontends.nnef.importer import import_nnef
from tosa_xdsl.interpreter import run

INDICES = ["i", "j", "i + j", "2 * i - 1", "int(x[i, j])", "|i + 1|", "|j - 1|", "|i - 2 <> 0 : 3|",
           "|int(real(j) * 0.7) + 1 <> -1 : 2|", "k[i,]", "int(floor(real(i) * 1.5))", "3 - i", "3",
           "int(x[i, j] * 2.0) <? 2", "|k[j,]|", "i * j", "i..", "1.5", "k[i,] + k[j,]"]
VALUES = ["{read}", "{read} * 2.0", "real(i) + {read}", "{read} > 0.0 ? {read} : 0.0", "abs({read})",
          "frac({read})", "{read} ?? 1.0"]
OPS = ["=", "+=", ">?=", "*=", ":="]


def _operator(rng: random.Random) -> str:
    read = f"x[{rng.choice(INDICES)}, {rng.choice(INDICES)}]"
    value = rng.choice(VALUES).format(read=read)
    op = rng.choice(OPS)
    init = "y[i, j] = 0.0, i < 4, j < 3;\n        " if op == ":=" else ""
    cond = rng.choice(["", "", f" | {read} > 0.5", " | i < j"])
    return f"""
operator f {{
    @input {{ x: real[4, 3]; k: int[4]; }}
    @output {{ y: real[4, 3]; }}
    @lower {{
        {init}y[i, j] {op} {value}, i < 4, j < 3{cond};
    }}
}}
graph G {{ @input {{ x: real[4, 3]; k: int[4]; }} @output {{ y: real[4, 3]; }} @compose {{ y = f(x, k); }} }}
"""


def test_random_formulas_import_or_fail_located():
    rng = random.Random(216)
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    k = np.array([0, 3, -1, 7], np.int32)     # out-of-range indices on purpose
    deadline = time.monotonic() + 5.0
    imported = failed = 0
    while time.monotonic() < deadline and imported + failed < 400:
        src = _operator(rng)
        try:
            module = import_nnef(src)
        except NnefError as err:
            assert re.match(r"^\S+:\d+:\d+: error: ", str(err)), (src, str(err))
            failed += 1
            continue
        imported += 1
        (y,) = run(module, [x, k], entry="G")
        assert y.shape == (4, 3)
    assert imported and failed, (imported, failed)
