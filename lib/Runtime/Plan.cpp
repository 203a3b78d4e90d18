//===- Plan.cpp - From manifest + problem to a launch plan ----------------===//

#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/Error.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace gemm::runtime {
namespace {

using namespace gemm::bundle;

/// Problem sizes reach the kernel as 32-bit parameters and kernels index with
/// signed 32-bit arithmetic.
constexpr uint64_t MaxProblemDim = std::numeric_limits<int32_t>::max();
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

/// One matrix as the caller holds it and as the kernel sees it.
struct PlannedMatrix {
  MatrixPlan user, kernel;
  bool staged = false;
};

PlannedMatrix planMatrix(Tensor tensor, DType dtype, uint64_t outer,
                         uint64_t inner, uint64_t batch, uint32_t alignBytes,
                         UnalignedPolicy policy,
                         std::optional<uint64_t> givenLd,
                         std::vector<std::string> &errors) {
  MatrixPlan packed;
  packed.tensor = tensor;
  packed.dtype = dtype;
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
  if (inner * bytes % alignBytes == 0)
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

TmaPlan planTma(size_t paramIndex, const TmaDescriptorParam &param,
                const MatrixPlan &matrix, bool batched) {
  TmaPlan plan;
  plan.paramIndex = paramIndex;
  plan.tensor = param.tensor;
  plan.dtype = matrix.dtype;
  plan.rank = batched ? 3 : 2;
  plan.globalDim = {matrix.inner, matrix.outer, matrix.batch};
  plan.globalStrides = {matrix.ldBytes(),
                        matrix.batchStride * elementBytes(matrix.dtype)};
  plan.box = {param.box[0], param.box[1], 1};
  plan.swizzle = param.swizzle;
  plan.interleave = param.interleave;
  plan.l2Promotion = param.l2Promotion;
  plan.oobFill = param.oobFill;
  return plan;
}

} // namespace

double Problem::flops() const {
  return 2.0 * double(m) * double(n) * double(k) * double(batch);
}

std::string Problem::toString() const {
  std::string text = "m=" + std::to_string(m) + " n=" + std::to_string(n) +
                     " k=" + std::to_string(k);
  if (batch != 1)
    text += " batch=" + std::to_string(batch);
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
  const TensorLayouts &l = manifest.layouts;
  if (l.a != Layout::Row || l.b != Layout::Col || l.c != Layout::Row)
    errors.push_back("layouts: a " + std::string(toString(l.a)) + ", b " +
                     std::string(toString(l.b)) + ", c " +
                     std::string(toString(l.c)) +
                     " is not supported by this runner yet (it runs a row, "
                     "b col, c row: A and B K-major)");
  DType c = manifest.types.c;
  if (c != DType::BF16 && c != DType::F16 && c != DType::F32)
    errors.push_back("types.c: output dtype " + std::string(toString(c)) +
                     " is not supported by this runner yet (bf16, f16, f32)");
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

LaunchPlan planLaunch(const KernelManifest &manifest, const Problem &problem,
                      const PlanOptions &options) {
  std::vector<std::string> errors;
  checkProblem(manifest, problem, errors);
  throwIfAny(ErrorKind::Usage, errors);

  LaunchPlan plan;
  plan.problem = problem;
  const TensorTypes &types = manifest.types;
  uint32_t align = manifest.constraints.leadingDimAlignmentBytes;
  plan.unaligned = options.unaligned;
  const PlannedMatrix planned[] = {
      planMatrix(Tensor::A, types.a, problem.m, problem.k, problem.batch, align,
                 options.unaligned, options.leadingDims[0], errors),
      planMatrix(Tensor::B, types.b, problem.n, problem.k, problem.batch, align,
                 options.unaligned, options.leadingDims[1], errors),
      planMatrix(Tensor::C, types.c, problem.m, problem.n, problem.batch, align,
                 options.unaligned, options.leadingDims[2], errors)};
  throwIfAny(ErrorKind::Usage, errors);
  for (size_t i = 0; i < 3; ++i) {
    plan.matrices[i] = planned[i].user;
    plan.kernelMatrices[i] = planned[i].kernel;
    plan.staged[i] = planned[i].staged;
  }

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
  bool batched = manifest.hasBatch();
  for (size_t i = 0; i < manifest.params.size(); ++i) {
    const Param &param = manifest.params[i];
    KernelArg arg;
    arg.kind = param.kind;
    if (param.kind == ParamKind::Workspace) {
      // Sized below, once the grid is known.
      WorkspacePlan workspace;
      workspace.paramIndex = i;
      workspace.zeroInit = param.workspace.zeroInit;
      arg.workspaceIndex = plan.workspaces.size();
      plan.workspaces.push_back(workspace);
    } else if (param.kind == ParamKind::TmaDescriptor) {
      TmaPlan tma =
          planTma(i, param.tma, plan.kernelMatrix(param.tma.tensor), batched);
      for (std::string &error : checkTmaPlan(tma))
        errors.push_back(std::move(error));
      arg.tmaIndex = plan.tma.size();
      plan.tma.push_back(tma);
    } else {
      arg.dim = param.dim;
      uint64_t values[] = {problem.m, problem.n, problem.k, problem.batch};
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
  for (const MatrixPlan &m : plan.matrices) {
    out << tensorName(m.tensor) << ": " << toString(m.dtype) << " ";
    if (m.batch != 1)
      out << m.batch << " x ";
    out << m.outer << " x " << m.inner << ", ld " << m.ld << " (" << m.ldBytes()
        << " bytes";
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
    const TmaPlan &t = plan.tma[arg.tmaIndex];
    out << "tma_descriptor " << toString(t.tensor) << ": "
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
