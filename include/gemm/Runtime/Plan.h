//===- Plan.h - From manifest + problem to a launch plan --------*- C++ -*-===//
//
// Everything a launch needs that can be decided without a GPU: matrix shapes
// and leading dimensions, which matrices are staged through aligned scratch
// copies, TMA descriptor fields and their rule checks, grid, block, cluster
// and shared memory, the kernel arguments in manifest order. CPU-only, so it
// is unit-tested and printed by `gemm-runner --dry-run`.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_PLAN_H
#define GEMM_RUNTIME_PLAN_H

#include "gemm/Bundle/Manifest.h"
#include "gemm/Dispatch/Staging.h"
#include "gemm/Runtime/GroupProblems.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemm::runtime {

using bundle::DType;
using bundle::Tensor;

struct Problem {
  uint64_t m = 0, n = 0, k = 0;
  uint64_t batch = 1;
  /// Grouped kernels: the group count G (0: not grouped); M is then the
  /// rows of A and C, [sum of M_g, .]. The groups' offsets are a device
  /// array given at launch; `groupOffsets`, when the caller knows them on
  /// the host (the runner, which made them), are its G + 1 entries, for
  /// the references, the baseline, the flops and the checks.
  uint64_t groups = 0;
  std::vector<int64_t> groupOffsets;
  /// General grouped kernels (grouped(general)): G = `groups`; M, N, K are
  /// unused (0). The groups' records are a device array given at launch;
  /// `groupSizes`, when the caller knows them on the host (the runner),
  /// are the G groups' M, N, K, for the grid, the references, the baseline
  /// and the flops.
  std::vector<general::GroupSize> groupSizes;
  /// The runner's records are checked by the prep kernel only (not first on
  /// the host): how the device's error path is tested
  /// (gemm-runner --group-checks device).
  bool groupChecksOnDevice = false;
  /// 2 * M * N * K * batch (grouped: the rows the offsets cover).
  double flops() const;
  /// "m=4096 n=4096 k=4096" (+ " batch=B" when B > 1, " groups=G" when
  /// grouped).
  std::string toString() const;
};

/// What to do with a matrix whose packed rows are not a multiple of the
/// kernel's leading-dimension alignment (16 bytes: the TMA stride rule).
enum class UnalignedPolicy {
  /// The user's matrices stay packed. The runtime copies each such matrix
  /// into a scratch buffer with aligned rows before every launch (A, B) and
  /// back after it (C); the kernel's descriptors describe the scratch copies.
  Stage,
  /// The user's matrices are allocated with rows rounded up to the alignment
  /// (as if the caller's data were padded already); nothing is copied.
  Pad,
  /// Refuse the problem with an error naming the tensor and the rule.
  Reject,
};

/// "stage", "pad", "reject".
std::string_view toString(UnalignedPolicy policy);
std::optional<UnalignedPolicy> parseUnalignedPolicy(std::string_view text);

// The staging rule itself (TMA's alignment, realigning rows that straddle
// L2 lines) is the dispatcher's to share with every caller:
// gemm/Dispatch/Staging.h. The runtime's names for it:
using dispatch::RealignMinMacs;
using dispatch::RealignMinReuse;
using dispatch::RealignPolicy;
using dispatch::StagingRowAlignmentBytes;
using dispatch::TmaAlignmentBytes;
std::string_view toString(RealignPolicy policy);
std::optional<RealignPolicy> parseRealignPolicy(std::string_view text);
/// dispatch::realignPays for `problem`: whether operand `tensor` (A or B),
/// rows `ldBytes` apart, is copied into 128-byte rows under `policy`.
bool realignPays(Tensor tensor, const Problem &problem, uint64_t ldBytes,
                 RealignPolicy policy = RealignPolicy::Auto);
/// dispatch::stagedForTma for `problem`: whether a kernel that reads
/// `tensor` through TMA gets it staged when the caller holds it with rows
/// `ld` elements of `dtype` apart at device address `address`. A kernel that
/// takes the tensor as a pointer (the direct kernel) never stages it.
bool stagedForTma(Tensor tensor, const Problem &problem, DType dtype,
                  uint64_t ld, uint64_t address = 0,
                  RealignPolicy realign = RealignPolicy::Auto);

