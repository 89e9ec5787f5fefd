"""Verdict cache for TOSA op verification (speed only; no check is weakened).

A TOSA op's verifier (IRDL constraints, `verify_structure`, the ERROR_IF checks of
tosa_xdsl/verification/) reads, by contract, only
- the op's own operand and result types, properties and discardable attributes, and
- the properties of operand producers that are constants (an op without operands:
  tosa.const, tosa.const_shape), through tosa_xdsl/verification/constants.py.

So two ops of one class that agree on all of those get the same verdict, and a model
repeats such signatures a lot (every `tosa.add` on `tensor<1x16x16x8xf32>`). An op whose
verification passed records its signature; a later op with the same signature skips the
checks, except the op's traits (HasParent and the like read the op's context), which always
run. Failures are never cached: a bad op always runs every check, so messages and their
order are unchanged.

The signature is first looked up by object identities (`id`), not attribute hashes (a
TensorType hash walks every parameter, ~2 us): the parser shares one object per distinct
type and attribute text, so identical signatures are mostly identical objects. On a miss
it is looked up by value (hash and ==: xDSL compares floats by their bits), which catches
IR whose equal types are distinct objects (xDSL's generic parser, IR built by passes). The cache holds the keyed
objects, so an id is never reused while its entry lives; it is bounded, and an op whose
signature involves a large dense constant is not cached (that would keep the weights
alive; such ops are one-off anyway).

Not cached (always fully verified): op classes with regions or successors, and classes
whose verifier reads more than the above (`VERIFY_READS_CONTEXT = True` on the class, e.g.
tosa.variable_read/_write, which look their variable up in the symbol table). A check
that reads anything else (users, other producers, parent ops) must set that flag on its
op class. Registering a new check clears the cache (`invalidate`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Operation

# Above this many bytes a dense constant makes its op's signature uncacheable.
MAX_CACHED_DENSE_BYTES = 4096
# Entries per op class before that class's cache is emptied.
MAX_ENTRIES = 4096

_CACHES: list[dict[tuple, tuple]] = []
_enabled = True
# Modes under which verification reads more than the signature (e.g. base.py's
# rank_broadcast_active: tosa-make-broadcastable's input): while any holds, nothing is
# looked up or recorded.
BYPASS: list[Callable[[], bool]] = []


def invalidate() -> None:
    """Forget every recorded verdict (a check was registered, or tests toggling caching)."""
    for cache in _CACHES:
        cache.clear()


def set_enabled(flag: bool) -> bool:
    """Turn the cache on/off process-wide (returns the previous setting)."""
    global _enabled
    previous, _enabled = _enabled, flag
    invalidate()
    return previous


def _small(attr: Any) -> bool:
    return not (isinstance(attr, DenseIntOrFPElementsAttr) and len(attr.data.data) > MAX_CACHED_DENSE_BYTES)


def signature(op: Operation) -> tuple[tuple, list] | None:
    """(key of ids, the same key with the objects themselves) of `op`, or None when `op`
    must not be cached. The second holds the keyed objects alive (so their ids are not
    reused while an entry lives) and, hashed, is the fallback key for IR whose equal types
    are distinct objects (xDSL's generic parser builds one per use)."""
    key: list = []
    objects: list = []
    append, keep = key.append, objects.append
    for value in op._operands:  # pyright: ignore[reportPrivateUsage]
        t = value.type
        append(id(t))
        keep(t)
        owner = getattr(value, "op", None)  # OpResult's producer (block arguments have none)
        if owner is not None and not owner._operands and owner.properties:  # pyright: ignore[reportPrivateUsage]
            append(type(owner))
            keep(type(owner))
            if not _add_named(owner.properties, append, keep, small_only=True):
                return None
        else:
            append(None)
            keep(None)
    append(-1)
    keep(-1)
    for result in op.results:
        t = result.type
        append(id(t))
        keep(t)
    append(-2)
    keep(-2)
    if not _add_named(op.properties, append, keep, small_only=True):
        return None
    append(-3)
    keep(-3)
    _add_named(op.attributes, append, keep, small_only=False)
    return tuple(key), objects


def _add_named(attrs: dict, append: Callable, keep: Callable, small_only: bool) -> bool:
    """Each (name, attribute) into the key (the attribute by id) and the kept objects; False
    (nothing cacheable) at a large dense attribute when `small_only`."""
    for name, attr in attrs.items():
        if small_only and not _small(attr):
            return False
        append(name)
        append(id(attr))
        keep(name)
        keep(attr)
    return True


def cached_verify(cls: type[Operation]) -> Callable[[Operation], None] | None:
    """A `verify_` for `cls` that skips verification it has already passed for the same
    signature, or None when `cls` is not cacheable (see the module docstring)."""
    op_def = cls.get_irdl_definition()  # pyright: ignore[reportAttributeAccessIssue]
    if op_def.regions or op_def.successors or getattr(cls, "VERIFY_READS_CONTEXT", False):
        return None
    full = cls.verify_
    traits: list = []  # filled on first use: lazy_traits_def may name classes defined later
    cache: dict[tuple, tuple] = {}  # ids -> the objects (kept alive)
    by_value: dict[tuple, bool] = {}  # the objects themselves (hash and ==)
    _CACHES.append(cache)
    _CACHES.append(by_value)

    def verify_(self: Operation) -> None:
        if not _enabled or self.regions or self.successors or any(mode() for mode in BYPASS):
            full(self)
            return
        sig = signature(self)
        if sig is None:
            full(self)
            return
        key, objects = sig
        if not traits:
            traits.extend(op_def.traits)
            traits.append(None)  # marks "filled" even for a class without traits
        if key in cache:
            for trait in traits[:-1]:
                trait.verify(self)
            return
        value_key = tuple(objects)
        if len(cache) >= MAX_ENTRIES:
            cache.clear()
        if len(by_value) >= MAX_ENTRIES:
            by_value.clear()
        if value_key in by_value:
            for trait in traits[:-1]:
                trait.verify(self)
        else:
            full(self)
            by_value[value_key] = True
        cache[key] = value_key

    verify_.__doc__ = full.__doc__
    return verify_
