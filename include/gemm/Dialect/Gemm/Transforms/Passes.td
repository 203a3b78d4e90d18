#ifndef GEMM_TRANSFORMS_PASSES_TD
#define GEMM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GemmMaterializeSM90 : Pass<"gemm-materialize-sm90", "ModuleOp"> {
  let summary = "build the SM90 warp-specialized TMA + WGMMA kernel of each sm_90a gemm.matmul";
  let description = [{
    Replaces every `gemm.matmul` whose config targets `sm_90a` by a
    `gpu.module` holding one persistent, warp-specialized kernel: a producer
    warpgroup issuing TMA loads into a shared-memory ring, consumer
    warpgroups issuing WGMMA (cooperative or pingpong), a static tile
    scheduler with raster order and swizzle, clusters with TMA multicast, and
    a sub-tiled TMA-store epilogue. The stage count is derived from the
    shared-memory budget unless the config fixes it. The launch contract
    (block, cluster, shared memory, parameters) is attached to the module as
    `gemm.bundle` for `gemm-export-bundle`.

    A matmul with `schedule = direct` gets the direct kernel instead: one
    CTA per tile whose warpgroups read A and B with plain element loads into
    a two-stage shared-memory ring (`gemm.direct.load`,
    `gemm.direct.store_smem`), multiply with WGMMA and write C from the
    accumulator fragments (`gemm.accum.store_direct`); its parameters are
    pointers and leading dimensions, so any alignment works and nothing is
    staged (docs/SM90.md, "The direct kernel").

    The options switch off two latency-hiding techniques of the TMA kernel,
    to measure what they are worth; the defaults are the fast kernel.
  }];
  let options = [
    Option<"wgmmaLookahead", "wgmma-lookahead", "int64_t", "1",
           "WGMMA groups left in flight when a k-block's stage is released: "
           "1 releases the previous stage while the current MMAs run, 0 waits "
           "for each k-block's MMAs, up to 4 keep that many k-blocks' MMAs "
           "(and their stages) in flight">,
    Option<"storeSlots", "store-slots", "int64_t", "2",
           "epilogue staging slots per consumer warpgroup: 2 writes one "
           "sub-tile while the previous one's TMA store drains, 1 waits for "
           "each store to read shared memory (1 to 4)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def GemmMaterializeSM100 : Pass<"gemm-materialize-sm100", "ModuleOp"> {
  let summary = "build the SM100 warp-role tcgen05 + TMEM kernel of each sm_100a gemm.matmul";
  let description = [{
    Replaces every `gemm.matmul` whose config targets `sm_100a` by a
    `gpu.module` holding one kernel with warp roles (`gemm.warp_roles`): a
    TMA load warp filling an N-stage shared-memory ring (k_group k-blocks
    per stage), an MMA warp whose elected thread issues `tcgen05.mma` into
    a ring of `accum_stages` tensor-memory accumulators (cta_group 1, or 2
    for MMA across a CTA pair), a scheduler warp (cluster launch control
    with `scheduler = clc`; idle with the static persistent schedule), and
    four epilogue warps that move each accumulator TMEM -> registers ->
    staging shared memory -> TMA store. Clusters multicast the shared
    operands. The stage count is derived from the shared-memory budget
    unless the config fixes it. The launch contract is attached to the
    module as `gemm.bundles` for `gemm-export-bundle`; docs/SM100.md
    describes every barrier of the kernel.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def GemmCheckPlacement : Pass<"gemm-check-placement", "ModuleOp"> {
  let summary = "refuse kernel IR the gemm pipelines would leave uncompiled";
  let description = [{
    The first pass of `gemm-to-nvvm` and `gemm-to-ptx`. Their later passes
    compile the `gpu.module`s at the top level of the module they run on
    (`convert-gpu-to-nvvm` runs nested on them, `gpu-module-to-binary`
    serializes them) and look no deeper, so a kernel elsewhere would pass
    through the pipeline uncompiled while it reports success. This pass
    makes that an error: a `gpu.module` or a `gemm.matmul` (whose kernel's
    `gpu.module` is built in its place) that is not directly in the top-level
    module, and a gemm kernel op outside every function (code of no
    function). A file of more than
    one top-level operation is parsed into an implicit module around them,
    so a `module` written in such a file is nested: the diagnostic says so.
  }];
}

def GemmCheckPipelines : Pass<"gemm-check-pipelines", "ModuleOp"> {
  let summary = "prove the pipeline protocol of each kernel";
  let description = [{
    Static checks on the kernel structure: for every
    `gemm.pipeline.producer_commit`, the expected transaction bytes equal
    the bytes that the TMA loads completing on the same pipeline slot
    deliver to this CTA (multicast from the other CTAs of the cluster
    included); every pipeline is initialised exactly once; every tcgen05
    operation of a kernel uses the same cta_group (a PTX ISA rule for
    tcgen05 instructions).
  }];
}

def GemmCheckProtocol : Pass<"gemm-check-protocol", "ModuleOp"> {
  let summary = "prove the barrier protocol of each kernel by running it in the simulator";
  let description = [{
    Runs every kernel of the module (each gpu.func with a launch contract in
    `gemm.bundles`) in the kernel simulator (lib/Simulator), without tile
    data, on the small problems that exercise it (persistent and ring
    wrap-around, edge tiles, K tails, empty split-K ranges, stream-K shares,
    cluster launch control cancellations; `Kernel::coverageProblems`), under
    the deterministic schedule and `random-runs` random ones. Every run
    checks the happens-before order of every access to shared, tensor and
    global memory and the phase every barrier wait and arrival names, so it
    reports, at the op and with a counterexample trace (CTA, role, barrier,
    stage, phase, iteration): a deadlock, a stage overwritten while a
    reader may still read it, a read before its bytes arrived, a wait that
    can confuse its phase with one two phases away, an arrival in another
    phase than it names or beyond the count, a barrier left with a partial
    phase, a multicast or peer mask outside the cluster, TMEM and cluster
    launch control misuse. docs/Verification.md says what this proves and
    under which bounds. A kernel with an op the simulator has no semantics
    for (or a form of one it does not model) is not checked: it gets a
    warning naming the op ("not simulated: gemm.direct.load; the protocol of
    kernel 'k' is not checked"), not an error, so that new kernel ops never
    break the pipelines before the simulator learns them (gemm-sim, which
    runs a kernel on request, still fails on them). With `max-steps` the
    check of a kernel stops (with a warning, not an error) once that many
    ops were simulated.
  }];
  let options = [
    Option<"sms", "sms", "unsigned", "0",
           "SMs of the simulated GPU (0: two clusters' worth for kernels "
           "whose clusters interact (split-K, stream-K, cluster launch "
           "control), else one cluster's)">,
    Option<"randomRuns", "random-runs", "unsigned", "1",
           "random schedules per problem, besides the deterministic one">,
    Option<"exhaustiveExecutions", "exhaustive-executions", "unsigned", "0",
           "also explore every order of the order-dependent operations "
           "(split-K arrivals, cluster launch control) of the smallest "
           "problem, up to this many executions (0: off)">,
    Option<"report", "report", "bool", "false",
           "print each kernel's problems, runs and time to stderr">,
    Option<"maxSteps", "max-steps", "uint64_t", "0",
           "simulate at most this many steps (thread ops) per kernel in "
           "all; a kernel whose check stops there gets a warning saying how "
           "far it was checked (0: no bound). For callers with a time budget, "
           "e.g. the fuzzer">,
  ];
}

def GemmExportBundle : Pass<"gemm-export-bundle", "ModuleOp"> {
  let summary = "write each compiled kernel as a bundle: NAME.ptx, NAME.cubin, NAME.json";
  let description = [{
    Runs after `gpu-module-to-binary{format=isa}`: writes the PTX of every
    `gpu.binary` that has a `gemm.bundle` launch contract, assembles it with
    ptxas when ptxas is found (CUDA toolkit), and writes the JSON manifest
    (gemm/Bundle/Manifest.h) that gemm-runner reads.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", "\".\"",
           "directory the bundle files are written to">,
    Option<"ptxas", "ptxas", "std::string", "\"\"",
           "ptxas to assemble the PTX with (default: PATH, then /usr/local/cuda/bin); 'none' skips the cubin">,
  ];
}

#endif // GEMM_TRANSFORMS_PASSES_TD
