"""Dense constants (`dense<...>`) that read and print exactly as MLIR does.

xDSL 0.74 gets several details of builtin `DenseIntOrFPElementsAttr` wrong for the
element types TOSA uses:

- hex strings `dense<"0x...">` use xDSL's storage layout instead of MLIR's
  (i48 is 6 bytes per element in MLIR, i4 is one byte whose low 4 bits are
  sign-extended, i1 is one byte that is true when non-zero);
- a hex integer inside a float list (`dense<[0x7FC00000, 1.0]>`) is the element's
  bit pattern in MLIR, an integer *value* in xDSL;
- out-of-range integers raise a Python ValueError instead of a parse error,
  f32/f16 overflow raises OverflowError instead of rounding to inf;
- splats are detected by value (so `[0.0, -0.0]` prints as a splat) and floats are
  printed with Python's formatting, not APFloat's (`3.40282347E+38`, NaN in lowercase).

The replacements below (`parse_dense`, `print_dense`, `is_splat`, `print_float`,
`parse_builtin_type`) are installed by `tosa_xdsl.xdsl_patches` (the table of every patch
and its reason). The storage of the attribute (`attr.data`) keeps xDSL's layout, so
everything else in xDSL (`get_values()`, `from_list`, attribute equality) is unchanged:
only the text boundary converts to and from MLIR's layout.

`to_numpy` / `from_numpy` convert between attributes and numpy arrays without
per-element Python loops.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, cast

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BFloat16Type,
    Builtin,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.parser.attribute_parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from tosa_xdsl.xdsl_patches import original

# MLIR's --mlir-print-elementsattrs-with-hex-if-larger default: dense attributes with
# more elements than this print as a hex string. -1 never prints hex (useful for
# MLIR 22, which reads i1 hex bit-packed while LLVM 24 reads one byte per element).
HEX_ELEMENT_LIMIT = 100

# Largest splat we expand into memory (xDSL stores dense attributes element by element).
MAX_SPLAT_BYTES = 1 << 32


# --------------------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FloatSem:
    """The parts of an APFloat semantics that parsing and printing need."""

    dtype: Any  # numpy / ml_dtypes scalar type with the same bit layout
    uint: Any  # unsigned numpy type of the same width
    mantissa_bits: int  # explicit fraction bits
    exponent_bits: int
    bias: int
    # f8E4M3FN has no inf and a single NaN mantissa at the top exponent.
    ieee_specials: bool = True

    @property
    def precision(self) -> int:
        return self.mantissa_bits + 1

    @property
    def width(self) -> int:
        return 1 + self.exponent_bits + self.mantissa_bits

    def is_special(self, bits: int) -> bool:
        """NaN or infinity (sign bit ignored)."""
        mag = bits & ((1 << (self.width - 1)) - 1)
        e = mag >> self.mantissa_bits
        top = (1 << self.exponent_bits) - 1
        if self.ieee_specials:
            return e == top
        return mag == (1 << (self.width - 1)) - 1


_FLOATS: dict[type, FloatSem] = {
    Float16Type: FloatSem(np.float16, np.uint16, 10, 5, 15),
    BFloat16Type: FloatSem(ml_dtypes.bfloat16, np.uint16, 7, 8, 127),
    Float32Type: FloatSem(np.float32, np.uint32, 23, 8, 127),
    Float64Type: FloatSem(np.float64, np.uint64, 52, 11, 1023),
    Float8E4M3FNType: FloatSem(ml_dtypes.float8_e4m3fn, np.uint8, 3, 4, 7, False),
    Float8E5M2Type: FloatSem(ml_dtypes.float8_e5m2, np.uint8, 2, 5, 15),
}


def float_sem(t: Attribute) -> FloatSem | None:
    return _FLOATS.get(type(t))


def _int_info(t: Attribute) -> tuple[int, bool] | None:
    """(width, is_unsigned) for integer and index types we handle, else None."""
    if isinstance(t, IndexType):
        return 64, False
    if isinstance(t, IntegerType) and 1 <= t.width.data <= 64:
        return t.width.data, t.signedness.data == Signedness.UNSIGNED
    return None


def _storage_dtype(width: int, unsigned: bool) -> np.dtype:
    """xDSL's storage of an integer element: the smallest of 1/2/4/8 bytes."""
    size = 1 if width <= 8 else 2 if width <= 16 else 4 if width <= 32 else 8
    return np.dtype(f"<{'u' if unsigned else 'i'}{size}")