struct PlanOptions {
  UnalignedPolicy unaligned = UnalignedPolicy::Stage;
  /// With UnalignedPolicy::Stage and packed rows: A and B whose rows are
  /// 16-byte but not 128-byte multiples are staged into 128-byte rows where
  /// realignPays says so.
  RealignPolicy realign = RealignPolicy::Auto;
  /// Persistent grids: how many CTAs can be co-resident (from the SM count
  /// and occupancy). Ignored for the tiles policy.
  uint32_t persistentCtaCapacity = 0;
  /// Leading dimensions (elements between rows) of A, B, C as the caller
  /// holds them, e.g. views into larger matrices; nullopt: packed rows,
  /// handled by `unaligned`. A given one is used as it is (never staged or
  /// padded) and must be at least the row length and a multiple of the
  /// kernel's alignment.
  std::array<std::optional<uint64_t>, 3> leadingDims;
  /// Batched kernels: elements between the batch entries of A, B, C as the
  /// caller holds them; nullopt: packed entries (outer x ld each). 0 for A
  /// or B broadcasts one matrix to every entry. C's entries must not
  /// overlap; every stride must be a 16-byte multiple (TMA). Not with
  /// staged matrices (their scratch copies are packed).
  std::array<std::optional<uint64_t>, 3> batchStrides;
};

/// One matrix in memory: `batch` blocks of `outer` rows of `inner` contiguous
/// elements, rows `ld` elements apart, blocks `batchStride` elements apart
/// (0: one block that every batch entry reads; less than outer x ld: entries
/// interleaved row by row, e.g. a [M, batch, K] tensor's batch view).
struct MatrixPlan {
  Tensor tensor = Tensor::A;
  DType dtype = DType::BF16;
  /// The manifest's storage order of the tensor. The matrix's logical rows
  /// and columns (A: M x K, B: N x K, C: M x N) are its memory's outer and
  /// inner dimensions, or the reverse when transposed().
  bundle::Layout layout = bundle::Layout::Row;
  uint64_t outer = 0, inner = 0;
  uint64_t ld = 0;
  uint64_t batch = 1;
  uint64_t batchStride = 0;
  /// ld > inner: rows rounded up (--unaligned pad, or a staged scratch copy).
  bool padded = false;

  uint64_t ldBytes() const { return ld * bundle::elementBytes(dtype); }
  /// The memory's rows are the matrix's logical columns: an M-major A
  /// (col), an N-major B (row), a column-major C (col).
  bool transposed() const {
    return tensor == Tensor::B ? layout == bundle::Layout::Row
                               : layout == bundle::Layout::Col;
  }
  /// Batch entries held in memory: 1 for a broadcast matrix.
  uint64_t storedBatches() const { return batchStride == 0 ? 1 : batch; }
  /// Elements from the first to one past the last row's end (padding
  /// included).
  uint64_t spanElements() const {
    return (storedBatches() - 1) * batchStride + outer * ld;
  }
  /// Bytes to allocate: every block, padding included.
  uint64_t bytes() const {
    return spanElements() * bundle::elementBytes(dtype);
  }
  /// Packed or gapped blocks (not interleaved, not broadcast).
  bool blocked() const { return batchStride >= outer * ld; }
  uint64_t elements() const { return batch * outer * inner; }
};

/// The arguments of one cuTensorMapEncodeTiled call (base address aside).
struct TmaPlan {
  size_t paramIndex = 0;
  Tensor tensor = Tensor::A;
  DType dtype = DType::BF16;
  /// 2, or 3 when the kernel is batched.
  uint32_t rank = 2;
  /// Innermost first, in elements.
  std::array<uint64_t, 3> globalDim = {1, 1, 1};
  /// Bytes between consecutive indices of dims 1..rank-1.
  std::array<uint64_t, 2> globalStrides = {0, 0};
  std::array<uint32_t, 3> box = {1, 1, 1};
  std::array<uint32_t, 3> elementStrides = {1, 1, 1};
  bundle::Swizzle swizzle = bundle::Swizzle::None;
  bundle::Interleave interleave = bundle::Interleave::None;
  bundle::L2Promotion l2Promotion = bundle::L2Promotion::None;
  bundle::OobFill oobFill = bundle::OobFill::Zero;
};

