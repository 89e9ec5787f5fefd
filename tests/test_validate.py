"""tosa-validate / tosa-attach-target: unit tests and an agreement suite against the tosa-tools
translator's own validation (`tosa-opt --tosa-attach-target=... --tosa-validate`).

Each generated case is a small graph that is valid, or that breaks exactly one LEVEL_CHECK /
profile-extension rule / compile-time-constant rule for its target. Our verdict (errors or
not) must equal the translator's. The translator checks profiles/extensions only with
`strict-op-spec-alignment`, so it is run with that option (it then also runs its own ERROR_IF
checks, which the cases satisfy). Cases where the translator disagrees with the spec are in
KNOWN_TRANSLATOR_DIFFERENCES with the reason, and checked to still differ that way.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from oracle import TRANSLATOR

from tosa_xdsl import spec_tables
from tosa_xdsl.context import make_context
from tosa_xdsl.diagnostics import Severity, capture_diagnostics
from tosa_xdsl.passes import TosaAttachTargetPass, TosaValidatePass
from tosa_xdsl.validation import levels
from tosa_xdsl.validation.target import Target, check_names, cooperating_profiles

ROOT = Path(__file__).resolve().parents[1]

# ------------------------------------------------------------------------------- running


def parse(text: str):
    from xdsl.parser import Parser

    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def ours(text: str, target: Target):
    """(errors, warnings) of our tosa-validate for `target`."""
    module = parse(text)
    opts = TosaValidatePass(profile=target.profiles, extension=target.extensions,
                            level=target.level)
    with capture_diagnostics() as diags:
        opts.apply(None, module)
    errors = [d.message for d in diags if d.severity is Severity.ERROR]
    warnings = [d.message for d in diags if d.severity is Severity.WARNING]
    return errors, warnings


def translator(text: str, target: Target, strict: bool = True) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory(prefix="tosa-validate-") as tmp:
        src = Path(tmp) / "in.mlir"
        src.write_text(text)
        spec = f"profiles={','.join(target.profiles)} level={target.level}"
        if target.extensions:
            spec += f" extensions={','.join(target.extensions)}"
        validate = "--tosa-validate=strict-op-spec-alignment" if strict else "--tosa-validate"
        p = subprocess.run([str(TRANSLATOR), str(src), f"--tosa-attach-target={spec}", validate,
                            "-o", os.devnull], capture_output=True, text=True, timeout=60)
        assert p.returncode in (0, 1), p.stderr
        return p.returncode == 0, p.stderr


# -------------------------------------------------------------------------------- cases

BOTH = Target()


@dataclass
class Case:
    name: str
    mlir: str
    target: Target = BOTH
    error: str | None = None  # substring of our expected error; None: valid
    tags: tuple[str, ...] = field(default=())


def _zp(name: str, t: str, value: int | float = 0) -> str:
    v = value if "i" in t else float(value)
    return f'    %{name} = "tosa.const"() {{values = dense<{v}> : tensor<1x{t}>}} : () -> tensor<1x{t}>\n'


def _func(args: str, result: str, body: str, ret: str = "%r") -> str:
    return (f"func.func @main({args}) -> {result} {{\n{body}"
            f"    return {ret} : {result}\n}}\n")


def conv2d(ih=16, iw=16, kh=1, kw=1, stride=(1, 1), dilation=(1, 1), pad=(0, 0, 0, 0),
           in_t="i8", w_t="i8", acc="i32", zp_const=True) -> str:
    oh = (ih - 1 + pad[0] + pad[1] - (kh - 1) * dilation[0]) // stride[0] + 1
    ow = (iw - 1 + pad[2] + pad[3] - (kw - 1) * dilation[1]) // stride[1] + 1
    out_t = {"i8": "i32", "i16": "i48", "f32": "f32", "f16": "f16", "bf16": "bf16"}[in_t]
    if in_t == "i8" and w_t == "i4":
        out_t = "i32"
    it, wt = f"tensor<1x{ih}x{iw}x2x{in_t}>", f"tensor<3x{kh}x{kw}x2x{w_t}>"
    bt, ot = f"tensor<3x{out_t}>", f"tensor<1x{oh}x{ow}x3x{out_t}>"
    args = f"%x: {it}, %w: {wt}, %b: {bt}"
    body = _zp("wzp", w_t)
    if zp_const:
        body += _zp("izp", in_t)
    else:
        args += f", %izp: tensor<1x{in_t}>"
    body += (f"    %r = tosa.conv2d %x, %w, %b, %izp, %wzp {{acc_type = {acc}, "
             f"dilation = array<i64: {dilation[0]}, {dilation[1]}>, "
             f"pad = array<i64: {', '.join(map(str, pad))}>, "
             f"stride = array<i64: {stride[0]}, {stride[1]}>}} : ({it}, {wt}, {bt}, "
             f"tensor<1x{in_t}>, tensor<1x{w_t}>) -> {ot}\n")
    return _func(args, ot, body)


def pool(op="max_pool2d", ih=16, iw=16, kernel=(1, 1), stride=(1, 1), pad=(0, 0, 0, 0),
         t="f32") -> str:
    oh = (ih + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (iw + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    it, ot = f"tensor<1x{ih}x{iw}x1x{t}>", f"tensor<1x{oh}x{ow}x1x{t}>"
    attrs = (f"kernel = array<i64: {kernel[0]}, {kernel[1]}>, "
             f"pad = array<i64: {', '.join(map(str, pad))}>, "
             f"stride = array<i64: {stride[0]}, {stride[1]}>")
    if op == "avg_pool2d":
        acc = "f32" if t.startswith("f") else "i32"
        body = _zp("izp", t) + _zp("ozp", t)
        body += (f"    %r = tosa.avg_pool2d %x, %izp, %ozp {{acc_type = {acc}, {attrs}}} : "
                 f"({it}, tensor<1x{t}>, tensor<1x{t}>) -> {ot}\n")
    else:
        body = f"    %r = tosa.max_pool2d %x {{{attrs}}} : ({it}) -> {ot}\n"
    return _func(f"%x: {it}", ot, body)


def transpose_conv(kh=1, out_pad=(0, 0, 0, 0), stride=(1, 1)) -> str:
    ih = iw = 4
    oh = (ih - 1) * stride[0] + out_pad[0] + out_pad[1] + kh
    ow = (iw - 1) * stride[1] + out_pad[2] + out_pad[3] + 1
    it, wt, ot = "tensor<1x4x4x2xf32>", f"tensor<3x{kh}x1x2xf32>", f"tensor<1x{oh}x{ow}x3xf32>"
    body = _zp("izp", "f32") + _zp("wzp", "f32")
    body += (f"    %r = tosa.transpose_conv2d %x, %w, %b, %izp, %wzp {{acc_type = f32, "
             f"out_pad = array<i64: {', '.join(map(str, out_pad))}>, "
             f"stride = array<i64: {stride[0]}, {stride[1]}>}} : ({it}, {wt}, tensor<3xf32>, "
             f"tensor<1xf32>, tensor<1xf32>) -> {ot}\n")
    return _func(f"%x: {it}, %w: {wt}, %b: tensor<3xf32>", ot, body)


def rfft(h=8, w=8) -> str:
    it, ot = f"tensor<1x{h}x{w}xf32>", f"tensor<1x{h}x{w // 2 + 1}xf32>"
    body = f"    %r, %i = tosa.rfft2d %x : ({it}) -> ({ot}, {ot})\n"
    return _func(f"%x: {it}", ot, body)


def resize(scale=(2, 1, 2, 1)) -> str:
    it, ot = "tensor<1x1x1x1xf32>", "tensor<1x1x1x1xf32>"
    body = (f"    %s = tosa.const_shape {{values = dense<[{', '.join(map(str, scale))}]> : "
            "tensor<4xindex>} : () -> !tosa.shape<4>\n"
            "    %o = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>\n"
            "    %r = tosa.resize %x, %s, %o, %o {mode = NEAREST_NEIGHBOR} : "
            f"({it}, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> {ot}\n")
    return _func(f"%x: {it}", ot, body)


def elementwise(op="add", shape=(2, 3), t="f32") -> str:
    tt = f"tensor<{'x'.join(map(str, shape))}x{t}>" if shape else f"tensor<{t}>"
    body = f"    %r = tosa.{op} %a, %b : ({tt}, {tt}) -> {tt}\n"
    return _func(f"%a: {tt}, %b: {tt}", tt, body)


def concat(n=2) -> str:
    tt = "tensor<1xf32>"
    args = ", ".join(f"%a{i}: {tt}" for i in range(n))
    ins = ", ".join(f"%a{i}" for i in range(n))
    ot = f"tensor<{n}xf32>"
    body = f"    %r = tosa.concat {ins} {{axis = 0 : i32}} : ({', '.join([tt] * n)}) -> {ot}\n"
    return _func(args, ot, body)


def rescale(rounding="SINGLE_ROUND", mult_const=True) -> str:
    args = "%x: tensor<4xi8>"
    body = _zp("zi", "i8") + _zp("zo", "i8") + \
        '    %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>\n'
    if mult_const:
        body += '    %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>\n'
    else:
        args += ", %m: tensor<1xi32>"
    body += (f"    %r = tosa.rescale %x, %m, %s, %zi, %zo {{input_unsigned = false, "
             f"output_unsigned = false, per_channel = false, rounding_mode = {rounding}, "
             "scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, "
             "tensor<1xi8>) -> tensor<4xi8>\n")
    return _func(args, "tensor<4xi8>", body)


def reshape(const=True) -> str:
    args, body = "%x: tensor<6xf32>", ""
    if const:
        body += ("    %s = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> "
                 "!tosa.shape<2>\n")
    else:
        args += ", %s: !tosa.shape<2>"
    body += "    %r = tosa.reshape %x, %s : (tensor<6xf32>, !tosa.shape<2>) -> tensor<2x3xf32>\n"
    return _func(args, "tensor<2x3xf32>", body)


def mul(shift_const=True, t="i32") -> str:
    tt = f"tensor<4x{t}>"
    args, body = f"%a: {tt}, %b: {tt}", ""
    if shift_const:
        body += '    %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>\n'
    else:
        args += ", %s: tensor<1xi8>"
    body += f"    %r = tosa.mul %a, %b, %s : ({tt}, {tt}, tensor<1xi8>) -> {tt}\n"
    return _func(args, tt, body)


def nested_if(depth: int) -> str:
    """`depth` COND_IFs nested in each other's then-branch; regions isolated from above (the
    condition and value are passed down through the input lists)."""
    tt, bt = "tensor<f32>", "tensor<i1>"

    def level(n: int, c: str, v: str, indent: str) -> str:
        cn, vn = f"%c{n}", f"%v{n}"
        head = (f"{indent}%r{n} = tosa.cond_if {c} ({cn} = {c}, {vn} = {v}) : {bt} ({bt}, {tt}) "
                f"-> {tt} {{\n{indent}^bb0({cn}: {bt}, {vn}: {tt}):\n")
        if n == depth:
            then = f"{indent}  tosa.yield {vn} : {tt}\n"
        else:
            then = level(n + 1, cn, vn, indent + "  ") + f"{indent}  tosa.yield %r{n + 1} : {tt}\n"
        return (head + then + f"{indent}}} else {{\n{indent}^bb0({cn}: {bt}, {vn}: {tt}):\n"
                f"{indent}  tosa.yield {vn} : {tt}\n{indent}}}\n")

    body = level(1, "%c", "%v", "    ")
    return _func(f"%c: {bt}, %v: {tt}", tt, body, ret="%r1")


CF = Target(extensions=("controlflow",))
INT16 = Target(extensions=("int16",))

CASES = [
    # --- levels
    Case("conv_valid", conv2d()),
    Case("conv_stride_y", conv2d(ih=9001, stride=(9000, 1)),
         error="failed level check: stride_y <= MAX_STRIDE (8192), got 9000"),
    Case("conv_stride_x", conv2d(iw=8194, stride=(1, 8193)),
         error="failed level check: stride_x <= MAX_STRIDE (8192), got 8193"),
    Case("conv_dilation_kh", conv2d(ih=8194 + 2, kh=2, dilation=(8194, 1)),
         error="failed level check: dilation_y * KH <= MAX_KERNEL (8192), got 16388"),
    Case("conv_pad_top", conv2d(pad=(8193, 0, 0, 0)),
         error="failed level check: pad_top <= MAX_KERNEL (8192), got 8193"),
    Case("conv_pad_right_level_none", conv2d(pad=(0, 0, 0, 8193)),
         Target(level="none")),
    Case("maxpool_kernel", pool(kernel=(8193, 1), ih=8193),
         error="failed level check: kernel_y <= MAX_KERNEL (8192), got 8193"),
    Case("maxpool_pad", pool(kernel=(2, 8194), iw=8194, pad=(0, 0, 0, 8193)),
         error="failed level check: pad_right <= MAX_KERNEL (8192), got 8193"),
    Case("avgpool_stride", pool("avg_pool2d", ih=8194, stride=(8193, 1)),
         error="failed level check: stride_y <= MAX_STRIDE (8192), got 8193"),
    Case("avgpool_valid", pool("avg_pool2d", kernel=(2, 2), stride=(2, 2))),
    Case("tconv_kh", transpose_conv(kh=8193),
         error="failed level check: KH <= MAX_KERNEL (8192), got 8193"),
    Case("tconv_out_pad", transpose_conv(out_pad=(0, 8193, 0, 0)),
         error="failed level check: out_pad_bottom <= MAX_KERNEL (8192), got 8193"),
    Case("tconv_stride", transpose_conv(stride=(1, 8193)),
         error="failed level check: stride_x <= MAX_STRIDE (8192), got 8193"),
    Case("rfft_h", rfft(h=16384, w=2), Target(extensions=("fft",)),
         error="failed level check: H <= MAX_KERNEL (8192), got 16384"),
    Case("rfft_valid", rfft(), Target(extensions=("fft",))),
    Case("resize_scale", resize((257, 1, 2, 1)),
         error="failed level check: scale_y_n/scale_y_d <= MAX_SCALE (256), got 257"),
    Case("resize_scale_ok", resize((512, 2, 2, 1))),
    Case("rank_7", elementwise(shape=(1, 1, 1, 1, 1, 1, 2)),
         error="failed level check: rank(input1) <= MAX_RANK (6), got 7"),
    Case("rank_6", elementwise(shape=(1, 1, 1, 1, 1, 2))),
    Case("rank_7_level_none", elementwise(shape=(1, 1, 1, 1, 1, 1, 2)), Target(level="none")),
    Case("size_2gb", elementwise("bitwise_and", shape=(65536, 32768), t="i8"),
         error="failed level check: tensor size (in bytes) of input1 <= (1 << MAX_LOG2_SIZE) - 1"
               " (2147483647), got 2147483648"),
    Case("size_just_below", elementwise("bitwise_and", shape=(65535, 32768), t="i8")),
    Case("size_i32", elementwise(shape=(16384, 32768), t="i32"),
         error="got 2147483648"),
    Case("concat_65", concat(65),
         error="failed level check: tensor_list_shape(input1) <= MAX_TENSOR_LIST_SIZE (64), got 65"),
    Case("concat_64", concat(64)),
    Case("nesting_6", nested_if(6), CF),
    Case("nesting_7", nested_if(7), CF,
         error="failed level check: tosa_nesting_depth < MAX_NESTING (6), got 6"),
    # --- profiles / extensions
    Case("conv_i16_no_ext", conv2d(in_t="i16", acc="i48"),
         error="type combination (i16, i8, i48, i48) requires extension int16 "
               "(enabled: pro_int, pro_fp)"),
    Case("conv_i16_ext", conv2d(in_t="i16", acc="i48"), INT16),
    Case("conv_i4_no_ext", conv2d(w_t="i4"), error="requires extension int4"),
    Case("conv_f32_int_only", conv2d(in_t="f32", w_t="f32", acc="f32"), Target(profiles=("pro_int",)),
         error="requires profile pro_fp (enabled: pro_int)"),
    Case("conv_i8_fp_only", conv2d(), Target(profiles=("pro_fp",)),
         error="requires profile pro_int (enabled: pro_fp)"),
    Case("conv_bf16", conv2d(in_t="bf16", w_t="bf16", acc="f32"),
         error="requires extension bf16"),
    Case("conv_bf16_ext", conv2d(in_t="bf16", w_t="bf16", acc="f32"), Target(extensions=("bf16",))),
    Case("bitwise_and_i16_int_profile", elementwise("bitwise_and", t="i16"), Target(profiles=("pro_int",))),
    Case("rfft_no_fft", rfft(), error="requires extension fft"),
    Case("cond_if_no_controlflow", nested_if(1), error="requires extension controlflow"),
    Case("rescale_double_round", rescale("DOUBLE_ROUND"),
         error="rounding_mode DOUBLE_ROUND requires extension doubleround"),
    Case("rescale_double_round_ext", rescale("DOUBLE_ROUND"), Target(extensions=("doubleround",))),
    Case("rescale_inexact_round", rescale("INEXACT_ROUND"),
         error="rounding_mode INEXACT_ROUND requires extension inexactround"),
    # --- compile-time constants
    Case("conv_zp_variable", conv2d(zp_const=False),
         error="expected compile time resolvable constant, but got variable value for operand #3"),
    Case("conv_zp_variable_dynamic", conv2d(zp_const=False), Target(extensions=("dynamic",))),
    Case("reshape_shape_variable", reshape(const=False), error="operand #1 (shape"),
    Case("reshape_valid", reshape()),
    Case("mul_shift_variable", mul(shift_const=False), error="operand #2 (shift"),
    Case("rescale_multiplier_variable", rescale(mult_const=False), error="operand #1 (multiplier"),
    Case("rescale_multiplier_variable_fp_only", rescale(mult_const=False),
         Target(profiles=("pro_fp",)), error="requires profile pro_int"),
]

# Cases where the translator (LLVM 24 tosa-opt of tosa-tools) disagrees with the spec:
# name -> (translator accepts?, why we follow the spec instead).
KNOWN_TRANSLATOR_DIFFERENCES: dict[str, tuple[bool, str]] = {
    "nesting_6": (False, "spec 2.16.1: tosa_nesting_depth starts at 0 for the top graph and "
                  "COND_IF checks ERROR_IF(tosa_nesting_depth >= MAX_NESTING) before "
                  "incrementing, so 6 nested COND_IFs are legal at level 8K (the innermost runs "
                  "at depth 5); the translator counts the op itself and rejects them with "
                  "'tosa_nesting_depth < MAX_NESTING (6), got 6'"),
}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case_ours(case: Case):
    errors, _ = ours(case.mlir, case.target)
    if case.error is None:
        assert errors == [], errors
    else:
        assert any(case.error in e for e in errors), errors


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case_agrees_with_translator(case: Case):
    if not TRANSLATOR.exists():
        pytest.skip("tosa-tools translator not installed")
    ok, stderr = translator(case.mlir, case.target)
    if case.name in KNOWN_TRANSLATOR_DIFFERENCES:
        expected_ok, _why = KNOWN_TRANSLATOR_DIFFERENCES[case.name]
        assert ok == expected_ok, stderr
        return
    assert ok == (case.error is None), stderr


# ------------------------------------------------------------------------- other behaviour


def test_example_model_validates_at_8k():
    """The bundled model's PAD takes a !tosa.shape<8>: a shape value's length is no rank
    (MLIR 22 wrongly says "'!tosa.shape<8>' exceeds MAX_RANK")."""
    text = (ROOT / "examples/face_detection_front.tosa.mlir").read_text()
    errors, warnings = ours(text, Target(level="8k"))
    assert errors == [] and warnings == []


def test_every_level_check_is_known():
    checks = levels.level_checks()
    assert len(checks) == sum(len(o.level_checks) for o in spec_tables.ops())
    kinds = {c.kind for c in checks}
    assert kinds == {"expression", "rank", "list"}
    for c in checks:
        if c.kind == "expression":
            # every name of the statement is bound by the op's environment
            names = {n.id for n in __import__("ast").walk(c.expr)
                     if isinstance(n, __import__("ast").Name)}
            assert c.op in levels._ENVIRONMENTS, c.id
            assert names, c.id


def test_cooperation_from_spec():
    assert cooperating_profiles("int16") == ("pro_int",)
    assert cooperating_profiles("bf16") == ("pro_fp",)
    assert set(cooperating_profiles("variable")) == {"pro_int", "pro_fp"}
    assert check_names(["pro_fp"], ["int16"], "8k") == [
        "use of extension 'int16' requires any of profiles: [pro_int] to be enabled in the target"]
    assert check_names(["pro_int"], ["int16", "doubleround"], "none") == []


def test_attach_target_writes_env():
    from xdsl.passes import PassPipeline

    from tosa_xdsl.pass_registry import all_passes

    module = parse(conv2d())
    spec = ("tosa-attach-target{specification_version=1.0 level=none profiles=pro_int,pro_fp "
            "extensions=int16,doubleround}")
    PassPipeline.parse_spec(all_passes(), spec).apply(make_context(), module)
    env = module.attributes["tosa.target_env"]
    assert str(env) == ('#tosa.target_env<specification_version = "1.0", level = none, '
                        'profiles = [pro_int, pro_fp], extensions = [int16, doubleround]>')


def test_attach_target_rejects_extension_without_profile():
    from tosa_xdsl.diagnostics import LocatedError

    module = parse(conv2d())
    with pytest.raises(LocatedError, match="use of extension 'bf16' requires any of profiles: "
                                           r"\[pro_fp\]"):
        TosaAttachTargetPass(profiles=("pro_int",), extensions=("bf16",)).apply(None, module)


def test_validate_reads_target_env_and_options_override():
    module = parse(conv2d(in_t="i16", acc="i48"))
    TosaAttachTargetPass(profiles=("pro_int", "pro_fp"), extensions=("int16",)).apply(None, module)
    with capture_diagnostics() as diags:
        TosaValidatePass().apply(None, module)
    assert diags == []
    with capture_diagnostics() as diags:  # the older inline options override the env
        TosaValidatePass(extension=("doubleround",)).apply(None, module)
    assert [d.message for d in diags] == [
        "'tosa.conv2d' op type combination (i16, i8, i48, i48) requires extension int16 "
        "(enabled: pro_int, pro_fp, doubleround)"]


def test_pipeline_spellings():
    from xdsl.passes import PassPipeline

    from tosa_xdsl.pass_registry import all_passes

    passes = all_passes()
    (p,) = PassPipeline.parse_spec(passes, "tosa-validate{profile=pro_int extension=int16 "
                                           "level=none}").passes
    assert p.profile == "pro_int" and p.extension == "int16" and p.level == "none"
    (p,) = PassPipeline.parse_spec(passes, "tosa-validate{profile=bi,mi}").passes
    assert p.target(parse(conv2d()))[0].profiles == ("pro_int", "pro_fp")
    with pytest.raises(BaseException):  # comma-separated options: xDSL's parser refuses them
        PassPipeline.parse_spec(passes, "tosa-attach-target{level=none,profiles=pro_int}")


def test_requires_are_warnings():
    text = _func("%a: tensor<4xi32>", "tensor<4xi32>",
                 '    %z = "tosa.const"() {values = dense<[1, 0, 2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>\n'
                 "    %r = tosa.intdiv %a, %z : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>\n")
    errors, warnings = ours(text, BOTH)
    assert errors == []
    assert any("REQUIRE(value2 != 0)" in w for w in warnings)
