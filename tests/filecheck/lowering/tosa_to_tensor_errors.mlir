// tosa-to-tensor stops with a located error naming the op it cannot lower.
// RUN: tosa-opt %s -p tosa-to-tensor --split-input-file --verify-diagnostics -o /dev/null

func.func @dynamic_pad_const(%a: tensor<?x3xf32>, %c: tensor<?xf32>) -> tensor<?x5xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // input1 may be dynamic (docs/lowering.md), pad_const may not
  // expected-error @+1 {{tosa-to-tensor: cannot lower 'tosa.pad': operand #2 has a dynamic dimension 0 (tensor<?xf32>); 'tosa.pad' lowers dynamic sizes only in input1 and the result (pad_const stays static)}}
  %0 = tosa.pad %a, %p, %c : (tensor<?x3xf32>, !tosa.shape<4>, tensor<?xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

func.func @nonconst_shape(%a: tensor<2x3xf32>, %s: !tosa.shape<1>) -> tensor<6xf32> {
  // expected-error @+1 {{tosa-to-tensor: cannot lower 'tosa.reshape': shape must be a tosa.const_shape value}}
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @dynamic_slice_result(%a: tensor<4x?xf32>) -> tensor<2x?xf32> {
  %st = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sz = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // input1 may be dynamic; start and size are static, and so must the result be
  // expected-error @+1 {{tosa-to-tensor: cannot lower 'tosa.slice': result #0 has a dynamic dimension 1 (tensor<2x?xf32>); 'tosa.slice' lowers dynamic sizes only in input1 (start and size, hence the result, are static)}}
  %0 = tosa.slice %a, %st, %sz : (tensor<4x?xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
