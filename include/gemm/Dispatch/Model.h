//===- Model.h - The fitted model of how long a kernel takes ---*- C++ -*-===//
//
// The dispatcher's data: a model of the time one SM90 kernel configuration
// takes on one problem, fitted on a GPU's measurements of every candidate
// kernel over a training set of shapes (python/gemm_bench/fit.py writes it;
// bench/tuning/sm90-h200-model.json is the H200's). It has two parts:
//
// - physics: the persistent kernel's work units (tiles x k-ranges) in waves
//   over the SMs, each unit's k-blocks at the slowest of the tile's MMA rate,
//   the L2 -> shared-memory feed of all active CTAs and the ring's latency
//   bound (combined as a fitted p-norm), the unit's share of the HBM reads
//   (combined with its k-blocks likewise: near the ridge point a kernel
//   waits on both), then its epilogue's share of the write bandwidth; split-K's
//   partial tiles, stream-K's fixed cost and extra traffic, and a launch
//   cost; for a problem whose rows TMA cannot read, the runtime's staging
//   copies around the kernel (a launch per copy and the bytes moved). The
//   direct kernel (schedule = direct: plain loads and stores, one CTA per
//   tile, never staged) has a physics of its own: its launch, then rounds of
//   resident CTAs, each k-block at the slower of a load round trip and the
//   SM's issue of its element loads, bounded below by HBM traffic. Its
//   constants (MMA efficiency per tile, bandwidths, latencies) are the
//   fitted parameters.
// - correction: per candidate, the training shapes' measured time over the
//   physics' estimate (log residuals); a problem's estimate is scaled by the
//   residuals of nearby training shapes (Gaussian weights in log M, log N,
//   log K), shrunk towards 1 where the data is thin. What physics misses for
//   a kernel in one region of shapes it learns there, without a class table.
// - residuals_gpu (optional; `fit fit --other-gpus`): per candidate, the
//   GPU its residuals were timed on, which the dispatcher's reason names.
// - grouped (optional): the grouped (MoE) kernels measured on grouped
//   problems (python -m gemm_bench.fit grouped), with residuals of their own
//   over (log of M / G rows per group, log N, log K). They are the grouped
//   candidates, and correct grouped estimates as the plain residuals correct
//   plain ones.
// - lowp (optional): residuals of the kernel library's low-precision kernels
//   (fp8, int8, tf32) measured on the training shapes (python -m
//   gemm_bench.fit lowp), by kernel name: the physics, fitted on bf16, only
//   scales their tiles by the type's MMA rate. Its own "correction"
//   (bandwidth, prior_weight; chosen by leave-one-shape-out regret on those
//   measurements) replaces the file's for them; without one they take the
//   file's.
//
// Plain C++17 + nlohmann_json: no CUDA, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DISPATCH_MODEL_H
#define GEMM_DISPATCH_MODEL_H

