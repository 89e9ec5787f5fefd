"""Hand-run: write .tosa fixtures with ExecuTorch's Arm backend (the TOSA flatbuffers
ExecuTorch 1.5 produces), plus each model's input and PyTorch's output as .npy.

    pip install "torch==2.13.0+cpu" ruamel.yaml tabulate torchao==0.18.*
    pip install --no-deps executorch==1.5.1
    python tests/formats/make_executorch_fixtures.py

Writes tests/formats/fixtures/executorch_<name>.tosa / _input_<i>.npy / _expected_<i>.npy;
test_tosa_flatbuffer.py reads them. Not run by `make test` (torch is heavy)."""

from __future__ import annotations

import glob
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent / "fixtures"


class ConvBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.dw = torch.nn.Conv2d(4, 4, 3, padding=1, groups=4)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        y = torch.nn.functional.max_pool2d(self.dw(y) + y, 2)
        return torch.sigmoid(y.mean(dim=(2, 3)))


class MlpSoftmax(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(8, 16)
        self.l2 = torch.nn.Linear(16, 4)

    def forward(self, x):
        h = torch.tanh(self.l1(x))
        return torch.softmax(self.l2(h), dim=-1), h.reshape(2, 4, 4).transpose(1, 2)


MODELS = {"conv_block": (ConvBlock, (1, 3, 8, 8)), "mlp_softmax": (MlpSoftmax, (2, 8))}


def main() -> int:
    from executorch.backends.arm.tosa.compile_spec import TosaCompileSpec
    from executorch.backends.arm.tosa.partitioner import TOSAPartitioner
    from executorch.exir import to_edge_transform_and_lower

    torch.manual_seed(0)
    OUT.mkdir(exist_ok=True)
    for name, (cls, shape) in MODELS.items():
        model = cls().eval()
        x = torch.randn(*shape)
        with torch.no_grad():
            want = model(x)
        want = want if isinstance(want, tuple) else (want,)
        with tempfile.TemporaryDirectory() as tmp:
            spec = TosaCompileSpec("TOSA-1.0+FP").dump_intermediate_artifacts_to(tmp)
            ep = torch.export.export(model, (x,))
            to_edge_transform_and_lower(ep, partitioner=[TOSAPartitioner(spec)])
            found = sorted(glob.glob(f"{tmp}/**/*.tosa", recursive=True))
            if len(found) != 1:
                print(f"{name}: expected one .tosa, found {found}", file=sys.stderr)
                return 1
            shutil.copy(found[0], OUT / f"executorch_{name}.tosa")
        np.save(OUT / f"executorch_{name}_input_0.npy", x.numpy())
        for i, w in enumerate(want):
            np.save(OUT / f"executorch_{name}_expected_{i}.npy", w.numpy())
        print(f"wrote executorch_{name}.tosa")
    return 0


if __name__ == "__main__":
    sys.exit(main())
