//===- Dispatcher.h - The kernel for a problem, and why ---------*- C++ -*-===//
//
// The one implementation of "which kernel runs this GEMM": gemm-runner
// --library, gemm-dispatch, the Python package and the benchmark tooling all
// call select(). Its data is a fitted model of the kernels' times
// (gemm/Dispatch/Model.h; written by python -m gemm_bench.fit from a GPU's
// measurements over a training set of shapes): select() estimates every
// candidate kernel on the problem and takes the fastest.
//
// Plain C++17 + nlohmann_json: no CUDA, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DISPATCH_DISPATCHER_H
#define GEMM_DISPATCH_DISPATCHER_H

#include "gemm/Dispatch/KernelConfig.h"
#include "gemm/Dispatch/Model.h"

#include <filesystem>
#include <string>
#include <vector>

namespace gemm::dispatch {

enum class Source {
  /// The model's fastest candidate.
  Model,
  /// None of the model's candidates is available (a library without them):
  /// the physics' fastest among what is.
  ModelAmongAvailable,
};
std::string_view toString(Source source);

/// Refuses (DispatchError naming the problem and the rule) type pairs,
/// outputs and scales that no SM90 kernel takes: the compiler's rules
/// (docs/LowPrecision.md), checked before any kernel is looked for.
void checkProblem(const Problem &problem);

struct Selection {
  KernelConfig config;
  Source source = Source::Model;
  /// The model's estimate for the chosen configuration.
  Estimate estimate;
  /// One line for humans: why this configuration.
  std::string reason;
  /// The kernel computes the transposed problem (Problem::transposed()):
  /// a column-major C that no available kernel writes is written as the
  /// row-major C^T = B A^T. Run it on N x M x K with A and B exchanged.
  bool transposed = false;
};

/// Picks the kernel for `problem`: the candidate of `model` (with the
/// problem's types and layouts) of least estimated time. `available` null
/// means every configuration can be had (the caller compiles what is
/// missing), else only those listed can (a kernel library). Low-precision
/// problems (fp8, int8, tf32) take the candidates at their BK (128 for
/// 8-bit, 32 for tf32) that the compiler builds, estimated by the physics
/// alone at their MMA rate (the model is fitted on bf16 kernels). A
/// column-major C that none of the available (or buildable: an fp8 C is
/// written row-major only) kernels writes is computed as the transposed
/// problem (Selection::transposed). A grouped problem (Problem::groups) is
/// picked among the grouped kernels (groupedCandidates) by the physics with
/// the groups' row tiles. Throws DispatchError for an arch other
/// than sm_90a, a problem checkProblem() refuses, or when `available` holds
/// no configuration of the problem's types and layouts.
Selection select(const Problem &problem, const DispatchModel &model,
                 const Target &target,
                 const std::vector<KernelConfig> *available = nullptr);

/// The layouts a kernel library holds kernels of: the four input layouts
/// (A K- or M-major, B K- or N-major) with a row-major C. A column-major C
/// is dispatched as the transposed problem, whose C is row-major, so the
/// library needs no kernels of its own for it.
std::vector<TensorLayouts> libraryLayouts();

/// Every configuration select() can return without an availability filter,
/// for each input type in `inTypes` (C of the same type) and each of
/// `layouts`: the model's candidates, and with `batched` the batched twins of
/// those a batch can get (whole tiles: no split-K or stream-K). What a
/// kernel library must hold so that dispatch never needs the compiler.
std::vector<KernelConfig>
librarySet(const DispatchModel &model, const std::vector<DType> &inTypes,
           const std::vector<TensorLayouts> &layouts = {TensorLayouts{}},
           bool batched = false);

/// The configurations a grouped (MoE) problem is picked among (input type
/// bf16; select() gives them the problem's types and layouts): the grouped
/// kernels measured on grouped problems that the model file lists
/// (DispatchModel::groupedCandidates: the H200's are those of
/// bench/results/2026-11-24-h200-grouped, 128x256 cooperative with 1x1, 2x1
/// and 1x2 clusters, 128x128 cooperative and pingpong, 64x256 pingpong);
/// for a model without them, whole-tile cooperative and pingpong kernels of
/// those and other large and small tiles whose MMA efficiency the model
/// has, estimated by the physics alone.
std::vector<KernelConfig> groupedCandidates(const DispatchModel &model);
/// Every grouped configuration select() can return, for each input type in
/// `inTypes` (C of the same type): groupedCandidates() with A and C
/// row-major and B K-major (B [G, N, K]) or N-major (B [G, K, N]).
std::vector<KernelConfig> groupedLibrarySet(const DispatchModel &model,
                                            const std::vector<DType> &inTypes);

/// The low-precision problems a kernel library serves without the
/// compiler: fp8 e4m3 to bf16 with per-tensor, row/column and block-wise
/// scales, s8 to s32 and to bf16 with row/column scales, f32 through tf32.
std::vector<Problem> libraryLowPrecisionProblems();
/// The whole-tile candidates of `model` for those problems that the
/// compiler builds, at the tiles worth shipping (select() picks among them
/// with a library; other low-precision kernels are compiled on first use).
std::vector<KernelConfig> lowPrecisionLibrarySet(const DispatchModel &model);

/// The value of a kernel library index's "format" and its version.
inline constexpr std::string_view LibraryFormatName = "gemm-kernel-library";
inline constexpr int LibraryFormatVersion = 2;

/// A directory of kernel bundles built ahead of time (the gemm-kernels CMake
/// target) with its index, library.json: the model file the set was chosen
/// from (a copy, model.json) and the bundles' names.
class KernelLibrary {
public:
  /// Reads DIR/library.json and the model file it names; checks that every
  /// listed bundle's manifest is there. Throws DispatchError.
  static KernelLibrary load(const std::filesystem::path &dir);
  /// Writes DIR/library.json for `configs` and copies `modelPath` to
  /// DIR/model.json (the bundles themselves are gemm-opt's to write).
  static void writeIndex(const std::filesystem::path &dir,
                         const std::filesystem::path &modelPath,
                         const std::vector<KernelConfig> &configs);

  const std::filesystem::path &dir() const { return root; }
  const DispatchModel &model() const { return fitted; }
  const std::vector<KernelConfig> &configs() const { return kernels; }
  std::filesystem::path manifestPath(const KernelConfig &config) const;
  /// select() among this library's kernels with its model.
  Selection select(const Problem &problem, const Target &target) const;

private:
  std::filesystem::path root;
  DispatchModel fitted;
  std::vector<KernelConfig> kernels;
};

} // namespace gemm::dispatch

#endif // GEMM_DISPATCH_DISPATCHER_H