def _mlir_int_bytes(width: int) -> int:
    """Bytes per element in MLIR's hex layout (i1 and i4: one byte, i48: six)."""
    return (width + 7) // 8


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype `to_numpy` returns for element type `t`."""
    if (sem := float_sem(t)) is not None:
        return np.dtype(sem.dtype)
    if (info := _int_info(t)) is not None:
        width, unsigned = info
        if width == 1 and not unsigned:
            return np.dtype(np.bool_)
        return _storage_dtype(width, unsigned)
    raise NotImplementedError(f"no numpy dtype for element type {t}")


# --------------------------------------------------------------------------------------
# Layout conversions (all vectorised)
# --------------------------------------------------------------------------------------


def _canonical_ints(values: np.ndarray, width: int, unsigned: bool) -> np.ndarray:
    """Wrap integers to `width` bits in xDSL's storage dtype: signless/signed values
    are sign-extended (true is -1 for i1, as xDSL's from_list stores it)."""
    dt = _storage_dtype(width, unsigned)
    bits = dt.itemsize * 8
    u = values.astype(np.dtype(f"<u{dt.itemsize}"), copy=False)
    if width < bits:
        u = u & np.array((1 << width) - 1, dtype=u.dtype)
    if unsigned:
        return u.astype(dt, copy=False)
    s = u.view(dt)
    if width < bits:
        shift = np.array(bits - width, dtype=dt)
        s = (s << shift) >> shift
    return s


def _from_mlir_bytes(raw: bytes, elt: Attribute, n: int) -> bytes:
    """MLIR hex/blob layout (n elements, already splat-expanded) -> xDSL storage."""
    if (info := _int_info(elt)) is None:
        return raw  # floats: identical layout
    width, unsigned = info
    k = _mlir_int_bytes(width)
    dt = _storage_dtype(width, unsigned)
    if width == 1:
        # MLIR (LLVM 24) reads an i1 byte as true when it is non-zero.
        b = np.frombuffer(raw, dtype=np.uint8)
        return (-(b != 0).astype(np.int8)).astype(dt).tobytes()
    if k == dt.itemsize and width == k * 8:
        return raw
    b = np.frombuffer(raw, dtype=np.uint8).reshape(n, k)
    wide = np.zeros((n, dt.itemsize), dtype=np.uint8)
    wide[:, :k] = b
    u = wide.view(np.dtype(f"<u{dt.itemsize}")).reshape(n)
    return _canonical_ints(u, width, unsigned).tobytes()


def _to_mlir_bytes(attr: DenseIntOrFPElementsAttr) -> bytes:
    """xDSL storage -> MLIR's hex layout, as MLIR prints it."""
    elt = attr.get_element_type()
    raw = attr.data.data
    if (info := _int_info(elt)) is None:
        return raw
    width, unsigned = info
    k = _mlir_int_bytes(width)
    dt = _storage_dtype(width, unsigned)
    if width == 1:
        return (np.frombuffer(raw, dtype=np.uint8) != 0).astype(np.uint8).tobytes()
    if k == dt.itemsize and width == k * 8:
        return raw
    u = np.frombuffer(raw, dtype=np.dtype(f"<u{dt.itemsize}"))
    # MLIR keeps only the low `width` bits: i4 -8 prints as 0x08, not 0xF8.
    u = u & np.array((1 << width) - 1, dtype=u.dtype)
    return u.view(np.uint8).reshape(-1, dt.itemsize)[:, :k].tobytes()


def _hex_to_mlir_layout(
    parser: AttrParser, text: str, type: Attribute, n: int
) -> bytes | None:
    """Decode `dense<"0x...">` data into MLIR's layout with splats expanded, or None if
    the size does not fit (MLIR: 'elements hex data size is invalid')."""
    k, info = _hex_element_bytes(type)
    if not text[:2] in ("0x", "0X"):
        parser.raise_error("expected hex string in dense attribute")
    try:
        raw = bytes.fromhex(text[2:])
    except ValueError:
        parser.raise_error("Hex string in denseAttr is invalid")
    return _raw_to_mlir_layout(raw, k, info, n)


def _hex_element_bytes(type: Attribute) -> tuple[int, tuple[int, bool] | None]:
    elt = cast(Any, type).get_element_type()
    sem, info = float_sem(elt), _int_info(elt)
    if sem is not None:
        return sem.width // 8, info
    if info is not None:
        return _mlir_int_bytes(info[0]), info
    return elt.compile_time_size, info


def _raw_to_mlir_layout(raw: bytes, k: int, info: tuple[int, bool] | None, n: int) -> bytes | None:
    """Decoded hex bytes -> MLIR's layout with splats expanded (None: the size does not fit)."""
    if len(raw) == k * n:
        return raw
    if len(raw) == k and n != 1:
        return raw * n  # splat
    if info is not None and info[0] == 1 and n > 8 and len(raw) == (n + 7) // 8:
        # MLIR up to 22 bit-packs i1 hex (LSB first); unambiguous only past 8 elements.
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")[:n]
        return bits.tobytes()
    return None


# --------------------------------------------------------------------------------------
# Float printing: MLIR's printFloatValue (APFloat::toString), re-implemented
# --------------------------------------------------------------------------------------


def _apfloat_to_string(
    negative: bool,
    sig: int,
    exp2: int,
    precision_bits: int,
    fmt_precision: int,
    max_padding: int,
    truncate_zero: bool,
) -> str:
    """APFloat's decimal rendering of (-1)^negative * sig * 2^exp2 (sig > 0).

    Two quirks matter for matching MLIR exactly: the binary significand is first
    *truncated* to about `fmt_precision` digits, then the decimal digits are rounded
    half-up; and with `truncate_zero=False` the mantissa is zero-padded to
    `fmt_precision` decimals with a lowercase `e` and a two-digit exponent.
    """
    if fmt_precision == 0:
        fmt_precision = 2 + precision_bits * 59 // 196
    tz = (sig & -sig).bit_length() - 1
    sig >>= tz
    exp2 += tz
    if exp2 >= 0:
        sig <<= exp2
        exp10 = 0
    else:
        sig *= 5 ** (-exp2)
        exp10 = exp2
    # Truncation of the binary significand (196/59 overestimates log2(10)).
    required = (fmt_precision * 196 + 58) // 59
    if (nbits := sig.bit_length()) > required:
        removable = (nbits - required) * 59 // 196
        if removable:
            sig //= 10**removable
            exp10 += removable
    s = str(sig)
    digits = s.rstrip("0")
    exp10 += len(s) - len(digits)
    # Decimal rounding, half up on the first dropped digit.
    if len(digits) > fmt_precision:
        n = len(digits)
        if digits[fmt_precision] < "5":
            kept = digits[:fmt_precision]
        else:
            kept = str(int(digits[:fmt_precision]) + 1)
            if len(kept) > fmt_precision:  # carried through: 999.. -> 1000..
                kept = kept[:fmt_precision]
                exp10 += 1
        exp10 += n - fmt_precision
        stripped = kept.rstrip("0")
        exp10 += len(kept) - len(stripped)
        digits = stripped
    nd = len(digits)
    out = "-" if negative else ""

    if max_padding == 0:
        scientific = True
    elif exp10 >= 0:
        scientific = exp10 > max_padding or nd + exp10 > fmt_precision
    else:
        msd = exp10 + nd - 1
        scientific = msd < 0 and -msd > max_padding

    if scientific:
        e = exp10 + nd - 1
        out += digits[0] + "."
        if nd == 1 and truncate_zero:
            out += "0"
        else:
            out += digits[1:]
        if not truncate_zero and fmt_precision > nd - 1:
            out += "0" * (fmt_precision - nd + 1)
        out += "E" if truncate_zero else "e"
        out += "+" if e >= 0 else "-"
        ed = str(abs(e))
        if not truncate_zero and len(ed) < 2:
            ed = "0" + ed
        return out + ed
    if exp10 >= 0:
        return out + digits + "0" * exp10
    whole = exp10 + nd
    if whole > 0:
        return out + digits[:whole] + "." + digits[whole:]
    return out + "0." + "0" * (-whole) + digits


def _cmp_dec_bin(a: int, e: int, c: int, k: int) -> int:
    """Sign of a*10^e - c*2^k, in exact integer arithmetic."""
    left, right = a, c
    if e >= 0:
        left *= 10**e
    else:
        right *= 10**-e
    if k >= 0:
        right <<= k
    else:
        left <<= -k
    return (left > right) - (left < right)


def _decimal_rounds_to(text: str, sig: int, exp2: int, even: bool, sem: FloatSem) -> bool:
    """Does the decimal `text` (sign ignored) round to nearest-even to sig * 2^exp2?
    MLIR checks this with APFloat(semantics, text), a correctly rounded conversion;
    the neighbours' midpoints are compared exactly. `even`: the pattern's last bit is 0."""
    mantissa, _, exponent = text.lstrip("-").replace("E", "e").partition("e")
    whole, _, frac = mantissa.partition(".")
    a = int(whole + frac)
    e = int(exponent or 0) - len(frac)
    # Upper midpoint (2 sig + 1) 2^(exp2-1); the lower one is closer when sig is the
    # first significand of a binade (above the subnormals), where spacing halves.
    c_hi = _cmp_dec_bin(a, e, 2 * sig + 1, exp2 - 1)
    if sig == 1 << sem.mantissa_bits and exp2 > 1 - sem.bias - sem.mantissa_bits:
        c_lo = _cmp_dec_bin(a, e, 4 * sig - 1, exp2 - 2)
    else:
        c_lo = _cmp_dec_bin(a, e, 2 * sig - 1, exp2 - 1)
    if c_lo > 0 and c_hi < 0:
        return True
    return even and ((c_lo == 0) or (c_hi == 0))


def format_float_bits(bits: int, sem: FloatSem) -> str:
    """One float element exactly as MLIR prints it, from its bit pattern."""
    sign = 1 << (sem.width - 1)
    negative = bool(bits & sign)
    mag = bits & (sign - 1)
    if not sem.is_special(bits):
        if mag == 0:
            return ("-" if negative else "") + "0.000000e+00"
        e = mag >> sem.mantissa_bits
        m = mag & ((1 << sem.mantissa_bits) - 1)
        if e == 0:
            sig, exp2 = m, 1 - sem.bias - sem.mantissa_bits
        else:
            sig, exp2 = m | (1 << sem.mantissa_bits), e - sem.bias - sem.mantissa_bits
        text = _apfloat_to_string(negative, sig, exp2, sem.precision, 6, 0, False)
        if _decimal_rounds_to(text, sig, exp2, not bits & 1, sem):
            return text
        text = _apfloat_to_string(negative, sig, exp2, sem.precision, 0, 3, True)
        if "." in text:
            return text
    # NaN, Inf, and finite values whose shortest form has no '.': the bit pattern,
    # uppercase without zero padding (APInt::toString with a C-literal prefix).
    return f"0x{bits:X}"


def _float_bits(value: float, sem: FloatSem) -> int:
    with np.errstate(over="ignore", invalid="ignore"):
        return int(np.array([value], dtype=np.float64).astype(sem.dtype).view(sem.uint)[0])


# --------------------------------------------------------------------------------------
# numpy conversions
# --------------------------------------------------------------------------------------


def _array_from_storage(raw: bytes, elt: Attribute, shape: tuple[int, ...]) -> np.ndarray:
    if (sem := float_sem(elt)) is not None:
        return np.frombuffer(raw, dtype=sem.dtype).reshape(shape)
    if (info := _int_info(elt)) is None:
        raise NotImplementedError(f"to_numpy: unsupported element type {elt}")
    width, unsigned = info
    dt = _storage_dtype(width, unsigned)
    arr = np.frombuffer(raw, dtype=dt).reshape(shape)
    if width == 1 and not unsigned:
        return arr != 0
    if width < dt.itemsize * 8:
        # Defensive: storage built by hand may hold bits above `width`.
        arr = _canonical_ints(arr, width, unsigned)
    return arr


def to_numpy(attr: DenseIntOrFPElementsAttr | DenseResourceAttr) -> np.ndarray:
    """The elements of a dense (or dense_resource) attribute as a numpy array of the
    attribute's shape: bool for i1, int8 for i4, int64 for i48/index, ml_dtypes for
    bf16/f8. The array is read-only when it shares the attribute's buffer."""
    if isinstance(attr, DenseResourceAttr):
        # Blobs live in the binary store (tosa_xdsl/ir/resources.py): a view, no copy.
        from tosa_xdsl.ir.resources import dense_resource_array

        return dense_resource_array(attr)
    type = cast(Any, attr.type)
    return _array_from_storage(attr.data.data, type.get_element_type(), tuple(type.get_shape()))


def from_numpy(array: Any, tensor_type: Attribute) -> DenseIntOrFPElementsAttr:
    """A dense attribute of `tensor_type` (any ranked shaped type) holding `array`
    (broadcast from a scalar or 1-element array as a splat). Integers must fit the
    element type's range as MLIR accepts it (signless iN: [-2^(N-1), 2^N)); floats are
    rounded to nearest-even into the element type."""
    ty = cast(Any, tensor_type)
    elt = ty.get_element_type()
    shape = tuple(ty.get_shape())
    arr = np.asarray(array)
    if arr.size == 1 and arr.shape != shape:
        arr = np.broadcast_to(arr.reshape(()), shape)
    if arr.shape != shape and arr.size == math.prod(shape):
        arr = arr.reshape(shape)
    if arr.shape != shape:
        raise ValueError(f"array of shape {arr.shape} does not fit {tensor_type}")
    if (sem := float_sem(elt)) is not None:
        if arr.dtype == sem.dtype:
            data = np.ascontiguousarray(arr)
        else:
            if arr.dtype.kind not in "fiub" and arr.dtype.type not in _ML_FLOATS:
                raise TypeError(f"cannot store {arr.dtype} in {elt}")
            with np.errstate(over="ignore", invalid="ignore"):
                # Go through float64 so every source rounds once, as MLIR does.
                src = arr if arr.dtype.kind in "fiub" else arr.astype(np.float64)
                data = np.ascontiguousarray(src.astype(np.float64).astype(sem.dtype))
        return DenseIntOrFPElementsAttr(tensor_type, BytesAttr(data.tobytes()))
    if (info := _int_info(elt)) is None:
        raise NotImplementedError(f"from_numpy: unsupported element type {elt}")
    width, unsigned = info
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int8)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"cannot store {arr.dtype} in {elt}")
    if arr.size:
        lo = 0 if unsigned else -(1 << (width - 1))
        hi = 1 << width
        if int(arr.min()) < lo or int(arr.max()) >= hi:
            raise ValueError(f"integer constant out of range for type {elt}")
    data = _canonical_ints(np.ascontiguousarray(arr).reshape(-1), width, unsigned)
    return DenseIntOrFPElementsAttr(tensor_type, BytesAttr(data.tobytes()))


