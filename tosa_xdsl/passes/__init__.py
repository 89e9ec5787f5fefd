"""tosa-xdsl's own passes (listed in tosa_xdsl.pass_registry.TOSA_PASSES)."""

from tosa_xdsl.passes.attach_target import TosaAttachTargetPass
from tosa_xdsl.passes.canonicalize import TosaCanonicalizePass
from tosa_xdsl.passes.constant_fold import TosaLayerwiseConstantFoldPass
from tosa_xdsl.passes.decompositions import TosaOptionalDecompositionsPass
from tosa_xdsl.passes.infer_shapes import TosaInferShapesPass
from tosa_xdsl.passes.make_broadcastable import TosaMakeBroadcastablePass
from tosa_xdsl.passes.reduce_transposes import TosaReduceTransposesPass
from tosa_xdsl.passes.validate import TosaValidatePass

__all__ = [
    "TosaInferShapesPass", "TosaMakeBroadcastablePass", "TosaLayerwiseConstantFoldPass",
    "TosaAttachTargetPass", "TosaValidatePass",
           "TosaCanonicalizePass", "TosaOptionalDecompositionsPass", "TosaReduceTransposesPass"]
