"""linalg on buffers -> loops (affine and scf), lower-affine, scf -> cf, and the interpreter
that runs every one of those stages.

Differential: each case is a hand-written memref-level function of the shape one-shot-bufferize
produces (memref arguments, outputs as out-param buffers, linalg ops on memrefs). The reference
is our interpreter on the linalg-on-memref form (the same linalg implementations that the
TOSA-level differential tests check against Arm's reference model); every loop stage must give
bit-identical buffers: after convert-linalg-to-affine-loops, after + lower-affine, after
convert-linalg-to-loops, and after + lower-affine + convert-scf-to-cf. Shapes are tiny: the
loop stages are interpreted one scalar op at a time.

Acceptance: MLIR 22's standard lowering (lower-affine, scf-to-cf, memref and everything to
LLVM) and mlir-translate must accept our printed generic form of each loop stage.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerType, MemRefType

from tosa_xdsl.diagnostics import LocatedError
from tosa_xdsl.interpreter.runner import build_interpreter
from tosa_xdsl.interpreter.values import dtype_of
from tosa_xdsl.printing import print_ir

MLIR_OPT = Path("/usr/lib/llvm-22/bin/mlir-opt")
MLIR_TRANSLATE = Path("/usr/lib/llvm-22/bin/mlir-translate")

STAGES = {
    "affine": "convert-linalg-to-affine-loops",
    "affine+lower": "convert-linalg-to-affine-loops,lower-affine",
    "affine+cf": "convert-linalg-to-affine-loops,lower-affine,convert-scf-to-cf",
    "scf": "convert-linalg-to-loops",
    "scf+cf": "convert-linalg-to-loops,lower-affine,convert-scf-to-cf",
}

D1 = "dense<1> : tensor<2xi64>"
D2 = "dense<2> : tensor<2xi64>"

# name -> function body text (a func.func @main over memrefs; all buffers are compared)
CASES: dict[str, str] = {}

CASES["generic_matmul_index"] = """
func.func @main(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %o: memref<2x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%o : memref<2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %x, %y : f32
    %m2 = arith.addf %m, %fi : f32
    %s = arith.addf %acc, %m2 : f32
    linalg.yield %s : f32
  }
  func.return
}
"""

# reduction in the middle and first (MLIR keeps the op's dim order: d0 d1 d2)
CASES["generic_reduce_middle"] = """
func.func @main(%a: memref<3x5x4xf32>, %o: memref<5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%a : memref<3x5x4xf32>) outs(%o : memref<5xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  func.return
}
"""

# argmax-like: two outputs, compare/select, an index per element
CASES["generic_two_outputs"] = """
func.func @main(%a: memref<3x4xf32>, %v: memref<4xf32>, %k: memref<4xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a : memref<3x4xf32>) outs(%v, %k : memref<4xf32>, memref<4xi32>) {
  ^bb0(%x: f32, %best: f32, %bi: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %gt = arith.cmpf ogt, %x, %best : f32
    %nv = arith.select %gt, %x, %best : f32
    %ni = arith.select %gt, %ii, %bi : i32
    linalg.yield %nv, %ni : f32, i32
  }
  func.return
}
"""

# scf.if in the body, a gather through memref.load of another buffer, strided access
CASES["generic_if_gather"] = """
func.func @main(%idx: memref<2x3xi32>, %table: memref<5xf32>, %src: memref<4x6xf32>, %o: memref<2x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 * 2 + 1, d1 * 2)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx, %src : memref<2x3xi32>, memref<4x6xf32>) outs(%o : memref<2x3xf32>) {
  ^bb0(%i: i32, %s: f32, %out: f32):
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %lo = arith.maxsi %i, %c0 : i32
    %cl = arith.minsi %lo, %c4 : i32
    %j = arith.index_cast %cl : i32 to index
    %t = memref.load %table[%j] : memref<5xf32>
    %neg = arith.cmpi slt, %i, %c0 : i32
    %d1 = linalg.index 1 : index
    %r = scf.if %neg -> (f32) {
      %d1i = arith.index_cast %d1 : index to i32
      %d1f = arith.sitofp %d1i : i32 to f32
      scf.yield %d1f : f32
    } else {
      %p = arith.mulf %t, %s : f32
      scf.yield %p : f32
    }
    linalg.yield %r : f32
  }
  func.return
}
"""

CASES["generic_rank0"] = """
func.func @main(%a: memref<f32>, %b: memref<f32>, %o: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a, %b : memref<f32>, memref<f32>) outs(%o : memref<f32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  }
  func.return
}
"""

CASES["fill_transpose_broadcast_copy"] = """
func.func @main(%a: memref<2x3x4xf16>, %t: memref<4x2x3xf16>, %b: memref<3xi8>, %bo: memref<2x3x4xi8>, %f: memref<3x2xi32>, %c: memref<2x3x4xf16>) {
  %v = arith.constant -7 : i32
  linalg.fill ins(%v : i32) outs(%f : memref<3x2xi32>)
  linalg.transpose ins(%a : memref<2x3x4xf16>) outs(%t : memref<4x2x3xf16>) permutation = [2, 0, 1]
  linalg.broadcast ins(%b : memref<3xi8>) outs(%bo : memref<2x3x4xi8>) dimensions = [0, 2]
  linalg.copy ins(%a : memref<2x3x4xf16>) outs(%c : memref<2x3x4xf16>)
  func.return
}
"""

CASES["reduce_two_dims"] = """
func.func @main(%a: memref<3x2x4xf32>, %o: memref<2xf32>, %m: memref<3x4xi16>) {
  linalg.reduce ins(%a : memref<3x2x4xf32>) outs(%o : memref<2xf32>) dimensions = [0, 2]
  (%x: f32, %acc: f32) {
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  %t = memref.alloc() : memref<3xi16>
  linalg.reduce ins(%m : memref<3x4xi16>) outs(%t : memref<3xi16>) dimensions = [1]
  (%x: i16, %acc: i16) {
    %s = arith.maxsi %x, %acc : i16
    linalg.yield %s : i16
  }
  memref.dealloc %t : memref<3xi16>
  func.return
}
"""

CASES["batch_matmul"] = """
func.func @main(%a: memref<2x3x4xf32>, %b: memref<2x4x2xf32>, %o: memref<2x3x2xf32>, %qa: memref<1x2x3xi8>, %qb: memref<1x3x2xi8>, %qo: memref<1x2x2xi32>, %za: i32, %zb: i32) {
  linalg.batch_matmul ins(%a, %b : memref<2x3x4xf32>, memref<2x4x2xf32>) outs(%o : memref<2x3x2xf32>)
  linalg.quantized_batch_matmul ins(%qa, %qb, %za, %zb : memref<1x2x3xi8>, memref<1x3x2xi8>, i32, i32) outs(%qo : memref<1x2x2xi32>)
  func.return
}
"""

CASES["conv_2d"] = f"""
func.func @main(%x: memref<1x5x5x2xf32>, %wf: memref<3x3x3x2xf32>, %of: memref<1x2x2x3xf32>, %wh: memref<2x2x2x3xf32>, %oh: memref<1x2x2x3xf32>) {{
  linalg.conv_2d_nhwc_fhwc {{dilations = {D1}, strides = {D2}}} ins(%x, %wf : memref<1x5x5x2xf32>, memref<3x3x3x2xf32>) outs(%of : memref<1x2x2x3xf32>)
  linalg.conv_2d_nhwc_hwcf {{dilations = {D2}, strides = {D1}}} ins(%x, %wh : memref<1x5x5x2xf32>, memref<2x2x2x3xf32>) outs(%oh : memref<1x2x2x3xf32>)
  func.return
}}
"""

CASES["conv_2d_q"] = f"""
func.func @main(%x: memref<1x4x4x2xi8>, %wf: memref<2x2x2x2xi8>, %of: memref<1x3x3x2xi32>, %wh: memref<2x2x2x2xi8>, %oh: memref<1x2x2x2xi32>, %zx: i32, %zw: i32) {{
  linalg.conv_2d_nhwc_fhwc_q {{dilations = {D1}, strides = {D1}}} ins(%x, %wf, %zx, %zw : memref<1x4x4x2xi8>, memref<2x2x2x2xi8>, i32, i32) outs(%of : memref<1x3x3x2xi32>)
  linalg.conv_2d_nhwc_hwcf_q {{dilations = {D2}, strides = {D1}}} ins(%x, %wh, %zx, %zw : memref<1x4x4x2xi8>, memref<2x2x2x2xi8>, i32, i32) outs(%oh : memref<1x2x2x2xi32>)
  func.return
}}
"""

CASES["conv_3d"] = """
func.func @main(%x: memref<1x3x3x3x2xf32>, %w: memref<2x2x2x2x2xf32>, %o: memref<1x2x2x2x2xf32>, %qx: memref<1x3x3x3x1xi8>, %qw: memref<2x2x2x1x2xi8>, %qo: memref<1x2x2x2x2xi32>, %zx: i32, %zw: i32) {
  linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%x, %w : memref<1x3x3x3x2xf32>, memref<2x2x2x2x2xf32>) outs(%o : memref<1x2x2x2x2xf32>)
  linalg.conv_3d_ndhwc_dhwcf_q {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%qx, %qw, %zx, %zw : memref<1x3x3x3x1xi8>, memref<2x2x2x1x2xi8>, i32, i32) outs(%qo : memref<1x2x2x2x2xi32>)
  func.return
}
"""

CASES["depthwise"] = f"""
func.func @main(%x: memref<1x4x4x2xf32>, %w: memref<2x2x2x2xf32>, %o: memref<1x2x2x2x2xf32>, %qx: memref<1x4x4x2xi8>, %qo: memref<1x3x3x2x2xi32>, %qw: memref<2x2x2x2xi8>, %zx: i32, %zw: i32) {{
  linalg.depthwise_conv_2d_nhwc_hwcm {{dilations = {D1}, strides = {D2}}} ins(%x, %w : memref<1x4x4x2xf32>, memref<2x2x2x2xf32>) outs(%o : memref<1x2x2x2x2xf32>)
  linalg.depthwise_conv_2d_nhwc_hwcm_q {{dilations = {D1}, strides = {D1}}} ins(%qx, %qw, %zx, %zw : memref<1x4x4x2xi8>, memref<2x2x2x2xi8>, i32, i32) outs(%qo : memref<1x3x3x2x2xi32>)
  func.return
}}
"""

CASES["pooling"] = f"""
func.func @main(%x: memref<1x5x5x2xf32>, %omax: memref<1x2x2x2xf32>, %omin: memref<1x2x2x2xf32>, %osum: memref<1x4x4x2xf32>, %q: memref<1x4x4x1xi8>, %qmax: memref<1x3x3x1xi8>, %qmin: memref<1x3x3x1xi8>) {{
  %k3 = memref.alloc() : memref<3x3xf32>
  %k2 = memref.alloc() : memref<2x2xi8>
  linalg.pooling_nhwc_max {{dilations = {D1}, strides = {D2}}} ins(%x, %k3 : memref<1x5x5x2xf32>, memref<3x3xf32>) outs(%omax : memref<1x2x2x2xf32>)
  linalg.pooling_nhwc_min {{dilations = {D1}, strides = {D2}}} ins(%x, %k3 : memref<1x5x5x2xf32>, memref<3x3xf32>) outs(%omin : memref<1x2x2x2xf32>)
  linalg.pooling_nhwc_sum {{dilations = {D1}, strides = {D1}}} ins(%x, %k2 : memref<1x5x5x2xf32>, memref<2x2xi8>) outs(%osum : memref<1x4x4x2xf32>)
  linalg.pooling_nhwc_max_unsigned {{dilations = {D1}, strides = {D1}}} ins(%q, %k2 : memref<1x4x4x1xi8>, memref<2x2xi8>) outs(%qmax : memref<1x3x3x1xi8>)
  linalg.pooling_nhwc_min_unsigned {{dilations = {D1}, strides = {D1}}} ins(%q, %k2 : memref<1x4x4x1xi8>, memref<2x2xi8>) outs(%qmin : memref<1x3x3x1xi8>)
  memref.dealloc %k3 : memref<3x3xf32>
  memref.dealloc %k2 : memref<2x2xi8>
  func.return
}}
"""

# dynamic sizes: bounds from memref.dim (affine: a symbol bound, `0 to %dim`)
CASES["dynamic_dims"] = """
func.func @main(%a: memref<?x4xf32>, %b: memref<4x?xf32>, %o: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<?x4xf32>, memref<4x?xf32>) outs(%o : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  func.return
}
"""

# structured control flow on memrefs around linalg (what tosa.cond_if / while_loop become)
CASES["scf_while_for_if"] = """
func.func @main(%n: i32, %acc: memref<4xf32>, %x: memref<4xf32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %lim = arith.minsi %n, %c3 : i32
  %r:2 = scf.while (%i = %c0, %s = %c0) : (i32, i32) -> (i32, i32) {
    %lt = arith.cmpi slt, %i, %lim : i32
    scf.condition(%lt) %i, %s : i32, i32
  } do {
  ^bb0(%j: i32, %t: i32):
    %odd = arith.andi %j, %c1 : i32
    %isodd = arith.cmpi ne, %odd, %c0 : i32
    scf.if %isodd {
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%acc : memref<4xf32>) {
      ^bb1(%a: f32, %b: f32):
        %m = arith.mulf %a, %b : f32
        linalg.yield %m : f32
      }
    } else {
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%acc : memref<4xf32>) {
      ^bb1(%a: f32, %b: f32):
        %m = arith.addf %a, %b : f32
        linalg.yield %m : f32
      }
    }
    %lb = arith.constant 0 : index
    %ub = arith.constant 3 : index
    %st = arith.constant 1 : index
    %sum = scf.for %k = %lb to %ub step %st iter_args(%q = %t) -> (i32) {
      %ki = arith.index_cast %k : index to i32
      %q1 = arith.addi %q, %ki : i32
      scf.yield %q1 : i32
    }
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1, %sum : i32, i32
  }
  func.return %r#1 : i32
}
"""


# --------------------------------------------------------------------------- running


def _inputs(module, seed: int) -> list:
    fn = next(op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == "main")
    rng = np.random.default_rng(seed)
    values = []
    for t in fn.function_type.inputs.data:
        if isinstance(t, MemRefType):
            dtype = dtype_of(t.get_element_type())
            shape = tuple(d if d >= 0 else 3 for d in t.get_shape())  # dynamic: 3
            if dtype.kind == "f":
                values.append((rng.standard_normal(shape) * 4).astype(dtype))
            else:
                info = np.iinfo(dtype)
                values.append(rng.integers(info.min, int(info.max) + 1, size=shape).astype(dtype))
        else:
            assert isinstance(t, IntegerType)
            values.append(np.asarray(rng.integers(-5, 6), dtype=dtype_of(t)))
    return values


def run_buffers(module, inputs) -> list:
    """Run @main on copies of `inputs` (memrefs are written in place): the buffers after
    the call, then the returned values; checks that every allocation was freed."""
    interpreter = build_interpreter(module)
    buffers = [np.array(v) for v in inputs]
    with np.errstate(all="ignore"):
        results = interpreter.call_op("main", tuple(buffers))
    return [*buffers, *(np.asarray(r) for r in results)]


@pytest.fixture(scope="module")
def references():
    out = {}
    for name, src in CASES.items():
        module = parse(src)
        inputs = _inputs(module, seed=len(name))
        out[name] = (inputs, run_buffers(module, inputs))
    return out


@pytest.mark.parametrize("stage", list(STAGES))
@pytest.mark.parametrize("case", list(CASES))
def test_stage_matches_linalg(case, stage, references):
    inputs, want = references[case]
    module = lower(CASES[case], STAGES[stage])
    names = {op.name for op in module.walk()}
    assert not {n for n in names if n.startswith("linalg.")}, names
    if stage.endswith("+cf"):
        assert not {n for n in names if n.startswith(("scf.", "affine."))}, names
    if stage == "affine":
        assert not {"scf.for", "memref.load", "memref.store"} & names or case in ("generic_if_gather", "scf_while_for_if"), names
    if stage == "affine+lower":
        assert not {n for n in names if n.startswith("affine.")}, names
    got = run_buffers(module, inputs)
    assert_same(got, want, f"{case} after {stage}")


def test_reference_really_computes():
    """The differential reference is not vacuous: the linalg-level run of a case changes
    its output buffers, and matches a direct numpy computation."""
    module = parse(CASES["batch_matmul"])
    inputs = _inputs(module, 3)
    got = run_buffers(module, inputs)
    a, b = inputs[0], inputs[1]
    want = np.array(inputs[2])
    for n in range(2):
        for i in range(3):
            for j in range(2):
                for k in range(4):
                    want[n, i, j] = np.float32(want[n, i, j] + np.float32(a[n, i, k] * b[n, k, j]))
    assert_same([got[2]], [want])
    qa, qb, za, zb = (inputs[3].astype(np.int64), inputs[4].astype(np.int64), int(inputs[6]), int(inputs[7]))
    qwant = inputs[5].astype(np.int64) + np.einsum("bik,bkj->bij", qa - za, qb - zb)
    assert_same([got[5]], [((qwant + 2**31) % 2**32 - 2**31).astype(np.int32)])


def test_loop_order_keeps_every_reduction_order():
    """Loops come in the op's dimension order, reductions included, except that the output's
    innermost dim moves inside the trailing reduction loops: generic_reduce_middle (d0
    reduction, d1 parallel -> output, d2 reduction) becomes d0 > d2 > d1, bounds 3, 4, 5 —
    for each output element the (d0, d2) steps still come in lexicographic order, which the
    differential tests above check bit for bit."""
    module = lower(CASES["generic_reduce_middle"], STAGES["affine"])
    from xdsl.dialects import affine

    bounds = [op.upperBoundMap.data.results[0].value for op in module.walk() if isinstance(op, affine.ForOp)]
    assert bounds == [3, 4, 5]


AFFINE_EXPRS = """
func.func @main(%o: memref<15x6xindex>) {
  affine.for %i = 0 to 15 {
    %v = affine.apply affine_map<(d0) -> (d0 - 7)> (%i)
    %m = affine.apply affine_map<(d0) -> (d0 mod 3)> (%v)
    %f = affine.apply affine_map<(d0) -> (d0 floordiv 3)> (%v)
    %c = affine.apply affine_map<(d0) -> (d0 ceildiv 3)> (%v)
    %n = affine.min affine_map<(d0)[s0] -> (d0 * 2, s0 + 1, 9)> (%v)[%i]
    affine.store %v, %o[%i, 0] : memref<15x6xindex>
    affine.store %m, %o[%i, 1] : memref<15x6xindex>
    affine.store %f, %o[%i, 2] : memref<15x6xindex>
    affine.store %c, %o[%i, 3] : memref<15x6xindex>
    affine.store %n, %o[%i, 4] : memref<15x6xindex>
  }
  affine.for %j = max affine_map<(d0) -> (d0 - 3, 2)> (%c1) to min affine_map<()[s0] -> (s0 floordiv 2, 11)> ()[%c13] step 3 {
    %one = arith.constant 1 : index
    affine.store %one, %o[%j, 5] : memref<15x6xindex>
  }
  func.return
}
"""


def test_lower_affine_expression_semantics():
    """mod / floordiv / ceildiv round as affine maps define them (toward -inf / +inf, a
    non-negative mod) on negative values too; min/max bounds; symbols. Expected values
    from Python's floor arithmetic, for our affine interpreter and after lower-affine."""
    src = AFFINE_EXPRS.replace("%c1)", "%k5)").replace("()[%c13]", "()[%k13]").replace(
        "  affine.for %j", "  %k5 = arith.constant 5 : index\n  %k13 = arith.constant 13 : index\n  affine.for %j")
    want = np.zeros((15, 6), np.int64)
    for i in range(15):
        v = i - 7
        want[i, :5] = [v, v % 3, v // 3, -((-v) // 3), min(v * 2, i + 1, 9)]
    for j in range(max(5 - 3, 2), min(13 // 2, 11), 3):
        want[j, 5] = 1
    zeros = [np.zeros((15, 6), np.int64)]
    assert_same(run_buffers(parse(src), zeros), [want])
    lowered = lower(src, "lower-affine")
    assert not [op.name for op in lowered.walk() if op.name.startswith("affine.")]
    assert_same(run_buffers(lowered, zeros), [want])


# --------------------------------------------------------------------------- diagnostics


def test_tensor_linalg_is_a_located_error():
    src = """
func.func @main(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
"""
    for stage in ("convert-linalg-to-loops", "convert-linalg-to-affine-loops"):
        with pytest.raises(LocatedError, match=f"{stage}: cannot lower 'linalg.generic': it has tensor results"):
            lower(src, stage)


def test_scf_in_single_block_region_is_a_located_error():
    src = """
func.func @main(%c: i1, %o: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    scf.if %c {
      %z = arith.constant 0.0 : f32
      affine.store %z, %o[%i] : memref<4xf32>
    }
  }
  func.return
}
"""
    with pytest.raises(LocatedError, match="convert-scf-to-cf: cannot lower 'scf.if': it is inside 'affine.for'"):
        lower(src, "convert-scf-to-cf")


# --------------------------------------------------------------------------- MLIR 22


def _mlir_tools():
    if not (MLIR_OPT.exists() and MLIR_TRANSLATE.exists()):
        pytest.skip("MLIR 22 tools not installed")


MLIR_PIPELINE = ["--lower-affine", "--convert-scf-to-cf", "--expand-strided-metadata",
                 "--finalize-memref-to-llvm", "--convert-to-llvm", "--reconcile-unrealized-casts"]


@pytest.mark.parametrize("stage", ["affine", "scf", "affine+lower", "scf+cf"])
def test_mlir22_lowers_our_loops_to_llvm_ir(stage):
    _mlir_tools()
    names = list(CASES)
    text = "\n".join(print_ir(lower(CASES[n], STAGES[stage]), style="generic") for n in names)
    # one module per case: mlir-opt reads them one after another with --split-input-file
    text = "\n// -----\n".join(print_ir(lower(CASES[n], STAGES[stage]), style="generic") for n in names)
    opt = subprocess.run([str(MLIR_OPT), "--split-input-file", *MLIR_PIPELINE], input=text,
                         capture_output=True, text=True, timeout=120)
    assert opt.returncode == 0, opt.stderr[:3000]
    for chunk in opt.stdout.split("// -----"):
        if not chunk.strip():
            continue
        assert "llvm.func @main" in chunk
        for bad in ("affine.", "scf.", "cf.", "memref.", "linalg."):
            assert bad not in chunk, (bad, chunk[:2000])
        tr = subprocess.run([str(MLIR_TRANSLATE), "--mlir-to-llvmir"], input=chunk, capture_output=True,
                            text=True, timeout=60)
        assert tr.returncode == 0, tr.stderr[:3000]
        assert "define void @main" in tr.stdout or "define i32 @main" in tr.stdout


_ = shutil
