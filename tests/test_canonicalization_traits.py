"""Canonicalization is declared on the ops (CanonicalizationPatterns trait): every declared
pattern exists and is rooted at the op declaring it, and every pattern is declared somewhere."""

import inspect

from xdsl.pattern_rewriter import RewritePattern

from tosa_xdsl.dialects.tosa.ops import ALL_OPS
from tosa_xdsl.dialects.tosa.traits import CanonicalizationPatterns
from tosa_xdsl.passes import canonicalization_patterns


def _declared() -> dict[type, tuple[str, ...]]:
    return {cls: trait.names for cls in ALL_OPS
            if (trait := cls.get_trait(CanonicalizationPatterns)) is not None}


def test_declared_patterns_resolve_and_are_rooted_at_their_op():
    declared = _declared()
    assert declared
    for cls, names in declared.items():
        patterns = cls.get_trait(CanonicalizationPatterns).get_patterns(cls)
        assert [type(p).__name__ for p in patterns] == list(names)
        for p in patterns:
            roots = p.root if isinstance(p.root, tuple) else (p.root,)
            assert cls in roots, (cls.name, type(p).__name__)


def test_every_pattern_is_declared_on_an_op():
    declared = {name for names in _declared().values() for name in names}
    defined = {
        name for name, obj in vars(canonicalization_patterns).items()
        if inspect.isclass(obj) and issubclass(obj, RewritePattern) and not name.startswith("_")
        and obj.__module__ == canonicalization_patterns.__name__
    }
    assert defined == declared
