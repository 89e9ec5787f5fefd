"""The target a module is validated against: level, profiles and extensions.

Names are kept in the spec's spelling internally ("PRO-INT", "EXT-INT16", level "8K") because
the spec tables use it; `mlir_name` gives upstream MLIR's spelling ("pro_int", "int16", "8k")
for options, `#tosa.target_env` and messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from tosa_xdsl import spec_tables as st

SPEC_VERSION = "1.0"
DEFAULT_LEVEL = "8k"
DEFAULT_PROFILES = ("pro_int", "pro_fp")
DEFAULT_EXTENSIONS: tuple[str, ...] = ()


def mlir_name(spec_name: str) -> str:
    """"PRO-INT" -> "pro_int", "EXT-INT16" -> "int16"."""
    if spec_name.startswith("EXT-"):
        return spec_name[4:].lower()
    return spec_name.lower().replace("-", "_")


def spec_name(name: str) -> str:
    """"pro_int" / "PRO-INT" -> "PRO-INT"; "int16" / "EXT-INT16" -> "EXT-INT16"."""
    upper = name.strip().upper().replace("_", "-")
    if upper.startswith(("PRO-", "EXT-")):
        return upper
    return "EXT-" + upper


def profile_names() -> tuple[str, ...]:
    return tuple(mlir_name(p.name) for p in st.profiles())


def extension_names() -> tuple[str, ...]:
    return tuple(mlir_name(e.name) for e in st.extensions())


def cooperating_profiles(extension: str) -> tuple[str, ...]:
    """The profiles an extension may be used with (spec 1.6 'Allowed profiles'), MLIR names."""
    for e in st.extensions():
        if mlir_name(e.name) == extension:
            return tuple(p for p in profile_names() if spec_name(p) in e.allowed_profiles)
    raise KeyError(extension)


def check_names(profiles: Iterable[str], extensions: Iterable[str], level: str,
                version: str = SPEC_VERSION) -> list[str]:
    """Problems with a target's names and combination, as one-line messages (empty: fine).
    A 1.1.draft target may also name the draft's extensions (`int64`, `shape`, `mxfp`, ...):
    accepted as upstream does, their profile cooperation is not checked (not in 1.0.1's tables)."""
    from tosa_xdsl.ir.target_env import DRAFT_EXTENSIONS

    problems = []
    known_p, known_e = profile_names(), extension_names()
    if version == "1.1.draft":
        known_e = known_e + tuple(e for e in DRAFT_EXTENSIONS if e not in known_e)
    profiles, extensions = list(profiles), list(extensions)
    for p in profiles:
        if p not in known_p:
            problems.append(f"unknown TOSA profile '{p}' (expected one of {', '.join(known_p)})")
    for e in extensions:
        if e not in known_e:
            problems.append(f"unknown TOSA extension '{e}' (expected one of {', '.join(known_e)})")
    if level.lower() not in ("8k", "none"):
        problems.append(f"unknown TOSA level '{level}' (expected 8k or none)")
    for e in extensions:
        if e in extension_names():
            allowed = cooperating_profiles(e)
            if not any(p in profiles for p in allowed):
                problems.append(f"use of extension '{e}' requires any of profiles: "
                                f"[{', '.join(allowed)}] to be enabled in the target")
    return problems


@dataclass(frozen=True)
class Target:
    level: str = DEFAULT_LEVEL  # "8k" | "none"
    profiles: tuple[str, ...] = DEFAULT_PROFILES  # MLIR names
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    specification_version: str = SPEC_VERSION

    @cached_property
    def enabled(self) -> frozenset[str]:
        """Spec names of every enabled profile and extension (for TypeRow.is_available)."""
        return frozenset(spec_name(n) for n in (*self.profiles, *self.extensions))

    @cached_property
    def limits(self) -> Mapping[str, int]:
        table = st.levels()
        return table["8K" if self.level.lower() == "8k" else "none"]

    def has(self, name: str) -> bool:
        return spec_name(name) in self.enabled

    def describe_enabled(self) -> str:
        names = [*self.profiles, *self.extensions]
        return ", ".join(names) if names else "nothing"


def default_target() -> Target:
    return Target()


def target_of(module) -> Target | None:
    """The module's `tosa.target_env` as a Target, None when it has none."""
    from tosa_xdsl.ir.target_env import TargetEnvAttr

    attr = module.attributes.get("tosa.target_env")
    if not isinstance(attr, TargetEnvAttr):
        return None
    return Target(attr.level.data, attr.profile_names, attr.extension_names,
                  attr.specification_version.data)
