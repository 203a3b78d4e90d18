//===- Model.cpp - The fitted model of how long a kernel takes ------------===//

#include "gemm/Dispatch/Model.h"

#include "gemm/Bundle/StreamK.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>
#include <tuple>

namespace gemm::dispatch {
namespace {

using nlohmann::json;

/// Dense 16-bit MMA peak of one SM90 SM at 1980 MHz (989 TFLOP/s over 132).
constexpr double SmPeakFlops = 989e12 / 132;

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

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

/// (field name in the file, member): the hardware constants, in the units
/// the file uses (us, TB/s) and the scale to seconds / bytes per second.
struct ParamField {
  const char *name;
  double HardwareParams::*member;
  double scale;
};
constexpr ParamField ParamFields[] = {
    {"launch_us", &HardwareParams::launchSeconds, 1e-6},
    {"load_latency_us", &HardwareParams::loadLatencySeconds, 1e-6},
    {"l2_tbps", &HardwareParams::l2BytesPerSecond, 1e12},
    {"read_tbps", &HardwareParams::readBytesPerSecond, 1e12},
    {"write_tbps", &HardwareParams::writeBytesPerSecond, 1e12},
    {"fixup_tbps", &HardwareParams::fixupBytesPerSecond, 1e12},
    {"stream_k_fixed_us", &HardwareParams::streamKFixedSeconds, 1e-6},
    {"stream_k_traffic", &HardwareParams::streamKTrafficFactor, 1},
    {"cluster_compute", &HardwareParams::clusterComputeFactor, 1},
};
/// Version 2: the staging copies and the direct kernel.
constexpr ParamField StagingAndDirectFields[] = {
    {"stage_launch_us", &HardwareParams::stagingLaunchSeconds, 1e-6},
    {"stage_tbps", &HardwareParams::stagingBytesPerSecond, 1e12},
    {"direct_launch_us", &HardwareParams::directLaunchSeconds, 1e-6},
    {"direct_kblock_us", &HardwareParams::directKBlockSeconds, 1e-6},
    {"direct_gloads_per_sm", &HardwareParams::directLoadsPerSecond, 1e9},
};
/// Optional in every version (absent: its default).
constexpr ParamField OptionalFields[] = {
    {"bottleneck_sharpness", &HardwareParams::bottleneckSharpness, 1},
    {"memory_sharpness", &HardwareParams::memorySharpness, 1},
};

/// Times of limits that are close slow each other down (queues at the L2,
/// MMAs waiting on a stage or on HBM): their p-norm for p = `sharpness`, a
/// smooth maximum; the slowest alone for 0.
double combined(std::initializer_list<double> times, double sharpness) {
  double slowest = std::max(times);
  if (sharpness <= 0 || slowest <= 0)
    return slowest;
  double sum = 0;
  for (double time : times)
    sum += std::pow(time / slowest, sharpness);
  return slowest * std::pow(sum, 1 / sharpness);
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
  if (!(layouts == TensorLayouts{}))
    text += " a " + std::string(bundle::toString(layouts.a)) + " b " +
            std::string(bundle::toString(layouts.b)) + " c " +
            std::string(bundle::toString(layouts.c));
  if (batch > 1)
    text += " batch=" + std::to_string(batch);
  if (groups)
    text += " groups=" + std::to_string(groups);
  return text;
}

uint64_t Problem::rowsPerGroup() const {
  if (!groups)
    return m;
  const uint64_t filled = std::max<uint64_t>(std::min(groups, m), 1);
  return ceilDiv(m, filled);
}

bool Problem::lowPrecision() const {
  return inType != DType::BF16 && inType != DType::F16;
}

bool Problem::transposable() const {
  return quant.a != bundle::ScaleGranularity::Block &&
         quant.b != bundle::ScaleGranularity::Block;
}

std::string Problem::stagingNote() const {
  std::string which;
  for (size_t i = 0; i < 3; ++i)
    if (staged[i])
      which += (which.empty() ? "" : ", ") +
               std::string(bundle::toString(static_cast<bundle::Tensor>(i)));
  return which.empty() ? "" : " (" + which + " staged for TMA)";
}

Problem Problem::transposed() const {
  auto flipped = [](Layout layout) {
    return layout == Layout::Row ? Layout::Col : Layout::Row;
  };
  // A's row scales are the column scales of the new B and B's column
  // scales the row scales of the new A; tensor scales stay tensor scales.
  auto across = [](std::optional<bundle::ScaleGranularity> g)
      -> std::optional<bundle::ScaleGranularity> {
    if (g == bundle::ScaleGranularity::Row)
      return bundle::ScaleGranularity::Col;
    if (g == bundle::ScaleGranularity::Col)
      return bundle::ScaleGranularity::Row;
    return g;
  };
  Problem t = *this;
  t.m = n;
  t.n = m;
  if (inTypeB && *inTypeB != inType) {
    t.inType = *inTypeB;
    t.inTypeB = inType;
  }
  t.quant.a = across(quant.b);
  t.quant.b = across(quant.a);
  // The new A is B's memory: K-major (B col) stays K-major (A row). The new
  // B is A's memory: K-major (A row) stays K-major (B col).
  t.layouts.a = flipped(layouts.b);
  t.layouts.b = flipped(layouts.a);
  t.layouts.c = flipped(layouts.c);
  // Staging goes with the memory.
  t.staged = {staged[1], staged[0], staged[2]};
  return t;
}

namespace {
/// A kernel's name without its tile, schedule, cluster and split (its
/// types, scales, layouts, batching): the kernels one problem chooses among.
std::string lowPrecisionClass(const KernelConfig &config) {
  std::string name = config.name();
  return name.substr(0, name.size() - config.key().size());
}
} // namespace

bool DispatchModel::offers(const KernelConfig &config) const {
  // The classes are low-precision ones only (parse refuses others): a
  // 16-bit candidate, most of every select(), builds no name here.
  if (lowPrecisionClasses.empty() || config.inType == DType::BF16 ||
      config.inType == DType::F16)
    return true;
  return !lowPrecisionClasses.count(lowPrecisionClass(config)) ||
         hasLowPrecisionResiduals(config);
}

std::string HardwareParams::tileKey(const KernelConfig &config) {
  return std::to_string(config.tileM) + "x" + std::to_string(config.tileN) +
         "_" +
         (config.schedule == Schedule::Cooperative
              ? std::string("coop")
              : std::string(toString(config.schedule)));
}

const std::vector<std::string> &stagingAndDirectFields() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const ParamField &field : StagingAndDirectFields)
      out.push_back(field.name);
    return out;
  }();
  return names;
}

