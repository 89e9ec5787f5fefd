"""Tensor data files of a model folder: one `<variable>.dat` per variable, in the binary
format NNEF 2.x keeps from NNEF 1.x (draft 1.2): a 128-byte little-endian header

    offset 0   magic 0x4E 0xEF, version major, minor (1, 0)
    offset 4   u32 data length in bytes, u32 rank (<= 8)
    offset 12  u32 extents[8] (unused ones 0)
    offset 44  u32 bits per item, u32 item type (0 float, 1 uint, 2 quint, 3 qint, 4 int, 5 bool)
    offset 52  19 x u32 reserved (quantization parameters)
    offset 128 the data, row-major; bool items packed 8 per byte (msb first)

Every field is checked against the file size before anything is allocated, so a damaged or
hostile file gives `file: error: message (offset N)`, never a huge allocation or a traceback."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from tosa_xdsl.frontends.nnef.errors import NnefError

HEADER = 128
MAX_RANK = 8
MAGIC = b"\x4e\xef"
FLOAT, UINT, QUINT, QINT, INT, BOOL = range(6)
DTYPES = {
    (FLOAT, 16): np.float16, (FLOAT, 32): np.float32, (FLOAT, 64): np.float64,
    (INT, 8): np.int8, (INT, 16): np.int16, (INT, 32): np.int32, (INT, 64): np.int64,
    (UINT, 8): np.uint8, (UINT, 16): np.uint16, (UINT, 32): np.uint32, (UINT, 64): np.uint64,
    (QINT, 8): np.int8, (QINT, 16): np.int16, (QINT, 32): np.int32,
    (QUINT, 8): np.uint8, (QUINT, 16): np.uint16, (QUINT, 32): np.uint32,
    (BOOL, 1): np.bool_,
}


class TensorFileError(NnefError):
    def __init__(self, file: str, message: str, offset: int):
        super().__init__(None, message)
        self.file, self.offset = file, offset

    def __str__(self) -> str:
        return f"{self.file}: error: {self.message} (offset {self.offset})"


def decode_tensor(data: bytes, file: str = "<tensor>") -> np.ndarray:
    def fail(msg, off):
        raise TensorFileError(file, msg, off)

    if len(data) < HEADER:
        fail(f"truncated header: {len(data)} of {HEADER} bytes", len(data))
    if data[:2] != MAGIC:
        fail("not an NNEF tensor file (magic 4E EF expected)", 0)
    major, minor = data[2], data[3]
    if (major, minor) != (1, 0):
        fail(f"unsupported tensor file version {major}.{minor}", 2)
    length, rank = struct.unpack_from("<II", data, 4)
    if rank > MAX_RANK:
        fail(f"rank {rank} exceeds {MAX_RANK}", 8)
    extents = struct.unpack_from("<8I", data, 12)
    shape = list(extents[:rank])
    if any(extents[rank:]):
        fail("extents beyond the rank must be 0", 12 + 4 * rank)
    bits, item = struct.unpack_from("<II", data, 44)
    dtype = DTYPES.get((item, bits))
    if dtype is None:
        fail(f"unsupported item type {item} with {bits} bits per item", 44)
    count = 1
    for n in shape:
        count *= n
    expect = (count + 7) // 8 if bits == 1 else count * (bits // 8)
    if length != expect:
        fail(f"data length {length} does not match shape {shape} of {bits}-bit items ({expect} bytes)", 4)
    if len(data) != HEADER + length:
        fail(f"file size {len(data)} does not match the header ({HEADER + length} bytes)", min(len(data), HEADER + length))
    payload = data[HEADER:]
    if bits == 1:
        arr = np.unpackbits(np.frombuffer(payload, np.uint8))[:count].astype(np.bool_)
    else:
        arr = np.frombuffer(payload, np.dtype(dtype).newbyteorder("<")).astype(dtype)
    return arr.reshape(shape)


def encode_tensor(arr: np.ndarray) -> bytes:
    arr = np.asarray(arr)
    key = {np.dtype(v): k for k, v in DTYPES.items() if k[0] not in (QINT, QUINT)}.get(arr.dtype)
    if key is None:
        raise ValueError(f"unsupported dtype {arr.dtype}")
    if arr.ndim > MAX_RANK:
        raise ValueError(f"rank {arr.ndim} exceeds {MAX_RANK}")
    item, bits = key
    if bits == 1:
        payload = np.packbits(arr.reshape(-1).astype(np.uint8)).tobytes()
    else:
        payload = arr.astype(arr.dtype.newbyteorder("<")).tobytes()
    head = MAGIC + bytes([1, 0]) + struct.pack("<II", len(payload), arr.ndim)
    head += struct.pack("<8I", *(list(arr.shape) + [0] * (MAX_RANK - arr.ndim)))
    head += struct.pack("<II", bits, item) + bytes(76)
    return head + payload


def read_tensor(path) -> np.ndarray:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as err:
        raise TensorFileError(str(p), f"cannot read: {err.strerror}", 0) from None
    return decode_tensor(data, str(p))


def write_tensor(path, arr) -> None:
    Path(path).write_bytes(encode_tensor(arr))


def variable_file(root, graph: str, name: str) -> Path:
    """Where a graph variable's data lives: its scoped name `main.<graph>.<name>.dat` (as
    Khronos' tools write it), or the plain `<name>.dat`."""
    scoped = Path(root) / f"main.{graph}.{name}.dat"
    return scoped if scoped.exists() or not (Path(root) / f"{name}.dat").exists() else Path(root) / f"{name}.dat"


def read_variables(root, names, graph: str = "") -> dict:
    """{name: array} for each variable that has a data file in `root`."""
    out = {}
    for name in names:
        p = variable_file(root, graph, name)
        if p.exists():
            arr = read_tensor(p)
            out[name] = arr.astype(np.float32) if arr.dtype.kind == "f" else arr
    return out
