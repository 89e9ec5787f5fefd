// Round trip of spec chapter 2.3 Tensor Operators: ARGMAX AVG_POOL2D CONV2D CONV3D DEPTHWISE_CONV2D FFT2D MATMUL MAX_POOL2D RFFT2D TRANSPOSE_CONV2D
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @argmax(%arg0: tensor<13x21x3xf32>) -> tensor<13x3xi32> {
  %0 = tosa.argmax %arg0 axis(1) : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
  return %0 : tensor<13x3xi32>
}

// KW-LABEL: func.func @argmax(
// KW-NEXT: %0 = tosa.argmax %arg0 axis(1) : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @argmax(
// AD-NEXT: %0 = tosa.argmax %arg0 {axis = 1 : i32} : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "argmax"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.argmax"(%arg0) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<13x21x3xf32>) -> tensor<13x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @argmax_nan_ignore(%arg0: tensor<13x21x3xbf16>) -> tensor<21x3xi32> {
  %0 = tosa.argmax %arg0 axis(0) nan_mode<IGNORE> : (tensor<13x21x3xbf16>) -> tensor<21x3xi32>
  return %0 : tensor<21x3xi32>
}

// KW-LABEL: func.func @argmax_nan_ignore(
// KW-NEXT: %0 = tosa.argmax %arg0 axis(0) nan_mode<IGNORE> : (tensor<13x21x3xbf16>) -> tensor<21x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<21x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @argmax_nan_ignore(
// AD-NEXT: %0 = tosa.argmax %arg0 {axis = 0 : i32, nan_mode = IGNORE} : (tensor<13x21x3xbf16>) -> tensor<21x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<21x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "argmax_nan_ignore"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xbf16>):
// GEN-NEXT: %0 = "tosa.argmax"(%arg0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<13x21x3xbf16>) -> tensor<21x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<21x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @avg_pool2d(%arg0: tensor<1x7x7x9xf32>) -> tensor<1x7x7x9xf32> {
  %0 = tosa.const values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
  %1 = tosa.avg_pool2d %arg0, %0, %0 kernel([2, 2]) stride([1, 1]) pad([0, 1, 0, 1]) acc_type(f32) : (tensor<1x7x7x9xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x9xf32>
  return %1 : tensor<1x7x7x9xf32>
}

// KW-LABEL: func.func @avg_pool2d(
// KW-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// KW-NEXT: %1 = tosa.avg_pool2d %arg0, %0, %0 kernel([2, 2]) stride([1, 1]) pad([0, 1, 0, 1]) acc_type(f32) : (tensor<1x7x7x9xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x9xf32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<1x7x7x9xf32>
// KW-NEXT: }

// AD-LABEL: func.func @avg_pool2d(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// AD-NEXT: %1 = tosa.avg_pool2d %arg0, %0, %0 {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x7x9xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x9xf32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<1x7x7x9xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "avg_pool2d"
// GEN-NEXT: ^bb0(%arg0: tensor<1x7x7x9xf32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// GEN-NEXT: %1 = "tosa.avg_pool2d"(%arg0, %0, %0) <{acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>}> : (tensor<1x7x7x9xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x9xf32>
// GEN-NEXT: "func.return"(%1) : (tensor<1x7x7x9xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @avg_pool2d_i8(%arg0: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  %0 = tosa.const values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.const values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.avg_pool2d %arg0, %0, %1 kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(i32) : (tensor<1x8x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  return %2 : tensor<1x4x4x4xi8>
}

// KW-LABEL: func.func @avg_pool2d_i8(
// KW-NEXT: %0 = tosa.const  values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %1 = tosa.const  values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %2 = tosa.avg_pool2d %arg0, %0, %1 kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(i32) : (tensor<1x8x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
// KW-NEXT: {{(func[.])?}}return %2 : tensor<1x4x4x4xi8>
// KW-NEXT: }

