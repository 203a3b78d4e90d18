// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %S/../Simulator/fp8-promote-slices.mlir --gemm-to-ptx="output-dir=%t" -o /dev/null
//
// Promoted fp8 192x128 tiles, whose partial sums are computed in two
// 64-column slices (the simulator test beside this one checks their
// results): all six kernels (per-tensor, row-wise, block-wise, fp8 C,
// split-K, stream-K) fit three consumers' 152 registers with 0 spill bytes
// and no C75xx info.
//
// RUN: for f in %t/*.ptx; do %ptxas -arch=sm_90a -v $f -o $f.o 2>&1; done | FileCheck %s --check-prefix=PTXAS
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS-COUNT-6: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill
// PTXAS-NOT: C75{{[0-9][0-9]}}
//
// A k-block: the first slice's four k-steps (n = 64, B's rows 0-63), a
// wait for them (wait_group 0), the second slice's four (rows 64-127),
// another wait; the kernel holds those eight MMAs only.
// RUN: FileCheck %s --check-prefix=SLICES < %t/slices_tensor.ptx
// SLICES: .maxntid 512, 1, 1
// SLICES: setmaxnreg.inc.sync.aligned.u32 152;
// SLICES-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// SLICES: wgmma.commit_group.sync.aligned;
// SLICES-NEXT: wgmma.wait_group.sync.aligned 0;
// SLICES-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// SLICES: wgmma.commit_group.sync.aligned;
// SLICES-NEXT: wgmma.wait_group.sync.aligned 0;
// SLICES-NOT: wgmma.mma_async
// RUN: grep -c "wgmma.mma_async" %t/slices_block.ptx | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}8{{$}}
