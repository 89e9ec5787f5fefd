"""torch-mlir models (tests/fixtures/torch/, written by tests/fixtures/make_torch_models.py with
torch 2.13 CPU and torch-mlir 20261001) run as torch-mlir writes them, compared with torch's
own outputs: the interpreter, `-p tosa-to-linalg-pipeline{validation=false}` (the graphs hold
f64/i64, which upstream's pipeline validation rejects too), the JIT; and after the narrowing
passes, tosa-validate under PRO-INT/PRO-FP and Arm's reference model.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import oracle
import pytest

from tosa_xdsl.tools.tosa_opt import main as tosa_opt
from tosa_xdsl.tools.tosa_run import main as tosa_run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "torch"
MODELS = ("mlp", "cnn", "encoder", "int_bool", "dynamic_batch")
STATIC = tuple(m for m in MODELS if m != "dynamic_batch")
NARROW = ("tosa-narrow-f64-to-f32{aggressive-rewrite=true convert-function-boundaries=true},"
          "tosa-narrow-i64-to-i32{aggressive-rewrite=true convert-function-boundaries=true},canonicalize")


def _files(model: str, kind: str) -> list[Path]:
    return sorted(FIXTURES.glob(f"{model}.{kind}*.npy"))


def _run(model: str, options: list[str], tmp_path: Path) -> tuple[int, str, list[np.ndarray]]:
    ins = [a for f in _files(model, "in") for a in ("-i", str(f))]
    outs = [tmp_path / f"out{i}.npy" for i in range(len(_files(model, "out")))]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_run([str(FIXTURES / f"{model}.mlir"), *ins, *(a for o in outs for a in ("-o", str(o))), *options])
    return code, err.getvalue(), [np.load(o) for o in outs] if code == 0 else []


def _compare(model: str, got: list[np.ndarray]) -> None:
    expected = [np.load(f) for f in _files(model, "out")]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.shape == e.shape
        if e.dtype.kind in "iub":
            np.testing.assert_array_equal(g.astype(e.dtype), e)
        else:
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("model", MODELS)
def test_interpreter_matches_torch(model, tmp_path):
    code, err, got = _run(model, [], tmp_path)
    assert code == 0, err
    _compare(model, got)


@pytest.mark.parametrize("backend", (["-p", "tosa-to-linalg-pipeline{validation=false}"], ["--backend", "jit"]),
                         ids=("linalg", "jit"))
@pytest.mark.parametrize("model", STATIC)
def test_lowered_matches_torch(model, backend, tmp_path):
    code, err, got = _run(model, backend, tmp_path)
    assert code == 0, err
    _compare(model, got)


DYNAMIC_STAGES = (["-p", "tosa-to-linalg-pipeline{validation=false}"],
                  ["-p", "tosa-to-linalg-pipeline{validation=false},one-shot-bufferize"],
                  ["-p", "tosa-to-linalg-pipeline{validation=false},one-shot-bufferize,convert-linalg-to-affine-loops"],
                  ["-p", "tosa-to-loops{validation=false}"],
                  ["--backend", "jit"])


@pytest.mark.parametrize("backend", DYNAMIC_STAGES, ids=("linalg", "buffers", "affine", "loops", "jit"))
def test_dynamic_batch_lowers_dynamically(backend, tmp_path):
    """EXT-DYNAMIC: the `?` batch lowers as it is (tensor.dim / memref.dim / extents) at
    every stage and natively, and gives torch's outputs."""
    code, err, got = _run("dynamic_batch", backend, tmp_path)
    assert code == 0, err
    _compare("dynamic_batch", got)


@pytest.mark.parametrize("rows", ([0], [2, 0], [0, 1, 2, 2, 1, 0, 1]), ids=("batch1", "batch2", "batch7"))
@pytest.mark.parametrize("backend", (DYNAMIC_STAGES[0], DYNAMIC_STAGES[-1]), ids=("linalg", "jit"))
def test_dynamic_batch_other_batch_sizes(rows, backend, tmp_path):
    """One lowering, other batch sizes: the model (Linear + tanh + reshape) maps each input
    row to one output row, so torch's outputs for a batch made of the fixture's rows are
    the matching rows of torch's own outputs."""
    x = np.load(_files("dynamic_batch", "in")[0])[rows]
    expected = np.load(_files("dynamic_batch", "out")[0])[rows]
    np.save(tmp_path / "x.npy", x)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_run([str(FIXTURES / "dynamic_batch.mlir"), "-i", str(tmp_path / "x.npy"),
                         "-o", str(tmp_path / "y.npy"), *backend])
    assert code == 0, err.getvalue()
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), expected, rtol=1e-5, atol=1e-5)


