//===- Manifest.h - Kernel bundle manifest (format version 1) ---*- C++ -*-===//
//
// The one contract between the compiler's bundle exporter and the runtime: a
// kernel bundle is NAME.ptx (+ NAME.cubin) + NAME.json, and this header is the
// only definition of NAME.json. Both sides include it, so they cannot drift.
//
// It depends on neither CUDA nor MLIR, and nothing declared here throws: the
// compiler builds without exceptions. Parsing reports problems as a list of
// messages that name the field (e.g. "params[2].swizzle"), the value and the
// accepted values.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_BUNDLE_MANIFEST_H
#define GEMM_BUNDLE_MANIFEST_H

#include "gemm/Bundle/KernelLimits.h"
#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace gemm::bundle {

/// The value of the manifest's "format" field.
inline constexpr std::string_view FormatName = "gemm-kernel-bundle";
/// The manifest version this header reads and writes. Bump it for any change
/// an older runtime would misread; adding an optional field is not one, nor
/// is a new parameter kind (an older runtime refuses the manifest, naming
/// the kind it does not know, rather than misreading it).
inline constexpr int FormatVersion = 1;

/// Hardware limits the manifest is validated against.
inline constexpr uint32_t MaxThreadsPerBlock = 1024;
inline constexpr uint32_t MaxPortableClusterSize = 8;
inline constexpr uint32_t MaxNonPortableClusterSize = 16;
inline constexpr uint32_t MaxTmaBoxDim = 256;

enum class Arch { Sm90a, Sm100a };
/// Element types. F32 inputs are read by SM90 WGMMA as tf32; S8/U8 inputs
/// accumulate in S32 (docs/LowPrecision.md).
enum class DType { BF16, F16, F32, E4M3, E5M2, S8, U8, S32 };
enum class Layout { Row, Col };
enum class Tensor { A, B, C };
enum class Swizzle { None, B32, B64, B128 };
enum class Interleave { None, B16, B32 };
enum class L2Promotion { None, B64, B128, B256 };
/// Zero: out-of-bounds elements read as zero. NanRequestZeroFma: they read as
/// NaN, which the MMA treats as zero (CU_TENSOR_MAP_FLOAT_OOB_FILL_*).
enum class OobFill { Zero, NanRequestZeroFma };
enum class GridPolicy { Persistent, Tiles };
enum class ParamKind {
  TmaDescriptor,
  ProblemSize,
  Workspace,
  Scale,
  Amax,
  Pointer,
  LeadingDim,
  GroupTable,
  GroupProblemTable
};
/// What one f32 scale factor of a Scale parameter covers (docs/Runtime.md
/// gives the storage order of each): the whole tensor, one row of A, one
/// column of C (a row of the N x K operand B), or a block (A: 1 x 128 of
/// M x K, B: 128 x 128 of N x K).
enum class ScaleGranularity { Tensor, Row, Col, Block };
/// How fp8 WGMMA partial sums are accumulated: promoted into f32 every few
/// k-blocks, or kept in the WGMMA accumulator.
enum class Fp8Accumulation { Promoted, Fast };
/// Batch: the number of problems of a batched kernel. BatchBroadcast: a
/// batched kernel's mask of the operands whose batch stride is 0 (bit 0: A,
/// bit 1: B): their descriptors hold one matrix, read at batch entry 0.
/// Groups: the group count G of a grouped (MoE) kernel, whose M is the
/// sum of the groups' rows (docs/Runtime.md "Grouped kernels").
enum class ProblemDim { M, N, K, Batch, BatchBroadcast, Groups };

/// Spelling tables: the JSON strings of each enum, in enumerator order.
template <typename E> struct EnumSpellings;
#define GEMM_BUNDLE_SPELLINGS(ENUM, WHAT, ...)                                 \
  template <> struct EnumSpellings<ENUM> {                                     \
    static constexpr std::string_view what = WHAT;                             \
    static constexpr std::string_view names[] = {__VA_ARGS__};                 \
  };
GEMM_BUNDLE_SPELLINGS(Arch, "arch", "sm_90a", "sm_100a")
GEMM_BUNDLE_SPELLINGS(DType, "dtype", "bf16", "f16", "f32", "e4m3", "e5m2",
                      "s8", "u8", "s32")
