// SM100 (Blackwell) op families: tensor memory, tcgen05 MMA, cluster launch
// control. Included by GemmOps.td.
//
// Every op here needs sm_100a: its verifier rejects it inside a kernel whose
// `gemm.arch` attribute (on the gpu.func) or gpu.module NVVM target says
// otherwise (see verifyArch in GemmSM100Ops.cpp). docs/SM100.md describes the
// barrier protocol an SM100 kernel builds from these ops.

#ifndef GEMM_SM100_OPS_TD
#define GEMM_SM100_OPS_TD

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Gemm_BarrierFull : I32EnumAttrCase<"full", 0>;
def Gemm_BarrierEmpty : I32EnumAttrCase<"empty", 1>;
// Plain integer enum attributes (not dialect EnumAttrs), so that an op's
// declarative format prints them as a bare keyword.
def Gemm_PipelineBarrier : I32EnumAttr<"PipelineBarrier",
    "which barrier of a pipeline slot: full (data ready) or empty (slot free)",
    [Gemm_BarrierFull, Gemm_BarrierEmpty]> {
  let cppNamespace = "::mlir::gemm";
}

def Gemm_TmemFenceBefore : I32EnumAttrCase<"before_thread_sync", 0>;
def Gemm_TmemFenceAfter : I32EnumAttrCase<"after_thread_sync", 1>;
def Gemm_TmemFence : I32EnumAttr<"TmemFence",
    "which side of a thread synchronisation a tcgen05 fence orders",
    [Gemm_TmemFenceBefore, Gemm_TmemFenceAfter]> {
  let cppNamespace = "::mlir::gemm";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Gemm_TmemType : Gemm_Type<"Tmem", "tmem"> {
  let summary = "a ring of MMA accumulators in tensor memory";
  let description = [{
    `stages` accumulator buffers of `rows x cols` f32 values in the CTA's
    tensor memory (TMEM: 128 lanes x 512 columns of 32-bit cells). Row `r`
    of a buffer is TMEM lane `r` and column `c` of stage `s` is TMEM column
    `base + s * cols + c`, the layout `tcgen05.mma` writes for M = 128 per
    CTA (`rows` is the MMA's M per CTA: 64 or 128; `cols` is its N). The
    value is the 32-bit TMEM address `tcgen05.alloc` returned (lane in bits
    31-16, column in bits 15-0) and lowers to `!llvm.ptr<6>`, the NVVM
    tensor-memory pointer. The stages together take `stages * cols` <= 512
    columns; the allocation rounds that up to a power of two >= 32.

    Example: `!gemm.tmem<2 x 128 x 256 x f32>` (two 128x256 accumulators,
    all 512 columns).
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$rows, "int64_t":$cols,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $stages `x` $rows `x` $cols `x` $elementType `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// TMEM columns the stages span.
    int64_t getColumns() const { return getStages() * getCols(); }
    /// Columns to allocate: the span rounded up to a power of two >= 32.
    int64_t getAllocColumns() const;
  }];
}

def Gemm_Tmem : Type<CPred<"::llvm::isa<::mlir::gemm::TmemType>($_self)">,
    "tensor-memory accumulator", "::mlir::gemm::TmemType">;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def Gemm_WarpRolesOp : Gemm_Op<"warp_roles", [Gemm_SideEffects,
    RecursiveMemoryEffects]> {
  let summary = "SM100 warp roles: TMA load, MMA, scheduler and epilogue warps";
  let description = [{
    Splits the CTA into warps by role, as SM100 kernels do: warp 0 runs the
    `load` region (TMA loads), warp 1 the `mma` region (one elected thread
    issues `tcgen05.mma`), warp 2 the `scheduler` region (cluster launch
    control), and warps 3 .. 3 + epilogue_warps - 1 the `epilogue` region,
    whose block argument is the epilogue warp's index (0 ..
    epilogue_warps - 1). The block has `32 * (3 + epilogue_warps)` threads
    in x. There are four epilogue warps: a warp may only access the TMEM
    lane quarter `warp id mod 4`, and warps 3, 4, 5, 6 cover quarters
    3, 0, 1, 2, i.e. all 128 lanes of an M = 128 accumulator.

    Lowers to one branch per role on the warp index (`tid.x / 32`, broadcast
    from lane 0 with `shfl.sync` so that ptxas knows it is warp-uniform). No
    register reallocation: the roles keep the register count at entry.

    Example:
    ```mlir
    gemm.warp_roles epilogue_warps(4) load {
      gemm.yield
    } mma {
      gemm.yield
    } scheduler {
      gemm.yield
    } epilogue {
    ^bb0(%warp: i32):
      gemm.yield
    }
    ```
  }];
  let arguments = (ins I64Attr:$epilogueWarps);
  let regions = (region SizedRegion<1>:$load, SizedRegion<1>:$mma,
                        SizedRegion<1>:$scheduler, SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    `epilogue_warps` `(` $epilogueWarps `)` attr-dict `load` $load `mma` $mma
    `scheduler` $scheduler `epilogue` $epilogue
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    static constexpr int64_t kFirstEpilogueWarp = 3;
    int64_t getThreads() { return 32 * (kFirstEpilogueWarp + getEpilogueWarps()); }
  }];
}

//===----------------------------------------------------------------------===//
// Tensor memory
//===----------------------------------------------------------------------===//

def Gemm_TmemAllocOp : Gemm_Op<"tmem.alloc", [Gemm_SideEffects]> {
  let summary = "allocate tensor-memory columns, writing their address to shared memory";
  let description = [{
    `tcgen05.alloc.cta_group::N.sync.aligned.shared::cta.b32 [slot], columns`:
    one whole warp allocates `columns` TMEM columns (a power of two in
    [32, 512]) of all 128 lanes and the hardware writes the 32-bit TMEM
    address to the shared-memory `slot` (an unswizzled `i32` buffer; the
    address goes to its first element). The warp blocks until the columns
    are free. Other threads read the address with `gemm.tmem.address` after
    `gemm.tmem.fence before_thread_sync`, a CTA barrier and
    `gemm.tmem.fence after_thread_sync`. With `cta_group(2)` one warp in each
    CTA of the pair executes it and both CTAs get the same columns.
    The same warp must later `gemm.tmem.dealloc` what it allocated, and
    every tcgen05 op of a kernel must use the same cta_group.

    Example:
    ```mlir
    gemm.tmem.alloc %slot columns(512) : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
    ```
  }];
  let arguments = (ins Gemm_SmemBuffer:$slot, I64Attr:$columns,
                       DefaultValuedAttr<I64Attr, "1">:$ctaGroup);
  let assemblyFormat = [{
    $slot `columns` `(` $columns `)` (`cta_group` `(` $ctaGroup^ `)`)?
    attr-dict `:` type($slot)
  }];
  let hasVerifier = 1;
}

def Gemm_TmemRelinquishOp : Gemm_Op<"tmem.relinquish", [Gemm_SideEffects]> {
  let summary = "give up the CTA's right to allocate tensor memory";
  let description = [{
    `tcgen05.relinquish_alloc_permit.cta_group::N.sync.aligned`, executed by
    the allocating warp right after `gemm.tmem.alloc`: it lets CTAs of a
    later cluster on the same SM allocate (and block) instead of this CTA
    holding the permit for its whole life. Allocating after it is illegal.

    Example: `gemm.tmem.relinquish cta_group(2)`
  }];
  let arguments = (ins DefaultValuedAttr<I64Attr, "1">:$ctaGroup);
  let assemblyFormat = "(`cta_group` `(` $ctaGroup^ `)`)? attr-dict";
  let hasVerifier = 1;
}

def Gemm_TmemAddressOp : Gemm_Op<"tmem.address", [MemoryEffects<[MemRead]>]> {
  let summary = "read the TMEM address that gemm.tmem.alloc wrote to shared memory";
  let description = [{
    `ld.shared.b32` of the slot's first element, typed as the accumulator
    ring it addresses. This is the handoff of the TMEM address from the
    allocating warp to the MMA and epilogue warps: it must follow the
    `tcgen05.fence::before_thread_sync`, barrier,
    `tcgen05.fence::after_thread_sync` sequence after the alloc.

    Example:
    ```mlir
    %acc = gemm.tmem.address %slot : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0> -> !gemm.tmem<2 x 128 x 256 x f32>
    ```
  }];
  let arguments = (ins Gemm_SmemBuffer:$slot);
  let results = (outs Gemm_Tmem:$tmem);
  let assemblyFormat = "$slot attr-dict `:` type($slot) `->` type($tmem)";
  let hasVerifier = 1;
}

def Gemm_TmemDeallocOp : Gemm_Op<"tmem.dealloc", [Gemm_SideEffects]> {
  let summary = "free tensor-memory columns";
  let description = [{
    `tcgen05.dealloc.cta_group::N.sync.aligned.b32 taddr, columns`: the warp
    that allocated frees the `columns` it allocated, once every MMA and
    `tcgen05.ld` on them completed (the epilogue's last accumulator-empty
    arrival, then `gemm.tmem.fence after_thread_sync`). A CTA must free all
    its TMEM before it exits.

    Example:
    ```mlir
    gemm.tmem.dealloc %acc columns(512) : !gemm.tmem<2 x 128 x 256 x f32>
    ```
  }];
  let arguments = (ins Gemm_Tmem:$tmem, I64Attr:$columns,
                       DefaultValuedAttr<I64Attr, "1">:$ctaGroup);
  let assemblyFormat = [{
    $tmem `columns` `(` $columns `)` (`cta_group` `(` $ctaGroup^ `)`)?
    attr-dict `:` type($tmem)
  }];
  let hasVerifier = 1;
}

def Gemm_TmemFenceOp : Gemm_Op<"tmem.fence", [Gemm_SideEffects]> {
  let summary = "order tcgen05 operations around a thread synchronisation";
  let description = [{
    `tcgen05.fence::before_thread_sync` orders the executing thread's prior
    asynchronous tcgen05 operations (alloc, MMA, ld) before a following
    barrier or mbarrier arrival; `tcgen05.fence::after_thread_sync` orders
    the following tcgen05 operations after a preceding barrier or mbarrier
    wait. The TMEM-address handoff and the accumulator pipeline need a pair
    of them around each synchronisation.

    Example: `gemm.tmem.fence after_thread_sync`
  }];
  let arguments = (ins Gemm_TmemFence:$kind);
  let assemblyFormat = "$kind attr-dict";
  let hasVerifier = 1;
}

def Gemm_TmemLoadOp : Gemm_Op<"tmem.load", [Gemm_SideEffects]> {
  let summary = "load accumulator columns from tensor memory into registers";
  let description = [{
    `tcgen05.ld.sync.aligned.32x32b.xN.b32` then `tcgen05.wait::ld.sync.aligned`:
    warp `w` of the executing warpgroup (w = (tid.x / 32) mod 4, which is
    also the only lane quarter a warp may access) reads TMEM lanes
    `[32 w, 32 w + 32)` of accumulator stage `stage`; thread `t` of the warp
    gets row `32 w + t`, columns `[col, col + N)` as `vector<N x f32>`
    (N a power of two in [1, 128]). The accumulator must have 128 rows (the
    M = 128 per CTA layout). Needs a one-dimensional thread block. The
    caller waits on the accumulator's full barrier and issues
    `gemm.tmem.fence after_thread_sync` first.

    Example:
    ```mlir
    %v = gemm.tmem.load %acc[%stage] col(64) : !gemm.tmem<2 x 128 x 256 x f32> -> vector<32xf32>
    ```
  }];
  let arguments = (ins Gemm_Tmem:$tmem, I32:$stage, I64Attr:$col);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $tmem `[` $stage `]` `col` `(` $col `)` attr-dict `:` type($tmem) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Gemm_TmemStoreSmemOp : Gemm_Op<"tmem.store_smem", [Gemm_SideEffects]> {
  let summary = "move a warp's 32 accumulator rows of one 128-byte column block from tensor memory to a staging slot";
  let description = [{
    The SM100 epilogue step: warp `w` of the executing warpgroup (lane
    quarter q = (tid.x / 32) mod 4) loads TMEM lanes `[32 q, 32 q + 32)` of
    accumulator stage `stage`, columns `[col, col + 128 / sizeof(T))`, with
    `tcgen05.ld.sync.aligned.32x32b.xW.b32` and `tcgen05.wait::ld.sync.aligned`
    (thread t gets row 32 q + t), applies the optional epilogue region to
    each value (else rounds to T, the slot's element type), and writes its
    row to row t of staging slot `slot`: 32 rows of 128 bytes in the
    128-byte swizzle that a TMA store of a `(128 / sizeof(T)) x 32` box
    reads, chunk c of row t at chunk c ^ (t mod 8), with eight 16-byte
    `st.shared.v4.b32` per thread (the eight rows of a quarter-warp hit
    eight distinct chunks: no bank conflicts). The caller waits on the
    accumulator's full barrier and issues `gemm.tmem.fence
    after_thread_sync` before, and `fence.proxy.async.shared::cta` plus a
    warp barrier before the TMA store of the slot.

    Example:
    ```mlir
    gemm.tmem.store_smem %acc[%stage] col(64) -> %stage[%slot]
        : !gemm.tmem<2 x 128 x 256 x f32>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>
    ```
  }];
  let arguments = (ins Gemm_Tmem:$tmem, I32:$stage, I64Attr:$col,
                       Gemm_SmemBuffer:$buffer, I32:$slot);
  let regions = (region AnyRegion:$epilogue);
  let assemblyFormat = [{
    $tmem `[` $stage `]` `col` `(` $col `)` `->` $buffer `[` $slot `]`
    attr-dict `:` type($tmem) `,` type($buffer) ($epilogue^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MMA (SM100)
//===----------------------------------------------------------------------===//

def Gemm_MmaSm100Op : Gemm_Op<"mma.sm100", [Gemm_SideEffects]> {
  let summary = "one BK-deep k-block of tcgen05 MMA from shared memory into tensor memory";
  let description = [{
    Issues `BK * sizeof(elem) / 32` steps of
    `tcgen05.mma.cta_group::N.kind::f16 [d], adesc, bdesc, idesc, p`
    (bf16/f16) or `.kind::f8f6f4` (f8E4M3FN/f8E5M2), K = 16 resp. 32 per
    step, accumulating into stage `stage` of the TMEM ring. A and B are
    K-major 128-byte-swizzled tiles of ring slot `slot`, read through SM100
    shared-memory descriptors (start address >> 4, SBO = 1024 bytes between
    8-row core-matrix groups, version 0b001 in bits 46-48, base offset 0,
    swizzle mode 2 = 128B in bits 61-63); each step advances the start
    address by 32 bytes inside the swizzle atom. The instruction descriptor
    encodes D = f32, the A/B types, K-major A and B, N >> 3 and M >> 4
    (PTX ISA "Instruction descriptor", kind::f16/f8f6f4 table). The first
    step accumulates when `accumulate` is true (false: D = A * B); later
    steps always accumulate.

    Shapes (PTX ISA "tcgen05 Matrix Shape" table, dense, no .ws), with
    M = a.rows * cta_group and N = the accumulator's cols:
    - cta_group 1: M = 64 with N a multiple of 8 in [8, 256], or M = 128
      with N a multiple of 16 in [16, 256];
    - cta_group 2: M = 128 with N a multiple of 32 in [32, 256], or M = 256
      with N a multiple of 16 in [16, 256]. Each CTA of the pair holds half
      of A (a.rows = M / 2) and half of B (b.rows = N / 2), and its TMEM
      holds its M / 2 rows of D.
    (The ISA table allows N in steps of 8 for M = 128 and steps of 16 for
    cta_group 2, M = 128; the stricter steps are those CUTLASS uses.)

    One thread issues it (the caller elects it: `tcgen05.mma` is a
    single-thread instruction); with cta_group 2 it is the thread of the
    even CTA of the pair. The same thread then issues `gemm.mma.sm100.commit`,
    which tracks only that thread's MMAs.

    Example:
    ```mlir
    gemm.mma.sm100 %ringA, %ringB slot(%slot) -> %acc[%stage] accumulate(%flag)
        : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
          !gemm.tmem<2 x 128 x 256 x f32>
    ```
  }];
  let arguments = (ins Gemm_SmemBuffer:$a, Gemm_SmemBuffer:$b, I32:$slot,
                       Gemm_Tmem:$tmem, I32:$stage, I1:$accumulate,
                       DefaultValuedAttr<I64Attr, "1">:$ctaGroup);
  let assemblyFormat = [{
    $a `,` $b `slot` `(` $slot `)` `->` $tmem `[` $stage `]`
    `accumulate` `(` $accumulate `)` (`cta_group` `(` $ctaGroup^ `)`)?
    attr-dict `:` type($a) `,` type($b) `,` type($tmem)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The MMA's M (over the CTA pair for cta_group 2).
    int64_t getM();
    /// The MMA's N.
    int64_t getN();
    /// K of one tcgen05.mma instruction: 32 bytes of the element type.
    int64_t getInstrK();
  }];
}

def Gemm_MmaSm100CommitOp : Gemm_Op<"mma.sm100.commit", [Gemm_SideEffects]> {
  let summary = "arrive on a pipeline barrier once the issuing thread's MMAs complete";
  let description = [{
    `tcgen05.commit.cta_group::N.mbarrier::arrive::one.shared::cluster.b64 [bar]`
    (with `multicast(%mask)`:
    `tcgen05.commit.cta_group::N.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [bar], mask`):
    once all tcgen05 operations the executing thread issued before complete,
    one arrival lands on the `full` or `empty` barrier of the pipeline slot
    of `iteration` (in every CTA whose bit is set in the 16-bit mask, at the
    same shared-memory offset). The commit implies
    `tcgen05.fence::before_thread_sync`. Used by the MMA thread to free a
    TMA ring slot (`empty`: the MMAs no longer read it) and to publish an
    accumulator stage to the epilogue (`full`). With cta_group 2 the leader
    thread multicasts to both CTAs of the pair.

    Example:
    ```mlir
    gemm.mma.sm100.commit %ring[%n] empty : !gemm.pipeline<stages = 4, producers = 1, consumers = 1>
    ```
  }];
  let arguments = (ins Gemm_Pipeline:$pipeline, I32:$iteration,
                       Gemm_PipelineBarrier:$barrier,
                       Optional<I16>:$multicastMask,
                       DefaultValuedAttr<I64Attr, "1">:$ctaGroup);
  let assemblyFormat = [{
    $pipeline `[` $iteration `]` $barrier (`multicast` `(` $multicastMask^ `)`)?
    (`cta_group` `(` $ctaGroup^ `)`)? attr-dict `:` type($pipeline)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cluster launch control (CLC) tile scheduler
//===----------------------------------------------------------------------===//

def Gemm_ClcTryCancelOp : Gemm_Op<"sched.clc_try_cancel", [Gemm_SideEffects]> {
  let summary = "ask to cancel a not-yet-launched cluster and take over its tile";
  let description = [{
    `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [resp], [bar]`
    (`.multicast::cluster::all` with `multicast`): one thread asks the
    hardware to cancel the launch of a pending cluster; the 16-byte opaque
    response is written asynchronously to slot `slot` of `response` (stage
    size 16 bytes, unswizzled) and completes 16 transaction bytes on the
    full barrier of the pipeline slot of `iteration`. With `multicast` the
    response and the complete_tx go to the same offsets in every CTA of the
    cluster, so each CTA's barrier must expect 16 bytes. The caller arms
    the barrier (`gemm.pipeline.producer_commit ... tx(16)`) and reads the
    answer with `gemm.sched.clc_query` after waiting on it.

    Example:
    ```mlir
    gemm.sched.clc_try_cancel %resp[%slot] barrier %clc[%n] multicast
        : !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>,
          !gemm.pipeline<stages = 2, producers = 1, consumers = 5>
    ```
  }];
  let arguments = (ins Gemm_SmemBuffer:$response, I32:$slot,
                       Gemm_Pipeline:$pipeline, I32:$iteration,
                       UnitAttr:$multicast);
  let assemblyFormat = [{
    $response `[` $slot `]` `barrier` $pipeline `[` $iteration `]`
    (`multicast` $multicast^)? attr-dict `:` type($response) `,` type($pipeline)
  }];
  let hasVerifier = 1;
}

def Gemm_ClcQueryOp : Gemm_Op<"sched.clc_query", [MemoryEffects<[MemRead]>]> {
  let summary = "decode a cluster-launch-control response";
  let description = [{
    Loads the 16-byte response in slot `slot` of `response` and decodes it
    with `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128` (`valid`:
    a cluster was cancelled, so this CTA should process its tile) and
    `clusterlaunchcontrol.query_cancel.get_first_ctaid::{x,y,z}.b32.b128`
    (the ctaid of the cancelled cluster's first CTA; meaningful only when
    `valid`). Must follow the wait on the barrier the try_cancel completed
    on.

    Example:
    ```mlir
    %valid, %x, %y, %z = gemm.sched.clc_query %resp[%slot] : !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>
    ```
  }];
  let arguments = (ins Gemm_SmemBuffer:$response, I32:$slot);
  let results = (outs I1:$valid, I32:$x, I32:$y, I32:$z);
  let assemblyFormat = "$response `[` $slot `]` attr-dict `:` type($response)";
  let hasVerifier = 1;
}

#endif // GEMM_SM100_OPS_TD
