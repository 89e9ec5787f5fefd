"""bench/mobilenet.py writes valid TOSA: the MobileNet-style model bench/native.py measures
verifies (every ERROR_IF), passes tosa-validate at level 8k with the pro_fp profile, and has
MobileNet v1's structure (8 depthwise-separable blocks, 224x224 input, 7x7 before pooling)."""

from __future__ import annotations

import sys
from pathlib import Path

from lowering_harness import lower, parse

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from mobilenet import BLOCKS, mobilenet_input, mobilenet_mlir  # noqa: E402


def test_mobilenet_is_valid_tosa():
    text = mobilenet_mlir(width=0.25)
    module = parse(text)  # verifies
    lower(module, "tosa-validate")
    names = [op.name for op in module.walk()]
    assert names.count("tosa.depthwise_conv2d") == len(BLOCKS)
    assert names.count("tosa.conv2d") == len(BLOCKS) + 2  # stem, pointwise convs, classifier
    assert names.count("tosa.clamp") == 2 * len(BLOCKS) + 1
    pool = next(op for op in module.walk() if op.name == "tosa.avg_pool2d")
    assert tuple(pool.operands[0].type.get_shape()) == (1, 7, 7, 256)
    assert mobilenet_input().shape == (1, 224, 224, 3)
    assert mobilenet_mlir(width=0.25) == text  # deterministic
