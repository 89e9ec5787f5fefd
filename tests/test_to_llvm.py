"""convert-to-llvm: the output is llvm dialect only, upstream's mlir-translate accepts it,
memref ops (alloc/free balance, globals, subview, strided copy, reshapes) run right natively,
bad input gets a located error, and whole TOSA graphs agree with the TOSA-level interpreter
when run with --backend jit's path (tosa_xdsl.jit.NativeModule)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser
from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf

from tosa_xdsl import jit
from tosa_xdsl.context import make_context
from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering.to_llvm.convert_to_llvm import ConvertToLLVMPass
from tosa_xdsl.printing import print_ir

MLIR_TRANSLATE = Path("/usr/lib/llvm-22/bin/mlir-translate")

MEMREF_PROGRAM = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "flags", sym_visibility = "private", type = memref<4xi1>, initial_value = dense<[true, false, true, true]> : tensor<4xi1>, constant}> : () -> ()
"memref.global"() <{sym_name = "wide", sym_visibility = "private", type = memref<2xi48>, initial_value = dense<[-140737488355328, 5]> : tensor<2xi48>, constant}> : () -> ()
func.func @k(%in: memref<4x6xf32>, %out: memref<3x6xf32>, %o2: memref<4xi8>, %o3: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() {alignment = 64 : i64} : memref<4x6xf32>
  "memref.copy"(%in, %buf) : (memref<4x6xf32>, memref<4x6xf32>) -> ()
  %t = memref.get_global @table : memref<2x3xf32>
  %view = memref.subview %buf[%c1, 2] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1], offset: ?>>
  "memref.copy"(%t, %view) : (memref<2x3xf32>, memref<2x3xf32, strided<[6, 1], offset: ?>>) -> ()
  %flat = memref.collapse_shape %buf [[0, 1]] : memref<4x6xf32> into memref<24xf32>
  %x = memref.load %flat[%c3] : memref<24xf32>
  %s = memref.subview %buf[1, 0] [3, 6] [1, 1] : memref<4x6xf32> to memref<3x6xf32, strided<[6, 1], offset: 6>>
  "memref.copy"(%s, %out) : (memref<3x6xf32, strided<[6, 1], offset: 6>>, memref<3x6xf32>) -> ()
  %e = memref.expand_shape %out [[0], [1, 2]] output_shape [3, 2, 3] : memref<3x6xf32> into memref<3x2x3xf32>
  memref.store %x, %e[%c2, %c1, %c2] : memref<3x2x3xf32>
  memref.dealloc %buf : memref<4x6xf32>
  %f = memref.get_global @flags : memref<4xi1>
  %w = memref.get_global @wide : memref<2xi48>
  %tmp = memref.alloca() : memref<4xi8>
  scf.for %i = %c0 to %c4 step %c1 {
    %b = memref.load %f[%i] : memref<4xi1>
    %bi = arith.extui %b : i1 to i8
    memref.store %bi, %tmp[%i] : memref<4xi8>
  }
  "memref.copy"(%tmp, %o2) : (memref<4xi8>, memref<4xi8>) -> ()
  scf.for %i = %c0 to %c2 step %c1 {
    %v = memref.load %w[%i] : memref<2xi48>
    %v64 = arith.extsi %v : i48 to i64
    memref.store %v64, %o3[%i] : memref<2xi64>
  }
  func.return
}
"""


def lowered(src: str):
    ctx = make_context()
    module = Parser(ctx, src).parse_module()
    module.verify()
    ConvertScfToCf().apply(ctx, module)
    ConvertToLLVMPass().apply(ctx, module)
    module.verify()
    return module


def test_memref_program_runs_natively():
    """Expected values from memref semantics (numpy slicing), not from our output."""
    module = lowered(MEMREF_PROGRAM)
    assert {op.name.split(".")[0] for op in module.walk()} <= {"builtin", "llvm"}
    names = [op.name for op in module.walk()]
    assert "llvm.mlir.global" in names and "llvm.mlir.addressof" in names
    calls = [op.properties["callee"].string_value() for op in module.walk() if op.name == "llvm.call"]
    assert calls.count("aligned_alloc") == 1 and calls.count("free") == 1  # balanced
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    out, o2, o3 = np.zeros((3, 6), np.float32), np.zeros(4, np.int8), np.zeros(2, np.int64)
    jit.compile(module, "k")(x.copy(), out, o2, o3)
    buf = x.copy()
    buf[1:3, 2:5] = [[1, 2, 3], [4, 5, 6]]
    want = buf[1:4].copy()
    want.reshape(3, 2, 3)[2, 1, 2] = buf.reshape(-1)[3]
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(o2, [1, 0, 1, 1])
    np.testing.assert_array_equal(o3, [-(1 << 47), 5])


