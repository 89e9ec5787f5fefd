"""Decoding the builtin dialect's custom attribute and type encodings.

Encodings from mlir/include/mlir/IR/BuiltinDialectBytecode.td: each entry starts with a
varint code (the position of the attribute/type in that file's lists, see encoding.py)
followed by its members. Nested attributes, types and strings are varint indices into
the file's tables, resolved through the reader (`rd`).

Dense element data is converted with numpy (tosa_xdsl.ir.dense's MLIR-layout helpers),
never element by element.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BytesAttr,
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
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NameLoc,
    NoneAttr,
    NoneType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    UnitAttr,
    UnknownLoc,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from xdsl.ir import Attribute

from tosa_xdsl.ir import dense as dense_mod

from . import encoding as E
from .stream import Stream

if TYPE_CHECKING:
    from .reader import Reader

DYNAMIC = -(1 << 63)  # MLIR's ShapedType::kDynamic in bytecode; xDSL uses -1
MAX_EXPANDED_BYTES = 1 << 28  # splats are expanded (xDSL has no splat storage): bound it
MAX_INT_WIDTH = 1 << 24  # MLIR's IntegerType::kMaxWidth


def _shape(s: Stream, what: str) -> list[int]:
    n = s.count(what)
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    return [DYNAMIC_INDEX if d == DYNAMIC else d for d in (s.svarint(what) for _ in range(n))]


def _attrs(rd: Reader, s: Stream, what: str) -> list[Attribute]:
    n = s.count(what)
    return [rd.attr_ref(s) for _ in range(n)]


def _types(rd: Reader, s: Stream, what: str) -> list[Attribute]:
    n = s.count(what)
    return [rd.type_ref(s) for _ in range(n)]


def _blob(s: Stream, what: str) -> memoryview:
    return s.bytes(s.varint(what + " size"), what)


def read_apint(s: Stream, width: int) -> int:
    """readAPIntWithKnownWidth: the value's low `width` bits (unsigned)."""
    if width <= 8:
        value = s.byte("integer")
    elif width <= 64:
        value = s.svarint("integer")
    else:
        words = s.count("integer word count")
        value = 0
        for i in range(words):
            value |= (s.svarint("integer word") & ((1 << 64) - 1)) << (64 * i)
    return value & ((1 << width) - 1)


def int_width(t: Attribute) -> int | None:
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, IntegerType):
        return t.width.data
    return None


def _signed_value(bits: int, t: Attribute) -> int:
    width = int_width(t) or 64
    if isinstance(t, IntegerType):
        if t.signedness.data == Signedness.UNSIGNED:
            return bits
        if width == 1:
            return bits  # xDSL spells i1 true as 1 (prints `true`)
    return bits - (1 << width) if bits >> (width - 1) & 1 else bits


