"""Stage-1 lowerings (tosa-to-tensor, tosa-to-arith, tosa-to-scf, tosa-to-mlprogram) keep
semantics: each module runs through tosa_xdsl.interpreter before and after the pass on random
inputs, and the results must be bit-identical (integers, floats, bool)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from tosa_xdsl.context import make_context
from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.interpreter import run
from tosa_xdsl.interpreter.runner import Session
from tosa_xdsl.pass_registry import TOSA_PASSES

STAGE1 = ("tosa-to-tensor", "tosa-to-arith", "tosa-to-scf", "tosa-to-mlprogram")
TYPES = {"i1": np.bool_, "i8": np.int8, "i32": np.int32, "f16": np.float16, "f32": np.float32}
PAD_CONST = {"i1": "true", "i8": "-7", "i32": "123456", "f16": "-1.5", "f32": "0x7FC00000"}


def parse(src: str):
    module = Parser(make_context(), src).parse_module()
    module.verify()
    return module


def lower(module, passes):
    ctx = make_context()
    for name in passes:
        TOSA_PASSES[name]()().apply(ctx, module)
    module.verify()
    return module


def random_input(rng, shape, t):
    dtype = TYPES[t]
    if dtype is np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    v = rng.standard_normal(shape).astype(dtype) * 100
    v.flat[0] = -0.0 if v.size else 0  # a signed zero survives only if bits are kept
    return v


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes(), (a, b)


def check(src, passes, input_specs, seed=0, trials=3):
    before = parse(src)
    after = lower(parse(src), passes)
    text = str(after)
    for p in passes:
        owned = {
            "tosa-to-tensor": ("tosa.concat", "tosa.pad", "tosa.reshape", "tosa.slice"),
            "tosa-to-arith": ("tosa.const ",),
            "tosa-to-scf": ("tosa.cond_if", "tosa.while_loop", "tosa.yield"),
            "tosa-to-mlprogram": ("tosa.variable",),
        }[p]
        for name in owned:
            assert name not in text, f"{name} left behind by {p}:\n{text}"
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        inputs = [random_input(rng, shape, t) for shape, t in input_specs]
        ref = run(before, inputs, allow_unpredictable=True)
        got = run(after, inputs, allow_unpredictable=True)
        assert len(ref) == len(got)
        for r, g in zip(ref, got):
            same_bits(r, g)
    return after


@pytest.mark.parametrize("t", sorted(TYPES))
def test_concat(t):
    src = f"""
func.func @main(%a: tensor<2x3x{t}>, %b: tensor<2x1x{t}>, %c: tensor<2x4x{t}>) -> (tensor<2x8x{t}>, tensor<4x3x{t}>) {{
  %0 = tosa.concat %a, %b, %c {{axis = 1 : i32}} : (tensor<2x3x{t}>, tensor<2x1x{t}>, tensor<2x4x{t}>) -> tensor<2x8x{t}>
  %1 = tosa.concat %a, %a {{axis = 0 : i32}} : (tensor<2x3x{t}>, tensor<2x3x{t}>) -> tensor<4x3x{t}>
  return %0, %1 : tensor<2x8x{t}>, tensor<4x3x{t}>
}}"""
    check(src, ["tosa-to-tensor"], [((2, 3), t), ((2, 1), t), ((2, 4), t)])


@pytest.mark.parametrize("t", sorted(TYPES))
def test_pad(t):
    src = f"""
