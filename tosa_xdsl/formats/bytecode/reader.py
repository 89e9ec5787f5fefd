"""MLIR bytecode reader: bytes -> xDSL ModuleOp.

Follows mlir/docs/BytecodeFormat.md for versions 0 to 6 (what MLIR 22/23, IREE 3.13 and
tosa-converter-for-tflite write). Structure of the file, in reading order here:

    header (magic, version, producer) -> sections (each at most once)
    string section       -> self.strings
    dialect section      -> dialect names, op names (with `wasRegistered` from v5)
    resource sections    -> builtin dense_resource blobs into the blob store (blobs.py)
    attr/type sections   -> lazily decoded table (builtin custom encodings in
                            builtin_read.py, every other entry is textual assembly parsed by
                            xDSL's parser in our context)
    properties section   -> per-op property blobs (properties.py)
    IR section           -> operations, read with an explicit stack (no recursion), so
                            deep region nesting gives an error, not a RecursionError.

Every size and count is checked against the bytes actually present before anything is
allocated from it; every error is a BytecodeError with the absolute file offset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import (
    DictionaryAttr,
    ModuleOp,
    NoneType,
    UnknownLoc,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.parser.core import (
    ForwardDeclaredValue as _Placeholder,  # a value used before its definition
)

from . import builtin_read
from . import encoding as E
from .properties import decode_properties
from .stream import MAGIC, BytecodeError, Stream, read_section

if TYPE_CHECKING:
    from xdsl.context import Context

MAX_REGION_DEPTH = 128  # deeper nesting is refused (xDSL's printer/verifier recurse)
MAX_ATTR_DEPTH = 64  # attributes/types nested through the table
MAX_REGIONS_PER_OP = 4096


class _OpName:
    __slots__ = ("dialect", "name", "registered", "op_type")

    def __init__(self, dialect: str, name: str, registered: bool | None):
        self.dialect = dialect
        self.name = name
        self.registered = registered
        self.op_type: Any = None

    @property
    def full(self) -> str:
        return f"{self.dialect}.{self.name}"


class _Scope:
    """Values numbered from the start of the nearest isolated-from-above ancestor."""

    __slots__ = ("values", "next_ids")

    def __init__(self) -> None:
        self.values: list[SSAValue | None] = []
        self.next_ids: list[int] = []


class _RegionFrame:
    __slots__ = ("blocks", "index", "ops_left", "stream", "num_values", "scope")

    def __init__(self, blocks: list[Block], stream: Stream, num_values: int, scope: _Scope):
        self.blocks = blocks
        self.index = 0
        self.ops_left = 0
        self.stream = stream
        self.num_values = num_values
        self.scope = scope


class _OpFrame:
    __slots__ = ("op", "next_region", "isolated", "stream", "scope")

    def __init__(self, op: Operation, isolated: bool, stream: Stream, scope: _Scope):
        self.op = op
        self.next_region = 0
        self.isolated = isolated
        self.stream = stream
        self.scope = scope


class Reader:
    def __init__(self, data: bytes | bytearray | memoryview, ctx: Context, filename: str = "<bytecode>"):
        self.data = memoryview(data).cast("B") if not isinstance(data, bytes) else data
        self.ctx = ctx
        self.filename = filename
        self.version = 0
        self.producer = ""
        self.strings: list[str] = []
        self.dialects: list[str] = []
        self.op_names: list[_OpName] = []
        self.resource_keys: list[str | None] = []
        self.properties: list[Stream] = []
        self._attr_entries: list[tuple[int, int, int, bool]] = []  # dialect, start, end, custom
        self._type_entries: list[tuple[int, int, int, bool]] = []
        self._attrs: list[Attribute | None] = []
        self._types: list[Attribute | None] = []
        self._busy: set[tuple[bool, int]] = set()
        self._depth = 0
        self._forward: dict[int, _Placeholder] = {}

    # ---------------------------------------------------------------------- top level

    def read(self) -> ModuleOp:
        s = Stream(self.data)
        if bytes(s.bytes(4, "magic")) != MAGIC:
            raise BytecodeError("not MLIR bytecode (bad magic number)", 0)
        pos = s.pos
        self.version = s.varint("version")
        if not E.MIN_VERSION <= self.version <= E.MAX_VERSION:
            raise BytecodeError(
                f"bytecode version {self.version} is not supported (this reader reads "
                f"versions {E.MIN_VERSION} to {E.MAX_VERSION})", pos)
        self.producer = s.cstring("producer")
        sections: dict[int, Stream] = {}
        while not s.at_end():
            sec = read_section(s)
            if sec.id >= E.NUM_SECTIONS:
                raise BytecodeError(f"invalid section id {sec.id}", sec.offset)
            if sec.id in sections:
                raise BytecodeError(f"duplicate {E.SECTION_NAMES[sec.id]} section", sec.offset)
            sections[sec.id] = sec.stream
        for required in (E.STRING, E.DIALECT, E.ATTR_TYPE, E.ATTR_TYPE_OFFSET, E.IR):
            if required not in sections:
                raise BytecodeError(f"missing {E.SECTION_NAMES[required]} section", len(self.data))
        if (E.RESOURCE in sections) != (E.RESOURCE_OFFSET in sections):
            raise BytecodeError("resource and resource offset sections must come together", len(self.data))
        self._read_strings(sections[E.STRING])
        self._read_dialects(sections[E.DIALECT])
        if E.RESOURCE in sections:
            self._read_resources(sections[E.RESOURCE], sections[E.RESOURCE_OFFSET])
        self._read_attr_type_offsets(sections[E.ATTR_TYPE], sections[E.ATTR_TYPE_OFFSET])
        if E.PROPERTIES in sections:
            self._read_properties(sections[E.PROPERTIES])
        return self._read_ir(sections[E.IR])

    def _read_strings(self, s: Stream) -> None:
        n = s.count("string count")
        lengths = [s.varint("string length") for _ in range(n)]
        lengths.reverse()
        data = s.bytes(s.remaining(), "string data")
        pos = 0
        for length in lengths:
            if length < 1 or pos + length > len(data):
                raise s.error("string table overflows its section")
            self.strings.append(bytes(data[pos : pos + length - 1]).decode("utf-8", "replace"))
            pos += length

    def string_ref(self, s: Stream) -> str:
        pos = s.pos
        idx = s.varint("string index")
        if idx >= len(self.strings):
            raise s.error(f"invalid string index {idx}", pos)
        return self.strings[idx]

    def _read_dialects(self, s: Stream) -> None:
        n = s.count("dialect count")
        for _ in range(n):
            if self.version < E.DIALECT_VERSIONING:
                self.dialects.append(self.string_ref(s))
                continue
            pos = s.pos
            idx, versioned = s.varint_flag("dialect name")
            if idx >= len(self.strings):
                raise s.error(f"invalid string index {idx}", pos)
            self.dialects.append(self.strings[idx])
            if versioned:  # a nested dialect-versions section; versions are not used
                sec = read_section(s)
                if sec.id != E.DIALECT_VERSIONS:
                    raise BytecodeError("expected a dialect version section", sec.offset)
        if self.version >= E.ELIDE_UNKNOWN_BLOCK_ARG_LOCATION:
            s.count("operation name count")
        while not s.at_end():
            dialect = self._dialect_ref(s)
            for _ in range(s.count("operation names in group")):
                if self.version < E.NATIVE_PROPERTIES_ENCODING:
                    self.op_names.append(_OpName(dialect, self.string_ref(s), None))
                else:
                    pos = s.pos
                    idx, registered = s.varint_flag("operation name")
                    if idx >= len(self.strings):
                        raise s.error(f"invalid string index {idx}", pos)
                    self.op_names.append(_OpName(dialect, self.strings[idx], registered))

    def _dialect_ref(self, s: Stream) -> str:
        pos = s.pos
        idx = s.varint("dialect index")
        if idx >= len(self.dialects):
            raise s.error(f"invalid dialect index {idx}", pos)
        return self.dialects[idx]

    # ---------------------------------------------------------------------- resources

    def _read_resources(self, data: Stream, offsets: Stream) -> None:
        from .blobs import put_blob

        cursor = data.pos

        def group(store: bool) -> None:
            nonlocal cursor
            for _ in range(offsets.count("resources in group", 3)):
                key = self.string_ref(offsets)
                size = offsets.varint("resource size")
                kind = offsets.byte("resource kind")
                if size > data.end - cursor:
                    raise offsets.error(f"resource '{key}' of {size} bytes overflows its section")
                entry = Stream(data.data, cursor, cursor + size)
                cursor += size
                if kind not in (E.RESOURCE_BLOB, E.RESOURCE_BOOL, E.RESOURCE_STRING):
                    raise offsets.error(f"invalid resource kind {kind}")
                if not store:
                    continue
                if kind != E.RESOURCE_BLOB:
                    self.resource_keys.append(None)
                    continue
                alignment = entry.varint("blob alignment")
                blob_size = entry.varint("blob size")
                entry.align(alignment)
                blob = entry.bytes(blob_size, "blob")
                # a view of the input when it is immutable bytes: the weights are not copied
                self.resource_keys.append(put_blob(blob, key, alignment, copy=False))

        for _ in range(offsets.count("external resource groups", 2)):
            self.string_ref(offsets)  # external providers (e.g. mlir_reproducer): skipped
            group(False)
        while not offsets.at_end():
            dialect = self._dialect_ref(offsets)
            start = len(self.resource_keys)
            group(True)
            if dialect != "builtin":  # only builtin dense_resource blobs are understood
                self.resource_keys[start:] = [None] * (len(self.resource_keys) - start)

    def resource_ref(self, s: Stream) -> str:
        pos = s.pos
        idx = s.varint("resource handle")
        if idx >= len(self.resource_keys) or self.resource_keys[idx] is None:
            raise s.error(f"invalid resource handle {idx}", pos)
        return self.resource_keys[idx]  # pyright: ignore[reportReturnType]

    # ------------------------------------------------------------ attributes and types

    def _read_attr_type_offsets(self, data: Stream, s: Stream) -> None:
        num_attrs = s.count("attribute count")
        num_types = s.count("type count")
        if num_attrs + num_types > s.remaining():
            raise s.error("attribute and type counts exceed the offset section")
        cursor = data.pos
        for entries, total in ((self._attr_entries, num_attrs), (self._type_entries, num_types)):
            while len(entries) < total:
                dialect = s.varint("dialect index")
                if dialect >= len(self.dialects):
                    raise s.error(f"invalid dialect index {dialect}")
                n = s.count("entries in group")
                if len(entries) + n > total:
                    raise s.error("attribute/type group overflows the declared count")
                for _ in range(n):
                    size, custom = s.varint_flag("attribute/type size")
                    if size > data.end - cursor:
                        raise s.error("attribute/type entry overflows its section")
                    entries.append((dialect, cursor, cursor + size, custom))
                    cursor += size
        self._attrs = [None] * num_attrs
        self._types = [None] * num_types

    def attr_ref(self, s: Stream) -> Attribute:
        pos = s.pos
        idx = s.varint("attribute index")
        if idx >= len(self._attrs):
            raise s.error(f"invalid attribute index {idx}", pos)
        return self._attrs[idx] or self._decode(False, idx)

    def type_ref(self, s: Stream) -> Attribute:
        pos = s.pos
        idx = s.varint("type index")
        if idx >= len(self._types):
            raise s.error(f"invalid type index {idx}", pos)
        return self._types[idx] or self._decode(True, idx)

    def attr(self, idx: int, pos: int) -> Attribute:
        if idx >= len(self._attrs):
            raise BytecodeError(f"invalid attribute index {idx}", pos)
        return self._attrs[idx] or self._decode(False, idx)

    def loc_ref(self, s: Stream) -> Attribute:
        from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc

        pos = s.pos
        loc = self.attr_ref(s)
        if not isinstance(loc, UnknownLoc | FileLineColLoc | NameLoc | FusedLoc | CallSiteLoc):
            raise s.error(f"expected a location, got {loc}", pos)
        return loc

    def _decode(self, is_type: bool, idx: int) -> Attribute:
        dialect, start, end, custom = (self._type_entries if is_type else self._attr_entries)[idx]
        what = "type" if is_type else "attribute"
        if (is_type, idx) in self._busy:
            raise BytecodeError(f"cyclic {what} reference", start)
        if self._depth >= MAX_ATTR_DEPTH:
            raise BytecodeError(f"{what}s nested deeper than {MAX_ATTR_DEPTH}", start)
        self._busy.add((is_type, idx))
        self._depth += 1
        try:
            s = Stream(self.data, start, end)
            name = self.dialects[dialect]
            if custom:
                try:
                    value = self._decode_custom(name, is_type, s, start)
                except (BytecodeError, RecursionError, MemoryError):
                    raise
                except Exception as err:  # xDSL refusing parameters (VerifyException, ...)
                    lines = str(err).strip().splitlines()
                    raise BytecodeError(f"invalid {name} {what}: {' '.join(lines[:2]) or type(err).__name__}",
                                        start) from None
                if is_type and not _is_type(value):
                    raise BytecodeError(f"expected a type, got {value}", start)
            else:
                value = self._parse_text(s, is_type)
        finally:
            self._depth -= 1
            self._busy.discard((is_type, idx))
        (self._types if is_type else self._attrs)[idx] = value
        return value

    def _decode_custom(self, dialect: str, is_type: bool, s: Stream, start: int) -> Attribute:
        if dialect == "builtin":
            return (builtin_read.read_type if is_type else builtin_read.read_attribute)(self, s)
        if dialect == "quant" and is_type:
            from . import quant_read

            return quant_read.read_type(self, s)
        what = "type" if is_type else "attribute"
        raise BytecodeError(f"{dialect} {what} in the dialect's own bytecode encoding is not supported", start)

    def _parse_text(self, s: Stream, is_type: bool) -> Attribute:
        """The assembly-format fallback: a NUL-terminated string parsed by xDSL."""
        start = s.pos
        return self.parse_assembly(s.cstring("assembly format"), is_type, start)

    def parse_assembly(self, text: str, is_type: bool, start: int) -> Attribute:
        from xdsl.parser import Parser
        from xdsl.utils.mlir_lexer import MLIRTokenKind

        try:
            parser = Parser(self.ctx, text, self.filename)
            value = parser.parse_type() if is_type else parser.parse_attribute()
            if parser._current_token.kind != MLIRTokenKind.EOF:  # pyright: ignore[reportPrivateUsage]
                raise ValueError("trailing characters")
        except BytecodeError:
            raise
        except Exception as err:
            lines = str(err).strip().splitlines()
            msg = getattr(err, "msg", None) or (lines[0] if lines else type(err).__name__)
            raise BytecodeError(f"cannot parse {'type' if is_type else 'attribute'} '{text[:80]}': {msg}", start) from None
        return value

    # ---------------------------------------------------------------------- properties

    def _read_properties(self, s: Stream) -> None:
        n = s.count("properties count")
        for _ in range(n):
            size = s.varint("properties size")
            self.properties.append(s.sub(size, "properties"))

    # ------------------------------------------------------------------------------ IR

    def _read_ir(self, s: Stream) -> ModuleOp:
        top = Block()
        scope = _Scope()
        top_frame = _RegionFrame([top], s, 0, scope)
        scope.next_ids.append(0)
        self._block_header(top_frame)
        stack: list[_RegionFrame | _OpFrame] = [top_frame]
        depth = 0
        while stack:
            f = stack[-1]
            if isinstance(f, _RegionFrame):
                if f.ops_left:
                    f.ops_left -= 1
                    op, num_regions, isolated = self._op(f)
                    f.blocks[f.index].add_op(op)
                    if num_regions:
                        scope = _Scope() if isolated else f.scope
                        rs = f.stream
                        if isolated and self.version >= E.LAZY_LOADING:
                            # all regions of an isolated op: one nested IR section
                            sec = read_section(f.stream)
                            if sec.id != E.IR:
                                raise BytecodeError("expected an IR section for an isolated region", sec.offset)
                            rs = sec.stream
                        stack.append(_OpFrame(op, isolated, rs, scope))
                    continue
                f.index += 1
                if f.index < len(f.blocks):
                    self._block_header(f)
                    continue
                del f.scope.values[len(f.scope.values) - f.num_values :]
                f.scope.next_ids.pop()
                stack.pop()
                depth -= 1
                continue
            # an operation whose regions are being read
            if f.next_region == len(f.op.regions):
                stack.pop()
                continue
            region = f.op.regions[f.next_region]
            f.next_region += 1
            rs = f.stream
            num_blocks = rs.count("block count")
            if not num_blocks:
                continue
            pos = rs.pos
            num_values = rs.count("region value count", 0)
            if num_values > rs.remaining() + num_blocks * 64:
                raise rs.error(f"region declares {num_values} values", pos)
            if depth + 1 > MAX_REGION_DEPTH:
                raise rs.error(f"regions nested deeper than {MAX_REGION_DEPTH}", pos)
            blocks = [Block() for _ in range(num_blocks)]
            for block in blocks:
                region.add_block(block)
            f.scope.next_ids.append(len(f.scope.values))
            f.scope.values.extend([None] * num_values)
            frame = _RegionFrame(blocks, rs, num_values, f.scope)
            self._block_header(frame)
            stack.append(frame)
            depth += 1
        if not s.at_end():
            raise s.error("trailing data in the IR section")
        if self._forward:
            raise BytecodeError("use of a value that is never defined", s.end)
        ops = list(top.ops)
        if len(ops) == 1 and isinstance(ops[0], ModuleOp):
            module = ops[0]
            module.detach()
            return module
        for op in ops:
            op.detach()
        return ModuleOp(ops)

    def _block_header(self, f: _RegionFrame) -> None:
        s = f.stream
        num_ops, has_args = s.varint_flag("block encoding")
        if num_ops > s.remaining():
            raise s.error(f"block declares {num_ops} operations")
        f.ops_left = num_ops
        if not has_args:
            return
        block = f.blocks[f.index]
        n = s.count("block argument count")
        args = []
        for _ in range(n):
            if self.version >= E.ELIDE_UNKNOWN_BLOCK_ARG_LOCATION:
                pos = s.pos
                idx, has_loc = s.varint_flag("block argument type")
                if idx >= len(self._types):
                    raise s.error(f"invalid type index {idx}", pos)
                type = self._types[idx] or self._decode(True, idx)
                loc = self.loc_ref(s) if has_loc else UnknownLoc()
            else:
                type = self.type_ref(s)
                loc = self.loc_ref(s)
            arg = BlockArgument(type, block, len(args))
            arg.location = loc  # pyright: ignore[reportAttributeAccessIssue]
            args.append(arg)
        # all at once: Block.insert_arg rebuilds the argument tuple each time (quadratic)
        block._args = tuple(args)  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
        self._define(f, args, s)
        if self.version >= E.USE_LIST_ORDERING and s.byte("use-list flag"):
            self._use_lists(s, n)

    def _define(self, f: _RegionFrame, values: list[SSAValue] | tuple[SSAValue, ...], s: Stream) -> None:
        scope = f.scope
        first = scope.next_ids[-1]
        if first + len(values) > len(scope.values):
            raise s.error(
                f"value index range [{first}, {first + len(values)}) exceeds the region's "
                f"{len(scope.values)} values")
        for i, value in enumerate(values, first):
            old = scope.values[i]
            if isinstance(old, _Placeholder):
                old.replace_all_uses_with(value)
                del self._forward[id(old)]
            scope.values[i] = value
        scope.next_ids[-1] = first + len(values)

    def _use_lists(self, s: Stream, num_values: int) -> None:
        """Use-list orders (v3+): checked for form and dropped (docs/bytecode.md)."""
        groups = s.count("use-list count") if num_values > 1 else 1
        for _ in range(groups):
            if num_values > 1:
                pos = s.pos
                if s.varint("use-list value index") >= num_values:
                    raise s.error("invalid use-list value index", pos)
            n, _pairs = s.varint_flag("use-list size")
            if n > s.remaining():
                raise s.error(f"use-list of {n} entries overflows the section")
            for _ in range(n):
                s.varint("use-list index")

    def _op(self, f: _RegionFrame) -> tuple[Operation, int, bool]:
        s = f.stream
        start = s.pos
        idx = s.varint("operation name")
        if idx >= len(self.op_names):
            raise s.error(f"invalid operation name index {idx}", start)
        entry = self.op_names[idx]
        mask = s.byte("operation mask")
        if mask & 0x80:
            raise s.error(f"invalid operation mask {mask:#x}", s.pos - 1)
        location = self.loc_ref(s)
        attributes: dict[str, Attribute] = {}
        properties: dict[str, Attribute] = {}
        if mask & E.HAS_ATTRS:
            pos = s.pos
            attrs = self.attr_ref(s)
            if not isinstance(attrs, DictionaryAttr):
                raise s.error("operation attributes are not a dictionary", pos)
            attributes = dict(attrs.data)
        op_type = self._op_type(entry, start)
        if mask & E.HAS_PROPERTIES:
            pos = s.pos
            if self.version < E.NATIVE_PROPERTIES_ENCODING:
                raise s.error("properties in a bytecode version without them", pos)
            pidx = s.varint("properties index")
            if pidx >= len(self.properties):
                raise s.error(f"invalid properties index {pidx}", pos)
            blob = self.properties[pidx]
            properties = decode_properties(
                self, entry.full, op_type, bool(entry.registered), Stream(blob.data, blob.pos, blob.end))
        result_types: list[Attribute] = []
        if mask & E.HAS_RESULTS:
            result_types = [self.type_ref(s) for _ in range(s.count("result count"))]
        operands: list[SSAValue] = []
        if mask & E.HAS_OPERANDS:
            operands = [self._operand(f, s) for _ in range(s.count("operand count"))]
        successors: list[Block] = []
        if mask & E.HAS_SUCCESSORS:
            for _ in range(s.count("successor count")):
                pos = s.pos
                b = s.varint("successor")
                if b >= len(f.blocks):
                    raise s.error(f"invalid successor index {b}", pos)
                successors.append(f.blocks[b])
        if self.version >= E.USE_LIST_ORDERING and mask & E.HAS_USE_LIST_ORDERS:
            self._use_lists(s, len(result_types))
        num_regions, isolated = 0, False
        if mask & E.HAS_INLINE_REGIONS:
            pos = s.pos
            num_regions, isolated = s.varint_flag("region count")
            # each region takes a byte at least; xDSL adds regions one by one in
            # quadratic time, so a bound keeps a small file from taking minutes
            if num_regions > s.remaining() or num_regions > MAX_REGIONS_PER_OP:
                raise s.error(f"operation declares {num_regions} regions", pos)
        if hasattr(op_type, "get_irdl_definition"):
            declared = op_type.get_irdl_definition().properties
            for name in declared:
                if name in attributes and name not in properties:
                    properties[name] = attributes.pop(name)
            for name in [n for n in properties if n not in declared]:
                attributes[name] = properties.pop(name)  # e.g. segment sizes xDSL keeps as attributes
        try:
            op = op_type.create(
                operands=operands, result_types=result_types, properties=properties,
                attributes=attributes, successors=successors,
                regions=[Region() for _ in range(num_regions)])
            op.location = location
        except Exception as err:
            raise BytecodeError(f"cannot build '{entry.full}': {err}", start) from None
        if op.results:
            self._define(f, op.results, s)
        return op, num_regions, isolated

    def _op_type(self, entry: _OpName, pos: int) -> Any:
        if entry.op_type is None:
            op_type = self.ctx.get_optional_op(entry.full)
            if op_type is None:
                if not self.ctx.allow_unregistered:
                    raise BytecodeError(f"unregistered operation '{entry.full}'", pos)
                from xdsl.dialects.builtin import UnregisteredOp

                op_type = UnregisteredOp.with_name(entry.full)
            entry.op_type = op_type
        return entry.op_type

    def _operand(self, f: _RegionFrame, s: Stream) -> SSAValue:
        pos = s.pos
        idx = s.varint("operand")
        values = f.scope.values
        if idx >= len(values):
            raise s.error(f"invalid value index {idx}", pos)
        value = values[idx]
        if value is None:
            value = _Placeholder(NoneType())
            values[idx] = value
            self._forward[id(value)] = value
        return value


def _is_type(attr: Attribute) -> bool:
    from xdsl.ir import TypeAttribute

    return isinstance(attr, TypeAttribute)


def read_bytecode(data: bytes, ctx: Context, filename: str = "<bytecode>") -> ModuleOp:
    """Read MLIR bytecode into a module; raises BytecodeError (message + offset)."""
    reader = Reader(data, ctx, filename)
    try:
        return reader.read()
    except BytecodeError:
        raise
    except RecursionError:
        raise BytecodeError("input nested too deeply", 0) from None
    except MemoryError:
        raise BytecodeError("out of memory", 0) from None
    except Exception as err:  # a malformed file must never escape as a traceback
        raise BytecodeError(f"malformed input ({type(err).__name__}: {err})", 0) from None


__all__ = ["Reader", "read_bytecode", "BytecodeError"]