GEMM_BUNDLE_SPELLINGS(Layout, "layout", "row", "col")
GEMM_BUNDLE_SPELLINGS(Tensor, "tensor", "a", "b", "c")
GEMM_BUNDLE_SPELLINGS(Swizzle, "swizzle", "none", "32B", "64B", "128B")
GEMM_BUNDLE_SPELLINGS(Interleave, "interleave", "none", "16B", "32B")
GEMM_BUNDLE_SPELLINGS(L2Promotion, "l2_promotion", "none", "64B", "128B",
                      "256B")
GEMM_BUNDLE_SPELLINGS(OobFill, "oob_fill", "zero", "nan_request_zero_fma")
GEMM_BUNDLE_SPELLINGS(GridPolicy, "grid policy", "persistent", "tiles")
GEMM_BUNDLE_SPELLINGS(ParamKind, "param kind", "tma_descriptor", "problem_size",
                      "workspace", "scale", "amax", "pointer", "leading_dim",
                      "group_table", "group_problem_table")
GEMM_BUNDLE_SPELLINGS(ScaleGranularity, "scale granularity", "tensor", "row",
                      "col", "block")
GEMM_BUNDLE_SPELLINGS(Fp8Accumulation, "fp8 accumulation", "promoted", "fast")
GEMM_BUNDLE_SPELLINGS(ProblemDim, "problem dim", "m", "n", "k", "batch",
                      "batch_broadcast", "groups")
#undef GEMM_BUNDLE_SPELLINGS

template <typename E> constexpr std::string_view toString(E value) {
  return EnumSpellings<E>::names[static_cast<size_t>(value)];
}

template <typename E> std::optional<E> parseEnum(std::string_view spelling) {
  const auto &names = EnumSpellings<E>::names;
  for (size_t i = 0; i < std::size(names); ++i)
    if (names[i] == spelling)
      return static_cast<E>(i);
  return std::nullopt;
}

/// "a, b, c": the accepted spellings, for error messages.
template <typename E> std::string spellingList() {
  std::string list;
  for (std::string_view name : EnumSpellings<E>::names) {
    if (!list.empty())
      list += ", ";
    list += name;
  }
  return list;
}

constexpr uint32_t elementBytes(DType type) {
  switch (type) {
  case DType::BF16:
  case DType::F16:
    return 2;
  case DType::F32:
    return 4;
  case DType::E4M3:
  case DType::E5M2:
  case DType::S8:
  case DType::U8:
    return 1;
  case DType::S32:
    return 4;
  }
  return 0;
}

constexpr bool isFp8(DType type) {
  return type == DType::E4M3 || type == DType::E5M2;
}
constexpr bool isInt8(DType type) {
  return type == DType::S8 || type == DType::U8;
}

/// Bytes of one swizzle pattern row; the inner box extent may not exceed it.
/// 0 for Swizzle::None.
constexpr uint32_t swizzleSpanBytes(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::None:
    return 0;
  case Swizzle::B32:
    return 32;
  case Swizzle::B64:
    return 64;
  case Swizzle::B128:
    return 128;
  }
  return 0;
}

/// 'a' targets run only on exactly this compute capability.
constexpr std::pair<int, int> computeCapability(Arch arch) {
  return arch == Arch::Sm90a ? std::pair{9, 0} : std::pair{10, 0};
}

/// One TMA descriptor kernel parameter: a 128-byte CUtensorMap passed by value
/// (`.param .align 64 .b8 p[128]`) describing one of A, B, C.
struct TmaDescriptorParam {
  Tensor tensor = Tensor::A;
  /// {inner (contiguous) extent, outer extent} in elements.
  std::array<uint32_t, 2> box = {0, 0};
  Swizzle swizzle = Swizzle::B128;
  Interleave interleave = Interleave::None;
  L2Promotion l2Promotion = L2Promotion::B256;
  OobFill oobFill = OobFill::Zero;

  bool operator==(const TmaDescriptorParam &o) const {
    return std::tie(tensor, box, swizzle, interleave, l2Promotion, oobFill) ==
           std::tie(o.tensor, o.box, o.swizzle, o.interleave, o.l2Promotion,
                    o.oobFill);
  }
};