/// The f32 scale factors of a Scale parameter, or the f32 of an Amax
/// parameter, for a problem: a row-major rows x cols array of f32. Shapes
/// (docs/Runtime.md): tensor and output scales and the amax 1 x 1; A per
/// row M x 1; B per column (of C) 1 x N; A block-wise ceil(K/128) x M
/// (k-block-major: the scale of row m and k-block j is element j * M + m);
/// B block-wise ceil(N/128) x ceil(K/128).
struct ScalePlan {
  size_t paramIndex = 0;
  /// The amax output instead of scale factors.
  bool amax = false;
  Tensor tensor = Tensor::A;
  bundle::ScaleGranularity granularity = bundle::ScaleGranularity::Tensor;
  uint64_t rows = 1, cols = 1;

  uint64_t elements() const { return rows * cols; }
  uint64_t bytes() const { return elements() * 4; }
  /// "scale of a (block): 32 x 4096 f32", "amax: 1 x 1 f32".
  std::string describe() const;
};

/// The rows x cols of the scale (or amax) parameter `param` for `problem`.
ScalePlan planScale(size_t paramIndex, const bundle::Param &param,
                    const Problem &problem);

/// A workspace buffer of the launch (bundle::WorkspaceParam) for a problem.
struct WorkspacePlan {
  size_t paramIndex = 0;
  uint64_t bytes = 0;
  /// Zeroed once after allocation; the kernel leaves it zeroed.
  bool zeroInit = false;
};

struct KernelArg {
  bundle::ParamKind kind = bundle::ParamKind::ProblemSize;
  /// TmaDescriptor: index into LaunchPlan::tma.
  size_t tmaIndex = 0;
  /// Workspace: index into LaunchPlan::workspaces.
  size_t workspaceIndex = 0;
  /// Scale, Amax: index into LaunchPlan::scales.
  size_t scaleIndex = 0;
  /// ProblemSize: passed as a 32-bit unsigned integer.
  bundle::ProblemDim dim = bundle::ProblemDim::M;
  uint32_t value = 0;
  /// Pointer (the device address of the kernel's view of the tensor, given
  /// at launch) and LeadingDim (`leadingDim`, passed as a 64-bit unsigned
  /// integer: the kernel matrix's ld).
  Tensor tensor = Tensor::A;
  uint64_t leadingDim = 0;
};