#include "gemm/Dispatch/KernelConfig.h"

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemm::dispatch {

using bundle::Layout;
using bundle::TensorLayouts;

/// A model file or kernel library that cannot be read or is not of the
/// expected format, or a problem the dispatcher cannot serve; the message
/// names the file or problem and what to do.
class DispatchError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The value of a model file's "format" and the version this code writes.
/// Version 2 adds the staging and direct-kernel constants (required there);
/// version 1 files (without them) are still read: staging then costs
/// nothing (every candidate of such a file reads through TMA and pays the
/// same copies) and they cannot hold direct kernels. An older dispatcher
/// refuses version 2 rather than ignore its staging term.
inline constexpr std::string_view ModelFormatName = "gemm-dispatch-model";
inline constexpr int ModelFormatVersion = 2;
inline constexpr int OldestModelFormatVersion = 1;

/// The direct kernel is a candidate for problems of at most this many
/// multiply-adds (isApplicable): its element loads take several instructions
/// per element where TMA takes none, so it only pays where the TMA kernel's
/// fixed costs (its launch, and the staging copies of rows TMA cannot read)
/// are a large part of the time.
inline constexpr double DirectMaxMacs = 2147483648.0; // 2^31

/// Split-K kernels are candidates only where each split gets at least this
/// many k-blocks (isApplicable): fewer cost more in the fixup than they
/// save. The direct kernel's k-block waits for its loads' round trip, so a
/// few of them already outweigh it.
inline constexpr uint64_t SplitKMinKBlocksPerSplit = 4;
inline constexpr uint64_t DirectSplitKMinKBlocksPerSplit = 2;

/// The GPU the kernel is for. Defaults: the H200 the model was fitted on.
struct Target {
  bundle::Arch arch = bundle::Arch::Sm90a;
  uint32_t smCount = 132;
};

struct Problem {
  uint64_t m = 1, n = 1, k = 1;
  DType inType = DType::BF16;
  /// C's type; nullopt: KernelConfig::defaultOutput(inType).
  std::optional<DType> outType;
  /// B's type when it differs from A's (fp8 and 8-bit integer pairs).
  std::optional<DType> inTypeB;
  /// Scales and fp8 accumulation (fp8 and int8 problems).
  QuantConfig quant;
  /// Storage orders of A, B, C. They do not change the estimate (every
  /// layout runs the same kernel structure); the kernel picked has them.
  TensorLayouts layouts;
  /// Problems of the batch (batched kernels for more than 1), estimated as
  /// the one problem of batch x the tiles and bytes.
  uint64_t batch = 1;
  /// A grouped (MoE) problem of `groups` problems (grouped kernels; 0: not
  /// grouped): M is then the rows of all groups together ([sum of M_g, K]
  /// A and [sum of M_g, N] C) and B has one N x K entry per group. How the
  /// rows split among the groups is on the device only (the router's
  /// offsets), so the model takes M / G rows per group, each group starting
  /// its own row tiles and ending with a ragged one: G x (floor(M / G /
  /// (tile M x cluster M)) + 1) row units (groupedRowUnits).
  uint64_t groups = 0;
  bool grouped() const { return groups > 0; }
  /// ceil(M / G) over the groups that can have rows (at most M of them).
  uint64_t rowsPerGroup() const;
  /// Which of A, B, C the runtime would copy through aligned scratch around
  /// a TMA kernel (rows or base addresses TMA cannot read, or rows worth
  /// realigning): what stagedForTma (gemm/Dispatch/Staging.h) says for the
  /// caller's matrices; packedStaging for packed ones. The direct kernel
  /// never stages. All false: rows TMA reads as they are.
  std::array<bool, 3> staged = {false, false, false};
  bool anyStaged() const { return staged[0] || staged[1] || staged[2]; }
  /// "m=.. n=.. k=.. bf16" (+ " x e5m2", " -> bf16", " (qrc)", " a col b row
  /// c row" when not the default, " batch=B" when batched) for messages.
  std::string toString() const;
  /// " groups=G" is added for a grouped problem.
  /// " (a, c staged for TMA)", or "" when nothing is staged.
  std::string stagingNote() const;
  /// fp8, 8-bit integer or tf32 inputs: kernels the model was not fitted on
  /// (and that the direct kernel, bf16 and f16 only, does not run).
  bool lowPrecision() const;
  /// Whether transposed() computes this product: block-wise scales (A 1 x
  /// 128, B 128 x 128) have no transposed form.
  bool transposable() const;
  /// The same product transposed, C^T = B A^T: N x M x K with A and B
  /// exchanged (each keeping its memory, so its layout flips: an N-major B
  /// is an M-major A of the transposed problem; its type, scales and staging
  /// go with it: B's column scales are the row scales of the new A) and a
  /// row-major C^T, which is this problem's column-major C. Only for a
  /// column-major C.
  Problem transposed() const;
};

/// The fitted constants of the physics part (SI units).
struct HardwareParams {
  double launchSeconds = 8e-6;
  /// Loaded round trip of a TMA load: with S stages in flight a CTA
  /// finishes at most one k-block per latency / S.
  double loadLatencySeconds = 1.7e-6;
  /// L2 -> shared memory, all SMs together.
  double l2BytesPerSecond = 12e12;
  /// HBM, for the operands read and for C (and partial tiles) written.
  double readBytesPerSecond = 4e12;
  double writeBytesPerSecond = 4e12;
  double fixupBytesPerSecond = 5e12;
  double streamKFixedSeconds = 13e-6;
  /// Stream-K's staggered k-ranges re-read operands the L2 would share.
  double streamKTrafficFactor = 1.1;
  /// MMA time of a clustered kernel over its 1x1 twin's.
  double clusterComputeFactor = 1.0;
  /// The runtime's staging copies (model version 2; 0 in version 1): each
  /// copy launch (one for A and B together, one for C), and the copies'
  /// bandwidth in bytes read plus written per second.
  double stagingLaunchSeconds = 0;
  double stagingBytesPerSecond = 0;
  /// The direct kernel (model version 2; 0: the model has none): its launch
  /// and fixed cost, the time of one k-block of a CTA when its loads' round
  /// trip is what it waits for, and how many 16-bit element loads (with their
  /// shared-memory stores) an SM issues per second.
  double directLaunchSeconds = 0;
  double directKBlockSeconds = 0;
  double directLoadsPerSecond = 0;
  bool hasDirect() const {
    return directLaunchSeconds > 0 && directKBlockSeconds > 0 &&
           directLoadsPerSecond > 0;
  }
  /// How a k-block's limits (MMA, L2 feed, the ring's latency) combine:
  /// their p-norm for p = bottleneckSharpness (close limits slow each other
  /// down), the slowest alone for 0 (model files without it).
  double bottleneckSharpness = 0;
  /// How a work unit's MMA time and its operands' HBM reads combine (and a
  /// stream-K kernel's): their p-norm for p = memorySharpness (a problem
  /// near the ridge point waits on both), the slower alone for 0 (model
  /// files without it).
  double memorySharpness = 0;
  /// Fraction of the SM's 16-bit MMA peak each tile sustains in a long
  /// k-loop, by tileKey().
  std::map<std::string, double> tileEfficiency;

  /// "128x256_coop", "64x64_direct": what tileEfficiency is keyed by.
  static std::string tileKey(const KernelConfig &config);
};

/// HardwareParams from a model file's "hardware" (launch_us, load_latency_us,
/// l2_tbps, read_tbps, write_tbps, fixup_tbps, stream_k_fixed_us,
/// stream_k_traffic, cluster_compute; and, optional here and required by a
/// version 2 file, stage_launch_us, stage_tbps, direct_launch_us,
/// direct_kblock_us, direct_gloads_per_sm: 10^9 element loads per second per
/// SM; and, optional in every version, bottleneck_sharpness and
/// memory_sharpness) and
/// "tile_efficiency" objects. Throws DispatchError naming `source`
/// and the missing or bad field.
HardwareParams
hardwareParams(const std::map<std::string, double> &hardware,
               const std::map<std::string, double> &tileEfficiency,
               const std::string &source);
/// The hardware fields a version 2 model file must have beyond version 1's.
const std::vector<std::string> &stagingAndDirectFields();

/// The model's estimate of one configuration on one problem.
struct Estimate {
  double seconds = 0;
  /// The physics part: total, and its MMA / memory components.
  double physicsSeconds = 0, computeSeconds = 0, memorySeconds = 0;
  /// The learned factor (seconds = physicsSeconds * correction) and the
  /// summed weight of the training shapes it came from (0: none nearby).
  double correction = 1, evidence = 0;
  uint64_t tiles = 0;
  /// Work units (tiles x k-ranges) over the CTAs that run at once.
  double waves = 0;
  /// The staging copies around a TMA kernel (part of physicsSeconds).
  double stagingSeconds = 0;
  bool memoryBound() const { return memorySeconds > computeSeconds; }
};

/// Whether the model speaks for `config` on `problem`: the region where
/// candidates are measured for the fit (python -m gemm_bench.fit), so the
/// dispatcher never extrapolates a kernel into shapes where it was not
/// timed. No tile twice as tall or wide as the problem (64 rows and columns
/// always fit); split-K only where whole tiles leave half the SMs idle and
/// each k-range gets at least 4 k-blocks; stream-K only past one wave of
/// tiles and with 8 k-blocks; a cluster only where the problem is two tiles
/// across along it; the direct kernel only up to DirectMaxMacs, without a
/// batch and with K-major A and B (its loads' lanes walk K). A grouped
/// problem takes grouped kernels only (and a grouped kernel grouped problems
/// only), whole tiles, and its tile and cluster rules count a group's rows
/// (Problem::rowsPerGroup).
/// `oversized`: waive the first rule (tile size), for the problems smaller
/// than every available tile (select() falls back to it; a TMA kernel is
/// correct for any size: TMA zero-fills rows and columns past the problem,
/// the store clips them, and staging realigns rows TMA cannot read).
bool isApplicable(const KernelConfig &config, const Problem &problem,
                  const Target &target, bool oversized = false);

/// The row units (tile M x cluster M rows) a grouped kernel of `config`
/// walks on `problem`, as the model counts them: the groups that can have
/// rows (min(G, M)) of M / min(G, M) rows each, every group from a unit
/// boundary, its whole units and a ragged last one (the sizes a router
/// gives are rarely multiples of the unit). A plain problem's are
/// ceil(M / unit).
uint64_t groupedRowUnits(const KernelConfig &config, const Problem &problem);

/// The staging copies' part of a TMA kernel's time on `problem` (0 when
/// nothing is staged): a launch for A and B together if either is staged,
/// one for C, and every staged byte read once and written once.
double stagingSeconds(const HardwareParams &params, const Problem &problem);

/// The physics part alone for `params` (what the fit varies). Throws
/// DispatchError for a tile `params` has no efficiency for. Low-precision
/// configurations take their tile's 16-bit efficiency at their MMA rate
/// (8-bit types twice, tf32 half the 16-bit rate), times an estimated cost
/// of promoting fp8 sums.
Estimate physicsEstimate(const HardwareParams &params,
                         const KernelConfig &config, const Problem &problem,
                         const Target &target);

class DispatchModel {
public:
  /// Reads and validates a model file; throws DispatchError naming the path
  /// and the problem.
  static DispatchModel load(const std::filesystem::path &path);
  /// The same from JSON text; `source` names it in errors.
  static DispatchModel parse(std::string_view text, const std::string &source);

  const HardwareParams &params() const { return hardware; }
  /// The configurations the model was fitted on (input type bf16; the
  /// dispatcher gives them the problem's types), in the file's order. Those
  /// with a column-major C (layouts.c; their names carry the token, e.g.
  /// akbkcc_128x72x64_coop_c1x1_rm_s8_st0) were measured on transposed
  /// problems: the dispatcher runs a row-major C as C^T = B A^T on them
  /// (Problem::transposed; their residuals are in its N x M x K), which puts
  /// the problem's M along the tile's N, where narrow tiles fit it.
  const std::vector<KernelConfig> &candidates() const { return kernels; }
  bool isCandidate(const KernelConfig &config) const;
  /// The grouped kernels the file's "grouped" section measured (input type
  /// bf16, grouped), in its order; empty without one.
  const std::vector<KernelConfig> &groupedCandidates() const {
    return groupedKernels;
  }
  /// Whether the dispatcher may consider `config`: a low-precision kernel
  /// of types, scales and layouts the "lowp" section measured kernels of
  /// must be one of those (an unmeasured tile's physics alone would look
  /// faster than the measured tiles, whose residuals are mostly slower);
  /// every other configuration may.
  bool offers(const KernelConfig &config) const;
  /// Whether the "lowp" section measured `config` (by its name).
  bool hasLowPrecisionResiduals(const KernelConfig &config) const {
    return lowPrecisionResiduals.count(config.name()) != 0;
  }
  /// The low-precision kernels the "lowp" section measured, in its order.
  const std::vector<KernelConfig> &measuredLowPrecision() const {
    return lowPrecisionKernels;
  }
  /// Physics times the learned correction. Configurations that are not
  /// candidates get the physics alone (correction 1, evidence 0); grouped
  /// problems take the grouped residuals (by M / G rows per group, N, K),
  /// never the plain ones; low-precision kernels those the "lowp" section
  /// measured under their name, if any. A candidate's residuals measured
  /// with the problem's C layout are taken where it has them (both: a tile
  /// measured directly and on transposed problems), else its others.
  Estimate estimate(const KernelConfig &config, const Problem &problem,
                    const Target &target) const;

  /// A training point: its sizes' logs and log(measured / physics).
  struct Residual {
    double logM, logN, logK, logRatio;
  };
  /// How residuals correct the physics: the Gaussian kernel's width (in
  /// log sizes) and the weight of the prior (no correction) they are
  /// shrunk towards.
  struct Correction {
    double bandwidth = 0.6, priorWeight = 0.5;
  };

  /// Where it came from (a path, or the `source` given to parse).
  const std::string &source() const { return sourceName; }
  /// The GPU it was fitted on, e.g. "NVIDIA H200"; the GPUs joined with
  /// " + " for a model whose measurements came from several.
  const std::string &gpuName() const { return gpu; }
  /// Where the model's measurements came from several GPUs (its
  /// "residuals_gpu"): the GPU that timed the residuals estimate() corrects
  /// `config` by on `problem` (the problem it runs), e.g. "NVIDIA H100 80GB
  /// HBM3" for candidates added on another GPU's measurements; "" for a
  /// model of one GPU, a configuration that is no candidate, or a grouped
  /// or low-precision problem (whose residuals record no GPU).
  std::string residualsGpu(const KernelConfig &config,
                           const Problem &problem) const;
  /// Training shapes (distinct) it was fitted on.
  size_t trainingShapes() const { return shapes; }

private:
  HardwareParams hardware;
  std::vector<KernelConfig> kernels;
  /// Per candidate (same order as kernels).
  std::vector<std::vector<Residual>> residuals;
  /// Per candidate (same order as kernels): residualsGpu.
  std::vector<std::string> residualGpus;
  std::vector<KernelConfig> groupedKernels;
  std::vector<std::vector<Residual>> groupedResiduals;
  /// Low-precision kernels' residuals, by KernelConfig::name(), and the
  /// classes (lowPrecisionClass) they were measured in.
  std::map<std::string, std::vector<Residual>> lowPrecisionResiduals;
  std::set<std::string> lowPrecisionClasses;
  std::vector<KernelConfig> lowPrecisionKernels;
  Correction correction, lowPrecisionCorrection;
  std::string sourceName, gpu;
  size_t shapes = 0;
};

} // namespace gemm::dispatch

#endif // GEMM_DISPATCH_MODEL_H
