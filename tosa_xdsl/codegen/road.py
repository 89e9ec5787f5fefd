"""Which road native compilation takes to LLVM IR: the direct road (codegen/direct_llvm/, LLVM IR
text from the loop level) or the llvm-dialect road (convert-to-llvm, codegen/llvm.py).

A module of its own because the compiled-module cache's key names the road: a cache hit asks
this question and nothing else, and importing codegen/direct_llvm/ for it (its code generators,
~0.1 s) was a fifth of a cached `tosa-run --backend jit` process.
"""

from __future__ import annotations

import os

SWITCH = "TOSA_XDSL_DIRECT_LLVM"  # "0": always the llvm-dialect road (A/B measurements, bisecting)


def direct_llvm_enabled() -> bool:
    return os.environ.get(SWITCH, "1") != "0"
