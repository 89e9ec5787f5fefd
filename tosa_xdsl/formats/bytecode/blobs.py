"""The one place where dense_resource blobs enter and leave the blob store.

The project's store is tosa_xdsl/ir/resources.py (owned by the "producers" work:
`put_blob(data, key_hint, alignment) -> key`, `get_blob(key) -> Blob|None`). Until it is
on this branch we fall back to xDSL's builtin OpAsmDialectInterface storage (hex text,
the layout MLIR prints: 4-byte little-endian alignment, then the payload).
"""

from __future__ import annotations


def _store():
    try:
        from tosa_xdsl.ir import resources  # pyright: ignore[reportAttributeAccessIssue]
    except ImportError:
        return None
    return resources


def put_blob(data: bytes | memoryview, key_hint: str, alignment: int, copy: bool = True) -> str:
    """Store a blob; returns the key actually used (deduplicated). `copy=False`: a view of
    an immutable input is kept as it is (resources.put_blob)."""
    if (store := _store()) is not None:
        return store.put_blob(data, key_hint=key_hint, alignment=alignment, copy=copy)
    from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
    from xdsl.dialects.builtin import Builtin

    iface = Builtin.get_interface(OpAsmDialectInterface)
    assert iface is not None
    key = iface.declare_resource(key_hint)
    iface.parse_resource(key, "0x" + alignment.to_bytes(4, "little").hex() + bytes(data).hex())
    return key


def get_blob(key: str) -> tuple[bytes | memoryview, int] | None:
    """(payload, alignment) of a stored blob, or None."""
    if (store := _store()) is not None:
        blob = store.get_blob(key)
        return None if blob is None else (blob.data, blob.alignment)
    from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
    from xdsl.dialects.builtin import Builtin

    iface = Builtin.get_interface(OpAsmDialectInterface)
    text = iface.lookup(key) if iface is not None else None
    if not text or not text.startswith("0x") or len(text) < 10:
        return None
    raw = bytes.fromhex(text[2:])
    return raw[4:], int.from_bytes(raw[:4], "little")
