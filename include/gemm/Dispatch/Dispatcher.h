//===- Dispatcher.h - The kernel for a problem, and why ---------*- C++ -*-===//
//
// The one implementation of "which kernel runs this GEMM": gemm-runner
// --library, gemm-dispatch, the Python package and the benchmark tooling all
// call select(). Its data is a tuning file (format gemm-tuning-cache, written
// by the configuration search of python/gemm_bench): shape classes, each with
// its (M, N, K) bounds and the configuration the search measured best. Shapes
// of classes the search did not cover get the pick of a model of the
// hardware (waves over the SMs, MMA efficiency per tile, HBM bandwidth the
// active CTAs can sustain, launch cost).
//
// Plain C++17 + nlohmann_json: no CUDA, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DISPATCH_DISPATCHER_H
#define GEMM_DISPATCH_DISPATCHER_H

#include "gemm/Dispatch/KernelConfig.h"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemm::dispatch {

/// A tuning file or kernel library that cannot be read or is not of the
/// expected format; the message names the file and the problem.
class DispatchError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The value of a tuning file's "format" and the version this code reads.
inline constexpr std::string_view TuningFormatName = "gemm-tuning-cache";
inline constexpr int TuningFormatVersion = 1;

struct Range {
  uint64_t low = 1;
  /// nullopt: open above.
  std::optional<uint64_t> high;
  bool contains(uint64_t v) const { return v >= low && (!high || v <= *high); }
};

struct TunedClass {
  /// e.g. "m65-128.n4097-16384.k4097-16384".
  std::string key;
  Range m, n, k;
  /// The searched best (its key: the types come from the problem), and its
  /// median ratio to cuBLAS over the class's shapes.
  KernelConfig best;
  double bestRatio = 0;
};

class TuningTable {
public:
  /// Reads and validates a tuning file. Throws DispatchError naming the path
  /// and the problem. Classes without a measured best are left out.
  static TuningTable load(const std::filesystem::path &path);
  /// The same from JSON text; `source` names it in errors.
  static TuningTable parse(std::string_view text, const std::string &source);

  /// The class whose bounds hold (m, n, k), or null.
  const TunedClass *classOf(uint64_t m, uint64_t n, uint64_t k) const;
  const std::vector<TunedClass> &classes() const { return tuned; }
  /// Where it came from (a path, or the `source` given to parse).
  const std::string &source() const { return sourceName; }
  /// The GPU the search ran on, e.g. "NVIDIA H200" ("" if not recorded).
  const std::string &gpuName() const { return gpu; }

private:
  std::vector<TunedClass> tuned;
  std::string sourceName, gpu;
};

/// The GPU the kernel is for. Defaults: the H200 the tuning was done on.
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
  /// "m=.. n=.. k=.. bf16" for messages.
  std::string toString() const;
  /// fp8, 8-bit integer or tf32 inputs: no tuning data, the model picks.
  bool lowPrecision() const;
};

/// Refuses (DispatchError naming the problem and the rule) type pairs,
/// outputs and scales that no SM90 kernel takes: the compiler's rules
/// (docs/LowPrecision.md), checked before any kernel is looked for.
void checkProblem(const Problem &problem);

/// The model's estimate of one configuration on one problem.
struct Estimate {
  double seconds = 0, computeSeconds = 0, memorySeconds = 0;
  uint64_t tiles = 0;
  double waves = 0;
  bool memoryBound() const { return memorySeconds > computeSeconds; }
};

/// The hardware model's estimate for `config` on `problem`. Split-K and
/// stream-K configurations are estimated as their whole-tile twins. Throws
/// DispatchError for a tile the model has no efficiency figure for.
Estimate estimate(const KernelConfig &config, const Problem &problem,
                  const Target &target);

/// The configurations the model chooses among (every SM90 tile, cluster 1x1,
/// along_m, swizzle 8, derived depth), for `problem`'s types.
std::vector<KernelConfig> modelCandidates(const Problem &problem);

/// The model's pick among `candidates` (default: modelCandidates): the
/// fastest estimate; among those within 2% of it, the least MMA work
/// (padding included), then the first in candidate order.
KernelConfig modelPick(const Problem &problem, const Target &target,
                       const std::vector<KernelConfig> *candidates = nullptr);

enum class Source {
  /// The problem's class in the tuning file: its searched best.
  Tuned,
  /// The tuned configuration at the default order and depth (the exact one
  /// is not available).
  TunedDefaultOrder,
  /// Not a tuned class (or its kernels are not available): the model's pick.
  Model,
  /// None of the above is available: the model's best among what is.
  ModelAmongAvailable,
};
std::string_view toString(Source source);

struct Selection {
  KernelConfig config;
  Source source = Source::Model;
  /// The class key when the problem falls in a tuned class.
  std::string tunedClass;
  /// One line for humans: why this configuration.
  std::string reason;
};

/// Picks the kernel for `problem`. `table` may be null (model only);
/// `available` null means every configuration can be had (the caller
/// compiles what is missing), else only those listed can (a kernel library).
/// Throws DispatchError when the arch has no dispatch data (only sm_90a has)
/// or when `available` holds no configuration of the problem's types.
Selection select(const Problem &problem, const TuningTable *table,
                 const Target &target,
                 const std::vector<KernelConfig> *available = nullptr);

/// Every configuration select() can return without an availability filter,
/// for each input type in `inTypes` (C of the same type): each tuned class's
/// best and its default-order twin, and the model's candidates. What a
/// kernel library must hold so that dispatch never needs the compiler.
std::vector<KernelConfig> librarySet(const TuningTable &table,
                                     const std::vector<DType> &inTypes);

/// The low-precision problems a kernel library serves without the
/// compiler: fp8 e4m3 to bf16 with per-tensor, row/column and block-wise
/// scales, s8 to s32 and to bf16 with row/column scales, f32 through tf32.
std::vector<Problem> libraryLowPrecisionProblems();
/// The model's candidates of those problems (what select() can pick for
/// them).
std::vector<KernelConfig> lowPrecisionLibrarySet();

/// The value of a kernel library index's "format" and its version.
inline constexpr std::string_view LibraryFormatName = "gemm-kernel-library";
inline constexpr int LibraryFormatVersion = 1;

/// A directory of kernel bundles built ahead of time (the gemm-kernels CMake
/// target) with its index, library.json: the tuning file the set was chosen
/// from (a copy, tuning.json) and the bundles' names.
class KernelLibrary {
public:
  /// Reads DIR/library.json and the tuning file it names; checks that every
  /// listed bundle's manifest is there. Throws DispatchError.
  static KernelLibrary load(const std::filesystem::path &dir);
  /// Writes DIR/library.json for `configs` and copies `tuningPath` to
  /// DIR/tuning.json (the bundles themselves are gemm-opt's to write).
  static void writeIndex(const std::filesystem::path &dir,
                         const std::filesystem::path &tuningPath,
                         const std::vector<KernelConfig> &configs);

  const std::filesystem::path &dir() const { return root; }
  const TuningTable &table() const { return tuning; }
  const std::vector<KernelConfig> &configs() const { return kernels; }
  std::filesystem::path manifestPath(const KernelConfig &config) const;
  /// select() among this library's kernels with its tuning file.
  Selection select(const Problem &problem, const Target &target) const;

private:
  std::filesystem::path root;
  TuningTable tuning;
  std::vector<KernelConfig> kernels;
};

} // namespace gemm::dispatch

#endif // GEMM_DISPATCH_DISPATCHER_H
