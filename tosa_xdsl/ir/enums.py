"""TOSA enumerations as MLIR attributes (spec chapter 3: nan_propagation_mode_t,
rounding_mode_t, resize_mode_t).

Generic form: `#tosa.nan_mode<IGNORE>`; the attribute-dictionary custom form writes them bare
(`nan_mode = IGNORE`) and the keyword form as `nan_mode<IGNORE>` — see tosa_xdsl.dialects.tosa.syntax.
"""

from __future__ import annotations

from xdsl.dialects.utils import EnumAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class NanMode(StrEnum):
    PROPAGATE = "PROPAGATE"
    IGNORE = "IGNORE"


class RoundingMode(StrEnum):
    SINGLE_ROUND = "SINGLE_ROUND"
    INEXACT_ROUND = "INEXACT_ROUND"
    DOUBLE_ROUND = "DOUBLE_ROUND"


class ResizeMode(StrEnum):
    NEAREST_NEIGHBOR = "NEAREST_NEIGHBOR"
    BILINEAR = "BILINEAR"


class _AngleEnum:
    """Prints and parses the enum value inside angle brackets, as MLIR does."""

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data)  # type: ignore[attr-defined]

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)  # type: ignore[attr-defined]


@irdl_attr_definition
class NanModeAttr(_AngleEnum, EnumAttribute[NanMode]):
    name = "tosa.nan_mode"


@irdl_attr_definition
class RoundingModeAttr(_AngleEnum, EnumAttribute[RoundingMode]):
    name = "tosa.rounding_mode"


@irdl_attr_definition
class ResizeModeAttr(_AngleEnum, EnumAttribute[ResizeMode]):
    name = "tosa.resize_mode"


ENUM_ATTRS = (NanModeAttr, RoundingModeAttr, ResizeModeAttr)
