"""TosaPrinter's fast path (tosa_xdsl/printing.py `_print_plain_op`: op tails cached per
signature, SSA names allocated directly) prints byte for byte what the plain xDSL Printer
path prints, in all three styles, on every input of the lit suite, the bundled model and
bench/parse.py's generated module.

The slow path is xDSL's own `Printer.print_op` with our op printers (the printer before the
fast path existed), selected with `printing.fast_print_enabled(False)`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.printing import STYLES, fast_print_enabled, print_ir

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import parse as bench  # noqa: E402  (bench/parse.py: the generated module)

LIT_INPUTS = sorted((ROOT / "tests/filecheck").rglob("*.mlir"))


def _modules(text: str):
    """Every chunk of a (possibly --split-input-file) input that parses."""
    for chunk in text.split("\n// -----\n"):
        try:
            yield Parser(make_context(), chunk).parse_module()
        except Exception:
            continue  # a negative parser test, or a dialect this context lacks


def _assert_same_everywhere(module) -> int:
    for style in STYLES:
        for debuginfo in (False, True) if style == "generic" else (False,):
            with fast_print_enabled(False):
                try:
                    slow = print_ir(module, style=style, print_debuginfo=debuginfo)
                except Exception as err:  # the slow path's own failure must be the fast one's
                    with pytest.raises(type(err)):
                        print_ir(module, style=style, print_debuginfo=debuginfo)
                    continue
            fast = print_ir(module, style=style, print_debuginfo=debuginfo)
            assert fast == slow, f"style {style}"
    return 1


@pytest.mark.parametrize("path", LIT_INPUTS, ids=lambda p: str(p.relative_to(ROOT / "tests/filecheck")))
def test_lit_inputs_print_identically(path: Path):
    for module in _modules(path.read_text()):
        _assert_same_everywhere(module)


def test_model_and_generated_module_print_identically():
    _assert_same_everywhere(next(_modules((ROOT / "examples/face_detection_front.tosa.mlir").read_text())))
    for style in ("keyword", "attr-dict", "generic"):
        _assert_same_everywhere(next(_modules(bench.generate(300, style))))


def test_names_and_forward_references_match():
    # name hints with collisions, unnamed values, a use before its definition (graph
    # region: ops directly in a module)
    text = """
"test.op"() ({
  %a = "tosa.add"(%b, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %0 = tosa.negate %a : (tensor<2xf32>) -> tensor<2xf32>
  %1 = tosa.negate %0 : (tensor<2xf32>) -> tensor<2xf32>
  %a_1 = tosa.negate %1 : (tensor<2xf32>) -> tensor<2xf32>
  "test.termop"() : () -> ()
}) : () -> ()
"""
    from xdsl.context import Context

    ctx = make_context()
    ctx.allow_unregistered = True
    assert isinstance(ctx, Context)
    module = Parser(ctx, text).parse_module()
    _assert_same_everywhere(module)