/// A global-memory buffer the kernel needs besides A, B and C (e.g. the
/// partial tiles and arrival counters of split-K and stream-K), passed as a
/// 64-bit device address. It holds `bytesPerTile` bytes for every tile the
/// launch covers (one per CTA of every cluster block, see clusterTileShape)
/// plus `bytesPerCta` bytes for every CTA of the grid. With zeroInit the
/// launcher zeroes it before the kernel first uses it, and the kernel leaves
/// it zeroed again when it ends, so it is zeroed once per allocation.
struct WorkspaceParam {
  uint64_t bytesPerTile = 0;
  uint64_t bytesPerCta = 0;
  bool zeroInit = false;

  bool operator==(const WorkspaceParam &o) const {
    return std::tie(bytesPerTile, bytesPerCta, zeroInit) ==
           std::tie(o.bytesPerTile, o.bytesPerCta, o.zeroInit);
  }
};

/// The f32 scale factors of one operand (A, B) or the output scale (C),
/// passed as a u64 device address. The kernel only reads them.
struct ScaleParam {
  Tensor tensor = Tensor::A;
  ScaleGranularity granularity = ScaleGranularity::Tensor;

  bool operator==(const ScaleParam &o) const {
    return std::tie(tensor, granularity) == std::tie(o.tensor, o.granularity);
  }
};

/// One kernel parameter, in declaration order. `tma` is meaningful for
/// ParamKind::TmaDescriptor, `dim` for ParamKind::ProblemSize (passed as u32),
/// `workspace` for ParamKind::Workspace (passed as a u64 device address),
/// `scale` for ParamKind::Scale (a u64 device address of f32 scales).
/// ParamKind::Amax is the u64 device address of one f32 that the kernel
/// raises to the largest absolute value of the output before its output
/// scale (an fp8 output's amax); the caller sets it to 0 first.
/// `tensor` for ParamKind::Pointer (the u64 device address of the matrix's
/// first element: the kernel reads or writes it with plain loads and stores,
/// at any element-aligned address) and ParamKind::LeadingDim (u64: the
/// elements between consecutive rows of the matrix's storage, i.e. its outer
/// stride in the manifest's layout; the inner stride is 1). A kernel that
/// takes A (B) as a pointer addresses the elements of one tile of it (tile[0]
/// (tile[1]) rows of M (N) by tile[2] of K) with 32-bit offsets from the
/// tile's first one, so the runtime refuses leading dimensions for which the
/// tile spans 2^31 elements or more in memory ((rows - 1) x ld + tile[2] - 1
/// K-major, (tile[2] - 1) x ld + rows - 1 MN-major); C's offsets are 64-bit.
/// ParamKind::GroupTable (grouped kernels, with problem_size groups): the
/// u64 device address of the group table, which the runtime's prep kernel
/// writes from the caller's device array of G + 1 group offsets before
/// every launch: a 16-byte header {R, 0, 0, 0} (R: the row units, the sum
/// over g of ceil(M_g / (tile[0] x cluster M))), then per row unit the four
/// u32 {first row, end of its group's rows, group, 0}. A grouped kernel
/// takes C both as a tma_descriptor (tiles inside their group) and as a
/// pointer with its leading_dim (masked stores of the tiles that cross
/// their group's end).
/// ParamKind::GroupProblemTable (general grouped kernels, with
/// problem_size groups): the u64 device address of the general group table
/// (gemm/Runtime/GroupProblems.h), which the runtime's prep kernel writes
/// from the caller's device array of G group records before every launch:
/// per group its tile prefix and M, N, K, then its A, B, C tensor maps,
/// copies of the kernel's three tma_descriptor parameters (the templates:
/// box, swizzle, element type) patched with the group's address, dims and
/// stride. Such a kernel takes no pointer parameters; its M, N, K
/// parameters are 0.
struct Param {
  ParamKind kind = ParamKind::ProblemSize;
  TmaDescriptorParam tma;
  ProblemDim dim = ProblemDim::M;
  WorkspaceParam workspace;
  ScaleParam scale;
  Tensor tensor = Tensor::A;

