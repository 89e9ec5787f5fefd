"""The one shape rule per operator (tosa_xdsl/dialects/tosa/shapes.py) against independent
shapes:
- the operator corpus (tests/filecheck/dialect), whose every snippet iree-opt and MLIR 22's
  verifiers accept (tests/test_interop.py): the rule, applied to the declared operand types,
  must give the declared result shape wherever both are known;
- the interpreter's actual results on the reference model's example graph: the rule applied to
  the actual input shapes gives the shape numpy computed;
- a result dim changed by one is a conflict the rule reports.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.dialects.tosa import shapes
from tosa_xdsl.dialects.tosa.ops import SPEC_OPS
from tosa_xdsl.dialects.tosa.ops.base import TosaOp
from tosa_xdsl.ir.access import shape_of
from tosa_xdsl.verification.constants import const_shape_values as _values

CORPUS_DIR = Path(__file__).parents[1] / "filecheck" / "dialect"
MODEL = Path(__file__).parents[2] / "examples" / "face_detection_front.tosa.mlir"
SPLIT = "// -----"

# Operators without a shape rule: their results are what their regions / declaration say.
NO_RULE = {"CONST", "CONST_SHAPE", "CUSTOM", "COND_IF", "WHILE_LOOP", "VARIABLE",
           "VARIABLE_WRITE", "VARIABLE_READ"}


def _corpus_ops() -> list[TosaOp]:
    ops = []
    for path in sorted(CORPUS_DIR.glob("*.mlir")):
        if path.name.startswith("invalid"):
            continue
        for chunk in path.read_text().split(SPLIT):
            if "func.func" not in chunk:
                continue
            module = Parser(make_context(), chunk).parse_module()
            ops += [op for op in module.walk() if isinstance(op, TosaOp)]
    return ops


CORPUS_OPS = _corpus_ops()


def test_every_operator_with_results_has_a_rule():
    seen = {type(op).SPEC_NAME for op in CORPUS_OPS
            if shapes.result_shapes(op, shape_of, _values) is not None}
    expected = {c.SPEC_NAME for c in SPEC_OPS} - NO_RULE
    assert expected <= seen, sorted(expected - seen)


@pytest.mark.parametrize("op", CORPUS_OPS, ids=lambda op: op.name)
def test_rule_gives_the_declared_result_shapes(op):
    inferred = shapes.result_shapes(op, shape_of, _values)
    if inferred is None:
        return
    for result, rule in zip(op.results, inferred):
        declared = shape_of(result.type)
        if rule is None or declared is None:
            continue
        assert shapes.merge(declared, rule) == declared, (op.name, declared, rule)
        fully_known = [d for d in rule if d != shapes.DYN]
        if len(fully_known) == len(rule):
            assert rule == declared


def test_a_changed_result_dim_conflicts():
    changed = 0
    for op in CORPUS_OPS:
        inferred = shapes.result_shapes(op, shape_of, _values)
        if not inferred or inferred[0] is None or not inferred[0] or shapes.DYN in inferred[0]:
            continue
        wrong = (inferred[0][0] + 1, *inferred[0][1:])
        with pytest.raises(shapes.ShapeConflict):
            shapes.merge(wrong, inferred[0])
        changed += 1
    assert changed > 40


def test_rule_matches_the_interpreters_actual_shapes(monkeypatch):
    """Every op of the example model: the rule on the actual operand shapes of a run equals the
    shape the interpreter produced."""
    from tosa_xdsl.interpreter import run
    from tosa_xdsl.interpreter.runner import TosaInterpreter

    seen: list[tuple] = []
    original = TosaInterpreter._run_op

    def recording(self, op, inputs):
        result = original(self, op, inputs)
        seen.append((op, [np.shape(i) for i in inputs], [np.shape(v) for v in result.values]))
        return result

    monkeypatch.setattr(TosaInterpreter, "_run_op", recording)
    module = Parser(make_context(), MODEL.read_text()).parse_module()
    run(module, [np.load(MODEL.parent / "face_detection_front.input_0.npy")])
    checked = 0
    for op, ins, outs in seen:
        if not isinstance(op, TosaOp) or type(op).SPEC_NAME in NO_RULE:
            continue
        actual = dict(zip(op.operands, ins))
        inferred = shapes.result_shapes(op, lambda v: tuple(actual[v]), _values)
        assert inferred is not None and inferred == outs, (op.name, inferred, outs)
        checked += 1
    assert checked > 100


def test_dynamic_dims_stay_unknown():
    text = """func.func @f(%a: tensor<?x3xf32>, %b: tensor<1x3xf32>) -> tensor<?x3xf32> {
      %0 = tosa.add %a, %b : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
      return %0 : tensor<?x3xf32>
    }"""
    module = Parser(make_context(), text).parse_module()
    add = next(op for op in module.walk() if op.name == "tosa.add")
    assert shapes.result_shapes(add, shape_of, _values) == [(shapes.DYN, 3)]
    # at run time the same rule sees the actual sizes
    assert shapes.result_shapes(add, lambda v: (5, 3) if v is add.input1 else (1, 3), _values) \
        == [(5, 3)]


def test_rfft2d_expression_from_the_arguments_table():
    text = """func.func @f(%x: tensor<2x8x16xf32>) -> (tensor<2x8x9xf32>, tensor<2x8x9xf32>) {
      %0, %1 = tosa.rfft2d %x : (tensor<2x8x16xf32>) -> (tensor<2x8x9xf32>, tensor<2x8x9xf32>)
      return %0, %1 : tensor<2x8x9xf32>, tensor<2x8x9xf32>
    }"""
    op = next(o for o in Parser(make_context(), text).parse_module().walk() if o.name == "tosa.rfft2d")
    # [N,H,W/2+1] with W = 16 (spec 2.3.9's Arguments table)
    assert shapes.result_shapes(op, shape_of, _values) == [(2, 8, 9), (2, 8, 9)]
    assert re.fullmatch(r"\[N,H,W/2\+1\]", dict(shapes.arguments(type(op)))["output_real"])
