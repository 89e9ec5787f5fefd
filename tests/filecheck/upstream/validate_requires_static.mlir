// REQUIREs decided without constants: SCATTER with W > K writes some output twice whatever the
// indices (2.11.2: "it follows that K >= W"); VARIABLE_READ/WRITE of a name no tosa.variable
// declares (2.17: REQUIRE(variable_tensor != NULL)). Warnings, errors under strict.
// RUN: tosa-opt %s -split-input-file -verify-diagnostics -tosa-attach-target="profiles=pro_int,pro_fp extensions=variable" -tosa-validate="strict-op-spec-alignment"
// RUN: tosa-opt %s -split-input-file -tosa-attach-target="profiles=pro_int,pro_fp extensions=variable" -tosa-validate -o /dev/null 2>&1 | filecheck %s --check-prefix=WARN

// WARN: warning: 'tosa.scatter' op REQUIRE(output_modified[n,k,c] == false) does not hold: W = 6 indices per batch but K = 4
// WARN: warning: 'tosa.variable_read' op REQUIRE(variable_tensor != NULL) does not hold: no tosa.variable @missing is declared
func.func @scatter_w_above_k(%v: tensor<2x4x5xi32>, %i: tensor<2x6xi32>, %x: tensor<2x6x5xi32>) -> tensor<2x4x5xi32> {
  // expected-error@+1 {{'tosa.scatter' op REQUIRE(output_modified[n,k,c] == false) does not hold: W = 6 indices per batch but K = 4}}
  %0 = tosa.scatter %v, %i, %x : (tensor<2x4x5xi32>, tensor<2x6xi32>, tensor<2x6x5xi32>) -> tensor<2x4x5xi32>
  return %0 : tensor<2x4x5xi32>
}

// -----

func.func @read_undeclared() -> tensor<2xi8> {
  // expected-error@+1 {{'tosa.variable_read' op REQUIRE(variable_tensor != NULL) does not hold: no tosa.variable @missing is declared}}
  %0 = tosa.variable_read @missing : tensor<2xi8>
  return %0 : tensor<2xi8>
}
