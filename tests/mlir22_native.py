"""Run a module through MLIR 22's own tools and call its @main natively: the independent
oracle the producer and lowering tests compare with (mlir-opt with the caller's passes,
mlir-translate to LLVM IR, llvmlite's MCJIT). Arguments and results are passed as bare
pointers (the static out-param convention both pipelines use)."""

from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

import numpy as np

BIN = Path("/usr/lib/llvm-22/bin")
RUNNER_UTILS = Path("/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1")


def run_main(src: str, opt_args: list[str], inputs: list[np.ndarray], outs: list[np.ndarray]) -> list[np.ndarray]:
    """`src` through `mlir-opt *opt_args` and `mlir-translate --mlir-to-llvmir`, then
    `main(*inputs, *outs)`; returns `outs`, filled."""
    import llvmlite.binding as llvm

    opt = subprocess.run([str(BIN / "mlir-opt"), *opt_args], input=src, capture_output=True, text=True)
    assert opt.returncode == 0, opt.stderr[:2000]
    ll = subprocess.run([str(BIN / "mlir-translate"), "--mlir-to-llvmir"], input=opt.stdout,
                        capture_output=True, text=True)
    assert ll.returncode == 0, ll.stderr[:2000]
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    if RUNNER_UTILS.exists():  # memrefCopy, for copies MLIR does not turn into memcpy
        llvm.load_library_permanently(str(RUNNER_UTILS))
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(ll.stdout),
                                        llvm.Target.from_default_triple().create_target_machine())
    engine.finalize_object()
    args = [np.ascontiguousarray(x) for x in inputs] + outs
    main = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(args))(engine.get_function_address("main"))
    main(*[a.ctypes.data for a in args])
    return outs
