"""dense_resource blobs: a binary store, MLIR's `{-# dialect_resources #-}` text form, numpy views.

Producers (torch-mlir, IREE, MLIR bytecode) keep weights out of line:

    %w = "tosa.const"() <{values = dense_resource<torch_tensor_0> : tensor<64x3xf32>}> ...
    {-#
      dialect_resources: {
        builtin: {
          torch_tensor_0: "0x04000000<hex payload>"
        }
      }
    #-}

The first 4 bytes of each blob are its alignment (little-endian, a power of two); the rest is
the payload in MLIR's raw dense layout (i1 and i4 one byte per element, floats as IEEE bits).

Public contract (shared with the bytecode reader/writer and the importers):

    put_blob(data, key_hint="blob", alignment=None) -> str      # a fresh, unique key
    get_blob(key) -> Blob | None                                # Blob.data, Blob.alignment
    dense_resource_array(attr) -> numpy.ndarray                 # a read-only view, shape/dtype from attr.type
    dense_resource_problem(attr) -> str | None                  # why dense_resource_array would fail
    make_dense_resource(array, tensor_type, key_hint) -> DenseResourceAttr

Why this module exists: xDSL 0.74 keeps each blob as its hex *string* on the Builtin dialect's
`OpAsmDialectInterface` (xdsl/dialect_interfaces/op_asm.py): a 100 MB weight costs 200 MB of
text held forever plus a fresh `bytes.fromhex` copy at every use. Its parser also mishandles
keys seen before in the same process (the section entry and every second reference get
renamed apart from the first, so the blob no longer reaches the constant), rejects quoted keys,
and its printer puts all entries of a section on one line, in random order, lowercase. `install()`
replaces that one interface instance with `BlobStore` (binary payloads, aligned) and patches the
three parser/printer methods involved, so text in MLIR's form reads and prints back exactly as
`mlir-opt` prints it. `tosa_xdsl.context.load_tosa` calls `install()`.

The store is process-global, as xDSL's Builtin dialect object is. A key parsed again in the
same process (a second file also using `blob`) is stored as `blob_0`, `blob_1`, ... (MLIR
renames the same way within one MLIRContext), and every reference in that file follows the
rename. The printer still prints the name the file used, as if each file had its own context:
within one printed module a name is taken by the first blob printed with it; a different
blob wanting the same name gets `name_0`, `name_1`, ... So `tosa-opt` run twice in one
process prints what `mlir-opt` prints. Blobs are never freed (keys are plain strings inside
attributes, so nothing tells us when the last use is gone); a process handling many large
models one after another should fork.
"""

from __future__ import annotations

import binascii
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import Builtin, DenseResourceAttr
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.parser.attribute_parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

# Physical alignment of the buffers we allocate. A blob may declare more (the header keeps the
# declared value and prints it back), but a hostile header (0x80000000) must not make us
# allocate 2 GiB of padding; 64 bytes covers every numpy/SIMD requirement.
MAX_PHYSICAL_ALIGNMENT = 64

# MLIR prints a resource key bare when it is an identifier, otherwise as a string literal.
_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")


class ResourceError(ValueError):
    """A blob that cannot be read or does not fit the type that uses it."""


@dataclass(frozen=True)
class Blob:
    """One resource: `data` is the payload without the 4-byte alignment header (read-only)."""

    data: memoryview
    alignment: int


# --------------------------------------------------------------------------------------
# Binary storage
# --------------------------------------------------------------------------------------


def _aligned_copy(payload: Any, alignment: int) -> memoryview:
    """A read-only copy of `payload` in a buffer whose address is a multiple of `alignment`
    (capped at MAX_PHYSICAL_ALIGNMENT)."""
    src = np.frombuffer(payload, dtype=np.uint8) if len(memoryview(payload).cast("B")) else None
    n = 0 if src is None else src.size
    align = min(alignment, MAX_PHYSICAL_ALIGNMENT)
    raw = np.empty(n + align, dtype=np.uint8)
    start = (-raw.ctypes.data) % align
    out = raw[start : start + n]
    if src is not None:
        out[:] = src
    out.flags.writeable = False
    return memoryview(out)


