//===- Patterns.h - gemm to NVVM conversion, one file per op family ------===//
//
// Each op family (structure, pipelines, TMA, MMA, TMEM, epilogue,
// schedulers) contributes its ConvertOpToLLVMPattern set through one
// populate function, so the pass itself only wires them together.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_GEMMTONVVM_PATTERNS_H
#define GEMM_LIB_CONVERSION_GEMMTONVVM_PATTERNS_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::gemm {

inline constexpr unsigned kSharedSpace =
    static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
inline constexpr unsigned kSharedClusterSpace =
    static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster);

/// Adds the gemm type conversions: TMA descriptors become generic pointers
/// (to the by-value kernel parameter), shared-memory buffers and pipelines
/// shared-memory pointers, accumulators LLVM structs of per-atom structs.
void populateGemmTypeConversions(LLVMTypeConverter &converter);
/// The SM100 tensor-memory type: !gemm.tmem -> !llvm.ptr<6>.
void populateTmemTypeConversions(LLVMTypeConverter &converter);
/// Register fragments: !gemm.fragment<N x T> -> !llvm.array<N x i16>.
void populateDirectTypeConversions(LLVMTypeConverter &converter);

void populateStructureToNVVMPatterns(LLVMTypeConverter &converter,
                                     RewritePatternSet &patterns);
/// `debugWaitsMs` > 0 bounds the pipeline waits (see createBarrierWait).
void populatePipelineToNVVMPatterns(LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    int64_t debugWaitsMs = 0);
void populateTmaToNVVMPatterns(LLVMTypeConverter &converter,
                               RewritePatternSet &patterns);
void populateMmaToNVVMPatterns(LLVMTypeConverter &converter,
                               RewritePatternSet &patterns);
