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
  if (config.outType == config.inType)
    config.outType.reset();
  config.layouts = problem.layouts;
  config.batched = problem.batch > 1;
  return config;
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
      (config.splits > 1 ? " in " + std::to_string(config.splits) +
                               " k-ranges"
                         : "") +
      (config.streamK ? ", stream-K" : "") + " (" + fixed(e.waves, 2) +
      " waves), " + (e.memoryBound() ? "memory" : "compute") +
      "-bound, estimated " + fixed(e.seconds * 1e6, 1) + " us";
  if (e.correction != 1)
    text += " (physics " + fixed(e.physicsSeconds * 1e6, 1) + " us x " +
            fixed(e.correction, 2) + " learned from training shapes of weight " +
            fixed(e.evidence, 1) + ")";
  return text;
}

bool contains(const std::vector<KernelConfig> &list, const KernelConfig &c) {
  return std::find(list.begin(), list.end(), c) != list.end();
}

} // namespace

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
  if (problem.inType != DType::BF16 && problem.inType != DType::F16)
    throw DispatchError(problem.toString() +
                        ": sm_90a kernels take bf16 or f16 inputs");
  if (problem.m == 0 || problem.n == 0 || problem.k == 0)
    throw DispatchError(problem.toString() +
                        ": every size must be at least 1");
  auto fastest = [&](const std::vector<KernelConfig> &configs)
      -> std::optional<std::pair<KernelConfig, Estimate>> {
    std::optional<std::pair<KernelConfig, Estimate>> best;
    for (const KernelConfig &config : configs) {
      Estimate e = model.estimate(config, problem, target);
      if (!best || e.seconds < best->second.seconds)
        best.emplace(config, e);
    }
    return best;
  };

  std::vector<KernelConfig> candidates;
  for (const KernelConfig &config : model.candidates()) {
    KernelConfig typed = withTypes(config, problem);
    if ((!available || contains(*available, typed)) &&
        isApplicable(typed, problem, target))
      candidates.push_back(typed);
  }
  std::string fitted = "fitted model (" + model.source() + ", " +
                       std::to_string(model.trainingShapes()) +
                       " training shapes";
  if (!model.gpuName().empty())
    fitted += " on an " + model.gpuName();
  fitted += ", " + std::to_string(target.smCount) + " SMs)";
  if (auto best = fastest(candidates))
    return {best->first, Source::Model, best->second,
            "fastest of the " + std::to_string(candidates.size()) +
                " candidates that apply, by the " + fitted + ": " +
                describe(best->first, best->second)};

  // Only configurations whose tile the physics knows can be estimated.
  std::vector<KernelConfig> sameTypes;
  for (const KernelConfig &config : *available)
    if (config.inType == problem.inType &&
        config.cType() == problem.outType.value_or(problem.inType) &&
        config.layouts == problem.layouts &&
        config.batched == (problem.batch > 1) &&
        isApplicable(config, problem, target) &&
        model.params().tileEfficiency.count(HardwareParams::tileKey(config)))
      sameTypes.push_back(config);
  if (sameTypes.empty() && problem.layouts.c == Layout::Col) {
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
  if (!best) {
    // Say why available direct kernels of these types were passed over.
    std::string direct;
    for (const KernelConfig &config : *available)
      if (config.direct() && config.inType == problem.inType &&
          config.cType() == problem.outType.value_or(problem.inType) &&
          !isApplicable(config, problem, target)) {
        direct = "; direct kernels (schedule = direct) run single problems "
                 "of at most 2^31 multiply-adds with K-major A and B (a(row) "
                 "b(col)) only";
        break;
      }
    throw DispatchError("no kernel for " + problem.toString() +
                        " among the available ones: build a kernel library "
                        "with that input type and those layouts, or compile "
                        "one (gemm.compile)" +
                        direct);
  }
  return {best->first, Source::ModelAmongAvailable, best->second,
          "none of the model's candidates is available; the " + fitted +
              " among the available kernels: " +
              describe(best->first, best->second)};
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
          KernelConfig typed = withTypes(config, problem);
          if (!contains(out, typed))
            out.push_back(typed);
        }
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
  library.fitted = DispatchModel::load(dir / index.value("model", "model.json"));
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