  static Param tmaDescriptor(TmaDescriptorParam tma) {
    return {ParamKind::TmaDescriptor, tma, ProblemDim::M, {}, {}, tma.tensor};
  }
  static Param problemSize(ProblemDim dim) {
    return {ParamKind::ProblemSize, {}, dim, {}, {}, Tensor::A};
  }
  static Param workspaceBuffer(WorkspaceParam workspace) {
    return {ParamKind::Workspace, {}, ProblemDim::M, workspace, {}, Tensor::A};
  }
  static Param scaleFactors(ScaleParam scale) {
    return {ParamKind::Scale, {}, ProblemDim::M, {}, scale, scale.tensor};
  }
  static Param amaxOutput() {
    return {ParamKind::Amax, {}, ProblemDim::M, {}, {}, Tensor::C};
  }
  static Param pointer(Tensor tensor) {
    return {ParamKind::Pointer, {}, ProblemDim::M, {}, {}, tensor};
  }
  static Param leadingDim(Tensor tensor) {
    return {ParamKind::LeadingDim, {}, ProblemDim::M, {}, {}, tensor};
  }
  static Param groupTable() {
    return {ParamKind::GroupTable, {}, ProblemDim::M, {}, {}, Tensor::A};
  }
  static Param groupProblemTable() {
    return {ParamKind::GroupProblemTable, {}, ProblemDim::M, {}, {}, Tensor::A};
  }
  bool operator==(const Param &other) const {
    if (kind != other.kind)
      return false;
    switch (kind) {
    case ParamKind::TmaDescriptor:
      return tma == other.tma;
    case ParamKind::ProblemSize:
      return dim == other.dim;
    case ParamKind::Workspace:
      return workspace == other.workspace;
    case ParamKind::Scale:
      return scale == other.scale;
    case ParamKind::Amax:
    case ParamKind::GroupTable:
    case ParamKind::GroupProblemTable:
      return true;
    case ParamKind::Pointer:
    case ParamKind::LeadingDim:
      return tensor == other.tensor;
    }
    return false;
  }
};

struct TensorTypes {
  DType a = DType::BF16, b = DType::BF16, c = DType::BF16;
  DType accumulator = DType::F32;
  /// fp8 inputs: how the WGMMA partial sums are accumulated, and every how
  /// many elements of K they are promoted into f32 (0 when fast). JSON:
  /// types.fp8_accumulation {"mode", "promote_every_k"}, optional; absent
  /// for other inputs.
  std::optional<Fp8Accumulation> fp8Accumulation;
  uint32_t promoteEveryK = 0;
  bool operator==(const TensorTypes &o) const {
    return std::tie(a, b, c, accumulator, fp8Accumulation, promoteEveryK) ==
           std::tie(o.a, o.b, o.c, o.accumulator, o.fp8Accumulation,
                    o.promoteEveryK);
  }
};

/// A "row", B "col", C "row": A is M rows of K, B is N rows of K (both
/// K-major), C is M rows of N.
struct TensorLayouts {
  Layout a = Layout::Row, b = Layout::Col, c = Layout::Row;
  bool operator==(const TensorLayouts &o) const {
    return std::tie(a, b, c) == std::tie(o.a, o.b, o.c);
  }
};

/// What problems the kernel accepts. Optional in JSON; these are the defaults.
/// leadingDimAlignmentBytes: every leading dimension (in bytes) and base
/// address must be a multiple of it; at least 16 (the TMA rule) when the
/// kernel has TMA descriptors, the element size for a kernel that reads and
/// writes every matrix through pointers (then nothing is ever staged).
struct Constraints {
  uint32_t leadingDimAlignmentBytes = 16;
  uint64_t minM = 1, minN = 1, minK = 1;
  /// Divisibility the kernel needs (1: any size).
  uint64_t mMultiple = 1, nMultiple = 1, kMultiple = 1;
  bool operator==(const Constraints &o) const {
    return std::tie(leadingDimAlignmentBytes, minM, minN, minK, mMultiple,
                    nMultiple, kMultiple) ==
           std::tie(o.leadingDimAlignmentBytes, o.minM, o.minN, o.minK,
                    o.mMultiple, o.nMultiple, o.kMultiple);
  }
};

