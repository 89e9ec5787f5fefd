"""`tosa-validate`: validate a module against its target environment (spec 1.6 profiles and
extensions, 1.7 levels, 2.1 compile-time constants; statically decidable REQUIREs as
warnings). The checks live in tosa_xdsl/validation/; this is the pass and its options.

The target is the module's `#tosa.target_env` (written by tosa-attach-target); without one,
level 8k, profiles pro_int and pro_fp, no extensions. The older inline options override it,
field by field, so scripts written for earlier MLIR keep working:

    tosa-opt -p 'tosa-validate{profile=pro_int extension=int16,doubleround level=none}'

`profile` also takes the pre-1.0 names bi (-> pro_int), mi and mt (-> pro_int, pro_fp).
Upstream's options: `strict-op-spec-alignment` adds the check that COND_IF / WHILE_LOOP
regions are isolated from above and makes REQUIREs that constants decide errors instead of
warnings (upstream's strict checks reject a MUL shift outside [0, 63] or repeated SCATTER
indices; ARGMAX's data-dependent REQUIRE stays a warning) (the profile/extension checks that upstream runs only with it
always run here, and the ERROR_IF checks it adds are in our op verifiers);
`allow-invalid-op-datatype-combinations` skips the profile/extension check of type
combinations; `validate-function-signature` checks the functions' argument and result types
(ranked tensors of rank <= MAX_RANK, no zero dims, TOSA element types). `!tosa.shape`
arguments and results are always rejected, as upstream does (validation/signature.py).

Every violation is a located error (all are reported, not only the first), so `tosa-opt`
exits 1; REQUIRE violations are warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tosa_xdsl.passes.attach_target import _names

_LEGACY_PROFILES = {"bi": ("pro_int",), "mi": ("pro_int", "pro_fp"), "mt": ("pro_int", "pro_fp")}


@dataclass(frozen=True)
class TosaValidatePass(ModulePass):
    name: ClassVar[str] = "tosa-validate"

    profile: tuple[str, ...] | str | None = None
    extension: tuple[str, ...] | str | None = None
    level: str | None = None
    strict_op_spec_alignment: bool = False
    allow_invalid_op_datatype_combinations: bool = False
    validate_function_signature: bool = False

    def target(self, module: ModuleOp):
        """The effective target: the module's target env (or the default), options applied;
        a list of problems with it (unknown names, extension without its profile)."""
        from tosa_xdsl.validation.target import check_names, default_target, target_of

        target = target_of(module) or default_target()
        if self.profile is not None:
            profiles: list[str] = []
            for p in _names(self.profile):
                for q in _LEGACY_PROFILES.get(p.lower(), (p.lower(),)):
                    if q not in profiles:
                        profiles.append(q)
            target = replace(target, profiles=tuple(profiles))
        if self.extension is not None:
            target = replace(target, extensions=tuple(e.lower() for e in _names(self.extension)))
        if self.level is not None:
            target = replace(target, level=str(self.level).lower())
        return target, check_names(target.profiles, target.extensions, target.level,
                                   target.specification_version)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.utils.exceptions import VerifyException

        from tosa_xdsl.diagnostics import LocatedError, active_engine
        from tosa_xdsl.validation.run import validate_module

        target, problems = self.target(op)
        if problems:
            raise LocatedError(op, "tosa-validate: invalid target: " + "; ".join(problems))
        from tosa_xdsl.validation.signature import check_region_isolation, check_signatures

        errors = check_signatures(op, target, full=self.validate_function_signature)
        errors += validate_module(op, target, check_types=not self.allow_invalid_op_datatype_combinations,
                                  strict=self.strict_op_spec_alignment)
        if self.strict_op_spec_alignment:
            errors += check_region_isolation(op)
        if errors and active_engine() is None:
            raise VerifyException(f"tosa-validate: {errors} error(s) (printed above)")