def _float_value(bits: int, t: Attribute, s: Stream) -> float:
    import numpy as np

    sem = dense_mod.float_sem(t)
    if sem is None:
        raise s.error(f"unsupported float type {t}")
    raw = bits.to_bytes(sem.width // 8, "little")
    return float(np.frombuffer(raw, dtype=sem.dtype)[0])


def _elements_count(rd: Reader, type: Any, s: Stream) -> int:
    shape = tuple(type.get_shape())
    if any(d < 0 for d in shape):
        raise s.error("dense elements need a static shape")
    return math.prod(shape)


def _dense_elements(rd: Reader, s: Stream) -> Attribute:
    import numpy as np

    start = s.pos
    type = rd.type_ref(s)
    raw = _blob(s, "dense elements data")
    if not isinstance(type, TensorType | VectorType | MemRefType):
        raise s.error(f"dense elements of non-shaped type {type}", start)
    elt = type.get_element_type()
    n = _elements_count(rd, type, s)
    if isinstance(elt, IntegerType | IndexType):
        width = int_width(elt) or 64
        size = 8 if isinstance(elt, IndexType) else (width + 7) // 8
    elif (sem := dense_mod.float_sem(elt)) is not None:
        width = size = sem.width // 8
        width *= 8
    elif isinstance(elt, ComplexType) and (sem := dense_mod.float_sem(elt.element_type)) is not None:
        size = 2 * (sem.width // 8)  # (real, imaginary) pairs, the layout xDSL stores too
        width = size * 8
    else:
        raise s.error(f"dense elements of element type {elt} are not supported", start)
    if width == 1:  # i1: one byte each (newer MLIR), bit-packed, or a one-byte splat
        if len(raw) == n and n != 1:
            data = bytes(raw)
        elif len(raw) == 1:
            data = (b"\x01" if raw[0] else b"\x00") * n if raw[0] in (0, 0xFF) or n == 1 else None
            if data is None and n <= 8:
                bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")[:n]
                data = bits.tobytes()
        elif len(raw) == (n + 7) // 8:
            bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")[:n]
            data = bits.tobytes()
        else:
            data = None
        if data is None or n > MAX_EXPANDED_BYTES:
            raise s.error(f"dense i1 data of {len(raw)} bytes does not fit {type}", start)
    elif len(raw) == size * n:
        data = raw
    elif len(raw) == size:
        if size * n > MAX_EXPANDED_BYTES:
            raise s.error(f"splat of {n} elements is too large to expand", start)
        data = bytes(raw) * n
    else:
        raise s.error(f"dense data of {len(raw)} bytes does not fit {type}", start)
    storage = dense_mod._from_mlir_bytes(bytes(data), elt, n)  # pyright: ignore[reportPrivateUsage]
    return DenseIntOrFPElementsAttr(type, BytesAttr(storage))


def _dense_array(rd: Reader, s: Stream) -> Attribute:
    import numpy as np

    start = s.pos
    elt = rd.type_ref(s)
    count = s.varint("dense array size")
    raw = _blob(s, "dense array data")
    if isinstance(elt, IntegerType):
        width = elt.width.data
        k = (width + 7) // 8
        if k not in (1, 2, 4, 8) or len(raw) != k * count:
            raise s.error(f"dense array data of {len(raw)} bytes does not fit {count} x {elt}", start)
        if width == 1:
            raw = (-(np.frombuffer(raw, np.uint8) != 0).astype(np.int8)).tobytes()
        return DenseArrayBase(elt, BytesAttr(bytes(raw)))
    if (sem := dense_mod.float_sem(elt)) is not None and isinstance(elt, Float32Type | Float64Type):
        if len(raw) != sem.width // 8 * count:
            raise s.error(f"dense array data of {len(raw)} bytes does not fit {count} x {elt}", start)
        return DenseArrayBase(elt, BytesAttr(bytes(raw)))
    raise s.error(f"dense array of {elt} is not supported", start)


def read_attribute(rd: Reader, s: Stream) -> Attribute:
    start = s.pos
    code = s.varint("builtin attribute code")
    if code == E.ARRAY_ATTR:
        return ArrayAttr(_attrs(rd, s, "array size"))
    if code == E.DICTIONARY_ATTR:
        n = s.count("dictionary size")
        items: dict[str, Attribute] = {}
        for _ in range(n):
            name = rd.attr_ref(s)
            if not isinstance(name, StringAttr):
                raise s.error("dictionary key is not a string")
            items[name.data] = rd.attr_ref(s)
        return DictionaryAttr(items)
    if code == E.STRING_ATTR:
        return StringAttr(rd.string_ref(s))
    if code == E.STRING_ATTR_WITH_TYPE:
        value = rd.string_ref(s)
        rd.type_ref(s)  # xDSL's StringAttr has no type: kept untyped (docs/bytecode.md)
        return StringAttr(value)
    if code == E.FLAT_SYMBOL_REF_ATTR:
        return SymbolRefAttr(_string_attr(rd, s))
    if code == E.SYMBOL_REF_ATTR:
        root = _string_attr(rd, s)
        nested = [_flat_symbol(rd, s) for _ in range(s.count("symbol reference count"))]
        return SymbolRefAttr(root, nested)
    if code == E.TYPE_ATTR:
        return rd.type_ref(s)  # xDSL uses types as attributes directly
    if code == E.UNIT_ATTR:
        return UnitAttr()
    if code == E.INTEGER_ATTR:
        type = rd.type_ref(s)
        width = int_width(type)
        if width is None:
            raise s.error(f"integer attribute of non-integer type {type}", start)
        return IntegerAttr(_signed_value(read_apint(s, width), type), type)
    if code == E.FLOAT_ATTR:
        type = rd.type_ref(s)
        sem = dense_mod.float_sem(type)
        if sem is None:
            raise s.error(f"float attribute of type {type} is not supported", start)
        return FloatAttr(_float_value(read_apint(s, sem.width), type, s), type)  # pyright: ignore
    if code == E.CALL_SITE_LOC:
        return CallSiteLoc(rd.loc_ref(s), rd.loc_ref(s))
    if code == E.FILE_LINE_COL_LOC:
        name = _string_attr(rd, s)
        return FileLineColLoc(name, IntAttr(s.varint("line")), IntAttr(s.varint("column")))
    if code == E.FILE_LINE_COL_RANGE:
        return _file_line_col_range(rd, s)
    if code == E.FUSED_LOC:
        return FusedLoc([rd.loc_ref(s) for _ in range(s.count("fused locations"))], NoneAttr())
    if code == E.FUSED_LOC_WITH_METADATA:
        locs = [rd.loc_ref(s) for _ in range(s.count("fused locations"))]
        return FusedLoc(locs, rd.attr_ref(s))
    if code == E.NAME_LOC:
        return NameLoc(_string_attr(rd, s), rd.loc_ref(s))
    if code == E.UNKNOWN_LOC:
        return UnknownLoc()
    if code == E.DENSE_RESOURCE_ELEMENTS_ATTR:
        type = rd.type_ref(s)
        key = rd.resource_ref(s)
        return DenseResourceAttr(StringAttr(key), type)  # pyright: ignore[reportArgumentType]
    if code == E.DENSE_ARRAY_ATTR:
        return _dense_array(rd, s)
    if code == E.DENSE_INT_OR_FP_ELEMENTS_ATTR:
        return _dense_elements(rd, s)
    names = {E.DENSE_STRING_ELEMENTS_ATTR: "dense string elements", E.SPARSE_ELEMENTS_ATTR:
             "sparse elements", E.DISTINCT_ATTR: "distinct"}
    if code in names:
        raise s.error(f"builtin {names[code]} attributes are not supported", start)
    raise s.error(f"unknown builtin attribute code {code}", start)


def _file_line_col_range(rd: Reader, s: Stream) -> Attribute:
    """FileLineColRange: filename, then a count and up to 4 varints (start line,
    start column, end line, end column). xDSL has no ranges: keep the start."""
    name = _string_attr(rd, s)
    n = s.varint("location range size")
    if n > 4:
        raise s.error(f"location range of {n} numbers")
    nums = [s.varint("location") for _ in range(n)] + [0, 0]
    return FileLineColLoc(name, IntAttr(nums[0]), IntAttr(nums[1]))


def _string_attr(rd: Reader, s: Stream) -> StringAttr:
    pos = s.pos
    attr = rd.attr_ref(s)
    if not isinstance(attr, StringAttr):
        raise s.error(f"expected a string attribute, got {attr}", pos)
    return attr


def _flat_symbol(rd: Reader, s: Stream) -> StringAttr:
    pos = s.pos
    attr = rd.attr_ref(s)
    if isinstance(attr, SymbolRefAttr) and not attr.nested_references.data:
        return attr.root_reference
    raise s.error("expected a flat symbol reference", pos)


def read_type(rd: Reader, s: Stream) -> Attribute:
    start = s.pos
    code = s.varint("builtin type code")
    if code == E.INTEGER_TYPE:
        value = s.varint("integer type")
        width, signedness = value >> 2, value & 3
        if width > MAX_INT_WIDTH or signedness == 3:
            raise s.error(f"invalid integer type encoding {value}", start)
        return IntegerType(width, Signedness(signedness))
    simple = {E.INDEX_TYPE: IndexType, E.BF16_TYPE: BFloat16Type, E.F16_TYPE: Float16Type,
              E.F32_TYPE: Float32Type, E.F64_TYPE: Float64Type, E.F80_TYPE: Float80Type,
              E.F128_TYPE: Float128Type, E.NONE_TYPE: NoneType}
    if code in simple:
        return simple[code]()
    if code == E.FUNCTION_TYPE:
        inputs = _types(rd, s, "function inputs")
        return FunctionType.from_lists(inputs, _types(rd, s, "function results"))
    if code == E.COMPLEX_TYPE:
        return ComplexType(rd.type_ref(s))  # pyright: ignore[reportArgumentType]
    if code in (E.MEMREF_TYPE, E.MEMREF_TYPE_WITH_MEM_SPACE):
        space = rd.attr_ref(s) if code == E.MEMREF_TYPE_WITH_MEM_SPACE else NoneAttr()
        shape = _shape(s, "memref rank")
        elt = rd.type_ref(s)
        layout = rd.attr_ref(s)
        from xdsl.dialects.builtin import AffineMap, AffineMapAttr
        if isinstance(layout, AffineMapAttr) and layout.data == AffineMap.identity(len(shape)):
            layout = NoneAttr()
        return MemRefType(elt, shape, layout, space)  # pyright: ignore[reportArgumentType]
    if code in (E.RANKED_TENSOR_TYPE, E.RANKED_TENSOR_TYPE_WITH_ENCODING):
        encoding = rd.attr_ref(s) if code == E.RANKED_TENSOR_TYPE_WITH_ENCODING else NoneAttr()
        shape = _shape(s, "tensor rank")
        return TensorType(rd.type_ref(s), shape, encoding)
    if code == E.TUPLE_TYPE:
        return TupleType(_types(rd, s, "tuple size"))
    if code in (E.UNRANKED_MEMREF_TYPE, E.UNRANKED_MEMREF_TYPE_WITH_MEM_SPACE):
        space = rd.attr_ref(s) if code == E.UNRANKED_MEMREF_TYPE_WITH_MEM_SPACE else NoneAttr()
        return UnrankedMemRefType.from_type(rd.type_ref(s), space)  # pyright: ignore
    if code == E.UNRANKED_TENSOR_TYPE:
        return UnrankedTensorType(rd.type_ref(s))
    if code == E.VECTOR_TYPE:
        shape = _shape(s, "vector rank")
        return VectorType(rd.type_ref(s), shape)
    if code == E.VECTOR_TYPE_WITH_SCALABLE_DIMS:
        n = s.count("vector scalable dims")
        flags = [bool(s.byte("scalable flag")) for _ in range(n)]
        shape = _shape(s, "vector rank")
        from xdsl.dialects.builtin import BoolAttr
        return VectorType(rd.type_ref(s), shape, ArrayAttr([BoolAttr.from_bool(f) for f in flags]))
    if code in E.SMALL_FLOAT_TYPES:  # newer MLIR (IREE 3.13) encodes these by code only
        return rd.parse_assembly(E.SMALL_FLOAT_TYPES[code], True, start)
    raise s.error(f"unknown builtin type code {code}", start)


__all__ = ["read_attribute", "read_type", "read_apint"]
