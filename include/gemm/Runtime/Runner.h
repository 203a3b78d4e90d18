//===- Runner.h - Check and time a kernel bundle on one problem -*- C++ -*-===//
//
// The whole of what gemm-runner does per problem, as a library for the
// command line tool, the benchmarks and python/.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_RUNNER_H
#define GEMM_RUNTIME_RUNNER_H

#include "gemm/Bundle/TestData.h"
#include "gemm/Runtime/Bundle.h"
#include "gemm/Runtime/Cublas.h"
#include "gemm/Runtime/Device.h"
#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/Reference.h"
#include "gemm/Runtime/Staging.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gemm::runtime {

enum class ReferenceMode {
  /// cuBLAS where it supports the problem, else the naive kernel; the naive
  /// kernel also as a second opinion on small problems.
  Auto,
  Cublas,
  Naive,
  Both,
};

/// Passing bound on ||out - ref||_F / ||ref||_F (docs/Runtime.md and
/// docs/LowPrecision.md derive the values): by output dtype, plus for fp8
/// inputs the accumulation error of the elements of K accumulated in the
/// WGMMA (promote_every_k, or all `k` with fast accumulation), at least 5e-3
/// for tf32 inputs.
double defaultTolerance(const bundle::TensorTypes &types, uint64_t k = 0);

/// References must agree with each other this closely (f32 rounding only).
inline constexpr double ReferenceAgreementTolerance = 1e-4;

/// What A and B are filled with.
enum class InputValues {
  /// Standard normal values (fillRandomNormal).
  Normal,
  /// The simulator's small integers (fillSmallIntegers): every sum exact.
  SmallIntegers,
};

struct CheckOptions {
  ReferenceMode reference = ReferenceMode::Auto;
  uint64_t seed = 1;
  std::optional<double> tolerance;
  InputValues inputs = InputValues::Normal;
  /// Copy C back into CheckResult::output (packed rows).
  bool keepOutput = false;
};

struct ReferenceComparison {
  /// "cublas" or "naive".
  std::string reference;
  CompareStats stats;
};

struct CheckResult {
  bool passed = false;
  double tolerance = 0;
  uint64_t seed = 0;
  /// Our output against each reference that ran; the first is the primary.
  std::vector<ReferenceComparison> comparisons;
  /// Relative error between the cuBLAS and naive references when both ran.
  std::optional<double> referenceAgreement;
  /// fp8 outputs: the amax the kernel wrote, the reference's (the largest
  /// |C| before the output scale), and the output scale the runner gave.
  std::optional<double> amax, referenceAmax, outputScale;
  /// Why a reference was skipped or why the check failed, for humans.
  std::vector<std::string> notes;
  /// C as the kernel left it (CheckOptions::keepOutput).
  std::optional<bundle::MatrixDump> output;
};

struct TimingStats {
  std::vector<float> ms;
  double medianMs = 0, minMs = 0, maxMs = 0;
  static TimingStats from(std::vector<float> ms);
  double tflops(double flops) const { return flops / (medianMs * 1e9); }
};

/// What a timed run's events bracket.
enum class BenchTiming {
  /// The run queued behind a closed StreamGate, then released: the GPU's
  /// work alone, as when calls are queued faster than the GPU runs them.
  Gpu,
  /// The run launched onto an idle stream: adds the host's cost of launching
  /// it, what one call costs a caller who waits for each.
  Call,
};
std::string_view toString(BenchTiming timing);
std::optional<BenchTiming> parseBenchTiming(std::string_view text);

struct BenchOptions {
  int warmup = 10;
  int iterations = 50;
  bool vsCublas = false;
  bool coldL2 = false;
  BenchTiming timing = BenchTiming::Gpu;
  uint64_t seed = 1;
};

struct BenchResult {
  /// Our GEMM as the caller sees it: with staged matrices, the copies into
  /// scratch, the kernel and the copy out, between one pair of events.
  TimingStats ours;
  /// With staged matrices, `ours` split per timed run into the copies alone
  /// (in and out together) and the kernel alone.
  std::optional<TimingStats> staging, kernelOnly;
  std::optional<TimingStats> cublas;
  /// What cuBLAS ran (types, scales, accumulation) with --vs cublas.
  std::string cublasBaseline;
  /// cuBLAS median / our median: above 1 means ours is faster.
  std::optional<double> speedupVsCublas;
  /// Sampled right after the timed runs.
  ClockSample clocks;
};

struct RunnerOptions {
  /// A kernel not finished after this long is reported as a hang.
  std::chrono::milliseconds timeout{10000};
  /// Matrices whose packed rows are not 16-byte multiples.
  UnalignedPolicy unaligned = UnalignedPolicy::Stage;
  /// A and B whose rows are not 128-byte multiples (PlanOptions::realign).
  RealignPolicy realign = RealignPolicy::Auto;
  /// Elements between batch entries of A, B, C (nullopt: packed).
  std::array<std::optional<uint64_t>, 3> batchStrides;
};

class GemmRunner {
public:
  /// Loads the kernel onto `device` (arch check, module, attributes). Keeps
  /// references to `bundle` and `device`, which must outlive the runner.
  GemmRunner(const KernelBundle &bundle, const Device &device,
             RunnerOptions options);
  ~GemmRunner();

  const LoadedKernel &kernel() const { return loaded; }
  uint32_t persistentCtaCapacity() const { return capacity; }
  LaunchPlan plan(const Problem &problem) const;

  /// Random inputs (seeded, fresh per call), NaN-poisoned output, one launch
  /// (with its staging copies), then comparison of the caller's output
  /// against the reference(s), computed from the caller's inputs.
  CheckResult check(const LaunchPlan &plan, const CheckOptions &options);
  /// Warm-up, then timed runs with CUDA events (interleaved with cuBLAS, the
  /// order alternating, when options.vsCublas). Staging copies are part of
  /// each of our runs and of its time; cuBLAS gets the caller's buffers.
  BenchResult bench(const LaunchPlan &plan, const BenchOptions &options);

private:
  const CublasLt &cublas();

  const KernelBundle &bundle;
  const Device &device;
  RunnerOptions options;
  LoadedKernel loaded;
  uint32_t capacity = 0;
  std::unique_ptr<CublasLt> lt;
};

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_RUNNER_H
