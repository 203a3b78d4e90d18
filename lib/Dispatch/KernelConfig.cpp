//===- KernelConfig.cpp - One SM90 kernel configuration, by name ----------===//

#include "gemm/Dispatch/KernelConfig.h"
#include "gemm/Bundle/Accumulators.h"

#include <regex>
#include <sstream>
#include <vector>

namespace gemm::dispatch {
namespace {

// The SM90 kernel's shared-memory plan (planKernel in MaterializeSM90.cpp):
// the per-block budget less the barrier reserve, the epilogue's staging
// buffers (2 slots of 64 rows x 128 bytes per consumer) and, block-wise,
// the scale ring (KernelShape::ringStageBytes).
constexpr uint32_t StagingBytesPerConsumer = 2 * 64 * 128;

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

// QuantConfig spellings of the granularities, in ScaleGranularity order.
constexpr char GranularityLetters[] = {'t', 'r', 'c', 'b'};
constexpr const char *GranularityNames[] = {"tensor", "row", "col", "block"};

/// The MLIR element type of a dtype.
std::string_view mlirType(DType type) {
  switch (type) {
  case DType::E4M3:
    return "f8E4M3FN";
  case DType::E5M2:
    return "f8E5M2";
  case DType::S8:
    return "si8";
  case DType::U8:
    return "ui8";
  case DType::S32:
    return "i32";
  default:
    return bundle::toString(type);
  }
}

const TensorLayouts DefaultLayouts{};

} // namespace

std::string QuantConfig::spelling() const {
  if (isDefault())
    return "";
  auto letter = [](const std::optional<bundle::ScaleGranularity> &g) {
    return g ? GranularityLetters[static_cast<size_t>(*g)] : 'n';
  };
  std::string text = {'q', letter(a), letter(b)};
  if (fastAccumulation)
    text += 'f';
  else if (promoteEvery != 1)
    text += std::to_string(promoteEvery);
  return text;
}

std::optional<QuantConfig> QuantConfig::parse(std::string_view text,
                                              std::string &error) {
  static const std::regex pattern(R"(^q?([ntrcb])([ntrcb])(f|\d+)?$)");
  std::cmatch match;
  if (!std::regex_match(text.begin(), text.end(), match, pattern)) {
    error = "not a quant spelling: '" + std::string(text) +
            "' (expected e.g. tt, rc, bb, ttf, tt4: the granularity of A's "
            "and B's scales, n t r c b, then f for fast accumulation or the "
            "promotion interval)";
    return std::nullopt;
  }
  auto granularity = [](char c) -> std::optional<bundle::ScaleGranularity> {
    for (size_t i = 0; i < std::size(GranularityLetters); ++i)
      if (GranularityLetters[i] == c)
        return static_cast<bundle::ScaleGranularity>(i);
    return std::nullopt;
  };
  QuantConfig quant;
  quant.a = granularity(match.str(1)[0]);
  quant.b = granularity(match.str(2)[0]);
  if (match[3].matched) {
    if (match.str(3) == "f")
      quant.fastAccumulation = true;
    else
      quant.promoteEvery = static_cast<uint32_t>(std::stoul(match.str(3)));
  }
  return quant;
}

DType KernelConfig::defaultOutput(DType in) {
  if (bundle::isFp8(in))
    return DType::BF16;
  if (bundle::isInt8(in))
    return DType::S32;
  return in;
}

uint32_t KernelConfig::tileKFor(DType in) {
  return 128 / bundle::elementBytes(in);
}

bool KernelConfig::buildable(std::string *why) const {
  auto fail = [&](const std::string &message) {
    if (why)
      *why = name() + ": " + message;
    return false;
  };
  // The config attribute's rules (ConfigAttr::verify).
  if (clusterM < 1 || clusterN < 1 || clusterM > 8 || clusterN > 8 ||
      clusterM * clusterN > 8)
    return fail("a cluster of " + std::to_string(clusterM) + "x" +
                std::to_string(clusterN) +
                " CTAs: at least 1 along each side and at most 8 in all (the "
                "portable limit)");
  if (swizzle < 1 || swizzle > bundle::MaxRasterSwizzle)
    return fail("swizzle must be in [1, " +
                std::to_string(bundle::MaxRasterSwizzle) + "] tiles");
  if (splits < 1 || splits > 16)
    return fail("splits must be in [1, 16] (1: no split-K)");
  if (streamK && splits > 1)
    return fail("stream-K takes no splits (it is its own scheduler)");
  // Every kernel's k-block is one 128-byte row of A and B (the matmul
  // verifier's rule, GemmOps.cpp).
  if (tileK != tileKFor(inType))
    return fail("tile K of " + std::to_string(tileK) +
                " must span 128 bytes of " +
                std::string(bundle::toString(inType)) +
                " (one 128-byte swizzle row): use BK = " +
                std::to_string(tileKFor(inType)));
  // The direct kernel stores C with plain stores (no epilogue sub-tiles)
  // from 64-row warpgroups (planDirectKernel).
  if (direct()) {
    if (grouped)
      return fail("schedule = direct has no grouped form: use cooperative or "
                  "pingpong");
    if (bundle::elementBytes(inType) != 2 || bType() != inType ||
        !quant.isDefault() || bundle::isFp8(cType()) || cType() == DType::S32)
      return fail("the direct kernel (schedule = direct) takes bf16 and f16 "
                  "inputs without scales; low-precision (fp8, int8, tf32) "
                  "kernels use the cooperative or pingpong schedule");
    if (clusterM != 1 || clusterN != 1 || streamK)
      return fail("schedule = direct runs one CTA per tile (or per k-range "
                  "of one, with splits): no cluster or stream-K");
    if (stages != 0 && stages != 2)
      return fail("schedule = direct double-buffers its k-blocks: stages "
                  "must be 0 or 2");
    if (tileM != 64 && tileM != 128)
      return fail("schedule = direct gives each warpgroup 64 rows: tile M "
                  "must be 64 or 128");
    if (tileN % 8 != 0 || tileN < 8 || tileN > 256)
      return fail("tile N must be a WGMMA N: a multiple of 8 in [8, 256]");
    int64_t registers = bundle::directRegisters(tileM, tileN, tileK);
    if (registers > bundle::MaxDirectRegisters)
      return fail("schedule = direct keeps the accumulator and one k-block "
                  "of A and B in " +
                  std::to_string(registers) + " registers per thread, over " +
                  std::to_string(bundle::MaxDirectRegisters) +
                  ": use a smaller tile N");
    return true;
  }
  // The matmul verifier's tile rules (GemmOps.cpp).
  if (tileM % 64 != 0 || tileM > 256)
    return fail("tile M of " + std::to_string(tileM) +
                " is not a multiple of the 64-row WGMMA atom (64, 128, 192 "
                "or 256)");
  if (schedule == Schedule::Pingpong && tileM > 128)
    return fail("pingpong gives each consumer warpgroup a whole tile; tile M "
                "must be 64 or 128");
  if (grouped) {
    if (batched)
      return fail("grouped and batched exclude each other");
    if (bundle::elementBytes(inType) != 2 || bType() != inType ||
        !quant.isDefault() ||
        !(cType() == DType::BF16 || cType() == DType::F16 ||
          cType() == DType::F32))
      return fail("grouped kernels take bf16 or f16 A and B (both the same) "
                  "without scales and write bf16, f16 or f32");
    if (layouts.a != Layout::Row || layouts.c != Layout::Row)
      return fail("grouped kernels read A and write C as [sum of M, .] rows "
                  "(a(row), c(row))");
    if (splits > 1 || streamK)
      return fail("grouped kernels run whole tiles (no split-K or stream-K)");
  }
  if (bundle::isInt8(inType) && tileN > 24 && tileN % 16 != 0)
    return fail("8-bit integer WGMMA takes N of 8, 16, 24 or a multiple of 16");
  uint32_t epilogueCols = 128 / bundle::elementBytes(cType());
  if (bundle::elementBytes(inType) != 2 &&
      (layouts.a != Layout::Row || layouts.b != Layout::Col))
    return fail("8-bit and f32 (tf32) A and B must be K-major (WGMMA "
                "transposes only 16-bit operands)");
  if (bundle::isFp8(cType()) && layouts.c == Layout::Col)
    return fail("an fp8 C is written row-major only");
  if (batched && ((quant.a && quant.a != bundle::ScaleGranularity::Tensor) ||
                  (quant.b && quant.b != bundle::ScaleGranularity::Tensor)))
    return fail("a batched kernel takes per-tensor scales only");
  // MN-major operands are loaded in blocks of one 128-byte swizzle span of
  // M or N (the materializer's rule).
  uint32_t mnBlock = 128 / bundle::elementBytes(inType);
  if (layouts.b == Layout::Row && tileN % mnBlock != 0)
    return fail("an N-major B (b(row)) is loaded in blocks of " +
                std::to_string(mnBlock) +
                " columns: tile N must be a "
                "multiple of " +
                std::to_string(mnBlock));
  // The last epilogue sub-tile may be narrower (the materializer's rule:
  // whole 8-column groups, no block scales, no fp8 output, not grouped).
  constexpr uint32_t narrowStep = 8;
  if (tileN % epilogueCols != 0 &&
      (tileN % narrowStep != 0 || quant.a == bundle::ScaleGranularity::Block ||
       quant.b == bundle::ScaleGranularity::Block || bundle::isFp8(cType()) ||
       grouped))
    return fail("tile N is not a multiple of the " +
                std::to_string(epilogueCols) +
                "-column epilogue sub-tile (nor, without block scales or an "
                "fp8 output and not grouped, of " +
                std::to_string(narrowStep) + ")");
  if (quant.a == bundle::ScaleGranularity::Block && 128 % tileN != 0 &&
      tileN % 64 != 0)
    return fail("block-wise scales need tile N to divide 128 or be a "
                "multiple of 64");
  if (schedule == Schedule::Cooperative && tileM < 128)
    return fail("the cooperative schedule needs tile M >= 128");
  if (tileN < 8 || tileN > 256)
    return fail("tile N of " + std::to_string(tileN) +
                " is not a WGMMA N (at most 256)");
  // Multicast cuts the operand a cluster row or column shares into one
  // slice per CTA of whole 8-line swizzle atoms (MatmulOp::verify): a
  // K-major operand along M or N, an MN-major one along K.
  auto slices = [&](uint32_t lines, uint32_t ctas, const char *what) {
    return lines % (8 * ctas) == 0
               ? true
               : fail(std::string(what) + " of " + std::to_string(lines) +
                      " cannot be cut into " + std::to_string(ctas) +
                      " multicast slices of whole 8-line swizzle atoms: use a "
                      "cluster that divides " +
                      std::to_string(lines / 8));
  };
  if (!slices(layouts.b == Layout::Row ? tileK : tileN, clusterM,
              layouts.b == Layout::Row ? "tile K (an N-major B)" : "tile N") ||
      !slices(layouts.a == Layout::Col ? tileK : tileM, clusterN,
              layouts.a == Layout::Col ? "tile K (an M-major A)" : "tile M"))
    return false;
  if (stages == 1 || stages > derivedStages())
    return fail(std::to_string(stages) +
                " stages: use 0 (the deepest ring that fits shared memory) or "
                "2 to " +
                std::to_string(derivedStages()));
  uint32_t accRows =
      schedule == Schedule::Cooperative ? tileM / consumers() : tileM;
  bool promoted = bundle::isFp8(inType) && !quant.fastAccumulation;
  bundle::AccumulatorPlan registers = bundle::accumulatorPlan(
      accRows, tileN, consumers(), promoted, quant.promoteEvery);
  if (!registers.fits())
    return fail(std::to_string(registers.registers) +
                " accumulator registers per consumer thread, more than " +
                std::to_string(registers.maxRegisters) +
                (promoted ? " (promoted fp8: the partial sums beside the f32 "
                            "accumulator)"
                          : "") +
                (consumers() == 3 ? " (three consumers)" : ""));
  return true;
}

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
  std::string name = "sm90_" + std::string(bundle::toString(inType));
  if (bType() != inType)
    name += "x" + std::string(bundle::toString(bType()));
  name += "_";
  // C's type, unless it is the input type and the default (bf16, f16, f32
  // inputs): an fp8 output of fp8 inputs is spelled out too.
  if (cType() != inType || cType() != defaultOutput(inType))
    name += "c" + std::string(bundle::toString(cType())) + "_";
  if (!quant.isDefault())
    name += quant.spelling() + "_";
  if (!(layouts == DefaultLayouts))
    name += layoutToken(layouts) + "_";
  if (batched)
    name += "batched_";
  if (grouped)
    name += "grouped_";
  return name + key();
}