func.func @main(%a: tensor<2x3x{t}>) -> tensor<5x4x{t}> {{
  %p = tosa.const_shape {{values = dense<[1, 2, 0, 1]> : tensor<4xindex>}} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{{values = dense<{PAD_CONST[t]}> : tensor<1x{t}>}}> : () -> tensor<1x{t}>
  %0 = tosa.pad %a, %p, %c : (tensor<2x3x{t}>, !tosa.shape<4>, tensor<1x{t}>) -> tensor<5x4x{t}>
  return %0 : tensor<5x4x{t}>
}}"""
    check(src, ["tosa-to-tensor"], [((2, 3), t)])
    check(src, ["tosa-to-tensor", "tosa-to-arith"], [((2, 3), t)])


@pytest.mark.parametrize("t", sorted(TYPES))
def test_reshape(t):
    outs = [(6,), (3, 2), (1, 2, 3, 1), (2, 3), (6, 1, 1)]
    body, rets = [], []
    for i, o in enumerate(outs):
        ty = f"tensor<{'x'.join(map(str, o))}x{t}>"
        body.append(
            f"  %s{i} = tosa.const_shape {{values = dense<{list(o)}> : tensor<{len(o)}xindex>}} : () -> !tosa.shape<{len(o)}>\n"
            f"  %r{i} = tosa.reshape %a, %s{i} : (tensor<2x3x{t}>, !tosa.shape<{len(o)}>) -> {ty}"
        )
        rets.append((f"%r{i}", ty))
    body.append(
        f"  %z = tosa.const_shape {{values = dense<> : tensor<0xindex>}} : () -> !tosa.shape<0>\n"
        f"  %rz = tosa.reshape %b, %z : (tensor<1x1x{t}>, !tosa.shape<0>) -> tensor<{t}>\n"
        f"  %y = tosa.const_shape {{values = dense<[1, 1, 1]> : tensor<3xindex>}} : () -> !tosa.shape<3>\n"
        f"  %ry = tosa.reshape %rz, %y : (tensor<{t}>, !tosa.shape<3>) -> tensor<1x1x1x{t}>"
    )
    rets += [("%rz", f"tensor<{t}>"), ("%ry", f"tensor<1x1x1x{t}>")]
    src = (
        f"func.func @main(%a: tensor<2x3x{t}>, %b: tensor<1x1x{t}>) -> ({', '.join(r[1] for r in rets)}) {{\n"
        + "\n".join(body)
        + f"\n  return {', '.join(r[0] for r in rets)} : {', '.join(r[1] for r in rets)}\n}}"
    )
    after = check(src, ["tosa-to-tensor"], [((2, 3), t), ((1, 1), t)])
    assert "tosa.const_shape" not in str(after)


@pytest.mark.parametrize("t", sorted(TYPES))
def test_slice(t):
    src = f"""