_ML_FLOATS = {ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2}


# --------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------


def _elements_from_literal(
    parser: AttrParser, elements: list[Any], elt: Attribute
) -> bytes | None:
    """xDSL storage bytes for the parsed literal elements, with MLIR's checks and
    messages; None for element types we leave to xDSL (complex, exotic floats)."""
    if (sem := float_sem(elt)) is not None:
        values = np.empty(len(elements), dtype=np.float64)
        patterns: list[tuple[int, int]] = []
        limit = 1 << sem.width
        for i, el in enumerate(elements):
            v = el.value
            if isinstance(v, bool) or isinstance(v, tuple):
                parser.raise_error("expected floating point literal", at_position=el.span)
            if isinstance(v, int):
                text = el.span.text
                if text[:1] == "-":
                    if text[1:].lstrip()[:2] in ("0x", "0X"):
                        parser.raise_error(
                            "hexadecimal float literal should not have a leading minus",
                            at_position=el.span,
                        )
                elif text[:2] in ("0x", "0X"):
                    # MLIR: a hex integer in a float dense is the bit pattern.
                    if v >= limit:
                        parser.raise_error(
                            "hexadecimal float constant out of range for type",
                            at_position=el.span,
                        )
                    patterns.append((i, v))
                    continue
                parser.raise_error(
                    "unexpected decimal integer literal for a floating point value",
                    at_position=el.span,
                )
            values[i] = v
        with np.errstate(over="ignore", invalid="ignore"):
            # Like MLIR: the literal is read as a double, then rounded to nearest-even.
            out = values.astype(sem.dtype)
        if patterns:
            view = out.view(sem.uint)
            for i, v in patterns:
                view[i] = v
        return out.tobytes()
    if (info := _int_info(elt)) is not None:
        width, unsigned = info
        is_i1 = width == 1 and isinstance(elt, IntegerType)
        lo = 0 if unsigned else -(1 << (width - 1))
        hi = 1 << width
        ints: list[int] = []
        for el in elements:
            v = el.value
            if isinstance(v, bool):
                if not is_i1:
                    parser.raise_error(
                        "expected i1 type for 'true' or 'false' values",
                        at_position=el.span,
                    )
                v = int(v)
            elif isinstance(v, float):
                parser.raise_error(
                    "expected integer elements, but parsed floating-point",
                    at_position=el.span,
                )
            elif isinstance(v, tuple):
                parser.raise_error("expected integer elements", at_position=el.span)
            if v < 0 and unsigned:
                parser.raise_error(
                    "expected unsigned integer elements, but parsed negative value",
                    at_position=el.span,
                )
            if not lo <= v < hi:
                parser.raise_error(
                    "integer constant out of range for type", at_position=el.span
                )
            ints.append(v)
        # Values may reach 2^64 - 1, so wrap in Python before handing them to numpy.
        if width == 64 and not unsigned:
            ints = [v - (1 << 64) if v >= 1 << 63 else v for v in ints]
            return np.array(ints, dtype="<i8").tobytes()
        u = np.array(ints, dtype=np.int64 if not unsigned or width < 64 else np.uint64)
        return _canonical_ints(u, width, unsigned).tobytes()
    return None


