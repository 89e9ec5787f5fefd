"""The compiled-module cache on disk: object code keyed by what it was compiled from.

    cache = ModuleCache.default()            # None when disabled (TOSA_XDSL_NO_CACHE=1)
    key = cache_key(printed_module, pipeline, entry, opt_level)
    entry = cache.load(key)                  # CacheEntry(object, meta) or None
    cache.store(key, object_bytes, meta)

Location: `$TOSA_XDSL_CACHE_DIR`, else `$XDG_CACHE_HOME/tosa-xdsl`, else
`~/.cache/tosa-xdsl`. `TOSA_XDSL_NO_CACHE=1` (or tosa-run's `--no-cache`) disables it.

The key is a SHA-256 over: the module's printed IR (generic form, dense_resource blobs
included), the lowering pipeline, the entry function, the LLVM optimisation level, the
settings table version (codegen/llvm.py), the host (triple, CPU, features), the LLVM, xDSL and
llvmlite versions and ours. One file per key, `<key>.obj`:

    b"TOSA-XDSL-OBJ 1\\n" | 4-byte little-endian length | JSON metadata | object code

The metadata repeats the key and carries the object's SHA-256 and size: a file is used only
if the magic, the key and the checksum all match, so a truncated, corrupted or foreign file is
never loaded (it is ignored, and replaced by the next store). Writes go to a temporary file
renamed into place, so concurrent processes see either nothing or a whole entry. Every I/O
error disables the cache for that call, never the run.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAGIC = b"TOSA-XDSL-OBJ 1\n"
MAX_META = 1 << 20  # bytes of JSON metadata a valid entry can have


def cache_dir() -> Path:
    override = os.environ.get("TOSA_XDSL_CACHE_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "tosa-xdsl"


def disabled_by_environment() -> bool:
    return os.environ.get("TOSA_XDSL_NO_CACHE", "") not in ("", "0")


def _versions() -> str:
    import llvmlite
    import xdsl

    import tosa_xdsl

    return f"tosa-xdsl {tosa_xdsl.__version__}|xdsl {getattr(xdsl, '__version__', '?')}|llvmlite {llvmlite.__version__}"


def cache_key(content: str | bytes, pipeline: str, entry: str, opt_level: int, options: str = "") -> str:
    """`options`: any further setting that changes the generated code (say a thread count),
    as text; a new code-changing option must reach the key, or a stale entry would be used."""
    from tosa_xdsl.codegen.llvm import SETTINGS_VERSION, target_description

    h = hashlib.sha256()
    for part in (MAGIC.decode().strip(), _versions(), target_description(), f"settings {SETTINGS_VERSION}",
                 f"opt {opt_level}", f"pipeline {pipeline}", f"entry {entry}", f"options {options}"):
        h.update(part.encode())
        h.update(b"\0")
    h.update(content.encode() if isinstance(content, str) else content)
    return h.hexdigest()


@dataclass
class CacheEntry:
    object: bytes
    meta: dict[str, Any]


class ModuleCache:
    def __init__(self, directory: Path | str):
        self.directory = Path(directory)

    @classmethod
    def default(cls) -> ModuleCache | None:
        return None if disabled_by_environment() else cls(cache_dir())

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.obj"

    def load(self, key: str) -> CacheEntry | None:
        """The entry for `key`, or None (missing, unreadable, corrupt or another key's)."""
        try:
            data = self.path(key).read_bytes()
        except OSError:
            return None
        return decode(data, key)

    def store(self, key: str, obj: bytes, meta: dict[str, Any]) -> bool:
        """Write the entry atomically; False (and nothing left behind) on any I/O error."""
        payload = encode(key, obj, meta)
        tmp = None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.directory)
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            os.replace(tmp, self.path(key))
            return True
        except OSError:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
            return False


def encode(key: str, obj: bytes, meta: dict[str, Any]) -> bytes:
    header = dict(meta, key=key, object_sha256=hashlib.sha256(obj).hexdigest(), object_size=len(obj))
    text = json.dumps(header, sort_keys=True).encode()
    return MAGIC + struct.pack("<I", len(text)) + text + obj


def decode(data: bytes, key: str) -> CacheEntry | None:
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
        return None
    (size,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    if size > MAX_META or start + size > len(data):
        return None
    try:
        meta = json.loads(data[start:start + size])
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(meta, dict) or meta.get("key") != key:
        return None
    obj = data[start + size:]
    if meta.get("object_size") != len(obj) or meta.get("object_sha256") != hashlib.sha256(obj).hexdigest():
        return None
    return CacheEntry(obj, meta)
