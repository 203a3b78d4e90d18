#ifndef GEMM_OPS_TD
#define GEMM_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "gemm/Dialect/Gemm/IR/GemmDialect.td"
include "gemm/Dialect/Gemm/IR/GemmEnums.td"
include "gemm/Dialect/Gemm/IR/GemmAttrs.td"
include "gemm/Dialect/Gemm/IR/GemmTypes.td"

// Ops that talk to barriers, the async proxy or the tensor cores must never be
// CSE'd, hoisted or dropped: they all read and write (shared) memory.
defvar Gemm_SideEffects = MemoryEffects<[MemRead, MemWrite]>;

def Gemm_TmaDescriptor : Type<CPred<"::llvm::isa<::mlir::gemm::TmaDescriptorType>($_self)">,
    "TMA descriptor", "::mlir::gemm::TmaDescriptorType">;
def Gemm_SmemBuffer : Type<CPred<"::llvm::isa<::mlir::gemm::SmemBufferType>($_self)">,
    "shared-memory buffer", "::mlir::gemm::SmemBufferType">;
def Gemm_Pipeline : Type<CPred<"::llvm::isa<::mlir::gemm::PipelineType>($_self)">,
    "pipeline", "::mlir::gemm::PipelineType">;
def Gemm_Accumulator : Type<CPred<"::llvm::isa<::mlir::gemm::AccumulatorType>($_self)">,
    "accumulator", "::mlir::gemm::AccumulatorType">;
// A kernel's workspace buffers (bundle workspace parameters) are plain
// global-memory pointers.
def Gemm_GlobalPointer : Type<
    CPred<"::llvm::isa<::mlir::LLVM::LLVMPointerType>($_self) && "
          "::llvm::cast<::mlir::LLVM::LLVMPointerType>($_self).getAddressSpace() == 1">,
    "global-memory pointer (!llvm.ptr<1>)", "::mlir::LLVM::LLVMPointerType">;

//===----------------------------------------------------------------------===//
// Problem
//===----------------------------------------------------------------------===//