HardwareParams hardwareParams(const std::map<std::string, double> &hardware,
                              const std::map<std::string, double> &tiles,
                              const std::string &source) {
  HardwareParams params;
  for (const ParamField &field : ParamFields) {
    auto value = hardware.find(field.name);
    if (value == hardware.end())
      throw DispatchError(source + ": hardware." + field.name + " is missing");
    if (!(value->second > 0))
      throw DispatchError(source + ": hardware." + field.name + ": " +
                          std::to_string(value->second) + " is not positive");
    params.*field.member = value->second * field.scale;
  }
  // Required by version 2 (the caller checks), or optional.
  auto readIfPresent = [&](const ParamField &field) {
    auto value = hardware.find(field.name);
    if (value == hardware.end())
      return;
    if (!(value->second > 0))
      throw DispatchError(source + ": hardware." + field.name + ": " +
                          std::to_string(value->second) + " is not positive");
    params.*field.member = value->second * field.scale;
  };
  for (const ParamField &field : StagingAndDirectFields)
    readIfPresent(field);
  for (const ParamField &field : OptionalFields)
    readIfPresent(field);
  for (const auto &[key, efficiency] : tiles) {
    if (!(efficiency > 0 && efficiency <= 1))
      throw DispatchError(source + ": tile_efficiency." + key + ": " +
                          std::to_string(efficiency) + " is not in (0, 1]");
    params.tileEfficiency[key] = efficiency;
  }
  return params;
}

