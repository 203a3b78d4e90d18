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
  /// C's type; nullopt: the input type.
  std::optional<DType> outType;
  /// Storage orders of A, B, C. They do not change the choice of
  /// configuration (every layout runs the same kernel structure); the
  /// kernel picked has them.
  TensorLayouts layouts;
  /// Problems of the batch (batched kernels for more than 1). Batched
  /// problems are dispatched as the one problem of batch x M rows that
  /// their tiles make: the tuned class of that shape (its whole-tile
  /// configuration: split-K and stream-K kernels are not picked for
  /// batches), else the model with batch x the tiles.
  uint64_t batch = 1;
  /// "m=.. n=.. k=.. bf16" (+ " a col b row c row" when not the default,
  /// " batch=B" when batched) for messages.
  std::string toString() const;
  /// The same product transposed, C^T = B A^T: N x M x K with A and B
  /// exchanged (each keeping its memory, so its layout flips: an N-major B
  /// is an M-major A of the transposed problem) and a row-major C^T, which
  /// is this problem's column-major C. Only for a column-major C.
  Problem transposed() const;
};

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
  /// The kernel computes the transposed problem (Problem::transposed()):
  /// a column-major C that no available kernel writes is written as the
  /// row-major C^T = B A^T. Run it on N x M x K with A and B exchanged.
  bool transposed = false;
};

/// Picks the kernel for `problem`. `table` may be null (model only);
/// `available` null means every configuration can be had (the caller
/// compiles what is missing), else only those listed can (a kernel library).
/// A column-major C that none of the available kernels writes is computed as
/// the transposed problem (Selection::transposed). Throws DispatchError when
/// the arch has no dispatch data (only sm_90a has) or when `available` holds
/// no configuration of the problem's types and layouts.
Selection select(const Problem &problem, const TuningTable *table,
                 const Target &target,
                 const std::vector<KernelConfig> *available = nullptr);

/// The layouts a kernel library holds kernels of: the four input layouts
/// (A K- or M-major, B K- or N-major) with a row-major C. A column-major C
/// is dispatched as the transposed problem, whose C is row-major, so the
/// library needs no kernels of its own for it.
std::vector<TensorLayouts> libraryLayouts();

/// With `batched`, librarySet also lists the batched twin of every
/// configuration a batched problem can get (none of split-K or stream-K).

/// Every configuration select() can return without an availability filter,
/// for each input type in `inTypes` (C of the same type) and each of
/// `layouts`: each tuned class's best and its default-order twin, and the
/// model's candidates. What a kernel library must hold so that dispatch
/// never needs the compiler.
std::vector<KernelConfig>
librarySet(const TuningTable &table, const std::vector<DType> &inTypes,
           const std::vector<TensorLayouts> &layouts = {TensorLayouts{}},
           bool batched = false);

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
