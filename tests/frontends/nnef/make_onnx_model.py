"""Hand-run: build the small ONNX test model (onnx's helper API, seeded weights), run it with
onnxruntime, and write the committed fixtures next to the converted folder:

    pip install onnx onnxruntime
    python tests/frontends/nnef/make_onnx_model.py
    python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject \\
        tests/frontends/nnef/models/small_cnn.onnx

models/small_cnn.onnx, models/small_cnn.input_0.npy and models/small_cnn.expected_<i>.npy
(onnxruntime's outputs). The model exercises the mappings of issue 16 the way ONNX writes
them: convolution with batch normalization, depthwise and strided convolution, max pooling,
a residual add, transposed convolution, nearest and linear resizes, global average pooling,
Gemm and softmax. onnx/onnxruntime are needed only here, never by `make test`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

MODELS = Path(__file__).parent / "models"


def build():
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2016)
    inits = []

    def weight(name, *shape, scale=0.3):
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def const(name, values, dtype=np.float32):
        inits.append(numpy_helper.from_array(np.asarray(values, dtype), name))
        return name

    n = helper.make_node
    nodes = [
        n("Conv", ["x", weight("w1", 8, 3, 3, 3), weight("b1", 8)], ["c1"], pads=[1, 1, 1, 1]),
        n("BatchNormalization", ["c1", const("bn_s", rng.random(8) + 0.5), weight("bn_b", 8),
                                 weight("bn_m", 8), const("bn_v", rng.random(8) + 0.5)], ["bn"], epsilon=1e-3),
        n("Relu", ["bn"], ["r1"]),
        n("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),                     # 8x8x8
        n("Conv", ["p1", weight("wd", 8, 1, 3, 3), weight("bd", 8)], ["dw"], pads=[1, 1, 1, 1], group=8),
        n("Add", ["dw", "p1"], ["res"]),
        n("Relu", ["res"], ["r2"]),
        n("Conv", ["r2", weight("w3", 8, 8, 3, 3, scale=0.15)], ["c3"], pads=[1, 1, 1, 1], strides=[2, 2]),  # 8x4x4
        n("ConvTranspose", ["c3", weight("wt", 8, 4, 2, 2), weight("bt", 4)], ["up"], strides=[2, 2]),     # 4x8x8
        n("Sigmoid", ["up"], ["s"]),
        n("Resize", ["s", "", const("sc_near", [1, 1, 2, 2])], ["near"], mode="nearest",
          coordinate_transformation_mode="asymmetric", nearest_mode="floor"),                   # 4x16x16
        n("Resize", ["r2", "", const("sc_lin", [1, 1, 2, 2])], ["lin"], mode="linear",
          coordinate_transformation_mode="half_pixel"),                                          # 8x16x16
        n("Conv", ["lin", weight("w4", 4, 8, 1, 1)], ["c4"]),
        n("Add", ["c4", "near"], ["feat"]),                                                      # output 0
        n("GlobalAveragePool", ["feat"], ["gap"]),
        n("Flatten", ["gap"], ["flat"]),
        n("Gemm", ["flat", weight("wg", 5, 4), weight("bg", 5)], ["logits"], transB=1),
        n("Softmax", ["logits"], ["probs"], axis=1),                                             # output 1
    ]
    graph = helper.make_graph(
        nodes, "small_cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("feat", TensorProto.FLOAT, [1, 4, 16, 16]),
         helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 5])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main() -> None:
    import onnx
    import onnxruntime as ort

    model = build()
    MODELS.mkdir(exist_ok=True)
    path = MODELS / "small_cnn.onnx"
    onnx.save(model, str(path))
    x = np.random.default_rng(7).standard_normal((1, 3, 16, 16)).astype(np.float32)
    outs = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    np.save(MODELS / "small_cnn.input_0.npy", x)
    for i, out in enumerate(outs):
        np.save(MODELS / f"small_cnn.expected_{i}.npy", out)
        print(f"output {i}: {out.shape}")


if __name__ == "__main__":
    main()
