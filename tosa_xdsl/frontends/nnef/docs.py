"""Generate docs/nnef.md (the standard-library table comes from the code):

    python -m tosa_xdsl.frontends.nnef.docs > docs/nnef.md

tests/frontends/nnef/test_nnef_docs.py checks the committed file is current."""

from __future__ import annotations

import sys
from pathlib import Path

from tosa_xdsl.frontends.nnef.parser import parse
from tosa_xdsl.frontends.nnef.stdlib import HERE, MODULES
from tosa_xdsl.frontends.nnef.to_tosa.ops import MAPPINGS

TESTS = Path(__file__).resolve().parents[3] / "tests" / "frontends" / "nnef"

INTRO = """# NNEF 2.0 (SkriptND) frontend

`tosa_xdsl/frontends/nnef/` reads SkriptND documents (NNEF 2.0, the draft in
../shared/spec/nnef-2.0-draft.md), imports a graph as a `func.func` of TOSA (+ linalg), and
exports TOSA back to an NNEF model folder.

```python
from tosa_xdsl.frontends.nnef import import_nnef, export_nnef_folder
module = import_nnef("model_folder_or_file.sknd", attribs={"batch": 1})   # func.func @<Graph>
module = import_nnef(text, variables={"w": array}, lower_all=True)       # road 2 for everything
export_nnef_folder(module, "out/")          # out/main.sknd + out/main.<Graph>.<var>.dat
```

Pieces: `lexer.py`, `parser.py`, `ast.py` (the grammar of 2.16 with located errors),
`semantics.py` (evaluation, attribute checking, input-shape binding, @using/@assert),
`modules.py` (imports), `compose.py` (graph composition), `to_tosa/` (road 1),
`to_linalg/` (road 2, `@lower` -> `linalg.generic`), `tensor_data.py` (data files),
`export.py` (TOSA -> NNEF; `export_layout.py` / `export_cast.py` its recognisers of the importer's multi-operation
forms, `export_quant.py` / `export_tables.py` the integer patterns), `stdlib/` (chapter 4 of the draft as .sknd, `extract.py`).

## What works

- **Syntax**: every construct of 2.16 (operators/graphs, all twelve blocks, packs, optional
  types, generics, branches, scanning/folding/condition loops, unrolling, formulas with
  `|..|` bounds, loop-locals, labels, quantization); diagnostics `file:line:col: error:`; an
  expression nesting limit instead of recursion errors. Both spellings are read: the draft's
  (`import nn` without `;`, `...` where its text means `..`, `|i < a : b|` for `|i <> a : b|`,
  messages over several lines, `bias[ni]` for the 1-d access `bias[ni,]`) and Khronos' v2.0
  (`import a, b;`, `dynamic` attributes, `math.axpby` for the draft's `math.axpy`).
- **Standard library**: chapter 4 extracted by `stdlib/extract.py`, which joins definitions
  broken over pages and applies a listed set of typesetting repairs (e.g. `shape[::-1]` in
  `layout.flatten`, whose text `shape[:-1]` would give column-major strides). All 151
  definitions parse (`image.linear_upsample` after two repairs read off Khronos' NNEF-Tools
  v2.0 library, whose text is intact; `stdlib/UNPARSED.txt` lists any that do not). The library is written in
  canonical spelling (`..` for expansion, `<>` in remapped bounds, the imports each module
  needs), so Khronos' reference parser reads it: `linalg` and `quant` whole; in the others it
  rejects what the draft allows and the v2.0 implementation does not (non-`static` attribute
  expressions such as `reshape{shape=...}` computed from shapes, `bias[ni]` indexing an optional
  tensor, `nn` calling `math.axpby` where `math` defines `axpy`). A process parses the bundled
  library once (`modules.py` keeps the parsed modules, keyed by file and parsed again when a
  file's modification time or size changes; a repeat import of a small nn.conv graph took 0.2 s, now 3 ms): the
  syntax trees are shared by all imports and nothing downstream changes them
  (`test_nnef_stdlib_cache.py`; tests/conftest.py compares the cached trees with a fresh
  parse after the session). Modules of a model's own folder are read on every import.
  `TOSA_XDSL_NNEF_STDLIB_CACHE=0` (or `Library(cache=False)`) parses the library on every import.
- **Semantics**: packs, null propagation, folds (cumulative too), ranges, zips,
  substitution, casts, built-ins, formatted strings; attribute type checks, defaults (uniform,
  deferred), the input binding order of 2.6.2 (affine extents, pack lengths, rank capture,
  per-item `..z` extents of tensor packs); `@using` interleaved with `@assert` (2.9); failed
  assertions print the definition's formatted message with the listed values and a note at
  the assertion, e.g. `g.sknd:6:5: error: in 'nn.conv': 'stride' must be positive (stride = [0, 0])`.
- **Composition**: composite operators without a TOSA mapping expand from their `@compose`
  (e.g. `nn.softmax`); static branches are decided at compile time, branches on a bool tensor
  become `tosa.cond_if` (regions take the outer tensors they read as arguments); an invoked
  graph (a sub-graph) expands like a composite operator, its variables becoming the main
  graph's, named in its scope (2.11: `<graph name or explicit label>.<name>`, data files
  `main.<Graph>.<scope>.<name>.dat`; invocations in one scope share them,
  `test_nnef_subgraphs.py`); result lists `[a, bs..(2), c]` bind a packed result's items; loops with a compile-time trip count (scans over packs,
  folding with loop-carried tensors, `..(i -> n)`) are unrolled, scan outputs become packs;
  data-dependent loops (`while` conditions, do-while, tensor trip counts) become
  `tosa.while_loop` carrying the loop variables, a counter and the outer tensors they read
  (a do-while's condition is `cond || counter == 0`: the first step runs untested, while a
  tensor count bounds every step);
  such a loop with scan inputs (`with s = a for x : xs while c do ...`, `do..(i -> n)` with a
  tensor `n`) is unrolled over the packs' compile-time length (which bounds the trip count,
  2.10.1), each step a `tosa.cond_if` on "the steps so far ran, `i < n`, the condition holds"
  whose else region passes the loop variables on (`test_nnef_scans.py`). A tensor count above
  the packs' length makes the document invalid (2.10.1: the scan length "**must** be an upper
  bound" of the count) and is a run-time error at the loop's position: TOSA 1.0.1 has no
  assertion, so a `tosa.while_loop` entered only when `n` exceeds the length GATHERs item `n`
  of a table as long as the pack (the interpreter: `m.sknd:6:5: error: graph is
  unpredictable: REQUIRE(0 <= k && k < K) failed in 'tosa.gather'`); native code, which checks
  no REQUIRE, reads the clamped last item, loops on and stops at `--max-loop-iterations`
  (`m.sknd:6:5: error: 'tosa.while_loop' did not finish within 100000 iterations`; so does
  the interpreter under `--allow-unpredictable`, slowly).
  `test_nnef_scans_fuzz.py` fuzzes these loops (seeded, time-bounded): random scan loops
  (pack lengths 0..5, counts below, at and above the length, pretest and do-while
  conditions) against numpy's loop of the draft, and token mutants of the loop documents
  (deleted, duplicated, replaced tokens; types, counts, packs) that import and run or give a
  located error. The draft's AlexNet (2.1) composes with the shapes of
  the paper after one fix: it passes `relu6` (rank 4) instead of `flat1` to `nn.linear`, which
  our shape check reports at the call.
- **Road 1** (TOSA, table below) and **road 2** (`@lower` -> `linalg.generic` with affine maps,
  reductions from their null element, `|..|` accesses as reads of a padded copy; conditional
  formulas and `:=` updates as `scf.for` nests with `tensor.extract/insert`); both run in
  `tosa_xdsl.interpreter`. User-defined operators run from their formulas. Road 1 highlights:
  `image.*` resizes as RESIZE (the definitions' coordinate transforms and rounding methods
  are exact rational shifts of RESIZE's sampling; values outside RESIZE's ERROR_IF ranges go
  to road 2 or a located error), cubic resize as one MATMUL per resized axis by compile-time
  Keys weights (the draft gives no formulas: linear_resize's coordinates and clamped taps,
  ONNX's cubic kernel), nearest grid sampling as index arithmetic on the grid, the padding
  as selects/clamps of the indices and one GATHER of the flattened pixels, gather/scatter
  with the other axes folded into N,
  deconvolution as TRANSPOSE_CONV2D (one per group + CONCAT; a dilated filter zero-stuffed by
  RESHAPE/PAD/RESHAPE/SLICE), `layout.slice` with stride -1 as SLICE + REVERSE, pooling over any one or two axes, `layout.stack` as
  RESHAPE + CONCAT, `layout.space_to_depth` and `layout.depth_to_space` (a one-item pack such as its `c`,
  bound by `c..(ncx)`/`c..(!ncx)`, stands for its item in a list) as their RESHAPE/TRANSPOSE/RESHAPE compositions,
  fake quantization as CAST/CLAMP compositions, the normalizations as compositions of mappings. A mapping that
  declines an instance leaves a composite to its `@compose` expansion.
- **Road 2 extras**: remapped bounds `|e <> lower : upper|` (layout.pad REFLECT/SYMMETRIC/
  REPLICATE) read a copy extended by a `tosa.gather` of the remapped rows; an out-of-range
  read under a condition reads a zero-padded copy (layout.pad CONSTANT); folds over packs of
  loop indices; per-channel attribute packs indexed by a loop index; formulas over tensor
  packs (layout.concat) unrolled per item into `tensor.insert_slice` pieces; indices read from
  tensors (layout.gather, layout.scatter) and output positions summing loop indices
  (nn.deconv) as scf loops of `tensor.extract`/`insert`. Computed (non-affine) indices
  (`to_linalg/computed.py`: rounded reals of the resizes, packs of indices read from a tensor
  in gather_nd/scatter_nd) are a `tensor.extract` inside the generic; out of range, a plain
  read (undefined in the draft) is clamped into the tensor, `|e|` skips the term (the
  reduction's null element, or the loop step), `|e <> lower : upper|` remaps (so
  `image.grid_sample` NEAREST/LINEAR run from their formulas with every padding). Packs of
  tensors (`to_linalg/packs.py`): `unroll..(i -> n)`, a loop index over the items of a packed
  output, and unconditional packed assignment compile one formula per item (layout.split,
  layout.unstack, the draft's `add_to_all`); a conditional or updating packed assignment (one
  atomic assignment of the pack per step, the draft's `max_idx_2d`) compiles the pack as one
  tensor stacked along a new axis, written item by item in the same loop step, then split;
  result lists `[a, b..(n)]` bind packed results. Reductions over the items of an input pack
  (`math.sum_n`'s `y[i..] += xs[k][i..], k < n`) accumulate item by item; an item chosen at
  run time (`math.argmax_n`'s `xs[y[i..]][i..]`) reads the pack stacked along a new axis.
  `sinh`, `cosh`, `asinh`, `acosh`, `atanh` are exp/log/sqrt compositions; `atan` is Cephes'
  range-reduced polynomial (selects), `asin(x) = atan(x / sqrt((1 - x)(1 + x)))`,
  `acos(x) = 2 atan(sqrt((1 - x) / (1 + x)))` (within 4 float32 ulps of numpy, signed
  zeros kept); `%` is the modulo
  of the rounding-down `/` (the divisor's sign), as the compile-time evaluation.
  Data-dependent output extents (`index: int[d, k|(s * ..)]`, `to_linalg/counted.py`): scf
  loops carrying the upper-bound buffer and the counter `k`, then a `tensor.extract_slice` of
  dynamic size: the output type has a `?` extent (layout.nonzero, the draft's `where_true`),
  run by the interpreter and natively (a subview with a dynamic size, `test_nnef_gaps.py`).
  `@constant` tensors defined per index (`I: real[n,n] = i == j ? 1.0 : 0.0, i < n, j < n`,
  2.7) are evaluated at compile time (image.linear_upsample's filter).
- **Operators the draft gives no formulas** ("intrinsic operators", 4.5.3 and 4.7, and
  `image._cubic_grid_sample`'s empty body) are hand-written road-2 lowerings
  (`to_linalg/intrinsics.py`: scf loops of `tensor.extract`/`insert`, run by the
  interpreter and natively, `test_nnef_intrinsics.py`), with the meaning of the operators
  Khronos' converters map onto them: `algo.top_k` as ONNX TopK (min(k, m) items by k
  selection passes; ties: the lower index first; `sorted = false` gives the sorted order
  too), `algo.nonmax_suppress` as ONNX NonMaxSuppression in onnxruntime (per batch item and
  class: scores above `score_threshold` strictly, decreasing, ties to the lower box index,
  kept unless IoU > `iou_threshold` with a kept box; CORNERS [y1, x1, y2, x2] in either
  corner order, CENTER [x, y, w, h]; rows [batch, class, box], the `~` extent a `?` one),
  `image.max_roi_pool` as ONNX MaxRoiPool (Caffe's bins; spatial scale 1, any number d of
  spatial axes; a ROI row is [start_0..start_d-1, end_0..end_d-1] along the axes in order,
  e.g. [y1, x1, y2, x2], where ONNX orders [x1, y1, x2, y2]; the batch index is clamped),
  `image.avg_roi_pool` the same bins averaged (an empty bin gives 0),
  `image._cubic_grid_sample` with Keys' kernel A = -0.75 (ONNX/PyTorch; the draft gives no
  coefficient) on the draft's linear grid-sample coordinates and paddings (REFLECT about the
  border pixels' centres, as the draft's linear and nearest formulas; ONNX's unaligned
  reflection is about the image edges), 1 to 3 spatial axes; `image.cubic_resize` (mapped
  by road 1) under `--nnef-lower-all` by road 1's taps and weights per resized axis.
- **Extents known only at run time** (2.6.1, 3.1; `extents.py`, `test_nnef_dynamic.py`): a
  graph input's `s|10` or `~|10` extent (and Khronos' `~` without a bound, which its v2.0
  writer prints for an ONNX `dim_param`) is a `?` dim of the function's argument, and an
  operator output's data-dependent `~|k` extent (layout.nonzero) a `?` of its result; a
  packed one (`x: real[s|10 ..(3)]` or `real[~|10 ..(3)]`, "a dynamic input of rank 3 with
  upper bound 10 for each component") three `?` dims, `s` a pack of three run-time extents
  that later inputs and the outputs use as `s..` or `s[k]` (`test_nnef_packed_extents.py`:
  interpreter and JIT at two shapes against numpy; a graph input that is a pack of tensors,
  `xs: real[3]..(2)`, is a located error: a function argument is one tensor); a declared
  output's `~|6` / `t|6` agrees with any composed extent up to 6, a static one too (one above
  is a located error). At
  import such an extent is a symbolic value: `s` keeps its identity (a later `y: real[s]`
  agrees with it, an upper bound given twice must be equal), arithmetic on it stays symbolic
  (`s + 2`, `(s - 3) / 2 + 1`, upper bounds carried where they follow), `is` compares
  symbols (the draft's compile-time identity), and `==`, `<`, ... between different extents
  are decided at run time: an `@assert` on them is accepted at import and left to TOSA's
  own run-time checks (e.g. the broadcasting ERROR_IF of ADD, which the interpreter
  checks; natively such a check is not made), a `?:` that branches on one is a located
  error. Inputs sharing a symbol (`x: real[n|8]; y: real[n]`) are not compared on entry: their
  agreement is checked where an operator's ERROR_IF meets them (by the interpreter), and the
  upper bounds are not checked at run time. tosa-run takes the shapes from the .npy files
  given. `import_nnef(..., input_shapes={"x": [4, 3]})` / `tosa-translate --import-nnef m.sknd --nnef-input-shape
  x=4x3` fix the extents of an input instead (checked against the bound and the symbol's
  other uses): the former static import. Road 1 with `?` dims: every element-wise mapping
  (broadcasting a `?` against 1, itself or another `?`; TOSA checks at run time),
  `layout.cast`, reductions (squeezing too), transpose, concat, tile, pad, the reshapes
  (flatten, unflatten, squeeze, unsqueeze, reshape) when the new shape has at most one `?`
  (TOSA 1.0.1's RESHAPE shape is a compile-time `!tosa.shape` with one `-1`), matmul and
  `nn.linear` with a `?` batch/rows, `nn.conv` and the pools with a `?` batch and `?`
  spatial extents at stride 1 (TOSA's idiv_check would ask an exact division the
  definition does not promise at larger strides), resizes with a `?` among the folded
  axes, `layout.gather` with a `?` at or after its axis or in the index, and the composites built
  of these (softmax, batch_norm, clamp, ...). Road 2 with
  `?` dims: loops over a run-time extent take their range from the operands (linalg), the
  output's `tensor.empty` (and a reduction's `linalg.fill`) takes its size from the
  inputs' `tensor.dim`, with `arith` ops where the output extent is arithmetic on them
  (the draft's "shape expressions compiled to scalar code"): element-wise, broadcasting,
  reductions, softmax, batch_norm, conv (a `?` batch), matmul, transpose. Interpreter and
  JIT at several shapes against numpy; Khronos' conversion of an ONNX model with a
  dynamic batch (`models/dyn_batch`, `make_onnx_dynamic_model.py`) against onnxruntime at
  batch 1 and 3; integer TOSA too: the quantized `net_mobilenet.int8` declared with a `?`
  batch equals LiteRT's kernels bit for bit on a batch of 3 (a per-tensor `@quantize`
  parameter whose pack length is a run-time extent stays one uniform value).
- **Quantization** (2.14) as **integer TOSA** (`to_tosa/integer.py`), as the TFLite
  legalization builds it: a tensor with a `quant.zero_point_linear_quantize` entry (signed
  8/16/32 bits or unsigned 8 bits, one zero point, per-tensor or per-channel scales) is held
  as its storage (i8 / i16 / i32; u8 as the bits of an i8 that only RESCALEs with
  `input_unsigned` / `output_unsigned` read and write, as TOSA 1.0 does). Operators whose inputs and outputs are all such tensors compute on
  integers: `nn.conv` (CONV2D / DEPTHWISE_CONV2D / CONV3D) and `nn.linear` (MATMUL) with the
  zero points as operands, i32 accumulators, the i32 bias added as is (its scale must be
  input_scale * weight_scale), then one RESCALE by input_scale * weight_scale[c] /
  output_scale (multiplier and shift from the guide's `compute_scale_32` in
  `frontends/legalize_common.py`, DOUBLE_ROUND, per channel along the output channels, also
  to an output with a scale per channel); 16-bit activations (TFLite's 16x8) accumulate in
  i48 (CONV2D i16 x i8; MATMUL takes i16 x i16, the weights cast) and RESCALE from i48 with
  a 16-bit multiplier (scale32 = false, SINGLE_ROUND: TOSA's ERROR_IFs), without a bias (an
  i48 operand); `nn.relu` (with `max`) as a clamp in the output's quantized domain (the legalization's
  `quantized_activation_bounds`); `math.add`/`math.sub` as TFLite's kernel (both sides to i32
  with 20 bits of headroom, one rescale out), `math.mul` (both sides to i32 without zero
  points, MUL, one rescale), `math.max`/`math.min` (equal parameters: on i32 copies);
  `nn.max_pool`, `nn.avg_pool` (the same parameters in and out, border not counted),
  reshapes, transposes, slices, tiles and concatenation on the stored values, followed by a
  RESCALE where the output's parameters differ. The guide leaves most TFLite quantized
  operators "TODO", so the rest follow TFLite's kernels as our TFLite frontend lowers them
  (`to_tosa/integer_functions.py`, `to_tosa/integer_layout.py`): leaky relu (`nn.relu{alpha}`)
  as two RESCALEs of x - zp (by s_in/s_out and alpha * s_in/s_out) and a SELECT on x >= zp,
  `nn.prelu` likewise with (x - zp) * (alpha - zp_alpha) on the negative side;
  `nn.sigmoid`, `math.tanh`, `math.exp`, `math.log`, `math.log2`, `math.sqrt`, `math.rsqrt`,
  `math.rcp`, `math.sin`, `math.cos`, `nn.erf`, `nn.elu`, `nn.selu`, `nn.gelu`, `nn.silu`,
  `nn.softplus` as one TABLE (8 bits: 256 entries of TFLite's LUT, dequantize / the
  definition's function / requantize; 16 bits: TOSA's interpolated 513-entry table, i32
  out, RESCALE by 1/128); `math.abs` as ABS of x - zp and one RESCALE; `nn.softmax` along one
  axis (int8: the row maximum subtracted in i32, exp of the 256 differences a GATHER from a
  Q16 table, each output INTDIV(e * K + sum / 2, sum) for the output scale 1/K; int16: the
  differences mapped onto [-10, 0], exp as an i16 TABLE, the same division; zero points 0);
  `math.mean_reduce` / `math.sum_reduce` as TFLite's QuantizedMeanOrSum (zero point removed by
  a RESCALE to i32, REDUCE_SUM, one RESCALE by s_in / s_out / N); `math.max_reduce` /
  `math.min_reduce` on the stored values; `layout.pad` padding with the zero point (the
  guide's tfl.pad is PAD; REFLECT/SYMMETRIC/REPLICATE move stored values); the
  `image.nearest_*` resizes as RESIZE NEAREST on the stored values, `image.linear_resize` as
  RESIZE BILINEAR i8 -> i32 (i16 -> i48) and one RESCALE by 1 / (scale_y_n * scale_x_n).
  The composites among them (`nn.softmax`, `math.mean_reduce`) are kept whole by the
  composer (not expanded from their @compose) when their input is quantized and their result
  has an entry whose parameters the integer form takes (`to_tosa/integer.py`'s WHOLE). A
  per-channel value (a scale per channel, one zero point) is requantized by one per-channel
  RESCALE and clamped by relu without `max`. Any other operator between
  quantized tensors dequantizes its inputs, computes in reals (road 1 or 2) and the next
  entry requantizes (round half to even, clamp), so every graph imports with the
  definitions' meaning. Quantized graph inputs/outputs are integer arguments/results (as
  LiteRT's int8 models); a quantized `real` variable whose data file holds integers (what
  Khronos' converter writes) is taken as its storage values, real data is quantized at
  import. `import_nnef(..., fake_quant=True)` / `tosa-translate --nnef-fake-quant` keep the
  draft's fake quantization (real in and out, the quant module's formulas), which is also
  what `lower_all` compiles. Entries of a graph or a user operator apply where the tensor is
  defined (inputs and variables on entry); an entry `label.tensor` (`a.b.tensor` through
  nested invocations) names a tensor inside the invocation with that explicit label, which is
  then expanded from its @compose whatever its mapping, the entry applied where its
  definition defines the tensor (evaluated with the writing block's imports and attributes).
  Quantized values enter `tosa.cond_if` / `tosa.while_loop` regions dequantized and leave
  them as reals (the results' entries requantize them): TOSA's regions need one type per
  carried value while the two branches, or the loop's entry and its iterations, may
  quantize it differently, and the results' declared types are real. u8 values only move (reshapes, transposes,
  identities: TFLite's uint8 boundaries) and are requantized to or from i8 by one RESCALE;
  elsewhere they compute in reals. u16 or several-zero-point tensors stay fake quantized
  (a zero point is one operand).
- **Models**: the face detector (TFLite) and `small_cnn` (ONNX, `make_onnx_model.py`) converted
  by Khronos' converters (`convert_models.py`, run by hand), imported as TOSA only and
  checked against LiteRT's / onnxruntime's outputs (`test_nnef_models.py`). Quantized:
  35 of the TFLite tests' int8 models (`net_mobilenet.int8`: conv, depthwise conv, relu6,
  residual add, average pool, fully connected with per-channel weights; single operators:
  conv, depthwise conv, fully connected, add, sub, mul, maximum, relu, pools, concatenation,
  reshapes, transpose, slice, tile, softmax, logistic, tanh, exp, log (with abs and add),
  sqrt, rsqrt, abs, minimum, pad, mirror pad, mean, sum, reduce max, leaky relu, nearest and
  bilinear resizes) and 10 of its 16x8 models (fully
  connected, add, mean, leaky relu, pad, max pool, nearest resize, logistic, tanh, softmax)
  converted the same way;
  Khronos' v2.0 writer does not print quantization and its TFLite reader drops
  `quantized_dimension`, so `convert_models.py` prints the converter's own parameters as the
  graph's `@quantize` block (the channel axis from the scales' count). All import as
  integers only and their outputs equal LiteRT's builtin kernels bit for bit
  (`test_nnef_quantized.py`; the TABLE functions and leaky relu on every int8 level,
  `test_nnef_quantized_forms.py`), except where TFLite's kernel computes differently from
  the integer TOSA form (counts over four seeded inputs): `resize_bilinear.int8` (61 elements
  by 1 LSB: TFLite weighs with 10-bit fixed-point fractions, RESIZE exactly), `sum.int8` (7
  by 1: TFLite's sum derives its multiplier otherwise than compute_scale_32), `sqrt.int8` (25
  by 1: TFLite's int8 SQRT is its own fixed point, the TABLE the rounded square root),
  `fully_connected.int16x8` (1 element by 1: the i48 RESCALE's 16-bit multiplier),
  `logistic.int16x8` (32 by 1), `tanh.int16x8` (44 by up to 2), `softmax.int16x8` (24 by up
  to 2): TFLite's int16 kernels are fixed-point polynomials / their own LUTs, ours TOSA's
  interpolated TABLE (the same differences as the TFLite frontend, docs/tflite.md);
  `add.uint8io` and `conv_2d.uint8io` take and give uint8 arrays through
  tosa-run; LiteRT's default XNNPACK delegate requantizes in float and differs from its
  own builtin kernels by up to 3 LSB on a few elements for some inputs (docs/tflite.md).
  (`relu6.int8` is not among them: Khronos' converter writes a `relu6` operator calling
  `nn.relu` without `import nn;`, which the importer reports.)
- **Export** TOSA -> NNEF with layout tracking (the transposes around conv/pool vanish; a
  channels-last input keeps its layout: `data_format="NXC"`, NXC/CXN filters, pool `axes=[1, 2]`),
  graph inputs keep their names, variables are declared in the order of their constants, so
  NNEF -> TOSA -> NNEF -> TOSA is a fixpoint; data files in the NNEF 1.x binary layout that
  NNEF 2 keeps (byte-identical to Khronos' writer); Khronos' `skriptnd` reader reads our export.
  TRANSPOSE_CONV2D -> `nn.deconv` (`padding` = minus `out_pad`, the filter [OC, KH, KW, IC]
  as NNEF's [IC, OC, KH, KW]); RESIZE -> `image.nearest_resize` / `image.linear_resize`
  (`antialias=false`) with the first coordinate transform (and rounding method) whose
  scale/offset/border, as the importer computes them, equal RESIZE's (the importer's NHWC view,
  other axes folded into N, is written as the resize of its source over the last axes; a
  TFLite-style NHWC input with C > 1 as NCHW axes 2, 3); TILE -> `layout.tile`; a zero `[1]`
  convolution bias (the importer's when none is given) is left out (NNEF wants one per
  channel). `small_cnn` (Khronos' conversion of ONNX: ConvTranspose, nearest and linear
  Resize, ...) round-trips to a fixpoint equal to onnxruntime's outputs
  (`test_nnef_export_deconv_resize.py`, with deconvolution paddings against numpy written from
  the definition). AVG_POOL2D divides by the window's elements inside the input: the
  definition's `ignore_border=true`, its default, which the export writes (an
  `ignore_border=false` pool imports as an explicit zero PAD and exports as `layout.pad`; both
  checked against numpy). The importer's multi-operation forms are recognised before the
  export writes anything (`export_layout.py`, shared by the float and the integer export) and
  written back as the one operator they came from: the slices, REVERSEs or TILEs and CONCATs
  of a REFLECT / SYMMETRIC / REPLICATE padding -> `layout.pad{method}` (consecutive axes
  merged), GATHER of the [N, K, C] view with the index TILEd over N -> `layout.gather{axis}`,
  per-group TRANSPOSE_CONV2Ds of slices + CONCAT and the zero-stuffed dilated filter ->
  `nn.deconv{groups, dilation}` (TOSA1 == TOSA2 for each, checked against numpy, onnxruntime
  ConvTranspose with group/dilations and the reference model, `test_nnef_export_layout.py`).
  TOSA in other forms: REVERSE -> `layout.slice{begin=[s-1], end=[-1], stride=[-1]}` (the
  draft's slice reads input[begin + stride * i] for i < (end - begin) \\ stride; re-imported as
  the same REVERSE); GATHER with per-batch indices (output[n, w, c] = values[n, indices[n, w],
  c]) -> `layout.gather{axis=0}` of the values' [N*K, C] view at indices + n*K (a constant
  [N, 1] column of offsets; re-imported as GATHER of that view, a fixpoint from the second
  round trip); a float RESIZE is matched by what it samples (d/n, offset/n, border/n), so
  unreduced parameters (the TFLite legalization's n = 2 * OH) export as the importer's
  reduced ones. **Run-time extents**: a `?` dim of a graph input is written
  `~|2147483647` (2.6.1 wants an upper bound on the main graph's inputs; TOSA keeps none, so
  the bound is the largest extent TOSA allows, level 8K's tensor_size_t `2^31 - 1`: it
  promises nothing TOSA does not; the importer reads it as a `?` again, Khronos' `skriptnd`
  as a placeholder with that `max_value`), an output's `~` (derived, 2.6.1), a reshape keeps
  TOSA's `-1`. NNEF(dynamic) -> TOSA -> NNEF -> TOSA is a fixpoint on `test_nnef_dynamic.py`'s
  documents (re-imported outputs against the same numpy at several shapes), on `dyn_batch`
  (against onnxruntime at batch 1 and 3) and on the quantized mobilenet with a `?` batch
  (against LiteRT) (`test_nnef_export_dynamic.py`).
- **Every mapped operator round-trips** (issue 16): each standard-library operator with a TOSA
  mapping (`nnef_cases.py`'s one graph per operator) gives NNEF -> TOSA -> NNEF -> TOSA equal to
  the first import after one round, or after two (`TWO_ROUNDS` in
  `test_nnef_export_every_mapping.py`, each with its reason: a model literal imports as a scalar
  constant RESHAPEd to the rank and exports as a variable of that rank; another order of
  operations; another form written, below), with the same outputs on random inputs. CAST,
  SCATTER and ARGMAX (`export_cast.py`): the importer's forms are written back as the operator
  they came from, CAST(SELECT(0 > x, CEIL(x), FLOOR(x))) -> `layout.cast<int>` (truncation),
  LOGICAL_NOT(EQUAL(x, 0)) -> `layout.cast<bool>`, SELECT(2^23 > ABS(x), CAST(CAST(x)), x) ->
  `math.round`, the transposed [N, K, 1] views around one SCATTER -> `layout.scatter{axis}`;
  ARGMAX -> `math.argmax{axis, squeeze=true}` (TOSA drops the axis). Another CAST is written by
  what TOSA 1.0.1's CAST computes: int -> real, bool -> int/real `layout.cast`; -> bool (`!= 0`)
  `layout.cast<bool>`; real -> int rounds to nearest, ties to even, and saturates at the int32
  range, where the definition's `int(x)` truncates and is undefined out of range: `math.round`,
  clamped to [-2^31, 2^31 - 128] (the largest f32 below 2^31), `layout.cast<int>`, and
  `2^31 - 1` selected where the rounded value is 2^31 or more (NaN: unpredictable in TOSA, so
  any result). CASTs to or from i8/i16 outside the quantized patterns are refused (those are
  quantized storage, not NNEF integers). A general SCATTER [N, K, C] -> `layout.scatter{axis=1}`
  with the [N, W] index reshaped to [N, W, 1] and tiled over C (TOSA REQUIREs unique indices;
  with them the definition's last-write-wins `:=` computes the same). All checked against the
  spec's pseudocode in numpy (ties, saturation, `inf`). A CLAMP outside `nn.relu`'s forms is
  `math.min` / `math.max` with its bounds as variables of the operand's rank (a literal would
  re-import as a RESHAPEd scalar and need a third round).
- **Export of integer (quantized) TOSA** (`export_quant.py`): the inverse of `to_tosa/integer.py`.
  Each integer tensor becomes a `real` NNEF tensor with a `quant.zero_point_linear_quantize`
  entry (i8, u8 held as i8 bits: `signed=false`, i16, i32 biases; per-channel scales for
  weights and biases, `channel_axis` their output-channel axis), quantized weights an integer
  data file under a `real` declaration (as Khronos' converter writes them). Recognised patterns:
  CONV2D / DEPTHWISE_CONV2D + RESCALE -> `nn.conv`, MATMUL (+ bias) + RESCALE -> `nn.linear`
  (16x8 too: the i8 weights CAST to i16, the i48 product RESCALEd with a 16-bit multiplier,
  scale32=false SINGLE_ROUND, as the importer writes it);
  both sides RESCALEd to i32 + ADD/SUB/MUL + RESCALE -> `math.add`/`sub`/`mul`; CAST +
  MAXIMUM/MINIMUM + CAST -> `math.max`/`min`; a clamp from the zero point -> `nn.relu{max}`;
  a RESCALE between 8-bit values (also u8 <-> i8) -> `math.iden` into the new parameters;
  pools, reshapes, slices, reverses (`layout.slice` with stride -1), concatenation, identity, tile, REDUCE_MAX/MIN, NEAREST RESIZE and
  CONSTANT PAD (whose value must be the input's zero point: the importer pads a quantized
  tensor with its zero point) on stored values (`to_tosa/integer_layout.py`'s forms);
  RESCALE to i32 + REDUCE_SUM per axis (or ABS) + RESCALE by r -> `math.sum_reduce`
  (`math.abs`) with `s_out = s_x / r`; GREATER_EQUAL of the widened value and 0 selecting
  between its RESCALEs by r_pos and r_neg + RESCALE by 1 -> `nn.relu{alpha = r_neg / r_pos}`
  with `s_out = s_x / r_pos`; BILINEAR RESIZE to i32 + RESCALE by 1 / (scale_y_n * scale_x_n)
  -> `image.linear_resize` (one scale and zero point); per padded axis (in increasing order)
  CONCAT(REVERSE(SLICE x), x, REVERSE(SLICE x)) with the slices at 1 / s-1-a (0 / s-a), or
  CONCAT(TILE(SLICE x), x, TILE(SLICE x)) of the edge elements -> one
  `layout.pad{method='REFLECT'}` (`'SYMMETRIC'`, `'REPLICATE'`) over those axes, one scale and zero
  point (the zero point of a tensor only padded so appears in no operation: written 0); the
  int8 softmax along one axis of any rank (the axis moved last by a TRANSPOSE, the rows
  flattened by a RESHAPE; CAST, REDUCE_MAX, SUB, GATHER of the Q16 exp
  table, REDUCE_SUM, MUL by K, INTDIV, RESCALE by 1; the RESHAPE and TRANSPOSE back) -> one
  `nn.softmax{axes=[axis]}` with the output scale 1/K and the input scale solved from the table (`export_tables.py`: each entry
  round(2^16 exp(-s d)) bounds s to an interval, the midpoint of their intersection is
  written, checked to rebuild the identical table, else a one-line error); the 16x8 softmax
  (x - max RESCALEd by s_in / (10/65535), + 32767, the fixed exp TABLE, RESCALE by 1/128, the
  same division) likewise, its input scale read from that RESCALE; a TABLE -> the
  function of one value it tables (`export_tables.table_function`: the table is TFLite's LUT
  `table_contents(f, s_in, zp_in, s_out, zp_out)`, or for 16 bits TOSA's interpolated
  `table_contents_16` (513 entries, each biased by half its segment's midpoint error; i32 out
  and the RESCALE by 1/128 after it), the importer's own builders; f is searched among the importer's
  functions (sigmoid, tanh, exp, log, sqrt, rsqrt, rcp, log2, sin, cos, erf, silu, softplus,
  gelu, elu), the zero point the graph leaves free over the storage range (16 bits: 0, TFLite's),
  s_in by least squares on log-spaced scales (16 bits: the best fits polished by a
  golden-section search, so the output zero point is known to a unit) then zoomed where the interval of 1/s_out the table allows is
  least empty, log's s_in through its intercept, a bounded number of zooms (a table no
  function builds is refused after about 4 s at worst); the answer must rebuild the identical table,
  and the written line checks it again with the solved scales of the graph, else a one-line
  error). sigmoid(x) = (1 + tanh(x/2)) / 2 makes a sigmoid table a tanh table at other scales
  and zero points: sigmoid is preferred, for 16 bits after the output zero point nearest 0, so
  the logistic models (int8 and 16x8) come back as `nn.sigmoid` and the 16x8 tanh as
  `math.tanh` (as sigmoid its output zero point would be -32768); TFLite's int8 tanh, output
  (1/128, 0), is the very table of a sigmoid at (2 s_in, 1/256, -128) and comes back as
  `nn.sigmoid`: the same integers, other reals (the importer's mean has the same integer form with r divided by the count,
  so a mean comes back as a sum whose output scale is count times larger: the same integers);
  and the mixed path's
  dequantization (cast, subtract the zero point, cast, multiply by the scale: the tensor
  itself) and quantization (multiply by 1/scale, cast, add the zero point, clamp, cast: an
  entry on the real tensor), u8 too (dequantized through an unsigned RESCALE to i16,
  quantized through [0, 255], -128 and an unsigned RESCALE). **Scales**: integer TOSA holds only ratios of scales (each
  RESCALE's `multiplier * 2^-shift`), so the export solves them as a system of ratios over
  the NNEF tensors (a weighted union-find): a requantization by r gives `s_y = s_x / r`; an
  add/sub (the importer's 2^20 headroom, the larger side's factor exactly 2^19) gives
  `s_b = s_a * r_b / r_a` and `s_o = s_a / (r_a * r_o)`; max/min, pools and moves keep the
  scale; a mul gives `s_o = s_a * s_b / r`; weights take what the conv leaves free:
  `s_w[c] = r[c] * s_o / s_x`, biases `s_x * s_w[c]`. The f32 constants of the mixed path fix
  their group's scale (the candidate that reproduces every constant of the group); every other
  group's one free scale is 1.0 (integer TOSA cannot tell it: the exported model has the same
  integer semantics, not necessarily the original real-valued scales). The re-import's
  `compute_scale_32` of these ratios is the exact dyadic `multiplier * 2^-shift` up to a few
  double ulps, far from a rounding tie of the 31-bit multiplier, so the RESCALEs come back
  identical. Where the rule could fail: a cycle of ratios (one tensor reached by two chains of
  rescales, e.g. `concat([x, requantized x])` or `mul(x, x)`) is consistent only up to each
  multiplier's 2^-31 rounding; the first chain wins and a cycle inconsistent beyond 1e-6 is an
  error. Tested (`test_nnef_export_quant.py`): the quantized models (`*.int8`, `*.int16x8`,
  `*.uint8io`) outside its NOT_EXPORTED list (all 47, e.g. pad, mirror pad, 16x8 fully connected, softmax, int8 and 16x8 logistic/tanh, int8 exp/log/sqrt/rsqrt, tile, reduce_max, sum, mean, abs, leaky relu, nearest
  and bilinear resize in int8 and 16x8) export, re-import with the same RESCALE parameters and the same
  TOSA, the second export is the same text (a fixpoint), and the outputs equal LiteRT's
  builtin kernels bit for bit (the 16x8 TABLEs' known LSBs aside, as for the import); an
  integer softmax on axis 1 of rank 3 (and others, 8 and 16 bits) round-trips as one
  `nn.softmax` and equals the draft's softmax and quantization in numpy. Integer TOSA from the TFLite
  frontend exports where it uses these patterns (the TFLite tests' int8/uint8io models,
  e.g. dilated conv, prelu, split, depth_to_space, mobilenet uint8io, gelu's TABLE: re-imported outputs equal
  LiteRT's); so does the importer's TOSA after `cse,canonicalize` (shared constants, a weight
  shared by two convolutions written once per use, folded zero-point-0 subtractions, merged
  reshapes: the re-import computes the same); plain i32 arithmetic is exported as NNEF `int`
  operators. A zero point outside its storage (or non-zero for wider than 8 bits) is refused:
  the importer would keep that tensor in reals. So is a tensor one RESCALE writes unsigned
  and another reads signed (or the reverse): its one NNEF quantization cannot say both.
  Anything else (a TABLE no function's,
  NEGATE/GATHER/TRANSPOSE_CONV2D, a RESCALE feeding another operator,
  SINGLE_ROUND (but from i48), per-channel activations, a pattern's value through a transpose or reshape the
  importer does not write, a real graph input quantized in the graph or a dequantized graph
  result: as NNEF tensors with an entry they would re-import as integer arguments/results) is
  one line naming the function, the operation's
  index and name, e.g. `@main, operation 7: 'tosa.negate': on element type i8 is not a quantized
  pattern the exporter knows ...`. Khronos' `skriptnd` (v2.0 build) parses our `@quantize`
  blocks, but its lookup of quantized tensors fails for every model, Khronos' own converter
  output included (it looks bare names up among tensors it renamed `main.main.<name>`,
  composer.h `eval_quantization`): the test checks those lookups are its only diagnostics and
  that the graph without the block is read.

## Standard-library operators

"both roads agree" = `tests/frontends/nnef/test_nnef_roads.py` runs random inputs through the
TOSA mapping and through the definition's formulas (and road 1 is checked against numpy in
`test_nnef_to_tosa.py`); integers and bools exactly, reals within 1e-4 relative. "composite"
operators are imported through their `@compose`; "composite of mappings" ones import as TOSA
only, and are compared with the composition of their parts' formulas. "road 1 vs numpy (road 2
gap)" = road 2 does not compile the formulas (a located error, the reason in
`to_linalg/__init__.py`'s KNOWN_GAPS), so `test_nnef_road1_refs.py` checks the mapping against
numpy written from the formulas; "road 1 vs numpy (no formulas)" = the draft gives the
operator no formulas (image.cubic_resize), the same file checks the mapping against numpy;
"hand-written lowering" = the draft gives no formulas and road 2 takes a lowering written
for it (`to_linalg/intrinsics.py`).
A mapping that declines an instance (an attribute value TOSA cannot express, e.g. a slice
with stride 2) leaves it to the composite's expansion or to road 2, which the default import
takes for every operator without a TOSA mapping; operators with neither give a located
error ("Not done" lists them).

"""

