// REQUIRES: ptxas, nvdisasm
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// Every SM90 kernel issues the WGMMAs of a k-block back to back from
// uniform registers: ptxas keeps the stage counter and the shared-memory
// descriptors in the uniform datapath. Split-K and stream-K kernels branch
// on the OR of the fixup's named barrier (bar.red.or); unless a warp vote
// makes that value warp-uniform, ptxas treats the branch as divergent, moves
// the next tile's mainloop to vector registers and copies each descriptor
// over with R2UR between the WGMMAs (3-6% slower on the H200,
// bench/results/2026-11-22-h200-uniform/). The awk filter prints the
// instructions between a WGMMA and the next one of its group (the last
// of a group waits on gsb0).
//
// RUN: %nvdisasm -c %t/coop_128x256.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/coop_128x256.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// RUN: %nvdisasm -c %t/sk_coop_128x256_c2x1.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/sk_coop_128x256_c2x1.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// RUN: %nvdisasm -c %t/sk_pp_64x128.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/sk_pp_64x128.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// RUN: %nvdisasm -c %t/sk_f32out_pp_128x128.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/sk_f32out_pp_128x128.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// RUN: %nvdisasm -c %t/k2_pp_64x128.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/k2_pp_64x128.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// RUN: %nvdisasm -c %t/k3_coop_128x256_c2x1.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/k3_coop_128x256_c2x1.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// MN-major operands (a(col), b(row)) keep the same mainloop: the
// transposes are flags of the HGMMA (.tnspA, .tnspB), the descriptors'
// k-step offsets are other constants, nothing else changes.
// RUN: %nvdisasm -c %t/mn_coop_128x256.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/mn_coop_128x256.cubin | FileCheck %s --check-prefix=TNSPAB
// RUN: %nvdisasm -c %t/mn_coop_128x256.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// RUN: %nvdisasm -c %t/m_pp_64x256_c1x2.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/m_pp_64x256_c1x2.cubin | FileCheck %s --check-prefix=TNSPA
// RUN: %nvdisasm -c %t/m_pp_64x256_c1x2.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// A batched kernel (rank-3 TMA, units over the batch entries) too.
// RUN: %nvdisasm -c %t/batched_coop_128x256.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/batched_coop_128x256.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// TNSPAB-COUNT-8: HGMMA.64x256x16.F32.BF16 R{{[0-9]+}}, gdesc[UR{{[0-9]+}}].tnspA.tnspB,
// TNSPAB-NOT: HGMMA
// TNSPA: HGMMA.64x256x16.F32.BF16 R{{[0-9]+}}, gdesc[UR{{[0-9]+}}].tnspA,
// TNSPA-NOT: tnspB
//
// The kernel has WGMMA groups (so the filter has something to look at):
// SASS: HGMMA.64x{{[0-9]+}}x16.F32
// SASS-NOT: gsb0
// SASS: HGMMA.64x{{[0-9]+}}x16.F32{{.*}}gsb0
// GROUP-NOT: R2UR
// GROUP-NOT: WARPSYNC

gemm.matmul @coop_128x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @sk_coop_128x256_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1], scheduler = stream_k>)
gemm.matmul @sk_pp_64x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, scheduler = stream_k>)
gemm.matmul @sk_f32out_pp_128x128 a(bf16, row) b(bf16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong, scheduler = stream_k>)
gemm.matmul @k2_pp_64x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
gemm.matmul @k3_coop_128x256_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1], scheduler = split_k, splits = 3>)
gemm.matmul @mn_coop_128x256 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @m_pp_64x256_c1x2 a(bf16, col) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 2], schedule = pingpong>)
gemm.matmul @batched_coop_128x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