# xDSL's AttrParser._parse_dense_literal_type rebuilds its IRDL constraint
# (base(RankedStructure[...])) for every dense literal: a few ms each, most of the time
# spent parsing a model with many constants. Same check and messages, with the constraint
# built once and the verdict remembered per type (types are immutable and hashable).
_DENSE_LITERAL_CONSTRAINT: Any = None
_DENSE_LITERAL_TYPES: dict[Attribute, bool] = {}


def _dense_literal_type_ok(type: Attribute) -> bool:
    global _DENSE_LITERAL_CONSTRAINT
    ok = _DENSE_LITERAL_TYPES.get(type)
    if ok is None:
        if _DENSE_LITERAL_CONSTRAINT is None:
            from xdsl.dialects.builtin import RankedStructure
            from xdsl.irdl import base

            _DENSE_LITERAL_CONSTRAINT = base(
                RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType]
            )
        ok = _DENSE_LITERAL_CONSTRAINT.verifies(type)
        if len(_DENSE_LITERAL_TYPES) < 4096:
            _DENSE_LITERAL_TYPES[type] = ok
    return ok


# Accepted literal types by source text: `tensor<2x3xf32>` (a static shape and a builtin
# element type, named by a bare identifier) means the same type in every context, and xDSL
# types are immutable, so one object can be shared. Only texts the parser itself read to
# exactly the same extent, and that passed the checks below, are stored.
_TENSOR_TYPE = re.compile(r"tensor<((?:[0-9]{1,9}x)*)([a-zA-Z_][a-zA-Z0-9_$.]*)>", re.ASCII)
_WS = re.compile(r"(?:\s+|//[^\n]*)*", re.ASCII)
_LITERAL_TYPES_BY_TEXT: dict[str, Attribute] = {}