OUTRO = """
## Not done

- Road 2 does not compile a conditional packed assignment to a pack whose items differ in
  shape (it is compiled as one stacked tensor): a located error.
- Extents known only at run time (graph inputs' `s|n`, data-dependent `~|k`), each a
  located error naming the reason: `layout.slice` of a tensor with a `?` (TOSA 1.0.1's SLICE
  start and size are compile-time shapes, so every axis' size must be known; the same holds
  for the slices of REFLECT/SYMMETRIC/REPLICATE padding and of `_crop`), a reshape to more
  than one `?` (RESHAPE resolves one `-1`), a run-time extent used as a tensor value
  (`math.mean_reduce` over a `?` axis divides by `real(s[axes] * ..)`, a run-time shape
  expression TOSA has no operator for), a `?:` or a range over one, `nn.conv`/pools with a
  `?` spatial extent at stride > 1, `layout.gather` with a `?` before its `axis` (the
  index is tiled over those axes by TILE's compile-time multiples).
  Road 2 compiles formulas over run-time extents only where the loop ranges come from the
  operands: conditions or `|..|` guards comparing an index with a run-time extent
  (layout.pad), per-item offsets at run-time extents (layout.concat), a data-dependent
  output beside a `?` input extent are located errors. Natively, a concat along a `?` that
  is not the outermost dim is refused by the bufferization (a view with run-time strides,
  docs/lowering.md); the interpreter runs it. The upper bounds are read and checked but not used (nothing is preallocated at
  them).
- Road 1 has no mapping for `gather_nd`/`scatter_nd`, linear grid sampling, 1-d/3-d
  deconvolution, a grouped one with a run-time batch (road 2 runs them), RESIZE parameters beyond its ERROR_IF ranges (e.g. CEIL
  rounding needing a border >= scale_n); TOSA SCATTER requires distinct indices where the
  definition's `:=` lets the last one win.
- The operators without formulas (`to_linalg/intrinsics.py`) have no road-1 (TOSA) form:
  TOSA has no sort, no data-dependent extents, no windows bounded by tensor values; they
  import as scf loops. `algo.top_k`'s `k` and `nonmax_suppress`'s `max_outputs_per_class`
  are compile-time attributes (Khronos' v2.0 library declares them `dynamic`, read from a
  tensor at run time: not supported); `_cubic_grid_sample` with more than 3 spatial axes is
  a located error (4^d taps are unrolled).
- Integer quantization: operators without an integer form compute in reals between
  quantized tensors (dequantize, the float mapping, requantize): the binary and comparison
  operators besides add/sub/mul/max/min, `math.neg`/`floor`/`ceil`/`round`/`sign`/`sqr`,
  `layout.pad` with a `value` input, gathers/scatters, the normalizations and
  pools other than max/avg; and, within the ones listed above, parameters the integer forms
  do not take: a bias of 16-bit activations (an i48 operand: MATMUL has none, TOSA ADD no
  i48), 16-bit weights, softmax over several axes or with an output scale that is not 1/K
  (or, 16 bits, a zero point), relu{max} or the functions, pools, resizes and sums of
  per-channel values (one clamp bound / one TABLE per tensor), moving per-channel values
  (reshapes and transposes would move their channel axis), 32-bit activations except as
  biases. The TFLite models of 16x8 conv/depthwise conv do not convert (Khronos' converter
  rejects their int64 biases), so 16-bit CONV2D is tested on a graph of ours against
  numpy. `label.tensor` entries take explicit labels only (the draft's implicit labels are
  not defined further); an entry naming a tensor inside an operator without @compose is a
  located error.
- Export of integer graphs: only the patterns above (what `to_tosa/integer.py` and the TFLite
  legalization write for them); not per-channel (de)quantization constants of the mixed path,
  32-bit quantized activations (an i32 RESCALE result not read by add/sub/mul), 16-bit convolutions, RESCALEs other than
  scale32 DOUBLE_ROUND (from i48: scale32=false SINGLE_ROUND), cond_if/while_loop regions; nor integer operators the importer has
  no integer form for: one-line errors. Of the importer's integer forms
  (`to_tosa/integer_functions.py`, `integer_layout.py`) these are not exported yet (a one-line
  error naming the operation; no quantized test model is in `NOT_EXPORTED` now): TABLEs
  of a function with attributes (e.g. elu's alpha other than 1: not searched), 16-bit TABLEs
  of sqrt and log (the large bias of their first segments misleads the search: refused) or
  with an input zero point neither 0 nor fixed by the graph (not searched), `nn.prelu`'s form (not
  tried: no quantized test model has one). The recovered scales
  are a valid choice, not the original ones (see above).
- Export, float: a GATHER in the general form with a run-time extent (the [N*K, C] view and
  the offsets are compile-time values; the importer's own form with a `?` exports), a REVERSE
  along a run-time extent (the slice's `begin` is a compile-time value): one-line errors. A
  dilated deconvolution's zero-stuffed filter computes the definition for finite inputs only
  (an infinite or NaN input times a zero tap gives NaN where the definition adds no term).
  RESIZE parameters with no NNEF form (one-line errors): per resized axis (extent I -> O)
  RESIZE samples at (o * d + offset) / n; `image.nearest_resize` / `image.linear_resize`
  (draft 4.5.2) sample at o * scale + offset with scale = I/O (SYMMETRIC, ASYMMETRIC) or
  (I - 1)/(O - 1) (ALIGNED) and offset = scale/2 - 1/2 (SYMMETRIC) or 0, which the nearest
  one's rounding method shifts by 0, -1/n, -1/2 or 1/2 - 1/n (ROUND_PREFER_CEIL,
  ROUND_PREFER_FLOOR, FLOOR, CEIL as floor(x + 1/2) of a shifted x, to_tosa/image.py). So a
  RESIZE whose d/n is neither of the two scales (e.g. ONNX `scales` 2.5 on an extent of 3:
  O = 7 but d/n = 2/5, not 3/7 or 2/6), whose offset/n is none of those offsets (a crop or
  shift of the sampling grid), or that shifts an axis it does not resize (d = n, offset != 0:
  the resizes keep such an axis as it is) has none; the integer BILINEAR also needs the
  importer's n exactly (its i32/i48 result is the value times n_y * n_x). The up/downsample
  operators (4.5.1) are integer-factor cases of the same transforms; `grid_sample` (4.5.4)
  samples any grid but reads it as a tensor, which imports as index arithmetic and a GATHER,
  not a RESIZE (so the export does not write it). Run-time extents: the upper bound
  written is TOSA's maximum, not the original document's (TOSA does not keep it), and two
  inputs sharing a symbol (`x: real[n|8]; y: real[n]`) come back with one `~|2147483647`
  each (TOSA's `?` does not say they agree). Nothing TOSA defines could keep the symbol: the
  spec's shapes are extents only (`shape_t`, `tensor_size_t`; a run-time extent has no name),
  MLIR's `tensor<?x3xf32>` has no dim identity, and the TOSA flatbuffer's `TosaTensor` holds
  `name`, `shape` (a `-1`), `type` and data, nothing per dim. Only a discardable attribute
  of our own on the function's arguments (as the flatbuffer reader names tensors with
  `tosa.tensor_name`) could carry it, through MLIR text and bytecode but not the flatbuffer,
  and never on TOSA from another producer; neither the importer writes nor the exporter
  reads one.
- `@compose`: scan outputs of data-dependent loops (a `while` condition or a tensor trip
  count, with a body yielding more values than loop variables): a located error, by the
  draft's semantics rather than as a gap: scan outputs are packs (2.10.1), whose length is a
  compile-time value (2.3), and this one would be the run-time trip count (a tensor with a
  `?` extent stacked over the steps would be another type than the draft's pack). Scan
  inputs in such loops are unrolled (one `tosa.cond_if` per pack item, not a
  `tosa.while_loop`: TOSA 1.0.1 SLICE takes compile-time starts, so a loop indexing the
  packs with its counter would need GATHER over a stacked copy): code size grows with the
  pack length. A sub-graph's inputs must have shapes (the draft lets sub-graphs invoked by
  control flow omit them).

## Tools

`tosa-translate --import-nnef MODEL` (a `.sknd` document or a model folder; `--nnef-lower-all`
compiles every operator from its formulas, `--nnef-fake-quant` keeps @quantize as fake
quantization in reals, `--nnef-input-shape NAME=DxD..` fixes an input's run-time extents), `tosa-translate --export-nnef MODEL -o DIR`;
`tosa-opt` / `tosa-run` read a SkriptND document by content (data files next to it). Python:
`import_nnef`, `export_nnef_folder`, `looks_like_nnef` (`tosa_xdsl/frontends/nnef/__init__.py`).
"""


