"""`#tosa.target_env<...>`: the target a module is validated against (spec 1.6 profiles,
1.7 levels), spelled as upstream MLIR does:

    #tosa.target_env<specification_version = "1.0", level = "8k",
                     profiles = [pro_int, pro_fp], extensions = [int16, bf16]>

`level` is a string ("8k", quoted because `8k` does not lex as one token) or the bare keyword
`none`; profiles and extensions are bare identifiers. Upstream prints empty lists but cannot
parse them back; we accept both.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

PROFILES = ("pro_int", "pro_fp")
EXTENSIONS = (
    "int16", "int4", "bf16", "fp8e4m3", "fp8e5m2", "fft", "variable", "controlflow",
    "doubleround", "inexactround", "dynamic",
)
# Extensions upstream MLIR knows for specification_version "1.1.draft" (TOSA 1.1 draft, not
# specified in 1.0.1): accepted and recorded in a 1.1.draft target, enabling nothing here.
DRAFT_EXTENSIONS = (
    "int64", "mxfp", "mxfp_conv", "shape", "mx_common", "mx_fp4e2m1", "mx_fp6e2m3",
    "mx_fp6e3m2", "mx_fp8e4m3", "mx_fp8e5m2", "mx_int8",
)
LEVELS = ("8k", "none")
# As upstream MLIR's TosaSpecificationVersion: "1.0" (the 1.0.x releases, now 1.0.2) and
# "1.1.draft" (accepted and recorded; checked with the 1.0.2 rules, 1.1 additions are not known).
SPEC_VERSIONS = ("1.0", "1.1.draft")


def known_extensions(version: str) -> tuple[str, ...]:
    """The extension names a target of this specification version may name."""
    return EXTENSIONS + (DRAFT_EXTENSIONS if version == "1.1.draft" else ())


@irdl_attr_definition
class TargetEnvAttr(ParametrizedAttribute):
    name = "tosa.target_env"

    specification_version: StringAttr = param_def()
    level: StringAttr = param_def()
    profiles: ArrayAttr[StringAttr] = param_def()
    extensions: ArrayAttr[StringAttr] = param_def()

    def __init__(
        self,
        specification_version: str = "1.0",
        level: str = "8k",
        profiles: Sequence[str] = PROFILES,
        extensions: Sequence[str] = (),
    ):
        super().__init__(
            StringAttr(specification_version),
            StringAttr(level),
            ArrayAttr([StringAttr(p) for p in profiles]),
            ArrayAttr([StringAttr(e) for e in extensions]),
        )

    @property
    def profile_names(self) -> tuple[str, ...]:
        return tuple(p.data for p in self.profiles)

    @property
    def extension_names(self) -> tuple[str, ...]:
        return tuple(e.data for e in self.extensions)

    def verify(self) -> None:
        if self.specification_version.data not in SPEC_VERSIONS:
            raise VerifyException(
                f"unsupported TOSA specification_version '{self.specification_version.data}'"
                f" (supported: {', '.join(SPEC_VERSIONS)})"
            )
        if self.level.data not in LEVELS:
            raise VerifyException(f"unknown TOSA level '{self.level.data}' (expected 8k or none)")
        for p in self.profile_names:
            if p not in PROFILES:
                raise VerifyException(f"unknown TOSA profile '{p}' (expected one of {', '.join(PROFILES)})")
        known = known_extensions(self.specification_version.data)
        for e in self.extension_names:
            if e not in known:
                raise VerifyException(
                    f"unknown TOSA extension '{e}' (expected one of {', '.join(known)})"
                )

    def print_parameters(self, printer: Printer) -> None:
        level = "none" if self.level.data == "none" else f'"{self.level.data}"'
        printer.print_string(
            f'<specification_version = "{self.specification_version.data}", level = {level}, '
            f"profiles = [{', '.join(self.profile_names)}], "
            f"extensions = [{', '.join(self.extension_names)}]>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        values: dict[str, object] = {}

        def parse_ident_list() -> list[str]:
            return parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_identifier
            )

        def parse_entry() -> None:
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key in values:
                parser.raise_error(f"duplicate '{key}' in #tosa.target_env")
            if key == "specification_version":
                values[key] = parser.parse_str_literal()
            elif key == "level":
                values[key] = parser.parse_optional_str_literal() or parser.parse_identifier()
            elif key in ("profiles", "extensions"):
                values[key] = parse_ident_list()
            else:
                parser.raise_error(
                    f"unknown #tosa.target_env key '{key}' (expected specification_version, "
                    "level, profiles, extensions)"
                )

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
        if "specification_version" not in values:
            parser.raise_error("#tosa.target_env requires specification_version")
        return (
            StringAttr(values["specification_version"]),
            StringAttr(values.get("level", "8k")),
            ArrayAttr([StringAttr(p) for p in values.get("profiles", ())]),
            ArrayAttr([StringAttr(e) for e in values.get("extensions", ())]),
        )
