// A blob that does not fit its type is a located verifier error; a blob that is missing is an
// error where the value is used (MLIR accepts elided resources).
// RUN: tosa-opt %s --split-input-file --verify-diagnostics -o /dev/null

func.func @main() -> tensor<3xf32> {
  // expected-error @+1 {{'tosa.const' op dense_resource<short> blob holds 8 bytes but tensor<3xf32> needs 12 (blob too short)}}
  %0 = "tosa.const"() <{values = dense_resource<short> : tensor<3xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
{-# dialect_resources: { builtin: { short: "0x040000000000803F00000040" } } #-}