@pytest.mark.skipif(not MLIR_TRANSLATE.exists(), reason="mlir-translate (MLIR 22) not installed")
def test_mlir_translate_accepts_generic_output(tmp_path):
    module = lowered(MEMREF_PROGRAM + """
func.func @f(%a: memref<8xbf16>, %b: memref<8xf8E4M3FN>, %o: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<8xbf16>
  %y = memref.load %b[%c0] : memref<8xf8E4M3FN>
  %ye = arith.extf %y : f8E4M3FN to bf16
  %s = arith.maximumf %x, %ye : bf16
  %t = math.tanh %s : bf16
  %i = arith.fptosi %t : bf16 to i32
  %u = arith.uitofp %i : i32 to f32
  %v = arith.fptoui %u : f32 to i32
  %m = arith.maxsi %v, %i : i32
  %d = arith.floordivsi %m, %i : i32
  %z = math.ctlz %d : i32
  memref.store %z, %o[%c0] : memref<8xi32>
  func.return
}
""")
    path = tmp_path / "m.mlir"
    path.write_text(print_ir(module, style="generic"))
    res = subprocess.run([str(MLIR_TRANSLATE), "--mlir-to-llvmir", str(path)], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr[:2000]
    ir = res.stdout
    for needle in ("define void @k(", "define void @f(", "call ptr @aligned_alloc", "call void @free",
                   "@llvm.memcpy", "fptosi", "uitofp", "fptoui", "@llvm.smax.i32", "@llvm.ctlz.i32",
                   "@tanhf", "@llvm.maximum.f32", "@table = private constant [6 x float]"):
        assert needle in ir, needle


@pytest.mark.parametrize("src,what", [
    ("func.func @f(%a: memref<4xf32>) {\n %c0 = arith.constant 0 : index\n"
     " scf.execute_region {\n scf.yield\n }\n func.return\n}", "run convert-scf-to-cf first"),
    ("func.func @f(%a: memref<?x?xf32>) {\n"
     " %v = memref.subview %a[0, 0] [2, 2] [1, 1] : memref<?x?xf32> to memref<2x2xf32, strided<[?, 1]>>\n"
     " func.return\n}", "dynamic or unsupported strides"),
    ("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     " %0 = tosa.abs %a : (tensor<4xf32>) -> tensor<4xf32>\n return %0 : tensor<4xf32>\n}", "type tensor<4xf32>"),
    ("func.func @f() -> (i32, i32) {\n %c = arith.constant 1 : i32\n return %c, %c : i32, i32\n}", "2 results"),
])
def test_located_errors(src, what):
    ctx = make_context()
    module = Parser(ctx, src).parse_module()
    with pytest.raises(LocatedError, match="convert-to-llvm: cannot lower") as info:
        ConvertToLLVMPass().apply(ctx, module)
    assert what in str(info.value)


TOSA_GRAPHS = {
    "elementwise_f32": ("""
func.func @main(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.maximum %0, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = tosa.greater %1, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return %1, %2 : tensor<2x3xf32>, tensor<2x3xi1>
}""", [np.float32, np.float32]),
    "int_cast_reduce": ("""
func.func @main(%a: tensor<3x4xi8>) -> (tensor<3x1xi32>, tensor<4x3xi8>) {
  %0 = tosa.cast %a : (tensor<3x4xi8>) -> tensor<3x4xi32>
  %1 = tosa.reduce_sum %0 {axis = 1 : i32} : (tensor<3x4xi32>) -> tensor<3x1xi32>
  %2 = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<3x4xi8>) -> tensor<4x3xi8>
  return %1, %2 : tensor<3x1xi32>, tensor<4x3xi8>
}""", [np.int8]),
}


@pytest.mark.parametrize("name", sorted(TOSA_GRAPHS))
def test_tosa_graph_native_equals_interpreter(name):
    src, dtypes = TOSA_GRAPHS[name]
    rng = np.random.default_rng(0)
    ctx = make_context()
    module = Parser(ctx, src).parse_module()
    module.verify()
    from tosa_xdsl.interpreter.runner import entry_function

    types = entry_function(module, "main").function_type.inputs.data
    inputs = [(rng.standard_normal(tuple(t.get_shape())) * 50).astype(d) for t, d in zip(types, dtypes)]
    want = run(module, inputs)
    try:
        got = jit.run_tosa(module, inputs)
    except jit.JitError as err:
        pytest.skip(f"pipeline not available: {err}")
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def test_tosa_run_backend_jit(tmp_path):
    src, _ = TOSA_GRAPHS["int_cast_reduce"]
    (tmp_path / "m.mlir").write_text(src)
    a = (np.arange(12, dtype=np.int8) * 11).reshape(3, 4)
    np.save(tmp_path / "a.npy", a)
    exe = shutil.which("tosa-run")
    assert exe is not None
    outs = []
    for backend in ("interp", "jit"):
        r = subprocess.run([exe, str(tmp_path / "m.mlir"), "-i", str(tmp_path / "a.npy"), "--print",
                            "--backend", backend], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout)
    assert outs[0] == outs[1]
    assert "result #0: tensor<3x1xi32> = [[66], [242], [418]]" in outs[1]
