"""Dialects: `tosa` (ours, every TOSA 1.0.1 operator), MLIR's `quant` types (`quant.py`), and
the ops of upstream dialects that xDSL 0.74 lacks and our lowering emits (`linalg_ext`,
`ml_program_ext`, `llvm_ext`). A frontend's own dialect lives with its frontend (`tfl` in
tosa_xdsl/frontends/tflite/)."""