_COMMON_ELEMENT_TYPES: dict[str, Attribute] = {}


def _common_tensor_type(m: re.Match[str]) -> Attribute | None:
    """`tensor<AxBx...xE>` for the element types TOSA uses, built directly (xDSL's parser
    reads a type token by token, ~10x slower); the same object the parser would build.
    None for anything else. Remembered in _LITERAL_TYPES_BY_TEXT."""
    if not _COMMON_ELEMENT_TYPES:
        _COMMON_ELEMENT_TYPES.update(
            {"f16": Float16Type(), "bf16": BFloat16Type(), "f32": Float32Type(),
             "f64": Float64Type(), "index": IndexType()}
        )
        for w in (1, 4, 8, 16, 32, 48, 64):
            _COMMON_ELEMENT_TYPES[f"i{w}"] = IntegerType(w)
    elt = _COMMON_ELEMENT_TYPES.get(m.group(2))
    if elt is None:
        return None
    type = TensorType(elt, [int(d) for d in m.group(1).split("x")[:-1]])
    if len(_LITERAL_TYPES_BY_TEXT) < 4096:
        _LITERAL_TYPES_BY_TEXT[m.group()] = type
    return type


def parse_builtin_type(self: AttrParser) -> Any:
    """Replacement for AttrParser._parse_optional_builtin_type: the ranked tensor types
    of `_common_tensor_type` straight from the text (speed only: the same type object
    the token-level parser builds); everything else goes to xDSL's method."""
    text = self.lexer.input.content
    pos = self.pos
    if isinstance(text, str) and text.startswith("tensor<", pos):
        m = _TENSOR_TYPE.match(text, pos)
        if m is not None:
            type = _LITERAL_TYPES_BY_TEXT.get(m.group())
            if type is None:
                type = _common_tensor_type(m)
            if type is not None:
                self._resume_from(m.end())  # pyright: ignore[reportPrivateUsage]
                return type
    return original(AttrParser, "_parse_optional_builtin_type")(self)


