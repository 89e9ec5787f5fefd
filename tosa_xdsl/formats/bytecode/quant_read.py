"""The quant dialect's own bytecode encoding of its types (QuantDialectBytecode).

Layouts, checked against mlir-opt 22 one type at a time (code, then members):

    1 AnyQuantizedType                 flags, storage type, storage min, storage max
    2 AnyQuantizedType with expressed  flags, storage type, expressed type, min, max
    3 CalibratedQuantizedType          expressed type, min (f64), max (f64)
    4 UniformQuantizedType             flags, storage, expressed, scale (f64),
                                       zero point, storage min, storage max
    5 UniformQuantizedPerAxisType      flags, storage, expressed, quantized dimension,
                                       storage min, storage max, [scale (f64)], [zero point]

(flags bit 0: signed storage; min/max/zero points are signed varints; f64 values are
their IEEE bits as a signed varint.) Each type is turned into the text MLIR's quant
printer writes and parsed in our context, so whichever quant dialect our context
registers (tosa_xdsl/dialects/quant.py) builds it; without one, the error names the type.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute

from .builtin_read import read_apint

if TYPE_CHECKING:
    from .reader import Reader
    from .stream import Stream


def _f64(s: Stream) -> float:
    return struct.unpack("<d", read_apint(s, 64).to_bytes(8, "little"))[0]


def _num(x: float) -> str:
    return f"{x:e}"  # raw_ostream's `<< double`, as MLIR's quant printer uses


def _type_text(t: Attribute) -> str:
    from io import StringIO

    from tosa_xdsl.printing import TosaPrinter

    out = StringIO()
    TosaPrinter(stream=out).print_attribute(t)
    return out.getvalue()


def _storage(rd: Reader, s: Stream, flags: int, t: Attribute, lo: int, hi: int) -> str:
    if not isinstance(t, IntegerType):
        raise s.error(f"quantized storage type {t} is not an integer type")
    width = t.width.data
    signed = bool(flags & 1)
    text = f"{'i' if signed else 'u'}{width}"
    default = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    if (lo, hi) != default:
        text += f"<{lo}:{hi}>"
    return text


def _params(scale: float, zero_point: int) -> str:
    return _num(scale) + (f":{zero_point}" if zero_point else "")


def read_type(rd: Reader, s: Stream) -> Attribute:
    start = s.pos
    code = s.varint("quant type code")
    if code in (1, 2):
        flags = s.varint("flags")
        storage = rd.type_ref(s)
        expressed = rd.type_ref(s) if code == 2 else None
        lo, hi = s.svarint("storage min"), s.svarint("storage max")
        text = "!quant.any<" + _storage(rd, s, flags, storage, lo, hi)
        text += (":" + _type_text(expressed) if expressed is not None else "") + ">"
    elif code == 3:
        expressed = rd.type_ref(s)
        lo, hi = _f64(s), _f64(s)
        text = f"!quant.calibrated<{_type_text(expressed)}<{_num(lo)}:{_num(hi)}>>"
    elif code == 4:
        flags = s.varint("flags")
        storage, expressed = rd.type_ref(s), rd.type_ref(s)
        scale, zp = _f64(s), s.svarint("zero point")
        lo, hi = s.svarint("storage min"), s.svarint("storage max")
        text = (f"!quant.uniform<{_storage(rd, s, flags, storage, lo, hi)}:"
                f"{_type_text(expressed)}, {_params(scale, zp)}>")
    elif code == 5:
        flags = s.varint("flags")
        storage, expressed = rd.type_ref(s), rd.type_ref(s)
        dim = s.varint("quantized dimension")
        lo, hi = s.svarint("storage min"), s.svarint("storage max")
        scales = [_f64(s) for _ in range(s.count("scales"))]
        zps = [s.svarint("zero point") for _ in range(s.count("zero points"))]
        if len(scales) != len(zps):
            raise s.error(f"{len(scales)} scales but {len(zps)} zero points", start)
        params = ",".join(_params(a, b) for a, b in zip(scales, zps))
        text = (f"!quant.uniform<{_storage(rd, s, flags, storage, lo, hi)}:"
                f"{_type_text(expressed)}:{dim}, {{{params}}}>")
    else:
        raise s.error(f"quant type code {code} is not supported", start)
    if not s.at_end():
        raise s.error("trailing bytes after a quant type")
    return rd.parse_assembly(text, True, start)
