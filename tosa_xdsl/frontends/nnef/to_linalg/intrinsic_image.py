"""image.max_roi_pool, image.avg_roi_pool and image._cubic_grid_sample: not lowered yet."""

from tosa_xdsl.frontends.nnef.errors import NnefError


def roi_pool(em, node, ins, kind):
    raise NnefError(node.loc, f"'{node.op}' has no lowering yet")


def cubic_grid_sample(em, node, ins):
    raise NnefError(node.loc, f"'{node.op}' has no lowering yet")
