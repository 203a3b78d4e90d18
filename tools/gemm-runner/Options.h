//===- Options.h - gemm-runner's command line -------------------*- C++ -*-===//

#ifndef GEMM_RUNNER_OPTIONS_H
#define GEMM_RUNNER_OPTIONS_H

#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/Runner.h"

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemm::runner {

struct Options {
  /// The bundle to run; empty with --library, which picks it per problem.
  std::string bundlePath;
  /// --library DIR: a kernel library (library.json) to pick the bundle from
  /// with the dispatcher, for inputs of type `inType`.
  std::optional<std::string> libraryDir;
  bundle::DType inType = bundle::DType::BF16;
  /// --out-dtype and --quant (a QuantConfig spelling) for --library.
  std::optional<bundle::DType> outType;
  std::string quant;
  /// --layout A,B,C for --library: the storage orders the kernel is picked
  /// for (a bundle has its own).
  bundle::TensorLayouts layouts;
  std::vector<runtime::Problem> problems;
  /// --batch-strides: elements between the batch entries of A, B, C
  /// (nullopt: packed).
  std::array<std::optional<uint64_t>, 3> batchStrides;
  bool check = false;
  bool bench = false;
  runtime::ReferenceMode reference = runtime::ReferenceMode::Auto;
  uint64_t seed = 1;
  std::optional<double> tolerance;
  /// --inputs: random normal (default) or the simulator's small integers.
  runtime::InputValues inputs = runtime::InputValues::Normal;
  /// --dump-c FILE: write C (gemm/Bundle/TestData.h format) after the check.
  std::optional<std::string> dumpC;
  /// --expect-c FILE: C must equal this dump bit for bit (e.g. gemm-sim's).
  std::optional<std::string> expectC;
  int warmup = 10;
  int iterations = 50;
  bool vsCublas = false;
  bool coldL2 = false;
  runtime::BenchTiming timing = runtime::BenchTiming::Gpu;
  std::optional<std::string> jsonPath;
  std::chrono::milliseconds timeout{10000};
  /// --unaligned (--pad-leading-dims is --unaligned pad).
  runtime::UnalignedPolicy unaligned = runtime::UnalignedPolicy::Stage;
  /// --realign.
  runtime::RealignPolicy realign = runtime::RealignPolicy::Auto;
  bool dryRun = false;
  /// --dry-run has no GPU to ask: the SM count to size persistent grids.
  uint32_t dryRunSmCount = 132;
  int device = 0;
  bool help = false;
  /// Only report whether a usable GPU is there (for lit's GPU tier).
  bool probe = false;
};

/// Parses argv[1..]. Throws runtime::Error(Usage) naming the bad option.
/// --help and --probe need nothing else.
/// Without --check or --bench it checks; --vs and --cold-l2 imply --bench.
Options parseCommandLine(const std::vector<std::string> &args);

/// Shape list: one problem per line, "M N K" or "M N K BATCH"; blank lines
/// and '#' comments are skipped. `name` prefixes error messages.
std::vector<runtime::Problem> parseShapes(std::string_view text,
                                          const std::string &name);

std::string usage();

} // namespace gemm::runner

#endif // GEMM_RUNNER_OPTIONS_H
