// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// The direct kernels (schedule = direct) through the whole pipeline: every
// tile of gemm_bench.configs.DIRECT_TILES assembles for sm_90a without
// spills, warnings or WGMMA serialisation (C75xx) under the register cap
// its minimum CTAs per SM sets (gemm::dispatch::directResidentCtas: 128
// registers for 64x32 (4 CTAs), 168 for 64x64 (3), 128 for 128x32 (2), 255
// for 128x64 and 128x128 (1)).
//
// RUN: %ptxas -arch=sm_90a -v %t/d64x32.ptx -o %t/d64x32.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d64x32
// RUN: %ptxas -arch=sm_90a -v %t/d64x64.ptx -o %t/d64x64.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d64x64
// RUN: %ptxas -arch=sm_90a -v %t/d128x32_f16.ptx -o %t/d128x32_f16.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d128x32_f16
// RUN: %ptxas -arch=sm_90a -v %t/d128x64_f32out.ptx -o %t/d128x64_f32out.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d128x64_f32out
// RUN: %ptxas -arch=sm_90a -v %t/d128x128.ptx -o %t/d128x128.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d128x128
// Other layouts, read and written through their strides (column strides of
// ld instead of 1), under the same caps:
// RUN: %ptxas -arch=sm_90a -v %t/d64x64_layouts.ptx -o %t/d64x64_layouts.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d64x64_layouts
// RUN: %ptxas -arch=sm_90a -v %t/d128x128_layouts.ptx -o %t/d128x128_layouts.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d128x128_layouts
// Split-K (the partial tiles reduced by the last split to arrive), under
// the same caps:
// RUN: %ptxas -arch=sm_90a -v %t/d64x64_k4.ptx -o %t/d64x64_k4.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d64x64_k4
// RUN: %ptxas -arch=sm_90a -v %t/d128x128_k2.ptx -o %t/d128x128_k2.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=d128x128_k2
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_90a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
//
// In the PTX, element loads through the read-only path, 16-bit shared stores,
// the async-proxy fence before the WGMMAs, plain stores of C; no TMA.
// RUN: FileCheck %s --check-prefixes=PTX,BF16OUT -DCTAS=3 < %t/d64x64.ptx
// RUN: FileCheck %s --check-prefixes=PTX,F32OUT -DCTAS=1 < %t/d128x64_f32out.ptx
// PTX: .maxntid {{128|256}}, 1, 1
// PTX: .minnctapersm [[CTAS]]
// PTX: ld.global.nc.b16
// PTX: st.shared.b16
// PTX: fence.proxy.async.shared::cta
// PTX: bar.sync 0
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32
// BF16OUT: st.global.b16
// F32OUT: st.global.b32
// RUN: not grep -q "cp.async.bulk" %t/d64x64.ptx
// RUN: not grep -q "cp.async.bulk" %t/d128x128.ptx
//
// One k-block of a 64x64 tile is 64 element loads and 64 shared stores per
// thread: three copies of them (the first k-block, the first of several,
// the loop's) hold 192 of each, and nothing more.
// RUN: grep -c "ld.global.nc.b16" %t/d64x64.ptx | FileCheck %s --check-prefix=LOADS
// RUN: grep -c "st.shared.b16" %t/d64x64.ptx | FileCheck %s --check-prefix=LOADS
// LOADS: {{^}}192{{$}}
// A split-K kernel has the same three copies, inside the branch of a
// non-empty k-range; its partial tile goes out in 16-byte stores, is counted
// in with one acquire-release atomic, and the last arriver adds the other
// three splits' partials with 16-byte loads.
// RUN: grep -c "ld.global.nc.b16" %t/d64x64_k4.ptx | FileCheck %s --check-prefix=LOADS
// RUN: FileCheck %s --check-prefix=SPLITK < %t/d64x64_k4.ptx
// SPLITK: st.global.v4.b32
// SPLITK: bar.sync 1, 128;
// SPLITK: atom.acq_rel.gpu.global.add.u32
// SPLITK: bar.red.or.pred
// SPLITK-COUNT-24: ld.global.v4.b32
// SPLITK-NOT: ld.global.v4.b32
// SPLITK: st.global.b16
//
// REQUIRES: nvdisasm
// In the SASS, 16-bit loads through the constant cache path and no byte
// permutes (each element has a register of its own: !gemm.fragment), and
// the WGMMAs of a k-block back to back from uniform registers.
// RUN: %nvdisasm -c %t/d64x64.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/d64x64.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// RUN: %nvdisasm -c %t/d128x64_f32out.cubin | awk '/HGMMA/ { inGroup = ($0 !~ /gsb0/); next } inGroup' | FileCheck %s --check-prefix=GROUP --allow-empty
// SASS-NOT: PRMT
// SASS-NOT: UTMALDG
// SASS: LDG.E.U16.CONSTANT
// SASS: STS.U16
// SASS: HGMMA.64x64x16.F32.BF16
// SASS: STG.E.U16
// GROUP-NOT: R2UR
// GROUP-NOT: WARPSYNC

gemm.matmul @d64x32 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], schedule = direct>)
gemm.matmul @d64x64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)
gemm.matmul @d128x32_f16 a(f16, row) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 32, 64], schedule = direct>)
gemm.matmul @d128x64_f32out a(bf16, row) b(bf16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = direct>)
gemm.matmul @d128x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = direct>)
gemm.matmul @d64x64_layouts a(bf16, col) b(bf16, row) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)
gemm.matmul @d128x128_layouts a(bf16, col) b(bf16, row) c(f32, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = direct>)
gemm.matmul @d64x64_k4 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct, scheduler = split_k, splits = 4>)
gemm.matmul @d128x128_k2 a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = direct, scheduler = split_k, splits = 2>)
