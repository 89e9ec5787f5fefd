"""The 75 TOSA 1.0.1 operators, one module per spec chapter (2.3 ... 2.18)."""

from tosa_xdsl.dialects.tosa.ops import (
    activation,
    comparison,
    control_flow,
    custom,
    data_layout,
    data_nodes,
    elementwise_binary,
    elementwise_ternary,
    elementwise_unary,
    image,
    reduction,
    scatter_gather,
    shape,
    tensor,
    type_conversion,
    variable,
)

# (spec chapter, module) in spec order: drives the Dialect and the generated op table.
CHAPTERS = (
    ("2.3 Tensor Operators", tensor),
    ("2.4 Activation Functions", activation),
    ("2.5 Elementwise Binary Operators", elementwise_binary),
    ("2.6 Elementwise Unary Operators", elementwise_unary),
    ("2.7 Elementwise Ternary Operators", elementwise_ternary),
    ("2.8 Comparison Operators", comparison),
    ("2.9 Reduction Operators", reduction),
    ("2.10 Data Layout", data_layout),
    ("2.11 Scatter/Gather Operators", scatter_gather),
    ("2.12 Image Operators", image),
    ("2.13 Type Conversion", type_conversion),
    ("2.14 Data Nodes", data_nodes),
    ("2.15 Custom Operators", custom),
    ("2.16 Control Flow Operators", control_flow),
    ("2.17 Variable Operators", variable),
    ("2.18 Shape Operators", shape),
)

SPEC_OPS = tuple(op for _, module in CHAPTERS for op in module.OPS)
ALL_OPS = SPEC_OPS + control_flow.TERMINATORS