// AD-LABEL: func.func @avg_pool2d_i8(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %2 = tosa.avg_pool2d %arg0, %0, %1 {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
// AD-NEXT: {{(func[.])?}}return %2 : tensor<1x4x4x4xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "avg_pool2d_i8"
// GEN-NEXT: ^bb0(%arg0: tensor<1x8x8x4xi8>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %2 = "tosa.avg_pool2d"(%arg0, %0, %1) <{acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}> : (tensor<1x8x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
// GEN-NEXT: "func.return"(%2) : (tensor<1x4x4x4xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @conv2d(%arg0: tensor<1x4x4x4xf32>, %arg1: tensor<8x1x1x4xf32>, %arg2: tensor<8xf32>) -> tensor<1x4x4x8xf32> {
  %0 = tosa.const values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
  %1 = tosa.conv2d %arg0, %arg1, %arg2, %0, %0 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  return %1 : tensor<1x4x4x8xf32>
}

// KW-LABEL: func.func @conv2d(
// KW-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// KW-NEXT: %1 = tosa.conv2d %arg0, %arg1, %arg2, %0, %0 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32)  : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<1x4x4x8xf32>
// KW-NEXT: }

// AD-LABEL: func.func @conv2d(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// AD-NEXT: %1 = tosa.conv2d %arg0, %arg1, %arg2, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<1x4x4x8xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "conv2d"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x4x4xf32>, %arg1: tensor<8x1x1x4xf32>, %arg2: tensor<8xf32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// GEN-NEXT: %1 = "tosa.conv2d"(%arg0, %arg1, %arg2, %0, %0) <{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
// GEN-NEXT: "func.return"(%1) : (tensor<1x4x4x8xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @conv2d_local_bound(%arg0: tensor<1x4x4x4xf16>, %arg1: tensor<8x1x1x4xf16>, %arg2: tensor<8xf16>) -> tensor<1x4x4x8xf16> {
  %0 = tosa.const values(dense<0.000000e+00> : tensor<1xf16>) : () -> tensor<1xf16>
  %1 = tosa.conv2d %arg0, %arg1, %arg2, %0, %0 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(true) : (tensor<1x4x4x4xf16>, tensor<8x1x1x4xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
  return %1 : tensor<1x4x4x8xf16>
}

// KW-LABEL: func.func @conv2d_local_bound(
// KW-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf16>) : () -> tensor<1xf16>
// KW-NEXT: %1 = tosa.conv2d %arg0, %arg1, %arg2, %0, %0 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(true) : (tensor<1x4x4x4xf16>, tensor<8x1x1x4xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<1x4x4x8xf16>
// KW-NEXT: }

// AD-LABEL: func.func @conv2d_local_bound(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
// AD-NEXT: %1 = tosa.conv2d %arg0, %arg1, %arg2, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, local_bound = true, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xf16>, tensor<8x1x1x4xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<1x4x4x8xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "conv2d_local_bound"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x4x4xf16>, %arg1: tensor<8x1x1x4xf16>, %arg2: tensor<8xf16>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
// GEN-NEXT: %1 = "tosa.conv2d"(%arg0, %arg1, %arg2, %0, %0) <{acc_type = f32, dilation = array<i64: 1, 1>, local_bound = true, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x4x4x4xf16>, tensor<8x1x1x4xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
// GEN-NEXT: "func.return"(%1) : (tensor<1x4x4x8xf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @conv2d_i8(%arg0: tensor<1x8x8x3xi8>, %arg1: tensor<16x3x3x3xi8>, %arg2: tensor<16xi32>) -> tensor<1x8x8x16xi32> {
  %0 = tosa.const values(dense<-1> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.conv2d %arg0, %arg1, %arg2, %0, %1 pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x8x8x3xi8>, tensor<16x3x3x3xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
  return %2 : tensor<1x8x8x16xi32>
}

// KW-LABEL: func.func @conv2d_i8(
// KW-NEXT: %0 = tosa.const  values(dense<-1> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %1 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %2 = tosa.conv2d %arg0, %arg1, %arg2, %0, %1 pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32)  : (tensor<1x8x8x3xi8>, tensor<16x3x3x3xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
// KW-NEXT: {{(func[.])?}}return %2 : tensor<1x8x8x16xi32>
// KW-NEXT: }

