// An unknown op is a located parse error unless --allow-unregistered-dialect.
// RUN: not tosa-opt %s 2>&1 | filecheck %s --check-prefix=ERR
// RUN: tosa-opt %s --allow-unregistered-dialect | filecheck %s

%0 = "foo.op"() : () -> i32

// ERR: unregistered.mlir:5:6: error: {{.*}}foo.op{{.*}}not registered
// CHECK: %0 = "foo.op"() : () -> i32