def _immutable_view(data: Any, alignment: int) -> memoryview | None:
    """`data` itself as a read-only byte view, if nobody can change it (a view of a `bytes`
    object or of a read-only mmap) and it sits at an address aligned as the blob asks (up to
    MAX_PHYSICAL_ALIGNMENT); else None (the caller copies). Readers of whole files use it to
    keep weights where the file's bytes already are (peak memory 1x the weights, not 2x)."""
    view = memoryview(data)
    owner = view.obj
    while isinstance(owner, (memoryview, np.ndarray)):  # a view of a view (of an array) ...
        if isinstance(owner, np.ndarray):
            if owner.flags.writeable:
                return None
            owner = owner.base
        else:
            owner = owner.obj
    if not (isinstance(owner, bytes) or (view.readonly and type(owner).__name__ == "mmap")):
        return None
    view = view.cast("B") if view.format != "B" or view.ndim != 1 else view
    if not view.contiguous:
        return None
    address = np.frombuffer(view, dtype=np.uint8).ctypes.data if len(view) else 0
    if address % min(alignment, MAX_PHYSICAL_ALIGNMENT):
        return None
    return view.toreadonly()


def _check_alignment(alignment: int) -> None:
    if alignment <= 0 or alignment & (alignment - 1):
        raise ResourceError(f"alignment must be a power of two, got {alignment}")


class BlobStore(OpAsmDialectInterface):
    """The Builtin dialect's resource interface, holding binary blobs instead of hex text.

    Keys are declared by the parser when it first meets `dense_resource<key>` (the section with
    the data comes at the end of the file), so a key can exist without a blob yet."""

    def __init__(self) -> None:
        super().__init__()
        self._blobs: dict[str, Blob | None] = {}
        # key -> the name the producer gave it (differs after a rename; see the module doc)
        self._names: dict[str, str] = {}

    # -- OpAsmDialectInterface, as xDSL's parser and printer call it --

    def declare_resource(self, key: str) -> str:
        """Reserve `key` (or `key_0`, `key_1`, ... if taken, as MLIR uniquifies); returns it."""
        unique = key
        counter = 0
        while unique in self._blobs:
            unique = f"{key}_{counter}"
            counter += 1
        self._blobs[unique] = None
        self._names[unique] = key
        return unique

    def preferred_name(self, key: str) -> str:
        return self._names.get(key, key)

    def parse_resource(self, key: str, val: str) -> None:
        if key not in self._blobs:
            raise KeyError(f"resource '{key}' was not declared")
        self._blobs[key] = decode_blob_text(val, key)

    def lookup(self, key: str) -> str | None:
        """The blob as MLIR's hex text (xDSL's interface returns text); prefer `get_blob`."""
        blob = self._blobs.get(key)
        return None if blob is None else encode_blob_text(blob)

    def build_resources(self, keys: Iterable[str]) -> dict[str, str]:
        return {key: encode_blob_text(blob) for key in keys if (blob := self._blobs.get(key)) is not None}

    # -- binary access --

    def get(self, key: str) -> Blob | None:
        return self._blobs.get(key)

    def put(self, data: Any, key_hint: str, alignment: int, copy: bool = True) -> str:
        _check_alignment(alignment)
        key = self.declare_resource(key_hint)
        view = None if copy else _immutable_view(data, alignment)
        self._blobs[key] = Blob(view if view is not None else _aligned_copy(data, alignment), alignment)
        return key


# --------------------------------------------------------------------------------------
# Text form: "0x" + 4-byte little-endian alignment + payload, uppercase as MLIR prints
# --------------------------------------------------------------------------------------