// AD-LABEL: func.func @conv2d_i8(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %2 = tosa.conv2d %arg0, %arg1, %arg2, %0, %1 {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xi8>, tensor<16x3x3x3xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
// AD-NEXT: {{(func[.])?}}return %2 : tensor<1x8x8x16xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "conv2d_i8"
// GEN-NEXT: ^bb0(%arg0: tensor<1x8x8x3xi8>, %arg1: tensor<16x3x3x3xi8>, %arg2: tensor<16xi32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %2 = "tosa.conv2d"(%arg0, %arg1, %arg2, %0, %1) <{acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}> : (tensor<1x8x8x3xi8>, tensor<16x3x3x3xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
// GEN-NEXT: "func.return"(%2) : (tensor<1x8x8x16xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @conv2d_i16_i48(%arg0: tensor<1x4x4x2xi16>, %arg1: tensor<4x1x1x2xi8>, %arg2: tensor<4xi48>) -> tensor<1x4x4x4xi48> {
  %0 = tosa.const values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %1 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.conv2d %arg0, %arg1, %arg2, %0, %1 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i48) : (tensor<1x4x4x2xi16>, tensor<4x1x1x2xi8>, tensor<4xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x4x4x4xi48>
  return %2 : tensor<1x4x4x4xi48>
}

// KW-LABEL: func.func @conv2d_i16_i48(
// KW-NEXT: %0 = tosa.const  values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
// KW-NEXT: %1 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %2 = tosa.conv2d %arg0, %arg1, %arg2, %0, %1 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i48)  : (tensor<1x4x4x2xi16>, tensor<4x1x1x2xi8>, tensor<4xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x4x4x4xi48>
// KW-NEXT: {{(func[.])?}}return %2 : tensor<1x4x4x4xi48>
// KW-NEXT: }

// AD-LABEL: func.func @conv2d_i16_i48(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %2 = tosa.conv2d %arg0, %arg1, %arg2, %0, %1 {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi16>, tensor<4x1x1x2xi8>, tensor<4xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x4x4x4xi48>
// AD-NEXT: {{(func[.])?}}return %2 : tensor<1x4x4x4xi48>
// AD-NEXT: }

// GEN-LABEL: sym_name = "conv2d_i16_i48"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x4x2xi16>, %arg1: tensor<4x1x1x2xi8>, %arg2: tensor<4xi48>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %2 = "tosa.conv2d"(%arg0, %arg1, %arg2, %0, %1) <{acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x4x4x2xi16>, tensor<4x1x1x2xi8>, tensor<4xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x4x4x4xi48>
// GEN-NEXT: "func.return"(%2) : (tensor<1x4x4x4xi48>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @conv3d(%arg0: tensor<1x4x8x8x2xf16>, %arg1: tensor<4x2x3x3x2xf16>, %arg2: tensor<4xf16>) -> tensor<1x3x8x8x4xf16> {
  %0 = tosa.const values(dense<0.000000e+00> : tensor<1xf16>) : () -> tensor<1xf16>
  %1 = tosa.conv3d %arg0, %arg1, %arg2, %0, %0 pad([0, 0, 1, 1, 1, 1]) stride([1, 1, 1]) dilation([1, 1, 1]) acc_type(f32) : (tensor<1x4x8x8x2xf16>, tensor<4x2x3x3x2xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x3x8x8x4xf16>
  return %1 : tensor<1x3x8x8x4xf16>
}

// KW-LABEL: func.func @conv3d(
// KW-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf16>) : () -> tensor<1xf16>
// KW-NEXT: %1 = tosa.conv3d %arg0, %arg1, %arg2, %0, %0 pad([0, 0, 1, 1, 1, 1]) stride([1, 1, 1]) dilation([1, 1, 1]) acc_type(f32)  : (tensor<1x4x8x8x2xf16>, tensor<4x2x3x3x2xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x3x8x8x4xf16>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<1x3x8x8x4xf16>
// KW-NEXT: }

// AD-LABEL: func.func @conv3d(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
// AD-NEXT: %1 = tosa.conv3d %arg0, %arg1, %arg2, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 1, 1, 1, 1>, stride = array<i64: 1, 1, 1>} : (tensor<1x4x8x8x2xf16>, tensor<4x2x3x3x2xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x3x8x8x4xf16>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<1x3x8x8x4xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "conv3d"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x8x8x2xf16>, %arg1: tensor<4x2x3x3x2xf16>, %arg2: tensor<4xf16>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
// GEN-NEXT: %1 = "tosa.conv3d"(%arg0, %arg1, %arg2, %0, %0) <{acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 1, 1, 1, 1>, stride = array<i64: 1, 1, 1>}> : (tensor<1x4x8x8x2xf16>, tensor<4x2x3x3x2xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x3x8x8x4xf16>
// GEN-NEXT: "func.return"(%1) : (tensor<1x3x8x8x4xf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @depthwise_conv2d(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x2xf32>, %arg2: tensor<8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = tosa.const values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
  %1 = tosa.depthwise_conv2d %arg0, %arg1, %arg2, %0, %0 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(false) : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
  return %1 : tensor<1x6x6x8xf32>
}