uint64_t groupedRowUnits(const KernelConfig &config, const Problem &problem) {
  const uint64_t unit = uint64_t(config.tileM) * config.clusterM;
  if (!problem.grouped())
    return ceilDiv(problem.m, unit);
  // M / G rows a group, whole units and the ragged last one: a router's
  // groups are rarely multiples of the unit.
  const uint64_t filled =
      std::max<uint64_t>(std::min(problem.groups, problem.m), 1);
  return filled * (problem.m / (filled * unit) + 1);
}

bool isApplicable(const KernelConfig &config, const Problem &problem,
                  const Target &target, bool oversized) {
  if (config.grouped != problem.grouped())
    return false;
  if (problem.grouped() && (config.splits > 1 || config.streamK ||
                            config.direct() || config.batched))
    return false;
  // A grouped problem's tiles are a group's: its rows count.
  const uint64_t m = problem.rowsPerGroup(), n = problem.n;
  if (!oversized && (config.tileM >= 2 * std::max<uint64_t>(m, 64) ||
                     config.tileN >= 2 * std::max<uint64_t>(n, 64)))
    return false;
  const uint64_t batch = std::max<uint64_t>(problem.batch, 1);
  const uint64_t tilesM =
      problem.grouped() ? groupedRowUnits(config, problem) * config.clusterM
                        : ceilDiv(m, config.tileM) * batch;
  const uint64_t tilesN = ceilDiv(n, config.tileN);
  const uint64_t tiles = tilesM * tilesN;
  const uint64_t kBlocks = ceilDiv(problem.k, config.tileK);
  // Batched kernels run whole tiles only.
  if (batch > 1 && (config.splits > 1 || config.streamK))
    return false;
  // The direct kernel's loads walk K with consecutive lanes: coalesced for
  // K-major operands only (MN-major ones run correctly, but slowly). It
  // multiplies bf16 and f16 only.
  if (config.direct() &&
      (problem.lowPrecision() || batch != 1 ||
       problem.layouts.a != Layout::Row || problem.layouts.b != Layout::Col ||
       double(m) * double(n) * double(problem.k) > DirectMaxMacs))
    return false;
  // Split-K where the tiles fill at most half the SMs, with long enough
  // k-ranges.
  if (config.splits > 1)
    return tiles * 2 <= target.smCount &&
           kBlocks >= (config.direct() ? DirectSplitKMinKBlocksPerSplit
                                       : SplitKMinKBlocksPerSplit) *
                          config.splits;
  if (config.direct())
    return true;
  if (config.streamK)
    return tiles > target.smCount && kBlocks >= 8;
  if (config.clusterM > 1 &&
      (problem.grouped() ? ceilDiv(m, config.tileM) : tilesM) < 2)
    return false;
  if (config.clusterN > 1 && tilesN < 2)
    return false;
  return true;
}

double stagingSeconds(const HardwareParams &p, const Problem &problem) {
  if (!problem.anyStaged() || p.stagingBytesPerSecond <= 0)
    return 0;
  const double in = bundle::elementBytes(problem.inType);
  const double out = bundle::elementBytes(
      problem.outType.value_or(KernelConfig::defaultOutput(problem.inType)));
  const double batch = double(std::max<uint64_t>(problem.batch, 1));
  const double bytes[3] = {batch * double(problem.m) * double(problem.k) * in,
                           batch * double(problem.n) * double(problem.k) * in,
                           batch * double(problem.m) * double(problem.n) * out};
  double seconds = 0, moved = 0;
  if (problem.staged[0] || problem.staged[1])
    seconds += p.stagingLaunchSeconds;
  if (problem.staged[2])
    seconds += p.stagingLaunchSeconds;
  for (size_t i = 0; i < 3; ++i)
    if (problem.staged[i])
      moved += 2 * bytes[i];
  return seconds + moved / p.stagingBytesPerSecond;
}