def Gemm_MatmulOp : Gemm_Op<"matmul", [Symbol, IsolatedFromAbove]> {
  let summary = "a GEMM problem C = A * B^T and the configuration of its kernel";
  let description = [{
    Declares one GEMM kernel: `C[M, N] = epilogue(A[M, K] * B[N, K]^T)` with
    M, N, K chosen at run time. The operand element types and storage orders,
    the accumulator type and the `#gemm.config` fix everything else. A
    materialize pass (`gemm-materialize-sm90`, `gemm-materialize-sm100`)
    replaces it by a `gpu.module` holding the kernel.

    Storage orders, for the matrices of C = A * B with A M x K, B K x N and
    C M x N (BLAS terms; the kernel reads B as N x K, B^T):
    - `a(T, row)`: M rows of K contiguous elements (K-major);
      `a(T, col)`: K columns of M contiguous elements (M-major).
    - `b(T, col)`: N columns of K contiguous elements, i.e. N rows of K as
      the kernel reads it (K-major); `b(T, row)`: K rows of N contiguous
      elements (N-major), e.g. a PyTorch weight W [K, N] of `x @ W`.
    - `c(T, row)`: M rows of N; `c(T, col)`: N columns of M.
    Every combination is implemented on sm_90a for bf16 and f16 (the
    MN-major operands through WGMMA's transposed shared-memory layout, a
    column-major C through a transposed staging tile of the epilogue);
    sm_100a kernels take a(row) b(col) c(row).
    WGMMA transposes only 16-bit operands, so 8-bit and f32 (tf32) A and B
    must be K-major (a row, b col); a column-major C takes every output
    type but fp8.

    `batched` (sm_90a): C[b] = A[b] * B[b]^T for b < batch, the batch size
    a run-time value. Each of A, B and C is a batch of matrices with its own
    element stride between entries (a kernel parameter through its rank-3
    TMA descriptor); an A or B batch stride of 0 broadcasts one matrix to
    every entry (the kernel then reads batch coordinate 0 of it: the
    `batch_broadcast` parameter). The persistent schedule walks the tiles of
    all entries (entry-major, raster order and swizzle inside an entry);
    split-K and stream-K cut the tiles of all entries alike.

    `grouped` (sm_90a, the Mixture-of-Experts form): G problems of
    different M and shared N and K in one launch. A is one [sum of M_g, K]
    matrix (K-major), B is [G, N, K] (`b(T, col)`) or [G, K, N]
    (`b(T, row)`), C is [sum of M_g, N] (row-major); group g owns rows
    [offsets[g], offsets[g + 1]) of A and C and entry g of B. The offsets
    (G + 1 nondecreasing entries) live in device memory: the runtime's prep
    kernel turns them into the group table the kernel reads (the row
    units of every group, docs/SM90.md "Grouped kernels"), so a router's
    output is used without host synchronisation. M_g = 0 and M_g not a
    multiple of the tile are allowed. Tiles that end inside their group
    are stored with TMA; a tile that crosses its group's end is written by
    masked plain stores, so no row of another group is written.

    `grouped(general)` (sm_90a, bf16 / f16): G independent problems in one
    launch, each with its own M_g, N_g, K_g, A, B and C addresses and
    leading dimensions, read from a device array of G 64-byte records the
    caller fills (a router or a framework, with no host synchronisation;
    docs/Runtime.md "General groups"). The storage orders of the op's types
    hold for every group. Before the kernel, the runtime's prep kernel
    checks the records, counts each group's tiles (a prefix over the
    groups) and writes three TMA descriptors per group, copied from
    host-encoded templates and patched on the device with
    `tensormap.replace`; the kernel finds a tile's group by binary search
    over the prefix and acquires its descriptors with
    `fence.proxy.tensormap::generic.acquire.gpu` (docs/SM90.md "General
    grouped kernels"). Each group's descriptors have the group's own extent,
    so TMA zero-fills the loads and clips the stores at M_g, N_g and K_g.
    Groups with M_g = 0 or N_g = 0 have no tiles.

    The optional epilogue region maps one accumulator value to one output
    value (alpha scaling, activation, conversion); without it the
    accumulator is rounded to the output type.

    Element types (docs/LowPrecision.md): bf16 or f16 (both the same), f32
    (read by WGMMA as tf32), fp8 (`f8E4M3FN`, `f8E5M2`, mixed pairs too) or
    8-bit integers (`si8`, `ui8`, mixed too). The accumulator is f32, or
    i32 for 8-bit integers. 8-bit and f32 operands must be K-major (a row,
    b col). The optional `quant(#gemm.quant<...>)` gives fp8 and int8
    problems their scale factors (per tensor, per row of A / column of B,
    or block-wise), fp8 outputs their output scale, and fp8 inputs their
    accumulation (promoted into f32 every few k-blocks, or fast). With
    scales or an int8-to-float dequantisation, the epilogue region takes
    the scaled f32 value; for an fp8 output it yields f32, which the kernel
    multiplies by the output scale and rounds to fp8.

    Example:
    ```mlir
    gemm.matmul @gemm_bf16 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
        config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
    gemm.matmul @gemm_fp8 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row)
        acc(f32) quant(#gemm.quant<a = block, b = block>)
        config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttr:$aType, Gemm_LayoutAttr:$aLayout,
                       TypeAttr:$bType, Gemm_LayoutAttr:$bLayout,
                       TypeAttr:$cType, Gemm_LayoutAttr:$cLayout,
                       TypeAttr:$accType, UnitAttr:$batched,
                       UnitAttr:$grouped, UnitAttr:$general,
                       OptionalAttr<Gemm_QuantAttr>:$quant,
                       Gemm_ConfigAttr:$config);
  let regions = (region AnyRegion:$epilogue);
  let assemblyFormat = [{
    $sym_name `a` `(` $aType `,` $aLayout `)` `b` `(` $bType `,` $bLayout `)`
    `c` `(` $cType `,` $cLayout `)` `acc` `(` $accType `)` (`batched` $batched^)?
    custom<Grouped>($grouped, $general) (`quant` `(` $quant^ `)`)?
    `config` `(` $config `)` attr-dict-with-keyword ($epilogue^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The quant attribute, or its defaults (no scales, promoted).
    ::mlir::gemm::QuantAttr getQuantOrDefault();
    /// The type the epilogue region takes: the accumulator's, or f32 where
    /// an int8 accumulator is dequantised to a float output.
    ::mlir::Type getEpilogueValueType();
    /// The storage orders this arch and element type can take.
    ::mlir::LogicalResult verifyLayouts();
    /// Batched kernels: sm_90a.
    ::mlir::LogicalResult verifyBatched();
    /// Grouped (MoE) kernels: sm_90a, bf16 / f16, K-major A, row-major C,
    /// the static persistent schedule.
    ::mlir::LogicalResult verifyGrouped();
    /// `grouped(general)`: one problem per group from the device array.
    bool isGeneralGrouped() { return getGrouped() && getGeneral(); }
  }];
}

def Gemm_YieldOp : Gemm_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["MatmulOp", "WarpSpecializeOp", "AccumStoreSmemOp",
                 "WarpRolesOp", "TmemStoreSmemOp", "AccumStoreDirectOp"]>]> {
  let summary = "terminates gemm regions";
  let description = [{
    Returns the epilogue's output value, or ends a warp-role region.
    Example: `gemm.yield %v : bf16`
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def Gemm_WarpSpecializeOp : Gemm_Op<"warp_specialize", [Gemm_SideEffects,
    RecursiveMemoryEffects]> {
  let summary = "SM90 warpgroup roles: one producer, N consumers, with register budgets";
  let description = [{
    Splits the CTA into warpgroups of 128 threads: warpgroup 0 runs the
    `producer` region (TMA loads) after `setmaxnreg.dec.sync.aligned.u32
    producer_regs`; warpgroups 1..consumers run the `consumer` region, whose
    block argument is the consumer index, after `setmaxnreg.inc.sync.aligned.u32
    consumer_regs`. Lowers to one branch per role, as `setmaxnreg` requires.
    The register budget must fit the 64K-register file:
    128 * (producer_regs + consumers * consumer_regs) <= 65536.

    Example:
    ```mlir
    gemm.warp_specialize consumers(2) regs(40, 232) producer {
      ...
      gemm.yield
    } consumer {
    ^bb0(%consumer: i32):
      ...
      gemm.yield
    }
    ```
  }];
  let arguments = (ins I64Attr:$consumers, I64Attr:$producerRegs,
                       I64Attr:$consumerRegs);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumer);
  let assemblyFormat = [{
    `consumers` `(` $consumers `)` `regs` `(` $producerRegs `,` $consumerRegs `)`
    attr-dict `producer` $producer `consumer` $consumer
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getThreads() { return 128 * (1 + getConsumers()); }
  }];
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def Gemm_SmemPlanOp : Gemm_Op<"smem.plan", [Pure]> {
  let summary = "the kernel's whole shared-memory allocation";
  let description = [{
    Allocates every shared-memory object of the kernel from the dynamic
    shared memory: tile rings and staging buffers (`!gemm.smem`), then the
    mbarriers of each pipeline (`!gemm.pipeline`). Buffers are placed in
    result order at 1024-byte aligned offsets (what the 128-byte swizzle of
    TMA and WGMMA needs), barriers at 8-byte aligned offsets. The verifier
    checks the total against the 227 KB (232448-byte) per-block limit of
    SM90 and SM100. Lowers to address arithmetic on the dynamic shared
    memory symbol.

    Example:
    ```mlir
    %a, %b, %p = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
        !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
        !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    ```
  }];
  let results = (outs Variadic<AnyTypeOf<[Gemm_SmemBuffer, Gemm_Pipeline]>>:$objects);
  let assemblyFormat = "attr-dict `:` type($objects)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    static constexpr int64_t kMaxBytes = ::gemm::bundle::MaxDynamicSmemBytes;
    /// Byte offset of each object in the dynamic shared memory.
    static ::llvm::SmallVector<int64_t> getOffsets(::mlir::TypeRange objects);
    /// Bytes a plan of these objects takes, so planners can size one first.
    static int64_t getTotalBytes(::mlir::TypeRange objects);
    ::llvm::SmallVector<int64_t> getOffsets() { return getOffsets(getResultTypes()); }
    int64_t getTotalBytes() { return getTotalBytes(getResultTypes()); }
  }];
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

class Gemm_PipelineOp<string mnemonic, list<Trait> traits = []>
    : Gemm_Op<mnemonic, !listconcat(traits, [Gemm_SideEffects])> {
  let arguments = (ins Gemm_Pipeline:$pipeline, I32:$iteration);
  let assemblyFormat = "$pipeline `[` $iteration `]` attr-dict `:` type($pipeline)";
}

def Gemm_PipelineInitOp : Gemm_Op<"pipeline.init", [Gemm_SideEffects]> {
  let summary = "initialise a pipeline's mbarriers (one thread)";
  let description = [{
    `mbarrier.init.shared::cta.b64` of every full barrier with the producer
    count and every empty barrier with the consumer count. Run by one thread;
    before other threads (or, with clusters, other CTAs) use the barriers the
    kernel needs `fence.mbarrier_init.release.cluster` and a CTA or cluster
    barrier.

    Example: `gemm.pipeline.init %p : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>`
  }];
  let arguments = (ins Gemm_Pipeline:$pipeline);
  let assemblyFormat = "$pipeline attr-dict `:` type($pipeline)";
}

def Gemm_ProducerAcquireOp : Gemm_PipelineOp<"pipeline.producer_acquire"> {
  let summary = "wait until the slot of an iteration is empty";
  let description = [{
    Waits on the slot's empty barrier for the phase before the iteration's
    (`mbarrier.try_wait.parity.shared::cta.b64` in a loop with parity
    `((n / stages) & 1) ^ 1`), so the first pass over the ring does not wait.

    Example: `gemm.pipeline.producer_acquire %p[%n] : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>`
  }];
}

def Gemm_ProducerCommitOp : Gemm_Op<"pipeline.producer_commit", [Gemm_SideEffects]> {
  let summary = "arrive on a slot's full barrier, expecting TMA bytes";
  let description = [{
    `mbarrier.arrive.expect_tx.shared::cta.b64` on the slot's full barrier
    with `tx_bytes`, which must equal the bytes that the TMA loads completing
    on this barrier deliver to this CTA (multicast from peers included);
    `gemm-check-pipelines` proves it.

    With `cta_group(2)` (SM100) the arrival goes to the full barrier of the
    even CTA of this CTA's pair (`mapa.shared::cluster` then
    `mbarrier.arrive.expect_tx.shared::cluster.b64`), where the pair's
    `cta_group(2)` TMA loads complete: each CTA of the pair announces the
    bytes of its own loads, and the pair leader's MMA waits for both.

    Example: `gemm.pipeline.producer_commit %p[%n] tx(49152) : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>`
  }];
  let arguments = (ins Gemm_Pipeline:$pipeline, I32:$iteration, I64Attr:$txBytes,
                       OptionalAttr<I64Attr>:$ctaGroup);
  let assemblyFormat = [{
    $pipeline `[` $iteration `]` `tx` `(` $txBytes `)`
    (`cta_group` `(` $ctaGroup^ `)`)? attr-dict `:` type($pipeline)
  }];
  let hasVerifier = 1;
}

def Gemm_ConsumerWaitOp : Gemm_PipelineOp<"pipeline.consumer_wait"> {
  let summary = "wait until the slot of an iteration is full";
  let description = [{
    `mbarrier.try_wait.parity.shared::cta.b64` in a loop on the slot's full
    barrier with parity `(n / stages) & 1`.

    Example: `gemm.pipeline.consumer_wait %p[%n] : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>`
  }];
}

def Gemm_ConsumerReleaseOp : Gemm_Op<"pipeline.consumer_release", [Gemm_SideEffects]> {
  let summary = "mark the slot of an iteration empty, here and in peer CTAs";
  let description = [{
    Arrives once on the slot's empty barrier (`mbarrier.arrive.shared::cta.b64`).
    With `peers(%mask)`, arrives instead on the barrier of every CTA of the
    cluster whose bit is set (`mapa.shared::cluster` then
    `mbarrier.arrive.shared::cluster.b64`): the CTAs whose
    multicast loads write into this CTA's slot must not refill it before this
    consumer is done. `cluster_size` bounds the mask.

    Example: `gemm.pipeline.consumer_release %p[%n] peers(%mask) cluster_size(2) : !gemm.pipeline<stages = 4, producers = 1, consumers = 4>`
  }];
  let arguments = (ins Gemm_Pipeline:$pipeline, I32:$iteration,
                       Optional<I32>:$peerMask, OptionalAttr<I64Attr>:$clusterSize);
  let assemblyFormat = [{
    $pipeline `[` $iteration `]` (`peers` `(` $peerMask^ `)`)?
    (`cluster_size` `(` $clusterSize^ `)`)? attr-dict `:` type($pipeline)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

def Gemm_TmaLoadOp : Gemm_Op<"tma.load", [Gemm_SideEffects, AttrSizedOperandSegments]> {
  let summary = "TMA load of one box into a ring slot, completing on the slot's full barrier";
  let description = [{
    `cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes`
    (`.3d` with the batch entry `batch` as third coordinate for a rank-3
    descriptor; with `.multicast::cluster` and a CTA mask when `multicast` is
    given) of the box at element coordinates `[inner, outer]` into slot `slot` of the
    ring, `row` rows into the slot (multicast slices), completing on the
    full barrier of the pipeline's slot for `iteration`. Out-of-bounds
    elements are zero-filled, so edge tiles and a K tail need no masking.
    `cta_group(2)` (SM100, `.cta_group::2`): the load completes on the full
    barrier of the even CTA of this CTA's pair (the barrier address is
    mapped there with `mapa.shared::cluster`), which is the barrier the
    pair's MMA leader waits on.
    `when(%issue)`: where `%issue` is false nothing is copied and the box's
    bytes are completed on the barrier without data
    (`mbarrier.complete_tx`), so the stage's expected byte count stays the
    same; the slot keeps its previous contents. Used to skip boxes wholly
    outside the matrix (rows of A at or beyond M), which TMA would otherwise
    fill with zeros at the cost of a load. Not with `multicast` or
    `cta_group(2)`, whose bytes land in other CTAs' barriers.

    Into an MN-major ring (`major = mn`, an M- or N-major operand), a box is
    one block of the slot: `span` (one swizzle span) M or N elements along
    its inner dimension and K lines along its outer dimension, landing at
    row `row` (a multiple of the span) of the slot and, with
    `k_offset(%k)`, at K line `%k` of the block (a slice of the K lines,
    e.g. one multicast slice). The swizzle is a function of the shared
    address, so the box lands in the layout WGMMA reads.

    Example:
    ```mlir
    gemm.tma.load %descA[%k, %m] -> %ringA[%slot] barrier %p[%n]
        : !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>,
          !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    gemm.tma.load %descB[%n, %k] -> %ringB[%slot, %row] k_offset(%line)
        barrier %p[%n] multicast(%mask)
        : !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>,
          !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128, major = mn>,
          !gemm.pipeline<stages = 4, producers = 1, consumers = 4>
    ```
  }];
  let arguments = (ins Gemm_TmaDescriptor:$descriptor, I32:$inner, I32:$outer,
                       Optional<I32>:$batch,
                       Gemm_SmemBuffer:$buffer, I32:$slot, Optional<I32>:$row,
                       Optional<I32>:$kOffset,
                       Gemm_Pipeline:$pipeline, I32:$iteration,
                       Optional<I16>:$multicastMask, Optional<I1>:$issue,
                       OptionalAttr<I64Attr>:$ctaGroup);
  let assemblyFormat = [{
    $descriptor `[` $inner `,` $outer (`,` $batch^)? `]` `->` $buffer `[` $slot (`,` $row^)? `]`
    (`k_offset` `(` $kOffset^ `)`)?
    `barrier` $pipeline `[` $iteration `]` (`multicast` `(` $multicastMask^ `)`)?
    (`when` `(` $issue^ `)`)? (`cta_group` `(` $ctaGroup^ `)`)?
    attr-dict `:` type($descriptor) `,` type($buffer) `,` type($pipeline)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The slices of the slot's extent along the box's outer dimension
    /// (rows of a K-major slot, K lines of an MN-major one) that boxes like
    /// this one make up: the loads of a multicast group together fill the
    /// slot, so each counts for this many boxes in every CTA of the group.
    int64_t getSlices();
  }];
}

def Gemm_TmaStoreOp : Gemm_Op<"tma.store", [Gemm_SideEffects,
    AttrSizedOperandSegments]> {
  let summary = "TMA store of one staging slot (or rows of it) to global memory";
  let description = [{
    `cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group` of slot
    `slot` to the box at `[inner, outer]` (`.3d` at `[inner, outer, batch]`
    for a rank-3 descriptor); out-of-bounds elements are not written. A box of fewer rows than the slot stores the rows from `row`
    (a slot holding several boxes, e.g. the two 32 x 32 f32 boxes of a
    column-major C sub-tile). An unswizzled descriptor (`swizzle = 0`) of
    the slot's element type whose box is narrower than the slot's rows and
    as tall as the slot stores a packed narrow sub-tile (what
    `gemm.accum.store_smem ... columns(w)` writes for a row-major C): the
    slot's first `box[0] x box[1]` elements, row after row. Writers of the slot must have executed
    `fence.proxy.async.shared::cta` and synchronised first. Completion is
    tracked with `gemm.tma.store_commit` / `gemm.tma.store_wait`.

    Example: `gemm.tma.store %descC[%n, %m] from %stage[%slot] : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>`
  }];
  let arguments = (ins Gemm_TmaDescriptor:$descriptor, I32:$inner, I32:$outer,
                       Optional<I32>:$batch,
                       Gemm_SmemBuffer:$buffer, I32:$slot, Optional<I32>:$row);
  let assemblyFormat = [{
    $descriptor `[` $inner `,` $outer (`,` $batch^)? `]` `from` $buffer `[` $slot (`,` $row^)? `]`
    attr-dict `:` type($descriptor) `,` type($buffer)
  }];
  let extraClassDeclaration = [{
    /// Whether it stores a packed narrow sub-tile: an unswizzled box of the
    /// slot's element type narrower than a swizzled slot's rows.
    bool storesPackedBox();
  }];
  let hasVerifier = 1;
}

def Gemm_TmaStoreCommitOp : Gemm_Op<"tma.store_commit", [Gemm_SideEffects]> {
  let summary = "close the current bulk async-group of TMA stores";
  let description = [{
    `cp.async.bulk.commit_group`. Example: `gemm.tma.store_commit`
  }];
  let assemblyFormat = "attr-dict";
}

def Gemm_TmaStoreWaitOp : Gemm_Op<"tma.store_wait", [Gemm_SideEffects]> {
  let summary = "wait until at most `pending` TMA store groups are in flight";
  let description = [{
    `cp.async.bulk.wait_group.read pending` (with `read`: only the shared
    memory reads must be done, so the staging slot can be rewritten) or
    `cp.async.bulk.wait_group pending` (the writes are done too).

    `pending` is 0 .. 2^31 - 1 (the instruction's operand is a 32-bit
    constant).

    Example: `gemm.tma.store_wait pending(1) read`
  }];
  let arguments = (ins I64Attr:$pending, UnitAttr:$read);
  let assemblyFormat = "`pending` `(` $pending `)` (`read` $read^)? attr-dict";
  let hasVerifier = 1;
}

def Gemm_TmaPrefetchDescriptorOp : Gemm_Op<"tma.prefetch_descriptor", [Gemm_SideEffects]> {
  let summary = "prefetch a tensor map into the descriptor cache";
  let description = [{
    `prefetch.param.tensormap` (generic address of the kernel parameter),
    hiding the descriptor fetch of the first TMA.
    Example: `gemm.tma.prefetch_descriptor %descA : !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>`
  }];
  let arguments = (ins Gemm_TmaDescriptor:$descriptor);
  let assemblyFormat = "$descriptor attr-dict `:` type($descriptor)";
}

def Gemm_TmaPrefetchOp : Gemm_Op<"tma.prefetch", [Gemm_SideEffects]> {
  let summary = "prefetch one box into L2";
  let description = [{
    `cp.async.bulk.prefetch.tensor.2d.L2.global.tile` of the box at
    `[inner, outer]` (`.3d` with the batch entry for a rank-3 descriptor).
    Example: `gemm.tma.prefetch %descA[%k, %m] : !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>`
  }];
  let arguments = (ins Gemm_TmaDescriptor:$descriptor, I32:$inner, I32:$outer,
                       Optional<I32>:$batch);
  let assemblyFormat = [{
    $descriptor `[` $inner `,` $outer (`,` $batch^)? `]` attr-dict `:` type($descriptor)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MMA (SM90)
//===----------------------------------------------------------------------===//

def Gemm_AccumZeroOp : Gemm_Op<"accum.zero", [Pure]> {
  let summary = "an accumulator of zeros";
  let description = [{
    The accumulator of a fresh tile. Where `gemm.mma.sm90` takes it directly,
    no zeros are materialised: that MMA's first k-step overwrites the
    registers (WGMMA scale-d = 0). Any other use gets zero registers.
    Example: `%acc = gemm.accum.zero : !gemm.accum<64 x 256 x f32>`
  }];
  let results = (outs Gemm_Accumulator:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Gemm_WgmmaFenceOp : Gemm_Op<"wgmma.fence", [Gemm_SideEffects]> {
  let summary = "order register and shared-memory accesses before WGMMA";
  let description = [{
    `wgmma.fence.sync.aligned`: required before the first `wgmma.mma_async`
    and whenever the accumulator registers were touched by other
    instructions. Example: `gemm.wgmma.fence`
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Gemm_WgmmaCommitOp : Gemm_Op<"wgmma.commit", [Gemm_SideEffects]> {
  let summary = "close the current WGMMA group";
  let description = [{ `wgmma.commit_group.sync.aligned`. Example: `gemm.wgmma.commit` }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Gemm_WgmmaWaitOp : Gemm_Op<"wgmma.wait", [Gemm_SideEffects]> {
  let summary = "wait until at most `pending` WGMMA groups are in flight";
  let description = [{
    `wgmma.wait_group.sync.aligned pending`. With `pending = 1` the previous
    k-block's MMAs are done, so its ring slot can be released while the
    current one still runs (a lookahead of one group).
    Example: `gemm.wgmma.wait pending(1)`
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "`pending` `(` $pending `)` attr-dict";
  let hasVerifier = 1;
}

def Gemm_MmaSm90Op : Gemm_Op<"mma.sm90", [Gemm_SideEffects,
    AllTypesMatch<["accumulator", "result"]>]> {
  let summary = "one BK-deep k-block of warpgroup MMA from shared memory";
  let description = [{
    Issues `BK / 16` (`BK / 32` for 8-bit types) steps of
    `wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16` (f16 likewise) for
    each 64-row atom of the accumulator, A and B read from ring slot `slot`
    through 128-byte-swizzle matrix descriptors. A starts `a_row`
    rows into its slot (the consumer warpgroup's share of a cooperative
    tile). N is the accumulator's column count and must be a legal WGMMA N
    (a multiple of 8 up to 256). The caller fences, commits and waits.

    Each ring's `major` picks the operand's layout: K-major (the default)
    or MN-major (`major = mn`: an M-major A or N-major B, the transpose
    immediates `imm-trans-a` / `imm-trans-b` = 1), for 16-bit types only
    (PTX: the transposes exist for .f16/.bf16). K-major descriptors: stride
    byte offset 1024 (8 rows of 128 bytes), a k-step advances the start
    address by 32 bytes. MN-major descriptors: leading byte offset
    `BK * 128` (one block of 64 M or N elements to the next), stride byte
    offset 1024 (8 K lines to the next 8), a k-step advances the start
    address by 16 K lines (2048 bytes, whole swizzle atoms).

    B's slot holds N rows, or with `cols(c)` at least c + N: the MMAs then
    read B's rows [c, c + N), one column slice of the tile (fp8 kernels that
    promote their partial sums slice by slice). c is a multiple of 8 for a
    K-major B and of 64 (one block) for an MN-major one.

    Example:
    ```mlir
    %acc1 = gemm.mma.sm90 %acc0, %ringA[%row], %ringB slot(%slot)
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
    %half = gemm.mma.sm90 %zero, %ringA[%row], %ringB cols(128) slot(%slot)
        : !gemm.accum<64 x 128 x f32>, !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
          !gemm.smem<4 x 256 x 128 x f8E4M3FN, swizzle = 128>
    ```
  }];
  let arguments = (ins Gemm_Accumulator:$accumulator, Gemm_SmemBuffer:$a,
                       I32:$slot, I32:$aRow, Gemm_SmemBuffer:$b,
                       OptionalAttr<I64Attr>:$bCol);
  let results = (outs Gemm_Accumulator:$result);
  let assemblyFormat = [{
    $accumulator `,` $a `[` $aRow `]` `,` $b (`cols` `(` $bCol^ `)`)?
    `slot` `(` $slot `)` attr-dict
    `:` type($accumulator) `,` type($a) `,` type($b)
  }];
  let extraClassDeclaration = [{
    /// The first of B's rows the MMAs read (0 without `cols`).
    int64_t getBColOffset() { return getBCol().value_or(0); }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Split-K partial tiles
//===----------------------------------------------------------------------===//

def Gemm_AccumStoreGlobalOp : Gemm_Op<"accum.store_global", [Gemm_SideEffects]> {
  let summary = "write a warpgroup's accumulator to a global f32 buffer (a split-K partial tile)";
  let description = [{
    Every thread of the warpgroup stores its accumulator values with
    `st.global.v4.f32` into block `index` of `buffer`, a block being one
    accumulator (`rows * cols` floats): value v of the thread with
    warpgroup index t (tid.x mod 128) goes to float
    `index * rows * cols + (v / 4) * 512 + 4 * t + v mod 4`, so each warp
    writes 512 contiguous bytes per step. `gemm.accum.load_add_global` reads
    the same (private, not row-major) layout.

    Example:
    ```mlir
    gemm.accum.store_global %acc -> %partials[%block] : !gemm.accum<64 x 256 x f32>, !llvm.ptr<1>
    ```
  }];
  let arguments = (ins Gemm_Accumulator:$accumulator, Gemm_GlobalPointer:$buffer,
                       I32:$index);
  let assemblyFormat = [{
    $accumulator `->` $buffer `[` $index `]` attr-dict `:` type($accumulator)
    `,` qualified(type($buffer))
  }];
}

def Gemm_AccumLoadAddGlobalOp : Gemm_Op<"accum.load_add_global", [Gemm_SideEffects,
    AllTypesMatch<["accumulator", "result"]>]> {
  let summary = "add a split-K partial tile from a global f32 buffer to an accumulator";
  let description = [{
    Loads block `index` of `buffer`, written by `gemm.accum.store_global`
    from an accumulator of the same type, with `ld.global.v4.f32` and adds it
    to the accumulator value by value. With `values(first, count)` only the
    thread's values [first, first + count) (flattened over the atoms,
    multiples of 4) are loaded and added: an epilogue sub-tile's share, so
    that a reduction does not hold a second accumulator in registers.

    Example:
    ```mlir
    %sum = gemm.accum.load_add_global %acc, %partials[%block] values(32, 32) : !gemm.accum<64 x 256 x f32>, !llvm.ptr<1>
    ```
  }];
  let arguments = (ins Gemm_Accumulator:$accumulator, Gemm_GlobalPointer:$buffer,
                       I32:$index, OptionalAttr<I64Attr>:$first,
                       OptionalAttr<I64Attr>:$count);
  let results = (outs Gemm_Accumulator:$result);
  let assemblyFormat = [{
    $accumulator `,` $buffer `[` $index `]` (`values` `(` $first^ `,` $count `)`)?
    attr-dict `:` type($accumulator) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The values [first, first + count) the op adds (all by default).
    std::pair<int64_t, int64_t> getValueRange();
  }];
}

//===----------------------------------------------------------------------===//
// Epilogue
//===----------------------------------------------------------------------===//

def Gemm_AccumStoreSmemOp : Gemm_Op<"accum.store_smem", [Gemm_SideEffects,
    AttrSizedOperandSegments]> {
  let summary = "convert one 64-row, 128-byte-wide accumulator sub-tile into a swizzled staging slot";
  let description = [{
    Takes the columns `[col, col + 128 / sizeof(elem))` of atom `atom` of the
    accumulator, applies the optional epilogue region to each value (else
    rounds to the slot's element type), and writes them into staging slot
    `slot`, laid out for a 128-byte-swizzle TMA store of a
    `64 x (128 / sizeof(elem))` box: with
    `stmatrix.sync.aligned.m8n8.x4.shared.b16` for 16-bit outputs, with
    8-byte `st.shared.v2.f32` for f32 and i32 (an i32 accumulator into an
    i32 slot is stored as it is). The swizzle makes the writes of a warp
    bank-conflict free. The caller issues `fence.proxy.async.shared::cta`
    and a barrier before the TMA store.

    fp8 slots (`f8E4M3FN`, `f8E5M2`): the region yields f32 (as does the
    plain rounding), which is multiplied by `scale(%s)` (the output scale,
    required) and rounded with `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`, two
    adjacent columns at a time, into 2-byte `st.shared.b16` stores. With
    `amax(%ptr)`, the largest absolute value before the output scale is
    reduced over the warp (`redux.sync.max.u32` of the non-negative f32
    bits, which order like the values) and its first lane raises the f32
    at `%ptr` to it with `red.global.max.u32`: the amax the next step's
    scale is computed from. `%ptr` must start at 0 (or a smaller amax).

    With `transposed` (a column-major C) the slot holds the sub-tile's
    transpose, laid out for a 128-byte-swizzle TMA store whose inner
    dimension is M: `64 / W` boxes of `W x W` (W = 128 / sizeof(elem)), box b
    holding rows [b W, (b + 1) W) of the atom, each of its W lines one
    column (N) of those rows (M); for 16-bit outputs one 64 x 64 box written
    with `stmatrix.sync.aligned.m8n8.x4.trans.shared.b16` (the transposing
    form), for f32 two 32 x 32 boxes written with 4-byte `st.shared.f32`
    (a thread's two adjacent values are adjacent columns, not rows; the
    swizzle keeps a warp's stores conflict free), for i32 likewise. fp8
    slots are not transposed (a 128-column fp8 sub-tile would need 128
    lines of 64 bytes): a column-major fp8 C is a diagnostic.

    `columns(w)` writes the sub-tile's first `w` columns, a multiple of 8
    below W (16-bit: an odd count of 8-column groups ends with
    `stmatrix...m8n8.x2[.trans]`): the last, narrower sub-tile of a tile
    whose N is not a multiple of W. Transposed, each box keeps its W lines;
    lines from `w` on are not written (the TMA stores of such a sub-tile
    take its first `w` lines of each box). Not transposed (16- and 32-bit
    slots), the 64 rows of `w` elements are packed, row after row without a
    swizzle, at the start of the slot: the layout of an unswizzled TMA
    store box of `w x 64` (`gemm.tma.store` of a packed narrow box). A
    warp's stores then meet in up to 4-way bank conflicts (row pitches of
    32 or 64 bytes), on one sub-tile of the tile.

    Example:
    ```mlir
    gemm.accum.store_smem %acc atom(0) col(64) -> %stage[%slot]
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
    gemm.accum.store_smem %acc atom(0) col(64) transposed -> %stage[%slot]
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
    gemm.accum.store_smem %acc atom(0) col(64) columns(16) transposed -> %stage[%slot]
        : !gemm.accum<64 x 80 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
    gemm.accum.store_smem %acc atom(0) col(64) columns(16) -> %stage[%slot]
        : !gemm.accum<64 x 80 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
    gemm.accum.store_smem %acc atom(0) col(0) -> %stage[%slot] scale(%s)
        amax(%amax : !llvm.ptr<1>)
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>
    ```
  }];
  let arguments = (ins Gemm_Accumulator:$accumulator, I64Attr:$atom,
                       I64Attr:$col, OptionalAttr<I64Attr>:$columns,
                       UnitAttr:$transposed,
                       Gemm_SmemBuffer:$buffer, I32:$slot,
                       Optional<F32>:$outScale,
                       Optional<Gemm_GlobalPointer>:$amax);
  let regions = (region AnyRegion:$epilogue);
  let extraClassDeclaration = [{
    /// The columns written: `columns`, else the whole 128-byte width.
    int64_t getColumnCount();
  }];
  let assemblyFormat = [{
    $accumulator `atom` `(` $atom `)` `col` `(` $col `)`
    (`columns` `(` $columns^ `)`)? (`transposed` $transposed^)?
    `->` $buffer `[` $slot `]`
    (`scale` `(` $outScale^ `)`)? (`amax` `(` $amax^ `:` qualified(type($amax)) `)`)?
    attr-dict `:` type($accumulator) `,` type($buffer) ($epilogue^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile schedulers
//===----------------------------------------------------------------------===//

def Gemm_StaticTileOp : Gemm_Op<"sched.static_tile", [Pure]> {
  let summary = "coordinates of a linear tile index under raster order and swizzle";
  let description = [{
    Maps the linear index `tile` of a persistent static schedule to tile
    coordinates `(m, n)` of a `tiles_m x tiles_n` grid. The grid is cut into
    panels `swizzle` tiles long along the `raster` dimension (the last panel
    may be shorter); inside a panel consecutive indices walk along `raster`
    first, then across, so the CTAs running at one time share A and B tiles
    in L2. Pure integer arithmetic.

    Example: `%m, %n = gemm.sched.static_tile %t of (%tm, %tn) raster(along_m) swizzle(8)`
  }];
  let arguments = (ins I32:$tile, I32:$tilesM, I32:$tilesN,
                       Gemm_RasterAttr:$raster, I64Attr:$swizzle);
  let results = (outs I32:$m, I32:$n);
  let assemblyFormat = [{
    $tile `of` `(` $tilesM `,` $tilesN `)` `raster` `(` $raster `)`
    `swizzle` `(` $swizzle `)` attr-dict
  }];
  let hasVerifier = 1;
}

def Gemm_GroupUnitCountOp : Gemm_Op<"sched.group_units",
    [MemoryEffects<[MemRead]>]> {
  let summary = "the number of row units of a grouped kernel's group table";
  let description = [{
    Reads the first 32-bit word of the group table of a grouped kernel
    (gemm.matmul ... grouped): the number R of row units, i.e. the sum
    over the groups of ceil(M_g / (tile M x cluster M)). The runtime's prep
    kernel writes the table from the group offsets before the GEMM kernel
    runs (docs/SM90.md "Grouped kernels"); the persistent schedule then has
    R x units-along-N tile units. Becomes one `ld.global.b32`.

    Example: `%r = gemm.sched.group_units %table : !llvm.ptr<1>`
  }];
  let arguments = (ins Gemm_GlobalPointer:$table);
  let results = (outs I32:$units);
  let assemblyFormat = "$table attr-dict `:` qualified(type($table))";
}

def Gemm_GroupUnitOp : Gemm_Op<"sched.group_unit",
    [MemoryEffects<[MemRead]>]> {
  let summary = "the rows and the group of one row unit of a grouped kernel";
  let description = [{
    Reads entry `unit` of the group table (16 bytes each, after a 16-byte
    header): the first row of the unit in A and C (`row_begin`), the end of
    its group's rows (`row_end`, the group's offsets[g + 1]) and the group
    g (B's batch coordinate). A unit is tile M x cluster M rows of one
    group; its rows from `row_end` on belong to the next group (or are past
    A), so the epilogue writes no row at or past `row_end`. Becomes one
    16-byte-aligned vector load at table + 16 + 16 x unit
    (`ld.global.v4.b32`, narrowed by LLVM to the fields used).

    Example: `%begin, %end, %g = gemm.sched.group_unit %table[%u] : !llvm.ptr<1>`
  }];
  let arguments = (ins Gemm_GlobalPointer:$table, I32:$unit);
  let results = (outs I32:$rowBegin, I32:$rowEnd, I32:$group);
  let assemblyFormat = "$table `[` $unit `]` attr-dict `:` qualified(type($table))";
}

def Gemm_GroupProblemOp : Gemm_Op<"sched.group_problem",
    [MemoryEffects<[MemRead]>]> {
  let summary = "one group's tile prefix and sizes in a general group table";
  let description = [{
    Reads entry `group` of the group table of a general grouped kernel
    (gemm.matmul ... grouped(general)), 16 bytes after the table's 16-byte
    header: the group's first tile unit (the prefix over the groups' tile
    units: ceil(M_g / (tile M x cluster M)) x ceil(N_g / (tile N x cluster
    N))), and its M_g, N_g and K_g. The runtime's prep kernel writes the
    table from the caller's group records before the kernel runs
    (docs/SM90.md "General grouped kernels"). Becomes one 16-byte-aligned
    `ld.global.v4.b32` at table + 16 + 16 x group (narrowed by LLVM to the
    fields used).

    Example: `%first, %m, %n, %k = gemm.sched.group_problem %table[%g] : !llvm.ptr<1>`
  }];
  let arguments = (ins Gemm_GlobalPointer:$table, I32:$group);
  let results = (outs I32:$firstUnit, I32:$m, I32:$n, I32:$k);
  let assemblyFormat = "$table `[` $group `]` attr-dict `:` qualified(type($table))";
}

def Gemm_TmaGroupDescriptorOp : Gemm_Op<"tma.group_descriptor", [Pure]> {
  let summary = "the TMA descriptor of one operand of one group of a general grouped kernel";
  let description = [{
    The address of the tensor map of operand `operand` (0: A, 1: B, 2: C)
    of group `group` in the group table of a general grouped kernel: the
    prep kernel writes three 128-byte tensor maps per group after the G
    table entries, from byte align128(16 + 16 x G) on, group-major
    (docs/SM90.md "General grouped kernels"). Pure address arithmetic
    (`add.s64`, `cvta.global` to a generic address): the thread that issues
    TMA copies with it must acquire it first (gemm.tma.acquire_descriptor).

    Example: `%a = gemm.tma.group_descriptor %table[%g], %groups, 0 : !llvm.ptr<1> -> !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>`
  }];
  let arguments = (ins Gemm_GlobalPointer:$table, I32:$group, I32:$groups,
                       ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<2>]>:$operand);
  let results = (outs Gemm_TmaDescriptor:$descriptor);
  let assemblyFormat = [{
    $table `[` $group `]` `,` $groups `,` $operand attr-dict `:`
    qualified(type($table)) `->` type($descriptor)
  }];
}

def Gemm_TmaAcquireDescriptorOp : Gemm_Op<"tma.acquire_descriptor", [Gemm_SideEffects]> {
  let summary = "make a tensor map written through the generic proxy visible to TMA";
  let description = [{
    `fence.proxy.tensormap::generic.acquire.gpu [descriptor], 128`: orders
    the generic-proxy writes of a tensor map in global memory (the prep
    kernel's copy of the template and its `tensormap.replace`s, released
    there with `fence.proxy.tensormap::generic.release.gpu`) before this
    thread's later TMA copies that read it through the tensormap proxy. The
    PTX ISA requires the acquire in the thread that uses the tensor map, on
    its generic address, with size 128; without it the TMA unit may use a
    stale copy (e.g. the previous launch's descriptor at the same address).

    Example: `gemm.tma.acquire_descriptor %a : !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>`
  }];
  let arguments = (ins Gemm_TmaDescriptor:$descriptor);
  let assemblyFormat = "$descriptor attr-dict `:` type($descriptor)";
}

include "gemm/Dialect/Gemm/IR/GemmSM100Ops.td"
include "gemm/Dialect/Gemm/IR/GemmQuantOps.td"
include "gemm/Dialect/Gemm/IR/GemmDirectOps.td"

def Gemm_BarrierAnyOp : Gemm_Op<"barrier_any", [Gemm_SideEffects]> {
  let summary = "a named barrier that tells its threads whether any of them passed true";
  let description = [{
    `barrier.cta.red.or.pred` on named barrier `id` for `threads` threads (a
    multiple of 32): waits like `bar.sync` and returns in every participant
    the OR of `predicate` over them. The split-K fixup uses it to tell a
    consumer warpgroup whether its leader's arrival was the tile's last.

    Example: `%any = gemm.barrier_any %mine barrier(%id) threads(128)`
  }];
  let arguments = (ins I1:$predicate, I32:$barrierId, I64Attr:$threads);
  let results = (outs I1:$any);
  let assemblyFormat = [{
    $predicate `barrier` `(` $barrierId `)` `threads` `(` $threads `)` attr-dict
  }];
  let hasVerifier = 1;
}

def Gemm_SplitKArriveOp : Gemm_Op<"sched.split_k_arrive", [Gemm_SideEffects]> {
  let summary = "count one partial tile in; true for the last of `arrivals`";
  let description = [{
    One thread: `atom.acq_rel.gpu.global.add.u32` of 1 on counter `index`
    (u32) of `counters`. The result is true in the arrival that completes
    `arrivals` arrivals (the partial tiles that make up the tile: the splits
    of split-K, the CTAs sharing it under stream-K); that thread also stores
    0 back, so the counter is zero again for the next launch (the workspace
    is zeroed once, then kept zero by the kernel). The release half orders
    the caller's partial-tile stores (gathered from its warpgroup by a
    barrier first) before the arrival; the acquire half orders the last
    arriver's loads of the other partials (spread to its warpgroup by a
    barrier after) after all arrivals.

    Example: `%last = gemm.sched.split_k_arrive %counters[%tile] of %arrivals : !llvm.ptr<1>`
  }];
  let arguments = (ins Gemm_GlobalPointer:$counters, I32:$index, I32:$arrivals);
  let results = (outs I1:$last);
  let assemblyFormat = [{
    $counters `[` $index `]` `of` $arrivals attr-dict `:`
    qualified(type($counters))
  }];
  let hasVerifier = 1;
}

def Gemm_StreamKPlanOp : Gemm_Op<"sched.stream_k_plan", [Pure]> {
  let summary = "which tile units of a stream-K schedule are whole and which are shared";
  let description = [{
    Of `units` tile units on `ctas` CTAs (clusters, for clustered kernels),
    with `k_blocks` k-blocks each: the first `dp_units` are computed whole,
    one unit per CTA at a time as in the static schedule (whole waves when
    any unit is shared); the k-blocks of the other units are shared by the
    first `workers` CTAs in equal ranges (`gemm.sched.stream_k_share`).

    With r = units mod ctas and s = min(max_workers_per_unit, k_blocks,
    ctas / r): the last r units are shared when s >= 2, by workers = r x s
    CTAs, s per unit, so that `gemm.sched.stream_k_share` gives each worker
    one k-range of one unit and the workers of different units the same
    k-ranges at the same time (as the CTAs of a whole wave compute the same
    k-block, which keeps their A and B k-slabs shared in L2). Otherwise
    (r = 0, or more than half a wave) nothing is shared: dp_units = units,
    workers = 0. The arithmetic of gemm::bundle::streamKPlan
    (gemm/Bundle/StreamK.h), in 32 bits.

    Example: `%dp, %workers = gemm.sched.stream_k_plan units(%u) ctas(%c) k_blocks(%kb) max_workers_per_unit(4)`
  }];
  let arguments = (ins I32:$units, I32:$ctas, I32:$kBlocks,
                       I64Attr:$maxWorkersPerUnit);
  let results = (outs I32:$dpUnits, I32:$workers);
  let assemblyFormat = [{
    `units` `(` $units `)` `ctas` `(` $ctas `)` `k_blocks` `(` $kBlocks `)`
    `max_workers_per_unit` `(` $maxWorkersPerUnit `)` attr-dict
  }];
  let hasVerifier = 1;
}

def Gemm_StreamKShareOp : Gemm_Op<"sched.stream_k_share", [Pure]> {
  let summary = "the k-blocks one worker of a stream-K schedule computes";
  let description = [{
    The k-blocks of `units` shared units of `k_blocks` k-blocks each, in
    unit-major order (k-block x is k-block x mod k_blocks of shared unit
    x / k_blocks), are cut into `workers` contiguous ranges whose sizes
    differ by at most one: worker w gets [w W / workers, (w + 1) W /
    workers) with W = units x k_blocks, computed in 64 bits. The range is
    returned as `segments` consecutive units from `first_unit`: the first
    segment starts at k-block `begin` of its unit, the last ends before
    k-block `end` of its unit (0 < end <= k_blocks), the units in between
    are whole. A worker w >= workers has no segments (the other results are
    then meaningless). Every worker below `workers` has a non-empty range
    when workers <= W, which `gemm.sched.stream_k_plan` guarantees.

    Example: `%first, %begin, %segments, %end = gemm.sched.stream_k_share %w of %workers units(%u) k_blocks(%kb)`
  }];
  let arguments = (ins I32:$worker, I32:$workers, I32:$units, I32:$kBlocks);
  let results = (outs I32:$firstUnit, I32:$begin, I32:$segments, I32:$end);
  let assemblyFormat = [{
    $worker `of` $workers `units` `(` $units `)` `k_blocks` `(` $kBlocks `)`
    attr-dict
  }];
}

def Gemm_StreamKWorkersOp : Gemm_Op<"sched.stream_k_workers", [Pure]> {
  let summary = "the first and last stream-K worker that compute part of one unit";
  let description = [{
    Under the ranges of `gemm.sched.stream_k_share`, the workers that own
    the first and the last k-block of shared unit `unit`: the owner of
    k-block x is ((x + 1) x workers - 1) / W, computed in 64 bits. Every
    worker in between computes part of the unit too, so the unit is the sum
    of last - first + 1 partial tiles; first = last means one worker
    computes all of it.

    Example: `%first, %last = gemm.sched.stream_k_workers %unit of %workers units(%u) k_blocks(%kb)`
  }];
  let arguments = (ins I32:$unit, I32:$workers, I32:$units, I32:$kBlocks);
  let results = (outs I32:$first, I32:$last);
  let assemblyFormat = [{
    $unit `of` $workers `units` `(` $units `)` `k_blocks` `(` $kBlocks `)`
    attr-dict
  }];
}

def Gemm_SplitKRangeOp : Gemm_Op<"sched.split_k_range", [Pure]> {
  let summary = "the k-blocks of one split of a split-K schedule";
  let description = [{
    Splits `k_blocks` k-blocks into `splits` contiguous ranges whose sizes
    differ by at most one, and returns `[begin, end)` of range `split`:
    begin = split * k_blocks / splits. A split-K kernel runs one range per
    work unit and reduces the partial tiles. Pure integer arithmetic.

    Example: `%begin, %end = gemm.sched.split_k_range %split of %kBlocks splits(4)`
  }];
  let arguments = (ins I32:$split, I32:$kBlocks, I64Attr:$splits);
  let results = (outs I32:$begin, I32:$end);
  let assemblyFormat = "$split `of` $kBlocks `splits` `(` $splits `)` attr-dict";
  let hasVerifier = 1;
}

#endif // GEMM_OPS_TD