// KW-LABEL: func.func @depthwise_conv2d(
// KW-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// KW-NEXT: %1 = tosa.depthwise_conv2d %arg0, %arg1, %arg2, %0, %0 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(false) : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<1x6x6x8xf32>
// KW-NEXT: }

// AD-LABEL: func.func @depthwise_conv2d(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// AD-NEXT: %1 = tosa.depthwise_conv2d %arg0, %arg1, %arg2, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<1x6x6x8xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "depthwise_conv2d"
// GEN-NEXT: ^bb0(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x2xf32>, %arg2: tensor<8xf32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// GEN-NEXT: %1 = "tosa.depthwise_conv2d"(%arg0, %arg1, %arg2, %0, %0) <{acc_type = f32, dilation = array<i64: 1, 1>, local_bound = false, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
// GEN-NEXT: "func.return"(%1) : (tensor<1x6x6x8xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @fft2d(%arg0: tensor<1x8x16xf32>, %arg1: tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>) {
  %0, %1 = tosa.fft2d %arg0, %arg1 inverse(false) : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
  return %0, %1 : tensor<1x8x16xf32>, tensor<1x8x16xf32>
}

// KW-LABEL: func.func @fft2d(
// KW-NEXT: {{.+}} = tosa.fft2d %arg0, %arg1 inverse(false)  : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<1x8x16xf32>, tensor<1x8x16xf32>
// KW-NEXT: }

// AD-LABEL: func.func @fft2d(
// AD-NEXT: {{.+}} = tosa.fft2d %arg0, %arg1 {inverse = false} : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<1x8x16xf32>, tensor<1x8x16xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "fft2d"
// GEN-NEXT: ^bb0(%arg0: tensor<1x8x16xf32>, %arg1: tensor<1x8x16xf32>):
// GEN-NEXT: {{.+}} = "tosa.fft2d"(%arg0, %arg1) <{inverse = false}> : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @fft2d_inverse_local_bound(%arg0: tensor<1x8x16xf32>, %arg1: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %0:2 = tosa.fft2d %arg0, %arg1 inverse(true) local_bound(true) : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
  return %0#1 : tensor<1x8x16xf32>
}

// KW-LABEL: func.func @fft2d_inverse_local_bound(
// KW-NEXT: {{.+}} = tosa.fft2d %arg0, %arg1 inverse(true) local_bound(true) : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<1x8x16xf32>
// KW-NEXT: }

// AD-LABEL: func.func @fft2d_inverse_local_bound(
// AD-NEXT: {{.+}} = tosa.fft2d %arg0, %arg1 {inverse = true, local_bound = true} : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}} : tensor<1x8x16xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "fft2d_inverse_local_bound"
// GEN-NEXT: ^bb0(%arg0: tensor<1x8x16xf32>, %arg1: tensor<1x8x16xf32>):
// GEN-NEXT: {{.+}} = "tosa.fft2d"(%arg0, %arg1) <{inverse = true, local_bound = true}> : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}) : (tensor<1x8x16xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @matmul(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = tosa.const values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
  %1 = tosa.matmul %arg0, %arg1, %0, %0 : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %1 : tensor<2x3x5xf32>
}

// KW-LABEL: func.func @matmul(
// KW-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// KW-NEXT: %1 = tosa.matmul %arg0, %arg1, %0, %0 : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<2x3x5xf32>
// KW-NEXT: }