def test_dynamic_batch_native_module_reused():
    """One native compile, several batch sizes (NativeModule keeps the engine)."""
    from lowering_harness import parse

    from tosa_xdsl.jit import NativeModule

    module = parse((FIXTURES / "dynamic_batch.mlir").read_text())
    native = NativeModule(module, pipeline="tosa-to-linalg-pipeline{validation=false},tosa-to-llvm")
    x = np.load(_files("dynamic_batch", "in")[0])
    y = np.load(_files("dynamic_batch", "out")[0])
    for rows in ([1], [0, 2], [2, 1, 0, 0]):
        (got,) = native.call([x[rows]])
        np.testing.assert_allclose(got, y[rows], rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="must have shape"):
        native.call([np.zeros((2, 7), np.float32)])


def _narrowed(model: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert tosa_opt([str(FIXTURES / f"{model}.mlir"), "-p", NARROW, "--tosa-syntax=attr-dict"]) == 0
    return out.getvalue()


@pytest.mark.parametrize("model", STATIC)
def test_narrowed_validates_and_runs_on_reference_model(model, tmp_path):
    text = _narrowed(model)
    path = tmp_path / "narrow.mlir"
    path.write_text(text)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_opt([str(path), "-p", "tosa-attach-target{profiles=pro_int,pro_fp},tosa-validate"])
    assert code == 0, err.getvalue()
    inputs = [np.load(f) for f in _files(model, "in")]
    inputs = [x.astype(np.int32) if x.dtype == np.int64 else x for x in inputs]  # i64 inputs narrowed
    _compare(model, oracle.run(text, *inputs))


def test_raw_export_is_reported_by_validate():
    """Before narrowing, tosa-validate names the rule and the fix (upstream's wording)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_opt([str(FIXTURES / "encoder.mlir"), "-p", "tosa-validate", "-o", "/dev/null"])
    assert code == 1
    assert "is not profile-aligned: element type 'f64' is not legal; run tosa-narrow-f64-to-f32" in err.getvalue()


STATIC_BATCH = 'tosa-experimental-input-shape{args="arg0:3x8"},tosa-infer-shapes{convert-function-boundaries=true}'


@pytest.mark.parametrize("backend", (["-p", STATIC_BATCH + ",tosa-to-linalg-pipeline"],
                                     ["-p", STATIC_BATCH + ",tosa-to-loops"]), ids=("linalg", "loops"))
def test_dynamic_batch_made_static_lowers(backend, tmp_path):
    """upstream's route for EXT-DYNAMIC graphs: give the input shape, infer, lower."""
    code, err, got = _run("dynamic_batch", backend, tmp_path)
    assert code == 0, err
    _compare("dynamic_batch", got)


def test_dynamic_batch_made_static_on_reference_model_and_jit(tmp_path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert tosa_opt([str(FIXTURES / "dynamic_batch.mlir"), "-p", STATIC_BATCH, "--tosa-syntax=attr-dict"]) == 0
    text = out.getvalue()
    inputs = [np.load(f) for f in _files("dynamic_batch", "in")]
    _compare("dynamic_batch", oracle.run(text, *inputs))
    from tosa_xdsl.jit import NativeModule  # noqa: F401  (the JIT backend is importable)

    path = tmp_path / "static.mlir"
    path.write_text(text)
    err = io.StringIO()
    result = tmp_path / "jit.npy"
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tosa_run([str(path), "-i", str(_files("dynamic_batch", "in")[0]), "--backend", "jit", "-o", str(result)])
    assert code == 0, err.getvalue()
    _compare("dynamic_batch", [np.load(result)])
