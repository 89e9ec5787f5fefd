"""Interoperability of our three spellings with upstream MLIR and tosa-tools.

The corpus is the per-op snippets of the lit round-trip tests (tests/filecheck/dialect/
<chapter>.mlir, chunks separated by `// -----`): one snippet per operator variant. All of
them are wrapped into ONE module (`module @cN { <snippet> }` each), so each oracle runs once
per spelling; per-snippet tests then pick their nested module out of the batch result (and
re-run the oracle on the snippet alone only to explain a batch failure).

- keyword form    -> iree-opt (newest MLIR) accepts it; we read iree-opt's re-print back;
- attr-dict form  -> the tosa-tools translator and MLIR 22 accept it; we read theirs back;
- generic form    -> all three accept it; we read their re-prints back.
"Semantically the same" = our generic printing of both, with SSA and block names renumbered.

Also the bundled real model (examples/face_detection_front.tosa.mlir), which is in the
attribute-dictionary form of tosa-tools' converter: iree-opt rejects it as is, and must
accept it after it went through us.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, iree_opt_path, mlir_opt_22_path, translator_path
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from tosa_xdsl import spec_tables
from tosa_xdsl.context import make_context
from tosa_xdsl.dialects.tosa.ops import SPEC_OPS
from tosa_xdsl.printing import print_ir

CORPUS_DIR = ROOT / "tests/filecheck/dialect"
MODEL = ROOT / "examples/face_detection_front.tosa.mlir"
SPLIT = "// -----"
TIMEOUT = 300

ORACLES = {"iree-opt": iree_opt_path, "translator": translator_path, "mlir-opt-22": mlir_opt_22_path}
# Which oracle must accept which spelling (iree-opt no longer reads the attr-dict form;
# MLIR 22 and the translator predate the keyword form).
MATRIX = [
    ("keyword", "iree-opt"),
    ("attr-dict", "translator"),
    ("attr-dict", "mlir-opt-22"),
    ("generic", "iree-opt"),
    ("generic", "translator"),
    ("generic", "mlir-opt-22"),
]


# ------------------------------------------------------------------------------ corpus


def _load_corpus() -> list[tuple[str, str]]:
    snippets = []
    for path in sorted(CORPUS_DIR.glob("*.mlir")):
        if path.name.startswith("invalid"):
            continue
        text = "\n".join(l for l in path.read_text().splitlines() if not l.lstrip().startswith("// ") or l.startswith(SPLIT))
        for chunk in text.split(SPLIT):
            chunk = chunk.strip()
            if not chunk:
                continue
            names = re.findall(r"func\.func @(\w+)", chunk)
            snippets.append((f"{path.stem}:{names[0] if names else 'module'}", chunk))
    return snippets


CORPUS = _load_corpus()
IDS = [name for name, _ in CORPUS]


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+|\^[A-Za-z0-9_$.\-]+")


def canonical(op) -> str:
    """Our generic printing with SSA values and blocks renumbered in order of appearance."""
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        key = m.group(0)
        if key not in names:
            names[key] = f"{key[0]}n{len(names)}"
        return names[key]

    text = _NAME.sub(rename, print_ir(op, style="generic"))
    # local_bound is DefaultValuedOptionalAttr<false>: the attr-dict form (MLIR 22 and the
    # translator) leaves `local_bound = false` out, which means the same.
    return re.sub(r"local_bound = false, |, local_bound = false|<\{local_bound = false\}> ", "", text)


def run_tool(tool: Path, text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(tool), "-"], input=text, capture_output=True, text=True, timeout=TIMEOUT)


def nested(module: ModuleOp) -> dict[str, ModuleOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, ModuleOp) and op.sym_name is not None}


@functools.cache
def corpus_module() -> ModuleOp:
    body = "\n".join(f"module @c{i} {{\n{text}\n}}" for i, (_, text) in enumerate(CORPUS))
    return parse("module {\n" + body + "\n}")


@functools.cache
def batch(style: str, oracle: str) -> tuple[subprocess.CompletedProcess[str], dict[str, ModuleOp] | None]:
    tool = ORACLES[oracle]()
    result = run_tool(tool, print_ir(corpus_module(), style=style))
    reread = nested(parse(result.stdout)) if result.returncode == 0 else None
    return result, reread


def test_corpus_covers_every_operator():
    used = {op.name for op in corpus_module().walk()}
    missing = sorted(op.name for op in SPEC_OPS if op.name not in used)
    assert [c.name for c in SPEC_OPS] == [o.mlir_name for o in spec_tables.ops()]
    assert not missing, f"operators without a snippet: {missing}"
    assert "tosa.yield" in used


@pytest.mark.parametrize("style,oracle", MATRIX)
@pytest.mark.parametrize("index", range(len(CORPUS)), ids=IDS)
def test_snippet_accepted_and_reread(index: int, style: str, oracle: str):
    if ORACLES[oracle]() is None:
        pytest.skip(f"{oracle} not installed")
    result, reread = batch(style, oracle)
    ours = nested(corpus_module())[f"c{index}"]
    if reread is None:
        # explain the batch failure on this snippet alone
        alone = run_tool(ORACLES[oracle](), print_ir(ours, style=style))
        assert alone.returncode == 0, f"{oracle} rejects our {style} printing:\n{alone.stderr}"
        pytest.skip(f"batch failed on another snippet: {result.stderr[:500]}")
    assert canonical(reread[f"c{index}"]) == canonical(ours)


def test_oracles_reject_what_they_should(iree_opt, mlir_opt_22):
    """The matrix above is meaningful: each oracle does tell the spellings apart."""
    name, snippet = next(s for s in CORPUS if s[0] == "tensor:conv2d")
    module = parse(snippet)
    assert run_tool(iree_opt, print_ir(module, style="attr-dict")).returncode != 0
    assert run_tool(mlir_opt_22, print_ir(module, style="keyword")).returncode != 0


# ------------------------------------------------------------------------ the real model


@functools.cache
def model() -> ModuleOp:
    return parse(MODEL.read_text())


def test_model_parses_and_verifies():
    ops = [op for op in model().walk() if op.name.startswith("tosa.")]
    assert len(ops) > 200
    assert {"tosa.conv2d", "tosa.depthwise_conv2d", "tosa.reshape", "tosa.const"} <= {op.name for op in ops}


@pytest.mark.parametrize("style", ["keyword", "attr-dict", "generic"])
def test_model_round_trips(style: str):
    first = print_ir(model(), style=style)
    second = print_ir(parse(first), style=style)
    assert second == first
    assert canonical(parse(first)) == canonical(model())


def test_model_bridge_to_iree_opt(iree_opt):
    """iree-opt cannot read the converter's attr-dict output; through us it can."""
    raw = run_tool(iree_opt, MODEL.read_text())
    assert raw.returncode != 0 and "expected 'values'" in raw.stderr
    bridged = run_tool(iree_opt, print_ir(model(), style="keyword"))
    assert bridged.returncode == 0, bridged.stderr
    assert canonical(parse(bridged.stdout)) == canonical(model())


@pytest.mark.parametrize("style", ["attr-dict", "generic"])
def test_model_through_translator(translator, style: str):
    assert run_tool(translator, MODEL.read_text()).returncode == 0
    result = run_tool(translator, print_ir(model(), style=style))
    assert result.returncode == 0, result.stderr
    assert canonical(parse(result.stdout)) == canonical(model())


@pytest.mark.parametrize("style", ["attr-dict", "generic"])
def test_model_through_mlir_opt_22(mlir_opt_22, style: str):
    result = run_tool(mlir_opt_22, print_ir(model(), style=style))
    assert result.returncode == 0, result.stderr
    assert canonical(parse(result.stdout)) == canonical(model())


def test_model_generic_through_iree_opt(iree_opt):
    result = run_tool(iree_opt, print_ir(model(), style="generic"))
    assert result.returncode == 0, result.stderr
    assert canonical(parse(result.stdout)) == canonical(model())