// AD-LABEL: func.func @matmul(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// AD-NEXT: %1 = tosa.matmul %arg0, %arg1, %0, %0 : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<2x3x5xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "matmul"
// GEN-NEXT: ^bb0(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// GEN-NEXT: %1 = "tosa.matmul"(%arg0, %arg1, %0, %0) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
// GEN-NEXT: "func.return"(%1) : (tensor<2x3x5xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @matmul_i8(%arg0: tensor<1x3x4xi8>, %arg1: tensor<1x4x5xi8>) -> tensor<1x3x5xi32> {
  %0 = tosa.const values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.const values(dense<-7> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.matmul %arg0, %arg1, %0, %1 : (tensor<1x3x4xi8>, tensor<1x4x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x5xi32>
  return %2 : tensor<1x3x5xi32>
}

// KW-LABEL: func.func @matmul_i8(
// KW-NEXT: %0 = tosa.const  values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %1 = tosa.const  values(dense<-7> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %2 = tosa.matmul %arg0, %arg1, %0, %1 : (tensor<1x3x4xi8>, tensor<1x4x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x5xi32>
// KW-NEXT: {{(func[.])?}}return %2 : tensor<1x3x5xi32>
// KW-NEXT: }

// AD-LABEL: func.func @matmul_i8(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<-7> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %2 = tosa.matmul %arg0, %arg1, %0, %1 : (tensor<1x3x4xi8>, tensor<1x4x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x5xi32>
// AD-NEXT: {{(func[.])?}}return %2 : tensor<1x3x5xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "matmul_i8"
// GEN-NEXT: ^bb0(%arg0: tensor<1x3x4xi8>, %arg1: tensor<1x4x5xi8>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<-7> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %2 = "tosa.matmul"(%arg0, %arg1, %0, %1) : (tensor<1x3x4xi8>, tensor<1x4x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x5xi32>
// GEN-NEXT: "func.return"(%2) : (tensor<1x3x5xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @max_pool2d(%arg0: tensor<1x4x4x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = tosa.max_pool2d %arg0 kernel([2, 2]) stride([1, 1]) pad([0, 0, 0, 0]) : (tensor<1x4x4x4xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// KW-LABEL: func.func @max_pool2d(
// KW-NEXT: %0 = tosa.max_pool2d %arg0 kernel([2, 2]) stride([1, 1]) pad([0, 0, 0, 0]) : (tensor<1x4x4x4xf32>) -> tensor<1x3x3x4xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<1x3x3x4xf32>
// KW-NEXT: }

// AD-LABEL: func.func @max_pool2d(
// AD-NEXT: %0 = tosa.max_pool2d %arg0 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>) -> tensor<1x3x3x4xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<1x3x3x4xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "max_pool2d"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x4x4xf32>):
// GEN-NEXT: %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 2, 2>, nan_mode = #tosa.nan_mode<PROPAGATE>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x4x4x4xf32>) -> tensor<1x3x3x4xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<1x3x3x4xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @max_pool2d_nan_ignore(%arg0: tensor<1x6x6x2xf16>) -> tensor<1x3x3x2xf16> {
  %0 = tosa.max_pool2d %arg0 kernel([3, 3]) stride([2, 2]) pad([1, 0, 1, 0]) nan_mode<IGNORE> : (tensor<1x6x6x2xf16>) -> tensor<1x3x3x2xf16>
  return %0 : tensor<1x3x3x2xf16>
}

// KW-LABEL: func.func @max_pool2d_nan_ignore(
// KW-NEXT: %0 = tosa.max_pool2d %arg0 kernel([3, 3]) stride([2, 2]) pad([1, 0, 1, 0]) nan_mode<IGNORE> : (tensor<1x6x6x2xf16>) -> tensor<1x3x3x2xf16>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<1x3x3x2xf16>
// KW-NEXT: }

// AD-LABEL: func.func @max_pool2d_nan_ignore(
// AD-NEXT: %0 = tosa.max_pool2d %arg0 {kernel = array<i64: 3, 3>, nan_mode = IGNORE, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x2xf16>) -> tensor<1x3x3x2xf16>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<1x3x3x2xf16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "max_pool2d_nan_ignore"
// GEN-NEXT: ^bb0(%arg0: tensor<1x6x6x2xf16>):
// GEN-NEXT: %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 3, 3>, nan_mode = #tosa.nan_mode<IGNORE>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>}> : (tensor<1x6x6x2xf16>) -> tensor<1x3x3x2xf16>
// GEN-NEXT: "func.return"(%0) : (tensor<1x3x3x2xf16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @rfft2d(%arg0: tensor<1x8x16xf32>) -> (tensor<1x8x9xf32>, tensor<1x8x9xf32>) {
  %0, %1 = tosa.rfft2d %arg0 local_bound(true) : (tensor<1x8x16xf32>) -> (tensor<1x8x9xf32>, tensor<1x8x9xf32>)
  return %0, %1 : tensor<1x8x9xf32>, tensor<1x8x9xf32>
}