func.func @main(%a: tensor<4x5x{t}>) -> (tensor<2x3x{t}>, tensor<4x5x{t}>) {{
  %st = tosa.const_shape {{values = dense<[1, 2]> : tensor<2xindex>}} : () -> !tosa.shape<2>
  %sz = tosa.const_shape {{values = dense<[2, 3]> : tensor<2xindex>}} : () -> !tosa.shape<2>
  %0 = tosa.slice %a, %st, %sz : (tensor<4x5x{t}>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3x{t}>
  %z = tosa.const_shape {{values = dense<[0, 0]> : tensor<2xindex>}} : () -> !tosa.shape<2>
  %f = tosa.const_shape {{values = dense<[4, 5]> : tensor<2xindex>}} : () -> !tosa.shape<2>
  %1 = tosa.slice %a, %z, %f : (tensor<4x5x{t}>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x5x{t}>
  return %0, %1 : tensor<2x3x{t}>, tensor<4x5x{t}>
}}"""
    check(src, ["tosa-to-tensor"], [((4, 5), t)])


def test_const():
    src = """
func.func @main(%x: tensor<2xf32>) -> (tensor<2x2xi32>, tensor<2xf32>, tensor<3xi1>, tensor<f16>, tensor<2xi8>) {
  %a = "tosa.const"() <{values = dense<[[1, -2147483648], [2147483647, 0]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %b = "tosa.const"() <{values = dense<[-0.0, 0x7F800001]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %s = tosa.add %x, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %c = "tosa.const"() <{values = dense<[true, false, true]> : tensor<3xi1>}> : () -> tensor<3xi1>
  %d = "tosa.const"() <{values = dense<0x3C01> : tensor<f16>}> : () -> tensor<f16>
  %e = "tosa.const"() <{values = dense<-128> : tensor<2xi8>}> : () -> tensor<2xi8>
  return %a, %s, %c, %d, %e : tensor<2x2xi32>, tensor<2xf32>, tensor<3xi1>, tensor<f16>, tensor<2xi8>
}"""
    check(src, ["tosa-to-arith"], [((2,), "f32")])


def test_cond_if():
    src = """
func.func @main(%c: tensor<i1>, %x: tensor<2x3xi32>, %y: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  %0, %1 = tosa.cond_if %c (%a = %x, %b = %y) : tensor<i1> (tensor<2x3xi32>, tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  ^bb0(%a: tensor<2x3xi32>, %b: tensor<2x3xi32>):
    %s = tosa.add %a, %b : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    tosa.yield %s, %a : tensor<2x3xi32>, tensor<2x3xi32>
  } else {
  ^bb0(%a: tensor<2x3xi32>, %b: tensor<2x3xi32>):
    %s = tosa.sub %a, %b : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    tosa.yield %b, %s : tensor<2x3xi32>, tensor<2x3xi32>
  }
  return %0, %1 : tensor<2x3xi32>, tensor<2x3xi32>
}"""
    check(src, ["tosa-to-scf"], [((), "i1"), ((2, 3), "i32"), ((2, 3), "i32")], trials=6)


def test_while_loop():
    # count up to a random bound in [0, 63], squaring float state and flipping bool state
    src = """
func.func @main(%n: tensor<i32>, %x0: tensor<3xf32>, %b0: tensor<3xi1>) -> (tensor<i32>, tensor<3xf32>, tensor<3xi1>) {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mask = "tosa.const"() <{values = dense<63> : tensor<i32>}> : () -> tensor<i32>
  %n0 = tosa.bitwise_and %n, %mask : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:4 = tosa.while_loop (%i = %zero, %m = %n0, %x = %x0, %b = %b0) : (tensor<i32>, tensor<i32>, tensor<3xf32>, tensor<3xi1>) -> (tensor<i32>, tensor<i32>, tensor<3xf32>, tensor<3xi1>) {
    %c = tosa.greater %m, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %m: tensor<i32>, %x: tensor<3xf32>, %b: tensor<3xi1>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %i1 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %x1 = tosa.mul %x, %x, %sh : (tensor<3xf32>, tensor<3xf32>, tensor<1xi8>) -> tensor<3xf32>
    %b1 = tosa.logical_not %b : (tensor<3xi1>) -> tensor<3xi1>
    tosa.yield %i1, %m, %x1, %b1 : tensor<i32>, tensor<i32>, tensor<3xf32>, tensor<3xi1>
  }
  return %r#0, %r#2, %r#3 : tensor<i32>, tensor<3xf32>, tensor<3xi1>
}"""
    specs = [((), "i32"), ((3,), "f32"), ((3,), "i1")]
    check(src, ["tosa-to-scf"], specs, trials=6)
    check(src, ["tosa-to-scf", "tosa-to-arith"], specs, trials=2)


def test_variables():
    src = """
tosa.variable @v = dense<[1, -2]> : tensor<2xi8>
tosa.variable @w = dense<[[0.5, -0.0], [1.0, 2.0]]> : tensor<2x2xf32>
func.func @main(%x: tensor<2xi8>, %y: tensor<2x2xf32>) -> (tensor<2xi8>, tensor<2x2xf32>) {
  %0 = tosa.variable_read @v : tensor<2xi8>
  tosa.variable_write @v, %x : tensor<2xi8>
  %1 = tosa.variable_read @w : tensor<2x2xf32>
  %2 = tosa.add %1, %y : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  tosa.variable_write @w, %2 : tensor<2x2xf32>
  return %0, %1 : tensor<2xi8>, tensor<2x2xf32>
}"""
    before = parse(src)
    after = lower(parse(src), ["tosa-to-mlprogram"])
    assert "tosa.variable" not in str(after)
    rng = np.random.default_rng(1)
    s_before, s_after = Session(before, allow_unpredictable=True), Session(after, allow_unpredictable=True)
    for _ in range(4):  # state persists across calls in both
        inputs = [random_input(rng, (2,), "i8"), random_input(rng, (2, 2), "f32")]
        for r, g in zip(s_before.call(inputs, "main"), s_after.call(inputs, "main")):
            same_bits(r, g)


def test_all_stage1_together():
    src = """
tosa.variable @acc = dense<0> : tensor<2x3xi8>
func.func @main(%c: tensor<i1>, %a: tensor<2x3xi8>) -> tensor<1x6xi8> {
  %r = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<2x3xi8>) -> tensor<2x3xi8> {
  ^bb0(%x: tensor<2x3xi8>):
    %p = tosa.const_shape {values = dense<[0, 0, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %k = "tosa.const"() <{values = dense<9> : tensor<1xi8>}> : () -> tensor<1xi8>
    %q = tosa.pad %x, %p, %k : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<2x4xi8>
    %st = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %sz = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %s = tosa.slice %q, %st, %sz : (tensor<2x4xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xi8>
    tosa.yield %s : tensor<2x3xi8>
  } else {
  ^bb0(%x: tensor<2x3xi8>):
    %v = tosa.variable_read @acc : tensor<2x3xi8>
    tosa.yield %v : tensor<2x3xi8>
  }
  tosa.variable_write @acc, %r : tensor<2x3xi8>
  %sh = tosa.const_shape {values = dense<[1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %o = tosa.reshape %r, %sh : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<1x6xi8>
  return %o : tensor<1x6xi8>
}"""
    after = lower(parse(src), STAGE1)
    text = str(after)
    for name in ("tosa.cond_if", "tosa.pad", "tosa.slice", "tosa.reshape", "tosa.const",
                 "tosa.variable", "tosa.yield"):
        assert name not in text, text
    before = parse(src)
    rng = np.random.default_rng(2)
    s_before, s_after = Session(before, allow_unpredictable=True), Session(after, allow_unpredictable=True)
    for _ in range(4):
        inputs = [random_input(rng, (), "i1"), random_input(rng, (2, 3), "i8")]
        for r, g in zip(s_before.call(inputs, "main"), s_after.call(inputs, "main")):
            same_bits(r, g)


@pytest.mark.parametrize("src, pass_name, message", [
    # a dynamic input1 lowers (tests/dynamic), a dynamic result does not: start/size are static
    ("""func.func @main(%a: tensor<2x?xi8>) -> tensor<2x?xi8> {
  %s = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.slice %a, %s, %z : (tensor<2x?xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x?xi8>
  return %0 : tensor<2x?xi8>
}""", "tosa-to-tensor", "cannot lower 'tosa.slice': result #0 has a dynamic dimension 1"),
    ("""func.func @main(%a: tensor<2x3xi8>, %s: !tosa.shape<2>) -> tensor<3x2xi8> {
  %0 = tosa.reshape %a, %s : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}""", "tosa-to-tensor", "cannot lower 'tosa.reshape': shape must be a tosa.const_shape"),
    ("""func.func @main(%c: tensor<?xi1>, %a: tensor<2xi8>) -> tensor<2xi8> {
  %0 = tosa.cond_if %c (%x = %a) : tensor<?xi1> (tensor<2xi8>) -> tensor<2xi8> {
  ^bb0(%x: tensor<2xi8>):
    tosa.yield %x : tensor<2xi8>
  } else {
  ^bb0(%x: tensor<2xi8>):
    tosa.yield %x : tensor<2xi8>
  }
  return %0 : tensor<2xi8>
}""", "tosa-to-scf", "cannot lower 'tosa.cond_if'"),
])
def test_located_failures(src, pass_name, message):
    module = Parser(make_context(), src).parse_module()
    with pytest.raises(LocatedError, match=message) as info:
        lower(module, [pass_name])
    assert info.value.at is not None
