// Planted bugs in a general grouped kernel, each caught by the simulator;
// they check that gemm.tma.group_descriptor picks the map of its group and
// operand and that TMA copies through it use that group's address, extent
// and strides.
//
// Every group's A read through group 0's map (the group operand of A's
// gemm.tma.group_descriptor edited to the constant 0): the groups after the
// first get wrong rows of C.
// RUN: printf '64 64 64\n0 8 8\n100 72 136\n' > %t.groups
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e 's/\(gemm.tma.group_descriptor %arg7\)\[[^]]*\]\(, %arg6, 0 \)/\1[%c0_i32]\2/' > %t.group0.mlir
// RUN: sh -c 'gemm-sim %t.group0.mlir --group-problems %t.groups --sms 4; echo "exit $?"' | FileCheck %s --check-prefix=GROUP0
// GROUP0: FAIL general general groups=64x64x64,0x8x8,100x72x136: {{[0-9]+}} element(s) of C differ from the reference
// GROUP0-NEXT: C_2[0][0] = {{.*}}, expected
// GROUP0: exit 1
//
// B loaded through A's map (operand 1 edited to 0; both boxes are 64 x
// 128): wrong C from the first group on.
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e 's/\(gemm.tma.group_descriptor %arg7\[[^]]*\], %arg6, \)1 /\10 /' > %t.operand.mlir
// RUN: sh -c 'gemm-sim %t.operand.mlir --group-problems %t.groups --sms 4; echo "exit $?"' | FileCheck %s --check-prefix=OPERAND
// OPERAND: FAIL general general groups=64x64x64,0x8x8,100x72x136: {{[0-9]+}} element(s) of C differ from the reference
// OPERAND-NEXT: C_0[0][0] = {{.*}}, expected
// OPERAND: exit 1
//
// No gemm.tma.acquire_descriptor: the first TMA copy through a group's map
// is a hardware-rule violation (the prep kernel wrote the map through the
// generic proxy; the tensormap proxy may hold a stale copy).
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e '/gemm.tma.acquire_descriptor/d' > %t.acquire.mlir
// RUN: sh -c 'gemm-sim %t.acquire.mlir --group-problems %t.groups --sms 4; echo "exit $?"' | FileCheck %s --check-prefix=ACQUIRE
// ACQUIRE: FAIL general general groups=64x64x64,0x8x8,100x72x136
// ACQUIRE-NEXT: protocol violation (hardware rule) at 'gemm.tma.load' {{.*}}: a TMA copy through the tensor map of group 0's A that this thread has not acquired
// ACQUIRE: exit 3
//
// The map of a group without tiles (group 1, M = 0) is never written by
// the prep kernel: A's descriptor of group + 1 reads it for group 0.
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e 's/\(gemm.tma.group_descriptor %arg7\)\[[^]]*\]\(, %arg6, 0 \)/\1[%c1_i32]\2/' > %t.unwritten.mlir
// RUN: sh -c 'gemm-sim %t.unwritten.mlir --group-problems %t.groups --sms 4; echo "exit $?"' | FileCheck %s --check-prefix=UNWRITTEN
// UNWRITTEN: FAIL general general groups=64x64x64,0x8x8,100x72x136
// UNWRITTEN-NEXT: protocol violation (hardware rule) at 'gemm.tma.load' {{.*}}: a TMA copy through the tensor map of group 1's A, which the prep kernel did not write
// UNWRITTEN: exit 3
//
// And the unedited kernel passes.
// RUN: gemm-sim %s --group-problems %t.groups --sms 4 | FileCheck %s --check-prefix=GOOD
// GOOD: PASS general general groups=64x64x64,0x8x8,100x72x136
gemm.matmul @general a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
