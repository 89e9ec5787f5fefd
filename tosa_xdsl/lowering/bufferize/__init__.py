"""`one-shot-bufferize`: the linalg-on-tensors stage -> buffers (memrefs), destination-passing.

What it does (docs/bufferization.md has the full account and the calling convention):

* every statically shaped tensor value gets a buffer; each function is rebuilt op by op on
  memrefs (old tensor value -> new memref value), then its old body is dropped;
* an op writes its destination's own buffer when the in-place analysis proves that safe,
  otherwise a new `memref.alloc` (plus a copy of the old contents only when it reads them);
* per-op rules: linalg (destination passing), tensor (views, slices, pad, concat, ...),
  arith.constant (memref globals), scf.if/for/while (buffers allocated before the op; with
  dynamic shapes memref results / iter_args owned by the receiving block, as upstream),
  func.return/call (out-params), ml_program globals;
* every owned buffer not handed over gets a `memref.dealloc` after its last use, in its block.

Dynamic dims where the rules handle them (converter.DYNAMIC_OPS); any op without a bufferization rule stops the pass with a located
diagnostic naming it.

Modules:
  one_shot_bufferize   the pass: converts, installs the new functions, adds globals
  converter            rebuilds functions op by op; emission, destinations, dispatch to rules
  in_place             buffer roots and the in-place (later-use) analysis
  linalg_rules         linalg ops: `outs` become the buffers written
  tensor_rules         tensor.* ops: views, slices, pad, reshapes, concat, ...
  constant_rules       dense arith.constant -> memref.global + get_global
  scf_rules            scf.if / scf.for / scf.while
  function_boundaries  signatures, func.return and func.call (out-param calling convention)
  ml_program_globals   ml_program.global / global_load / global_store
  deallocation         one memref.dealloc per owned buffer not handed over
  common               pass name, diagnostics, tensor -> memref types
"""
