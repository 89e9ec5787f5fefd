// tosa-attach-target writes #tosa.target_env (upstream spelling: options separated by spaces);
// tosa-validate reads it, and its older inline options override it.
// RUN: tosa-opt %s -p 'tosa-attach-target{level=none profiles=pro_int,pro_fp extensions=int16,doubleround}' | filecheck %s --check-prefix=ENV
// RUN: tosa-opt %s -p 'tosa-attach-target{profiles=pro_int extensions=int16},tosa-validate' -o /dev/null
// RUN: not tosa-opt %s -p 'tosa-attach-target{profiles=pro_fp extensions=int16}' 2>&1 | filecheck %s --check-prefix=COOP
// RUN: not tosa-opt %s -p 'tosa-attach-target{profiles=pro_int extensions=int16},tosa-validate{extension=doubleround}' -o /dev/null 2>&1 | filecheck %s --check-prefix=OVERRIDE
// RUN: tosa-opt %s -p 'tosa-validate{profile=pro_int extension=int16 level=8k}' -o /dev/null
// RUN: not tosa-opt %s -p tosa-validate -o /dev/null 2>&1 | filecheck %s --check-prefix=DEFAULT

// ENV: tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_int, pro_fp], extensions = [int16, doubleround]>
// COOP: error: tosa-attach-target: use of extension 'int16' requires any of profiles: [pro_int] to be enabled in the target
// OVERRIDE: error: 'tosa.conv2d' op type combination (i16, i8, i48, i48) requires extension int16 (enabled: pro_int, doubleround)
// DEFAULT: error: 'tosa.conv2d' op type combination (i16, i8, i48, i48) requires extension int16 (enabled: pro_int, pro_fp)

func.func @main(%arg0: tensor<1x16x16x4xi16>, %w: tensor<8x1x1x4xi8>, %b: tensor<8xi48>) -> tensor<1x16x16x8xi48> {
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi16>} : () -> tensor<1xi16>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.conv2d %arg0, %w, %b, %izp, %wzp {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x4xi16>, tensor<8x1x1x4xi8>, tensor<8xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x16x16x8xi48>
  return %0 : tensor<1x16x16x8xi48>
}