// KW-LABEL: func.func @rfft2d(
// KW-NEXT: {{.+}} = tosa.rfft2d %arg0 local_bound(true) : (tensor<1x8x16xf32>) -> (tensor<1x8x9xf32>, tensor<1x8x9xf32>)
// KW-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<1x8x9xf32>, tensor<1x8x9xf32>
// KW-NEXT: }

// AD-LABEL: func.func @rfft2d(
// AD-NEXT: {{.+}} = tosa.rfft2d %arg0 {local_bound = true} : (tensor<1x8x16xf32>) -> (tensor<1x8x9xf32>, tensor<1x8x9xf32>)
// AD-NEXT: {{(func[.])?}}return %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<1x8x9xf32>, tensor<1x8x9xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "rfft2d"
// GEN-NEXT: ^bb0(%arg0: tensor<1x8x16xf32>):
// GEN-NEXT: {{.+}} = "tosa.rfft2d"(%arg0) <{local_bound = true}> : (tensor<1x8x16xf32>) -> (tensor<1x8x9xf32>, tensor<1x8x9xf32>)
// GEN-NEXT: "func.return"(%{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}}) : (tensor<1x8x9xf32>, tensor<1x8x9xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @transpose_conv2d(%arg0: tensor<1x4x4x2xf32>, %arg1: tensor<3x1x1x2xf32>, %arg2: tensor<3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = tosa.const values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
  %1 = tosa.transpose_conv2d %arg0, %arg1, %arg2, %0, %0 out_pad([0, 0, 0, 0]) stride([1, 1]) acc_type(f32) : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  return %1 : tensor<1x4x4x3xf32>
}

// KW-LABEL: func.func @transpose_conv2d(
// KW-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// KW-NEXT: %1 = tosa.transpose_conv2d %arg0, %arg1, %arg2, %0, %0 out_pad([0, 0, 0, 0]) stride([1, 1]) acc_type(f32)  : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<1x4x4x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @transpose_conv2d(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// AD-NEXT: %1 = tosa.transpose_conv2d %arg0, %arg1, %arg2, %0, %0 {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<1x4x4x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "transpose_conv2d"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x4x2xf32>, %arg1: tensor<3x1x1x2xf32>, %arg2: tensor<3xf32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// GEN-NEXT: %1 = "tosa.transpose_conv2d"(%arg0, %arg1, %arg2, %0, %0) <{acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
// GEN-NEXT: "func.return"(%1) : (tensor<1x4x4x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @transpose_conv2d_i8(%arg0: tensor<1x4x4x2xi8>, %arg1: tensor<3x3x3x2xi8>, %arg2: tensor<3xi32>) -> tensor<1x9x9x3xi32> {
  %0 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.transpose_conv2d %arg0, %arg1, %arg2, %0, %0 out_pad([0, 0, 0, 0]) stride([2, 2]) acc_type(i32) : (tensor<1x4x4x2xi8>, tensor<3x3x3x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x9x9x3xi32>
  return %1 : tensor<1x9x9x3xi32>
}

// KW-LABEL: func.func @transpose_conv2d_i8(
// KW-NEXT: %0 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %1 = tosa.transpose_conv2d %arg0, %arg1, %arg2, %0, %0 out_pad([0, 0, 0, 0]) stride([2, 2]) acc_type(i32)  : (tensor<1x4x4x2xi8>, tensor<3x3x3x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x9x9x3xi32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<1x9x9x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @transpose_conv2d_i8(
// AD-NEXT: %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %1 = tosa.transpose_conv2d %arg0, %arg1, %arg2, %0, %0 {acc_type = i32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xi8>, tensor<3x3x3x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x9x9x3xi32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<1x9x9x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "transpose_conv2d_i8"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x4x2xi8>, %arg1: tensor<3x3x3x2xi8>, %arg2: tensor<3xi32>):
// GEN-NEXT: %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %1 = "tosa.transpose_conv2d"(%arg0, %arg1, %arg2, %0, %0) <{acc_type = i32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}> : (tensor<1x4x4x2xi8>, tensor<3x3x3x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x9x9x3xi32>
// GEN-NEXT: "func.return"(%1) : (tensor<1x9x9x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()
