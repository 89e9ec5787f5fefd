"""Hand-run: convert test models (TFLite, ONNX) to SkriptND with Khronos' converters
(NNEF-Tools, branch v2.0, `nnef_tools-pyproject`), writing the committed fixture folders
tests/frontends/nnef/models/<model>/ (main.sknd + one .dat per variable).

    git -C <NNEF-Tools clone> archive v2.0 | tar -x -C /tmp/nt
    pip install six flatbuffers onnx /tmp/nt/skriptnd-pyproject     # the writer needs skriptnd
    python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject examples/face_detection_front.tflite
    python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject tests/frontends/nnef/models/small_cnn.onnx

(small_cnn.onnx is written by make_onnx_model.py.)

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
    sys.exit(C.main(args))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
