// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-materialize-sm100 --gemm-check-protocol="report=1" -o /dev/null 2>&1 | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-materialize-sm100 --gemm-check-protocol="random-runs=0 sms=8 exhaustive-executions=8 report=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTIONS
//
// gemm-check-protocol runs each kernel in the simulator on the problems
// that exercise it (Kernel::coverageProblems), deterministically and under
// random schedules, and is silent when every run keeps the protocol; with
// `report` it says what it ran. The default pipelines run it after
// gemm-check-pipelines (test/Pipelines/gemm-to-nvvm.mlir).
//
// CHECK-DAG: gemm-check-protocol: coop: 3 problem(s), 6 run(s), {{[0-9.]+}} s
// CHECK-DAG: gemm-check-protocol: split_k: 5 problem(s), 10 run(s), {{[0-9.]+}} s
// CHECK-DAG: gemm-check-protocol: pair_clc: 3 problem(s), 6 run(s), {{[0-9.]+}} s
// CHECK-DAG: gemm-check-protocol: batched_mn: 5 problem(s), 10 run(s), {{[0-9.]+}} s
// CHECK-DAG: gemm-check-protocol: grouped: 4 problem(s), 8 run(s), {{[0-9.]+}} s{{$}}
// CHECK-DAG: gemm-check-protocol: general_pingpong: 3 problem(s), 6 run(s), {{[0-9.]+}} s{{$}}
// CHECK-NOT: violation
// CHECK-NOT: error
// CHECK-NOT: warning
//
// Without random runs, on a bigger GPU, and with the exhaustive exploration
// of the order-dependent operations (split-K arrivals, CLC responses) of the
// smallest problem: kernels without such ops are not explored.
// OPTIONS-DAG: gemm-check-protocol: coop: 3 problem(s), 3 run(s)
// OPTIONS-DAG: gemm-check-protocol: split_k: 5 problem(s), {{([6-9]|1[0-3])}} run(s)
// OPTIONS-DAG: gemm-check-protocol: pair_clc: 3 problem(s), {{[4-9]|1[01]}} run(s)
// OPTIONS-DAG: gemm-check-protocol: batched_mn: 5 problem(s), 5 run(s)
// OPTIONS-DAG: gemm-check-protocol: grouped: 4 problem(s), 4 run(s)
// OPTIONS-DAG: gemm-check-protocol: general_pingpong: 3 problem(s), 3 run(s)
// OPTIONS-NOT: violation

gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 3>)
gemm.matmul @split_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
gemm.matmul @pair_clc a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 128, 64], cluster = [2, 1], schedule = warp_roles, scheduler = clc, cta_group = 2>)
// Batched, M-major A, N-major B, column-major C, multicast in a cluster:
// two more problems (a batch of 3 with edges, one tile per entry with a
// broadcast A).
gemm.matmul @batched_mn a(bf16, col) b(bf16, row) c(bf16, col) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [2, 1]>)
// Grouped (MoE), pingpong in a 1x2 cluster: its own four problems (ragged
// groups with an empty one and more row units than the CTAs, edges in N
// with a K tail, one small group, invalid offsets: R = 0, nothing to do).
gemm.matmul @grouped a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], cluster = [1, 2], schedule = pingpong>)
// A general grouped kernel (every group its own M, N, K and tensor maps in
// the table; M-major A, N-major B, column-major C, pingpong in a 2x1
// cluster): units wrapping across groups with empty ones, edge tiles and K
// tails, K below a k-block, a bad record (U = 0).
gemm.matmul @general_pingpong a(bf16, col) b(bf16, row) c(bf16, col) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong, cluster = [2, 1]>)
