"""docs/tflite.md's operator table, generated from the code: every operator of the guide's
"TensorFlow Lite MLIR Dialect Legalization" section (plus what we legalize beyond it) with
its status in `tosa-legalize-tfl` and the committed test models that exercise it.

    python -m tosa_xdsl.frontends.tflite.docs   # prints the table (markdown)
"""

from __future__ import annotations

from pathlib import Path

# The guide's `### tfl.*` headings, in its order (tosa-legalization-tf-tflite.md).
GUIDE_OPERATORS = (
    'tfl.abs', 'tfl.add_n', 'tfl.add', 'tfl.arg_max', 'tfl.arg_min', 'tfl.average_pool_2d',
    'tfl.basic_lstm', 'tfl.batch_to_space_nd', 'tfl.cast', 'tfl.ceil', 'tfl.concatenation',
    'tfl.pseudo_const', 'tfl.conv_2d', 'tfl.convolution_2d_transpose_bias', 'tfl.cos',
    'tfl.densify', 'tfl.depth_to_space', 'tfl.depthwise_conv_2d', 'tfl.dequantize', 'tfl.div',
    'tfl.elu', 'tfl.embedding_lookup', 'tfl.equal', 'tfl.exp', 'tfl.expand_dims',
    'tfl.external_const', 'tfl.fake_quant', 'tfl.fill', 'tfl.floor_div', 'tfl.floor_mod',
    'tfl.floor', 'tfl.fully_connected', 'tfl.gather_nd', 'tfl.gather', 'tfl.greater_equal',
    'tfl.greater', 'tfl.hard_swish', 'tfl.l2_normalization', 'tfl.lstm', 'tfl.leaky_relu',
    'tfl.less_equal', 'tfl.less', 'tfl.local_response_normalization', 'tfl.log', 'tfl.log_softmax',
    'tfl.logical_and', 'tfl.logical_not', 'tfl.logical_or', 'tfl.logistic', 'tfl.matrix_diag',
    'tfl.matrix_set_diag', 'tfl.max_pool_2d', 'tfl.max_pooling_with_argmax_2d',
    'tfl.max_unpooling_2d', 'tfl.maximum', 'tfl.mean', 'tfl.minimum', 'tfl.mirror_pad', 'tfl.mul',
    'tfl.neg', 'tfl.non_max_suppression_v4', 'tfl.non_max_suppression_v5', 'tfl.not_equal',
    'tfl.NumericVerify', 'tfl.one_hot', 'tfl.prelu', 'tfl.pack', 'tfl.pad', 'tfl.padv2', 'tfl.pow',
    'tfl.pseudo_qconst', 'tfl.quantize', 'tfl.range', 'tfl.rank', 'tfl.reduce_any',
    'tfl.reduce_max', 'tfl.reduce_min', 'tfl.reduce_prod', 'tfl.relu_n1_to_1', 'tfl.relu6',
    'tfl.relu', 'tfl.reshape', 'tfl.resize_bilinear', 'tfl.resize_nearest_neighbor',
    'tfl.reverse_sequence', 'tfl.reverse_v2', 'tfl.round', 'tfl.rsqrt', 'tfl.svdf',
    'tfl.segment_sum', 'tfl.select', 'tfl.select_v2', 'tfl.shape', 'tfl.sin', 'tfl.slice',
    'tfl.softmax', 'tfl.space_to_batch_nd', 'tfl.space_to_depth', 'tfl.pseudo_sparse_const',
    'tfl.pseudo_sparse_qconst', 'tfl.sparse_to_dense', 'tfl.split', 'tfl.split_v', 'tfl.sqrt',
    'tfl.square', 'tfl.squared_difference', 'tfl.squeeze', 'tfl.strided_slice', 'tfl.sub',
    'tfl.sum', 'tfl.tanh', 'tfl.tile', 'tfl.topk_v2', 'tfl.transpose_conv', 'tfl.transpose',
    'tfl.unidirectional_sequence_lstm', 'tfl.unidirectional_sequence_rnn', 'tfl.unique',
    'tfl.unpack', 'tfl.where', 'tfl.while', 'tfl.yield', 'tfl.zeros_like',
)
# Those the guide itself leaves without a lowering ("No TOSA lowering defined" or empty).
GUIDE_WITHOUT_LOWERING = frozenset((
    'tfl.arg_min', 'tfl.basic_lstm', 'tfl.convolution_2d_transpose_bias', 'tfl.cos', 'tfl.densify',
    'tfl.depth_to_space', 'tfl.external_const', 'tfl.gather_nd', 'tfl.l2_normalization',
    'tfl.lstm', 'tfl.local_response_normalization', 'tfl.matrix_diag', 'tfl.matrix_set_diag',
    'tfl.max_pooling_with_argmax_2d', 'tfl.max_unpooling_2d', 'tfl.mirror_pad',
    'tfl.non_max_suppression_v4', 'tfl.non_max_suppression_v5', 'tfl.NumericVerify', 'tfl.one_hot',
    'tfl.padv2', 'tfl.range', 'tfl.relu_n1_to_1', 'tfl.reverse_sequence', 'tfl.svdf',
    'tfl.segment_sum', 'tfl.sin', 'tfl.pseudo_sparse_const', 'tfl.pseudo_sparse_qconst',
    'tfl.sparse_to_dense', 'tfl.strided_slice', 'tfl.topk_v2', 'tfl.unidirectional_sequence_lstm',
    'tfl.unidirectional_sequence_rnn', 'tfl.unique', 'tfl.where',
))

_MODELS = Path(__file__).resolve().parents[3] / "tests" / "frontends" / "tflite" / "models"


def tested_variants() -> dict[str, list[str]]:
    """tfl op name -> variants with a committed single-operator test model."""
    out: dict[str, list[str]] = {}
    for p in sorted(_MODELS.glob("*.tflite")) if _MODELS.is_dir() else []:
        name, _, variant = p.stem.partition(".")
        if not name.startswith("net_"):
            out.setdefault("tfl." + name.replace("_valid_dilated", "").replace("_broadcast", ""), [])
            v = out["tfl." + name.replace("_valid_dilated", "").replace("_broadcast", "")]
            if variant not in v:
                v.append(variant)
    return out


def operator_table() -> str:
    """The markdown table of every guide operator (and extra legalized ones) and its status."""
    from tosa_xdsl.frontends.tflite.legalize import LEGALIZERS
    from tosa_xdsl.frontends.tflite.legalize.core import CONTROL_FLOW

    tested = tested_variants()
    rows = ["| operator | guide | tosa-legalize-tfl | committed test models |", "|---|---|---|---|"]
    extra = sorted(n for n in [*LEGALIZERS, *CONTROL_FLOW] if n.startswith("tfl.") and n not in GUIDE_OPERATORS)
    for name in list(GUIDE_OPERATORS) + extra:
        guide = "no lowering" if name in GUIDE_WITHOUT_LOWERING else ("lowering" if name in GUIDE_OPERATORS else "(not in guide)")
        fn = LEGALIZERS.get(name)
        if fn is not None:
            status = f"legalized (`{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}`)"
        elif name in CONTROL_FLOW:
            status = "legalized (`core._legalize_control_flow`: tosa.while_loop / tosa.cond_if)"
        elif name in ("tfl.yield", "tfl.no_value"):
            status = "consumed by its parent / consumer"
        else:
            status = "not legalized: located error naming the operator"
        rows.append(f"| `{name}` | {guide} | {status} | {', '.join(tested.get(name, [])) or '-'} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(operator_table(), end="")
