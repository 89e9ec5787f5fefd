"""mlir-opt's command-line spellings that upstream's RUN lines use, read by tosa-opt
(docs/upstream-tests.md). Expected values follow MLIR's pass-pipeline grammar and its
command-line parser for boolean options (a bare flag is true, 1/0 are true/false)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tosa_xdsl.driver import (
    Driver,
    DriverOptions,
    build_pipeline,
    mlir_pipeline_to_spec,
)
from tosa_xdsl.tools.tosa_opt import CommandLineError, parse_command_line


@pytest.mark.parametrize("pipeline, spec", [
    ("builtin.module(func.func(tosa-to-linalg))", "tosa-to-linalg"),
    ("builtin.module(func.func(tosa-to-linalg-named,cse))", "tosa-to-linalg-named,cse"),
    ("builtin.module(func.func(tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true}))",
     "tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true}"),
    ("builtin.module(tosa-attach-target{profiles=pro_int,pro_fp level=none}, any(canonicalize))",
     "tosa-attach-target{profiles=pro_int,pro_fp level=none},canonicalize"),
])
def test_pass_pipeline_anchors_dropped(pipeline, spec):
    assert mlir_pipeline_to_spec(pipeline) == spec


def test_pass_flags_in_order_with_options():
    args, spec = parse_command_line(["-split-input-file", "-verify-diagnostics", "x.mlir",
                                     '-tosa-attach-target=profiles=pro_int extensions=int16',
                                     "-tosa-validate=strict-op-spec-alignment",
                                     "--canonicalize"])
    assert args.split_input_file and args.verify_diagnostics and args.input_file == "x.mlir"
    assert spec == ("tosa-attach-target{profiles=pro_int extensions=int16},"
                    "tosa-validate{strict-op-spec-alignment},canonicalize")
    attach, validate, canon = build_pipeline(spec)
    assert attach.extensions == "int16" and validate.strict_op_spec_alignment is True
    assert canon.test_convergence is False and canon.max_iterations == 10


@pytest.mark.parametrize("options, expected", [
    ("test-convergence", (True, 10)),
    ("test-convergence=1 max-iterations=1", (True, 1)),
    ("test-convergence=0", (False, 10)),
    ("max-iterations=-1", (False, -1)),
])
def test_bool_option_spellings(options, expected):
    (canon,) = build_pipeline(f"canonicalize{{{options}}}")
    assert (canon.test_convergence, canon.max_iterations) == expected


def test_list_items_quoted_for_xdsl():
    (p,) = build_pipeline("tosa-experimental-input-shape{args=arg0:2x16,arg2:64x9}")
    assert tuple(p.args) == ("arg0:2x16", "arg2:64x9")


@pytest.mark.parametrize("pipeline", ["builtin.module(func.func(canonicalize)", "cse)(", "a{b=1"])
def test_unbalanced_pass_pipeline_is_a_usage_error(pipeline):
    with pytest.raises(CommandLineError, match="invalid pass pipeline"):
        parse_command_line(["x.mlir", f"--pass-pipeline={pipeline}"])


def test_pipeline_and_pass_flags_not_mixed():
    with pytest.raises(CommandLineError):
        parse_command_line(["x.mlir", "--pass-pipeline=builtin.module(cse)", "-canonicalize"])


def test_make_broadcastable_first_reads_lower_rank_python_api():
    from tosa_xdsl.context import make_context

    text = """func.func @f(%a: tensor<2x3xi32>, %b: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = tosa.add %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
"""
    diags = []
    driver = Driver(make_context(), DriverOptions(), diags.append)
    assert driver.load("f.mlir", text, build_pipeline("canonicalize")) is None
    assert "same rank" in diags[0].message
    diags.clear()
    module = Driver(make_context(), DriverOptions(), diags.append).load(
        "f.mlir", text, build_pipeline("tosa-make-broadcastable"))
    assert module is not None and not diags
    add = next(op for op in module.walk() if op.name == "tosa.add")
    assert str(add.operands[1].type) == "tensor<1x3xi32>"


def _rate_script():
    path = Path(__file__).parents[1] / "fixtures" / "upstream_tosa_rate.py"
    spec = importlib.util.spec_from_file_location("upstream_tosa_rate", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_rate_script_reads_run_lines():
    rate = _rate_script()
    text = ('// DEFINE: %{target} = level=none \\\n// DEFINE:    extensions=int16,int4\n'
            '// RUN: mlir-opt %s -split-input-file -tosa-attach-target="%{target}" \\\n'
            '// RUN:   | FileCheck %s\n'
            '// RUN: not mlir-opt %s -canonicalize 2>&1 | FileCheck %s\n'
            '// RUN: iree-opt %s\n')
    runs = rate.run_lines(text)
    assert [r.argv for r in runs] == [["-split-input-file", "-tosa-attach-target=level=none extensions=int16,int4"],
                                      ["-canonicalize"]]


def test_fuzz_mlir_opt_flags_never_crash():
    """Seeded, time-bounded: mutated mlir-opt flags (truncated, characters flipped, deleted,
    duplicated, huge numbers) are either read or a usage error, never another exception."""
    import random
    import time

    from tosa_xdsl.driver import PipelineError

    seeds = ['--pass-pipeline=builtin.module(func.func(tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true},cse))',
             '-canonicalize=test-convergence max-iterations=3',
             '-tosa-attach-target=specification_version=1.1.draft profiles=pro_int,pro_fp extensions=int16,shape level=none',
             '-tosa-validate=strict-op-spec-alignment validate-function-signature',
             '-tosa-experimental-input-shape=args=arg0:2x16,arg2:64x9',
             '-tosa-narrow-i64-to-i32=convert-function-boundaries=1 aggressive-rewrite=0']
    rng = random.Random(18)
    alphabet = '(){},= "\'-_.:x019azA'
    deadline = time.monotonic() + 3.0
    cases = 0
    while time.monotonic() < deadline and cases < 3000:
        flag = list(rng.choice(seeds))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(flag) + 1)
            kind = rng.randrange(5)
            if kind == 0:
                flag = flag[:i]
            elif kind == 1 and i < len(flag):
                flag[i] = rng.choice(alphabet)
            elif kind == 2 and i < len(flag):
                del flag[i]
            elif kind == 3:
                flag.insert(i, rng.choice(alphabet))
            else:
                flag[i:i] = list(str(10 ** rng.randint(5, 40)))
        text = "".join(flag)
        cases += 1
        try:
            _, spec = parse_command_line(["x.mlir", text])
            build_pipeline(spec)
        except (CommandLineError, PipelineError):
            pass
    assert cases > 100