namespace {

/// The direct kernel: a launch, then rounds of the CTAs resident on the
/// busiest SM; each k-block of a CTA waits for its loads' round trip unless
/// the SM's issue of the element loads of all its resident CTAs (or their
/// MMAs) takes longer; HBM traffic bounds it below.
Estimate directEstimate(const HardwareParams &p, const KernelConfig &config,
                        double efficiency, const Problem &problem,
                        const Target &target) {
  if (!p.hasDirect())
    throw DispatchError("the model has no direct-kernel constants "
                        "(direct_launch_us, direct_kblock_us, "
                        "direct_gloads_per_sm: a version 2 model file) for " +
                        config.name());
  const double bm = config.tileM, bn = config.tileN, bk = config.tileK;
  const double in = bundle::elementBytes(problem.inType);
  const double out = bundle::elementBytes(
      problem.outType.value_or(KernelConfig::defaultOutput(problem.inType)));
  const uint64_t m = problem.m, n = problem.n, k = problem.k;
  const uint64_t kBlocks = ceilDiv(k, config.tileK);
  Estimate e;
  e.tiles = ceilDiv(m, config.tileM) * ceilDiv(n, config.tileN);
  // Split-K: a CTA per k-range of a tile, each writing its partial tile and
  // the last reading the others' (as the TMA kernels' fixup).
  const uint64_t splits = std::max<uint32_t>(config.splits, 1);
  const uint64_t ctas = e.tiles * splits;
  const uint64_t ctaKBlocks = ceilDiv(kBlocks, splits);
  const uint64_t resident = directResidentCtas(
      config.tileM, config.tileN, config.tileK, static_cast<uint32_t>(out));
  const uint64_t sms = std::max<uint32_t>(target.smCount, 1);
  const uint64_t perSm = ceilDiv(ctas, sms);
  const uint64_t rounds = ceilDiv(perSm, resident);
  const double together = double(std::min(perSm, resident));
  const double active = double(std::min<uint64_t>(ctas, sms)) * together;
  double issue = (bm + bn) * bk / p.directLoadsPerSecond;
  double mma = 2 * bm * bn * bk / (SmPeakFlops * efficiency);
  double kBlock =
      std::max(p.directKBlockSeconds, together * std::max(issue, mma));
  double tileWrite = bm * bn * out * active / p.writeBytesPerSecond;
  if (splits > 1)
    tileWrite += bm * bn * 4 * 2 * active / p.fixupBytesPerSecond;
  e.waves = double(ctas) / double(sms * resident);
  e.computeSeconds =
      double(rounds) * (double(ctaKBlocks) * kBlock + tileWrite);
  e.memorySeconds = double(m * k + n * k) * in / p.readBytesPerSecond +
                    double(m * n) * out / p.writeBytesPerSecond;
  e.physicsSeconds =
      p.directLaunchSeconds + std::max(e.computeSeconds, e.memorySeconds);
  e.seconds = e.physicsSeconds;
  return e;
}

} // namespace

