//===- GemmDirectOps.cpp - plain global loads and stores of tiles --------===//
//
// Verifiers of the direct-access ops (GemmDirectOps.td): the thread
// distribution of a tile must be whole (every thread the same number of
// elements, whole warps, whole 32-column passes), and the fragment a thread
// holds must be the one its tile gives it. The op classes are generated into
// GemmOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"

using namespace mlir;
using namespace mlir::gemm;

/// Fragments are one thread's registers: 256 16-bit elements are 128 of
/// the 255 registers a thread may have.
static constexpr int64_t kMaxFragmentElements = 256;
static constexpr int64_t kMaxTileSide = 65536;

/// A `rows x cols` tile spread over `threads` threads as gemm.direct.load
/// spreads it: whole warps, each lane a column of every 32-column pass, each
/// warp the same number of rows; `fragment` must then hold one thread's
/// share.
static LogicalResult verifyTileDistribution(Operation *op, int64_t rows,
                                            int64_t cols, int64_t threads,
                                            FragmentType fragment) {
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    return op->emitOpError("threads must be a multiple of 32 in [32, 1024], "
                           "got ")
           << threads;
  // A thread's share lives in its registers (a fragment holds at most
  // kMaxFragmentElements), so any larger tile is refused below; bounding the
  // sides first keeps rows * cols from overflowing.
  if (rows > kMaxTileSide || cols > kMaxTileSide)
    return op->emitOpError("a tile of ")
           << rows << " x " << cols << " has a side over " << kMaxTileSide
           << " elements: a CTA's direct tile is a few hundred rows and "
              "columns at most";
  if (rows < 1 || cols < 32 || cols % 32 != 0)
    return op->emitOpError("the tile's columns are read 32 at a time (one "
                           "per lane): a tile of ")
           << rows << " x " << cols
           << " needs a positive number of rows and a multiple of 32 "
              "columns";
  int64_t warps = threads / 32;
  if (rows % warps != 0)
    return op->emitOpError("the tile's ")
           << rows << " rows must be a multiple of its " << warps
           << " warps (each warp reads every " << warps << "-th row)";
  int64_t perThread = rows * cols / threads;
  if (fragment.getSize() != perThread)
    return op->emitOpError("a ")
           << rows << " x " << cols << " tile over " << threads
           << " threads gives each thread " << perThread
           << " elements, but the fragment is " << fragment;
  return success();
}

LogicalResult FragmentType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t size, Type elementType) {
  if (size < 1)
    return emitError() << "a fragment holds at least one element, got " << size;
  if (size > kMaxFragmentElements)
    return emitError() << "a fragment is one thread's registers: at most "
                       << kMaxFragmentElements
                       << " elements (128 registers), got " << size
                       << "; spread the tile over more threads";
  if (!isa<BFloat16Type, Float16Type>(elementType))
    return emitError() << "fragments hold bf16 or f16 elements, got "
                       << elementType;
  return success();
}

LogicalResult DirectLoadOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_90a)))
    return failure();
  return verifyTileDistribution(*this, static_cast<int64_t>(getTileRows()),
                                static_cast<int64_t>(getTileCols()),
                                static_cast<int64_t>(getThreads()),
                                getFragment().getType());
}

LogicalResult DirectStoreSmemOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_90a)))
    return failure();
  SmemBufferType buffer = getBuffer().getType();
  FragmentType fragment = getFragment().getType();
  if (buffer.getElementType() != fragment.getElementType())
    return emitOpError("fragment element type ")
           << fragment.getElementType() << " differs from the buffer's "
           << buffer.getElementType();
  if (buffer.getSwizzle() != 128)
    return emitOpError("writes the 128-byte-swizzled K-major layout that "
                       "gemm.mma.sm90 reads; the buffer must have swizzle = "
                       "128, got ")
           << buffer;
  return verifyTileDistribution(*this, buffer.getRows(), buffer.getCols(),
                                static_cast<int64_t>(getThreads()), fragment);
}

LogicalResult AccumStoreDirectOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_90a)))
    return failure();
  Type elementType = getElementType();
  if (!isa<BFloat16Type, Float16Type, Float32Type>(elementType))
    return emitOpError("output element type must be bf16, f16 or f32, got ")
           << elementType;
  if (Value staging = getStaging()) {
    auto buffer = cast<SmemBufferType>(staging.getType());
    AccumulatorType acc = getAccumulator().getType();
    if (acc.getAtoms() != 1)
      return emitOpError("staged stores take one warpgroup's 64-row "
                         "accumulator (each warp stages its 16 rows), got ")
             << acc;
    if (buffer.getElementType() != elementType || buffer.getSwizzle() != 0 ||
        buffer.getStages() != 1)
      return emitOpError("the staging buffer holds the output (")
             << elementType << ") row by row: one stage, no swizzle; got "
             << buffer;
    if (buffer.getRows() % 16 != 0 || buffer.getCols() < acc.getCols())
      return emitOpError("the staging buffer needs 16 rows per warp of the "
                         "CTA and at least the accumulator's ")
             << acc.getCols() << " columns; got " << buffer;
  } else if (getColumns()) {
    return emitOpError("`columns` says which way a staged store runs; "
                       "this store is not staged");
  }
  return verifyEpilogueRegion(getOperation(), getEpilogue(),
                              getAccumulator().getType().getElementType(),
                              elementType);
}
