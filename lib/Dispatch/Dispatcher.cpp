//===- Dispatcher.cpp - The kernel for a problem, and why -----------------===//

#include "gemm/Dispatch/Dispatcher.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace gemm::dispatch {
namespace {

using nlohmann::json;

// The hardware model, fitted on the H200 (bench/results/2026-11-21-h200-sm90
// and 2026-11-22-h200): per-SM dense 16-bit tensor peak at 1980 MHz (989
// TFLOP/s over 132 SMs), the device-to-device copy bandwidth, the loaded HBM
// round trip for Little's law, and the fixed cost of one launch.
constexpr double SmPeakFlops = 989e12 / 132;
constexpr double HbmBytesPerSecond = 4.3e12;
constexpr double LoadedLatencySeconds = 2.0e-6;
constexpr double LaunchSeconds = 4e-6;
/// Estimates this close to the fastest count as ties (memory-bound shapes
/// make many), broken by the least MMA work.
constexpr double NearTie = 0.02;

struct TileEfficiency {
  uint32_t tileM, tileN;
  Schedule schedule;
  /// Fraction of the SM's MMA peak the tile sustains in a long k-loop:
  /// measured at 8192 cubed where marked, the others scaled by the tile's
  /// arithmetic intensity.
  double efficiency;
};

// In order of preference: the model's candidates and its last tie-break.
constexpr TileEfficiency Tiles[] = {
    {128, 256, Schedule::Cooperative, 0.81}, // measured
    {256, 128, Schedule::Cooperative, 0.81}, // measured
    {128, 192, Schedule::Cooperative, 0.79},
    {128, 128, Schedule::Cooperative, 0.76}, // measured
    {128, 64, Schedule::Cooperative, 0.62},
    {256, 64, Schedule::Cooperative, 0.66},
    {128, 128, Schedule::Pingpong, 0.79}, // measured
    {128, 64, Schedule::Pingpong, 0.64},
    {64, 256, Schedule::Pingpong, 0.75}, // measured
    {64, 192, Schedule::Pingpong, 0.72},
    {64, 128, Schedule::Pingpong, 0.66},
    {64, 64, Schedule::Pingpong, 0.55},
};

const TileEfficiency *findTile(const KernelConfig &config) {
  for (const TileEfficiency &tile : Tiles)
    if (tile.tileM == config.tileM && tile.tileN == config.tileN &&
        tile.schedule == config.schedule)
      return &tile;
  return nullptr;
}

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

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
  return config;
}

/// The tensor-core rate of the input type relative to 16-bit types: 8-bit
/// types run at twice, tf32 at half the rate (H200: 1979, 989, 494 dense
/// TFLOP/s).
double mmaRate(const KernelConfig &config) {
  switch (bundle::elementBytes(config.inType)) {
  case 1:
    return 2.0;
  case 4:
    return 0.5;
  default:
    return 1.0;
  }
}

/// Promoted fp8 sums make a warpgroup wait for its MMAs every few k-blocks
/// (the other warpgroup runs meanwhile): an estimated cost, until the H200
/// measures it.
constexpr double PromotionEfficiency = 0.9;

KernelConfig defaultOrder(KernelConfig config) {
  config.raster = Raster::AlongM;
  config.swizzle = 8;
  config.stages = 0;
  return config;
}

std::string fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

std::string describeEstimate(const KernelConfig &config, const Estimate &e) {
  return std::to_string(e.tiles) + " tiles of " + std::to_string(config.tileM) +
         "x" + std::to_string(config.tileN) + " (" + fixed(e.waves, 2) +
         " waves), " + (e.memoryBound() ? "memory" : "compute") +
         "-bound, estimated " + fixed(e.seconds * 1e6, 1) + " us";
}

Range parseRange(const json &bounds, const char *dim,
                 const std::string &where) {
  const json &pair = bounds.at(dim);
  if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_unsigned())
    throw DispatchError(where + ".bounds." + dim +
                        ": expected [low, high] (high null when open)");
  Range range;
  range.low = pair[0].get<uint64_t>();
  if (!pair[1].is_null())
    range.high = pair[1].get<uint64_t>();
  return range;
}

