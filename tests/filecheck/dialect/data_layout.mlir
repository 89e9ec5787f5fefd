// Round trip of spec chapter 2.10 Data Layout: CONCAT PAD RESHAPE REVERSE SLICE TILE TRANSPOSE
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @concat(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>) -> tensor<26x21x3xf32> {
  %0 = tosa.concat %arg0, %arg1 axis(0) : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<26x21x3xf32>
  return %0 : tensor<26x21x3xf32>
}

// KW-LABEL: func.func @concat(
// KW-NEXT: %0 = tosa.concat %arg0, %arg1 axis(0) : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<26x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<26x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @concat(
// AD-NEXT: %0 = tosa.concat %arg0, %arg1 {axis = 0 : i32} : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<26x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<26x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "concat"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>, %arg1: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.concat"(%arg0, %arg1) <{axis = 0 : i32}> : (tensor<13x21x3xf32>, tensor<13x21x3xf32>) -> tensor<26x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<26x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @concat_many(%arg0: tensor<2x1xi8>, %arg1: tensor<2x2xi8>, %arg2: tensor<2x3xi8>, %arg3: tensor<2x4xi8>) -> tensor<2x10xi8> {
  %0 = tosa.concat %arg0, %arg1, %arg2, %arg3 axis(1) : (tensor<2x1xi8>, tensor<2x2xi8>, tensor<2x3xi8>, tensor<2x4xi8>) -> tensor<2x10xi8>
  return %0 : tensor<2x10xi8>
}

// KW-LABEL: func.func @concat_many(
// KW-NEXT: %0 = tosa.concat %arg0, %arg1, %arg2, %arg3 axis(1) : (tensor<2x1xi8>, tensor<2x2xi8>, tensor<2x3xi8>, tensor<2x4xi8>) -> tensor<2x10xi8>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<2x10xi8>
// KW-NEXT: }

// AD-LABEL: func.func @concat_many(
// AD-NEXT: %0 = tosa.concat %arg0, %arg1, %arg2, %arg3 {axis = 1 : i32} : (tensor<2x1xi8>, tensor<2x2xi8>, tensor<2x3xi8>, tensor<2x4xi8>) -> tensor<2x10xi8>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<2x10xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "concat_many"
// GEN-NEXT: ^bb0(%arg0: tensor<2x1xi8>, %arg1: tensor<2x2xi8>, %arg2: tensor<2x3xi8>, %arg3: tensor<2x4xi8>):
// GEN-NEXT: %0 = "tosa.concat"(%arg0, %arg1, %arg2, %arg3) <{axis = 1 : i32}> : (tensor<2x1xi8>, tensor<2x2xi8>, tensor<2x3xi8>, tensor<2x4xi8>) -> tensor<2x10xi8>
// GEN-NEXT: "func.return"(%0) : (tensor<2x10xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @concat_single(%arg0: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = tosa.concat %arg0 axis(1) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// KW-LABEL: func.func @concat_single(
// KW-NEXT: %0 = tosa.concat %arg0 axis(1) : (tensor<2x3xi32>) -> tensor<2x3xi32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<2x3xi32>
// KW-NEXT: }

