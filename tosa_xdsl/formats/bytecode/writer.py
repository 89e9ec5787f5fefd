"""MLIR bytecode writer: xDSL ModuleOp -> bytes that mlir-opt 22 and iree-opt read.

Versions 0 to 6 can be written (DEFAULT_VERSION is what mlir-opt 22 writes). Layout of
the file (mlir/docs/BytecodeFormat.md): header, then the dialect, attribute/type,
attribute/type offset, IR, resource (+offset) and string sections.

Inherent attributes (xDSL properties) are written in the operation's attribute
dictionary, never as native properties: MLIR's Operation::setAttrs routes inherent
names of a registered op into its properties, so this reads back identically in every
version, and it needs no knowledge of each upstream op's ODS property layout (which a
native-properties encoding would have to reproduce exactly, see properties.py).
Use-list orders are not written (xDSL keeps no use-list order worth preserving).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BuiltinAttribute,
    CallSiteLoc,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    FloatAttr,
    FunctionType,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    NoneAttr,
    NoneType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    UnitAttr,
    UnknownLoc,
    UnrankedTensorType,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, TypeAttribute
from xdsl.traits import IsolatedFromAbove

from tosa_xdsl.ir import dense as dense_mod

from . import encoding as E
from .stream import MAGIC, Emitter, encode_varint

DEFAULT_VERSION = 6
MIN_WRITE_VERSION = 0
PRODUCER = "tosa-xdsl"

_SIMPLE_TYPES = {IndexType: E.INDEX_TYPE, BFloat16Type: E.BF16_TYPE, Float16Type: E.F16_TYPE,
                 Float32Type: E.F32_TYPE, Float64Type: E.F64_TYPE, Float80Type: E.F80_TYPE,
                 Float128Type: E.F128_TYPE, NoneType: E.NONE_TYPE}


class _TypeAttr:
    """A type used where MLIR wants an attribute (xDSL uses types as attributes)."""

    __slots__ = ("type",)

    def __init__(self, type: Attribute):
        self.type = type

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _TypeAttr) and other.type == self.type

    def __hash__(self) -> int:
        return hash(("typeattr", _key(self.type)))


def _key(attr: Any) -> Any:
    """A dictionary key for an attribute: itself, or (rarely: an xDSL attribute holding a
    list is unhashable) its printed form."""
    if isinstance(attr, _TypeAttr):
        return attr  # hashes through _key of its type
    try:
        hash(attr)
    except TypeError:
        return ("unhashable", type(attr).__name__, _assembly(attr))
    return attr


def _dialect_of(attr: Any) -> str:
    if isinstance(attr, _TypeAttr):
        return "builtin"
    name = getattr(attr, "name", "")
    if isinstance(attr, BuiltinAttribute) or "." not in name:
        return "builtin"
    return name.split(".", 1)[0]


def _unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


class Writer:
    def __init__(self, version: int):
        if not MIN_WRITE_VERSION <= version <= E.MAX_VERSION:
            raise ValueError(f"cannot write bytecode version {version} "
                             f"(supported: {MIN_WRITE_VERSION} to {E.MAX_VERSION})")
        self.version = version
        self.strings: dict[str, int] = {}
        self.dialects: dict[str, int] = {}
        self.op_names: dict[tuple[str, str], tuple[int, bool]] = {}
        # attributes and types, collected, then numbered grouped by dialect
        self.attr_list: list[Any] = []
        self.type_list: list[Attribute] = []
        self.attr_seen: set[Any] = set()
        self.type_seen: set[Any] = set()
        self.attr_ids: dict[Any, int] = {}
        self.type_ids: dict[Any, int] = {}
        self.resources: dict[str, int] = {}  # dense_resource key -> handle index

    # --------------------------------------------------------------------- collection

    def string(self, text: str) -> int:
        idx = self.strings.get(text)
        if idx is None:
            idx = self.strings[text] = len(self.strings)
        return idx

    def dialect(self, name: str) -> int:
        idx = self.dialects.get(name)
        if idx is None:
            idx = self.dialects[name] = len(self.dialects)
            self.string(name)
        return idx

    def _as_attr(self, attr: Attribute) -> Any:
        return _TypeAttr(attr) if isinstance(attr, TypeAttribute) else attr

    def collect_attr(self, attr: Any) -> None:
        stack = [attr]
        while stack:
            a = stack.pop()
            is_type = not isinstance(a, _TypeAttr) and isinstance(a, TypeAttribute)
            seen = self.type_seen if is_type else self.attr_seen
            key = _key(a)
            if key in seen:
                continue
            seen.add(key)
            (self.type_list if is_type else self.attr_list).append(a)
            self.dialect(_dialect_of(a))
            stack.extend(self._children(a, is_type))

    def _children(self, a: Any, is_type: bool) -> list[Any]:
        """The attributes/types an entry's custom encoding refers to (text: none)."""
        if isinstance(a, _TypeAttr):
            return [a.type]
        if is_type:
            if isinstance(a, IntegerType) or type(a) in _SIMPLE_TYPES:
                return []
            if isinstance(a, FunctionType):
                return [*a.inputs.data, *a.outputs.data]
            if isinstance(a, ComplexType | UnrankedTensorType):
                return [a.element_type]
            if isinstance(a, TupleType):
                return list(a.types.data)
            if isinstance(a, TensorType):
                extra = [] if isinstance(a.encoding, NoneAttr) else [self._as_attr(a.encoding)]
                return [a.element_type, *extra]
            if isinstance(a, VectorType) and not any(f.value.data for f in a.scalable_dims):
                return [a.element_type]
            return []
        if isinstance(a, ArrayAttr):
            return [self._as_attr(x) for x in a.data]
        if isinstance(a, DictionaryAttr):
            out: list[Any] = []
            for k, v in a.data.items():
                out += [StringAttr(k), self._as_attr(v)]
            return out
        if isinstance(a, StringAttr):
            self.string(a.data)
            return []
        if isinstance(a, SymbolRefAttr):
            return [a.root_reference, *(SymbolRefAttr(n) for n in a.nested_references.data)]
        if isinstance(a, IntegerAttr | FloatAttr):
            return [a.type]
        if isinstance(a, FileLineColLoc):
            return [a.filename]
        if isinstance(a, NameLoc):
            child = a.location if not isinstance(a.location, NoneAttr) else UnknownLoc()
            return [a.desc, child]
        if isinstance(a, FusedLoc):
            meta = [] if isinstance(a.metadata, NoneAttr) else [self._as_attr(a.metadata)]
            return [*a.locations.data, *meta]
        if isinstance(a, CallSiteLoc):
            return [a.callee, a.caller]
        if isinstance(a, DenseResourceAttr):
            key = a.resource_handle.data
            if key not in self.resources:
                self.resources[key] = len(self.resources)
                self.string(key)
            return [a.type]
        if isinstance(a, DenseArrayBase | DenseIntOrFPElementsAttr):
            return [a.elt_type if isinstance(a, DenseArrayBase) else a.type]
        return []

    def number(self) -> None:
        """Attribute/type ids grouped by dialect, as the offset section requires."""
        order = {d: i for i, d in enumerate(self.dialects)}
        self.attr_list.sort(key=lambda a: order[_dialect_of(a)])
        self.type_list.sort(key=lambda a: order[_dialect_of(a)])
        self.attr_ids = {_key(a): i for i, a in enumerate(self.attr_list)}
        self.type_ids = {_key(a): i for i, a in enumerate(self.type_list)}

    def attr_id(self, attr: Any) -> int:
        return self.attr_ids[_key(self._as_attr(attr) if not isinstance(attr, _TypeAttr) else attr)]

    def tid(self, type: Attribute) -> int:
        return self.type_ids[_key(type)]

    # ----------------------------------------------------------------------- encoding

    def encode(self, a: Any, is_type: bool) -> tuple[bytes, bool]:
        """(encoding, has custom encoding)."""
        e = Emitter()
        if self._encode_custom(e, a, is_type):
            return bytes(e.buf), True
        return _assembly(a).encode("utf-8") + b"\x00", False

    def _encode_custom(self, e: Emitter, a: Any, is_type: bool) -> bool:
        A = self.attr_id
        if isinstance(a, _TypeAttr):
            e.varint(E.TYPE_ATTR)
            e.varint(self.tid(a.type))
            return True
        if is_type:
            return self._encode_type(e, a)
        if isinstance(a, ArrayAttr):
            e.varint(E.ARRAY_ATTR)
            e.varint(len(a.data))
            for x in a.data:
                e.varint(A(x))
        elif isinstance(a, DictionaryAttr):
            e.varint(E.DICTIONARY_ATTR)
            e.varint(len(a.data))
            for k, v in sorted(a.data.items()):
                e.varint(A(StringAttr(k)))
                e.varint(A(v))
        elif isinstance(a, StringAttr):
            e.varint(E.STRING_ATTR)
            e.varint(self.strings[a.data])
        elif isinstance(a, SymbolRefAttr):
            nested = a.nested_references.data
            e.varint(E.SYMBOL_REF_ATTR if nested else E.FLAT_SYMBOL_REF_ATTR)
            e.varint(A(a.root_reference))
            if nested:
                e.varint(len(nested))
                for n in nested:
                    e.varint(A(SymbolRefAttr(n)))
        elif isinstance(a, UnitAttr):
            e.varint(E.UNIT_ATTR)
        elif isinstance(a, IntegerAttr):
            width = 64 if isinstance(a.type, IndexType) else a.type.width.data  # pyright: ignore
            e.varint(E.INTEGER_ATTR)
            e.varint(self.tid(a.type))
            _write_apint(e, _unsigned(a.value.data, width), width)
        elif isinstance(a, FloatAttr):
            sem = dense_mod.float_sem(a.type)
            if sem is None or sem.width not in (16, 32, 64):
                return False
            bits = int(np.array(a.value.data, dtype=np.float64).astype(sem.dtype)
                       .view(f"<u{sem.width // 8}"))
            e.varint(E.FLOAT_ATTR)
            e.varint(self.tid(a.type))
            _write_apint(e, bits, sem.width)
        elif isinstance(a, UnknownLoc):
            e.varint(E.UNKNOWN_LOC)
        elif isinstance(a, FileLineColLoc):
            e.varint(E.FILE_LINE_COL_LOC)
            e.varint(A(a.filename))
            e.varint(a.line.data)
            e.varint(a.column.data)
        elif isinstance(a, NameLoc):
            e.varint(E.NAME_LOC)
            e.varint(A(a.desc))
            e.varint(A(a.location if not isinstance(a.location, NoneAttr) else UnknownLoc()))
        elif isinstance(a, FusedLoc):
            meta = not isinstance(a.metadata, NoneAttr)
            e.varint(E.FUSED_LOC_WITH_METADATA if meta else E.FUSED_LOC)
            e.varint(len(a.locations.data))
            for loc in a.locations.data:
                e.varint(A(loc))
            if meta:
                e.varint(A(a.metadata))
        elif isinstance(a, CallSiteLoc):
            e.varint(E.CALL_SITE_LOC)
            e.varint(A(a.callee))
            e.varint(A(a.caller))
        elif isinstance(a, DenseResourceAttr):
            e.varint(E.DENSE_RESOURCE_ELEMENTS_ATTR)
            e.varint(self.tid(a.type))
            e.varint(self.resources[a.resource_handle.data])
        elif isinstance(a, DenseArrayBase):
            return self._dense_array(e, a)
        elif isinstance(a, DenseIntOrFPElementsAttr):
            return self._dense_elements(e, a)
        else:
            return False
        return True

    def _encode_type(self, e: Emitter, t: Any) -> bool:
        T = self.tid
        if isinstance(t, IntegerType):
            e.varint(E.INTEGER_TYPE)
            e.varint(t.width.data << 2 | t.signedness.data.value)
        elif type(t) in _SIMPLE_TYPES:
            e.varint(_SIMPLE_TYPES[type(t)])
        elif isinstance(t, FunctionType):
            e.varint(E.FUNCTION_TYPE)
            for group in (t.inputs.data, t.outputs.data):
                e.varint(len(group))
                for x in group:
                    e.varint(T(x))
        elif isinstance(t, ComplexType):
            e.varint(E.COMPLEX_TYPE)
            e.varint(T(t.element_type))
        elif isinstance(t, TupleType):
            e.varint(E.TUPLE_TYPE)
            e.varint(len(t.types.data))
            for x in t.types.data:
                e.varint(T(x))
        elif isinstance(t, UnrankedTensorType):
            e.varint(E.UNRANKED_TENSOR_TYPE)
            e.varint(T(t.element_type))
        elif isinstance(t, TensorType):
            has_enc = not isinstance(t.encoding, NoneAttr)
            e.varint(E.RANKED_TENSOR_TYPE_WITH_ENCODING if has_enc else E.RANKED_TENSOR_TYPE)
            if has_enc:
                e.varint(self.attr_id(t.encoding))
            _write_shape(e, t.get_shape())
            e.varint(T(t.element_type))
        elif isinstance(t, VectorType) and not any(f.value.data for f in t.scalable_dims):
            e.varint(E.VECTOR_TYPE)
            _write_shape(e, t.get_shape())
            e.varint(T(t.element_type))
        else:
            return False
        return True

    def _dense_array(self, e: Emitter, a: DenseArrayBase) -> bool:
        elt = a.elt_type
        raw = a.data.data
        if isinstance(elt, IntegerType):
            width = elt.width.data
            k = (width + 7) // 8
            if k not in (1, 2, 4, 8):
                return False
            if width == 1:
                raw = (np.frombuffer(raw, np.uint8) != 0).astype(np.uint8).tobytes()
        elif not isinstance(elt, Float32Type | Float64Type):
            return False
        else:
            k = 4 if isinstance(elt, Float32Type) else 8
        e.varint(E.DENSE_ARRAY_ATTR)
        e.varint(self.tid(elt))
        e.varint(len(raw) // k)
        e.varint(len(raw))
        e.raw(raw)
        return True

    def _dense_elements(self, e: Emitter, a: DenseIntOrFPElementsAttr) -> bool:
        t: Any = a.type
        elt = t.get_element_type()
        n = math.prod(t.get_shape())
        if dense_mod.float_sem(elt) is None and not isinstance(elt, IntegerType | IndexType):
            return False
        raw = dense_mod._to_mlir_bytes(a)  # pyright: ignore[reportPrivateUsage]
        if isinstance(elt, IntegerType) and elt.width.data == 1:
            bits = np.frombuffer(raw, np.uint8) != 0
            if n and (bits.all() or not bits.any()):
                raw = b"\xff" if bits.all() else b"\x00"  # MLIR's i1 splat byte
            else:  # MLIR 22 bit-packs i1 data, least significant bit first
                raw = np.packbits(bits, bitorder="little").tobytes()
        elif n > 1:
            k = len(raw) // n
            rows = np.frombuffer(raw, np.uint8).reshape(n, k)
            if (rows == rows[0]).all():
                raw = raw[:k]  # splat
        e.varint(E.DENSE_INT_OR_FP_ELEMENTS_ATTR)
        e.varint(self.tid(t))
        e.varint(len(raw))
        e.raw(raw)
        return True

    # ----------------------------------------------------------------------------- IR

    def op_attr_dict(self, op: Operation) -> DictionaryAttr | None:
        items = {**op.properties, **op.attributes}
        return DictionaryAttr(items) if items else None

    def collect_ops(self, top: Operation) -> None:
        for op in top.walk():
            dialect, _, name = op.name.partition(".")
            from xdsl.dialects.builtin import UnregisteredOp

            registered = not isinstance(op, UnregisteredOp)
            if isinstance(op, UnregisteredOp):
                dialect, _, name = op.op_name.data.partition(".")
            d = self.dialect(dialect)
            key = (dialect, name)
            if key not in self.op_names:
                self.string(name)
                self.op_names[key] = (len(self.op_names), registered)
            self.collect_attr(op.location)
            if (attrs := self.op_attr_dict(op)) is not None:
                self.collect_attr(attrs)
            for r in op.results:
                self.collect_attr(r.type)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        self.collect_attr(arg.type)
                        self.collect_attr(getattr(arg, "location", None) or UnknownLoc())
            del d
        if self.version < E.ELIDE_UNKNOWN_BLOCK_ARG_LOCATION:
            self.collect_attr(UnknownLoc())

    def write_region_list(self, e: Emitter, op: Operation, ids: dict[SSAValue, int], base: int) -> None:
        isolated = op.has_trait(IsolatedFromAbove)
        target = Emitter() if isolated and self.version >= E.LAZY_LOADING else e
        for region in op.regions:
            self.write_region(target, region, {} if isolated else ids, 0 if isolated else base)
        if target is not e:
            e.section(E.IR, target.buf)

    def write_region(self, e: Emitter, region: Region, ids: dict[SSAValue, int], base: int) -> None:
        blocks = list(region.blocks)
        e.varint(len(blocks))
        if not blocks:
            return
        next_id = base
        for block in blocks:
            for arg in block.args:
                ids[arg] = next_id
                next_id += 1
            for op in block.ops:
                for r in op.results:
                    ids[r] = next_id
                    next_id += 1
        e.varint(next_id - base)
        block_ids = {b: i for i, b in enumerate(blocks)}
        for block in blocks:
            self.write_block(e, block, ids, next_id, block_ids)

    def write_block(self, e: Emitter, block: Block, ids: dict[SSAValue, int], base: int,
                    block_ids: dict[Block, int]) -> None:
        ops = list(block.ops)
        e.varint_flag(len(ops), bool(block.args))
        if block.args:
            e.varint(len(block.args))
            for arg in block.args:
                loc = getattr(arg, "location", None) or UnknownLoc()
                if self.version >= E.ELIDE_UNKNOWN_BLOCK_ARG_LOCATION:
                    known = not isinstance(loc, UnknownLoc)
                    e.varint_flag(self.tid(arg.type), known)
                    if known:
                        e.varint(self.attr_id(loc))
                else:
                    e.varint(self.tid(arg.type))
                    e.varint(self.attr_id(loc))
            if self.version >= E.USE_LIST_ORDERING:
                e.byte(0)  # no use-list orders
        for op in ops:
            self.write_op(e, op, ids, base, block_ids)

    def write_op(self, e: Emitter, op: Operation, ids: dict[SSAValue, int], base: int,
                 block_ids: dict[Block, int]) -> None:
        from xdsl.dialects.builtin import UnregisteredOp

        name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
        dialect, _, short = name.partition(".")
        attrs = self.op_attr_dict(op)
        mask = 0
        if attrs is not None:
            mask |= E.HAS_ATTRS
        if op.results:
            mask |= E.HAS_RESULTS
        if op.operands:
            mask |= E.HAS_OPERANDS
        if op.successors:
            mask |= E.HAS_SUCCESSORS
        if op.regions:
            mask |= E.HAS_INLINE_REGIONS
        e.varint(self.op_names[(dialect, short)][0])
        e.byte(mask)
        e.varint(self.attr_id(op.location))
        if attrs is not None:
            e.varint(self.attr_id(attrs))
        if op.results:
            e.varint(len(op.results))
            for r in op.results:
                e.varint(self.tid(r.type))
        if op.operands:
            e.varint(len(op.operands))
            for v in op.operands:
                if v not in ids:
                    raise ValueError(f"'{name}' uses a value defined outside its isolated region")
                e.varint(ids[v])
        if op.successors:
            e.varint(len(op.successors))
            for b in op.successors:
                e.varint(block_ids[b])
        if op.regions:
            e.varint_flag(len(op.regions), op.has_trait(IsolatedFromAbove))
            self.write_region_list(e, op, ids, base)

    # --------------------------------------------------------------------------- file

    def write(self, module: ModuleOp) -> bytes:
        self.dialect("builtin")
        self.collect_ops(module)
        self.number()
        out = Emitter()
        out.raw(MAGIC)
        out.varint(self.version)
        out.cstring(PRODUCER)

        # IR first (into a buffer): it only refers to already numbered entries.
        ir = Emitter()
        ir.varint_flag(1, False)  # the top-level block: one op, no arguments
        self.write_op(ir, module, {}, 0, {})

        # attributes and types
        data = Emitter()
        offsets = Emitter()
        offsets.varint(len(self.attr_list))
        offsets.varint(len(self.type_list))
        for entries, is_type in ((self.attr_list, False), (self.type_list, True)):
            group: list[tuple[int, bool]] = []
            group_dialect = None
            for a in entries:
                d = self.dialects[_dialect_of(a)]
                if d != group_dialect and group:
                    _flush_group(offsets, group_dialect, group)  # pyright: ignore[reportArgumentType]
                    group = []
                group_dialect = d
                encoded, custom = self.encode(a, is_type)
                data.raw(encoded)
                group.append((len(encoded), custom))
            if group:
                _flush_group(offsets, group_dialect, group)  # pyright: ignore[reportArgumentType]

        # dialects and op names
        dia = Emitter()
        dia.varint(len(self.dialects))
        for name in self.dialects:
            if self.version >= E.DIALECT_VERSIONING:
                dia.varint_flag(self.strings[name], False)
            else:
                dia.varint(self.strings[name])
        if self.version >= E.ELIDE_UNKNOWN_BLOCK_ARG_LOCATION:
            dia.varint(len(self.op_names))
        by_dialect: dict[str, list[tuple[str, bool]]] = {}
        for (d, n), (_, registered) in sorted(self.op_names.items(), key=lambda kv: kv[1][0]):
            by_dialect.setdefault(d, []).append((n, registered))
        # op name ids must follow the grouping order: renumber to match
        renumber: dict[tuple[str, str], tuple[int, bool]] = {}
        for d, names in by_dialect.items():
            dia.varint(self.dialects[d])
            dia.varint(len(names))
            for n, registered in names:
                renumber[(d, n)] = (len(renumber), registered)
                if self.version >= E.NATIVE_PROPERTIES_ENCODING:
                    dia.varint_flag(self.strings[n], registered)
                else:
                    dia.varint(self.strings[n])
        if renumber != self.op_names:  # write the IR again with grouped op numbers
            self.op_names = renumber
            ir = Emitter()
            ir.varint_flag(1, False)
            self.write_op(ir, module, {}, 0, {})

        out.section(E.DIALECT, dia.buf)
        out.section(E.ATTR_TYPE, data.buf)
        out.section(E.ATTR_TYPE_OFFSET, offsets.buf)
        out.section(E.IR, ir.buf)
        if self.resources:
            self._write_resources(out)
        if self.version >= E.NATIVE_PROPERTIES_ENCODING:
            out.section(E.PROPERTIES, encode_varint(0))  # required, empty (see module doc)
        strings = Emitter()
        strings.varint(len(self.strings))
        encoded = [s.encode("utf-8") for s in self.strings]
        for s in reversed(encoded):
            strings.varint(len(s) + 1)
        for s in encoded:
            strings.raw(s + b"\x00")
        out.section(E.STRING, strings.buf)
        return bytes(out.buf)

    def _write_resources(self, out: Emitter) -> None:
        from .blobs import get_blob

        body = Emitter()
        sizes: list[int] = []
        max_align = 1
        for key in self.resources:
            blob = get_blob(key)
            if blob is None:
                raise ValueError(f"dense_resource blob '{key}' not found")
            data, alignment = blob
            alignment = max(1, alignment)
            max_align = max(max_align, alignment)
            start = len(body.buf)
            body.varint(alignment)
            body.varint(len(data))
            body.align(alignment)
            body.raw(data)
            sizes.append(len(body.buf) - start)
        offsets = Emitter()
        offsets.varint(0)  # no external resource groups
        offsets.varint(self.dialects["builtin"])
        offsets.varint(len(self.resources))
        for key, size in zip(self.resources, sizes):
            offsets.varint(self.strings[key])
            offsets.varint(size)
            offsets.byte(E.RESOURCE_BLOB)
        out.section(E.RESOURCE, body.buf, max_align)
        out.section(E.RESOURCE_OFFSET, offsets.buf)


def _flush_group(e: Emitter, dialect: int, group: list[tuple[int, bool]]) -> None:
    e.varint(dialect)
    e.varint(len(group))
    for size, custom in group:
        e.varint_flag(size, custom)


def _write_shape(e: Emitter, shape: Any) -> None:
    e.varint(len(shape))
    for d in shape:
        e.svarint(-(1 << 63) if d < 0 else d)  # xDSL's dynamic marker -> ShapedType::kDynamic


def _write_apint(e: Emitter, bits: int, width: int) -> None:
    if width <= 8:
        e.byte(bits)
    elif width <= 64:
        e.svarint(bits - (1 << 64) if bits >> 63 else bits)
    else:
        words = [(bits >> (64 * i)) & ((1 << 64) - 1) for i in range((width + 63) // 64)]
        while len(words) > 1 and not words[-1]:
            words.pop()
        e.varint(len(words))
        for w in words:
            e.svarint(w - (1 << 64) if w >> 63 else w)


def _assembly(attr: Attribute) -> str:
    """Textual assembly for the fallback encoding, as our printer writes it."""
    from io import StringIO

    from tosa_xdsl.printing import TosaPrinter

    out = StringIO()
    TosaPrinter(stream=out).print_attribute(attr)
    return out.getvalue()


def write_bytecode(module: ModuleOp, version: int | None = None) -> bytes:
    return Writer(DEFAULT_VERSION if version is None else version).write(module)
