"""Register tiles for reductions: the loop order `convert-linalg-to-affine-loops{register-tiling=true}`
gives a convolution, depthwise convolution, matmul or pooling so that LLVM keeps a small block of
outputs in vector registers for the whole reduction.

The plain nest (linalg_to_loops.loop_order) is `P..., R..., V` -- parallel dims, reduction dims,
the output's contiguous dim V innermost. Every reduction step then loads and stores the V row
of outputs. The tiled nest is

    P without U..., U step TU, V step TV, R..., V in [v, v+TV) { body at u, u+1, ..., u+TU-1 }

with U the innermost other parallel dim of size > 1 (a convolution's output column, a matmul's
row), unrolled and jammed into the V loop: a TU x TV block of outputs (TV contiguous elements,
at most a few vectors) is the whole working set of the reduction loops, LLVM vectorises the V
loop (the only loop left with unit-stride accesses, so it cannot pick a gather over U) and LICM
keeps the block in registers across R (the buffers are distinct allocations and the entry's
arguments are `noalias`, so nothing aliases). Tiles divide their dims exactly (static sizes
only; no remainder loops: where no row tile divides U beside the widest V tile, V narrows,
`_narrower_v`); a V tile that is no multiple of 8 lanes (28, 36, 42) is two loops
side by side, the multiple of 8 and the rest (`split_of`), each with the jammed body. A V
shorter than 8 is unrolled into the reduction body instead (`_short_v`).

Only parallel loops are split and moved: every output element still sees its reduction steps
in the same order as the plain nest (and as MLIR's linalg-to-loops), so results are
bit-identical -- integers and floats.
"""

from __future__ import annotations

from dataclasses import dataclass

# vector lanes * registers: a tile of outputs that fits AVX-512's 32 (AVX2's 16) registers with
# room for the operands; TV is a multiple of 16 lanes of f32 where the dim allows
MAX_TV = 64
MAX_BLOCK = 128  # TU * TV elements
TU_CHOICES = (8, 7, 6, 5, 4, 3, 2)
SPLIT_LANES = 8  # f32 lanes of a 256-bit vector


@dataclass(frozen=True)
class TiledLoop:
    """One loop of the nest: `dim` over its whole extent (step 1); `step` > 1: the outer loop
    of a split dim; `tile` > 0: the inner loop of a split dim, [outer iv, outer iv + tile);
    `jam`: that inner loop unrolled into the innermost loop's body (unroll-and-jam)."""

    dim: int
    step: int = 1
    tile: int = 0
    jam: bool = False  # no loop: the body is repeated `tile` times, at outer iv + 0, 1, ...
    split: int = 0  # > 0: the tile is two sibling loops, [iv, iv + split) and [iv + split, iv + tile)


def _tile(size: int, limit: int, choices=None) -> int:
    """The largest tile <= limit dividing `size` (the whole dim when it fits)."""
    if size <= limit:
        return size
    for t in choices or range(limit, 1, -1):
        if t <= limit and size % t == 0:
            return t
    return 1


def split_of(tile: int) -> int:
    """Where a V tile that is not a whole number of SPLIT_LANES-lane vectors splits: its largest
    multiple of SPLIT_LANES, else 0 (no split). As one loop of 28 LLVM vectorises with 4 lanes
    (28 is no multiple of 8) and keeps the block in memory; as 24 + 4 the first loop gets
    8-lane vectors and the second 4 (the example's 24 -> 28 channel 1x1 convolution: ~2x)."""
    if tile <= SPLIT_LANES or tile % SPLIT_LANES == 0:
        return 0
    return tile - tile % SPLIT_LANES


def _short_v(parallel: list[int], reductions: list[int], vector_dims: list[int], sizes: list[int],
             v: int) -> list[TiledLoop]:
    """A contiguous output dim V shorter than a vector (a classifier's 6 or 2 columns): V is
    unrolled into the reduction loops' body (a single-iteration `step V` loop gives it its
    base), so the V outputs of a row are loop-invariant in the reduction loops and LLVM keeps
    them in registers; the plain nest re-loaded and re-stored them on every reduction step."""
    loops = [TiledLoop(d) for d in parallel]
    loops.append(TiledLoop(v, step=sizes[v]))
    loops += [TiledLoop(d) for d in reductions]
    loops += [TiledLoop(d) for d in vector_dims if d != v]
    loops.append(TiledLoop(v, tile=sizes[v], jam=True))
    return loops


def _narrower_v(size_u: int, size_v: int, tv: int) -> tuple[int, int]:
    """(TU, TV) when the widest V tile leaves no U tile dividing U (a 7x7 output's 49 rows with
    TV = 64 allow only TU <= 2): a narrower V tile that lets U be tiled. With TU = 1 every weight
    vector loaded feeds one multiply-add, and a weight matrix larger than L1 is streamed from L2
    once per output row (MobileNet-style's 7x7x256 -> 512 1x1 convolution ran at half the others'
    rate); TU rows reuse each load TU times. Chosen by multiply-adds per vector loaded."""
    best = (1, tv)
    best_score = tv / (1 + tv / SPLIT_LANES)
    for cand in (48, 32, 16, 8):
        if cand >= tv or size_v % cand:
            continue
        tu = _tile(size_u, min(8, MAX_BLOCK // cand), TU_CHOICES)
        score = tu * cand / (tu + cand / SPLIT_LANES)
        if tu > 1 and score > best_score:
            best, best_score = (tu, cand), score
    return best


def register_tiled_order(order: list[int], sizes: list[int], reduction: set[int],
                         vector_dims: list[int]) -> list[TiledLoop] | None:
    """The tiled nest for `order` (linalg_to_loops.loop_order's, ending in the moved
    contiguous output dims `vector_dims`), or None when tiling does not apply: no reduction,
    a dynamic size, or nothing to gain."""
    if not reduction or any(s < 0 for s in sizes) or not vector_dims:
        return None
    inner = [d for d in vector_dims if sizes[d] > 1]
    if len(inner) != 1 or order[-len(vector_dims):] != vector_dims:
        return None
    v = inner[0]
    head = order[:-len(vector_dims)]
    parallel = [d for d in head if d not in reduction]
    reductions = [d for d in head if d in reduction]
    if head != parallel + reductions:  # a parallel dim among the reductions: keep MLIR's order
        return None
    tv = _tile(sizes[v], MAX_TV, (64, 48, 32, 16, 8))
    if sizes[v] < 8:
        return _short_v(parallel, reductions, vector_dims, sizes, v)
    if tv < 8:
        return None
    big = [d for d in parallel if sizes[d] > 1]
    u = big[-1] if big else None
    tu = _tile(sizes[u], min(8, MAX_BLOCK // tv), TU_CHOICES) if u is not None else 1
    if u is not None and tu == 1:
        tu, tv = _narrower_v(sizes[u], sizes[v], tv)
    loops = [TiledLoop(d) for d in parallel if sizes[d] == 1]  # trivial dims outermost
    loops += [TiledLoop(d) for d in parallel if sizes[d] > 1 and d != u]
    if u is not None:
        loops.append(TiledLoop(u, step=tu) if tu > 1 else TiledLoop(u))
    loops.append(TiledLoop(v, step=tv))
    loops += [TiledLoop(d) for d in reductions]
    loops += [TiledLoop(d) for d in vector_dims if d != v]  # size-1 dims
    loops.append(TiledLoop(v, tile=tv, split=split_of(tv)))
    if u is not None and tu > 1:
        loops.append(TiledLoop(u, tile=tu, jam=True))
    return loops