def _parse_dense_literal_type(self: AttrParser) -> Any:
    """AttrParser._parse_dense_literal_type with the constraint cached (see above)."""
    text = self.lexer.input.content
    m = _TENSOR_TYPE.match(text, self.pos) if isinstance(text, str) else None
    if m is not None:
        type = _LITERAL_TYPES_BY_TEXT.get(m.group())
        if type is None:
            type = _common_tensor_type(m)
        if type is not None:
            self._resume_from(m.end())  # pyright: ignore[reportPrivateUsage]
            return type
    type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
    if not _dense_literal_type_ok(type):
        self.raise_error(
            "Expected memref, vector or tensor type of "
            "integer, index, float, or complex type"
        )
    if any(dim == DYNAMIC_INDEX for dim in list(cast(Any, type).get_shape())):
        self.raise_error("Dense literal attribute should have a static shape.")
    if (
        m is not None
        and _WS.match(text, m.end()).end() == self.pos
        and len(_LITERAL_TYPES_BY_TEXT) < 4096
    ):
        _LITERAL_TYPES_BY_TEXT[m.group()] = type
    return type


# A flat list of plain decimal numbers (`[1, -2, 3.5e-01]`), the common case of a
# dense literal: matched with one regex instead of xDSL's token-by-token parser. It yields
# exactly what `_parse_tensor_literal` yields (the same elements, values and spans);
# anything else (nesting, hex, true/false, complex, comments, `- 1`) takes the xDSL path.
_NUMBER = r"-?[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?"
_FLAT_LIST = re.compile(
    rf"\[[ \t\n\r\f\v]*(?:{_NUMBER}[ \t\n\r\f\v]*,[ \t\n\r\f\v]*)*{_NUMBER}[ \t\n\r\f\v]*\]"
)
_NUMBER_RE = re.compile(_NUMBER)


from tosa_xdsl.ir.literals import MAX_DIGITS  # noqa: E402


