"""memref-copy-to-affine-loops (tosa_xdsl/lowering/to_loops/copy_to_loops.py, in tosa-to-llvm):
a strided static memref.copy becomes an affine nest over views collapsed to the stretch that
is contiguous in both layouts.

Copies move bits, so every result must equal the interpreter's bit for bit, floats included:
pads of a function argument, of a tensor with a second reader (the copy the write-into-copy-
target pass cannot remove), channel pads, int8 and odd sizes; the lowered stage is also run in
the interpreter. `groups_of` is checked against numpy, which reshapes a strided view without
copying exactly when the collapsed dims are contiguous in it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from lowering_harness import assert_same, lower, parse, run_both
from native_programs import pad_program, random_inputs

from tosa_xdsl import jit
from tosa_xdsl.interpreter import run
from tosa_xdsl.lowering.pipelines import expanded
from tosa_xdsl.lowering.to_loops.copy_to_loops import _contiguous, groups_of

STAGES = expanded("tosa-to-llvm")
UP_TO_COPIES = ",".join(STAGES[:STAGES.index("memref-copy-to-affine-loops") + 1])
BEFORE_COPIES = ",".join(STAGES[:STAGES.index("memref-copy-to-affine-loops")])


CASES = {
    "argument_spatial": pad_program((1, 7, 5, 3), [0, 0, 1, 2, 2, 1, 0, 0]),
    "argument_channels": pad_program((1, 4, 6, 13), [0, 0, 0, 0, 0, 0, 0, 3]),
    "second_reader_spatial": pad_program((1, 9, 9, 24), [0, 0, 1, 1, 1, 1, 0, 0], second_reader=True),
    "second_reader_channels": pad_program((1, 5, 3, 7), [0, 0, 0, 1, 0, 0, 0, 4], second_reader=True),
    "i8_spatial": pad_program((1, 6, 5, 16), [0, 0, 2, 0, 0, 3, 0, 0], "i8", second_reader=True),
    "rank2": pad_program((5, 11), [1, 0, 0, 2]),
    "rank3_all_dims": pad_program((3, 4, 5), [1, 1, 0, 2, 3, 0]),
}


def _strided_copies(module) -> int:
    return sum(1 for op in module.walk() if op.name == "memref.copy"
               and any(not _row_major(v.type) for v in op.operands))


def _row_major(t) -> bool:
    return _contiguous(list(t.get_shape()), list(t.get_strides()))


@pytest.mark.parametrize("name", sorted(CASES))
def test_native_copy_is_exact(name):
    src = CASES[name]
    module = parse(src)
    inputs = random_inputs(module, seed=len(name))
    want = run(module, inputs)
    assert_same(jit.NativeModule(parse(src)).call(inputs), want, f"{name}: native vs interpreter")
    assert _strided_copies(lower(src, BEFORE_COPIES)) > 0, "the case must exercise a strided copy"
    lowered = lower(src, UP_TO_COPIES)
    assert _strided_copies(lowered) == 0
    assert_same(run(lowered, inputs), want, f"{name}: lowered stage in the interpreter vs TOSA")


def test_lowered_stage_in_interpreter():
    want, got, _ = run_both(CASES["second_reader_spatial"], UP_TO_COPIES,
                            random_inputs(parse(CASES["second_reader_spatial"]), seed=3))
    assert_same(got, want, "interpreter")


def _collapse_without_copy(view: np.ndarray, groups) -> bool:
    shape = [int(np.prod([view.shape[k] for k in g])) for g in groups]
    try:
        v = view.view()
        v.shape = shape
    except AttributeError:
        return False
    return True


@pytest.mark.parametrize("seed", range(40))
def test_groups_of_against_numpy(seed):
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(1, 5))
    shape = [int(rng.integers(1, 5)) for _ in range(rank)]
    # source: a slice of a bigger buffer (some dims padded), destination another
    views = []
    for _ in range(2):
        big = [d + int(rng.integers(0, 3)) * int(rng.integers(0, 2)) for d in shape]
        base = np.zeros(big, np.float32)
        starts = [int(rng.integers(0, b - d + 1)) for b, d in zip(big, shape)]
        views.append(base[tuple(slice(s, s + d) for s, d in zip(starts, shape))])
    src, dst = (list(np.array(v.strides) // 4) for v in views)
    groups = groups_of(shape, src, dst)
    assert sorted(itertools.chain(*groups)) == list(range(rank))
    assert all(g == list(range(g[0], g[-1] + 1)) for g in groups)
    for v in views:
        assert _collapse_without_copy(v, groups), (shape, src, dst, groups)
    # maximal: merging two adjacent groups needs a copy in at least one of the views
    for a, b in itertools.pairwise(groups):
        merged = [g for g in groups if g is not a and g is not b] + [a + b]
        assert not all(_collapse_without_copy(v, sorted(merged)) for v in views), (shape, src, dst, groups)