// AD-LABEL: func.func @concat_single(
// AD-NEXT: %0 = tosa.concat %arg0 {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2x3xi32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<2x3xi32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "concat_single"
// GEN-NEXT: ^bb0(%arg0: tensor<2x3xi32>):
// GEN-NEXT: %0 = "tosa.concat"(%arg0) <{axis = 1 : i32}> : (tensor<2x3xi32>) -> tensor<2x3xi32>
// GEN-NEXT: "func.return"(%0) : (tensor<2x3xi32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @pad(%arg0: tensor<13x21x3xf32>) -> tensor<14x22x4xf32> {
  %0 = tosa.const_shape values(dense<[0, 1, 1, 0, 0, 1]> : tensor<6xindex>) : () -> !tosa.shape<6>
  %1 = tosa.const values(dense<3.140000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
  %2 = tosa.pad %arg0, %0, %1 : (tensor<13x21x3xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<14x22x4xf32>
  return %2 : tensor<14x22x4xf32>
}

// KW-LABEL: func.func @pad(
// KW-NEXT: %0 = tosa.const_shape  values(dense<[0, 1, 1, 0, 0, 1]> : tensor<6xindex>) : () -> !tosa.shape<6>
// KW-NEXT: %1 = tosa.const  values(dense<3.140000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// KW-NEXT: %2 = tosa.pad %arg0, %0, %1 : (tensor<13x21x3xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<14x22x4xf32>
// KW-NEXT: {{(func[.])?}}return %2 : tensor<14x22x4xf32>
// KW-NEXT: }

// AD-LABEL: func.func @pad(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<[0, 1, 1, 0, 0, 1]> : tensor<6xindex>} : () -> !tosa.shape<6>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<3.140000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// AD-NEXT: %2 = tosa.pad %arg0, %0, %1 : (tensor<13x21x3xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<14x22x4xf32>
// AD-NEXT: {{(func[.])?}}return %2 : tensor<14x22x4xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "pad"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<[0, 1, 1, 0, 0, 1]> : tensor<6xindex>}> : () -> !tosa.shape<6>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<3.140000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// GEN-NEXT: %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<13x21x3xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<14x22x4xf32>
// GEN-NEXT: "func.return"(%2) : (tensor<14x22x4xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @pad_i8(%arg0: tensor<2x3xi8>) -> tensor<4x3xi8> {
  %0 = tosa.const_shape values(dense<[1, 1, 0, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %1 = tosa.const values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.pad %arg0, %0, %1 : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<4x3xi8>
  return %2 : tensor<4x3xi8>
}

// KW-LABEL: func.func @pad_i8(
// KW-NEXT: %0 = tosa.const_shape  values(dense<[1, 1, 0, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
// KW-NEXT: %1 = tosa.const  values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
// KW-NEXT: %2 = tosa.pad %arg0, %0, %1 : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<4x3xi8>
// KW-NEXT: {{(func[.])?}}return %2 : tensor<4x3xi8>
// KW-NEXT: }

// AD-LABEL: func.func @pad_i8(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<[1, 1, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
// AD-NEXT: %1 = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
// AD-NEXT: %2 = tosa.pad %arg0, %0, %1 : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<4x3xi8>
// AD-NEXT: {{(func[.])?}}return %2 : tensor<4x3xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "pad_i8"
// GEN-NEXT: ^bb0(%arg0: tensor<2x3xi8>):
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<[1, 1, 0, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
// GEN-NEXT: %1 = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
// GEN-NEXT: %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<4x3xi8>
// GEN-NEXT: "func.return"(%2) : (tensor<4x3xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reshape(%arg0: tensor<13x21x3xf32>) -> tensor<13x63xf32> {
  %0 = tosa.const_shape values(dense<[13, 63]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %1 = tosa.reshape %arg0, %0 : (tensor<13x21x3xf32>, !tosa.shape<2>) -> tensor<13x63xf32>
  return %1 : tensor<13x63xf32>
}

// KW-LABEL: func.func @reshape(
// KW-NEXT: %0 = tosa.const_shape  values(dense<[13, 63]> : tensor<2xindex>) : () -> !tosa.shape<2>
// KW-NEXT: %1 = tosa.reshape %arg0, %0 : (tensor<13x21x3xf32>, !tosa.shape<2>) -> tensor<13x63xf32>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<13x63xf32>
// KW-NEXT: }

// AD-LABEL: func.func @reshape(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<[13, 63]> : tensor<2xindex>} : () -> !tosa.shape<2>
// AD-NEXT: %1 = tosa.reshape %arg0, %0 : (tensor<13x21x3xf32>, !tosa.shape<2>) -> tensor<13x63xf32>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<13x63xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reshape"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<[13, 63]> : tensor<2xindex>}> : () -> !tosa.shape<2>
// GEN-NEXT: %1 = "tosa.reshape"(%arg0, %0) : (tensor<13x21x3xf32>, !tosa.shape<2>) -> tensor<13x63xf32>
// GEN-NEXT: "func.return"(%1) : (tensor<13x63xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reshape_unranked(%arg0: tensor<*xi8>) -> tensor<819xi8> {
  %0 = tosa.const_shape values(dense<819> : tensor<1xindex>) : () -> !tosa.shape<1>
  %1 = tosa.reshape %arg0, %0 : (tensor<*xi8>, !tosa.shape<1>) -> tensor<819xi8>
  return %1 : tensor<819xi8>
}

// KW-LABEL: func.func @reshape_unranked(
// KW-NEXT: %0 = tosa.const_shape  values(dense<819> : tensor<1xindex>) : () -> !tosa.shape<1>
// KW-NEXT: %1 = tosa.reshape %arg0, %0 : (tensor<*xi8>, !tosa.shape<1>) -> tensor<819xi8>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<819xi8>
// KW-NEXT: }

// AD-LABEL: func.func @reshape_unranked(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<819> : tensor<1xindex>} : () -> !tosa.shape<1>
// AD-NEXT: %1 = tosa.reshape %arg0, %0 : (tensor<*xi8>, !tosa.shape<1>) -> tensor<819xi8>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<819xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reshape_unranked"
// GEN-NEXT: ^bb0(%arg0: tensor<*xi8>):
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<819> : tensor<1xindex>}> : () -> !tosa.shape<1>
// GEN-NEXT: %1 = "tosa.reshape"(%arg0, %0) : (tensor<*xi8>, !tosa.shape<1>) -> tensor<819xi8>
// GEN-NEXT: "func.return"(%1) : (tensor<819xi8>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @reverse(%arg0: tensor<13x21x3xf32>) -> tensor<13x21x3xf32> {
  %0 = tosa.reverse %arg0 axis(1) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// KW-LABEL: func.func @reverse(
// KW-NEXT: %0 = tosa.reverse %arg0 axis(1) : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// KW-NEXT: }

// AD-LABEL: func.func @reverse(
// AD-NEXT: %0 = tosa.reverse %arg0 {axis = 1 : i32} : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<13x21x3xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "reverse"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.reverse"(%arg0) <{axis = 1 : i32}> : (tensor<13x21x3xf32>) -> tensor<13x21x3xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<13x21x3xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @slice(%arg0: tensor<13x21x3xf32>) -> tensor<4x11x1xf32> {
  %0 = tosa.const_shape values(dense<[6, 8, 0]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %1 = tosa.const_shape values(dense<[4, 11, 1]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %2 = tosa.slice %arg0, %0, %1 : (tensor<13x21x3xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x11x1xf32>
  return %2 : tensor<4x11x1xf32>
}

// KW-LABEL: func.func @slice(
// KW-NEXT: %0 = tosa.const_shape  values(dense<[6, 8, 0]> : tensor<3xindex>) : () -> !tosa.shape<3>
// KW-NEXT: %1 = tosa.const_shape  values(dense<[4, 11, 1]> : tensor<3xindex>) : () -> !tosa.shape<3>
// KW-NEXT: %2 = tosa.slice %arg0, %0, %1 : (tensor<13x21x3xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x11x1xf32>
// KW-NEXT: {{(func[.])?}}return %2 : tensor<4x11x1xf32>
// KW-NEXT: }

// AD-LABEL: func.func @slice(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<[6, 8, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
// AD-NEXT: %1 = tosa.const_shape  {values = dense<[4, 11, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
// AD-NEXT: %2 = tosa.slice %arg0, %0, %1 : (tensor<13x21x3xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x11x1xf32>
// AD-NEXT: {{(func[.])?}}return %2 : tensor<4x11x1xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "slice"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<[6, 8, 0]> : tensor<3xindex>}> : () -> !tosa.shape<3>
// GEN-NEXT: %1 = "tosa.const_shape"() <{values = dense<[4, 11, 1]> : tensor<3xindex>}> : () -> !tosa.shape<3>
// GEN-NEXT: %2 = "tosa.slice"(%arg0, %0, %1) : (tensor<13x21x3xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x11x1xf32>
// GEN-NEXT: "func.return"(%2) : (tensor<4x11x1xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @tile(%arg0: tensor<13x21x3xi16>) -> tensor<13x42x3xi16> {
  %0 = tosa.const_shape values(dense<[1, 2, 1]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %1 = tosa.tile %arg0, %0 : (tensor<13x21x3xi16>, !tosa.shape<3>) -> tensor<13x42x3xi16>
  return %1 : tensor<13x42x3xi16>
}

// KW-LABEL: func.func @tile(
// KW-NEXT: %0 = tosa.const_shape  values(dense<[1, 2, 1]> : tensor<3xindex>) : () -> !tosa.shape<3>
// KW-NEXT: %1 = tosa.tile %arg0, %0 : (tensor<13x21x3xi16>, !tosa.shape<3>) -> tensor<13x42x3xi16>
// KW-NEXT: {{(func[.])?}}return %1 : tensor<13x42x3xi16>
// KW-NEXT: }

// AD-LABEL: func.func @tile(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
// AD-NEXT: %1 = tosa.tile %arg0, %0 : (tensor<13x21x3xi16>, !tosa.shape<3>) -> tensor<13x42x3xi16>
// AD-NEXT: {{(func[.])?}}return %1 : tensor<13x42x3xi16>
// AD-NEXT: }

// GEN-LABEL: sym_name = "tile"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xi16>):
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<[1, 2, 1]> : tensor<3xindex>}> : () -> !tosa.shape<3>
// GEN-NEXT: %1 = "tosa.tile"(%arg0, %0) : (tensor<13x21x3xi16>, !tosa.shape<3>) -> tensor<13x42x3xi16>
// GEN-NEXT: "func.return"(%1) : (tensor<13x42x3xi16>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @transpose(%arg0: tensor<13x21x3xf32>) -> tensor<3x13x21xf32> {
  %0 = tosa.transpose %arg0 perms([2, 0, 1]) : (tensor<13x21x3xf32>) -> tensor<3x13x21xf32>
  return %0 : tensor<3x13x21xf32>
}

// KW-LABEL: func.func @transpose(
// KW-NEXT: %0 = tosa.transpose %arg0 perms([2, 0, 1]) : (tensor<13x21x3xf32>) -> tensor<3x13x21xf32>
// KW-NEXT: {{(func[.])?}}return %0 : tensor<3x13x21xf32>
// KW-NEXT: }

// AD-LABEL: func.func @transpose(
// AD-NEXT: %0 = tosa.transpose %arg0 {perms = array<i32: 2, 0, 1>} : (tensor<13x21x3xf32>) -> tensor<3x13x21xf32>
// AD-NEXT: {{(func[.])?}}return %0 : tensor<3x13x21xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "transpose"
// GEN-NEXT: ^bb0(%arg0: tensor<13x21x3xf32>):
// GEN-NEXT: %0 = "tosa.transpose"(%arg0) <{perms = array<i32: 2, 0, 1>}> : (tensor<13x21x3xf32>) -> tensor<3x13x21xf32>
// GEN-NEXT: "func.return"(%0) : (tensor<3x13x21xf32>) -> ()
// GEN-NEXT: }) : () -> ()