bool contains(const std::vector<KernelConfig> &list, const KernelConfig &c) {
  return std::find(list.begin(), list.end(), c) != list.end();
}

} // namespace

std::string Problem::toString() const {
  std::string text = "m=" + std::to_string(m) + " n=" + std::to_string(n) +
                     " k=" + std::to_string(k) + " " +
                     std::string(bundle::toString(inType));
  if (inTypeB && *inTypeB != inType)
    text += " x " + std::string(bundle::toString(*inTypeB));
  DType out = outType.value_or(KernelConfig::defaultOutput(inType));
  if (out != inType)
    text += " -> " + std::string(bundle::toString(out));
  if (!quant.isDefault())
    text += " (" + quant.spelling() + ")";
  return text;
}

bool Problem::lowPrecision() const {
  return inType != DType::BF16 && inType != DType::F16;
}

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
}

std::string_view toString(Source source) {
  switch (source) {
  case Source::Tuned:
    return "tuned";
  case Source::TunedDefaultOrder:
    return "tuned, default order";
  case Source::Model:
    return "model";
  case Source::ModelAmongAvailable:
    return "model, among the available kernels";
  }
  return "";
}

TuningTable TuningTable::parse(std::string_view text,
                               const std::string &source) {
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object())
    throw DispatchError(source + ": not a JSON object (a corrupt or truncated "
                                 "tuning file?)");
  if (root.value("format", "") != TuningFormatName)
    throw DispatchError(source + ": \"format\" is not \"" +
                        std::string(TuningFormatName) +
                        "\": not a tuning file of python -m gemm_bench.tune");
  if (root.value("version", 0) != TuningFormatVersion)
    throw DispatchError(source + ": tuning file version " +
                        root.value("version", json(0)).dump() +
                        "; this dispatcher reads version " +
                        std::to_string(TuningFormatVersion));
  TuningTable table;
  table.sourceName = source;
  try {
    if (root.contains("gpu") && root["gpu"].contains("device"))
      table.gpu = root["gpu"]["device"].value("name", "");
    for (const auto &[key, entry] : root.at("classes").items()) {
      std::string where = source + ": classes." + key;
      if (!entry.contains("best") || entry["best"].is_null())
        continue;
      TunedClass tuned;
      tuned.key = key;
      const json &bounds = entry.at("bounds");
      tuned.m = parseRange(bounds, "m", where);
      tuned.n = parseRange(bounds, "n", where);
      tuned.k = parseRange(bounds, "k", where);
      std::string error;
      auto best = KernelConfig::parse(
          entry["best"].at("config").get<std::string>(), error);
      if (!best)
        throw DispatchError(where + ".best.config: " + error);
      tuned.best = *best;
      tuned.bestRatio = entry["best"].value("median_ratio", 0.0);
      table.tuned.push_back(std::move(tuned));
    }
  } catch (const json::exception &e) {
    throw DispatchError(source + ": malformed tuning file: " + e.what());
  }
  return table;
}

TuningTable TuningTable::load(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw DispatchError(path.string() + ": cannot read the tuning file");
  std::stringstream text;
  text << in.rdbuf();
  return parse(text.str(), path.string());
}

const TunedClass *TuningTable::classOf(uint64_t m, uint64_t n,
                                       uint64_t k) const {
  for (const TunedClass &c : tuned)
    if (c.m.contains(m) && c.n.contains(n) && c.k.contains(k))
      return &c;
  return nullptr;
}