Estimate physicsEstimate(const HardwareParams &p, const KernelConfig &config,
                         const Problem &problem, const Target &target) {
  auto efficiency = p.tileEfficiency.find(HardwareParams::tileKey(config));
  if (efficiency == p.tileEfficiency.end())
    throw DispatchError("the model has no MMA efficiency for the " +
                        HardwareParams::tileKey(config) + " tile of " +
                        config.name());
  if (config.direct())
    return directEstimate(p, config, efficiency->second, problem, target);
  const double bm = config.tileM, bn = config.tileN, bk = config.tileK;
  const double in = bundle::elementBytes(problem.inType);
  const double out = bundle::elementBytes(
      problem.outType.value_or(KernelConfig::defaultOutput(problem.inType)));
  double rate = mmaRate(config);
  if (bundle::isFp8(config.inType) && !config.quant.fastAccumulation)
    rate *= PromotionEfficiency;
  const uint64_t m = problem.m, n = problem.n, k = problem.k;
  // A batch's entries are tiled one after the other, as the rows of one
  // problem of batch x M rows whose tiles do not straddle entries.
  // A grouped problem's groups start their own row units (each group's
  // last one ragged) and each group reads its own B.
  const uint64_t batch = std::max<uint64_t>(problem.batch, 1);
  const uint64_t tilesM =
      problem.grouped() ? groupedRowUnits(config, problem) * config.clusterM
                        : ceilDiv(m, config.tileM) * batch;
  const uint64_t tilesN = ceilDiv(n, config.tileN);
  const uint64_t kBlocks = ceilDiv(k, config.tileK);
  const uint64_t clusterSize = uint64_t(config.clusterM) * config.clusterN;
  const uint64_t splits = std::max<uint32_t>(config.splits, 1);

  Estimate e;
  e.tiles = tilesM * tilesN;
  // Work units are cluster blocks of tiles (times the k-ranges of split-K);
  // at most one cluster per SM-cluster slot runs at a time.
  const uint64_t units = ceilDiv(tilesM, config.clusterM) *
                         ceilDiv(tilesN, config.clusterN) * splits;
  const uint64_t slots = std::max<uint64_t>(target.smCount / clusterSize, 1);
  const double active =
      double(config.streamK ? slots : std::min(units, slots)) * clusterSize;

  // One k-block of one CTA: the MMAs, this CTA's share of the L2 feed of
  // all active CTAs (multicast divides a cluster's shared operand) and the
  // ring's latency bound, combined.
  double mma = 2 * bm * bn * bk / (SmPeakFlops * efficiency->second * rate);
  if (clusterSize > 1)
    mma *= p.clusterComputeFactor;
  double fed = (bm / config.clusterN + bn / config.clusterM) * bk * in;
  double l2 = active * fed / p.l2BytesPerSecond;
  double latency = p.loadLatencySeconds / config.ringStages();
  double kBlock = combined({mma, l2, latency}, p.bottleneckSharpness);

  double read = double(batch) * double(m * k + n * k) * in;
  double written = double(batch) * double(m * n) * out;
  if (problem.grouped())
    read =
        (double(m) * double(k) + double(problem.groups) * double(n * k)) * in;
  double tileWrite = bm * bn * out * active / p.writeBytesPerSecond;
  if (config.streamK) {
    // Whole waves, then the k-range of a shared unit (the kernel's plan).
    bundle::StreamKPlan plan = bundle::streamKPlan(
        uint32_t(std::min<uint64_t>(units, UINT32_MAX)), uint32_t(slots),
        uint32_t(std::min<uint64_t>(kBlocks, UINT32_MAX)),
        bundle::StreamKMaxWorkersPerUnit);
    double perCta =
        double(ceilDiv(plan.dpUnits, slots) * kBlocks) +
        (plan.workers ? double(ceilDiv(kBlocks, plan.workersPerUnit)) : 0);
    e.waves = double(e.tiles) / active;
    e.computeSeconds = perCta * kBlock;
    e.memorySeconds = read * p.streamKTrafficFactor / p.readBytesPerSecond +
                      written / p.writeBytesPerSecond;
    e.physicsSeconds =
        combined({e.computeSeconds, e.memorySeconds}, p.memorySharpness) +
        double(e.tiles) * bm * bn * out / p.writeBytesPerSecond +
        p.streamKFixedSeconds;
  } else {
    uint64_t unitKBlocks = ceilDiv(kBlocks, splits);
    uint64_t waves = ceilDiv(units, slots);
    e.waves = double(units) / double(slots);
    // A unit's operands at its share of the read bandwidth.
    double unitRead =
        read / double(e.tiles * splits) * active / p.readBytesPerSecond;
    double perUnit =
        combined({unitKBlocks * kBlock, unitRead}, p.memorySharpness) +
        tileWrite;
    if (splits > 1)
      perUnit += bm * bn * 4 * 2 * active / p.fixupBytesPerSecond;
    e.computeSeconds = waves * unitKBlocks * kBlock;
    e.memorySeconds = waves * unitRead;
    e.physicsSeconds = waves * perUnit;
  }
  e.stagingSeconds = stagingSeconds(p, problem);
  e.physicsSeconds += p.launchSeconds + e.stagingSeconds;
  // A grouped launch is two: the prep kernel that writes the group table,
  // then the kernel.
  if (problem.grouped())
    e.physicsSeconds += p.launchSeconds;
  e.seconds = e.physicsSeconds;
  return e;
}

