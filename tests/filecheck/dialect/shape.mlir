// Round trip of spec chapter 2.18 Shape Operators: CONST_SHAPE
// in all three spellings. CHECK lines come from upstream printers: see update_checks.py.
// RUN: tosa-opt %s --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file | tosa-opt --split-input-file | filecheck %s --check-prefix=KW
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --tosa-syntax=attr-dict | tosa-opt --split-input-file --tosa-syntax=attr-dict | filecheck %s --check-prefix=AD
// RUN: tosa-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: tosa-opt %s --split-input-file --print-op-generic | tosa-opt --split-input-file | filecheck %s --check-prefix=KW

func.func @const_shape() -> !tosa.shape<4> {
  %0 = tosa.const_shape values(dense<[1, 3, 21, 13]> : tensor<4xindex>) : () -> !tosa.shape<4>
  return %0 : !tosa.shape<4>
}

// KW-LABEL: func.func @const_shape(
// KW-NEXT: %0 = tosa.const_shape  values(dense<[1, 3, 21, 13]> : tensor<4xindex>) : () -> !tosa.shape<4>
// KW-NEXT: {{(func[.])?}}return %0 : !tosa.shape<4>
// KW-NEXT: }

// AD-LABEL: func.func @const_shape(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<[1, 3, 21, 13]> : tensor<4xindex>} : () -> !tosa.shape<4>
// AD-NEXT: {{(func[.])?}}return %0 : !tosa.shape<4>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_shape"
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<[1, 3, 21, 13]> : tensor<4xindex>}> : () -> !tosa.shape<4>
// GEN-NEXT: "func.return"(%0) : (!tosa.shape<4>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @const_shape_splat() -> !tosa.shape<2> {
  %0 = tosa.const_shape values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
  return %0 : !tosa.shape<2>
}

// KW-LABEL: func.func @const_shape_splat(
// KW-NEXT: %0 = tosa.const_shape  values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
// KW-NEXT: {{(func[.])?}}return %0 : !tosa.shape<2>
// KW-NEXT: }

// AD-LABEL: func.func @const_shape_splat(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
// AD-NEXT: {{(func[.])?}}return %0 : !tosa.shape<2>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_shape_splat"
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<0> : tensor<2xindex>}> : () -> !tosa.shape<2>
// GEN-NEXT: "func.return"(%0) : (!tosa.shape<2>) -> ()
// GEN-NEXT: }) : () -> ()

// -----

func.func @const_shape_empty() -> !tosa.shape<0> {
  %0 = tosa.const_shape values(dense<> : tensor<0xindex>) : () -> !tosa.shape<0>
  return %0 : !tosa.shape<0>
}

// KW-LABEL: func.func @const_shape_empty(
// KW-NEXT: %0 = tosa.const_shape  values(dense<> : tensor<0xindex>) : () -> !tosa.shape<0>
// KW-NEXT: {{(func[.])?}}return %0 : !tosa.shape<0>
// KW-NEXT: }

// AD-LABEL: func.func @const_shape_empty(
// AD-NEXT: %0 = tosa.const_shape  {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
// AD-NEXT: {{(func[.])?}}return %0 : !tosa.shape<0>
// AD-NEXT: }

// GEN-LABEL: sym_name = "const_shape_empty"
// GEN-NEXT: %0 = "tosa.const_shape"() <{values = dense<> : tensor<0xindex>}> : () -> !tosa.shape<0>
// GEN-NEXT: "func.return"(%0) : (!tosa.shape<0>) -> ()
// GEN-NEXT: }) : () -> ()
