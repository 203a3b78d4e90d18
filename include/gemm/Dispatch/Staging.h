//===- Staging.h - Which matrices the runtime stages for TMA ----*- C++ -*-===//
//
// A kernel that reads a matrix through TMA needs its rows and its base
// address to be 16-byte multiples; the runtime copies (stages) a matrix that
// is not through an aligned scratch buffer around each launch, and also one
// whose rows are worth realigning to 128 bytes. This header is the one rule
// for both: the runtime's planner (gemm::runtime::planLaunch), the Python
// package's copies and the dispatcher's dispatch::Problem::staged (which
// charges a TMA kernel for the copies, and a kernel that takes the matrix as
// a pointer, such as the direct kernel, nothing) all ask it.
//
// Plain C++17: no CUDA, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DISPATCH_STAGING_H
#define GEMM_DISPATCH_STAGING_H

#include "gemm/Bundle/Manifest.h"

#include <array>
#include <cstdint>
#include <optional>

namespace gemm::dispatch {

/// TMA's rules: global row strides and base addresses are 16-byte multiples.
inline constexpr uint32_t TmaAlignmentBytes = 16;

/// Rows of staged scratch copies start on this boundary (and on the kernel's
/// alignment): a 128-byte TMA box row then covers whole 32-byte sectors.
inline constexpr uint32_t StagingRowAlignmentBytes = 128;

/// The L2's sector: rows on whole sectors read no sector more than they need,
/// wherever their 128-byte lines start.
inline constexpr uint32_t L2SectorBytes = 32;

/// A and B rows that are 16-byte multiples (legal for TMA) but not 128-byte
/// multiples make each 128-byte box row straddle two L2 lines: on the H200
/// 7784-cubed bf16 ran at 0.60x of its 7808-cubed rate with 4x the L2 read
/// requests and 2x the DRAM bytes (bench/results/2026-11-24-h200-
/// generalization/). Such an operand is worth copying into 128-byte rows
/// when the kernel reuses each of its bytes often (A is read for every
/// column tile, so its reuse is N; B's is M) and the problem is large enough
/// that the copy's launch is small beside it: copying both operands made
/// 1024x1024x4104 1.12x and 7784 cubed 1.57x faster, and 64x4096x4104
/// (2.1x slower) and 512x1024x4104 (1.19x slower) slower. All four have
/// rows off the L2's 32-byte sectors (a box row reads five sectors for
/// four's bytes). Rows on whole sectors lose little in place: the copy made
/// every such problem measured slower, 2704 cubed by 1.20x and 6000 cubed by
/// 1.11x, so they are never copied
/// (bench/results/2026-11-29-h200-realign/).
enum class RealignPolicy {
  /// Copy rows that are not whole L2 sectors when the operand's reuse is at
  /// least RealignMinReuse and the problem has at least RealignMinMacs
  /// multiply-adds.
  Auto,
  Always,
  Never,
};
inline constexpr uint64_t RealignMinReuse = 1024;
inline constexpr double RealignMinMacs = 4294967296.0; // 2^32

/// The sizes the rules look at: M, N, K and the batch count.
struct StagingShape {
  uint64_t m = 1, n = 1, k = 1, batch = 1;
};

/// Whether operand `tensor` (A or B) of `shape`, rows `ldBytes` apart, is
/// copied into 128-byte rows under `policy` (C never is: its stores do not
/// suffer).
bool realignPays(bundle::Tensor tensor, const StagingShape &shape,
                 uint64_t ldBytes, RealignPolicy policy = RealignPolicy::Auto);

/// Whether TMA stores into lines of `lineElements` elements of `dtype` write
/// only those elements. A TMA store writes the 16-byte chunk that holds a
/// line's last element whole, past the line's end (measured on the H200:
/// bench/probes/tma-store-extent.cu), into whatever the caller keeps there.
bool tmaStoresWholeChunks(bundle::DType dtype, uint64_t lineElements);

/// Whether a kernel that reads (A, B) or writes (C) `tensor` through TMA
/// gets it staged (copied through aligned scratch by the runtime) when the
/// caller holds it in `layouts` with rows `ld` elements of `dtype` apart at
/// device address `address`: its rows or its base are not 16-byte
/// multiples (TMA cannot read it), C's lines are not whole 16-byte chunks
/// (tmaStoresWholeChunks), or realignPays says its rows are worth copying
/// into 128-byte rows.
bool stagedForTma(bundle::Tensor tensor, const StagingShape &shape,
                  bundle::DType dtype, uint64_t ld, uint64_t address = 0,
                  RealignPolicy realign = RealignPolicy::Auto,
                  const bundle::TensorLayouts &layouts = {});

/// stagedForTma of A, B, C held packed in `layouts` (stored rows of K or M
/// elements for A, K or N for B, N or M for C) at aligned addresses: what
/// gemm-runner's default (--unaligned stage) does with the matrices it
/// allocates, and what the dispatcher assumes when the caller says nothing
/// else.
std::array<bool, 3> packedStaging(const StagingShape &shape,
                                  bundle::DType inType,
                                  std::optional<bundle::DType> outType = {},
                                  const bundle::TensorLayouts &layouts = {},
                                  RealignPolicy realign = RealignPolicy::Auto);

} // namespace gemm::dispatch

#endif // GEMM_DISPATCH_STAGING_H
