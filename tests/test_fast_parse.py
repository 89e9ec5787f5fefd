"""The TOSA fast parse paths (tosa_xdsl.dialects.tosa.fast_parse) read exactly what the token-level path
reads: the same IR (compared as printed generic IR), and for bad input the same error
(message and line/column). No timings here: speed is bench/parse.py's business."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xdsl.parser import Parser

from tosa_xdsl import xdsl_patches
from tosa_xdsl.dialects.tosa import fast_parse
from tosa_xdsl.printing import print_ir

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import parse as bench  # noqa: E402  (bench/parse.py: the generated module)


def _context():
    return bench.make_context()


def _parse(text: str, fast: bool):
    """(generic IR, None) or (None, (exception type, message))."""
    ctx = _context()
    with fast_parse.enabled(fast):
        try:
            module = Parser(ctx, text, "input.mlir").parse_module()
        except Exception as err:  # noqa: BLE001 - compared between the two paths
            return None, (type(err).__name__, str(err))
    return print_ir(module, style="generic"), None


def assert_same(text: str) -> str | None:
    fast = _parse(text, True)
    slow = _parse(text, False)
    assert fast == slow
    return fast[0]


class _Counter:
    """Counts the ops the fast path built (rather than handed back to the token path):
    `built` by try_parse_tosa_op (the op's text after its name), `lines` by parse_line
    (the whole `%r = tosa.xxx ...` line, from the block loop)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.built = 0
        self.declined = 0
        self.lines = 0
        self.line_calls = 0
        original = fast_parse.try_parse_tosa_op
        original_line = fast_parse.parse_line

        def counting_line(parser):
            self.line_calls += 1
            op = original_line(parser)
            if op is not None:
                self.lines += 1
            return op

        monkeypatch.setattr(fast_parse, "parse_line", counting_line)

        def counting(cls, parser, clauses):
            op = original(cls, parser, clauses)
            if op is None:
                self.declined += 1
            else:
                self.built += 1
            return op

        monkeypatch.setattr(fast_parse, "try_parse_tosa_op", counting)


# ------------------------------------------------------------------------ whole modules


def test_example_model():
    text = (ROOT / "examples" / "face_detection_front.tosa.mlir").read_text()
    assert assert_same(text) is not None


@pytest.mark.parametrize("style", ["keyword", "attr-dict", "generic"])
def test_generated_module(style: str):
    assert assert_same(bench.generate(400, style)) is not None


def test_generated_styles_agree():
    """The three spellings of the generated module are the same IR."""
    printed = {style: _parse(bench.generate(100, style), True)[0] for style in ("keyword", "attr-dict", "generic")}
    assert printed["keyword"] == printed["attr-dict"] == printed["generic"]


@pytest.mark.parametrize("style", ["keyword", "attr-dict"])
def test_fast_path_is_taken(style: str, monkeypatch: pytest.MonkeyPatch):
    counter = _Counter(monkeypatch)
    _parse(bench.generate(200, style), True)
    # The first group's ops are read in detail; from then on whole lines come from the caches.
    assert counter.declined == 0
    assert counter.built + counter.lines > 190
    assert counter.lines > 150


def test_disabled_means_not_called(monkeypatch: pytest.MonkeyPatch):
    counter = _Counter(monkeypatch)
    _parse(bench.generate(50, "keyword"), False)
    assert counter.built == counter.declined == counter.lines == counter.line_calls == 0


# --------------------------------------------------------------------------- odd inputs

F = "tensor<1x16x16x8xf32>"


def _func(body: str, args: str = f"%a: {F}, %b: {F}") -> str:
    return f"func.func @f({args}) {{\n{body}\n  func.return\n}}\n"


VALID = {
    "dynamic dims": _func(
        "  %0 = tosa.add %a, %b : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>\n"
        "  %1 = tosa.add %0, %0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>",
        "%a: tensor<?x3xf32>, %b: tensor<?x3xf32>",
    ),
    "unranked": _func(
        "  %0 = tosa.add %a, %b : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>\n"
        "  %1 = tosa.add %0, %0 : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>",
        "%a: tensor<*xf32>, %b: tensor<*xf32>",
    ),
    "shape type": _func(
        "  %s = tosa.const_shape values(dense<[1, 256, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>\n"
        "  %s2 = tosa.const_shape {values = dense<[1, 256, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>\n"
        f"  %0 = tosa.reshape %a, %s : ({F}, !tosa.shape<3>) -> tensor<1x256x8xf32>\n"
        f"  %1 = tosa.reshape %b, %s2 : ({F}, !tosa.shape<3>) -> tensor<1x256x8xf32>"
    ),
    "odd element types": _func(
        "  %0 = tosa.cast %a : (tensor<4xi48>) -> tensor<4xbf16>\n"
        "  %1 = tosa.cast %0 : (tensor<4xbf16>) -> tensor<4xf8E4M3FN>\n"
        "  %2 = tosa.cast %1 : (tensor<4xf8E4M3FN>) -> tensor<4xf8E5M2>\n"
        "  %3 = tosa.cast %b : (tensor<4xi4>) -> tensor<4xi48>\n"
        "  %4 = tosa.cast %3 : (tensor<4xi48>) -> tensor<4xbf16>",
        "%a: tensor<4xi48>, %b: tensor<4xi4>",
    ),
    "whitespace": _func(
        f"  %0 = tosa.add\t%a ,%b:({F} ,{F})->{F}\n"
        f"  %1 = tosa.add   %0,\n      %b\n    :   (  {F},\n {F}  )  ->   {F}\n"
        f"  %2 = tosa.clamp %1 min_val ( 0.0:f32 )max_val(6.0 : f32) : ({F}) -> {F}\n"
        f"  %3 = tosa.clamp %2 {{ max_val=6.0:f32,min_val = 0.0 : f32 }} : ({F}) -> {F}"
    ),
    "comments between tokens": _func(
        f"  %0 = tosa.add %a, // first\n %b // second\n : ({F}, // in the type\n {F}) -> {F}\n"
        f"  %1 = tosa.clamp %0 min_val(0.0 : f32) // note\n max_val(6.0 : f32) : ({F}) -> {F}\n"
        f"  %2 = tosa.clamp %1 {{max_val = 6.0 : f32, // x\n min_val = 0.0 : f32}} : ({F}) -> {F}"
    ),
    "quoted keys and enum spellings": _func(
        "  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>\n"
        "  %sh = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>\n"
        "  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>\n"
        "  %0 = tosa.rescale %a, %m, %sh, %z, %z {\"scale32\" = true, rounding_mode = \"SINGLE_ROUND\", "
        "per_channel = false, input_unsigned = false, output_unsigned = false} : "
        "(tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>\n"
        "  %1 = tosa.rescale %0, %m, %sh, %z, %z {scale32 = true, "
        "rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, per_channel = false, input_unsigned = false, "
        "output_unsigned = false} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) "
        "-> tensor<4xi8>\n"
        "  %2 = tosa.rescale %1, %m, %sh, %z, %z scale32(true) rounding_mode< DOUBLE_ROUND > "
        "per_channel(false) input_unsigned(false) output_unsigned(false) : "
        "(tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>",
        "%a: tensor<4xi8>",
    ),
    "discardable attributes": _func(
        f"  %0 = tosa.add %a, %b {{note = \"x\", flag}} : ({F}, {F}) -> {F}\n"
        f"  %1 = tosa.clamp %0 min_val(0.0 : f32) max_val(6.0 : f32) {{note = 1 : i32}} : ({F}) -> {F}\n"
        f"  %2 = tosa.clamp %1 {{max_val = 6.0 : f32, min_val = 0.0 : f32, extra = [1, 2]}} : ({F}) -> {F}"
    ),
    "defaults and optional clauses": _func(
        f"  %0 = tosa.maximum %a, %b : ({F}, {F}) -> {F}\n"
        f"  %1 = tosa.maximum %0, %b nan_mode<IGNORE> : ({F}, {F}) -> {F}\n"
        f"  %2 = tosa.maximum %1, %b {{nan_mode = PROPAGATE}} : ({F}, {F}) -> {F}\n"
        f"  %3 = tosa.cast %2 input_unsigned(true) : ({F}) -> {F}\n"
        f"  %4 = tosa.cast %3 : ({F}) -> {F}"
    ),
    "numbers": _func(
        f"  %0 = tosa.clamp %a min_val(-3.40282347E+38 : f32) max_val(3.40282347E+38 : f32) : ({F}) -> {F}\n"
        f"  %1 = tosa.clamp %0 min_val(0x7F800000 : f32) max_val(1.0e3 : f32) : ({F}) -> {F}\n"
        "  %2 = tosa.concat %a, %b axis(-1) : "
        f"({F}, {F}) -> tensor<1x16x16x16xf32>\n"
        f"  %3 = tosa.concat %a, %b {{axis = 3 : i32}} : ({F}, {F}) -> tensor<1x16x16x16xf32>\n"
        f"  %4 = tosa.concat %a, %b axis(0x3) : ({F}, {F}) -> tensor<1x16x16x16xf32>"
    ),
    "arrays": _func(
        f"  %0 = tosa.transpose %a perms([0, 3, 1, 2]) : ({F}) -> tensor<1x8x16x16xf32>\n"
        f"  %1 = tosa.transpose %a {{perms = array<i32: 0, 3, 1, 2>}} : ({F}) -> tensor<1x8x16x16xf32>\n"
        f"  %2 = tosa.transpose %a perms(array<i32: 0, 3, 1, 2>) : ({F}) -> tensor<1x8x16x16xf32>\n"
        f"  %3 = tosa.max_pool2d %a kernel([2, 2]) stride([2,2]) pad([ 0 , 0 , 0 , 0 ]) : "
        f"({F}) -> tensor<1x8x8x8xf32>"
    ),
    "strings": _func(
        "  %0 = tosa.custom %a operator_name(\"op\") domain_name(\"dom\\n\") implementation_attrs(\"\") "
        f": ({F}) -> {F}\n"
        "  %1 = tosa.custom %0 {operator_name = \"op\", domain_name = \"d\", implementation_attrs = \"\"} "
        f": ({F}) -> {F}"
    ),
    "hex constant and locations": _func(
        '  %0 = tosa.const values(dense<"0x0000803F00000040"> : tensor<2xf32>) : () -> tensor<2xf32>\n'
        '  %1 = tosa.add %0, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("x.py":3:4)\n'
        "  %2 = tosa.add %1, %1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc(unknown)",
        "",
    ),
    "forward reference": "func.func @f(%a: tensor<2xf32>) {\n"
    "  %0 = tosa.add %1, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
    "  %1 = tosa.add %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
    "  func.return\n}\n",
    "tuple index": "func.func @f(%a: tensor<2xf32>) {\n"
    "  %0:1 = tosa.add %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
    "  %1 = tosa.add %0#0, %0 #0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
    "  func.return\n}\n",
    "parenthesised results": _func(
        f"  %0 = tosa.add %a, %b : ({F}, {F}) -> ({F})\n  %1 = tosa.add %0, %b : ({F}, {F}) -> ({F})"
    ),
    "graph of many ops with shared text": bench.generate(60, "keyword") + bench.generate(60, "attr-dict").replace(
        "@main", "@main2"
    ),
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_inputs_agree(name: str):
    assert assert_same(VALID[name]) is not None, name


def test_valid_inputs_agree_with_repetition():
    """The same ops again and again: the second reading is served from the caches."""
    for name in sorted(VALID):
        if name in ("forward reference", "tuple index", "graph of many ops with shared text"):
            continue
        body = VALID[name]
        module = "\n".join(body.replace("@f(", f"@f{i}(") for i in range(3))
        assert assert_same(module) is not None, name


BAD = {
    "unknown clause": f"  %0 = tosa.add %a, %b foo(1) : ({F}, {F}) -> {F}",
    "missing clause": f"  %0 = tosa.clamp %a min_val(0.0 : f32) : ({F}) -> {F}",
    "clause twice": f"  %0 = tosa.clamp %a min_val(0.0 : f32) min_val(0.0 : f32) max_val(1.0 : f32) : ({F}) -> {F}",
    "key twice": f"  %0 = tosa.clamp %a {{min_val = 0.0 : f32, min_val = 0.0 : f32, max_val = 1.0 : f32}} : ({F}) -> {F}",
    "bad enum": f"  %0 = tosa.maximum %a, %b nan_mode<SOMETIMES> : ({F}, {F}) -> {F}",
    "bad bare enum": f"  %0 = tosa.maximum %a, %b {{nan_mode = SOMETIMES}} : ({F}, {F}) -> {F}",
    "operand count": f"  %0 = tosa.add %a, %b : ({F}) -> {F}",
    "operand type": f"  %0 = tosa.add %a, %b : ({F}, tensor<2xf32>) -> {F}",
    "undefined type": f"  %0 = tosa.add %a, %b : ({F}, tensor<4xfoo>) -> {F}",
    "bad tensor": f"  %0 = tosa.add %a, %b : ({F}, tensor<4x>) -> {F}",
    "missing colon": f"  %0 = tosa.add %a, %b ({F}, {F}) -> {F}",
    "missing arrow": f"  %0 = tosa.add %a, %b : ({F}, {F}) {F}",
    "trailing comma": f"  %0 = tosa.add %a, %b, : ({F}, {F}) -> {F}",
    "bad tuple index": f"  %0 = tosa.add %a#1, %b : ({F}, {F}) -> {F}",
    "hash ident index": f"  %0 = tosa.add %a#x, %b : ({F}, {F}) -> {F}",
    "int for bool": f"  %0 = tosa.cast %a input_unsigned(1) : ({F}) -> {F}",
    "float for int": f"  %0 = tosa.concat %a, %b axis(1.0) : ({F}, {F}) -> {F}",
    "unterminated array": f"  %0 = tosa.transpose %a perms([0, 3, 1, 2) : ({F}) -> {F}",
    "two results bound": f"  %0, %1 = tosa.add %a, %b : ({F}, {F}) -> {F}",
    "reused name": f"  %a = tosa.add %a, %b : ({F}, {F}) -> {F}",
    "bad character after": f"  %0 = tosa.add %a, %b : ({F}, {F}) -> {F} $",
    "result count": f"  %0 = tosa.add %a, %b : ({F}, {F}) -> ({F}, {F})",
    "clause in trailing dict": f"  %0 = tosa.clamp %a min_val(0.0 : f32) max_val(6.0 : f32) {{min_val = 1 : i32}} : ({F}) -> {F}",
    "new clause in trailing dict": f"  %0 = tosa.clamp %a min_val(0.0 : f32) max_val(6.0 : f32) {{nan_mode = IGNORE}} : ({F}) -> {F}",
    "exponent without dot": f"  %0 = tosa.clamp %a min_val(0.0 : f32) max_val(1e3 : f32) : ({F}) -> {F}",
    "dense type mismatch": "  %s = tosa.const_shape values(dense<[1, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_errors_agree(name: str):
    """Same error type, message and position (ParseError's text carries line:col and caret)."""
    good = f"  %g = tosa.add %a, %b : ({F}, {F}) -> {F}"
    # The same bad op after a good one (warm caches) and on its own.
    for body in (BAD[name], good + "\n" + good.replace("%g", "%h") + "\n" + BAD[name]):
        fast, slow = _parse(_func(body), True), _parse(_func(body), False)
        assert fast == slow
        assert fast[1] is not None, f"{name}: expected an error"


def test_error_location_points_at_the_fault():
    text = _func(f"  %0 = tosa.add %a, %b : ({F}, {F}) -> {F}\n  %1 = tosa.add %0, %b : ({F}, tensor<2xf32>) -> {F}")
    _, error = _parse(text, True)
    assert error is not None
    assert "input.mlir:3:" in error[1]


# ------------------------------------------------------------- whole lines (parse_line)
# Each body starts with lines that warm the caches, so the lines after them are candidates
# for fast_parse.parse_line (result binding, op name and body at once).

_WARM = f"  %w0 = tosa.add %a, %b : ({F}, {F}) -> {F}\n  %w1 = tosa.add %a, %b : ({F}, {F}) -> {F}\n"
_ADD = f"tosa.add %a, %b : ({F}, {F}) -> {F}"

LINES_VALID = {
    "plain": f"  %x = {_ADD}\n  %y = {_ADD}",
    "numeric and odd names": f"  %0 = {_ADD}\n  %v_1 = {_ADD}\n  %$x.y-z = {_ADD}\n  %_ = {_ADD}",
    "forward reference to the result": f"  %p = tosa.add %q, %b : ({F}, {F}) -> {F}\n  %q = {_ADD}",
    "forward reference by tuple index": f"  %p = tosa.add %q#0, %b : ({F}, {F}) -> {F}\n  %q = {_ADD}",
    "location after the op": f'  %x = {_ADD} loc("m.py":1:2)\n  %y = {_ADD} loc(unknown)',
    "location before the return": f"  %x = {_ADD} loc(unknown)",
    "tuple result size": f"  %x:1 = {_ADD}\n  %y = tosa.add %x#0, %b : ({F}, {F}) -> {F}",
    "comments around the binding": f"  %x // c\n = {_ADD}\n  %y = // c\n {_ADD}\n  %z = {_ADD} // c",
    "no space around =": f"  %x={_ADD}\n  %y\n=\ntosa.add %a, %b : ({F}, {F}) -> {F}",
    "last op before the closing brace": f"  %x = {_ADD}",
    "defaults filled": f"  %m0 = tosa.maximum %a, %b : ({F}, {F}) -> {F}\n"
    f"  %m1 = tosa.maximum %a, %b : ({F}, {F}) -> {F}\n  %m2 = tosa.maximum %m1, %b : ({F}, {F}) -> {F}",
    "discardable attributes": f'  %d0 = tosa.add %a, %b {{note = "x"}} : ({F}, {F}) -> {F}\n'
    f'  %d1 = tosa.add %a, %b {{note = "x"}} : ({F}, {F}) -> {F}',
    "other dialects between": f"  %x = {_ADD}\n  %c = arith.constant 1 : i32\n  %y = {_ADD}",
    "no operands": "  %s0 = tosa.const_shape values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>\n"
    "  %s1 = tosa.const_shape values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>\n"
    "  %s2 = tosa.const_shape  values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>",
    "comment after the op name": f"  %x = tosa.add // c\n %a, %b : ({F}, {F}) -> {F}",
}

LINES_BAD = {
    "redefined result": f"  %w0 = {_ADD}",
    "redefined argument": f"  %a = {_ADD}",
    "forward reference of another type": "  %p = tosa.add %q, %q : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
    f"  %q = {_ADD}",
    "forward reference index too large": f"  %p = tosa.add %q#1, %b : ({F}, {F}) -> {F}\n  %q = {_ADD}",
    "two results bound": f"  %x, %y = {_ADD}",
    "tuple size 2": f"  %x:2 = {_ADD}",
    "operand type": f"  %x = tosa.add %a, %w0 : ({F}, {F}) -> {F}\n  %y = tosa.add %c, %b : ({F}, {F}) -> {F}",
    "undefined value at the end": f"  %x = tosa.add %nope, %b : ({F}, {F}) -> {F}",
    "bad token after": f"  %x = {_ADD} $",
    "bad location": f"  %x = {_ADD} loc(",
    "unknown op": f"  %x = tosa.addd %a, %b : ({F}, {F}) -> {F}",
    "clause name in trailing dict": f"  %c0 = tosa.clamp %a min_val(0.0 : f32) max_val(6.0 : f32) {{min_val = 1 : i32}} "
    f": ({F}) -> {F}",
}


@pytest.mark.parametrize("name", sorted(LINES_VALID))
def test_lines_agree(name: str):
    assert assert_same(_func(_WARM + LINES_VALID[name])) is not None, name


def test_lines_agree_unregistered_context():
    text = _func(_WARM + f'  %u = "my.op"(%a) : ({F}) -> {F}\n  %v = my.other\n  %x = {_ADD}')
    out = {}
    for fast in (True, False):
        ctx = _context()
        ctx.allow_unregistered = True
        with fast_parse.enabled(fast):
            try:
                out[fast] = print_ir(Parser(ctx, text).parse_module(), style="generic")
            except Exception as err:  # noqa: BLE001
                out[fast] = (type(err).__name__, str(err))
    assert out[True] == out[False]


@pytest.mark.parametrize("name", sorted(LINES_BAD))
def test_line_errors_agree(name: str):
    fast, slow = _parse(_func(_WARM + LINES_BAD[name]), True), _parse(_func(_WARM + LINES_BAD[name]), False)
    assert fast == slow
    assert fast[1] is not None, f"{name}: expected an error"


def test_lines_are_taken_and_named(monkeypatch: pytest.MonkeyPatch):
    counter = _Counter(monkeypatch)
    ctx = _context()
    module = Parser(ctx, _func(_WARM + f"  %x = {_ADD}\n  %0 = {_ADD}")).parse_module()
    assert counter.lines == 3  # %w1, %x, %0 (%w0 is read in detail)
    names = [op.results[0].name_hint for op in module.walk() if op.name == "tosa.add"]
    assert names == ["w0", "w1", "x", None]


def test_parser_subclass_keeps_xdsl_framing(monkeypatch: pytest.MonkeyPatch):
    """A Parser subclass that changes the framing (like the driver's op-locating parser)
    sees every op through its own parse_operation."""
    seen: list[int] = []

    class Seeing(Parser):
        def parse_operation(self):
            seen.append(self.pos)
            return super().parse_operation()

    counter = _Counter(monkeypatch)
    Seeing(_context(), _func(_WARM + f"  %x = {_ADD}")).parse_module()
    assert counter.lines == 0
    assert len(seen) == 5  # func.func, the three adds, func.return


def test_install_is_idempotent():
    before = Parser.parse_optional_operation
    xdsl_patches.install_parser_patches()
    assert Parser.parse_optional_operation is before


def _structure(module) -> list[tuple[str, list[list[tuple[int, int]]], list[tuple[int, int]]]]:
    """Per op: name, the uses of each result (user's position, operand index) in use-list
    order, and its operands' uses (as (defining position or -1, use index))."""
    ops = list(module.walk())
    where = {id(op): i for i, op in enumerate(ops)}
    return [
        (
            op.name,
            [[(where[id(u.operation)], u.index) for u in r.uses] for r in op.results],
            [(where.get(id(getattr(v, "op", None)), -1), i) for i, v in enumerate(op.operands)],
        )
        for op in ops
    ]


def test_built_ops_have_the_same_structure():
    """Ops built directly (fast_parse._build) have the use lists `Operation.create` makes."""
    text = bench.generate(300, "keyword")
    modules = {}
    for fast in (True, False):
        with fast_parse.enabled(fast):
            modules[fast] = Parser(_context(), text).parse_module()
    assert _structure(modules[True]) == _structure(modules[False])
    fast_ops = [op for op in modules[True].walk()]
    slow_ops = [op for op in modules[False].walk()]
    for a, b in zip(fast_ops, slow_ops):
        assert list(vars(a)) == list(vars(b))
        assert a.properties == b.properties and list(a.properties) == list(b.properties)
        assert a.attributes == b.attributes
        assert [r.name_hint for r in a.results] == [r.name_hint for r in b.results]


def test_every_tosa_op_can_be_built_directly():
    from tosa_xdsl.dialects.tosa.dialect import Tosa

    custom = [op for op in Tosa.operations if fast_parse._is_tosa_parse(op)]
    assert len(custom) > 50
    assert [op.name for op in custom if fast_parse._builder_for(op) is not fast_parse._build] == []