namespace {
/// A section's [ROWS, n, k, log ratio] points of positive sizes (ROWS: m,
/// or a grouped problem's rows per group, which may be fractional).
std::vector<DispatchModel::Residual>
readResiduals(const json &points, const std::string &where, const char *rows) {
  using Residual = DispatchModel::Residual;
  std::vector<Residual> list;
  for (const json &point : points) {
    if (!point.is_array() || point.size() != 4 ||
        !(point[0].get<double>() > 0) || point[1].get<uint64_t>() == 0 ||
        point[2].get<uint64_t>() == 0)
      throw DispatchError(where + ": expected [" + rows +
                          ", n, k, log ratio] points of positive sizes");
    list.push_back({std::log(point[0].get<double>()),
                    std::log(double(point[1].get<uint64_t>())),
                    std::log(double(point[2].get<uint64_t>())),
                    point[3].get<double>()});
  }
  return list;
}

DispatchModel::Correction readCorrection(const json &section,
                                         const std::string &where) {
  DispatchModel::Correction correction{
      section.at("bandwidth").get<double>(),
      section.at("prior_weight").get<double>()};
  if (!(correction.bandwidth > 0) || !(correction.priorWeight > 0))
    throw DispatchError(where + ": bandwidth and prior_weight must be "
                                "positive");
  return correction;
}
} // namespace

