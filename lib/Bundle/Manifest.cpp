//===- Manifest.cpp - Kernel bundle manifest (format version 1) -----------===//

#include "gemm/Bundle/Manifest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <stdexcept>

namespace gemm::bundle {
namespace {

using nlohmann::json;

std::string dimsToString(const uint32_t *dims, size_t count) {
  std::string text = "[";
  for (size_t i = 0; i < count; ++i)
    text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

template <size_t N> std::string dimsToString(const std::array<uint32_t, N> &d) {
  return dimsToString(d.data(), N);
}

/// Reads fields of one JSON object, recording an error per bad field instead
/// of stopping at the first, so one run shows everything that is wrong.
class ObjectReader {
public:
  ObjectReader(const json &object, std::string path,
               std::vector<std::string> &errors)
      : object(object), path(std::move(path)), errors(errors) {}

  /// False (with an error) when the value is not an object; then every read
  /// below fails quietly.
  bool isObject() {
    if (object.is_object())
      return true;
    error(path.empty() ? "manifest" : path,
          std::string("expected a JSON object, got ") + object.type_name());
    return false;
  }

  void rejectUnknownFields(std::initializer_list<std::string_view> known) {
    if (!object.is_object())
      return;
    for (const auto &item : object.items()) {
      if (std::find(known.begin(), known.end(), item.key()) == known.end())
        error(fieldPath(item.key()),
              "unknown field (known fields: " + join(known) + ")");
    }
  }

  /// The field's value, or null; `required` fields that are missing are
  /// errors.
  const json *field(std::string_view key, bool required) {
    if (!object.is_object())
      return nullptr;
    auto it = object.find(key);
    if (it == object.end()) {
      if (required)
        error(fieldPath(key), "missing required field");
      return nullptr;
    }
    return &*it;
  }

  bool readString(std::string_view key, std::string &out,
                  bool required = true) {
    const json *value = field(key, required);
    if (!value)
      return false;
    if (!value->is_string()) {
      typeError(key, "a string", *value);
      return false;
    }
    out = value->get_ref<const std::string &>();
    return true;
  }

  bool readUInt(std::string_view key, uint64_t &out, bool required = true,
                uint64_t max = std::numeric_limits<uint32_t>::max()) {
    const json *value = field(key, required);
    if (!value)
      return false;
    return toUInt(*value, fieldPath(key), out, max);
  }

  bool readUInt32(std::string_view key, uint32_t &out, bool required = true) {
    uint64_t wide = 0;
    if (!readUInt(key, wide, required))
      return false;
    out = static_cast<uint32_t>(wide);
    return true;
  }

  bool readBool(std::string_view key, bool &out) {
    const json *value = field(key, /*required=*/false);
    if (!value)
      return false;
    if (!value->is_boolean()) {
      typeError(key, "true or false", *value);
      return false;
    }
    out = value->get<bool>();
    return true;
  }

  template <typename E> bool readEnum(std::string_view key, E &out) {
    std::string spelling;
    if (!readString(key, spelling))
      return false;
    if (std::optional<E> parsed = parseEnum<E>(spelling)) {
      out = *parsed;
      return true;
    }
    error(fieldPath(key), "unknown " + std::string(EnumSpellings<E>::what) +
                              " '" + spelling + "' (expected one of " +
                              spellingList<E>() + ")");
    return false;
  }

  template <size_t N>
  bool readDims(std::string_view key, std::array<uint32_t, N> &out,
                bool required = true) {
    const json *value = field(key, required);
    if (!value)
      return false;
    std::string where = fieldPath(key);
    if (!value->is_array() || value->size() != N) {
      error(where, "expected an array of " + std::to_string(N) +
                       " unsigned integers, got " + value->dump());
      return false;
    }
    bool ok = true;
    for (size_t i = 0; i < N; ++i) {
      uint64_t dim = 0;
      ok &= toUInt((*value)[i], where + "[" + std::to_string(i) + "]", dim,
                   std::numeric_limits<uint32_t>::max());
      out[i] = static_cast<uint32_t>(dim);
    }
    return ok;
  }

  std::string fieldPath(std::string_view key) const {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  void error(const std::string &where, const std::string &message) {
    errors.push_back(where + ": " + message);
  }

private:
  static std::string join(std::initializer_list<std::string_view> names) {
    std::string text;
    for (std::string_view name : names)
      text += (text.empty() ? "" : ", ") + std::string(name);
    return text;
  }

  void typeError(std::string_view key, const char *expected,
                 const json &value) {
    error(fieldPath(key),
          std::string("expected ") + expected + ", got " + value.dump());
  }

  bool toUInt(const json &value, const std::string &where, uint64_t &out,
              uint64_t max) {
    // Parsed non-negative literals are unsigned; values built in C++ from
    // signed integers are not.
    bool isUnsigned = value.is_number_unsigned() ||
                      (value.is_number_integer() && value.get<int64_t>() >= 0);
    if (!isUnsigned) {
      error(where, "expected an unsigned integer, got " + value.dump());
      return false;
    }
    out = value.get<uint64_t>();
    if (out > max) {
      error(where, std::to_string(out) + " is out of range (at most " +
                       std::to_string(max) + ")");
      return false;
    }
    return true;
  }

  const json &object;
  std::string path;
  std::vector<std::string> &errors;
};

void readParam(const json &value, const std::string &path, Param &param,
               std::vector<std::string> &errors) {
  ObjectReader reader(value, path, errors);
  if (!reader.isObject())
    return;
  if (!reader.readEnum("kind", param.kind))
    return;
  if (param.kind == ParamKind::ProblemSize) {
    reader.rejectUnknownFields({"kind", "dim"});
    reader.readEnum("dim", param.dim);
    return;
  }
  if (param.kind == ParamKind::Scale) {
    reader.rejectUnknownFields({"kind", "tensor", "granularity"});
    reader.readEnum("tensor", param.scale.tensor);
    reader.readEnum("granularity", param.scale.granularity);
    param.tensor = param.scale.tensor;
    return;
  }
  if (param.kind == ParamKind::Pointer || param.kind == ParamKind::LeadingDim) {
    reader.rejectUnknownFields({"kind", "tensor"});
    reader.readEnum("tensor", param.tensor);
    return;
  }
  if (param.kind == ParamKind::Amax) {
    reader.rejectUnknownFields({"kind"});
    param.tensor = Tensor::C;
    return;
  }
  if (param.kind == ParamKind::GroupTable ||
      param.kind == ParamKind::GroupProblemTable) {
    reader.rejectUnknownFields({"kind"});
    return;
  }
  if (param.kind == ParamKind::Workspace) {
    reader.rejectUnknownFields(
        {"kind", "bytes_per_tile", "bytes_per_cta", "zero_init"});
    reader.readUInt("bytes_per_tile", param.workspace.bytesPerTile,
                    /*required=*/false);
    reader.readUInt("bytes_per_cta", param.workspace.bytesPerCta,
                    /*required=*/false);
    reader.readBool("zero_init", param.workspace.zeroInit);
    return;
  }
  reader.rejectUnknownFields({"kind", "tensor", "box", "swizzle", "interleave",
                              "l2_promotion", "oob_fill"});
  TmaDescriptorParam &tma = param.tma;
  reader.readEnum("tensor", tma.tensor);
  reader.readDims("box", tma.box);
  reader.readEnum("swizzle", tma.swizzle);
  reader.readEnum("interleave", tma.interleave);
  reader.readEnum("l2_promotion", tma.l2Promotion);
  reader.readEnum("oob_fill", tma.oobFill);
}

template <typename Json> Json toJsonImpl(const KernelManifest &m) {
  Json params = Json::array();
  for (const Param &param : m.params) {
    Json p;
    p["kind"] = toString(param.kind);
    if (param.kind == ParamKind::ProblemSize) {
      p["dim"] = toString(param.dim);
    } else if (param.kind == ParamKind::Pointer ||
               param.kind == ParamKind::LeadingDim) {
      p["tensor"] = toString(param.tensor);
    } else if (param.kind == ParamKind::Workspace) {
      if (param.workspace.bytesPerTile != 0)
        p["bytes_per_tile"] = param.workspace.bytesPerTile;
      if (param.workspace.bytesPerCta != 0)
        p["bytes_per_cta"] = param.workspace.bytesPerCta;
      p["zero_init"] = param.workspace.zeroInit;
    } else if (param.kind == ParamKind::Scale) {
      p["tensor"] = toString(param.scale.tensor);
      p["granularity"] = toString(param.scale.granularity);
    } else if (param.kind == ParamKind::Amax ||
               param.kind == ParamKind::GroupTable ||
               param.kind == ParamKind::GroupProblemTable) {
    } else {
      p["tensor"] = toString(param.tma.tensor);
      p["box"] = param.tma.box;
      p["swizzle"] = toString(param.tma.swizzle);
      p["interleave"] = toString(param.tma.interleave);
      p["l2_promotion"] = toString(param.tma.l2Promotion);
      p["oob_fill"] = toString(param.tma.oobFill);
    }
    params.push_back(std::move(p));
  }

  Json j;
  j["format"] = FormatName;
  j["version"] = FormatVersion;
  j["name"] = m.name;
  j["kernel"] = m.kernel;
  j["arch"] = toString(m.arch);
  j["ptx"] = m.ptx;
  if (m.cubin)
    j["cubin"] = *m.cubin;
  j["block"] = m.block;
  j["cluster"] = m.cluster;
  if (m.clusterNonPortable)
    j["cluster_non_portable"] = true;
  if (m.clusterTiles)
    j["cluster_tiles"] = *m.clusterTiles;
  j["grid"] = {{"policy", toString(m.grid)}};
  if (m.workUnitsPerTile != 1)
    j["grid"]["work_units_per_tile"] = m.workUnitsPerTile;
  j["dynamic_smem_bytes"] = m.dynamicSmemBytes;
  j["tile"] = m.tile;
  if (m.debugWaitsMs)
    j["debug_waits_ms"] = m.debugWaitsMs;
  if (!m.debugWaitSites.empty())
    j["debug_wait_sites"] = m.debugWaitSites;
  j["types"] = {{"a", toString(m.types.a)},
                {"b", toString(m.types.b)},
                {"c", toString(m.types.c)},
                {"accumulator", toString(m.types.accumulator)}};
  if (m.types.fp8Accumulation)
    j["types"]["fp8_accumulation"] = {
        {"mode", toString(*m.types.fp8Accumulation)},
        {"promote_every_k", m.types.promoteEveryK}};
  j["layouts"] = {{"a", toString(m.layouts.a)},
                  {"b", toString(m.layouts.b)},
                  {"c", toString(m.layouts.c)}};
  j["params"] = std::move(params);
  const Constraints &c = m.constraints;
  j["constraints"] = {
      {"leading_dim_alignment_bytes", c.leadingDimAlignmentBytes},
      {"min_m", c.minM},
      {"min_n", c.minN},
      {"min_k", c.minK},
      {"m_multiple", c.mMultiple},
      {"n_multiple", c.nMultiple},
      {"k_multiple", c.kMultiple}};
  return j;
}

bool isPtxIdentifier(std::string_view name) {
  auto isStart = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$';
  };
  auto isBody = [&](char c) { return isStart(c) || (c >= '0' && c <= '9'); };
  return !name.empty() && isStart(name.front()) &&
         std::all_of(name.begin() + 1, name.end(), isBody);
}

/// The rules of one scale or amax parameter (params[index]) of `m`.
void validateScale(const KernelManifest &m, size_t index,
                   std::vector<std::string> &errors) {
  const Param &param = m.params[index];
  std::string path = "params[" + std::to_string(index) + "]";
  auto fail = [&](const std::string &message) {
    errors.push_back(path + ": " + message);
  };
  for (size_t j = 0; j < index; ++j) {
    const Param &other = m.params[j];
    if (other.kind != param.kind)
      continue;
    if (param.kind == ParamKind::Amax)
      return fail("a second amax (first at params[" + std::to_string(j) + "])");
    if (other.scale.tensor == param.scale.tensor)
      return fail("a second scale for tensor " +
                  std::string(toString(param.scale.tensor)) +
                  " (first at params[" + std::to_string(j) + "])");
  }
  if (param.kind == ParamKind::Amax) {
    if (!isFp8(m.types.c))
      fail("an amax is written for fp8 outputs only, but c is " +
           std::string(toString(m.types.c)));
    return;
  }
  const ScaleParam &scale = param.scale;
  std::string what = "a " + std::string(toString(scale.granularity)) +
                     " scale for tensor " + std::string(toString(scale.tensor));
  if (scale.tensor == Tensor::C) {
    if (!isFp8(m.types.c))
      fail(what + ": output scales apply to fp8 outputs only, but c is " +
           std::string(toString(m.types.c)));
    else if (scale.granularity != ScaleGranularity::Tensor)
      fail(what + ": the output scale is one f32 per tensor");
    return;
  }
  DType input = scale.tensor == Tensor::A ? m.types.a : m.types.b;
  if (!isFp8(input) && !isInt8(input))
    return fail(what +
                ": scales apply to fp8 and 8-bit integer inputs, "
                "not " +
                std::string(toString(input)));
  if (m.types.c == DType::S32)
    return fail(what + ": an s32 output holds the raw accumulator, "
                       "without scales");
  ScaleGranularity other =
      scale.tensor == Tensor::A ? ScaleGranularity::Col : ScaleGranularity::Row;
  if (scale.granularity == other)
    return fail(what + ": A is scaled per tensor, row or block, B per "
                       "tensor, column or block");
  if (scale.granularity == ScaleGranularity::Block) {
    if (!isFp8(input))
      return fail(what + ": block scales apply to fp8 inputs");
    Tensor partner = scale.tensor == Tensor::A ? Tensor::B : Tensor::A;
    const ScaleParam *partnerScale = m.scaleFor(partner);
    if (!partnerScale || partnerScale->granularity != ScaleGranularity::Block)
      fail(what + ": block scales of A (1 x 128) go with block scales of B "
                  "(128 x 128)");
  }
}

void validateTmaDescriptor(const TmaDescriptorParam &tma, DType dtype,
                           const std::string &path,
                           std::vector<std::string> &errors) {
  for (size_t i = 0; i < tma.box.size(); ++i) {
    if (tma.box[i] == 0 || tma.box[i] > MaxTmaBoxDim)
      errors.push_back(
          path + ".box: box dimension " + std::to_string(i) + " is " +
          std::to_string(tma.box[i]) + "; TMA boxes must be 1.." +
          std::to_string(MaxTmaBoxDim) + " elements per dimension");
  }
  uint32_t innerBytes = tma.box[0] * elementBytes(dtype);
  std::string inner = "inner box extent " + std::to_string(tma.box[0]) + " x " +
                      std::string(toString(dtype)) + " = " +
                      std::to_string(innerBytes) + " bytes";
  if (tma.interleave == Interleave::None) {
    if (innerBytes % 16 != 0)
      errors.push_back(path + ".box: " + inner +
                       " is not a multiple of 16 bytes (TMA rule for "
                       "interleave none)");
    uint32_t span = swizzleSpanBytes(tma.swizzle);
    if (span != 0 && innerBytes > span)
      errors.push_back(path + ".box: " + inner + " exceeds the " +
                       std::string(toString(tma.swizzle)) +
                       " swizzle span of " + std::to_string(span) +
                       " bytes (TMA rule: inner box bytes <= swizzle span)");
  }
  if (tma.interleave == Interleave::B32 && tma.swizzle != Swizzle::B32)
    errors.push_back(path +
                     ".swizzle: interleave 32B requires swizzle 32B, "
                     "got " +
                     std::string(toString(tma.swizzle)));
}

} // namespace

const TmaDescriptorParam *KernelManifest::tmaDescriptorFor(Tensor t) const {
  for (const Param &param : params)
    if (param.kind == ParamKind::TmaDescriptor && param.tma.tensor == t)
      return &param.tma;
  return nullptr;
}

const ScaleParam *KernelManifest::scaleFor(Tensor t) const {
  for (const Param &param : params)
    if (param.kind == ParamKind::Scale && param.scale.tensor == t)
      return &param.scale;
  return nullptr;
}

bool KernelManifest::hasAmax() const {
  return std::any_of(params.begin(), params.end(),
                     [](const Param &p) { return p.kind == ParamKind::Amax; });
}

bool KernelManifest::takesPointer(Tensor t) const {
  return std::any_of(params.begin(), params.end(), [&](const Param &p) {
    return p.kind == ParamKind::Pointer && p.tensor == t;
  });
}

bool KernelManifest::hasGeneralGroups() const {
  return std::any_of(params.begin(), params.end(), [](const Param &p) {
    return p.kind == ParamKind::GroupProblemTable;
  });
}

bool KernelManifest::hasGroups() const {
  return std::any_of(params.begin(), params.end(), [](const Param &p) {
    return p.kind == ParamKind::ProblemSize && p.dim == ProblemDim::Groups;
  });
}

bool KernelManifest::hasBatch() const {
  return std::any_of(params.begin(), params.end(), [](const Param &p) {
    return p.kind == ParamKind::ProblemSize && p.dim == ProblemDim::Batch;
  });
}

std::vector<std::string> KernelManifest::validate() const {
  std::vector<std::string> errors;
  auto fail = [&](std::string message) {
    errors.push_back(std::move(message));
  };

  if (name.empty())
    fail("name: must not be empty");
  if (!isPtxIdentifier(kernel))
    fail("kernel: '" + kernel + "' is not a valid PTX entry name");
  if (ptx.empty())
    fail("ptx: must name the PTX file");
  if (cubin && cubin->empty())
    fail("cubin: must name the cubin file when present");

  static constexpr uint32_t maxBlock[3] = {1024, 1024, 64};
  uint64_t threads = 1;
  for (size_t i = 0; i < 3; ++i) {
    threads *= block[i];
    if (block[i] == 0 || block[i] > maxBlock[i])
      fail("block: dimension " + std::to_string(i) + " is " +
           std::to_string(block[i]) + "; must be 1.." +
           std::to_string(maxBlock[i]));
  }
  if (threads > MaxThreadsPerBlock)
    fail("block: " + dimsToString(block) + " is " + std::to_string(threads) +
         " threads per block; the hardware limit is " +
         std::to_string(MaxThreadsPerBlock));

  uint64_t clusterSize = 1;
  for (size_t i = 0; i < 3; ++i) {
    clusterSize *= cluster[i];
    if (cluster[i] == 0)
      fail("cluster: dimension " + std::to_string(i) + " is 0; must be >= 1");
  }
  if (clusterSize > MaxNonPortableClusterSize)
    fail("cluster: " + dimsToString(cluster) + " is " +
         std::to_string(clusterSize) +
         " CTAs per cluster; the hardware maximum is " +
         std::to_string(MaxNonPortableClusterSize));
  else if (clusterSize > MaxPortableClusterSize && !clusterNonPortable)
    fail("cluster: " + dimsToString(cluster) + " is " +
         std::to_string(clusterSize) +
         " CTAs per cluster; the portable maximum is " +
         std::to_string(MaxPortableClusterSize) +
         " (set \"cluster_non_portable\": true to allow up to " +
         std::to_string(MaxNonPortableClusterSize) + ")");

  if (workUnitsPerTile == 0)
    fail("grid.work_units_per_tile: 0; must be >= 1");
  if (clusterTiles &&
      uint64_t((*clusterTiles)[0]) * (*clusterTiles)[1] != clusterSize)
    fail("cluster_tiles: " + dimsToString(*clusterTiles) + " covers " +
         std::to_string(uint64_t((*clusterTiles)[0]) * (*clusterTiles)[1]) +
         " tiles, but the cluster has " + std::to_string(clusterSize) +
         " CTAs (one tile each)");

  if (dynamicSmemBytes > MaxDynamicSmemBytes)
    fail("dynamic_smem_bytes: " + std::to_string(dynamicSmemBytes) +
         " exceeds the per-block maximum of " +
         std::to_string(MaxDynamicSmemBytes) + " bytes (227 KiB)");

  if (std::find(tile.begin(), tile.end(), 0u) != tile.end())
    fail("tile: " + dimsToString(tile) + " has a zero extent");

  bool int8 = isInt8(types.a);
  if (types.accumulator != DType::F32 && types.accumulator != DType::F16 &&
      types.accumulator != DType::S32)
    fail("types.accumulator: " + std::string(toString(types.accumulator)) +
         " cannot accumulate; expected f32, f16 or s32");
  else if (int8 != (types.accumulator == DType::S32))
    fail("types.accumulator: " + std::string(toString(types.accumulator)) +
         (int8 ? "; 8-bit integer inputs accumulate in s32"
               : "; s32 accumulates 8-bit integer inputs only"));
  if (types.a != types.b && !(isFp8(types.a) && isFp8(types.b)) &&
      !(isInt8(types.a) && isInt8(types.b)))
    fail("types: a is " + std::string(toString(types.a)) + " and b is " +
         std::string(toString(types.b)) +
         "; A and B must have the same dtype (only e4m3 and e5m2 mix, and "
         "s8 and u8)");
  if (isInt8(types.c) || (types.c == DType::S32 && !int8))
    fail("types.c: " + std::string(toString(types.c)) +
         " is not an output dtype (s32 is the output of 8-bit integer "
         "inputs)");
  // SM90 fp8 kernels say how they accumulate; SM100 ones (tcgen05,
  // accumulating in f32 tensor memory) need not.
  if (types.fp8Accumulation && !isFp8(types.a))
    fail("types.fp8_accumulation: only fp8 inputs have one, but a is " +
         std::string(toString(types.a)));
  else if (types.fp8Accumulation &&
           (*types.fp8Accumulation == Fp8Accumulation::Fast) !=
               (types.promoteEveryK == 0))
    fail("types.fp8_accumulation.promote_every_k: " +
         std::to_string(types.promoteEveryK) +
         " must be 0 for fast accumulation and positive when promoted");

  std::array<int, 3> descriptorAt = {-1, -1, -1};
  std::array<int, 3> pointerAt = {-1, -1, -1}, leadingDimAt = {-1, -1, -1};
  std::array<int, 6> dimAt = {-1, -1, -1, -1, -1, -1};
  int groupTableAt = -1;
  bool general = false;
  const DType tensorType[3] = {types.a, types.b, types.c};
  for (size_t i = 0; i < params.size(); ++i) {
    const Param &param = params[i];
    std::string path = "params[" + std::to_string(i) + "]";
    if (param.kind == ParamKind::ProblemSize) {
      int &at = dimAt[static_cast<size_t>(param.dim)];
      if (at >= 0)
        fail(path + ": a second problem_size for dim " +
             std::string(toString(param.dim)) + " (first at params[" +
             std::to_string(at) + "])");
      else
        at = static_cast<int>(i);
      continue;
    }
    if (param.kind == ParamKind::Scale || param.kind == ParamKind::Amax) {
      validateScale(*this, i, errors);
      continue;
    }
    if (param.kind == ParamKind::GroupTable ||
        param.kind == ParamKind::GroupProblemTable) {
      if (groupTableAt >= 0)
        fail(path + ": a second group table (first at params[" +
             std::to_string(groupTableAt) + "])");
      else
        groupTableAt = static_cast<int>(i);
      general = param.kind == ParamKind::GroupProblemTable;
      continue;
    }
    if (param.kind == ParamKind::Pointer ||
        param.kind == ParamKind::LeadingDim) {
      bool pointer = param.kind == ParamKind::Pointer;
      int &at = (pointer ? pointerAt
                         : leadingDimAt)[static_cast<size_t>(param.tensor)];
      if (at >= 0)
        fail(path + ": a second " + std::string(toString(param.kind)) +
             " for tensor " + std::string(toString(param.tensor)) +
             " (first at params[" + std::to_string(at) + "])");
      else
        at = static_cast<int>(i);
      continue;
    }
    if (param.kind == ParamKind::Workspace) {
      // 16 bytes: the kernels access workspaces with 16-byte vectors.
      const WorkspaceParam &w = param.workspace;
      if (w.bytesPerTile == 0 && w.bytesPerCta == 0)
        fail(path + ": a workspace needs bytes_per_tile or bytes_per_cta "
                    "(a positive multiple of 16)");
      for (auto [key, bytes] : {std::pair{"bytes_per_tile", w.bytesPerTile},
                                std::pair{"bytes_per_cta", w.bytesPerCta}})
        if (bytes % 16 != 0)
          fail(path + "." + key + ": " + std::to_string(bytes) +
               " must be a multiple of 16");
      continue;
    }
    // A kernel may view a matrix through several boxes (e.g. A of a tile
    // that reaches past row M in smaller ones); the same box twice is a
    // mistake.
    size_t t = static_cast<size_t>(param.tma.tensor);
    if (descriptorAt[t] < 0)
      descriptorAt[t] = static_cast<int>(i);
    for (size_t j = 0; j < i; ++j)
      if (params[j].kind == ParamKind::TmaDescriptor &&
          params[j].tma.tensor == param.tma.tensor &&
          params[j].tma.box == param.tma.box)
        fail(path + ": a second tma_descriptor for tensor " +
             std::string(toString(param.tma.tensor)) +
             " with the box of params[" + std::to_string(j) + "]");
    validateTmaDescriptor(param.tma, tensorType[t], path, errors);
  }
  bool anyDescriptor = false;
  for (Tensor t : {Tensor::A, Tensor::B, Tensor::C}) {
    size_t i = static_cast<size_t>(t);
    std::string name(toString(t));
    anyDescriptor |= descriptorAt[i] >= 0;
    if (descriptorAt[i] < 0 && pointerAt[i] < 0)
      fail("params: no tma_descriptor or pointer for tensor " + name);
    bool groupedC = t == Tensor::C && !general &&
                    dimAt[static_cast<size_t>(ProblemDim::Groups)] >= 0;
    if (descriptorAt[i] >= 0 && pointerAt[i] >= 0 && !groupedC)
      fail("params: tensor " + name +
           " has both a tma_descriptor and a pointer; a kernel reads a "
           "matrix through one of them");
    if ((pointerAt[i] >= 0) != (leadingDimAt[i] >= 0))
      fail("params: tensor " + name + " has a " +
           (pointerAt[i] >= 0 ? "pointer without a leading_dim"
                              : "leading_dim without a pointer") +
           " (a pointer parameter needs the row stride that goes with it)");
  }
  for (ProblemDim d : {ProblemDim::M, ProblemDim::N, ProblemDim::K})
    if (dimAt[static_cast<size_t>(d)] < 0)
      fail("params: no problem_size for dim " + std::string(toString(d)));
  if (isFp8(types.c) && !scaleFor(Tensor::C))
    fail("params: an " + std::string(toString(types.c)) +
         " output needs an output scale (a scale parameter for tensor c)");
  // A batched kernel reads the broadcast mask with the batch size: the
  // runtime gives a broadcast operand's descriptor one batch entry.
  if ((dimAt[static_cast<size_t>(ProblemDim::Batch)] < 0) !=
      (dimAt[static_cast<size_t>(ProblemDim::BatchBroadcast)] < 0))
    fail("params: problem_size batch and batch_broadcast go together (a "
         "batched kernel takes both)");
  // A grouped kernel reads its group table and writes the tiles that
  // cross a group's end through C's pointer.
  bool grouped = dimAt[static_cast<size_t>(ProblemDim::Groups)] >= 0;
  if (grouped != (groupTableAt >= 0))
    fail("params: problem_size groups and group_table go together (a "
         "grouped kernel takes both; a general grouped kernel takes a "
         "group_problem_table)");
  if (grouped && dimAt[static_cast<size_t>(ProblemDim::Batch)] >= 0)
    fail("params: a kernel is batched or grouped, not both");
  if (grouped && general &&
      (descriptorAt[0] < 0 || descriptorAt[1] < 0 || descriptorAt[2] < 0 ||
       pointerAt[0] >= 0 || pointerAt[1] >= 0 || pointerAt[2] >= 0))
    fail("params: a general grouped kernel takes the tma_descriptors of a, "
         "b and c (the templates of its groups' tensor maps) and no "
         "pointers");
  if (grouped && !general &&
      (descriptorAt[0] < 0 || descriptorAt[1] < 0 || descriptorAt[2] < 0 ||
       pointerAt[2] < 0 || pointerAt[0] >= 0 || pointerAt[1] >= 0))
    fail("params: a grouped kernel takes tma_descriptors of a, b and c and "
         "a pointer (with leading_dim) of c only");
  // Pointers are the direct kernel's, built for bf16 and f16 only (no
  // scales, no 8-bit or tf32 inputs: docs/LowPrecision.md).
  bool anyPointer = std::any_of(pointerAt.begin(), pointerAt.end(),
                                [](int at) { return at >= 0; });
  bool anyScale = std::any_of(params.begin(), params.end(), [](const Param &p) {
    return p.kind == ParamKind::Scale || p.kind == ParamKind::Amax;
  });
  if (anyPointer && (elementBytes(types.a) != 2 || types.a != types.b ||
                     anyScale || types.accumulator != DType::F32))
    fail("params: pointer parameters (the direct kernel) take bf16 or f16 "
         "inputs without scales; a kernel of " +
         std::string(toString(types.a)) + " x " +
         std::string(toString(types.b)) + (anyScale ? " with scales" : "") +
         " takes tma_descriptors");
  // Batch entries are addressed through rank-3 descriptors; a pointer has
  // no batch stride.
  if (dimAt[static_cast<size_t>(ProblemDim::Batch)] >= 0)
    for (Tensor t : {Tensor::A, Tensor::B, Tensor::C})
      if (pointerAt[static_cast<size_t>(t)] >= 0)
        fail("params: tensor " + std::string(toString(t)) +
             " is a pointer in a batched kernel; batched kernels address "
             "their entries through (rank-3) tma_descriptors");

  const Constraints &c = constraints;
  uint32_t align = c.leadingDimAlignmentBytes;
  if (align == 0 || (align & (align - 1)) != 0)
    fail("constraints.leading_dim_alignment_bytes: " + std::to_string(align) +
         " must be a power of two");
  else if (anyDescriptor && align < 16)
    fail("constraints.leading_dim_alignment_bytes: " + std::to_string(align) +
         " must be >= 16 for a kernel with TMA descriptors (TMA strides are "
         "16-byte multiples)");
  for (auto [value, field] : {std::pair{c.minM, "min_m"},
                              {c.minN, "min_n"},
                              {c.minK, "min_k"},
                              {c.mMultiple, "m_multiple"},
                              {c.nMultiple, "n_multiple"},
                              {c.kMultiple, "k_multiple"}})
    if (value == 0)
      fail(std::string("constraints.") + field + ": must be >= 1");
  return errors;
}

std::string KernelManifest::toJsonString(int indent) const {
  return toJsonImpl<nlohmann::ordered_json>(*this).dump(
      indent, ' ', /*ensure_ascii=*/false, json::error_handler_t::replace);
}

ParseResult parseManifest(const json &j) {
  ParseResult result;
  std::vector<std::string> &errors = result.errors;
  ObjectReader top(j, "", errors);
  if (!top.isObject())
    return result;

  // Format and version come first: under another format or version the other
  // fields may mean something else, so their errors would only mislead.
  std::string format;
  if (top.readString("format", format) && format != FormatName)
    top.error("format", "'" + format +
                            "' is not a kernel bundle manifest "
                            "(expected '" +
                            std::string(FormatName) + "')");
  uint64_t version = 0;
  if (top.readUInt("version", version) && version != FormatVersion)
    top.error("version",
              "manifest version " + std::to_string(version) +
                  " is not supported (this runtime reads version " +
                  std::to_string(FormatVersion) +
                  "); re-export the bundle with a matching compiler");
  if (!errors.empty())
    return result;

  top.rejectUnknownFields({"format",
                           "version",
                           "name",
                           "kernel",
                           "arch",
                           "ptx",
                           "cubin",
                           "block",
                           "cluster",
                           "cluster_non_portable",
                           "cluster_tiles",
                           "grid",
                           "dynamic_smem_bytes",
                           "tile",
                           "types",
                           "layouts",
                           "params",
                           "constraints",
                           "debug_waits_ms",
                           "debug_wait_sites"});
  KernelManifest m;
  top.readString("name", m.name);
  top.readString("kernel", m.kernel);
  top.readEnum("arch", m.arch);
  top.readString("ptx", m.ptx);
  std::string cubin;
  if (top.readString("cubin", cubin, /*required=*/false))
    m.cubin = cubin;
  top.readDims("block", m.block);
  top.readDims("cluster", m.cluster);
  top.readBool("cluster_non_portable", m.clusterNonPortable);
  std::array<uint32_t, 2> clusterTiles{};
  if (top.readDims("cluster_tiles", clusterTiles, /*required=*/false))
    m.clusterTiles = clusterTiles;
  top.readUInt32("dynamic_smem_bytes", m.dynamicSmemBytes);
  top.readDims("tile", m.tile);
  top.readUInt32("debug_waits_ms", m.debugWaitsMs, /*required=*/false);
  if (const json *sites = top.field("debug_wait_sites", /*required=*/false)) {
    bool strings = sites->is_array();
    for (const json &site : strings ? *sites : json::array())
      strings &= site.is_string();
    if (strings)
      m.debugWaitSites = sites->get<std::vector<std::string>>();
    else
      top.error("debug_wait_sites",
                "expected an array of strings, got " + sites->dump());
  }

  if (const json *grid = top.field("grid", /*required=*/true)) {
    ObjectReader reader(*grid, "grid", errors);
    if (reader.isObject()) {
      reader.rejectUnknownFields({"policy", "work_units_per_tile"});
      reader.readEnum("policy", m.grid);
      reader.readUInt32("work_units_per_tile", m.workUnitsPerTile,
                        /*required=*/false);
    }
  }
  if (const json *types = top.field("types", /*required=*/true)) {
    ObjectReader reader(*types, "types", errors);
    if (reader.isObject()) {
      reader.rejectUnknownFields(
          {"a", "b", "c", "accumulator", "fp8_accumulation"});
      reader.readEnum("a", m.types.a);
      reader.readEnum("b", m.types.b);
      reader.readEnum("c", m.types.c);
      reader.readEnum("accumulator", m.types.accumulator);
      if (const json *accumulation =
              reader.field("fp8_accumulation", /*required=*/false)) {
        ObjectReader inner(*accumulation, "types.fp8_accumulation", errors);
        if (inner.isObject()) {
          inner.rejectUnknownFields({"mode", "promote_every_k"});
          Fp8Accumulation mode = Fp8Accumulation::Promoted;
          if (inner.readEnum("mode", mode))
            m.types.fp8Accumulation = mode;
          inner.readUInt32("promote_every_k", m.types.promoteEveryK);
        }
      }
    }
  }
  if (const json *layouts = top.field("layouts", /*required=*/true)) {
    ObjectReader reader(*layouts, "layouts", errors);
    if (reader.isObject()) {
      reader.rejectUnknownFields({"a", "b", "c"});
      reader.readEnum("a", m.layouts.a);
      reader.readEnum("b", m.layouts.b);
      reader.readEnum("c", m.layouts.c);
    }
  }
  if (const json *params = top.field("params", /*required=*/true)) {
    if (!params->is_array()) {
      top.error("params",
                std::string("expected an array, got ") + params->type_name());
    } else {
      for (size_t i = 0; i < params->size(); ++i) {
        Param param;
        readParam((*params)[i], "params[" + std::to_string(i) + "]", param,
                  errors);
        m.params.push_back(param);
      }
    }
  }
  if (const json *constraints = top.field("constraints", /*required=*/false)) {
    ObjectReader reader(*constraints, "constraints", errors);
    if (reader.isObject()) {
      Constraints &c = m.constraints;
      reader.rejectUnknownFields({"leading_dim_alignment_bytes", "min_m",
                                  "min_n", "min_k", "m_multiple", "n_multiple",
                                  "k_multiple"});
      reader.readUInt32("leading_dim_alignment_bytes",
                        c.leadingDimAlignmentBytes, /*required=*/false);
      uint64_t max = std::numeric_limits<uint64_t>::max();
      reader.readUInt("min_m", c.minM, false, max);
      reader.readUInt("min_n", c.minN, false, max);
      reader.readUInt("min_k", c.minK, false, max);
      reader.readUInt("m_multiple", c.mMultiple, false, max);
      reader.readUInt("n_multiple", c.nMultiple, false, max);
      reader.readUInt("k_multiple", c.kMultiple, false, max);
    }
  }
  if (errors.empty())
    result.manifest = std::move(m);
  return result;
}

ParseResult parseManifestText(std::string_view text) {
  json j;
  try {
    j = json::parse(text.begin(), text.end());
  } catch (const json::parse_error &e) {
    // e.what() leads with "[json.exception.parse_error.101] ", which names
    // nlohmann's error id, not the problem.
    std::string message = e.what();
    size_t bracket = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 &&
        bracket != std::string::npos)
      message.erase(0, bracket + 2);
    ParseResult result;
    result.errors.push_back("invalid JSON: " + message);
    return result;
  }
  return parseManifest(j);
}

void to_json(json &j, const KernelManifest &manifest) {
  j = toJsonImpl<json>(manifest);
}

void from_json(const json &j, KernelManifest &manifest) {
  ParseResult result = parseManifest(j);
  if (!result.manifest) {
    std::string message = "invalid kernel bundle manifest:";
    for (const std::string &error : result.errors)
      message += "\n  " + error;
    throw std::invalid_argument(message);
  }
  manifest = std::move(*result.manifest);
}

} // namespace gemm::bundle