struct KernelManifest {
  /// Bundle name (the file stem).
  std::string name;
  /// The PTX .entry symbol.
  std::string kernel;
  Arch arch = Arch::Sm90a;
  /// Paths relative to the manifest's directory; cubin is optional.
  std::string ptx;
  std::optional<std::string> cubin;
  std::array<uint32_t, 3> block = {1, 1, 1};
  std::array<uint32_t, 3> cluster = {1, 1, 1};
  /// Allows cluster sizes 9..16 (CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE).
  bool clusterNonPortable = false;
  /// How the CTAs of one cluster tile C: {along M, along N} tiles, whose
  /// product is the cluster size. A cluster works on such a block of tiles
  /// at a time, so a grid of policy Tiles launches one cluster per block.
  /// Optional; without it a cluster is a column of tiles along M.
  std::optional<std::array<uint32_t, 2>> clusterTiles;
  GridPolicy grid = GridPolicy::Persistent;
  /// CTAs' worth of work per tile (split-K: the k-ranges of a tile, each
  /// computed by a different CTA). The launch covers tiles x this many work
  /// units. JSON: grid.work_units_per_tile, optional, default 1.
  uint32_t workUnitsPerTile = 1;
  uint32_t dynamicSmemBytes = 0;
  /// {BM, BN, BK}.
  std::array<uint32_t, 3> tile = {0, 0, 0};
  TensorTypes types;
  TensorLayouts layouts;
  std::vector<Param> params;
  Constraints constraints;
  /// Built with debug-waits: every mbarrier wait gives up after this many
  /// milliseconds, prints where it waited and traps, so a failed launch is
  /// such a trap. JSON: debug_waits_ms, optional, default 0 (waits are
  /// unbounded).
  uint32_t debugWaitsMs = 0;
  /// With debug waits: what each wait site of the kernel is (role, barrier,
  /// pipeline), indexed by the site number its wait record holds. JSON:
  /// debug_wait_sites, optional.
  std::vector<std::string> debugWaitSites;

  bool operator==(const KernelManifest &o) const {
    return std::tie(name, kernel, arch, ptx, cubin, block, cluster,
                    clusterNonPortable, clusterTiles, grid, workUnitsPerTile,
                    dynamicSmemBytes, tile, types, layouts, params, constraints,
                    debugWaitsMs, debugWaitSites) ==
           std::tie(o.name, o.kernel, o.arch, o.ptx, o.cubin, o.block,
                    o.cluster, o.clusterNonPortable, o.clusterTiles, o.grid,
                    o.workUnitsPerTile, o.dynamicSmemBytes, o.tile, o.types,
                    o.layouts, o.params, o.constraints, o.debugWaitsMs,
                    o.debugWaitSites);
  }

  /// clusterTiles, or its default: {cluster size, 1}.
  std::array<uint32_t, 2> clusterTileShape() const {
    if (clusterTiles)
      return *clusterTiles;
    return {cluster[0] * cluster[1] * cluster[2], 1};
  }

  /// The semantic rules (hardware limits, TMA box rules, parameter list).
  /// Empty when the manifest is usable; otherwise one message per problem.
  std::vector<std::string> validate() const;

  /// The manifest as JSON text (format and version included).
  std::string toJsonString(int indent = 2) const;

  /// The TMA descriptor parameter of `tensor`, or null.
  const TmaDescriptorParam *tmaDescriptorFor(Tensor tensor) const;
  /// The scale parameter of `tensor`, or null.
  const ScaleParam *scaleFor(Tensor tensor) const;
  /// Whether the kernel writes an amax.
  bool hasAmax() const;
  /// Whether the kernel takes `tensor` as a pointer (with its leading
  /// dimension) instead of a TMA descriptor.
  bool takesPointer(Tensor tensor) const;
  /// Whether the kernel takes a batch size (then its descriptors are rank 3).
  bool hasBatch() const;
  /// Whether the kernel is grouped (takes a group count; then A and C are
  /// [sum of M_g, .] matrices and B's descriptor is rank 3, one entry per
  /// group).
  bool hasGroups() const;
  /// Whether the kernel is a general grouped kernel (takes a
  /// group_problem_table: every group its own sizes and matrices).
  bool hasGeneralGroups() const;
};

struct ParseResult {
  /// Set when there were no errors.
  std::optional<KernelManifest> manifest;
  std::vector<std::string> errors;
};

/// Reads a manifest: structure, types, format, version and enum spellings.
/// Unknown fields are errors (they are typos or a newer format). Does not run
/// validate().
ParseResult parseManifest(const nlohmann::json &json);
/// As parseManifest, from JSON text; syntax errors give line and column.
ParseResult parseManifestText(std::string_view text);

/// nlohmann::json conversions. from_json throws std::invalid_argument with
/// every parse error; prefer parseManifest where exceptions are off.
void to_json(nlohmann::json &json, const KernelManifest &manifest);
void from_json(const nlohmann::json &json, KernelManifest &manifest);

} // namespace gemm::bundle

#endif // GEMM_BUNDLE_MANIFEST_H