std::string KernelConfig::mlir() const {
  std::ostringstream out;
  bool int8 = bundle::isInt8(inType);
  out << "gemm.matmul @" << name() << " a(" << mlirType(inType) << ", "
      << bundle::toString(layouts.a) << ") b(" << mlirType(bType()) << ", "
      << bundle::toString(layouts.b) << ") c(" << mlirType(cType()) << ", "
      << bundle::toString(layouts.c) << ") acc(" << (int8 ? "i32" : "f32")
      << ")" << (batched ? " batched" : "") << (grouped ? " grouped" : "")
      << "\n";
  bool fp8Out = bundle::isFp8(cType());
  if (!quant.isDefault() || fp8Out) {
    std::vector<std::string> fields;
    if (quant.a)
      fields.push_back(std::string("a = ") +
                       GranularityNames[static_cast<size_t>(*quant.a)]);
    if (quant.b)
      fields.push_back(std::string("b = ") +
                       GranularityNames[static_cast<size_t>(*quant.b)]);
    if (fp8Out)
      fields.push_back("c = tensor");
    if (quant.fastAccumulation)
      fields.push_back("accumulate = fast");
    if (quant.promoteEvery != 1)
      fields.push_back("promote_every = " + std::to_string(quant.promoteEvery));
    out << "    quant(#gemm.quant<";
    for (size_t i = 0; i < fields.size(); ++i)
      out << (i ? ", " : "") << fields[i];
    out << ">)\n";
  }
  out << "    config(#gemm.config<arch = sm_90a, tile = [" << tileM << ", "
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
  // Block-wise kernels stage an f32 A scale per tile row with each stage.
  if (quant.a == bundle::ScaleGranularity::Block)
    stage += tileM * 4;
  uint32_t staging = StagingBytesPerConsumer * consumers();
  return stage ? (bundle::MaxDynamicSmemBytes - staging -
                  bundle::SmemBarrierReserveBytes) /
                     stage
               : 0;
}

