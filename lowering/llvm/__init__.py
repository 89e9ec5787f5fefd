"""convert-to-llvm, in parts: `ops` (llvm ops xDSL lacks, backend hook), `emitter` (types,
the per-function emitter, bf16/fp8 emulation), `arith_math`, `memref`, `control` (func, cf);
the pass itself is tosa_xdsl.lowering.to_llvm.ConvertToLLVMPass."""
