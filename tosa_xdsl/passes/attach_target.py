"""`tosa-attach-target`: write `#tosa.target_env<...>` on the module, as upstream MLIR does.

    tosa-opt -p 'tosa-attach-target{level=none profiles=pro_int,pro_fp extensions=int16,int4}'

Options (xDSL pipeline syntax: options separated by spaces, list values by commas - the
same spelling as upstream's `--tosa-attach-target="profiles=pro_int,pro_fp level=none"`):
  specification_version  1.0 (default; the 1.0.x releases, checked with the 1.0.2 rules) or
                         1.1.draft (accepted and recorded as upstream does; 1.1 additions unknown;
                         its extra extensions int64, shape, mxfp, mxfp_conv, mx_* are accepted
                         and enable nothing)
  level                  8k | none (default 8k)
  profiles               pro_int, pro_fp (default none, as upstream: then every operator fails
                         tosa-validate's profile check)
  extensions             int16, int4, bf16, fp8e4m3, fp8e5m2, fft, variable, controlflow,
                         dynamic, doubleround, inexactround (default none)
An extension needs one of the profiles it cooperates with (spec 1.6 "Allowed profiles",
from the spec tables): `extensions=int16` without pro_int is rejected with one error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tosa_xdsl.validation.target import (
    DEFAULT_EXTENSIONS,
    DEFAULT_LEVEL,
    SPEC_VERSION,
    check_names,
)


def _names(value) -> tuple[str, ...]:
    """A list option as names: accepts a tuple, one string, or 'a,b' in one string."""
    if value is None:
        return ()
    if isinstance(value, (str, int, float)):
        value = (value,)
    out: list[str] = []
    for v in value:
        out.extend(s.strip() for s in str(v).split(",") if s.strip())
    return tuple(out)


def _version(value) -> str:
    return str(value).strip('"')


@dataclass(frozen=True)
class TosaAttachTargetPass(ModulePass):
    name: ClassVar[str] = "tosa-attach-target"

    specification_version: str | float = SPEC_VERSION
    level: str = DEFAULT_LEVEL
    # Upstream attaches no profile unless told (its ListOption is empty; the tosa-tools
    # translator prints `profiles = []`); tosa-validate without a target env still uses
    # DEFAULT_PROFILES, as upstream's lookupTargetEnvOrDefault does.
    profiles: tuple[str, ...] | str = ()
    extensions: tuple[str, ...] | str = DEFAULT_EXTENSIONS

    def target_env(self):
        """The `#tosa.target_env` these options describe; LocatedError when they are wrong."""
        from tosa_xdsl.diagnostics import LocatedError
        from tosa_xdsl.ir.target_env import SPEC_VERSIONS, TargetEnvAttr

        version = _version(self.specification_version)
        profiles, extensions = _names(self.profiles), _names(self.extensions)
        level = str(self.level).lower()
        problems = check_names(profiles, extensions, level, version)
        if version not in SPEC_VERSIONS:
            problems.insert(0, f"unsupported TOSA specification_version '{version}' "
                               f"(supported: {', '.join(SPEC_VERSIONS)})")
        if problems:
            raise LocatedError(None, "tosa-attach-target: " + "; ".join(problems))
        return TargetEnvAttr(version, level, profiles, extensions)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from tosa_xdsl.diagnostics import LocatedError

        try:
            env = self.target_env()
        except LocatedError as err:
            raise LocatedError(op, str(err)) from None
        op.attributes["tosa.target_env"] = env
