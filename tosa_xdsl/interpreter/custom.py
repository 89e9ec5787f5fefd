"""Spec 2.15 CUSTOM: implementation-defined operators, supplied by the user.

    from tosa_xdsl.interpreter import register_custom

    def my_op(inputs: list[np.ndarray], implementation_attrs: str, op) -> list[np.ndarray]:
        ...
    register_custom("my_domain", "my_op", my_op)

`fn(inputs, implementation_attrs, op)` gets the input_list as numpy arrays (and the op, for
its result types) and returns one array per result, each of the result's exact dtype and
shape (the runner checks them). A CUSTOM op with no registered implementation stops the run
with "no implementation for domain/name". `unregister_custom(domain, name)` removes one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from tosa_xdsl.dialects.tosa.ops.custom import CustomOp
from tosa_xdsl.interpreter.common import prop
from tosa_xdsl.interpreter.errors import NotImplementedOp, TosaRunError

CustomFn = Callable[[list[Any], str, CustomOp], Sequence[Any]]

_CUSTOM: dict[tuple[str, str], CustomFn] = {}


def register_custom(domain: str, name: str, fn: CustomFn) -> None:
    """Make `fn` the implementation of CUSTOM operator `name` in `domain` (replacing any)."""
    _CUSTOM[(domain, name)] = fn


def unregister_custom(domain: str, name: str) -> None:
    _CUSTOM.pop((domain, name), None)


@register_impls
class CustomFunctions(InterpreterFunctions):
    @impl(CustomOp)
    def run_custom(self, interpreter, op: CustomOp, args):
        domain, name = prop(op, "domain_name"), prop(op, "operator_name")
        fn = _CUSTOM.get((domain, name))
        if fn is None:
            raise NotImplementedOp(op, f"no implementation for {domain}/{name} ('{op.name}'; "
                                   "register one with tosa_xdsl.interpreter.register_custom)")
        outputs = fn(list(args), prop(op, "implementation_attrs") or "", op)
        outputs = tuple(outputs)
        if len(outputs) != len(op.results):
            raise TosaRunError("internal", f"custom operator {domain}/{name} returned {len(outputs)} "
                               f"values for {len(op.results)} results", op)
        return outputs