def decode_blob_text(text: str, key: str = "blob") -> Blob:
    """Parse a blob string as MLIR does, with MLIR's messages (mlir/lib/AsmParser)."""
    if not text.startswith("0x") or len(text) % 2:
        raise ResourceError(f"expected hex string blob for key '{key}'")
    try:
        raw = binascii.a2b_hex(text[2:])
    except (binascii.Error, ValueError):
        raise ResourceError(f"expected hex string blob for key '{key}'") from None
    if len(raw) < 4:
        raise ResourceError(f"expected hex string blob for key '{key}' to encode alignment in first 4 bytes")
    alignment = int.from_bytes(raw[:4], "little")
    if alignment <= 0 or alignment & (alignment - 1):
        raise ResourceError(
            f"expected hex string blob for key '{key}' to encode alignment in first 4 bytes, "
            f"but got non-power-of-2 value: {alignment}"
        )
    return Blob(_aligned_copy(memoryview(raw)[4:], alignment), alignment)


# hex digits decoded per step when reading a blob straight from the parser's input
_CHUNK = 1 << 24


def decode_blob_span(content: Any, start: int, end: int, key: str = "blob") -> Blob:
    """`decode_blob_text(content[start:end])` without copying the text: a 100 MB weight is
    200 MB of hex, so the string is decoded piecewise straight into the aligned buffer."""
    n = end - start
    if content[start : start + 2] not in ("0x", b"0x") or n % 2:
        raise ResourceError(f"expected hex string blob for key '{key}'")
    if n < 10:
        decode_blob_text(content[start:end], key)  # raises the right message
    try:
        alignment = int.from_bytes(binascii.a2b_hex(content[start + 2 : start + 10]), "little")
    except (binascii.Error, ValueError):
        raise ResourceError(f"expected hex string blob for key '{key}'") from None
    if alignment <= 0 or alignment & (alignment - 1):
        raise ResourceError(
            f"expected hex string blob for key '{key}' to encode alignment in first 4 bytes, "
            f"but got non-power-of-2 value: {alignment}"
        )
    size = (n - 10) // 2
    align = min(alignment, MAX_PHYSICAL_ALIGNMENT)
    raw = np.empty(size + align, dtype=np.uint8)
    first = (-raw.ctypes.data) % align
    out = raw[first : first + size]
    at = 0
    for pos in range(start + 10, end, _CHUNK):
        try:
            piece = binascii.a2b_hex(content[pos : min(pos + _CHUNK, end)])
        except (binascii.Error, ValueError):
            raise ResourceError(f"expected hex string blob for key '{key}'") from None
        out[at : at + len(piece)] = np.frombuffer(piece, dtype=np.uint8)
        at += len(piece)
    out.flags.writeable = False
    return Blob(memoryview(out), alignment)


def encode_blob_text(blob: Blob) -> str:
    """The blob as MLIR prints it (built only while printing; never kept)."""
    return "0x" + (blob.alignment.to_bytes(4, "little") + blob.data).hex().upper()


def format_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else '"' + key.replace("\\", "\\5C").replace('"', '\\"') + '"'


# --------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------


def store() -> BlobStore:
    """The store behind the Builtin dialect (installing it if needed)."""
    install()
    return cast(BlobStore, Builtin.get_interface(OpAsmDialectInterface))


def put_blob(data: Any, key_hint: str = "blob", alignment: int | None = None, copy: bool = True) -> str:
    """Store a copy of `data` (bytes, memoryview, numpy array: its raw bytes) and return its
    key. `alignment` defaults to the array's element size (1 for plain bytes), as MLIR uses
    `alignof(T)` for the blobs it creates. `copy=False`: keep `data` itself when it is an
    immutable buffer (a view of `bytes`, a read-only mmap) at a suitable address (readers of
    whole files: no second copy of the weights); anything else is still copied."""
    if alignment is None:
        itemsize = data.dtype.itemsize if isinstance(data, np.ndarray) else 1
        alignment = 1 << max(itemsize - 1, 0).bit_length()
    if isinstance(data, np.ndarray):
        data = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    return store().put(data, key_hint, alignment, copy=copy)


def get_blob(key: str) -> Blob | None:
    """The blob stored under `key`, or None (unknown key, or declared without data)."""
    return store().get(key)


def _element_layout(elt: Attribute) -> int | None:
    """Bytes per element in MLIR's raw layout, None for types we cannot view."""
    from tosa_xdsl.ir import dense

    if (sem := dense.float_sem(elt)) is not None:
        return np.dtype(sem.dtype).itemsize
    if (info := dense._int_info(elt)) is not None:  # pyright: ignore[reportPrivateUsage]
        return dense._mlir_int_bytes(info[0])  # pyright: ignore[reportPrivateUsage]
    return None