def _case_tables() -> dict:
    """The both-roads test's tables (CASES, COMPOSITES, ROAD2_PENDING, ROAD2_TESTS), taken from
    running tests/frontends/nnef/nnef_cases.py (plain data, no imports; the package never
    imports tests/). Run rather than read as text: CASES is built with dict unpacking,
    comprehensions and update() calls, which a reading of literal keys misses."""
    import runpy

    path = TESTS / "nnef_cases.py"
    return runpy.run_path(str(path)) if path.exists() else {}


def table() -> str:
    tables = _case_tables()
    cases, composites = set(tables.get("CASES", {})), set(tables.get("COMPOSITES", {}))
    oracles = tables.get("ROAD2_TESTS", {})
    from tosa_xdsl.frontends.nnef.to_linalg import KNOWN_GAPS
    from tosa_xdsl.frontends.nnef.to_linalg.intrinsics import INTRINSICS
    not_compiled = set(KNOWN_GAPS) | set(tables.get("ROAD2_PENDING", {}))
    rows = ["| operator | TOSA mapping (road 1) | formulas (road 2) | tested |", "|---|---|---|---|"]
    for m in MODULES:
        doc = parse((HERE / f"{m}.sknd").read_text(), f"{m}.sknd")
        for op in doc.operators:
            name = f"{m}.{op.name}"
            f = MAPPINGS.get(name)
            tosa = getattr(f, "how", "") if f else "composite of mappings" if name in composites else "—"
            if not (f or op.lowerings or op.compose or name in INTRINSICS):
                tosa = "none: a located error at the invocation"
            if name in INTRINSICS:
                road2 = "no formulas: hand-written lowering (`to_linalg/intrinsics.py`)"
            elif op.lowerings:
                road2 = "not compiled yet" if name in not_compiled else "@lower"
            elif op.compose:
                road2 = "composite (@compose)"
            else:
                road2 = "no formulas"
            if name in cases and not (op.lowerings or op.compose):
                tested = "road 1 vs numpy (no formulas)"
            elif name in cases:
                tested = "road 1 vs numpy (road 2 gap)" if name in not_compiled else "both roads agree"
            elif name in composites:
                tested = "both roads agree"
            elif name in ("image.resize", "image.rescale"):
                tested = "road 1 vs numpy (composite)"
            else:
                tested = "parsed"
            if name in oracles:
                tested = oracles[name] if tested == "parsed" else f"{tested}; {oracles[name]}"
            rows.append(f"| `{name}` | {tosa} | {road2} | {tested} |")
    return "\n".join(rows) + "\n"


def document() -> str:
    return INTRO + table() + OUTRO


if __name__ == "__main__":
    sys.stdout.write(document())
