"""MLIR's `quant` dialect types: `!quant.uniform<...>`, per tensor and per axis.

These are the element types of quantized tensors in imported models (TFLite's int8/uint8/
int16 tensors carry a scale and zero point): `tensor<1x8x!quant.uniform<i8:f32, 0.0078:-1>>`.
The text form is MLIR's (mlir/lib/Dialect/Quant/IR/TypeParser.cpp):

    !quant.uniform<i8:f32, 2.000000e-01:-1>            per tensor (zero point omitted when 0)
    !quant.uniform<i8<-127:127>:f32:3, {0.1,0.2:1}>    per axis 3, narrow storage range
    !quant.uniform<u8:f32, 0.5:128>                    unsigned storage

The storage range is printed only when it differs from the full range of the storage type;
scales print as MLIR's AsmPrinter prints a double (APFloat's shortest round-trip form),
through `tosa_xdsl.ir.dense.format_float_bits`.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    Float64Type,
    FloatData,
    IntAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def storage_range(width: int, signed: bool) -> tuple[int, int]:
    """The full range of a `width`-bit signed/unsigned storage type."""
    if signed:
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return 0, (1 << width) - 1


def format_scale(value: float) -> str:
    """A double exactly as MLIR's AsmPrinter prints it."""
    from tosa_xdsl.ir.dense import float_sem, format_float_bits

    bits = struct.unpack("<Q", struct.pack("<d", float(value)))[0]
    sem = float_sem(Float64Type())
    assert sem is not None
    return format_float_bits(bits, sem)


class _QuantBase(ParametrizedAttribute, TypeAttribute):
    """Storage and expressed types shared by the per-tensor and per-axis forms."""

    width: IntAttr = param_def()
    signed: IntAttr = param_def()  # 1 for iN storage, 0 for uN
    expressed_type: Attribute = param_def()
    storage_min: IntAttr = param_def()
    storage_max: IntAttr = param_def()

    # --- conveniences -------------------------------------------------------------
    @property
    def is_signed(self) -> bool:
        return bool(self.signed.data)

    @property
    def storage_type(self) -> IntegerType:
        """The signless integer type TOSA computes on (i8 for both i8 and u8 storage)."""
        return IntegerType(self.width.data)

    @property
    def qmin(self) -> int:
        return self.storage_min.data

    @property
    def qmax(self) -> int:
        return self.storage_max.data

    def _verify_storage(self) -> None:
        w = self.width.data
        if w < 1 or w > 64:  # TFLite int16x8 biases are quantized i64
            raise VerifyException(f"illegal storage type size: {w}")
        lo, hi = storage_range(w, self.is_signed)
        if not (lo <= self.qmin <= self.qmax <= hi):
            raise VerifyException(
                f"illegal storage min and storage max: ({self.qmin}:{self.qmax})")

    def _print_storage(self, printer: Printer) -> None:
        printer.print_string(("i" if self.is_signed else "u") + str(self.width.data))
        if (self.qmin, self.qmax) != storage_range(self.width.data, self.is_signed):
            printer.print_string(f"<{self.qmin}:{self.qmax}>")
        printer.print_string(":")
        printer.print_attribute(self.expressed_type)

    @staticmethod
    def _parse_storage(parser: AttrParser) -> tuple[int, bool, Attribute, int, int]:
        pos = parser.pos
        ident = parser.parse_identifier(" for quant storage type (iN or uN)")
        if len(ident) < 2 or ident[0] not in "iu" or not ident[1:].isdigit():
            parser.raise_error("illegal storage type prefix", pos, parser.pos)
        width, signed = int(ident[1:]), ident[0] == "i"
        if not 1 <= width <= 64:
            parser.raise_error(f"illegal storage type size: {width}", pos, parser.pos)
        lo, hi = storage_range(width, signed)
        if parser.parse_optional_punctuation("<") is not None:
            rpos = parser.pos
            lo2 = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(":")
            hi2 = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(">")
            if not (lo <= lo2 <= hi2 <= hi):
                parser.raise_error(f"illegal storage type minimum/maximum: {lo2}:{hi2}", rpos, parser.pos)
            lo, hi = lo2, hi2
        parser.parse_punctuation(":")
        expressed = parser.parse_type()
        return width, signed, expressed, lo, hi

    @staticmethod
    def _parse_scale_zp(parser: AttrParser) -> tuple[float, int]:
        pos = parser.pos
        scale = float(parser.parse_number())
        if not scale > 0 or scale == float("inf"):
            parser.raise_error(f"illegal scale: {scale}", pos, parser.pos)
        zp = 0
        if parser.parse_optional_punctuation(":") is not None:
            zp = parser.parse_integer(allow_boolean=False)
        return scale, zp

    @staticmethod
    def _scale_zp_text(scale: float, zp: int) -> str:
        return format_scale(scale) + (f":{zp}" if zp != 0 else "")