void populateEpilogueToNVVMPatterns(LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
/// SM90 direct operand access (gemm.direct.*, gemm.accum.store_direct).
void populateDirectToNVVMPatterns(LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateSchedulerToNVVMPatterns(LLVMTypeConverter &converter,
                                     RewritePatternSet &patterns);
/// Scale factors of low-precision GEMMs.
void populateQuantToNVVMPatterns(LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);
/// gemm.barrier_any; with `debugWaitsMs` > 0 also the bounded form of the
/// named barriers given a wait site (createBoundedNamedBarrier).
void populateBarrierToNVVMPatterns(LLVMTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   int64_t debugWaitsMs = 0);
// SM100 families.
void populateTmemToNVVMPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns);
void populateTcgen05MmaToNVVMPatterns(LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns);
void populateClcToNVVMPatterns(LLVMTypeConverter &converter,
                               RewritePatternSet &patterns);

/// Replaces an operand-less gemm op by the NVVM op of the same meaning.
template <typename SourceOp, typename TargetOp>
struct OneToOneLowering : public ConvertOpToLLVMPattern<SourceOp> {
  using ConvertOpToLLVMPattern<SourceOp>::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<TargetOp>(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Helpers shared by the pattern files
//===----------------------------------------------------------------------===//

/// An i32 constant.
Value createI32(OpBuilder &b, Location loc, int64_t value);

/// The shared-memory address of a pipeline's full (or empty) barrier for
/// iteration `n`: base + 8 * (n mod stages) (+ 8 * stages for empty).
Value getBarrierAddress(OpBuilder &b, Location loc, Value base,
                        PipelineType type, Value iteration, bool empty);

/// The mbarrier phase parity of iteration `n`: (n / stages) & 1.
Value getPhaseParity(OpBuilder &b, Location loc, PipelineType type,
                     Value iteration);

/// The slot `n mod stages`.
Value getSlot(OpBuilder &b, Location loc, int64_t stages, Value iteration);

/// What a bounded (debug) wait records when it gives up.
struct DebugWait {
  /// Milliseconds before giving up.
  int64_t limitMs = 0;
  /// The wait's index in its kernel's manifest (debug_wait_sites), which
  /// describes its role, barrier and pipeline.
  int64_t site = 0;
  Value stage, iteration;
};

/// Attribute the conversion sets on each pipeline wait before lowering: its
/// index among the kernel's wait sites.
inline constexpr llvm::StringLiteral kWaitSiteAttrName = "gemm.debug_wait_site";

/// The module global a debug-waits kernel reads the address of its wait
/// record from (set by the runtime to host-mapped memory; 0: none). Record
/// layout, u32 words: claimed, site, CTA x, y, z, warp, stage, expected
/// parity, iteration, complete (1 once the others are written).
inline constexpr llvm::StringLiteral kDebugWaitRecordSymbol =
    "gemm_debug_wait_record";

/// Spins on `mbarrier.try_wait.parity` until the phase with `parity`
/// completed; with `debug`, polls `mbarrier.test_wait.parity` for at most
/// debug->limitMs milliseconds, then prints where it waited and traps.
void createBarrierWait(OpBuilder &b, Location loc, Value barrier, Value parity,
                       const DebugWait *debug = nullptr);

/// The module global (static shared memory, 32 x u32) of the bounded named
/// barriers of debug-waits: words 0-15 count the threads arrived at named
/// barrier 0-15 in its current generation, words 16-31 number the
/// generations. Zeroed at kernel entry.
inline constexpr llvm::StringLiteral kDebugNamedBarriersSymbol =
    "gemm_debug_named_barriers";

/// The debug-waits form of `bar.sync id, threads` (docs/Runtime.md): a
/// counter and generation barrier on kDebugNamedBarriersSymbol whose waiters
/// give up after `limitMs` milliseconds, record wait site `site` (stage:
/// the barrier id, parity: the generation, iteration: the threads arrived)
/// and trap. Same memory ordering as bar.sync among the participants.
void createBoundedNamedBarrier(OpBuilder &b, Location loc, Value id,
                               Value threads, int64_t limitMs, int64_t site);

/// The address of `barrier` (a shared::cta pointer) in the even CTA of this
/// CTA's pair, in the shared::cluster window: where the cta_group::2 TMA loads
/// and producer arrivals of a CTA pair complete, so that the pair's MMA
/// leader waits on one barrier for both CTAs' operands.
Value getPairLeaderAddress(OpBuilder &b, Location loc, Value barrier);

/// `tcgen05.ld.sync.aligned.32x32b.x<count>.b32` of columns [col, col +
/// count) of stage `stage` of the accumulator ring at `tmem` (an
/// !llvm.ptr<6>), then `tcgen05.wait::ld`: thread t of warp w gets TMEM lane
/// 32 (w mod 4) + t, the only lane quarter the warp may access. Returns an
/// i32 (count 1) or a vector<count x i32> of raw 32-bit cells.
Value loadTmemLaneQuarter(OpBuilder &b, Location loc, Value tmem, TmemType type,
                          Value stage, int64_t col, int64_t count);

/// Element `index` (i32) of the f32 tensor at `ptr` (!llvm.ptr<1>), read as
/// invariant (ld.global.nc): scale factors do not change while a kernel
/// runs.
Value loadScale(OpBuilder &b, Location loc, Value ptr, Value index);

/// The user's epilogue region (one accumulator value in, one value of
/// `outType` out) cloned at the rewriter's position for `acc`, or, for an
/// empty region, `acc` rounded to `outType` (none for f32 into f32 and i32
/// into i32).
Value applyEpilogue(ConversionPatternRewriter &rewriter, Location loc,
                    Region &epilogue, Type outType, Value acc);

/// The shared-memory address of `row` rows into slot `slot` of a buffer;
/// for an MN-major buffer `row` is a whole number of blocks (swizzle spans)
/// and `kLine` the K line inside the block.
Value getSlotAddress(OpBuilder &b, Location loc, Value base,
                     SmemBufferType type, Value slot, Value row = {},
                     Value kLine = {});

} // namespace mlir::gemm

#endif // GEMM_LIB_CONVERSION_GEMMTONVVM_PATTERNS_H
