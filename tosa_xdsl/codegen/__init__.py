"""Native code from the llvm dialect: object code (`llvm.py`), the on-disk compiled-module
cache (`cache.py`) and ahead-of-time shared libraries (`shared_library.py`).
tosa_xdsl.jit loads the object code into the process; docs/native.md has the details."""