struct LaunchPlan {
  Problem problem;
  /// Grouped kernels: bytes of the group table (a buffer the caller
  /// allocates and the prep kernel fills from the offsets before each
  /// launch: gemm/Runtime/GroupTable.h) and the rows of one row unit (tile
  /// M x cluster M). 0 when not grouped.
  uint64_t groupTableBytes = 0;
  uint32_t groupUnitRows = 0;
  /// General grouped kernels (bundle::ParamKind::GroupProblemTable): the
  /// table is general::tableBytes(G) (entries and tensor maps), a unit is
  /// groupUnitRows x groupUnitCols (tile x cluster shape), `tma` holds the
  /// templates of the groups' tensor maps, and `matrices` are the buffers
  /// of all groups' A, B, C (one line of `groupPacking`'s elements each,
  /// when the host knows the sizes).
  bool general = false;
  uint32_t groupUnitCols = 0;
  general::GroupLayouts groupLayouts;
  general::GroupPacking groupPacking;
  UnalignedPolicy unaligned = UnalignedPolicy::Stage;
  RealignPolicy realign = RealignPolicy::Auto;
  /// The caller's matrices, indexed by Tensor (A, B, C): what is allocated,
  /// filled, given to cuBLAS and the references, and checked. Packed
  /// (ld = inner) unless unaligned is Pad.
  std::array<MatrixPlan, 3> matrices;
  /// What the kernel's TMA descriptors describe: matrices[i] itself, or, when
  /// staged[i], an aligned scratch copy of it (same shape, ld rounded up).
  std::array<MatrixPlan, 3> kernelMatrices;
  /// The runtime copies A and B into their scratch copies before each launch
  /// and C out of its scratch copy after it (UnalignedPolicy::Stage only).
  std::array<bool, 3> staged = {false, false, false};
  std::vector<TmaPlan> tma;
  std::vector<WorkspacePlan> workspaces;
  /// The scale factors and amax the caller provides (Scale, Amax params).
  std::vector<ScalePlan> scales;
  /// In the manifest's parameter order.
  std::vector<KernelArg> args;
  bundle::GridPolicy policy = bundle::GridPolicy::Persistent;
  uint64_t tiles = 0;
  /// How a cluster's CTAs tile C ({along M, along N}), and the blocks of
  /// that many tiles covering C: a cluster works on one block at a time.
  std::array<uint32_t, 2> clusterTiles = {1, 1};
  uint64_t clusterUnits = 0;
  /// CTAs' worth of work per tile (bundle::KernelManifest::workUnitsPerTile).
  uint32_t workUnitsPerTile = 1;
  uint32_t persistentCtaCapacity = 0;
  /// {BM, BN, BK} from the manifest.
  std::array<uint32_t, 3> tile = {1, 1, 1};
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  std::array<uint32_t, 3> cluster = {1, 1, 1};
  uint32_t dynamicSmemBytes = 0;

  const MatrixPlan &matrix(Tensor t) const {
    return matrices[static_cast<size_t>(t)];
  }
  const MatrixPlan &kernelMatrix(Tensor t) const {
    return kernelMatrices[static_cast<size_t>(t)];
  }
  bool isStaged(Tensor t) const { return staged[static_cast<size_t>(t)]; }
  /// Some of the caller's matrices have padded rows (UnalignedPolicy::Pad).
  bool padded() const;
  /// Some matrix is staged.
  bool anyStaged() const;
  /// The staged tensors, e.g. {"a", "c"}.
  std::vector<std::string> stagedTensors() const;
  /// Bytes of scratch memory the staged copies need.
  uint64_t stagingBytes() const;
  /// "grid [132, 1, 1] block [384, 1, 1] cluster [1, 1, 1] smem 200704".
  std::string configString() const;
};

/// Which dtypes, layouts and launch shapes this runner can run (C bf16,
/// f16, f32, fp8 or s32; clusters along x; every layout of 16-bit inputs,
/// K-major A and B of the others). Throws Error(Bundle) naming what is not
/// supported.
void checkRunnerSupports(const bundle::KernelManifest &manifest);

/// Plans one launch. Throws Error(Usage) when the problem does not fit the
/// kernel (constraints, 32-bit sizes, and under UnalignedPolicy::Reject the
/// 16-byte stride rule: the message names the tensor, the value and the rule,
/// and the --unaligned choices).
/// Expects a manifest that passed validate() and checkRunnerSupports().
LaunchPlan planLaunch(const bundle::KernelManifest &manifest,
                      const Problem &problem, const PlanOptions &options);

/// planLaunch for callers built without exceptions (the compiler's kernel
/// simulator): the plan, or nullopt with the error's message in `error`.
std::optional<LaunchPlan> tryPlanLaunch(const bundle::KernelManifest &manifest,
                                        const Problem &problem,
                                        const PlanOptions &options,
                                        std::string &error);

/// The cuTensorMapEncodeTiled rules (rank, dims, 16-byte strides, box limits,
/// swizzle span, interleave); one message per violation, naming the tensor.
std::vector<std::string> checkTmaPlan(const TmaPlan &plan);

/// Persistent grid size: min(tiles, capacity), both in whole clusters.
/// 0 when not even one cluster fits.
uint32_t persistentGridSize(uint64_t tiles, uint32_t capacity,
                            uint32_t clusterSize);

/// The plan as indented text lines (what --dry-run prints).
std::string describePlan(const LaunchPlan &plan);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_PLAN_H