def _checked(attr: DenseResourceAttr) -> tuple[Blob, Attribute, tuple[int, ...]]:
    key = attr.resource_handle.data
    ty = cast(Any, attr.type)
    blob = get_blob(key)
    if blob is None:
        name = store().preferred_name(key)  # as the file spells it (the store may rename)
        raise ResourceError(
            f"dense_resource<{format_key(name)}> has no blob: the file's "
            f"{{-# dialect_resources: {{ builtin: {{ ... }} }} #-}} section has no entry '{name}'"
        )
    if not hasattr(ty, "get_shape") or not hasattr(ty, "get_element_type"):
        raise ResourceError(f"dense_resource<{format_key(key)}> needs a ranked shaped type, got {ty}")
    shape = tuple(ty.get_shape())
    if any(d < 0 for d in shape):
        raise ResourceError(f"dense_resource<{format_key(key)}> needs a static shape, got {ty}")
    elt = ty.get_element_type()
    per = _element_layout(elt)
    if per is None:
        raise ResourceError(f"dense_resource<{format_key(key)}>: element type {elt} is not supported")
    need = math.prod(shape) * per
    have = len(blob.data)
    if have != need:
        kind = "short" if have < need else "long"
        raise ResourceError(
            f"dense_resource<{format_key(key)}> blob holds {have} bytes but {ty} needs {need} (blob too {kind})"
        )
    return blob, elt, shape


def dense_resource_problem(attr: DenseResourceAttr, missing_ok: bool = False) -> str | None:
    """Why `dense_resource_array(attr)` would fail, or None. `missing_ok`: a key without a
    blob is not a problem (the op verifier's view: MLIR accepts elided resources; using the
    value is what fails)."""
    if missing_ok and get_blob(attr.resource_handle.data) is None:
        return None
    try:
        _checked(attr)
    except ResourceError as err:
        return str(err)
    return None


def dense_resource_array(attr: DenseResourceAttr) -> np.ndarray:
    """The constant's elements as a read-only numpy array of the attribute's shape, with the
    dtype `tosa_xdsl.dense.to_numpy` uses (bool for i1, int8 for i4, int64 for i48/index,
    ml_dtypes for bf16/f8). A view on the blob for byte-sized element types (no copy); i1, i4
    and odd widths are converted. Raises ResourceError (message for the user) when the blob is
    missing or its size does not match the type."""
    from tosa_xdsl.ir import dense

    blob, elt, shape = _checked(attr)
    raw = dense._from_mlir_bytes(blob.data, elt, math.prod(shape))  # pyright: ignore[reportPrivateUsage]
    arr = dense._array_from_storage(raw, elt, shape)  # pyright: ignore[reportPrivateUsage]
    if arr.flags.writeable:
        arr.flags.writeable = False
    return arr


def make_dense_resource(array: Any, tensor_type: Attribute, key_hint: str = "blob",
                        copy: bool = True) -> DenseResourceAttr:
    """A dense_resource attribute of `tensor_type` holding `array` in MLIR's raw layout (via
    `tosa_xdsl.dense.from_numpy`'s conversion rules: rounding, range checks, i1/i4 bytes).
    `copy=False`: an array that already is the raw layout and a read-only view of immutable
    bytes (a file read whole) is stored without a copy (see put_blob)."""
    from tosa_xdsl.ir import dense

    ty = cast(Any, tensor_type)
    elt = ty.get_element_type()
    if (sem := dense.float_sem(elt)) is not None and np.asarray(array).dtype == sem.dtype:
        payload: Any = np.ascontiguousarray(array)  # already the storage layout: no temporary attribute
    else:
        payload = np.frombuffer(dense._to_mlir_bytes(dense.from_numpy(array, tensor_type)), dtype=np.uint8)  # pyright: ignore[reportPrivateUsage]
    per = _element_layout(elt) or 1
    key = put_blob(payload.reshape(-1).view(np.uint8), key_hint, 1 << max(per - 1, 0).bit_length(), copy=copy)
    return DenseResourceAttr.from_params(key, cast(Any, tensor_type))


