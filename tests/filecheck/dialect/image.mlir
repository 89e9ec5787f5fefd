// Round trip of spec chapter 2.12 Image Operators: RESIZE
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @resize_bilinear(%arg0: tensor<1x4x4x4xf32>) -> tensor<1x7x8x4xf32> {
  %0 = tosa.const_shape values(dense<[2, 1, 2, 1]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %1 = tosa.const_shape values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
  %2 = tosa.const_shape values(dense<[0, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %3 = tosa.resize %arg0, %0, %1, %2 mode<BILINEAR> : (tensor<1x4x4x4xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x8x4xf32>
  return %3 : tensor<1x7x8x4xf32>
}

// KW-LABEL: func.func @resize_bilinear(
// KW-NEXT: %0 = tosa.const_shape  values(dense<[2, 1, 2, 1]> : tensor<4xindex>) : () -> !tosa.shape<4>
// KW-NEXT: %1 = tosa.const_shape  values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
// KW-NEXT: %2 = tosa.const_shape  values(dense<[0, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
// KW-NEXT: %3 = tosa.resize %arg0, %0, %1, %2 mode<BILINEAR> : (tensor<1x4x4x4xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x8x4xf32>
// KW-NEXT: {{(func[.])?}}return %3 : tensor<1x7x8x4xf32>
// KW-NEXT: }

// AD-LABEL: func.func @resize_bilinear(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
// AD-NEXT: %1 = tosa.const_shape  {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
// AD-NEXT: %2 = tosa.const_shape  {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
// AD-NEXT: %3 = tosa.resize %arg0, %0, %1, %2 {mode = BILINEAR} : (tensor<1x4x4x4xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x8x4xf32>
// AD-NEXT: {{(func[.])?}}return %3 : tensor<1x7x8x4xf32>
// AD-NEXT: }

// GEN-LABEL: sym_name = "resize_bilinear"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x4x4xf32>):
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<[2, 1, 2, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
// GEN-NEXT: %1 = "tosa.const_shape"() <{values = dense<0> : tensor<2xindex>}> : () -> !tosa.shape<2>
// GEN-NEXT: %2 = "tosa.const_shape"() <{values = dense<[0, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
// GEN-NEXT: %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<BILINEAR>}> : (tensor<1x4x4x4xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x8x4xf32>
// GEN-NEXT: "func.return"(%3) : (tensor<1x7x8x4xf32>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @resize_nearest(%arg0: tensor<1x4x4x2xi8>) -> tensor<1x8x8x2xi8> {
  %0 = tosa.const_shape values(dense<[4, 2, 4, 2]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %1 = tosa.const_shape values(dense<[-1, -1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %2 = tosa.const_shape values(dense<[1, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %3 = tosa.resize %arg0, %0, %1, %2 mode<NEAREST_NEIGHBOR> : (tensor<1x4x4x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xi8>
  return %3 : tensor<1x8x8x2xi8>
}

// KW-LABEL: func.func @resize_nearest(
// KW-NEXT: %0 = tosa.const_shape  values(dense<[4, 2, 4, 2]> : tensor<4xindex>) : () -> !tosa.shape<4>
// KW-NEXT: %1 = tosa.const_shape  values(dense<-1> : tensor<2xindex>) : () -> !tosa.shape<2>
// KW-NEXT: %2 = tosa.const_shape  values(dense<1> : tensor<2xindex>) : () -> !tosa.shape<2>
// KW-NEXT: %3 = tosa.resize %arg0, %0, %1, %2 mode<NEAREST_NEIGHBOR> : (tensor<1x4x4x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xi8>
// KW-NEXT: {{(func[.])?}}return %3 : tensor<1x8x8x2xi8>
// KW-NEXT: }

// AD-LABEL: func.func @resize_nearest(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
// AD-NEXT: %1 = tosa.const_shape  {values = dense<-1> : tensor<2xindex>} : () -> !tosa.shape<2>
// AD-NEXT: %2 = tosa.const_shape  {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
// AD-NEXT: %3 = tosa.resize %arg0, %0, %1, %2 {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xi8>
// AD-NEXT: {{(func[.])?}}return %3 : tensor<1x8x8x2xi8>
// AD-NEXT: }

// GEN-LABEL: sym_name = "resize_nearest"
// GEN-NEXT: ^bb0(%arg0: tensor<1x4x4x2xi8>):
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<[4, 2, 4, 2]> : tensor<4xindex>}> : () -> !tosa.shape<4>
// GEN-NEXT: %1 = "tosa.const_shape"() <{values = dense<-1> : tensor<2xindex>}> : () -> !tosa.shape<2>
// GEN-NEXT: %2 = "tosa.const_shape"() <{values = dense<1> : tensor<2xindex>}> : () -> !tosa.shape<2>
// GEN-NEXT: %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<NEAREST_NEIGHBOR>}> : (tensor<1x4x4x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xi8>
// GEN-NEXT: "func.return"(%3) : (tensor<1x8x8x2xi8>) -> ()
// GEN-NEXT: }) : () -> ()