Estimate estimate(const KernelConfig &config, const Problem &problem,
                  const Target &target) {
  const TileEfficiency *tile = findTile(config);
  if (!tile)
    throw DispatchError("the hardware model has no efficiency figure for " +
                        config.name());
  double efficiency = tile->efficiency * mmaRate(config);
  if (bundle::isFp8(config.inType) && !config.quant.fastAccumulation)
    efficiency *= PromotionEfficiency;
  uint64_t m = problem.m, n = problem.n, k = problem.k;
  Estimate e;
  e.tiles = ceilDiv(m, config.tileM) * ceilDiv(n, config.tileN);
  uint64_t ctas = std::min<uint64_t>(e.tiles, target.smCount);
  e.waves = double(e.tiles) / target.smCount;
  // Padding rows and columns of edge tiles cost like real ones.
  double tileSeconds = 2.0 * config.tileM * config.tileN * config.tileK *
                       ceilDiv(k, config.tileK) / (SmPeakFlops * efficiency);
  e.computeSeconds = ceilDiv(e.tiles, ctas) * tileSeconds;
  // A CTA keeps at most its ring in flight (rows of A past M are zero-filled
  // by TMA, not fetched), so by Little's law a few CTAs cannot reach the HBM
  // bandwidth: why small M wants narrow tiles (more CTAs).
  double in = bundle::elementBytes(problem.inType);
  double out = bundle::elementBytes(problem.outType.value_or(problem.inType));
  double fetchedPerStage =
      double(std::min<uint64_t>(m, config.tileM) + config.tileN) *
      config.tileK * in;
  double perCta = config.ringStages() * fetchedPerStage / LoadedLatencySeconds;
  double bandwidth = std::min(HbmBytesPerSecond, double(ctas) * perCta);
  double uniqueBytes = double(m * k + n * k) * in + double(m * n) * out;
  e.memorySeconds = uniqueBytes / bandwidth;
  e.seconds = std::max(e.computeSeconds, e.memorySeconds) + LaunchSeconds;
  return e;
}

std::vector<KernelConfig> modelCandidates(const Problem &problem) {
  std::vector<KernelConfig> out;
  for (const TileEfficiency &tile : Tiles) {
    KernelConfig config;
    config.tileM = tile.tileM;
    config.tileN = tile.tileN;
    config.schedule = tile.schedule;
    config = withTypes(config, problem);
    // Low-precision types rule out some tiles (e.g. promoted fp8 sums need
    // twice the accumulator registers).
    if (config.buildable())
      out.push_back(config);
  }
  return out;
}

KernelConfig modelPick(const Problem &problem, const Target &target,
                       const std::vector<KernelConfig> *candidates) {
  std::vector<KernelConfig> own;
  if (!candidates) {
    own = modelCandidates(problem);
    candidates = &own;
  }
  std::vector<std::pair<const KernelConfig *, Estimate>> estimates;
  for (const KernelConfig &config : *candidates)
    if (findTile(config))
      estimates.emplace_back(&config, estimate(config, problem, target));
  if (estimates.empty())
    throw DispatchError("the hardware model knows none of the candidate "
                        "tiles for " +
                        problem.toString());
  double fastest = estimates.front().second.seconds;
  for (const auto &item : estimates)
    fastest = std::min(fastest, item.second.seconds);
  const std::pair<const KernelConfig *, Estimate> *best = nullptr;
  for (const auto &item : estimates)
    if (item.second.seconds <= fastest * (1 + NearTie) &&
        (!best || item.second.computeSeconds < best->second.computeSeconds))
      best = &item;
  return *best->first;
}

