"""Hand-run: a small ONNX model with a dynamic batch (`dim_param: "batch"`), its onnxruntime
outputs at several batch sizes as committed fixtures, for the import of run-time extents
(test_nnef_dynamic.py):

    pip install onnx onnxruntime
    python tests/frontends/nnef/make_onnx_dynamic_model.py
    PYTHONPATH=/tmp/nt/skriptnd-pyproject/build/lib.linux-x86_64-cpython-311 \\
        python tests/frontends/nnef/convert_models.py /tmp/nt/nnef_tools-pyproject \\
        tests/frontends/nnef/models/dyn_batch.onnx

models/dyn_batch.onnx, models/dyn_batch.input_<b>.npy and models/dyn_batch.expected_<b>.npy
(b = 1, 3: onnxruntime's output for that batch). Conv + Relu + MaxPool + Conv + residual Add
+ Flatten + Gemm + Softmax: the batch flows through convolution, pooling, a reshape (one -1),
matmul and the softmax's reductions. onnx/onnxruntime are needed only here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

MODELS = Path(__file__).parent / "models"
BATCHES = (1, 3)


def build():
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2026)
    inits = []

    def weight(name, *shape, scale=0.3):
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    n = helper.make_node
    nodes = [
        n("Conv", ["x", weight("w1", 4, 2, 3, 3), weight("b1", 4)], ["c1"], pads=[1, 1, 1, 1]),
        n("Relu", ["c1"], ["r1"]),
        n("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),                     # 4x4x4
        n("Conv", ["p1", weight("w2", 4, 4, 3, 3, scale=0.2), weight("b2", 4)], ["c2"], pads=[1, 1, 1, 1]),
        n("Add", ["c2", "p1"], ["res"]),
        n("Flatten", ["res"], ["flat"]),
        n("Gemm", ["flat", weight("wg", 5, 64, scale=0.1), weight("bg", 5)], ["logits"], transB=1),
        n("Softmax", ["logits"], ["probs"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "dyn_batch",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2, 8, 8])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 5])],
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
    path = MODELS / "dyn_batch.onnx"
    onnx.save(model, str(path))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    for b in BATCHES:
        x = np.random.default_rng(b).standard_normal((b, 2, 8, 8)).astype(np.float32)
        (out,) = session.run(None, {"x": x})
        np.save(MODELS / f"dyn_batch.input_{b}.npy", x)
        np.save(MODELS / f"dyn_batch.expected_{b}.npy", out)
        print(f"batch {b}: {out.shape}")


if __name__ == "__main__":
    main()
