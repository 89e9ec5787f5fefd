"""A disk cache of the code Python's `dataclasses` compiles for each class (CLI start-up).

Why: xDSL defines ~270 dataclasses when it is imported (its IRDL attributes, constraints and
op definitions), and for each one `dataclasses` writes the text of its methods (`__init__`,
`__eq__`, `__hash__`, `__setattr__`, ...) and compiles it with `exec`: ~1300 compilations in
every process, ~20% of `tosa-run`'s whole process on the example (0.49 -> 0.40 s CPU with
this cache, docs/performance.md). The text depends only on the class's fields and options,
so the compiled code is kept on disk keyed by that text, as `.pyc` files keep a module's:
the same text gives the same code object, and `dataclasses` then builds the functions from
it exactly as before (same globals, same closure values).

- File: `dataclass-code-<interpreter tag>.marshal` in the compiled-module cache's folder
  (`TOSA_XDSL_CACHE_DIR`, else `$XDG_CACHE_HOME/tosa-xdsl` or `~/.cache/tosa-xdsl`; see
  docs/native.md). `TOSA_XDSL_NO_CACHE=1` turns it off. As with `.pyc` files, nothing is
  written when Python is told not to write bytecode (`-B`, PYTHONDONTWRITEBYTECODE).
- The file is a header, the SHA-256 of the payload and the marshalled dict of text -> code.
  A file that cannot be read, fails the checksum (cut short, any changed byte) or is not such
  a dict is ignored (and replaced at exit); it is written to a temporary file and renamed.
- Only for CPython 3.11's `dataclasses._create_fn` (recognised by its arguments): other
  versions run unchanged. Installed by the command lines (tosa-run, tosa-opt) before they
  import xDSL; a library user's process is left alone.
"""

from __future__ import annotations

import os
import sys
from typing import Any

MAGIC = b"tosa-xdsl dataclass code 1\n"  # then the payload's SHA-256, then the marshalled dict
MAX_ENTRIES = 20_000  # far above the ~1300 texts of one run: a guard against a runaway file
_COMPILED_HERE: dict[str, Any] = {}  # texts compiled by this process (not in the file)
_EXPECTED_ARGS = ("name", "args", "body", "globals", "locals", "return_type")


def cache_file() -> str:
    from tosa_xdsl.codegen.cache import cache_dir

    return str(cache_dir() / f"dataclass-code-{sys.implementation.cache_tag}.marshal")


def _supported(dataclasses: Any) -> bool:
    fn = getattr(dataclasses, "_create_fn", None)
    code = getattr(fn, "__code__", None)
    return (sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11)
            and code is not None and code.co_varnames[:len(_EXPECTED_ARGS)] == _EXPECTED_ARGS)


def compiled_here() -> int:
    """How many method texts this process compiled itself (0: all came from the file)."""
    return len(_COMPILED_HERE)


def load(path: str) -> dict[str, Any]:
    """The cached code objects by text; {} for a missing, unreadable or damaged file (any
    changed byte fails the SHA-256 check before anything is unmarshalled)."""
    import hashlib
    import marshal

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return {}
    head = len(MAGIC) + 32
    if data[:len(MAGIC)] != MAGIC or hashlib.sha256(data[head:]).digest() != data[len(MAGIC):head]:
        return {}
    try:
        codes = marshal.loads(data[head:])
    except Exception:  # noqa: BLE001 -- written by another marshal version: not usable
        return {}
    code_type = type(load.__code__)
    if not isinstance(codes, dict) or len(codes) > MAX_ENTRIES or not all(
            type(k) is str and type(v) is code_type for k, v in codes.items()):
        return {}
    return codes


def save(path: str, codes: dict[str, Any]) -> bool:
    import hashlib
    import marshal
    import tempfile

    payload = marshal.dumps(codes)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".dataclass-code-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:  # noqa: BLE001 -- a cache that cannot be written costs the next start-up only
        return False
    return True


def install() -> bool:
    """Serve `dataclasses`' compilations from the cache from now on; True if installed."""
    import dataclasses

    from tosa_xdsl.codegen.cache import disabled_by_environment

    if disabled_by_environment() or not _supported(dataclasses) or getattr(dataclasses._create_fn,
                                                                           "_tosa_xdsl", False):
        return False
    path = cache_file()
    codes = load(path)
    new = _COMPILED_HERE
    dataclasses._create_fn = _make_create_fn(dataclasses.MISSING, vars(dataclasses), codes,  # pyright: ignore
                                             new)
    if not sys.dont_write_bytecode:
        import atexit

        def write_new() -> None:
            if new:
                merged = {**codes, **new} if len(codes) + len(new) <= MAX_ENTRIES else new
                save(path, merged)

        atexit.register(write_new)
    return True


def _make_create_fn(MISSING: Any, module_globals: dict[str, Any], codes: dict[str, Any],  # noqa: N803
                    new: dict[str, Any]) -> Any:
    def _create_fn(name, args, body, *, globals=None, locals=None, return_type=MISSING):  # noqa: A002
        # CPython 3.11's dataclasses._create_fn, line for line, but the compiled text is
        # looked up first (and exec without globals means the dataclasses module's, as there).
        if globals is None:
            globals = module_globals
        if locals is None:
            locals = {}
        return_annotation = ""
        if return_type is not MISSING:
            locals["_return_type"] = return_type
            return_annotation = "->_return_type"
        args = ",".join(args)
        body = "\n".join(f"  {b}" for b in body)
        txt = f" def {name}({args}){return_annotation}:\n{body}"
        local_vars = ", ".join(locals.keys())
        txt = f"def __create_fn__({local_vars}):\n{txt}\n return {name}"
        code = codes.get(txt)
        if code is None:
            # what exec(txt) compiles in the dataclasses module: no __future__ flags inherited
            code = new[txt] = compile(txt, "<string>", "exec", dont_inherit=True)
        ns: dict[str, Any] = {}
        exec(code, globals, ns)  # noqa: S102 -- the same code dataclasses itself runs
        return ns["__create_fn__"](**locals)

    _create_fn._tosa_xdsl = True  # pyright: ignore[reportFunctionMemberAccess]
    return _create_fn
