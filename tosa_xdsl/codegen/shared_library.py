"""Ahead-of-time compilation: a TOSA module -> a native shared library (`.so`).

    tosa-translate --emit-shared-library model.mlir -o model.so

The module is lowered with `tosa-to-llvm` (validation included), compiled to object code as
the JIT does (codegen/llvm.py) and linked by the system's C compiler driver (`$CC`, else
`cc`) with `-shared -lm`. Every function of the module becomes an exported C function of
the same name with the bare-pointer, out-parameter convention of docs/native.md:

    void main(const float *input0, float *result0, float *result1);

Static shapes only (the lowering requires them); the weights are inside the library. Float
dot products are contracted to FMA as tosa-to-llvm does by default (`--fp-contract=off`, or
`fp_contract="off"`: the interpreter's float bits).

`threads` > 1 (`tosa-translate --emit-shared-library --threads N`): the library is compiled
as `tosa-to-llvm{threads=N}` and carries its own worker pool (codegen/thread_pool.py, linked
with -lpthread): each call runs the outer parallel loops on N threads (the caller's and N - 1
workers the library starts on its first call and keeps). Without it the library starts no
thread.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

PIPELINE = "tosa-to-llvm"


class LinkError(Exception):
    pass


def linker() -> str | None:
    """The C compiler driver that links the library, or None."""
    return shutil.which(os.environ.get("CC") or "cc")


def emit_shared_library(module: Any, opt_level: int = 2, threads: int = 1, fp_contract: str = "fast") -> bytes:
    """The bytes of a shared library implementing every function of the TOSA `module`.
    `fp_contract="off"`: float dot products without FMA (the interpreter's bits)."""
    from tosa_xdsl.codegen import thread_pool
    from tosa_xdsl.codegen.llvm import compile_object
    from tosa_xdsl.jit import native_pipeline

    cc = linker()
    if cc is None:
        raise LinkError(f"--emit-shared-library needs a C compiler driver to link: "
                        f"'{os.environ.get('CC') or 'cc'}' not found (install one or set CC)")
    from tosa_xdsl.codegen.direct_llvm import lower_and_compile

    lowered = module.clone()
    done = lower_and_compile(lowered, native_pipeline(PIPELINE, threads, fp_contract), None, opt_level)  # the direct road
    obj = done[0] if done is not None else compile_object(lowered, opt_level)
    pool = thread_pool.object_code(opt_level) if threads > 1 else None
    return link(obj, cc, pool)


def link(obj: bytes, cc: str, pool: bytes | None = None) -> bytes:
    """`pool`: the thread pool's object, linked in with -lpthread."""
    with tempfile.TemporaryDirectory(prefix="tosa-xdsl-so-") as tmp:
        o, so = Path(tmp) / "module.o", Path(tmp) / "module.so"
        o.write_bytes(obj)
        objects = [str(o)]
        if pool is not None:
            (Path(tmp) / "pool.o").write_bytes(pool)
            objects.append(str(Path(tmp) / "pool.o"))
        libs = ["-lm", "-lpthread"] if pool is not None else ["-lm"]
        try:
            proc = subprocess.run([cc, "-shared", "-o", str(so), *objects, *libs], capture_output=True, text=True,
                                  timeout=300)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise LinkError(f"cannot run the linker '{cc}': {err}") from None
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
            raise LinkError(f"linking failed ({cc}): {last}")
        return so.read_bytes()
