"""Hand-run: convert test models (TFLite, ONNX) to SkriptND with Khronos' converters
(NNEF-Tools, branch v2.0, `nnef_tools-pyproject`), writing the committed fixture folders
tests/frontends/nnef/models/<model>/ (main.sknd + one .dat per variable).

    git -C <NNEF-Tools clone> archive v2.0 | tar -x -C /tmp/nt
    pip install six flatbuffers onnx /tmp/nt/skriptnd-pyproject     # the writer needs skriptnd
    python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject examples/face_detection_front.tflite
    python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject tests/frontends/nnef/models/small_cnn.onnx
    for m in conv_2d net_mobilenet depthwise_conv_2d fully_connected add sub mul maximum relu \
             average_pool_2d max_pool_2d concatenation reshape transpose squeeze expand_dims slice \
             softmax logistic pad mean leaky_relu tanh exp log resize_bilinear resize_nearest_neighbor \
             sum reduce_max rsqrt sqrt abs minimum mirror_pad tile; do
        python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject tests/frontends/tflite/models/$m.int8.tflite
    done
    for m in fully_connected add mean leaky_relu pad max_pool_2d resize_nearest_neighbor logistic tanh softmax; do
        python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject tests/frontends/tflite/models/$m.int16x8.tflite
    done
    for m in add conv_2d; do
        python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject tests/frontends/tflite/models/$m.uint8io.tflite
    done

(small_cnn.onnx is written by make_onnx_model.py; the .int8 / .int16x8 models by
tests/fixtures/make_tflite_models.py.) The int16x8 and the last thirteen int8 models were
converted with the skriptnd extension built in place (PYTHONPATH=/tmp/nt/skriptnd-pyproject/
build/lib.linux-x86_64-cpython-311, plus `pip install six flatbuffers pybind11 psutil`); the
process then segfaults at exit, after writing the folder. Not convertible by v2.0:
conv_2d/depthwise_conv_2d.int16x8 (an assertion on their int64 biases), hard_swish.int8
(HARD_SWISH not implemented), elu/square/sin/cos.int8 (DEQUANTIZE not implemented), gelu.int8
(a KeyError), if/while.int8 (several
subgraphs).

Quantized models: Khronos' converter keeps each quantized tensor's parameters (`tensor.quant`:
scale, zero_point, bits, signed, symmetric; op-type quant.zero_point_linear_quantize) in its
model, but its SkriptND printer does not print them (v2.0 writes no @quantize block), and
its TFLite reader drops TFLite's `quantized_dimension`. This script prints those parameters
as the draft's @quantize block (2.14) of the graph, with `channel_axis` the axis whose extent
is the number of per-channel scales (TFLite's convention when ambiguous: 0, or 3 for a
depthwise [1, H, W, C*M] filter). The variables' data files are Khronos' as written: the
tensors' integer storage values (int8 weights, int32 biases) under a `real` declaration.

Khronos' convert.py lists no tflite -> sknd route although its tflite_to_sknd converter
exists; this script adds that route and calls its main() with default options.
"""

from __future__ import annotations

import shutil
import sys
import types
from pathlib import Path


def main(tools: str, model: str) -> None:
    sys.path.insert(0, tools)
    import nnef_tools.convert as C

    original = C.get_converter

    def get_converter(inf, outf, io_transforms, custom_transforms, custom_functions, custom_shapes, mirror, keep):
        if inf == "tflite" and outf == "sknd":
            from nnef_tools.conversion.tflite_to_sknd import Converter
            return Converter(custom_transforms=custom_transforms, custom_functions=custom_functions,
                             mirror_unsupported=mirror)
        return original(inf, outf, io_transforms, custom_transforms, custom_functions, custom_shapes, mirror, keep)

    C.get_converter = get_converter
    quant = capture_quantization()
    out = Path(__file__).parent / "models" / Path(model).stem
    fmt = Path(model).suffix.lstrip(".")
    if out.exists():
        shutil.rmtree(out)
    args = types.SimpleNamespace(
        io_transpose=None, custom_converters=None, custom_shapes=None, mirror_unsupported=False,
        keep_io_names=True, atomic=None, decompose=None, custom_operators=None,
        fold_constants=fmt != "onnx",   # for ONNX this runs onnx-simplifier (onnxsim), not needed here
        generate_custom_operators=False, compress=None, annotate_shapes=False, input_shapes=None,
        max_input_shapes=None, optimize=False, dequantize=False, custom_optimizers=None, input_names=None,
        output_names=None, static_only=False, tensor_mapping=None,
        input_model=model, output_model=str(out), input_format=fmt, output_format="sknd")
    status = C.main(args)
    if quant:
        add_quantize_block(out / "main.sknd", quant)
    sys.exit(status)


def capture_quantization() -> dict:
    """name -> quant dict of every quantized tensor, read from the converted model as
    Khronos' writer receives it."""
    import nnef_tools.io.sknd.writer as W

    found: dict = {}
    build = W._build_model

    def build_model(model):
        for graph in model.graphs:
            for t in graph.tensors:
                if t.quant and t.quant.get("op-type") and t.name:
                    found[t.name] = (dict(t.quant), tuple(t.shape or ()))
        return build(model)
    W._build_model = build_model
    return found


def _channel_axis(shape, n: int) -> int:
    if n == 1:
        return 0
    axes = [i for i, d in enumerate(shape) if d == n]
    if len(axes) == 1:
        return axes[0]
    if len(shape) == 4 and shape[0] == 1 and shape[3] == n:
        return 3
    if axes and axes[0] == 0:
        return 0
    raise SystemExit(f"cannot tell the channel axis of a tensor of shape {shape} with {n} scales")


def _fmt(v) -> str:
    import numpy as np

    arr = np.asarray(v).reshape(-1)
    items = [repr(float(x)) if arr.dtype.kind == "f" else str(int(x)) for x in arr]
    return items[0] if np.ndim(v) == 0 else "[" + ", ".join(items) + "]"


def add_quantize_block(path: Path, quant: dict) -> None:
    from skriptnd.printer import valid_id

    text = path.read_text()
    lines = []
    for name, (q, shape) in quant.items():
        ident = valid_id(name)
        if ident not in text:
            print(f"note: quantized tensor '{name}' is not named in the document (inlined); skipped")
            continue
        import numpy as np
        n = int(np.size(q["scale"]))
        axis = _channel_axis(shape, n)
        lines.append(f"\t\t{ident}: {q['op-type']}{{zero_point={_fmt(q['zero_point'])}, scale={_fmt(q['scale'])}, "
                     f"bits={q['bits']}, signed={str(q['signed']).lower()}, "
                     f"symmetric={str(q['symmetric']).lower()}, channel_axis={axis}}};")
    head, sep, rest = text.partition("graph main {")
    end = rest.index("\n}\n")       # the graph's closing brace
    block = "\t@quantize {\n" + "\n".join(lines) + "\n\t}"
    imports = "" if "import quant;" in head else "import quant;\n"
    path.write_text(imports + head + sep + rest[:end] + "\n" + block + rest[end:])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