# --------------------------------------------------------------------------------------
# The xDSL hook: these replace xDSL's; tosa_xdsl/xdsl_patches.py (RESOURCE_PATCHES) installs them
# --------------------------------------------------------------------------------------


def _parse_dialect_resource_handle(self: AttrParser, dialect_name: str, interface: OpAsmDialectInterface) -> str:
    """`key` or `"key"`; the same key in one file always maps to the same stored key (xDSL's
    version re-declares it, and so renames it, at each use once another file used it)."""
    key = self.parse_optional_identifier()
    if key is None:
        key = self.parse_optional_str_literal()
    if key is None:
        self.raise_error("expected identifier key for 'resource' entry")
    renames: dict[tuple[str, str], str] = self.__dict__.setdefault("_tosa_resource_keys", {})
    if (dialect_name, key) not in renames:
        renames[(dialect_name, key)] = interface.declare_resource(key)
        self.dialect_resources.add((dialect_name, renames[(dialect_name, key)]))
    return renames[(dialect_name, key)]


def _parse_resource(self: Parser, dialect_name: str, interface: OpAsmDialectInterface) -> None:
    """`key: "0x..."`, errors located at the blob string as MLIR locates them."""
    name_token = self._current_token  # pyright: ignore[reportPrivateUsage]
    key = self._parse_dialect_resource_handle(dialect_name, interface)  # pyright: ignore[reportPrivateUsage]
    shown = name_token.text.strip('"')
    self._parse_token(MLIRTokenKind.COLON, "expected ':'")  # pyright: ignore[reportPrivateUsage]
    value_token = self._current_token  # pyright: ignore[reportPrivateUsage]
    if value_token.kind != MLIRTokenKind.STRING_LIT:
        self.raise_error(f"expected hex string blob for key '{shown}'")
    try:
        if isinstance(interface, BlobStore):
            self._consume_token(MLIRTokenKind.STRING_LIT)  # pyright: ignore[reportPrivateUsage]
            if key not in interface._blobs:  # pyright: ignore[reportPrivateUsage]
                raise ResourceError(f"resource '{key}' was not declared")
            span = value_token.span  # the blob between the quotes, read in place
            lookup = getattr(getattr(self, "_source", None), "literal_at", None)
            literal = lookup(getattr(self, "_base", 0) + span.start) if lookup is not None else None
            if literal is not None:  # left in the file by tosa_xdsl/formats/prescan.py
                content = literal.content()
                interface._blobs[key] = decode_blob_span(content, 0, len(content), shown)  # pyright: ignore
            else:
                interface._blobs[key] = decode_blob_span(  # pyright: ignore[reportPrivateUsage]
                    span.input.content, span.start + 1, span.end - 1, shown)
        else:
            interface.parse_resource(key, self.parse_str_literal())
    except KeyError as err:  # str(KeyError) is the repr of its argument
        self.raise_error(str(err.args[0]), value_token.span)
    except ValueError as err:  # ResourceError, or what another dialect's interface raises
        self.raise_error(str(err), value_token.span)


def _parse_single_dialect_resources(self: Parser) -> None:
    """`dialect: { entries }`; a section for a dialect without resources (`tosa: {...}`: a
    blob in the wrong section) is reported as MLIR reports it."""
    name = self._parse_token(MLIRTokenKind.BARE_IDENT, "expected dialect name")  # pyright: ignore[reportPrivateUsage]
    self._parse_token(MLIRTokenKind.COLON, "expected ':'")  # pyright: ignore[reportPrivateUsage]
    dialect = self.ctx.get_optional_dialect(name.text)
    interface = dialect.get_interface(OpAsmDialectInterface) if dialect is not None else None
    if dialect is None or interface is None:
        # MLIR reports it at the section's first entry.
        self.parse_optional_punctuation("{")
        self.raise_error(f"unexpected 'resource' section for dialect '{name.text}'")
    self.parse_comma_separated_list(
        self.Delimiter.BRACES,
        lambda: self._parse_resource(dialect.name, interface),  # pyright: ignore[reportPrivateUsage]
    )