def _fast_flat_literal(self: AttrParser) -> Any:
    start = self.pos
    source = self.lexer.input
    text = source.content
    if not isinstance(text, str) or text[start : start + 1] != "[":
        return None
    m = _FLAT_LIST.match(text, start)
    if m is None:
        return None
    element = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
    elements = []
    for n in _NUMBER_RE.finditer(text, start, m.end()):
        s = n.group()
        if len(s) > MAX_DIGITS:  # the lexer's path reports it, located
            return None
        v = float(s) if "." in s else int(s, 10)
        elements.append(element(v < 0, v, Span(n.start(), n.end(), source)))
    self._resume_from(m.end())  # pyright: ignore[reportPrivateUsage]
    return elements, [len(elements)]


def prescanned_literal(parser: Any) -> Any:
    """The hex literal left in the file at the parser's string token, consumed, when the
    parser reads a pre-scanned source (tosa_xdsl/formats/prescan.py); else None, nothing read."""
    lookup = getattr(getattr(parser, "_source", None), "literal_at", None)
    if lookup is None:
        return None
    token = parser._current_token
    if token.kind is not MLIRTokenKind.STRING_LIT:
        return None
    literal = lookup(getattr(parser, "_base", 0) + token.span.start)
    if literal is not None:
        parser._consume_token(MLIRTokenKind.STRING_LIT)
    return literal


def parse_dense(
    self: AttrParser, type: Attribute | None
) -> DenseIntOrFPElementsAttr:
    """Replacement for AttrParser.parse_dense_int_or_fp_elements_attr."""
    contents: Any = None
    hex_text: str | None = None
    start = self.pos
    self.parse_punctuation("<", " in dense attribute")
    prescanned = None
    if self.parse_optional_punctuation(">") is None:
        prescanned = prescanned_literal(self)
        if prescanned is None and (hex_text := self.parse_optional_str_literal()) is None:
            contents = _fast_flat_literal(self)
            if contents is None:
                try:
                    contents = self._parse_tensor_literal()
                except AssertionError:
                    # xDSL asserts the token closing a complex element: `(4, 2]`
                    self.raise_error("expected ')' after complex elements")
        self.parse_punctuation(">", " in dense attribute")
    if type is None:
        self.parse_punctuation(":", " in dense attribute")
        type = _parse_dense_literal_type(self)
    ty = cast(Any, type)
    elt = ty.get_element_type()
    shape = list(ty.get_shape())
    n = math.prod(shape)
    supported = float_sem(elt) is not None or _int_info(elt) is not None
    if isinstance(elt, IntegerType) and not supported:
        # xDSL packs elements with `struct` (at most 64 bits): i65 and wider cannot be stored
        self.raise_error(f"dense elements of {elt} are not supported: tosa-xdsl stores "
                         f"integer elements of at most 64 bits", start, self.pos)

    if prescanned is not None or hex_text is not None:
        if prescanned is not None:
            decoded = prescanned.decode()  # from the file (tosa_xdsl/formats/prescan.py)
            if decoded is None:
                self.raise_error("Hex string in denseAttr is invalid")
            k, info = _hex_element_bytes(type)
            raw = _raw_to_mlir_layout(decoded, k, info, n)
            del decoded
        else:
            raw = _hex_to_mlir_layout(self, hex_text, type, n)
        if raw is None:
            self.raise_error(
                f"elements hex data size is invalid for provided type: '{type}'",
                start,
                self.pos,
            )
        data = _from_mlir_bytes(raw, elt, n) if supported else raw
        return DenseIntOrFPElementsAttr(type, BytesAttr(data))

    if contents is None:
        elements, lit_shape = [], [0]
    else:
        elements, lit_shape = contents
    if not supported or isinstance(elt, ComplexType):
        if contents is None:
            if n:
                self.raise_error("Expected at least one element in the dense literal")
            return DenseIntOrFPElementsAttr(type, BytesAttr(b""))
        return original(AttrParser, "parse_dense_int_or_fp_elements_attr")(_Replay(self, contents), type)

    if contents is None:
        if n:
            self.raise_error("Expected at least one element in the dense literal")
    elif lit_shape:
        # MLIR: `[]` is shape [0] and does not match tensor<0x3xf32>; `dense<>` does.
        if lit_shape != shape:
            self.raise_error(
                f"inferred shape of elements literal ({lit_shape}) does not match "
                f"type ({shape})",
                start,
                self.pos,
            )
    data = _elements_from_literal(self, elements, elt)
    assert data is not None
    if not lit_shape:
        # A splat is stored expanded (xDSL keeps every element): refuse sizes no machine holds
        # with a diagnostic instead of a MemoryError/OverflowError from the expansion.
        if len(data) * n > MAX_SPLAT_BYTES:
            self.raise_error(
                f"splat constant of type '{type}' would need {len(data) * n} bytes "
                f"(limit {MAX_SPLAT_BYTES})",
                start,
                self.pos,
            )
        data *= n  # splat
    return DenseIntOrFPElementsAttr(type, BytesAttr(data))