std::optional<KernelConfig> KernelConfig::parse(std::string_view text,
                                                std::string &error,
                                                DType defaultType) {
  static const std::regex pattern(
      R"(^(?:sm90_([a-z0-9]+?)(?:x([a-z0-9]+))?_(?:c([a-z0-9]+)_)?)"
      R"((?:(q[a-z0-9]+)_)?)?(?:(a[km]b[kn]c[rc])_)?(batched_|grouped_)?)"
      R"((\d+)x(\d+)x(\d+)_(coop|pingpong|direct))"
      R"(_c(\d+)x(\d+)_(rm|rn)_s(\d+)_st(\d+)(?:_k(\d+)|(_sk))?$)");
  std::cmatch match;
  if (!std::regex_match(text.begin(), text.end(), match, pattern)) {
    error = "not a kernel configuration name: '" + std::string(text) +
            "' (expected e.g. sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0, or "
            "the same without 'sm90_bf16_', e.g. akbkcc_128x72x64_coop_c1x1_"
            "rm_s8_st0)";
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
  if (!typeIn(1, "input", inType) || !typeIn(2, "B input", config.inTypeB) ||
      !typeIn(3, "output", config.outType))
    return std::nullopt;
  config.inType = *inType;
  if (config.inTypeB == config.inType)
    config.inTypeB.reset();
  if (config.outType == defaultOutput(config.inType) &&
      config.outType == config.inType)
    config.outType.reset();
  if (match[4].matched) {
    std::optional<QuantConfig> quant = QuantConfig::parse(match.str(4), error);
    if (!quant)
      return std::nullopt;
    config.quant = *quant;
  }
  if (match[5].matched)
    config.layouts = *parseLayoutToken(match[5].str());
  config.batched = match[6] == "batched_";
  config.grouped = match[6] == "grouped_";
  config.tileM = number(7);
  config.tileN = number(8);
  config.tileK = number(9);
  config.schedule = match[10] == "coop"       ? Schedule::Cooperative
                    : match[10] == "pingpong" ? Schedule::Pingpong
                                              : Schedule::Direct;
  config.clusterM = number(11);
  config.clusterN = number(12);
  config.raster = match[13] == "rm" ? Raster::AlongM : Raster::AlongN;
  config.swizzle = number(14);
  config.stages = number(15);
  if (match[16].matched)
    config.splits = number(16);
  config.streamK = match[17].matched;
  return config;
}

} // namespace gemm::dispatch
