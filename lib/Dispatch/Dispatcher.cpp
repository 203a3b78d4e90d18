//===- Dispatcher.cpp - The kernel for a problem, and why -----------------===//

#include "gemm/Dispatch/Dispatcher.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <optional>
#include <sstream>

namespace gemm::dispatch {
namespace {

using nlohmann::json;

/// A candidate of the model for the problem's types, layouts and batch.
KernelConfig withTypes(KernelConfig config, const Problem &problem) {
  config.inType = problem.inType;
  config.outType = problem.outType;
  if (config.outType == KernelConfig::defaultOutput(config.inType) &&
      config.outType == config.inType)
    config.outType.reset();
  config.inTypeB = problem.inTypeB;
  if (config.inTypeB == config.inType)
    config.inTypeB.reset();
  config.quant = problem.quant;
  config.tileK = KernelConfig::tileKFor(problem.inType);
  config.layouts = problem.layouts;
  config.batched = problem.batch > 1;
  config.grouped = problem.grouped();
  return config;
}

/// Whether a candidate of the model computes `problem` itself
/// (`transposed` false) or as C^T = B A^T. The model's candidates were
/// measured with a row-major C, or with a column-major one on transposed
/// problems (DispatchModel::candidates). Those of a row-major C compute any
/// problem itself (a column-major C with its own kernel); those of a
/// column-major C only a column-major one. Transposed: a candidate whose C
/// is the transposed problem's, for single products (the model measured
/// them so; the kernel library holds no batched twins of the column-major
/// ones) without block scales (they have no transposed form). Low-precision
/// ones must also be measured (select()).
bool orientationApplies(const KernelConfig &candidate, const Problem &problem,
                        bool transposed) {
  if (!transposed)
    return candidate.layouts.c == Layout::Row ||
           problem.layouts.c == Layout::Col;
  return candidate.layouts.c != problem.layouts.c && !problem.grouped() &&
         problem.batch <= 1 && problem.transposable();
}

/// Whether select() may run the transposed problem `run` on `typed` (the
/// candidate with its types): a low-precision one only on a kernel the
/// model's "lowp" section measured. The physics alone of a transposed tile
/// would be set against measured residuals of the problem's own
/// orientation, which are mostly slower than the physics.
bool transposedMeasured(const KernelConfig &typed, const Problem &run,
                        const DispatchModel &model) {
  return !run.lowPrecision() || model.hasLowPrecisionResiduals(typed);
}

std::string fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

std::string describe(const KernelConfig &config, const Estimate &e) {
  std::string text =
      std::to_string(e.tiles) + " tiles of " + std::to_string(config.tileM) +
      "x" + std::to_string(config.tileN) +
      (config.splits > 1 ? " in " + std::to_string(config.splits) + " k-ranges"
                         : "") +
      (config.streamK ? ", stream-K" : "") + " (" + fixed(e.waves, 2) +
      " waves), " + (e.memoryBound() ? "memory" : "compute") +
      "-bound, estimated " + fixed(e.seconds * 1e6, 1) + " us";
  if (e.correction != 1)
    text += " (physics " + fixed(e.physicsSeconds * 1e6, 1) + " us x " +
            fixed(e.correction, 2) +
            " learned from training shapes of weight " + fixed(e.evidence, 1) +
            ")";
  return text;
}

/// A model of several GPUs' measurements says which one timed the pick's
/// residuals on the problem `run` (the transposed one, for a pick that
/// runs it).
std::string residualsNote(const DispatchModel &model,
                          const KernelConfig &config, const Problem &run) {
  std::string gpu = model.residualsGpu(config, run);
  return gpu.empty() ? "" : "; its residuals were timed on an " + gpu;
}

bool contains(const std::vector<KernelConfig> &list, const KernelConfig &c) {
  return std::find(list.begin(), list.end(), c) != list.end();
}

} // namespace

void checkProblem(const Problem &problem) {
  DType a = problem.inType, b = problem.inTypeB.value_or(a);
  DType c = problem.outType.value_or(KernelConfig::defaultOutput(a));
  auto refuse = [&](const std::string &why) {
    throw DispatchError(problem.toString() + ": " + why);
  };
  bool fp8 = bundle::isFp8(a), int8 = bundle::isInt8(a);
  bool sameFamily = fp8 ? bundle::isFp8(b) : int8 ? bundle::isInt8(b) : a == b;
  if (a == DType::S32 || !sameFamily)
    refuse("sm_90a kernels take A and B of bf16, f16 or f32 (tf32), or fp8 "
           "(e4m3, e5m2) or 8-bit integer (s8, u8) pairs");
  bool floatOut = c == DType::BF16 || c == DType::F16 || c == DType::F32;
  if (!floatOut && !(fp8 && bundle::isFp8(c)) && !(int8 && c == DType::S32))
    refuse("the output of " + std::string(bundle::toString(a)) +
           " inputs is bf16, f16 or f32" +
           (fp8 ? std::string(", or e4m3/e5m2") : "") +
           (int8 ? std::string(", or s32") : ""));
  const QuantConfig &q = problem.quant;
  if (!fp8 && !int8 && !q.isDefault())
    refuse("scales apply to fp8 and 8-bit integer inputs");
  if (int8 && (q.fastAccumulation || q.promoteEvery != 1 ||
               q.a == bundle::ScaleGranularity::Block))
    refuse("8-bit integers accumulate exactly; they take per-tensor, row "
           "and column scales");
  if (int8 && c == DType::S32 && (q.a || q.b))
    refuse("an s32 output has no scales");
  if (q.a == bundle::ScaleGranularity::Col ||
      q.b == bundle::ScaleGranularity::Row)
    refuse("A is scaled per tensor, row or block, B per tensor, column or "
           "block");
  if ((q.a == bundle::ScaleGranularity::Block) !=
      (q.b == bundle::ScaleGranularity::Block))
    refuse("block-wise scales go together (A 1 x 128, B 128 x 128)");
  // WGMMA transposes only 16-bit operands.
  if (bundle::elementBytes(a) != 2 &&
      (problem.layouts.a != Layout::Row || problem.layouts.b != Layout::Col))
    refuse(std::string(bundle::toString(a)) +
           " A and B must be K-major (A row-major M x K, B column-major K x "
           "N, i.e. N x K row-major): WGMMA transposes only 16-bit operands; "
           "transpose the MN-major operand in memory first");
  if (problem.batch > 1 && ((q.a && q.a != bundle::ScaleGranularity::Tensor) ||
                            (q.b && q.b != bundle::ScaleGranularity::Tensor)))
    refuse("a batch takes per-tensor scales (one for the whole batch); "
           "row, column and block scales are not implemented for batches");
  if (problem.grouped()) {
    if ((a != DType::BF16 && a != DType::F16) || b != a ||
        !(c == DType::BF16 || c == DType::F16 || c == DType::F32))
      refuse("grouped kernels take bf16 or f16 A and B (both the same) and "
             "write bf16, f16 or f32");
    if (problem.layouts.a != Layout::Row || problem.layouts.c != Layout::Row)
      refuse("grouped kernels read A as [sum of M, K] rows and write C as "
             "[sum of M, N] rows (A and C row-major); B may be [G, N, K] or "
             "[G, K, N]");
    if (problem.batch > 1)
      refuse("a grouped problem has groups, not a batch");
  }
  if (bundle::isFp8(c) && problem.layouts.c == Layout::Col &&
      !problem.transposable())
    refuse("an fp8 C is written row-major; a column-major one is computed as "
           "the transposed problem, which block-wise scales do not have");
}

std::string_view toString(Source source) {
  switch (source) {
  case Source::Model:
    return "model";
  case Source::ModelAmongAvailable:
    return "model, among the available kernels";
  }
  return "";
}

Selection select(const Problem &problem, const DispatchModel &model,
                 const Target &target,
                 const std::vector<KernelConfig> *available) {
  if (target.arch != bundle::Arch::Sm90a)
    throw DispatchError(
        "no dispatch data for " + std::string(bundle::toString(target.arch)) +
        " (kernels are measured and modelled for sm_90a only): compile a "
        "configuration explicitly (gemm.compile, or gemm-opt)");
  checkProblem(problem);
  if (problem.m == 0 || problem.n == 0 || problem.k == 0)
    throw DispatchError(problem.toString() + ": every size must be at least 1");
  // A candidate runs the problem itself, or (transposed) C^T = B A^T.
  struct Candidate {
    KernelConfig config;
    bool transposed = false;
  };
  const Problem flipped = problem.transposed();
  auto fastest = [&](const std::vector<Candidate> &configs)
      -> std::optional<std::pair<Candidate, Estimate>> {
    std::optional<std::pair<Candidate, Estimate>> best;
    for (const Candidate &candidate : configs) {
      Estimate e = model.estimate(
          candidate.config, candidate.transposed ? flipped : problem, target);
      if (!best || e.seconds < best->second.seconds)
        best.emplace(candidate, e);
    }
    return best;
  };

  std::vector<Candidate> candidates;
  const std::vector<KernelConfig> pool =
      problem.grouped() ? groupedCandidates(model) : model.candidates();
  // Groups smaller than half of every grouped tile run on whole tiles (the
  // grouped candidates have no 64x64 tile).
  for (bool oversized : {false, true}) {
    if (oversized && (!candidates.empty() || !problem.grouped()))
      break;
    for (const KernelConfig &config : pool)
      for (bool transposed : {false, true}) {
        if (!orientationApplies(config, problem, transposed))
          continue;
        const Problem &run = transposed ? flipped : problem;
        KernelConfig typed = withTypes(config, run);
        if (transposed && !transposedMeasured(typed, run, model))
          continue;
        // Types and layouts rule out some tiles (e.g. promoted fp8 sums need
        // twice the accumulator registers; a narrow tile of the transposed
        // problem of an M-major A would load an N-major B in 64-column
        // blocks).
        if ((!available || contains(*available, typed)) &&
            isApplicable(typed, run, target, oversized) && typed.buildable())
          candidates.push_back({typed, transposed});
      }
  }
  // Where any applies, the kernels the model offers only
  // (DispatchModel::offers: a measured class's measured ones).
  auto offered = [&](const Candidate &c) { return model.offers(c.config); };
  if (std::any_of(candidates.begin(), candidates.end(), offered))
    candidates.erase(
        std::remove_if(candidates.begin(), candidates.end(),
                       [&](const Candidate &c) { return !offered(c); }),
        candidates.end());
  std::string fitted = "fitted model (" + model.source() + ", " +
                       std::to_string(model.trainingShapes()) +
                       " training shapes";
  if (!model.gpuName().empty())
    fitted += " on an " + model.gpuName();
  fitted += ", " + std::to_string(target.smCount) + " SMs)";
  if (auto best = fastest(candidates)) {
    Selection selection{best->first.config, Source::Model, best->second,
                        "fastest of the " + std::to_string(candidates.size()) +
                            " candidates that apply, by the " + fitted + ": " +
                            describe(best->first.config, best->second)};
    if (best->first.transposed) {
      selection.transposed = true;
      selection.reason += ", as the transposed problem C^T = B A^T (" +
                          flipped.toString() + ")";
    }
    selection.reason += residualsNote(
        model, best->first.config, best->first.transposed ? flipped : problem);
    return selection;
  }

  // Only configurations whose tile the physics knows can be estimated.
  std::vector<Candidate> sameTypes;
  KernelConfig wanted = withTypes(KernelConfig(), problem);
  static const std::vector<KernelConfig> none;
  auto collect = [&](bool oversized) {
    for (const KernelConfig &config : available ? *available : none)
      if (config.inType == problem.inType && config.bType() == wanted.bType() &&
          config.cType() == wanted.cType() && config.quant == problem.quant &&
          config.layouts == problem.layouts &&
          config.batched == (problem.batch > 1) &&
          config.grouped == problem.grouped() &&
          isApplicable(config, problem, target, oversized) &&
          model.params().tileEfficiency.count(HardwareParams::tileKey(config)))
        sameTypes.push_back({config});
  };
  collect(/*oversized=*/false);
  // A problem smaller than half of every available tile (e.g. fp8, int8 or
  // tf32 at 1x1x1: the smallest low-precision tiles are 64 wide, and no
  // direct kernel takes those types) still runs on a whole tile: TMA
  // zero-fills what lies past the problem, the store clips it, and staging
  // copies rows TMA cannot read. The model's fastest of those (in practice
  // the smallest tile) computes it.
  bool oversized = false;
  if (sameTypes.empty() &&
      !(problem.layouts.c == Layout::Col && problem.transposable())) {
    collect(/*oversized=*/true);
    oversized = !sameTypes.empty();
  }
  if (sameTypes.empty() && problem.layouts.c == Layout::Col &&
      problem.transposable()) {
    // No kernel writes this column-major C: its transpose is a row-major C^T
    // = B A^T, which the library's kernels of the flipped layouts compute.
    Selection swapped = select(problem.transposed(), model, target, available);
    swapped.transposed = !swapped.transposed;
    swapped.reason = "no available kernel writes a column-major C; the "
                     "transposed problem C^T = B A^T (" +
                     problem.transposed().toString() + "), " + swapped.reason;
    return swapped;
  }
  auto best = fastest(sameTypes);
  if (!best && !available)
    throw DispatchError("no candidate of the model for " + problem.toString() +
                        " is a kernel the compiler builds");
  if (!best) {
    // Say why available direct and split-K kernels of these types were
    // passed over.
    bool passedDirect = false, passedSplit = false;
    for (const KernelConfig &config : *available)
      if (config.inType == problem.inType &&
          config.cType() == wanted.cType() &&
          !isApplicable(config, problem, target)) {
        passedDirect |= config.direct();
        passedSplit |= config.splits > 1;
      }
    std::string rules;
    if (passedDirect)
      rules += "; direct kernels (schedule = direct) run single problems of "
               "at most 2^31 multiply-adds with K-major A and B (a(row) "
               "b(col)) only";
    if (passedSplit)
      rules += "; kernels split along K (scheduler = split_k) run only where "
               "their tiles fill at most half the SMs and each split gets at "
               "least " +
               std::to_string(SplitKMinKBlocksPerSplit) + " k-blocks (" +
               std::to_string(DirectSplitKMinKBlocksPerSplit) +
               " for direct kernels)";
    throw DispatchError("no kernel for " + problem.toString() +
                        " among the available ones: build a kernel library "
                        "with that input type and those layouts, or compile "
                        "one (gemm.compile)" +
                        rules);
  }
  return {best->first.config, Source::ModelAmongAvailable, best->second,
          "none of the model's candidates is available; the " + fitted +
              " among the available kernels" +
              (oversized ? " (none has a tile within twice the problem's "
                           "size: a larger whole tile computes it)"
                         : "") +
              ": " + describe(best->first.config, best->second) +
              residualsNote(model, best->first.config, problem)};
}

std::vector<TensorLayouts> libraryLayouts() {
  std::vector<TensorLayouts> out;
  for (Layout a : {Layout::Row, Layout::Col})
    for (Layout b : {Layout::Col, Layout::Row}) {
      TensorLayouts layouts;
      layouts.a = a;
      layouts.b = b;
      out.push_back(layouts);
    }
  return out;
}

std::vector<KernelConfig> librarySet(const DispatchModel &model,
                                     const std::vector<DType> &inTypes,
                                     const std::vector<TensorLayouts> &layouts,
                                     bool batched) {
  std::vector<KernelConfig> out;
  for (uint64_t batch : {uint64_t(1), uint64_t(2)}) {
    if (batch > 1 && !batched)
      break;
    for (const TensorLayouts &layout : layouts)
      for (DType type : inTypes) {
        Problem problem;
        problem.inType = type;
        problem.layouts = layout;
        problem.batch = batch;
        for (const KernelConfig &config : model.candidates()) {
          // A batch runs whole tiles only (isApplicable).
          if (batch > 1 && (config.splits > 1 || config.streamK))
            continue;
          // Direct kernels run plain problems with K-major operands only
          // (isApplicable).
          if (config.direct() &&
              (batch > 1 || layout.a != Layout::Row || layout.b != Layout::Col))
            continue;
          // Candidates of a column-major C run the transposed problem
          // (select()).
          bool transposed = config.layouts.c == Layout::Col;
          if (transposed && !orientationApplies(config, problem, true))
            continue;
          KernelConfig typed =
              withTypes(config, transposed ? problem.transposed() : problem);
          // Narrow tiles of an N-major B (loaded in 64-column blocks; for a
          // transposed candidate, the caller's M-major A) do not build.
          if (!typed.buildable())
            continue;
          if (!contains(out, typed))
            out.push_back(typed);
        }
      }
  }
  return out;
}

std::vector<KernelConfig> groupedCandidates(const DispatchModel &model) {
  if (!model.groupedCandidates().empty())
    return model.groupedCandidates();
  // (tile M, tile N, schedule, cluster M, cluster N), the kernels of
  // bench/results/2026-11-24-h200-grouped first.
  struct Shape {
    uint32_t m, n;
    Schedule schedule;
    uint32_t clusterM, clusterN;
  };
  static const Shape Shapes[] = {
      {128, 256, Schedule::Cooperative, 1, 1},
      {128, 256, Schedule::Cooperative, 2, 1},
      {128, 256, Schedule::Cooperative, 1, 2},
      {128, 128, Schedule::Cooperative, 1, 1},
      {128, 128, Schedule::Pingpong, 1, 1},
      {64, 256, Schedule::Pingpong, 1, 1},
      {128, 192, Schedule::Cooperative, 1, 1},
      {256, 128, Schedule::Cooperative, 1, 1},
      {64, 128, Schedule::Pingpong, 1, 1},
  };
  std::vector<KernelConfig> out;
  for (const Shape &shape : Shapes) {
    KernelConfig config;
    config.tileM = shape.m;
    config.tileN = shape.n;
    config.tileK = KernelConfig::tileKFor(config.inType);
    config.schedule = shape.schedule;
    config.clusterM = shape.clusterM;
    config.clusterN = shape.clusterN;
    config.grouped = true;
    if (model.params().tileEfficiency.count(HardwareParams::tileKey(config)) &&
        config.buildable())
      out.push_back(config);
  }
  return out;
}

std::vector<KernelConfig> groupedLibrarySet(const DispatchModel &model,
                                            const std::vector<DType> &inTypes) {
  std::vector<KernelConfig> out;
  for (Layout b : {Layout::Col, Layout::Row})
    for (DType type : inTypes) {
      Problem problem;
      problem.inType = type;
      problem.layouts.b = b;
      problem.groups = 2;
      for (const KernelConfig &config : groupedCandidates(model)) {
        KernelConfig typed = withTypes(config, problem);
        if (typed.buildable() && !contains(out, typed))
          out.push_back(typed);
      }
    }
  return out;
}

std::vector<Problem> libraryLowPrecisionProblems() {
  auto problem = [](DType in, std::optional<DType> out, const char *quant) {
    Problem p;
    p.inType = in;
    p.outType = out;
    std::string error;
    if (*quant)
      p.quant = *QuantConfig::parse(quant, error);
    return p;
  };
  return {problem(DType::E4M3, DType::BF16, "tt"),
          problem(DType::E4M3, DType::BF16, "rc"),
          problem(DType::E4M3, DType::BF16, "bb"),
          problem(DType::E4M3, DType::E4M3, "tt"),
          problem(DType::S8, DType::S32, ""),
          problem(DType::S8, DType::BF16, "rc"),
          problem(DType::F32, DType::F32, "")};
}

std::vector<KernelConfig> lowPrecisionLibrarySet(const DispatchModel &model) {
  // Whole tiles of the sizes worth shipping (what select() among a library
  // falls back to), the model's picks for the library's problems at the
  // squares and LLM shapes low-precision GEMMs are mostly run at (split-K
  // and stream-K ones included), and every kernel the model measured for
  // them or their transposed problems (which select() then chooses among).
  // Others are compiled on first use.
  static const std::pair<uint32_t, uint32_t> Shipped[] = {
      {128, 256}, {256, 128}, {128, 192}, {128, 128}, {64, 256}, {64, 128}};
  static const uint64_t Shapes[][3] = {
      {1024, 1024, 1024}, {2048, 2048, 2048},  {4096, 4096, 4096},
      {8192, 8192, 8192}, {2048, 28672, 8192}, {128, 8192, 8192},
      {16, 8192, 8192},   {4096, 14336, 4096}, {8192, 4096, 14336}};
  std::vector<KernelConfig> out;
  for (const Problem &problem : libraryLowPrecisionProblems()) {
    for (auto [m, n] : Shipped)
      for (const KernelConfig &config : model.candidates()) {
        KernelConfig typed = withTypes(config, problem);
        if (typed.tileM == m && typed.tileN == n && typed.splits == 1 &&
            !typed.streamK && typed.clusterM == 1 && typed.clusterN == 1 &&
            typed.buildable() && !contains(out, typed))
          out.push_back(typed);
      }
    const Problem flipped = problem.transposed();
    for (const KernelConfig &measured : model.measuredLowPrecision())
      if ((withTypes(measured, problem) == measured ||
           (problem.transposable() &&
            withTypes(measured, flipped) == measured)) &&
          measured.buildable() && !contains(out, measured))
        out.push_back(measured);
    for (const auto &shape : Shapes) {
      Problem sized = problem;
      sized.m = shape[0];
      sized.n = shape[1];
      sized.k = shape[2];
      KernelConfig pick = select(sized, model, Target()).config;
      if (!contains(out, pick))
        out.push_back(pick);
    }
  }
  return out;
}

KernelLibrary KernelLibrary::load(const std::filesystem::path &dir) {
  std::filesystem::path indexPath = dir / "library.json";
  std::ifstream in(indexPath);
  if (!in)
    throw DispatchError(indexPath.string() +
                        ": no kernel library index (build one with the "
                        "gemm-kernels target, or point at its directory)");
  json index = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (index.is_discarded() || !index.is_object() ||
      index.value("format", "") != LibraryFormatName)
    throw DispatchError(indexPath.string() + ": not a \"" +
                        std::string(LibraryFormatName) + "\" index");
  if (index.value("version", 0) != LibraryFormatVersion)
    throw DispatchError(indexPath.string() + ": library version " +
                        index.value("version", json(0)).dump() +
                        "; this dispatcher reads version " +
                        std::to_string(LibraryFormatVersion));
  KernelLibrary library;
  library.root = dir;
  library.fitted =
      DispatchModel::load(dir / index.value("model", "model.json"));
  std::vector<std::string> missing;
  for (const json &name : index.value("kernels", json::array())) {
    std::string error;
    auto config = KernelConfig::parse(name.get<std::string>(), error);
    if (!config)
      throw DispatchError(indexPath.string() + ": " + error);
    if (!std::filesystem::exists(library.manifestPath(*config)))
      missing.push_back(config->name());
    library.kernels.push_back(*config);
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string &name : missing)
      list += (list.empty() ? "" : ", ") + name;
    throw DispatchError(dir.string() +
                        ": the index lists bundles that are "
                        "not there (rebuild the library): " +
                        list);
  }
  return library;
}

void KernelLibrary::writeIndex(const std::filesystem::path &dir,
                               const std::filesystem::path &modelPath,
                               const std::vector<KernelConfig> &configs) {
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(modelPath, dir / "model.json",
                             std::filesystem::copy_options::overwrite_existing);
  json names = json::array();
  for (const KernelConfig &config : configs)
    names.push_back(config.name());
  json index = {{"format", LibraryFormatName},
                {"version", LibraryFormatVersion},
                {"model", "model.json"},
                {"model_source", modelPath.filename().string()},
                {"kernels", names}};
  std::ofstream out(dir / "library.json");
  out << index.dump(1) << "\n";
  if (!out)
    throw DispatchError((dir / "library.json").string() + ": cannot write");
}

std::filesystem::path
KernelLibrary::manifestPath(const KernelConfig &config) const {
  return root / (config.name() + ".json");
}

Selection KernelLibrary::select(const Problem &problem,
                                const Target &target) const {
  return dispatch::select(problem, fitted, target, &kernels);
}

} // namespace gemm::dispatch