def _printed_name(self: Printer, dialect: str, handle: str) -> str:
    """The name `handle` prints as in this printer's output: the producer's name unless
    another blob already printed under it here (see the module doc)."""
    names: dict[tuple[str, str], str] = self.__dict__.setdefault("_tosa_resource_names", {})
    if (dialect, handle) not in names:
        preferred = store().preferred_name(handle) if dialect == "builtin" else handle
        taken = {name for (d, _), name in names.items() if d == dialect}
        name, counter = preferred, 0
        while name in taken:
            name, counter = f"{preferred}_{counter}", counter + 1
        names[(dialect, handle)] = name
    return names[(dialect, handle)]


def _print_resource_handle(self: Printer, dialect: str, handle: str) -> None:
    # An insertion-ordered dict instead of xDSL's set: MLIR prints entries in first-use order.
    used = cast(dict[str, Any], self._dialect_resources).setdefault(dialect, {})  # pyright: ignore[reportPrivateUsage]
    if isinstance(used, set):  # a printer created before install() ran
        used = self._dialect_resources[dialect] = dict.fromkeys(sorted(used))  # pyright: ignore[reportPrivateUsage]
    used[handle] = None
    self.print_string(format_key(_printed_name(self, dialect, handle)))


def _print_metadata(self: Printer, dialects: Iterable[Any]) -> None:
    """MLIR's layout: one entry per line, in first-use order, uppercase hex."""
    interfaces = {d.name: d.get_interface(OpAsmDialectInterface) for d in dialects}
    interfaces.setdefault("builtin", store())
    sections: list[tuple[str, list[tuple[str, str]]]] = []
    for dialect, keys in self._dialect_resources.items():  # pyright: ignore[reportPrivateUsage]
        interface = interfaces.get(dialect)
        if interface is None:
            continue
        texts = interface.build_resources(list(keys))
        entries = [(key, texts[key]) for key in keys if key in texts]
        if entries:
            sections.append((dialect, entries))
    if not sections:
        return
    lines = ["", "", "{-#", "  dialect_resources: {"]
    for i, (dialect, entries) in enumerate(sections):
        lines.append(f"    {dialect}: {{")
        for j, (key, text) in enumerate(entries):
            name = format_key(_printed_name(self, dialect, key))
            lines.append(f'      {name}: "{text}"' + ("," if j + 1 < len(entries) else ""))
        lines.append("    }" + ("," if i + 1 < len(sections) else ""))
    lines += ["  }", "#-}"]
    self.print_string("\n".join(lines))


def builtin_interfaces() -> list[Any]:
    """Builtin's interface list with `BlobStore` in place of xDSL's resource interface (any
    blobs the old one held are kept). The replacement for `Builtin._interfaces` that
    tosa_xdsl/xdsl_patches.py installs."""
    interfaces = list(Builtin._interfaces)  # pyright: ignore[reportPrivateUsage]
    for i, interface in enumerate(interfaces):
        if isinstance(interface, OpAsmDialectInterface) and not isinstance(interface, BlobStore):
            replacement = BlobStore()
            for key, text in interface._blob_storage.items():  # pyright: ignore[reportPrivateUsage]
                replacement._blobs[key] = decode_blob_text(text, key) if text else None  # pyright: ignore[reportPrivateUsage]
                replacement._names[key] = key  # pyright: ignore[reportPrivateUsage]
            interfaces[i] = replacement
    return interfaces


def install() -> None:
    """Install the resource patches (tosa_xdsl/xdsl_patches.py RESOURCE_PATCHES). Idempotent;
    `tosa_xdsl.context.load_tosa` does it for every Context with our `tosa`."""
    from tosa_xdsl.xdsl_patches import install_resource_patches

    install_resource_patches()


__all__ = [
    "Blob",
    "BlobStore",
    "ResourceError",
    "decode_blob_text",
    "dense_resource_array",
    "dense_resource_problem",
    "encode_blob_text",
    "get_blob",
    "install",
    "make_dense_resource",
    "put_blob",
]
