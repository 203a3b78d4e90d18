//===- KernelConfig.cpp - One SM90 kernel configuration, by name ----------===//

#include "gemm/Dispatch/KernelConfig.h"

#include <regex>
#include <sstream>
#include <vector>

namespace gemm::dispatch {
namespace {

// The SM90 kernel's shared-memory plan (planKernel in MaterializeSM90.cpp):
// the per-block budget (SmemPlanOp::kMaxBytes), the barrier reserve and the
// epilogue's staging buffers (2 slots x 2 consumers x 64 rows x 128 bytes).
constexpr uint32_t SmemBytes = 232448;
constexpr uint32_t BarrierReserveBytes = 1024;
constexpr uint32_t StagingBytes = 2 * 2 * 64 * 128;

std::string_view scheduleAbbrev(Schedule schedule) {
  switch (schedule) {
  case Schedule::Cooperative:
    return "coop";
  case Schedule::Pingpong:
    return "pingpong";
  case Schedule::Direct:
    return "direct";
  }
  return "coop";
}

std::string_view rasterAbbrev(Raster raster) {
  return raster == Raster::AlongM ? "rm" : "rn";
}

const TensorLayouts DefaultLayouts{};

} // namespace

std::string layoutToken(const TensorLayouts &layouts) {
  std::string token = "a";
  token += layouts.a == Layout::Row ? 'k' : 'm';
  token += 'b';
  token += layouts.b == Layout::Col ? 'k' : 'n';
  token += 'c';
  token += layouts.c == Layout::Row ? 'r' : 'c';
  return token;
}

std::optional<TensorLayouts> parseLayoutToken(std::string_view token) {
  if (token.size() != 6 || token[0] != 'a' || token[2] != 'b' ||
      token[4] != 'c')
    return std::nullopt;
  auto pick = [](char c, char first, char second, Layout a,
                 Layout b) -> std::optional<Layout> {
    if (c == first)
      return a;
    if (c == second)
      return b;
    return std::nullopt;
  };
  auto a = pick(token[1], 'k', 'm', Layout::Row, Layout::Col);
  auto b = pick(token[3], 'k', 'n', Layout::Col, Layout::Row);
  auto c = pick(token[5], 'r', 'c', Layout::Row, Layout::Col);
  if (!a || !b || !c)
    return std::nullopt;
  TensorLayouts layouts;
  layouts.a = *a;
  layouts.b = *b;
  layouts.c = *c;
  return layouts;
}

std::optional<TensorLayouts> parseLayoutTriple(std::string_view text,
                                               std::string &error) {
  std::vector<Layout> parsed;
  std::string item;
  std::stringstream list{std::string(text)};
  while (std::getline(list, item, ',')) {
    std::optional<Layout> layout = bundle::parseEnum<Layout>(item);
    if (!layout)
      break;
    parsed.push_back(*layout);
  }
  if (parsed.size() != 3 || !list.eof()) {
    error = "'" + std::string(text) +
            "' is not three layouts of A, B and C (row or col each, e.g. "
            "row,col,row: A K-major, B K-major, C row-major)";
    return std::nullopt;
  }
  TensorLayouts layouts;
  layouts.a = parsed[0];
  layouts.b = parsed[1];
  layouts.c = parsed[2];
  return layouts;
}

std::string layoutTriple(const TensorLayouts &layouts) {
  return std::string(bundle::toString(layouts.a)) + "," +
         std::string(bundle::toString(layouts.b)) + "," +
         std::string(bundle::toString(layouts.c));
}

std::string_view toString(Schedule schedule) {
  switch (schedule) {
  case Schedule::Cooperative:
    return "cooperative";
  case Schedule::Pingpong:
    return "pingpong";
  case Schedule::Direct:
    return "direct";
  }
  return "cooperative";
}

std::string_view toString(Raster raster) {
  return raster == Raster::AlongM ? "along_m" : "along_n";
}

std::string KernelConfig::key() const {
  std::ostringstream out;
  out << tileM << 'x' << tileN << 'x' << tileK << '_'
      << scheduleAbbrev(schedule) << "_c" << clusterM << 'x' << clusterN << '_'
      << rasterAbbrev(raster) << "_s" << swizzle << "_st" << stages;
  if (splits > 1)
    out << "_k" << splits;
  if (streamK)
    out << "_sk";
  return out.str();
}

std::string KernelConfig::name() const {
  std::string name = "sm90_" + std::string(bundle::toString(inType)) + "_";
  if (cType() != inType)
    name += "c" + std::string(bundle::toString(cType())) + "_";
  if (!(layouts == DefaultLayouts))
    name += layoutToken(layouts) + "_";
  if (batched)
    name += "batched_";
  return name + key();
}

std::string KernelConfig::mlir() const {
  std::ostringstream out;
  std::string_view in = bundle::toString(inType);
  out << "gemm.matmul @" << name() << " a(" << in << ", "
      << bundle::toString(layouts.a) << ") b(" << in << ", "
      << bundle::toString(layouts.b) << ") c(" << bundle::toString(cType())
      << ", " << bundle::toString(layouts.c) << ") acc(f32)"
      << (batched ? " batched" : "") << "\n"
      << "    config(#gemm.config<arch = sm_90a, tile = [" << tileM << ", "
      << tileN << ", " << tileK << "], cluster = [" << clusterM << ", "
      << clusterN << "], stages = " << stages
      << ", schedule = " << toString(schedule)
      << ", raster = " << toString(raster) << ", swizzle = " << swizzle;
  if (splits > 1)
    out << ", scheduler = split_k, splits = " << splits;
  if (streamK)
    out << ", scheduler = stream_k";
  out << ">)\n";
  return out.str();
}

uint32_t KernelConfig::derivedStages() const {
  if (direct())
    return 2;
  uint32_t stage = (tileM + tileN) * tileK * bundle::elementBytes(inType);
  return stage ? (SmemBytes - StagingBytes - BarrierReserveBytes) / stage : 0;
}

std::optional<KernelConfig> KernelConfig::parse(std::string_view text,
                                                std::string &error,
                                                DType defaultType) {
  static const std::regex pattern(
      R"(^(?:sm90_([a-z0-9]+)_(?:c([a-z0-9]+)_)?(?:(a[km]b[kn]c[rc])_)?)"
      R"((batched_)?)?)"
      R"((\d+)x(\d+)x(\d+)_(coop|pingpong|direct))"
      R"(_c(\d+)x(\d+)_(rm|rn)_s(\d+)_st(\d+)(?:_k(\d+)|(_sk))?$)");
  std::cmatch match;
  if (!std::regex_match(text.begin(), text.end(), match, pattern)) {
    error = "not a kernel configuration name: '" + std::string(text) +
            "' (expected e.g. sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0, or "
            "the same without 'sm90_bf16_')";
    return std::nullopt;
  }
  auto number = [&](int group) -> uint32_t {
    return static_cast<uint32_t>(std::stoul(match[group].str()));
  };
  // The type in `group`, if the name has one; false after an unknown one.
  auto typeIn = [&](int group, const char *what, std::optional<DType> &type) {
    if (!match[group].matched)
      return true;
    type = bundle::parseEnum<DType>(match[group].str());
    if (!type)
      error = "'" + std::string(text) + "': unknown " + what + " type '" +
              match[group].str() + "' (" + bundle::spellingList<DType>() + ")";
    return type.has_value();
  };
  KernelConfig config;
  std::optional<DType> inType = defaultType;
  if (!typeIn(1, "input", inType) || !typeIn(2, "output", config.outType))
    return std::nullopt;
  config.inType = *inType;
  if (match[3].matched)
    config.layouts = *parseLayoutToken(match[3].str());
  config.batched = match[4].matched;
  config.tileM = number(5);
  config.tileN = number(6);
  config.tileK = number(7);
  config.schedule = match[8] == "coop"       ? Schedule::Cooperative
                    : match[8] == "pingpong" ? Schedule::Pingpong
                                             : Schedule::Direct;
  config.clusterM = number(9);
  config.clusterN = number(10);
  config.raster = match[11] == "rm" ? Raster::AlongM : Raster::AlongN;
  config.swizzle = number(12);
  config.stages = number(13);
  if (match[14].matched)
    config.splits = number(14);
  config.streamK = match[15].matched;
  return config;
}

} // namespace gemm::dispatch