DispatchModel DispatchModel::parse(std::string_view text,
                                   const std::string &source) {
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object())
    throw DispatchError(source + ": not a JSON object (a corrupt or truncated "
                                 "model file?)");
  if (root.value("format", "") != ModelFormatName)
    throw DispatchError(source + ": \"format\" is not \"" +
                        std::string(ModelFormatName) +
                        "\": not a model file of python -m gemm_bench.fit");
  const int version = root.value("version", 0);
  if (version < OldestModelFormatVersion || version > ModelFormatVersion)
    throw DispatchError(source + ": model file version " +
                        root.value("version", json(0)).dump() +
                        "; this dispatcher reads versions " +
                        std::to_string(OldestModelFormatVersion) + " to " +
                        std::to_string(ModelFormatVersion));
  DispatchModel model;
  model.sourceName = source;
  std::string where = source;
  try {
    model.gpu = root.value("gpu", json::object()).value("name", "");
    where = source + ": hardware or tile_efficiency";
    auto hardware = root.at("hardware").get<std::map<std::string, double>>();
    for (const std::string &name : stagingAndDirectFields()) {
      if (version < 2)
        hardware.erase(name); // not part of version 1
      else if (!hardware.count(name))
        throw DispatchError(source + ": hardware." + name +
                            " is missing (version 2 model files have the "
                            "staging and direct-kernel constants)");
    }
    model.hardware = hardwareParams(
        hardware,
        root.at("tile_efficiency").get<std::map<std::string, double>>(),
        source);
    where = source + ": correction";
    model.correction = readCorrection(root.at("correction"), where);
    model.lowPrecisionCorrection = model.correction;
    std::set<std::tuple<uint64_t, uint64_t, uint64_t>> trainingShapes;
    std::map<std::string, size_t> candidateIndex; // by the file's key
    for (const auto &[key, points] : root.at("candidates").items()) {
      where = source + ": candidates." + key;
      std::string error;
      auto config = KernelConfig::parse(key, error);
      if (!config)
        throw DispatchError(where + ": " + error);
      if (!model.hardware.tileEfficiency.count(
              HardwareParams::tileKey(*config)))
        throw DispatchError(where + ": no tile_efficiency for " +
                            HardwareParams::tileKey(*config));
      if (config->direct() && !model.hardware.hasDirect())
        throw DispatchError(where + ": a direct kernel in a model without "
                                    "the direct-kernel constants (version 1)");
      std::vector<Residual> list;
      for (const json &point : points) {
        if (!point.is_array() || point.size() != 4)
          throw DispatchError(where + ": expected [m, n, k, log ratio] "
                                      "points");
        uint64_t pm = point[0].get<uint64_t>(), pn = point[1].get<uint64_t>(),
                 pk = point[2].get<uint64_t>();
        if (pm == 0 || pn == 0 || pk == 0)
          throw DispatchError(where + ": a point with a zero size");
        // A candidate of transposed problems (a column-major C) was
        // measured on N x M x K: its training shape is M x N x K.
        if (config->layouts.c == Layout::Col)
          trainingShapes.insert({pn, pm, pk});
        else
          trainingShapes.insert({pm, pn, pk});
        list.push_back({std::log(double(pm)), std::log(double(pn)),
                        std::log(double(pk)), point[3].get<double>()});
      }
      candidateIndex[key] = model.kernels.size();
      model.kernels.push_back(*config);
      model.residuals.push_back(std::move(list));
    }
    model.shapes = trainingShapes.size();
    model.residualGpus.resize(model.kernels.size());
    if (root.contains("residuals_gpu")) {
      // Written by `fit fit --other-gpus`: every candidate's GPU.
      for (const auto &[key, gpu] : root.at("residuals_gpu").items()) {
        where = source + ": residuals_gpu." + key;
        auto candidate = candidateIndex.find(key);
        if (candidate == candidateIndex.end())
          throw DispatchError(where + ": not one of the model's candidates");
        if (!gpu.is_string() || gpu.get<std::string>().empty())
          throw DispatchError(where + ": expected the name of a GPU");
        model.residualGpus[candidate->second] = gpu.get<std::string>();
      }
    }
    if (root.contains("grouped")) {
      for (const auto &[key, list] :
           root.at("grouped").at("candidates").items()) {
        where = source + ": grouped.candidates." + key;
        std::string error;
        auto config = KernelConfig::parse(key, error);
        if (!config)
          throw DispatchError(where + ": " + error);
        config->grouped = true;
        if (!model.hardware.tileEfficiency.count(
                HardwareParams::tileKey(*config)) ||
            !config->buildable(&error))
          throw DispatchError(where +
                              ": not a grouped kernel the model can "
                              "estimate (" +
                              (error.empty() ? "no tile_efficiency" : error) +
                              ")");
        model.groupedKernels.push_back(*config);
        model.groupedResiduals.push_back(
            readResiduals(list, where, "rows per group"));
      }
    }
    if (root.contains("lowp")) {
      if (root.at("lowp").contains("correction")) {
        where = source + ": lowp.correction";
        model.lowPrecisionCorrection =
            readCorrection(root.at("lowp").at("correction"), where);
      }
      for (const auto &[name, list] :
           root.at("lowp").at("candidates").items()) {
        where = source + ": lowp.candidates." + name;
        std::string error;
        auto config = KernelConfig::parse(name, error);
        if (!config)
          throw DispatchError(where + ": " + error);
        if (!bundle::isFp8(config->inType) && !bundle::isInt8(config->inType) &&
            config->inType != DType::F32)
          throw DispatchError(where + ": not a low-precision (fp8, int8 or "
                                      "tf32) kernel");
        model.lowPrecisionResiduals[config->name()] =
            readResiduals(list, where, "m");
        model.lowPrecisionClasses.insert(lowPrecisionClass(*config));
        model.lowPrecisionKernels.push_back(*config);
      }
    }
  } catch (const json::exception &e) {
    throw DispatchError(where + ": malformed model file: " + e.what());
  }
  if (model.kernels.empty())
    throw DispatchError(source + ": the model has no candidates");
  return model;
}

