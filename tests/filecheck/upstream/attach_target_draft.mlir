// A 1.1.draft target may name the draft's extensions (upstream's RUN lines do: int64, shape,
// mxfp_conv, ...); they are recorded and enable nothing. A 1.0 target may not.
// RUN: tosa-opt %s -tosa-attach-target="specification_version=1.1.draft profiles=pro_int,pro_fp extensions=int16,int64,shape,mxfp_conv" -tosa-validate="strict-op-spec-alignment" | filecheck %s
// RUN: not tosa-opt %s -tosa-attach-target="specification_version=1.0 profiles=pro_int extensions=int64" 2>&1 | filecheck %s --check-prefix=V10

// CHECK: #tosa.target_env<specification_version = "1.1.draft", level = "8k", profiles = [pro_int, pro_fp], extensions = [int16, int64, shape, mxfp_conv]>
// V10: error: tosa-attach-target: unknown TOSA extension 'int64'
func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = tosa.add %a, %a : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