@irdl_attr_definition
class UniformQuantizedType(_QuantBase):
    """`!quant.uniform<storage:expressed, scale:zero_point>` (per tensor)."""

    name = "quant.uniform"

    scale: FloatData = param_def()
    zero_point: IntAttr = param_def()

    def __init__(self, width: int, signed: bool, expressed_type: Attribute, scale: float,
                 zero_point: int, storage_min: int | None = None, storage_max: int | None = None):
        lo, hi = storage_range(width, signed)
        super().__init__(
            IntAttr(width), IntAttr(int(signed)), expressed_type,
            IntAttr(lo if storage_min is None else storage_min),
            IntAttr(hi if storage_max is None else storage_max),
            FloatData(float(scale)), IntAttr(int(zero_point)))

    @property
    def scales(self) -> np.ndarray:
        return np.array([self.scale.data], np.float64)

    @property
    def zero_points(self) -> np.ndarray:
        return np.array([self.zero_point.data], np.int64)

    def verify(self) -> None:
        self._verify_storage()
        if not self.scale.data > 0:
            raise VerifyException(f"illegal scale: {self.scale.data}")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        self._print_storage(printer)
        printer.print_string(", " + self._scale_zp_text(self.scale.data, self.zero_point.data) + ">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        width, signed, expressed, lo, hi = cls._parse_storage(parser)
        if parser.parse_optional_punctuation(":") is not None:
            axis = parser.parse_integer(allow_boolean=False, allow_negative=False)
            parser.parse_punctuation(",")
            scales, zps = _parse_axis_params(parser)
            parser.parse_punctuation(">")
            # The parser of `quant.uniform` yields either form, as MLIR's does: the
            # caller gets a per-axis type through `_PerAxisResult`.
            raise _PerAxisResult(UniformQuantizedPerAxisType(width, signed, expressed, scales, zps, axis, lo, hi))
        parser.parse_punctuation(",")
        scale, zp = cls._parse_scale_zp(parser)
        parser.parse_punctuation(">")
        return (IntAttr(width), IntAttr(int(signed)), expressed, IntAttr(lo), IntAttr(hi),
                FloatData(scale), IntAttr(zp))


class _PerAxisResult(Exception):
    """Carries a per-axis type out of `UniformQuantizedType.parse_parameters` (both forms
    share the `quant.uniform` name; see `_install_parser`)."""

    def __init__(self, value: Attribute):
        self.value = value


def _parse_axis_params(parser: AttrParser) -> tuple[list[float], list[int]]:
    scales: list[float] = []
    zps: list[int] = []

    def one() -> None:
        s, z = _QuantBase._parse_scale_zp(parser)
        scales.append(s)
        zps.append(z)

    parser.parse_comma_separated_list(parser.Delimiter.BRACES, one)
    return scales, zps


@irdl_attr_definition
class UniformQuantizedPerAxisType(_QuantBase):
    """`!quant.uniform<storage:expressed:axis, {scale:zp, ...}>` (per axis)."""

    # Same name as the per-tensor class (so it prints as `!quant.uniform`); only that
    # class is registered in the dialect, its parser hands per-axis text to this one.
    name = "quant.uniform"

    scales_attr: ArrayAttr[FloatData] = param_def()
    zero_points_attr: ArrayAttr[IntAttr] = param_def()
    axis: IntAttr = param_def()

    def __init__(self, width: int, signed: bool, expressed_type: Attribute, scales: Sequence[float],
                 zero_points: Sequence[int], axis: int, storage_min: int | None = None,
                 storage_max: int | None = None):
        lo, hi = storage_range(width, signed)
        super().__init__(
            IntAttr(width), IntAttr(int(signed)), expressed_type,
            IntAttr(lo if storage_min is None else storage_min),
            IntAttr(hi if storage_max is None else storage_max),
            ArrayAttr([FloatData(float(s)) for s in scales]),
            ArrayAttr([IntAttr(int(z)) for z in zero_points]), IntAttr(int(axis)))

    @property
    def scales(self) -> np.ndarray:
        return np.array([s.data for s in self.scales_attr.data], np.float64)

    @property
    def zero_points(self) -> np.ndarray:
        return np.array([z.data for z in self.zero_points_attr.data], np.int64)

    def verify(self) -> None:
        self._verify_storage()
        if len(self.scales_attr.data) != len(self.zero_points_attr.data):
            raise VerifyException("illegal number of scales and zero points")
        if any(not s.data > 0 for s in self.scales_attr.data):
            raise VerifyException("illegal scale")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        self._print_storage(printer)
        params = ",".join(self._scale_zp_text(s.data, z.data)
                          for s, z in zip(self.scales_attr.data, self.zero_points_attr.data))
        printer.print_string(f":{self.axis.data}, {{{params}}}>")


QuantType = UniformQuantizedType | UniformQuantizedPerAxisType


def _install_parser() -> None:
    """Let `!quant.uniform<...:axis, {...}>` parse into the per-axis class.

    xDSL maps one type name to one class; MLIR's quant.uniform has two storage classes.
    The per-tensor class's parser raises `_PerAxisResult` for the per-axis syntax; this
    wrapper around the dialect-type parser returns its value instead."""
    from xdsl.parser.attribute_parser import AttrParser as _AP

    if getattr(_AP, "_quant_per_axis_installed", False):
        return
    original = _AP._parse_dialect_type_or_attribute_body  # pyright: ignore[reportPrivateUsage]

    def parse_body(self, attr_name: str, is_type: bool, is_opaque: bool, starting_opaque_pos=None):
        try:
            return original(self, attr_name, is_type, is_opaque, starting_opaque_pos)
        except _PerAxisResult as result:
            return result.value

    _AP._parse_dialect_type_or_attribute_body = parse_body  # pyright: ignore[reportPrivateUsage]
    _AP._quant_per_axis_installed = True  # pyright: ignore[reportAttributeAccessIssue]


Quant = Dialect("quant", [], [UniformQuantizedType])


def load_quant(ctx) -> None:
    """Register the quant dialect in an xDSL Context (idempotent)."""
    _install_parser()
    if "quant" not in ctx.registered_dialect_names:
        ctx.register_dialect("quant", lambda: Quant)


# --- helpers on tensor types ------------------------------------------------------------


def quant_of(t: Attribute) -> UniformQuantizedType | UniformQuantizedPerAxisType | None:
    e = t.element_type if isinstance(t, TensorType) else t
    return e if isinstance(e, (UniformQuantizedType, UniformQuantizedPerAxisType)) else None


def storage_tensor_type(t: Attribute) -> Attribute:
    """`tensor<..x!quant.uniform<i8:...>>` -> `tensor<..xi8>`; other types unchanged."""
    q = quant_of(t)
    if q is None:
        return t
    if isinstance(t, TensorType):
        return TensorType(q.storage_type, t.get_shape())
    return q.storage_type
