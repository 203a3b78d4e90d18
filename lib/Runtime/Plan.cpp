//===- Plan.cpp - From manifest + problem to a launch plan ----------------===//

#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupTable.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace gemm::runtime {
namespace {

using namespace gemm::bundle;

/// Problem sizes reach the kernel as 32-bit parameters and kernels index with
/// signed 32-bit arithmetic.
constexpr uint64_t MaxProblemDim = std::numeric_limits<int32_t>::max();
// General grouped kernels: the prep kernel walks the groups 1024 at a time,
// and the table holds 400 bytes per group.
constexpr uint64_t MaxGeneralGroups = 65536;
constexpr uint64_t MaxTmaGlobalDim = uint64_t(1) << 32;
constexpr uint64_t MaxTmaGlobalStride = uint64_t(1) << 40;
constexpr uint32_t MaxTmaElementStride = 8;

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t roundUp(uint64_t a, uint64_t b) { return ceilDiv(a, b) * b; }

template <typename T, size_t N>
std::string list(const std::array<T, N> &values, size_t count = N) {
  std::string text = "[";
  for (size_t i = 0; i < count; ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

std::string tensorName(Tensor t) {
  return "tensor " + std::string(toString(t));
}

void throwIfAny(ErrorKind kind, const std::vector<std::string> &errors) {
  if (errors.empty())
    return;
  std::string message;
  for (const std::string &error : errors)
    message += (message.empty() ? "" : "\n") + error;
  throw Error(kind, message);
}

void checkProblem(const KernelManifest &manifest, const Problem &problem,
                  std::vector<std::string> &errors) {
  const Constraints &c = manifest.constraints;
  struct Dim {
    const char *name;
    uint64_t value, min, multiple;
  };
  for (const Dim &dim : {Dim{"m", problem.m, c.minM, c.mMultiple},
                         Dim{"n", problem.n, c.minN, c.nMultiple},
                         Dim{"k", problem.k, c.minK, c.kMultiple}}) {
    std::string flag =
        std::string("--") + dim.name + " " + std::to_string(dim.value);
    if (dim.value < std::max<uint64_t>(dim.min, 1))
      errors.push_back(flag + ": kernel " + manifest.kernel + " needs " +
                       dim.name +
                       " >= " + std::to_string(std::max<uint64_t>(dim.min, 1)));
    else if (dim.value > MaxProblemDim)
      errors.push_back(flag + ": exceeds " + std::to_string(MaxProblemDim) +
                       ", the largest size a 32-bit problem_size parameter "
                       "carries");
    else if (dim.value % dim.multiple != 0)
      errors.push_back(flag + ": kernel " + manifest.kernel + " needs " +
                       dim.name + " to be a multiple of " +
                       std::to_string(dim.multiple));
  }
  if (problem.batch == 0 || problem.batch > MaxProblemDim)
    errors.push_back("--batch " + std::to_string(problem.batch) +
                     ": must be 1.." + std::to_string(MaxProblemDim));
  else if (problem.batch > 1 && !manifest.hasBatch())
    errors.push_back("--batch " + std::to_string(problem.batch) + ": kernel " +
                     manifest.kernel +
                     " is not batched (its manifest has no problem_size "
                     "parameter for dim batch)");
}

/// The rules both grouped forms share: 1..`maxGroups` groups and no batch.
/// `what` names the group count's source, `kind` the kernel's form.
void checkGroupCount(const KernelManifest &manifest, const Problem &problem,
                     uint64_t maxGroups, const std::string &what,
                     const std::string &kind,
                     std::vector<std::string> &errors) {
  if (problem.groups == 0 || problem.groups > maxGroups)
    errors.push_back(what + ": a group count of " +
                     std::to_string(problem.groups) + "; " + kind + " kernel " +
                     manifest.kernel + " takes 1.." +
                     std::to_string(maxGroups) + " groups");
  if (problem.batch != 1)
    errors.push_back("--batch " + std::to_string(problem.batch) + ": " + kind +
                     " kernel " + manifest.kernel +
                     " takes groups, not a batch");
}

/// The rules of a grouped problem: a group count, rows of 16-byte
/// multiples (the kernel reads A and B, and writes C, through TMA with no
/// staging: the groups' rows are the caller's), and the offsets when the
/// caller knows them.
void checkGroupedProblem(const KernelManifest &manifest, const Problem &problem,
                         std::vector<std::string> &errors) {
  checkGroupCount(manifest, problem, MaxProblemDim, "--groups", "grouped",
                  errors);
  uint64_t bytes = elementBytes(manifest.types.a);
  for (auto [name, value] : {std::pair{"k", problem.k}, {"n", problem.n}})
    if (value * bytes % TmaAlignmentBytes != 0)
      errors.push_back(
          std::string("--") + name + " " + std::to_string(value) +
          ": grouped kernels read the groups' rows where the caller holds "
          "them, through TMA (no staging copies): " +
          name + " x " + std::string(toString(manifest.types.a)) + " = " +
          std::to_string(value * bytes) + " bytes must be a multiple of " +
          std::to_string(TmaAlignmentBytes) + "; pad " + name +
          " to a multiple of " + std::to_string(TmaAlignmentBytes / bytes));
  if (!problem.groupOffsets.empty()) {
    if (problem.groupOffsets.size() != problem.groups + 1)
      errors.push_back(
          "grouped problem: " + std::to_string(problem.groupOffsets.size()) +
          " offsets for " + std::to_string(problem.groups) +
          " groups (G + 1 are needed)");
    for (std::string &error :
         grouped::checkGroupOffsets(problem.groupOffsets, problem.m))
      errors.push_back(std::move(error));
  }
}

/// One matrix as the caller holds it and as the kernel sees it.
struct PlannedMatrix {
  MatrixPlan user, kernel;
  bool staged = false;
};

PlannedMatrix planMatrix(Tensor tensor, DType dtype, Layout layout,
                         uint64_t rows, uint64_t columns, uint64_t batch,
                         uint32_t alignBytes, UnalignedPolicy policy,
                         std::optional<uint64_t> givenLd, bool realign,
                         std::vector<std::string> &errors) {
  MatrixPlan packed;
  packed.tensor = tensor;
  packed.dtype = dtype;
  packed.layout = layout;
  bool transposed = packed.transposed();
  uint64_t outer = transposed ? columns : rows;
  uint64_t inner = transposed ? rows : columns;
  packed.outer = outer;
  packed.inner = inner;
  packed.batch = batch;
  packed.ld = inner;
  packed.batchStride = outer * inner;
  uint64_t bytes = elementBytes(dtype);
  if (givenLd) {
    // The caller's matrix as it is, rows *givenLd apart: nothing to stage or
    // pad, only the rules to check.
    MatrixPlan given = packed;
    given.ld = *givenLd;
    given.batchStride = outer * given.ld;
    if (given.ld < inner)
      errors.push_back(tensorName(tensor) + ": leading dimension " +
                       std::to_string(given.ld) +
                       " is smaller than its rows of " + std::to_string(inner) +
                       " elements");
    else if (given.ld * bytes % alignBytes != 0)
      errors.push_back(
          tensorName(tensor) + ": leading dimension " +
          std::to_string(given.ld) + " x " + std::string(toString(dtype)) +
          " = " + std::to_string(given.ld * bytes) +
          " bytes is not a multiple of " + std::to_string(alignBytes) +
          " bytes (TMA rule: global strides are 16-byte "
          "multiples): copy it into rows of a multiple of " +
          std::to_string(alignBytes) + " bytes");
    return {given, given, false};
  }
  if (inner * bytes % alignBytes == 0 &&
      !(realign && policy == UnalignedPolicy::Stage &&
        inner * bytes % StagingRowAlignmentBytes != 0))
    return {packed, packed, false};

  // Rows rounded up to `rowAlign` bytes (a multiple of the element size: both
  // alignments are powers of two >= 16).
  auto withRowsAlignedTo = [&](uint64_t rowAlign) {
    MatrixPlan padded = packed;
    padded.ld = roundUp(inner * bytes, rowAlign) / bytes;
    padded.batchStride = outer * padded.ld;
    padded.padded = true;
    return padded;
  };
  switch (policy) {
  case UnalignedPolicy::Pad: {
    MatrixPlan padded = withRowsAlignedTo(alignBytes);
    return {padded, padded, false};
  }
  case UnalignedPolicy::Stage:
    return {packed,
            withRowsAlignedTo(
                std::max<uint64_t>(alignBytes, StagingRowAlignmentBytes)),
            true};
  case UnalignedPolicy::Reject:
    break;
  }
  errors.push_back(
      tensorName(tensor) + ": leading dimension " + std::to_string(inner) +
      " x " + std::string(toString(dtype)) + " = " +
      std::to_string(inner * bytes) + " bytes is not a multiple of " +
      std::to_string(alignBytes) +
      " bytes (TMA rule: global strides are 16-byte multiples; the kernel's "
      "leading_dim_alignment_bytes is " +
      std::to_string(alignBytes) +
      "); rerun with --unaligned stage to copy it through an aligned scratch "
      "buffer around each launch, or --unaligned pad to allocate rows padded "
      "to " +
      std::to_string(alignBytes) + " bytes");
  return {packed, packed, false};
}

/// The batch stride of a matrix: the caller's (checked: 16-byte multiple,
/// C's entries disjoint) or packed.
void planBatchStride(MatrixPlan &m, std::optional<uint64_t> given,
                     std::vector<std::string> &errors) {
  m.batchStride = m.outer * m.ld;
  if (!given || m.batch == 1)
    return;
  uint64_t stride = *given;
  uint64_t bytes = elementBytes(m.dtype);
  std::string what = tensorName(m.tensor) + ": batch stride " +
                     std::to_string(stride) + " elements";
  if (stride * bytes % 16 != 0) {
    errors.push_back(what + " = " + std::to_string(stride * bytes) +
                     " bytes is not a multiple of 16 bytes (TMA rule: "
                     "global strides are 16-byte multiples)");
    return;
  }
  if (m.tensor == Tensor::C) {
    // Each entry spans (outer - 1) ld + inner elements; they are disjoint
    // when one starts after the previous ends, or when every row holds the
    // rows of all entries side by side (an interleaved [outer, batch,
    // inner] view).
    uint64_t extent = (m.outer - 1) * m.ld + m.inner;
    bool blocked = stride >= extent;
    bool interleaved =
        stride >= m.inner && (m.batch - 1) * stride + m.inner <= m.ld;
    if (!blocked && !interleaved) {
      errors.push_back(
          what + " makes the " + std::to_string(m.batch) +
          " entries of C overlap (each spans " + std::to_string(extent) +
          " elements: " + std::to_string(m.outer) + " rows of " +
          std::to_string(m.inner) + ", " + std::to_string(m.ld) +
          " apart); C needs a stride of at least " + std::to_string(extent) +
          (stride == 0 ? " (0 would make every entry write the same C)" : ""));
      return;
    }
  }
  m.batchStride = stride;
}

TmaPlan planTma(size_t paramIndex, const TmaDescriptorParam &param,
                const MatrixPlan &matrix, bool batched) {
  // (A grouped kernel's B is batched: one entry per group.)
  TmaPlan plan;
  plan.paramIndex = paramIndex;
  plan.tensor = param.tensor;
  plan.dtype = matrix.dtype;
  plan.rank = batched ? 3 : 2;
  // A broadcast matrix (batch stride 0) is one entry, which the kernel reads
  // at batch coordinate 0 (a stride of 0 is no TMA stride); its stride is
  // then never used, and is given the packed one.
  plan.globalDim = {matrix.inner, matrix.outer, matrix.storedBatches()};
  uint64_t batchStride =
      matrix.batchStride ? matrix.batchStride : matrix.outer * matrix.ld;
  plan.globalStrides = {matrix.ldBytes(),
                        batchStride * elementBytes(matrix.dtype)};
  plan.box = {param.box[0], param.box[1], 1};
  plan.swizzle = param.swizzle;
  plan.interleave = param.interleave;
  plan.l2Promotion = param.l2Promotion;
  // Rows that are not 128-byte multiples put each box row across two L2
  // lines, and a miss promoted to 256 bytes fetches a third. 128-byte
  // promotion read rows off the 32-byte sectors 1.03-1.23x faster on the
  // H200, and rows on them as fast (bench/results/2026-11-29-h200-realign/).
  if (plan.tensor != Tensor::C && plan.l2Promotion == L2Promotion::B256 &&
      matrix.ldBytes() % StagingRowAlignmentBytes != 0)
    plan.l2Promotion = L2Promotion::B128;
  plan.oobFill = param.oobFill;
  return plan;
}

} // namespace

ScalePlan planScale(size_t paramIndex, const Param &param,
                    const Problem &problem) {
  ScalePlan plan;
  plan.paramIndex = paramIndex;
  if (param.kind == ParamKind::Amax) {
    plan.amax = true;
    plan.tensor = Tensor::C;
    return plan;
  }
  plan.tensor = param.scale.tensor;
  plan.granularity = param.scale.granularity;
  uint64_t kBlocks = ceilDiv(problem.k, 128);
  switch (plan.granularity) {
  case ScaleGranularity::Tensor:
    break;
  case ScaleGranularity::Row:
    plan.rows = problem.m;
    break;
  case ScaleGranularity::Col:
    plan.cols = problem.n;
    break;
  case ScaleGranularity::Block:
    if (plan.tensor == Tensor::A) {
      plan.rows = kBlocks;
      plan.cols = problem.m;
    } else {
      plan.rows = ceilDiv(problem.n, 128);
      plan.cols = kBlocks;
    }
    break;
  }
  return plan;
}

std::string ScalePlan::describe() const {
  std::string shape = std::to_string(rows) + " x " + std::to_string(cols) +
                      " f32 (" + std::to_string(bytes()) + " bytes)";
  if (amax)
    return "amax: " + shape + ", zeroed before each launch";
  return "scale of " + std::string(toString(tensor)) + " (" +
         std::string(toString(granularity)) + "): " + shape;
}

std::string_view toString(RealignPolicy policy) {
  switch (policy) {
  case RealignPolicy::Auto:
    return "auto";
  case RealignPolicy::Always:
    return "always";
  case RealignPolicy::Never:
    return "never";
  }
  return "auto";
}

std::optional<RealignPolicy> parseRealignPolicy(std::string_view text) {
  for (RealignPolicy p :
       {RealignPolicy::Auto, RealignPolicy::Always, RealignPolicy::Never})
    if (toString(p) == text)
      return p;
  return std::nullopt;
}

namespace {
dispatch::StagingShape shapeOf(const Problem &problem) {
  return {problem.m, problem.n, problem.k, problem.batch};
}
} // namespace

bool realignPays(Tensor tensor, const Problem &problem, uint64_t ldBytes,
                 RealignPolicy policy) {
  return dispatch::realignPays(tensor, shapeOf(problem), ldBytes, policy);
}

bool stagedForTma(Tensor tensor, const Problem &problem, DType dtype,
                  uint64_t ld, uint64_t address, RealignPolicy realign) {
  return dispatch::stagedForTma(tensor, shapeOf(problem), dtype, ld, address,
                                realign);
}

double Problem::flops() const {
  if (!groupSizes.empty()) {
    double total = 0;
    for (const general::GroupSize &s : groupSizes)
      total += 2.0 * double(s.m) * double(s.n) * double(s.k);
    return total;
  }
  double rows = double(m);
  if (groups && groupOffsets.size() == groups + 1)
    rows = double(groupOffsets.back() - groupOffsets.front());
  return 2.0 * rows * double(n) * double(k) * double(batch);
}

std::string Problem::toString() const {
  if (!groupSizes.empty())
    return "general groups=" + std::to_string(groups);
  std::string text = "m=" + std::to_string(m) + " n=" + std::to_string(n) +
                     " k=" + std::to_string(k);
  if (batch != 1)
    text += " batch=" + std::to_string(batch);
  if (groups)
    text += " groups=" + std::to_string(groups);
  return text;
}

std::string_view toString(UnalignedPolicy policy) {
  switch (policy) {
  case UnalignedPolicy::Stage:
    return "stage";
  case UnalignedPolicy::Pad:
    return "pad";
  case UnalignedPolicy::Reject:
    return "reject";
  }
  return "stage";
}

std::optional<UnalignedPolicy> parseUnalignedPolicy(std::string_view text) {
  for (UnalignedPolicy policy :
       {UnalignedPolicy::Stage, UnalignedPolicy::Pad, UnalignedPolicy::Reject})
    if (text == toString(policy))
      return policy;
  return std::nullopt;
}

bool LaunchPlan::padded() const {
  return std::any_of(matrices.begin(), matrices.end(),
                     [](const MatrixPlan &m) { return m.padded; });
}

bool LaunchPlan::anyStaged() const {
  return std::any_of(staged.begin(), staged.end(), [](bool s) { return s; });
}

std::vector<std::string> LaunchPlan::stagedTensors() const {
  std::vector<std::string> names;
  for (const MatrixPlan &m : kernelMatrices)
    if (isStaged(m.tensor))
      names.emplace_back(toString(m.tensor));
  return names;
}

uint64_t LaunchPlan::stagingBytes() const {
  uint64_t total = 0;
  for (const MatrixPlan &m : kernelMatrices)
    if (isStaged(m.tensor))
      total += m.bytes();
  return total;
}

std::string LaunchPlan::configString() const {
  return "grid " + list(grid) + " block " + list(block) + " cluster " +
         list(cluster) + " smem " + std::to_string(dynamicSmemBytes);
}

void checkRunnerSupports(const KernelManifest &manifest) {
  std::vector<std::string> errors;
  DType c = manifest.types.c;
  if (c != DType::BF16 && c != DType::F16 && c != DType::F32 && !isFp8(c) &&
      c != DType::S32)
    errors.push_back("types.c: output dtype " + std::string(toString(c)) +
                     " is not supported by this runner yet (bf16, f16, f32, "
                     "e4m3, e5m2, s32)");
  // WGMMA transposes only 16-bit operands; the runner's dequantised
  // references read 8-bit and f32 operands K-major too.
  if (elementBytes(manifest.types.a) != 2 &&
      (manifest.layouts.a != Layout::Row || manifest.layouts.b != Layout::Col))
    errors.push_back(
        "layouts: a(" + std::string(toString(manifest.layouts.a)) + ") b(" +
        std::string(toString(manifest.layouts.b)) + ") with " +
        std::string(toString(manifest.types.a)) +
        " inputs: 8-bit and f32 (tf32) A and B must be K-major (a row, b col)");
  if (isFp8(c) && manifest.layouts.c != Layout::Row)
    errors.push_back("layouts: c(col) with an fp8 output is not supported "
                     "(fp8 C is row-major)");
  if (manifest.cluster[1] != 1 || manifest.cluster[2] != 1)
    errors.push_back("cluster: " + list(manifest.cluster) +
                     " is not supported by this runner yet (it launches 1-D "
                     "grids: clusters along x only)");
  throwIfAny(ErrorKind::Bundle, errors);
}

uint32_t persistentGridSize(uint64_t tiles, uint32_t capacity,
                            uint32_t clusterSize) {
  uint64_t fits = capacity / clusterSize * clusterSize;
  return static_cast<uint32_t>(std::min(roundUp(tiles, clusterSize), fits));
}

namespace {

/// A general grouped kernel's plan: the G groups' records are the caller's
/// device array, so the host plans the table, the tensor-map templates and
/// the grid; with the sizes known (the runner) also the buffers and a grid
/// of no more CTAs than units.
LaunchPlan planGeneralLaunch(const KernelManifest &manifest,
                             const Problem &problem,
                             const PlanOptions &options) {
  std::vector<std::string> errors;
  checkGroupCount(manifest, problem, MaxGeneralGroups,
                  "general grouped problem", "general grouped", errors);
  if (problem.m || problem.n || problem.k || !problem.groupOffsets.empty())
    errors.push_back("general grouped kernel " + manifest.kernel +
                     " takes each group's M, N, K from its records "
                     "(--group-problems), not --m/--n/--k or --groups");
  const std::vector<general::GroupSize> &sizes = problem.groupSizes;
  if (!sizes.empty() && sizes.size() != problem.groups)
    errors.push_back(
        "general grouped problem: " + std::to_string(sizes.size()) +
        " group sizes for " + std::to_string(problem.groups) + " groups");
  throwIfAny(ErrorKind::Usage, errors);

  LaunchPlan plan;
  plan.problem = problem;
  plan.general = true;
  const TensorTypes &types = manifest.types;
  plan.groupLayouts.aColumns = manifest.layouts.a == Layout::Col;
  plan.groupLayouts.bRows = manifest.layouts.b == Layout::Row;
  plan.groupLayouts.cColumns = manifest.layouts.c == Layout::Col;
  plan.groupLayouts.inputBytes = elementBytes(types.a);
  plan.groupLayouts.outputBytes = elementBytes(types.c);
  plan.tile = manifest.tile;
  plan.block = manifest.block;
  plan.cluster = manifest.cluster;
  plan.dynamicSmemBytes = manifest.dynamicSmemBytes;
  plan.policy = manifest.grid;
  plan.clusterTiles = manifest.clusterTileShape();
  plan.groupUnitRows = manifest.tile[0] * plan.clusterTiles[0];
  plan.groupUnitCols = manifest.tile[1] * plan.clusterTiles[1];
  plan.groupTableBytes = general::tableBytes(problem.groups);
  uint32_t clusterSize = manifest.cluster[0];

  // Without the sizes the grid is every co-resident cluster.
  uint64_t units = std::numeric_limits<uint32_t>::max();
  if (!sizes.empty()) {
    units = 0;
    for (const general::GroupSize &s : sizes) {
      general::GroupProblem p;
      p.m = int32_t(s.m);
      p.n = int32_t(s.n);
      units += general::unitsOf(p, plan.groupUnitRows, plan.groupUnitCols);
    }
    plan.groupPacking =
        general::packGroups(sizes, plan.groupLayouts, /*padInputs=*/true);
    // The records' rules that depend on the sizes alone (the addresses
    // here stand for any aligned ones), unless the prep kernel is to find
    // them (--group-checks device).
    if (!problem.groupChecksOnDevice) {
      std::vector<general::GroupProblem> records = general::groupRecords(
          sizes, plan.groupPacking, plan.groupLayouts, uint64_t(1) << 40,
          uint64_t(2) << 40, uint64_t(3) << 40);
      for (std::string &error :
           general::checkGroups(records, plan.groupLayouts))
        errors.push_back(std::move(error));
      throwIfAny(ErrorKind::Usage, errors);
    }
    const Layout stored[3] = {Layout::Row, Layout::Col, Layout::Row};
    const DType dtypes[3] = {types.a, types.b, types.c};
    for (size_t t = 0; t < 3; ++t) {
      // All groups' matrices of one operand as one line of elements
      // (allocated, filled and compared whole; the groups' views are the
      // packing's).
      MatrixPlan &m = plan.matrices[t];
      m.tensor = static_cast<Tensor>(t);
      m.dtype = dtypes[t];
      m.layout = stored[t];
      m.outer = 1;
      m.inner = std::max<uint64_t>(plan.groupPacking.elements[t], 8);
      m.ld = m.inner;
      plan.kernelMatrices[t] = m;
    }
  }
  plan.clusterUnits = units;
  plan.tiles = units * clusterSize;

  for (size_t i = 0; i < manifest.params.size(); ++i) {
    const Param &param = manifest.params[i];
    KernelArg arg;
    arg.kind = param.kind;
    if (param.kind == ParamKind::TmaDescriptor) {
      // The template of the groups' maps: the box as the extent, lines of
      // the box rounded up to 16 bytes. The prep kernel sets each group's
      // address, extent and stride.
      TmaPlan tma;
      tma.paramIndex = i;
      tma.tensor = param.tma.tensor;
      tma.dtype = param.tma.tensor == Tensor::A   ? types.a
                  : param.tma.tensor == Tensor::B ? types.b
                                                  : types.c;
      tma.rank = 2;
      tma.globalDim = {param.tma.box[0], param.tma.box[1], 1};
      tma.globalStrides = {
          roundUp(uint64_t(param.tma.box[0]) * elementBytes(tma.dtype), 16), 0};
      tma.box = {param.tma.box[0], param.tma.box[1], 1};
      tma.swizzle = param.tma.swizzle;
      tma.interleave = param.tma.interleave;
      tma.l2Promotion = param.tma.l2Promotion;
      tma.oobFill = param.tma.oobFill;
      for (std::string &error : checkTmaPlan(tma))
        errors.push_back(std::move(error));
      arg.tmaIndex = plan.tma.size();
      plan.tma.push_back(tma);
    } else if (param.kind == ParamKind::ProblemSize) {
      arg.dim = param.dim;
      arg.value = param.dim == ProblemDim::Groups
                      ? static_cast<uint32_t>(problem.groups)
                      : 0;
    } else if (param.kind != ParamKind::GroupProblemTable) {
      errors.push_back("general grouped kernel " + manifest.kernel +
                       ": parameter " + std::to_string(i) + " (" +
                       std::string(toString(param.kind)) +
                       ") is not one such a kernel takes");
    }
    plan.args.push_back(arg);
  }
  throwIfAny(ErrorKind::Usage, errors);
  uint64_t gridX = std::min<uint64_t>(units, MaxProblemDim) * clusterSize;
  if (plan.policy == GridPolicy::Persistent) {
    plan.persistentCtaCapacity = options.persistentCtaCapacity;
    // At least one cluster, even when every group is empty (the kernel then
    // finds no unit).
    gridX = persistentGridSize(std::max<uint64_t>(gridX, clusterSize),
                               options.persistentCtaCapacity, clusterSize);
    if (gridX == 0)
      throw Error(ErrorKind::Usage,
                  "persistent grid: not one cluster of " +
                      std::to_string(clusterSize) + " CTAs fits on the GPU (" +
                      std::to_string(options.persistentCtaCapacity) +
                      " co-resident CTAs)");
  }
  plan.grid = {static_cast<uint32_t>(gridX), 1, 1};
  return plan;
}

} // namespace

LaunchPlan planLaunch(const KernelManifest &manifest, const Problem &problem,
                      const PlanOptions &options) {
  if (manifest.hasGeneralGroups())
    return planGeneralLaunch(manifest, problem, options);
  std::vector<std::string> errors;
  checkProblem(manifest, problem, errors);
  bool grouped = manifest.hasGroups();
  if (!problem.groupSizes.empty())
    errors.push_back("kernel " + manifest.kernel +
                     " is not a general grouped kernel (no "
                     "group_problem_table): --group-problems needs a kernel "
                     "built from gemm.matmul ... grouped(general)");
  if (grouped)
    checkGroupedProblem(manifest, problem, errors);
  else if (problem.groups)
    errors.push_back("kernel " + manifest.kernel +
                     " is not grouped (no problem_size groups): a grouped "
                     "problem needs a kernel built from gemm.matmul ... "
                     "grouped");
  throwIfAny(ErrorKind::Usage, errors);

  LaunchPlan plan;
  plan.problem = problem;
  const TensorTypes &types = manifest.types;
  uint32_t align = manifest.constraints.leadingDimAlignmentBytes;
  plan.unaligned = options.unaligned;
  plan.realign = options.realign;
  const TensorLayouts &layouts = manifest.layouts;
  // Whether an operand's stored rows (K long when K-major, M or N long when
  // MN-major) are worth realigning into 128-byte rows. Only rows read
  // through TMA straddle L2 lines; a kernel that takes the tensor as a
  // pointer reads it as it is.
  auto realign = [&](Tensor t, DType type, Layout layout, uint64_t rows,
                     uint64_t columns) {
    MatrixPlan stored;
    stored.tensor = t;
    stored.layout = layout;
    uint64_t inner = stored.transposed() ? rows : columns;
    return manifest.tmaDescriptorFor(t) && !grouped &&
           realignPays(t, problem, inner * elementBytes(type), options.realign);
  };
  // A grouped kernel's B has one entry per group; A and C hold the rows of
  // all groups.
  uint64_t batchB = grouped ? problem.groups : problem.batch;
  const PlannedMatrix planned[] = {
      planMatrix(
          Tensor::A, types.a, layouts.a, problem.m, problem.k, problem.batch,
          align, options.unaligned, options.leadingDims[0],
          realign(Tensor::A, types.a, layouts.a, problem.m, problem.k), errors),
      planMatrix(Tensor::B, types.b, layouts.b, problem.n, problem.k, batchB,
                 align, options.unaligned, options.leadingDims[1],
                 realign(Tensor::B, types.b, layouts.b, problem.n, problem.k),
                 errors),
      planMatrix(Tensor::C, types.c, layouts.c, problem.m, problem.n,
                 problem.batch, align, options.unaligned,
                 options.leadingDims[2], false, errors)};
  throwIfAny(ErrorKind::Usage, errors);
  for (size_t i = 0; i < 3; ++i) {
    plan.matrices[i] = planned[i].user;
    plan.kernelMatrices[i] = planned[i].kernel;
    plan.staged[i] = planned[i].staged;
    if (options.batchStrides[i] && planned[i].staged)
      errors.push_back(tensorName(plan.matrices[i].tensor) +
                       ": a batch stride with a staged matrix (its aligned "
                       "scratch copy has packed entries): give an aligned "
                       "leading dimension");
    planBatchStride(plan.matrices[i], options.batchStrides[i], errors);
    if (!planned[i].staged)
      plan.kernelMatrices[i] = plan.matrices[i];
  }
  throwIfAny(ErrorKind::Usage, errors);

  plan.tile = manifest.tile;
  plan.block = manifest.block;
  plan.cluster = manifest.cluster;
  plan.dynamicSmemBytes = manifest.dynamicSmemBytes;
  plan.policy = manifest.grid;
  uint64_t tilesM = ceilDiv(problem.m, manifest.tile[0]);
  uint64_t tilesN = ceilDiv(problem.n, manifest.tile[1]);
  plan.tiles = tilesM * tilesN * problem.batch;
  uint32_t clusterSize = manifest.cluster[0];
  // A cluster works on a block of clusterM x clusterN tiles at a time (the
  // blocks at the edges may stick out of C), so the useful CTAs are whole
  // blocks: one CTA per tile of every block.
  plan.clusterTiles = manifest.clusterTileShape();
  plan.clusterUnits = ceilDiv(tilesM, plan.clusterTiles[0]) *
                      ceilDiv(tilesN, plan.clusterTiles[1]) * problem.batch;
  if (grouped) {
    // The row units are known on the device only: the grid is sized for
    // the most the offsets can give (each group's last unit partial).
    plan.groupUnitRows = manifest.tile[0] * plan.clusterTiles[0];
    uint64_t rowUnits =
        grouped::maxRowUnits(problem.m, problem.groups, plan.groupUnitRows);
    plan.groupTableBytes =
        grouped::tableBytes(problem.m, problem.groups, plan.groupUnitRows);
    plan.clusterUnits = rowUnits * ceilDiv(tilesN, plan.clusterTiles[1]);
    plan.tiles = plan.clusterUnits * clusterSize;
  }
  bool batched = manifest.hasBatch();
  for (size_t i = 0; i < manifest.params.size(); ++i) {
    const Param &param = manifest.params[i];
    KernelArg arg;
    arg.kind = param.kind;
    if (param.kind == ParamKind::Scale || param.kind == ParamKind::Amax) {
      arg.scaleIndex = plan.scales.size();
      plan.scales.push_back(planScale(i, param, problem));
    } else if (param.kind == ParamKind::Workspace) {
      // Sized below, once the grid is known.
      WorkspacePlan workspace;
      workspace.paramIndex = i;
      workspace.zeroInit = param.workspace.zeroInit;
      arg.workspaceIndex = plan.workspaces.size();
      plan.workspaces.push_back(workspace);
    } else if (param.kind == ParamKind::Pointer ||
               param.kind == ParamKind::LeadingDim) {
      arg.tensor = param.tensor;
      arg.leadingDim = plan.kernelMatrix(param.tensor).ld;
      if (param.kind == ParamKind::Pointer && param.tensor != Tensor::C) {
        // The kernel addresses one tile of A (B) in 32-bit offsets from its
        // first element (bundle::Param, ParamKind::Pointer).
        uint64_t rows = manifest.tile[param.tensor == Tensor::A ? 0 : 1];
        uint64_t cols = manifest.tile[2];
        // Stored rows of K (K-major) or of M or N (MN-major).
        bool mnMajor = plan.kernelMatrix(param.tensor).transposed();
        uint64_t reach = mnMajor ? (cols - 1) * arg.leadingDim + rows - 1
                                 : (rows - 1) * arg.leadingDim + cols - 1;
        if (reach >= (uint64_t(1) << 31))
          errors.push_back(
              tensorName(param.tensor) + ": leading dimension " +
              std::to_string(arg.leadingDim) + " is too large for kernel " +
              manifest.kernel + ", which addresses a tile of " +
              std::to_string(rows) + " x " + std::to_string(cols) +
              " elements with 32-bit offsets: the tile spans " +
              std::to_string(reach) +
              " elements, which must be below 2^31; copy the matrix into "
              "packed rows");
      }
    } else if (param.kind == ParamKind::GroupTable) {
      // The caller's buffer of plan.groupTableBytes, given at launch.
    } else if (param.kind == ParamKind::TmaDescriptor) {
      bool entries = grouped ? param.tma.tensor == Tensor::B : batched;
      TmaPlan tma =
          planTma(i, param.tma, plan.kernelMatrix(param.tma.tensor), entries);
      for (std::string &error : checkTmaPlan(tma))
        errors.push_back(std::move(error));
      arg.tmaIndex = plan.tma.size();
      plan.tma.push_back(tma);
    } else {
      arg.dim = param.dim;
      // Bit 0: A, bit 1: B is one matrix read by every batch entry.
      uint64_t broadcast = (plan.matrix(Tensor::A).batchStride == 0 ? 1 : 0) |
                           (plan.matrix(Tensor::B).batchStride == 0 ? 2 : 0);
      uint64_t values[] = {problem.m,     problem.n, problem.k,
                           problem.batch, broadcast, problem.groups};
      arg.value = static_cast<uint32_t>(values[static_cast<size_t>(param.dim)]);
    }
    plan.args.push_back(arg);
  }
  throwIfAny(ErrorKind::Usage, errors);

  // Each tile of a block may be several CTAs' work (split-K ranges).
  plan.workUnitsPerTile = manifest.workUnitsPerTile;
  uint64_t gridX = plan.clusterUnits * clusterSize * plan.workUnitsPerTile;
  if (plan.policy == GridPolicy::Persistent) {
    plan.persistentCtaCapacity = options.persistentCtaCapacity;
    gridX =
        persistentGridSize(gridX, options.persistentCtaCapacity, clusterSize);
    if (gridX == 0)
      throw Error(ErrorKind::Usage,
                  "persistent grid: not one cluster of " +
                      std::to_string(clusterSize) + " CTAs fits on the GPU (" +
                      std::to_string(options.persistentCtaCapacity) +
                      " co-resident CTAs)");
  }
  if (gridX > MaxProblemDim)
    throw Error(ErrorKind::Usage, "grid: " + std::to_string(gridX) + " CTAs (" +
                                      std::to_string(plan.tiles) +
                                      " tiles) exceeds the grid.x limit of " +
                                      std::to_string(MaxProblemDim));
  plan.grid = {static_cast<uint32_t>(gridX), 1, 1};
  // Every CTA of every launched cluster block owns one tile's share, and
  // every CTA of the grid its own.
  for (WorkspacePlan &workspace : plan.workspaces) {
    const WorkspaceParam &param =
        manifest.params[workspace.paramIndex].workspace;
    workspace.bytes = param.bytesPerTile * plan.clusterUnits * clusterSize +
                      param.bytesPerCta * gridX;
  }
  return plan;
}

std::optional<LaunchPlan> tryPlanLaunch(const KernelManifest &manifest,
                                        const Problem &problem,
                                        const PlanOptions &options,
                                        std::string &error) {
  try {
    return planLaunch(manifest, problem, options);
  } catch (const Error &e) {
    error = e.what();
    return std::nullopt;
  }
}

std::vector<std::string> checkTmaPlan(const TmaPlan &plan) {
  std::vector<std::string> errors;
  std::string where = tensorName(plan.tensor) + " (params[" +
                      std::to_string(plan.paramIndex) + "]): ";
  auto fail = [&](const std::string &message) {
    errors.push_back(where + message + " (TMA rule)");
  };
  uint32_t strideAlign = plan.interleave == Interleave::B32 ? 32 : 16;
  if (plan.rank < 1 || plan.rank > 3)
    fail("rank " + std::to_string(plan.rank) + " is not 1..3");
  if (plan.interleave != Interleave::None && plan.rank < 3)
    fail("interleave " + std::string(toString(plan.interleave)) +
         " needs rank >= 3, got rank " + std::to_string(plan.rank));
  for (uint32_t i = 0; i < plan.rank; ++i) {
    std::string dim = "[" + std::to_string(i) + "] = ";
    if (plan.globalDim[i] == 0 || plan.globalDim[i] > MaxTmaGlobalDim)
      fail("globalDim" + dim + std::to_string(plan.globalDim[i]) +
           " must be 1..2^32");
    if (plan.box[i] == 0 || plan.box[i] > MaxTmaBoxDim)
      fail("boxDim" + dim + std::to_string(plan.box[i]) + " must be 1..256");
    if (plan.elementStrides[i] == 0 ||
        plan.elementStrides[i] > MaxTmaElementStride)
      fail("elementStrides" + dim + std::to_string(plan.elementStrides[i]) +
           " must be 1..8");
    if (i + 1 < plan.rank) {
      uint64_t stride = plan.globalStrides[i];
      if (stride % strideAlign != 0)
        fail("globalStrides" + dim + std::to_string(stride) +
             " bytes is not a multiple of " + std::to_string(strideAlign));
      if (stride >= MaxTmaGlobalStride)
        fail("globalStrides" + dim + std::to_string(stride) +
             " bytes must be below 2^40");
    }
  }
  uint32_t innerBytes = plan.box[0] * elementBytes(plan.dtype);
  if (plan.interleave == Interleave::None) {
    if (innerBytes % 16 != 0)
      fail("inner box extent " + std::to_string(plan.box[0]) + " x " +
           std::string(toString(plan.dtype)) + " = " +
           std::to_string(innerBytes) + " bytes is not a multiple of 16 bytes");
    uint32_t span = swizzleSpanBytes(plan.swizzle);
    if (span != 0 && innerBytes > span)
      fail("inner box extent " + std::to_string(innerBytes) +
           " bytes exceeds the " + std::string(toString(plan.swizzle)) +
           " swizzle span of " + std::to_string(span) + " bytes");
  }
  if (plan.interleave == Interleave::B32 && plan.swizzle != Swizzle::B32)
    fail("interleave 32B requires swizzle 32B, got " +
         std::string(toString(plan.swizzle)));
  return errors;
}

std::string describePlan(const LaunchPlan &plan) {
  std::ostringstream out;
  out << "problem: " << plan.problem.toString() << "\n";
  out << "tiles: " << plan.tiles << " of " << plan.tile[0] << "x"
      << plan.tile[1] << "x" << plan.tile[2] << "\n";
  out << "grid: " << list(plan.grid);
  if (plan.policy == GridPolicy::Persistent)
    out << " (persistent: min("
        << plan.clusterUnits * plan.cluster[0] * plan.workUnitsPerTile
        << " CTAs = " << plan.clusterUnits << " blocks of "
        << plan.clusterTiles[0] << "x" << plan.clusterTiles[1] << " tiles"
        << (plan.workUnitsPerTile > 1
                ? " x " + std::to_string(plan.workUnitsPerTile) +
                      " work units per tile"
                : "")
        << ", " << plan.persistentCtaCapacity
        << " co-resident CTAs) in clusters of " << plan.cluster[0] << ")";
  else
    out << " (tiles: " << plan.clusterUnits << " clusters of "
        << plan.cluster[0] << " CTAs, one per " << plan.clusterTiles[0] << "x"
        << plan.clusterTiles[1] << " block of tiles)";
  out << "\n";
  out << "block: " << list(plan.block) << "\n";
  out << "cluster: " << list(plan.cluster) << "\n";
  out << "dynamic smem: " << plan.dynamicSmemBytes << " bytes\n";
  if (plan.general) {
    const std::vector<general::GroupSize> &sizes = plan.problem.groupSizes;
    out << "general groups: " << plan.problem.groups << ", tile units of "
        << plan.groupUnitRows << "x" << plan.groupUnitCols
        << "; the records are a device array of " << plan.problem.groups
        << " x " << sizeof(general::GroupProblem) << " bytes\n";
    // The first groups, as the runner lays them out.
    for (size_t g = 0; g < sizes.size() && g < 16; ++g) {
      general::GroupProblem p;
      p.m = int32_t(sizes[g].m);
      p.n = int32_t(sizes[g].n);
      out << "  group " << g << ": m " << sizes[g].m << " n " << sizes[g].n
          << " k " << sizes[g].k << ", lda " << plan.groupPacking.lds[g][0]
          << " ldb " << plan.groupPacking.lds[g][1] << " ldc "
          << plan.groupPacking.lds[g][2] << ", "
          << general::unitsOf(p, plan.groupUnitRows, plan.groupUnitCols)
          << " units\n";
    }
    if (sizes.size() > 16)
      out << "  ... " << sizes.size() - 16 << " more groups\n";
  }
  for (const MatrixPlan &m : plan.matrices) {
    out << tensorName(m.tensor) << ": " << toString(m.dtype) << " ";
    if (m.batch != 1)
      out << m.batch << " x ";
    out << m.outer << " x " << m.inner;
    if (m.transposed()) {
      // The memory's rows, of the matrix's logical columns.
      static const char *const rowsOf[] = {"K rows of M", "K rows of N",
                                           "N rows of M"};
      out << " (" << toString(m.layout) << ": "
          << rowsOf[static_cast<size_t>(m.tensor)] << ")";
    }
    if (m.batch != 1)
      out << ", batch stride " << m.batchStride
          << (m.batchStride == 0 ? " (broadcast: one matrix for every entry)"
                                 : "");
    out << ", ld " << m.ld << " (" << m.ldBytes() << " bytes";
    if (m.padded)
      out << ", padded from " << m.inner;
    out << ")";
    if (plan.isStaged(m.tensor)) {
      const MatrixPlan &k = plan.kernelMatrix(m.tensor);
      out << ", staged: the kernel "
          << (m.tensor == Tensor::C ? "writes" : "reads") << " a copy with ld "
          << k.ld << " (" << k.ldBytes() << " bytes, " << k.bytes()
          << " bytes of scratch)";
    }
    out << "\n";
  }
  if (plan.anyStaged()) {
    std::string inputs;
    for (Tensor t : {Tensor::A, Tensor::B})
      if (plan.isStaged(t))
        inputs += (inputs.empty() ? "" : ", ") + std::string(toString(t));
    out << "staging: " << plan.stagingBytes() << " bytes of scratch";
    if (!inputs.empty())
      out << "; " << inputs << " copied into it before each launch";
    if (plan.isStaged(Tensor::C))
      out << "; c copied out of it after each launch";
    out << "\n";
  }
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const KernelArg &arg = plan.args[i];
    out << "params[" << i << "]: ";
    if (arg.kind == ParamKind::ProblemSize) {
      out << "problem_size " << toString(arg.dim) << " = " << arg.value
          << " (u32)\n";
      continue;
    }
    if (arg.kind == ParamKind::Workspace) {
      const WorkspacePlan &w = plan.workspaces[arg.workspaceIndex];
      out << "workspace: " << w.bytes << " bytes"
          << (w.zeroInit ? ", zeroed once" : "") << "\n";
      continue;
    }
    if (arg.kind == ParamKind::Scale || arg.kind == ParamKind::Amax) {
      out << plan.scales[arg.scaleIndex].describe() << "\n";
      continue;
    }
    if (arg.kind == ParamKind::Pointer) {
      out << "pointer " << toString(arg.tensor) << " (u64 address of "
          << (plan.isStaged(arg.tensor) ? "the staged copy" : "the matrix")
          << ")\n";
      continue;
    }
    if (arg.kind == ParamKind::LeadingDim) {
      out << "leading_dim " << toString(arg.tensor) << " = " << arg.leadingDim
          << " (u64)\n";
      continue;
    }
    if (arg.kind == ParamKind::GroupProblemTable) {
      out << "group_problem_table: " << plan.groupTableBytes
          << " bytes (u64 address; the prep kernel writes each group's tile "
          << "prefix and sizes, then its A, B, C tensor maps, copied from the "
          << "templates below and patched with tensormap.replace, before each "
          << "launch)\n";
      continue;
    }
    if (arg.kind == ParamKind::GroupTable) {
      out << "group_table: " << plan.groupTableBytes << " bytes (u64 address; "
          << "the prep kernel writes it from the device offsets before each "
          << "launch, row units of " << plan.groupUnitRows << " rows)\n";
      continue;
    }
    const TmaPlan &t = plan.tma[arg.tmaIndex];
    out << "tma_descriptor " << toString(t.tensor)
        << (plan.general ? " (template)" : "") << ": "
        << "rank " << t.rank << ", dims " << list(t.globalDim, t.rank)
        << ", strides " << list(t.globalStrides, t.rank - 1) << " bytes, box "
        << list(t.box, t.rank) << ", element strides "
        << list(t.elementStrides, t.rank) << ", swizzle " << toString(t.swizzle)
        << ", interleave " << toString(t.interleave) << ", l2 "
        << toString(t.l2Promotion) << ", oob " << toString(t.oobFill) << "\n";
  }
  return out.str();
}

} // namespace gemm::runtime
