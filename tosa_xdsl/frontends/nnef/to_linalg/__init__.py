"""Road 2: operators compiled from their @lower formulas (linalg.generic). NOT DONE yet:
operators without a TOSA mapping are reported."""

from __future__ import annotations

from tosa_xdsl.frontends.nnef.errors import NnefError


def lower_node(em, node, ins):
    raise NnefError(node.loc, f"'{node.op}' has no TOSA mapping for these attributes and compiling its "
                    "@lower formulas (road 2) is not implemented yet")