DispatchModel DispatchModel::load(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw DispatchError(path.string() + ": cannot read the model file");
  std::stringstream text;
  text << in.rdbuf();
  return parse(text.str(), path.string());
}

namespace {
/// Which of `list`'s candidates holds `config`'s residuals for a C of
/// layout `c`. A tile may have residuals measured with a row-major C and,
/// as a candidate of transposed problems, with a column-major one: those of
/// that C, else the others.
std::optional<size_t> residualsOf(const std::vector<KernelConfig> &list,
                                  const KernelConfig &config, Layout c) {
  std::optional<size_t> found;
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].key() == config.key() && (!found || list[i].layouts.c == c)) {
      found = i;
      if (list[i].layouts.c == c)
        break;
    }
  return found;
}
} // namespace

std::string DispatchModel::residualsGpu(const KernelConfig &config,
                                        const Problem &problem) const {
  // Grouped and low-precision residuals come from their own sections,
  // which record no GPU of their own.
  if (problem.grouped() || problem.lowPrecision())
    return "";
  std::optional<size_t> found = residualsOf(kernels, config, problem.layouts.c);
  return found ? residualGpus[*found] : "";
}

bool DispatchModel::isCandidate(const KernelConfig &config) const {
  for (const KernelConfig &candidate : kernels)
    if (candidate.key() == config.key())
      return true;
  return false;
}

Estimate DispatchModel::estimate(const KernelConfig &config,
                                 const Problem &problem,
                                 const Target &target) const {
  Estimate e = physicsEstimate(hardware, config, problem, target);
  // Grouped problems (G weight matrices, per-group tiles) take the
  // residuals measured on grouped problems, at M / G rows per group.
  const bool grouped = problem.grouped();
  const std::vector<KernelConfig> &list = grouped ? groupedKernels : kernels;
  const std::vector<std::vector<Residual>> &points =
      grouped ? groupedResiduals : residuals;
  const std::vector<Residual> *near = nullptr;
  const Correction &how =
      problem.lowPrecision() ? lowPrecisionCorrection : correction;
  if (problem.lowPrecision()) {
    // Measured under the kernel's own name (types and scales), or not at
    // all: a 16-bit tile's residuals say nothing of its fp8 twin.
    if (!grouped) {
      auto it = lowPrecisionResiduals.find(config.name());
      if (it != lowPrecisionResiduals.end())
        near = &it->second;
    }
  } else if (std::optional<size_t> found =
                 residualsOf(list, config, problem.layouts.c)) {
    near = &points[*found];
  }
  if (near) {
    double rows =
        grouped
            ? double(problem.m) / double(std::max<uint64_t>(
                                      std::min(problem.groups, problem.m), 1))
            : double(problem.m) * double(std::max<uint64_t>(problem.batch, 1));
    double x[3] = {std::log(rows), std::log(double(problem.n)),
                   std::log(double(problem.k))};
    double weighted = 0, weights = 0;
    for (const Residual &r : *near) {
      double d = (r.logM - x[0]) * (r.logM - x[0]) +
                 (r.logN - x[1]) * (r.logN - x[1]) +
                 (r.logK - x[2]) * (r.logK - x[2]);
      double w = std::exp(-d / (2 * how.bandwidth * how.bandwidth));
      weighted += w * r.logRatio;
      weights += w;
    }
    // Shrunk towards no correction where few training shapes are near.
    e.correction = std::exp(weighted / (weights + how.priorWeight));
    e.evidence = weights;
    e.seconds = e.physicsSeconds * e.correction;
  }
  return e;
}

} // namespace gemm::dispatch