class _Replay:
    """Hands already-parsed literal contents to xDSL's original method (used for the
    element types we do not handle): it answers the few calls that method makes."""

    def __init__(self, parser: AttrParser, contents: Any):
        self._parser = parser
        self._contents = contents

    def parse_punctuation(self, *_: Any) -> None:
        return None

    def parse_optional_punctuation(self, *_: Any) -> None:
        return None

    def parse_optional_str_literal(self) -> None:
        return None

    def _parse_tensor_literal(self) -> Any:
        return self._contents

    def __getattr__(self, name: str) -> Any:
        return getattr(self._parser, name)


# --------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------


def _is_splat_bits(raw: bytes, size: int) -> bool:
    return len(raw) <= size or raw == raw[:size] * (len(raw) // size)


def _element_strings(attr: DenseIntOrFPElementsAttr, values: np.ndarray) -> list[str]:
    elt = attr.get_element_type()
    if (sem := float_sem(elt)) is not None:
        return [format_float_bits(b, sem) for b in values.view(sem.uint).tolist()]
    if values.dtype == np.bool_:
        return ["true" if v else "false" for v in values.tolist()]
    return [str(v) for v in values.tolist()]


def _nest(strings: list[str], shape: tuple[int, ...]) -> str:
    if len(shape) <= 1:
        return "[" + ", ".join(strings) + "]"
    k = len(strings) // shape[0] if shape[0] else 0
    return (
        "["
        + ", ".join(_nest(strings[i * k : (i + 1) * k], shape[1:]) for i in range(shape[0]))
        + "]"
    )


def print_dense(self: DenseIntOrFPElementsAttr, printer: Printer) -> None:
    """Replacement for DenseIntOrFPElementsAttr.print_without_type."""
    elt = self.get_element_type()
    if float_sem(elt) is None and _int_info(elt) is None:
        return original(DenseIntOrFPElementsAttr, "print_without_type")(self, printer)
    shape = tuple(self.get_shape())
    n = math.prod(shape)
    raw = self.data.data
    size = len(raw) // n if n else 0
    printer.print_string("dense<")
    if n == 0 or not raw:
        pass
    elif _is_splat_bits(raw, size):
        # Bitwise, as MLIR: [0.0, -0.0] is not a splat, [NaN, NaN] (same bits) is.
        one = _array_from_storage(raw[:size], elt, (1,))
        printer.print_string(_element_strings(self, one)[0])
    elif 0 <= HEX_ELEMENT_LIMIT < n:
        printer.print_string(f'"0x{_to_mlir_bytes(self).hex().upper()}"')
    else:
        values = to_numpy(self).reshape(-1)
        printer.print_string(_nest(_element_strings(self, values), shape))
    printer.print_string(">")


def is_splat(self: DenseIntOrFPElementsAttr) -> bool:
    """Replacement for DenseIntOrFPElementsAttr.is_splat: bitwise, like MLIR."""
    raw = self.data.data
    size = self.get_element_type().compile_time_size
    return _is_splat_bits(raw, size)


def print_float(self: Printer, value: float, type: AnyFloat) -> None:
    """Replacement for Printer.print_float (FloatAttr, complex): MLIR's format."""
    sem = float_sem(type)
    if sem is None:
        return original(Printer, "print_float")(self, value, type)
    self.print_string(format_float_bits(_float_bits(value, sem), sem))


__all__ = [
    "HEX_ELEMENT_LIMIT",
    "format_float_bits",
    "is_splat",
    "parse_builtin_type",
    "parse_dense",
    "print_dense",
    "print_float",
    "from_numpy",
    "numpy_dtype",
    "to_numpy",
]


def main(argv: list[str] | None = None) -> None:
    """`python -m tosa_xdsl.ir.dense [file]`: parse a module with builtin, func and arith
    (other ops unregistered) and print it back; lets FileCheck tests exercise this
    module without depending on the rest of the toolkit."""
    import sys

    from xdsl.context import Context
    from xdsl.dialects.arith import Arith
    from xdsl.dialects.func import Func
    from xdsl.parser import Parser

    from tosa_xdsl.xdsl_patches import install_dense_patches

    args = sys.argv[1:] if argv is None else argv
    text = open(args[0]).read() if args else sys.stdin.read()
    install_dense_patches()
    ctx = Context(allow_unregistered=True)
    for dialect in (Builtin, Func, Arith):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    printer = Printer(stream=sys.stdout)
    printer.print_op(module)
    print()


if __name__ == "__main__":
    main()