Selection select(const Problem &problem, const TuningTable *table,
                 const Target &target,
                 const std::vector<KernelConfig> *available) {
  if (target.arch != bundle::Arch::Sm90a)
    throw DispatchError(
        "no dispatch data for " + std::string(bundle::toString(target.arch)) +
        " (kernels are tuned and modelled for sm_90a only): compile a "
        "configuration explicitly (gemm.compile, or gemm-opt)");
  checkProblem(problem);
  std::vector<Selection> tried;
  // The tuning file holds 16-bit kernels only: low-precision problems are
  // the model's.
  const TunedClass *tuned =
      table && !problem.lowPrecision()
          ? table->classOf(problem.m, problem.n, problem.k)
          : nullptr;
  if (tuned) {
    std::string where = "shape class " + tuned->key + " of " + table->source();
    Selection exact{withTypes(tuned->best, problem), Source::Tuned, tuned->key,
                    where + ": the searched best (" +
                        fixed(tuned->bestRatio, 3) +
                        "x cuBLAS, median over the class's shapes)"};
    tried.push_back(exact);
    Selection plain{defaultOrder(exact.config), Source::TunedDefaultOrder,
                    tuned->key,
                    where +
                        ": the searched best's tile and cluster at the "
                        "default order and depth (" +
                        exact.config.name() + " is not available)"};
    if (plain.config != exact.config)
      tried.push_back(plain);
  }
  KernelConfig picked = modelPick(problem, target);
  tried.push_back(
      {picked, Source::Model, tuned ? tuned->key : "",
       std::string(tuned ? "the tuned kernels are not available"
                         : "no tuned class holds this shape") +
           "; hardware model (" + std::to_string(target.smCount) + " SMs): " +
           describeEstimate(picked, estimate(picked, problem, target))});
  for (const Selection &selection : tried)
    if (!available || contains(*available, selection.config))
      return selection;

  std::vector<KernelConfig> sameTypes;
  KernelConfig wanted = withTypes(KernelConfig(), problem);
  for (const KernelConfig &config : *available)
    if (config.inType == problem.inType && config.bType() == wanted.bType() &&
        config.cType() == wanted.cType() && config.quant == problem.quant &&
        config.splits == 1 && !config.streamK && findTile(config))
      sameTypes.push_back(config);
  if (sameTypes.empty())
    throw DispatchError("no kernel for " + problem.toString() +
                        " among the available ones: build a kernel library "
                        "with that input type, or compile one (gemm.compile)");
  KernelConfig fallback = modelPick(problem, target, &sameTypes);
  return {fallback, Source::ModelAmongAvailable, tuned ? tuned->key : "",
          "none of " + tried.front().config.name() +
              (tried.size() > 1 ? " or its fallbacks" : "") +
              " is available; hardware model among the available kernels: " +
              describeEstimate(fallback, estimate(fallback, problem, target))};
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
          problem(DType::S8, DType::S32, ""),
          problem(DType::S8, DType::BF16, "rc"),
          problem(DType::F32, DType::F32, "")};
}

std::vector<KernelConfig> lowPrecisionLibrarySet() {
  // The tiles worth shipping: the model's picks over squares and LLM shapes
  // come from these (the narrow and the small-M ones aside, which the
  // compiler builds on first use).
  static const std::pair<uint32_t, uint32_t> Shipped[] = {
      {128, 256}, {256, 128}, {128, 192}, {128, 128}, {64, 256}, {64, 128}};
  std::vector<KernelConfig> out;
  for (const Problem &problem : libraryLowPrecisionProblems())
    for (const KernelConfig &config : modelCandidates(problem))
      for (auto [m, n] : Shipped)
        if (config.tileM == m && config.tileN == n && !contains(out, config))
          out.push_back(config);
  return out;
}

std::vector<KernelConfig> librarySet(const TuningTable &table,
                                     const std::vector<DType> &inTypes) {
  std::vector<KernelConfig> out;
  auto add = [&](const KernelConfig &config) {
    if (!contains(out, config))
      out.push_back(config);
  };
  for (DType type : inTypes) {
    Problem problem;
    problem.inType = type;
    for (const TunedClass &tuned : table.classes()) {
      KernelConfig best = withTypes(tuned.best, problem);
      add(best);
      add(defaultOrder(best));
    }
    for (const KernelConfig &config : modelCandidates(problem))
      add(config);
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
  library.tuning =
      TuningTable::load(dir / index.value("tuning", "tuning.json"));
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
                               const std::filesystem::path &tuningPath,
                               const std::vector<KernelConfig> &configs) {
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(tuningPath, dir / "tuning.json",
                             std::filesystem::copy_options::overwrite_existing);
  json names = json::array();
  for (const KernelConfig &config : configs)
    names.push_back(config.name());
  json index = {{"format", LibraryFormatName},
                {"version", LibraryFormatVersion},
                {"tuning", "tuning.json"},
                {"tuning_source", tuningPath.filename().string()},
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
  return dispatch::select(problem, &tuning, target, &kernels);
}

} // namespace gemm::dispatch
