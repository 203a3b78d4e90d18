// RUN: gemm-opt %s --gemm-to-nvvm | FileCheck %s
// RUN: gemm-opt %s --gemm-to-nvvm | FileCheck %s --check-prefix=NOGEMM
// RUN: gemm-opt %s --gemm-materialize-sm90 | FileCheck %s --check-prefix=SANITY
// RUN: gemm-opt %s --gemm-to-nvvm --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECKS
// RUN: gemm-opt %s --gemm-to-nvvm=protocol-check=false --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPROTOCOL
// RUN: gemm-opt %s --gemm-to-nvvm=checks=false --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCHECKS

// The static checks run after the kernels are built: expect_tx bytes
// (gemm-check-pipelines), then the whole protocol in the simulator
// (gemm-check-protocol); protocol-check=false skips the second, checks=false
// both (gemm-check-placement, before the materializers, always runs).
// CHECKS: gemm-materialize-sm100,
// CHECKS-NEXT: gemm-check-pipelines,
// CHECKS-NEXT: gemm-check-protocol{
// NOPROTOCOL: gemm-check-pipelines,
// NOPROTOCOL-NOT: gemm-check-protocol
// NOCHECKS: gemm-check-placement,
// NOCHECKS-NOT: gemm-check-pipelines
// NOCHECKS-NOT: gemm-check-protocol

// The gemm-to-nvvm pipeline lowers gemm.matmul ops all the way to LLVM/NVVM
// kernels in gpu.modules: no gemm op is left (only the gemm.bundles launch
// contracts and the gemm.arch tag), the TMA descriptors are by-value
// __grid_constant__ parameters and WGMMA is inline PTX (convert-nvvm-to-llvm).

// CHECK: module attributes {gemm.bundles = {coop = "{{.*}}", pingpong_cluster = "{{.*}}"}, gpu.container_module}

// No gemm op or type anywhere (an op line starts with `gemm.` or
// `%x = gemm.`); the SANITY run shows the pattern finds the kernel ops.
// NOGEMM: module attributes {gemm.bundles
// NOGEMM-NOT: {{^ *(%[^=]+= )?"?gemm\.}}
// NOGEMM-NOT: !gemm.
// NOGEMM-NOT: gemm.grid_constant_args
// SANITY: {{^ *(%[^=]+= )?"?gemm\.}}smem.plan

// CHECK-LABEL: gpu.module @coop [#nvvm.target<O = 3, chip = "sm_90a">]
// CHECK-NEXT: llvm.mlir.global external @__gemm_dynamic_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: llvm.func @coop(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32,
// The second A descriptor (64-row boxes for tiles whose last rows lie past M).
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-SAME: attributes {gemm.arch = "sm_90a", gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// The structure survives as CFG: barriers initialised, producer branch with
// TMA loads, consumer branch with WGMMA and the epilogue's TMA stores.
// CHECK-DAG: nvvm.mbarrier.init
// CHECK-DAG: nvvm.prefetch tensormap
// CHECK-DAG: nvvm.setmaxregister decrease 40
// CHECK-DAG: nvvm.setmaxregister increase 232
// CHECK-DAG: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK-DAG: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK-DAG: nvvm.wgmma.fence.aligned
// CHECK-DAG: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-DAG: nvvm.wgmma.commit.group.sync.aligned
// CHECK-DAG: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-DAG: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-DAG: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-DAG: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: llvm.return

// CHECK-LABEL: gpu.module @pingpong_cluster [#nvvm.target<O = 3, chip = "sm_90a">]
// CHECK: llvm.func @pingpong_cluster(
// CHECK-SAME: nvvm.grid_constant
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG: nvvm.fence.mbarrier.init
// CHECK-DAG: nvvm.cluster.arrive {aligned}
// CHECK-DAG: nvvm.cluster.wait {aligned}
// CHECK-DAG: box[%{{.*}}, %{{.*}}] multicast_mask = %{{.*}} : !llvm.ptr<7>, !llvm.ptr
// CHECK-DAG: nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-DAG: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
// CHECK-DAG: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: llvm.return

gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

gemm.matmul @pingpong_cluster a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [2, 1],
                        schedule = pingpong>)
