//===- Runner.cpp - Check and time a kernel bundle on one problem ---------===//

#include "gemm/Runtime/Runner.h"
#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupTable.h"
#include "gemm/Runtime/Launch.h"

#include "gemm/Bundle/TestData.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gemm::runtime {
namespace {

using bundle::DType;

/// Problems up to this many multiply-adds also get the naive reference as a
/// second opinion under ReferenceMode::Auto (about a second at worst).
constexpr double SecondOpinionMacs = double(1 << 30);

/// Our reference kernels may be slow on big problems but do not hang; they
/// get a generous limit of their own.
constexpr std::chrono::milliseconds ReferenceTimeout{300000};

/// The packed f32 matrix references write: C's shape and layout (batch x M
/// x N, or batch x N x M for a column-major C).
MatrixPlan referencePlan(const LaunchPlan &plan) {
  MatrixPlan ref = plan.matrix(Tensor::C);
  ref.dtype = DType::F32;
  ref.ld = ref.inner;
  ref.batchStride = ref.outer * ref.inner;
  ref.padded = false;
  return ref;
}

using bundle::isFp8;
using bundle::isInt8;

/// The scale plan of `tensor` (an input's scale factors, or the output
/// scale for Tensor::C), or null.
const ScalePlan *scaleOf(const LaunchPlan &plan, Tensor tensor) {
  for (const ScalePlan &scale : plan.scales)
    if (!scale.amax && scale.tensor == tensor)
      return &scale;
  return nullptr;
}

/// The root mean square of the log-uniform scales of fillRandomScales over
/// [1/4, 4): sqrt((16 - 1/16) / (8 ln 2)).
constexpr double RandomScaleRms = 1.6956;

/// The output scale the runner gives fp8 outputs: 8 over the expected
/// standard deviation of C (sqrt(K) times the scales of A and B, for
/// standard normal inputs), so that C * scale has a standard deviation of
/// about 8 and its largest values (about 6 standard deviations) stay far
/// below the e4m3 limit of 448.
float runnerOutputScale(const LaunchPlan &plan) {
  double sigma = std::sqrt(double(plan.problem.k));
  for (Tensor t : {Tensor::A, Tensor::B})
    if (scaleOf(plan, t))
      sigma *= RandomScaleRms;
  return float(8.0 / sigma);
}

/// The operands of one problem: fresh A and B from `seed` (random normal, or
/// the simulator's small integers) and
/// an output C, as the caller holds them (what cuBLAS and the references
/// use); aligned scratch copies of the staged ones; the kernel's tensor maps
/// over the scratch copies where staged and the caller's buffers elsewhere;
/// the scale factors (random, log-uniform) and amax the kernel takes.
struct Operands {
  DeviceBuffer a, b, c;
  Staging staging;
  std::vector<CUtensorMap> maps;
  /// The kernel's view of A, B, C: the scratch copies where staged.
  std::array<CUdeviceptr, 3> matrices = {0, 0, 0};
  /// The kernel's workspaces (split-K partial tiles and counters), in
  /// plan.workspaces order, and their addresses for the launch.
  std::vector<DeviceBuffer> workspaces;
  std::vector<CUdeviceptr> workspaceAddresses;
  /// The scale factors and amax, in plan.scales order, and their addresses.
  std::vector<DeviceBuffer> scales;
  std::vector<CUdeviceptr> scaleAddresses;
  /// An fp8 output's output scale (1 otherwise).
  float outputScale = 1.0f;
  /// fp8 inputs accumulated fast (no promotion): cuBLASLt's baseline too.
  bool fastAccumulation = false;
  /// Grouped kernels: the G + 1 offsets (int32, on the device, as a router
  /// would leave them) and the group table the prep kernel writes.
  DeviceBuffer offsets, groupTable;
  /// General grouped kernels: the G group records (on the device, as a
  /// framework would leave them) over the packed A, B, C buffers.
  DeviceBuffer groupProblems;

  Operands(const LaunchPlan &plan, uint64_t seed, CUstream stream,
           InputValues inputs = InputValues::Normal)
      : a(plan.matrix(Tensor::A).bytes(), "tensor a"),
        b(plan.matrix(Tensor::B).bytes(), "tensor b"),
        c(plan.matrix(Tensor::C).bytes(), "tensor c"), staging(plan, stream) {
    auto fill = inputs == InputValues::SmallIntegers ? fillSmallIntegers
                                                     : fillRandomNormal;
    fill(a.get(), plan.matrix(Tensor::A), seed, stream);
    fill(b.get(), plan.matrix(Tensor::B), seed, stream);
    matrices = {staging.kernelAddress(Tensor::A, a.get()),
                staging.kernelAddress(Tensor::B, b.get()),
                staging.kernelAddress(Tensor::C, c.get())};
    maps = encodeTensorMaps(plan, matrices[0], matrices[1], matrices[2]);
    for (const ScalePlan &scale : plan.scales) {
      scales.emplace_back(scale.bytes(), scale.describe());
      scaleAddresses.push_back(scales.back().get());
      if (scale.amax)
        continue;
      if (inputs == InputValues::SmallIntegers) {
        // The simulator's scales (powers of two, gemm/Bundle/TestData.h),
        // the output scale included: C and amax compare bit for bit.
        std::vector<float> values(scale.elements());
        for (uint64_t i = 0; i < values.size(); ++i)
          values[i] = bundle::smallScaleAt(seed, scale.tensor, i);
        checkCu(driver().cuStreamSynchronize(stream), "waiting for the inputs");
        checkCu(driver().cuMemcpyHtoD(scales.back().get(), values.data(),
                                      scale.bytes()),
                "writing the scale factors of " + scale.describe());
        if (scale.tensor == Tensor::C)
          outputScale = values[0];
        continue;
      }
      if (scale.tensor != Tensor::C) {
        fillRandomScales(scales.back().get(), scale, seed, stream);
        continue;
      }
      outputScale = runnerOutputScale(plan);
      uint32_t bits;
      std::memcpy(&bits, &outputScale, sizeof(bits));
      checkCu(driver().cuMemsetD32Async(scales.back().get(), bits, 1, stream),
              "writing the output scale");
    }
    for (const WorkspacePlan &w : plan.workspaces) {
      workspaces.emplace_back(w.bytes, "workspace (params[" +
                                           std::to_string(w.paramIndex) + "])");
      if (w.zeroInit)
        checkCu(driver().cuMemsetD8Async(workspaces.back().get(), 0, w.bytes,
                                         stream),
                "zeroing the workspace of params[" +
                    std::to_string(w.paramIndex) + "]");
      workspaceAddresses.push_back(workspaces.back().get());
    }
    if (plan.general) {
      const std::vector<general::GroupSize> &sizes = plan.problem.groupSizes;
      if (sizes.size() != plan.problem.groups)
        throw Error(ErrorKind::Usage,
                    "general grouped problem: the runner needs the groups' "
                    "sizes on the host (--group-problems)");
      std::vector<general::GroupProblem> records =
          general::groupRecords(sizes, plan.groupPacking, plan.groupLayouts,
                                a.get(), b.get(), c.get());
      if (!plan.problem.groupChecksOnDevice) {
        std::vector<std::string> errors =
            general::checkGroups(records, plan.groupLayouts);
        if (!errors.empty()) {
          std::string message;
          for (const std::string &error : errors)
            message += (message.empty() ? "" : "\n") + error;
          throw Error(ErrorKind::Usage, message);
        }
      }
      uint64_t bytes = records.size() * sizeof(general::GroupProblem);
      groupProblems = DeviceBuffer(bytes, "the group records");
      checkCu(driver().cuMemcpyHtoD(groupProblems.get(), records.data(), bytes),
              "copying the group records to the device");
      groupTable =
          DeviceBuffer(plan.groupTableBytes, "the general group table");
    } else if (plan.groupTableBytes) {
      const std::vector<int64_t> &given = plan.problem.groupOffsets;
      if (given.size() != plan.problem.groups + 1)
        throw Error(ErrorKind::Usage,
                    "grouped problem: the runner needs the G + 1 group "
                    "offsets on the host (--groups)");
      std::vector<int32_t> narrow(given.begin(), given.end());
      offsets =
          DeviceBuffer(narrow.size() * sizeof(int32_t), "the group offsets");
      checkCu(driver().cuMemcpyHtoD(offsets.get(), narrow.data(),
                                    narrow.size() * sizeof(int32_t)),
              "copying the group offsets to the device");
      groupTable = DeviceBuffer(plan.groupTableBytes, "the group table");
    }
  }
};

/// One launch of our kernel: a grouped kernel's prep kernel and kernel,
/// or the kernel.
void launchOurs(const LoadedKernel &kernel, const LaunchPlan &plan,
                const Operands &operands, CUstream stream) {
  if (plan.general)
    launchGeneral(kernel, plan, operands.maps, operands.groupProblems.get(),
                  operands.groupTable.get(), stream);
  else if (plan.groupTableBytes)
    launchGrouped(kernel, plan, operands.maps, operands.matrices,
                  DeviceOffsets{operands.offsets.get()},
                  operands.groupTable.get(), stream);
  else
    launchKernel(kernel, plan, operands.maps, operands.workspaceAddresses,
                 operands.matrices, stream, operands.scaleAddresses);
}

/// One group of a grouped problem: its rows of A and C, its entry of B,
/// as matrices of their own and their addresses in the whole ones.
struct GroupView {
  MatrixPlan a, b, c;
  CUdeviceptr aAt = 0, bAt = 0, cAt = 0;
  /// Its index among all the problem's groups.
  size_t group = 0;
};

/// The non-empty groups of `plan` (grouped), for `c`'s plan and address
/// (the kernel's output, or a packed f32 reference of C's shape).
std::vector<GroupView> groupViews(const LaunchPlan &plan, CUdeviceptr a,
                                  CUdeviceptr b, const MatrixPlan &c,
                                  CUdeviceptr cAddress) {
  std::vector<GroupView> views;
  const std::vector<int64_t> &offsets = plan.problem.groupOffsets;
  const MatrixPlan &aPlan = plan.matrix(Tensor::A);
  const MatrixPlan &bPlan = plan.matrix(Tensor::B);
  for (uint64_t g = 0; g + 1 < offsets.size(); ++g) {
    uint64_t rows = uint64_t(offsets[g + 1] - offsets[g]);
    if (rows == 0)
      continue;
    GroupView v;
    v.a = aPlan;
    v.a.outer = rows;
    v.a.batchStride = rows * v.a.ld;
    v.b = bPlan;
    v.b.batch = 1;
    v.c = c;
    v.c.outer = rows;
    v.c.batchStride = rows * v.c.ld;
    uint64_t first = uint64_t(offsets[g]);
    v.aAt = a + first * aPlan.ldBytes();
    v.bAt = b + g * bPlan.batchStride * bundle::elementBytes(bPlan.dtype);
    v.cAt = cAddress + first * c.ldBytes();
    views.push_back(v);
  }
  return views;
}

/// The groups with tiles of a general grouped problem: their A, B, C as
/// matrices of their own at their addresses in the packed buffers at `a`,
/// `b` and `c`, or, with `reference`, C as a packed f32 matrix in a buffer
/// of all groups' references one after the other (referenceElements).
std::vector<GroupView> generalViews(const LaunchPlan &plan, CUdeviceptr a,
                                    CUdeviceptr b, CUdeviceptr c,
                                    bool reference) {
  std::vector<GroupView> views;
  const std::vector<general::GroupSize> &sizes = plan.problem.groupSizes;
  const general::GroupPacking &packing = plan.groupPacking;
  uint64_t referenceAt = 0;
  for (size_t g = 0; g < sizes.size(); ++g) {
    general::GroupProblem p;
    p.m = int32_t(sizes[g].m);
    p.n = int32_t(sizes[g].n);
    p.k = int32_t(sizes[g].k);
    if (!general::hasTiles(p))
      continue;
    GroupView v;
    v.group = g;
    MatrixPlan *views3[3] = {&v.a, &v.b, &v.c};
    for (int which = 0; which < 3; ++which) {
      general::Extent e = general::extentOf(p, plan.groupLayouts, which);
      MatrixPlan &m = *views3[which];
      m = plan.matrix(static_cast<Tensor>(which));
      m.layout =
          which == 0
              ? bundle::Layout(plan.groupLayouts.aColumns ? bundle::Layout::Col
                                                          : bundle::Layout::Row)
          : which == 1
              ? bundle::Layout(plan.groupLayouts.bRows ? bundle::Layout::Row
                                                       : bundle::Layout::Col)
              : bundle::Layout(plan.groupLayouts.cColumns
                                   ? bundle::Layout::Col
                                   : bundle::Layout::Row);
      m.outer = e.outer;
      m.inner = e.inner;
      m.ld = packing.lds[g][which];
      m.batch = 1;
      m.batchStride = m.outer * m.ld;
      m.padded = m.ld > m.inner;
    }
    v.aAt = a + packing.offsets[g][0] * plan.groupLayouts.inputBytes;
    v.bAt = b + packing.offsets[g][1] * plan.groupLayouts.inputBytes;
    if (reference) {
      v.c.dtype = DType::F32;
      v.c.ld = v.c.inner;
      v.c.batchStride = v.c.outer * v.c.ld;
      v.c.padded = false;
      v.cAt = c + referenceAt * 4;
      referenceAt += v.c.outer * v.c.inner;
    } else {
      v.cAt = c + packing.offsets[g][2] * plan.groupLayouts.outputBytes;
    }
    views.push_back(v);
  }
  return views;
}

/// Elements of the packed f32 references of every group with tiles.
/// cuBLASLt for one group at its addresses: the groups' matrices are only
/// 16-byte aligned (4-byte for f32 references), below the 256 bytes
/// cuBLASLt's algorithms otherwise assume.
std::unique_ptr<CublasGemm> groupGemm(const CublasLt &lt, const GroupView &v,
                                      std::string &whyNot) {
  CublasOptions options;
  options.addressAlignment = commonAlignment({v.aAt, v.bAt, v.cAt});
  return CublasGemm::create(lt, v.a, v.b, v.c, whyNot, options);
}

uint64_t referenceElements(const LaunchPlan &plan) {
  uint64_t elements = 0;
  for (const general::GroupSize &s : plan.problem.groupSizes)
    if (s.m > 0 && s.n > 0)
      elements += uint64_t(s.m) * uint64_t(s.n);
  return std::max<uint64_t>(elements, 1);
}

/// The statistics of several groups' comparisons as one.
void mergeStats(CompareStats &into, const CompareStats &group,
                uint64_t elementsBefore) {
  if (into.firstBadIndex == UINT64_MAX && group.firstBadIndex != UINT64_MAX)
    into.firstBadIndex = elementsBefore + group.firstBadIndex;
  into.elements += group.elements;
  into.unwritten += group.unwritten;
  into.nonFinite += group.nonFinite;
  into.outOfBoundsWrites += group.outOfBoundsWrites;
  into.referenceNonFinite += group.referenceNonFinite;
  into.errorSquared += group.errorSquared;
  into.referenceSquared += group.referenceSquared;
  into.maxAbsError = std::max(into.maxAbsError, group.maxAbsError);
  into.referenceMaxAbs = std::max(into.referenceMaxAbs, group.referenceMaxAbs);
}

/// Our C of every group against the packed references at `reference`.
CompareStats compareGroups(const LaunchPlan &plan, CUdeviceptr ours,
                           CUdeviceptr reference, CUstream stream) {
  std::vector<GroupView> out = generalViews(plan, 0, 0, ours, false);
  std::vector<GroupView> ref = generalViews(plan, 0, 0, reference, true);
  CompareStats total;
  for (size_t i = 0; i < out.size(); ++i)
    mergeStats(total,
               compareToReference(out[i].cAt, out[i].c, ref[i].cAt, stream,
                                  ReferenceTimeout),
               total.elements);
  return total;
}

bool stagesInputs(const LaunchPlan &plan) {
  return plan.isStaged(Tensor::A) || plan.isStaged(Tensor::B);
}

/// The amax buffer of the operands (0 when the kernel writes none).
CUdeviceptr amaxOf(const LaunchPlan &plan, const Operands &operands) {
  for (size_t i = 0; i < plan.scales.size(); ++i)
    if (plan.scales[i].amax)
      return operands.scaleAddresses[i];
  return 0;
}

/// Whether the references multiply dequantised f32 copies of A and B (fp8
/// and 8-bit integer inputs, and inputs with scale factors).
bool dequantizesInputs(const bundle::KernelManifest &manifest) {
  if (isFp8(manifest.types.a) || isInt8(manifest.types.a))
    return true;
  return manifest.scaleFor(Tensor::A) || manifest.scaleFor(Tensor::B);
}

/// A packed f32 matrix of the shape of `m`.
MatrixPlan f32Plan(const MatrixPlan &m) {
  MatrixPlan f32 = m;
  f32.dtype = DType::F32;
  f32.ld = f32.inner;
  f32.batchStride = f32.outer * f32.inner;
  f32.padded = false;
  return f32;
}

/// What cuBLASLt runs beside a kernel (--vs cublas): the same problem in
/// cuBLASLt's nearest form, and a line saying which.
struct CublasBaseline {
  MatrixPlan a, b, d;
  /// amaxD = 1: allocate an amax for cuBLASLt (the caller replaces it).
  CublasOptions options;
  std::string description;
};

CublasBaseline cublasBaseline(const LaunchPlan &plan,
                              const Operands &operands) {
  CublasBaseline baseline{plan.matrix(Tensor::A),
                          plan.matrix(Tensor::B),
                          plan.matrix(Tensor::C),
                          {},
                          ""};
  auto address = [&](const ScalePlan *scale) -> CUdeviceptr {
    return scale ? operands.scaleAddresses[static_cast<size_t>(
                       scale - plan.scales.data())]
                 : 0;
  };
  DType a = baseline.a.dtype;
  std::string types = std::string(bundle::toString(a)) + " x " +
                      std::string(bundle::toString(baseline.b.dtype)) + " -> " +
                      std::string(bundle::toString(baseline.d.dtype));
  if (isFp8(a)) {
    const ScalePlan *sa = scaleOf(plan, Tensor::A);
    const ScalePlan *sb = scaleOf(plan, Tensor::B);
    auto granularity = [](const ScalePlan *scale) {
      return scale ? scale->granularity : bundle::ScaleGranularity::Tensor;
    };
    bool outer = granularity(sa) == bundle::ScaleGranularity::Row &&
                 granularity(sb) == bundle::ScaleGranularity::Col;
    bool blockwise = granularity(sa) == bundle::ScaleGranularity::Block;
    CublasOptions &o = baseline.options;
    o.outerVectors = outer;
    o.fastAccum = operands.fastAccumulation;
    std::string scales = "unscaled";
    if (outer) {
      o.scaleA = address(sa);
      o.scaleB = address(sb);
      scales = "row/column scales (outer vectors)";
    } else if (!blockwise) {
      if (granularity(sa) == bundle::ScaleGranularity::Tensor)
        o.scaleA = address(sa);
      if (granularity(sb) == bundle::ScaleGranularity::Tensor)
        o.scaleB = address(sb);
      scales = o.scaleA || o.scaleB ? "per-tensor scales" : "unscaled";
      if (granularity(sa) == bundle::ScaleGranularity::Row ||
          granularity(sb) == bundle::ScaleGranularity::Col)
        scales += " (cuBLASLt has no one-sided row/column scales: those "
                  "left out)";
    } else {
      scales = "per-tensor scales (block-wise scales are compared with our "
               "own per-tensor kernel)";
    }
    if (isFp8(baseline.d.dtype)) {
      o.scaleD = address(scaleOf(plan, Tensor::C));
      o.amaxD = 1;
    }
    baseline.description =
        "cuBLASLt fp8 " + types + ", " + scales +
        (o.fastAccum ? ", fast accumulation" : ", promoted accumulation");
  } else if (isInt8(a)) {
    // cuBLASLt's IMMA: s8 x s8 -> s32 (same bytes, same work).
    baseline.a.dtype = baseline.b.dtype = DType::S8;
    baseline.d.dtype = DType::S32;
    baseline.d.ld = baseline.d.inner;
    baseline.d.batchStride = baseline.d.outer * baseline.d.inner;
    baseline.d.padded = false;
    baseline.description = "cuBLASLt IMMA s8 x s8 -> s32 (for " + types + ")";
  } else if (a == DType::F32) {
    baseline.options.tf32 = true;
    baseline.description =
        "cuBLASLt tf32 (CUBLAS_COMPUTE_32F_FAST_TF32) " + types;
  } else {
    baseline.description = "cuBLASLt " + types;
  }
  return baseline;
}

} // namespace

double outputTolerance(DType c) {
  switch (c) {
  case DType::BF16:
    return 1e-2;
  case DType::F16:
    return 5e-3;
  case DType::E4M3:
    // Rounding to 4 significant bits: relative error at most 2^-4.
    return 0x1p-4;
  case DType::E5M2:
    // 3 significant bits: at most 2^-3.
    return 0x1p-3;
  case DType::S32:
    // Exact sums, against an f32 reference of sums up to ~2^30.
    return 1e-5;
  default:
    return 1e-4;
  }
}

double fp8AccumulationTolerance(uint64_t elements) {
  // Hopper's fp8 WGMMA keeps about 13-14 bits of its sums (DeepSeek-V3
  // measured 14), truncating: over L elements of K the relative error
  // grows like L 2^-14 / 48 (docs/LowPrecision.md); 8x that as margin.
  return double(std::max<uint64_t>(elements, 32)) * 0x1p-14 / 6.0;
}

double defaultTolerance(const bundle::TensorTypes &types, uint64_t k) {
  double tolerance = outputTolerance(types.c);
  // Partial sums promoted every L elements of K carry the error of L
  // elements; fast accumulation that of all K.
  if (isFp8(types.a) && !types.fp8Accumulation)
    // SM100: tcgen05 accumulates fp8 products in f32 tensor memory.
    tolerance = std::max(tolerance, 2e-2);
  else if (isFp8(types.a))
    tolerance += fp8AccumulationTolerance(*types.fp8Accumulation ==
                                                  bundle::Fp8Accumulation::Fast
                                              ? (k ? k : 4096)
                                              : types.promoteEveryK);
  // tf32 truncates f32 inputs to 10 mantissa bits: every product shrinks
  // by about 2^-10 on average, coherently.
  else if (types.a == DType::F32)
    tolerance = std::max(tolerance, 5e-3);
  return tolerance;
}

std::string_view toString(BenchTiming timing) {
  return timing == BenchTiming::Call ? "call" : "gpu";
}

std::optional<BenchTiming> parseBenchTiming(std::string_view text) {
  for (BenchTiming timing : {BenchTiming::Gpu, BenchTiming::Call})
    if (text == toString(timing))
      return timing;
  return std::nullopt;
}

TimingStats TimingStats::from(std::vector<float> ms) {
  TimingStats stats;
  stats.ms = ms;
  if (ms.empty())
    return stats;
  std::sort(ms.begin(), ms.end());
  size_t n = ms.size();
  stats.medianMs =
      n % 2 ? ms[n / 2] : 0.5 * (double(ms[n / 2 - 1]) + ms[n / 2]);
  stats.minMs = ms.front();
  stats.maxMs = ms.back();
  return stats;
}

GemmRunner::GemmRunner(const KernelBundle &bundle, const Device &device,
                       RunnerOptions options)
    : bundle(bundle), device(device), options(options),
      loaded(LoadedKernel::load(bundle, device)) {
  if (bundle.manifest.grid == bundle::GridPolicy::Persistent)
    capacity =
        runtime::persistentCtaCapacity(loaded, bundle.manifest, device.info());
}

GemmRunner::~GemmRunner() = default;

const CublasLt &GemmRunner::cublas() {
  if (!lt)
    lt = std::make_unique<CublasLt>();
  return *lt;
}

LaunchPlan GemmRunner::plan(const Problem &problem) const {
  PlanOptions planOptions;
  planOptions.unaligned = options.unaligned;
  planOptions.realign = options.realign;
  planOptions.persistentCtaCapacity = capacity;
  planOptions.batchStrides = options.batchStrides;
  return planLaunch(bundle.manifest, problem, planOptions);
}

CheckResult GemmRunner::check(const LaunchPlan &plan,
                              const CheckOptions &checkOptions) {
  const MatrixPlan &a = plan.matrix(Tensor::A);
  const MatrixPlan &b = plan.matrix(Tensor::B);
  const MatrixPlan &c = plan.matrix(Tensor::C);
  Stream stream;
  Operands operands(plan, checkOptions.seed, stream.get(), checkOptions.inputs);
  auto run = [&](const std::string &which) {
    // Both the caller's C and its scratch copy start as NaN poison: an
    // element the kernel does not write stays poisoned in scratch and is
    // copied out as such, and one the copy out misses stays poisoned in the
    // caller's C.
    poison(operands.c.get(), c.dtype, c.spanElements(), stream.get());
    operands.staging.poisonOutput(stream.get());
    // The amax only ever rises: it starts at 0 for every launch.
    if (CUdeviceptr amax = amaxOf(plan, operands))
      checkCu(driver().cuMemsetD32Async(amax, 0, 1, stream.get()),
              "zeroing the amax");
    // One wait per step, so that a fault names the step.
    if (stagesInputs(plan)) {
      operands.staging.copyIn(operands.a.get(), operands.b.get(), stream.get());
      waitForStream(stream.get(), options.timeout,
                    "the staging copies of the inputs into aligned scratch (" +
                        which + ")");
    }
    launchOurs(loaded, plan, operands, stream.get());
    waitForStream(stream.get(), options.timeout,
                  "kernel " + loaded.name() + " (" + which + ")");
    if (plan.isStaged(Tensor::C)) {
      operands.staging.copyOut(operands.c.get(), stream.get());
      waitForStream(stream.get(), options.timeout,
                    "the staging copy of the output out of aligned scratch (" +
                        which + ")");
    }
  };
  run("check run");
  if (plan.general) {
    std::string refused =
        readGeneralTableError(plan, operands.groupTable.get(), stream.get());
    if (!refused.empty())
      throw Error(ErrorKind::Usage,
                  "the prep kernel refused the group records: " + refused +
                      "; the kernel wrote nothing");
  }

  CheckResult result;
  if (checkOptions.keepOutput) {
    // The caller's C as stored (gemm/Bundle/TestData.h): every entry's
    // rows, packed.
    std::vector<uint8_t> bytes(c.bytes());
    checkCu(driver().cuMemcpyDtoH(bytes.data(), operands.c.get(), bytes.size()),
            "copying C to the host");
    bundle::MatrixDump dump;
    dump.dtype = c.dtype;
    dump.rows = c.batch * c.outer;
    dump.cols = c.inner;
    uint64_t elementBytes = bundle::elementBytes(c.dtype);
    uint64_t rowBytes = c.inner * elementBytes;
    dump.bytes.resize(dump.rows * rowBytes);
    for (uint64_t row = 0; row < dump.rows; ++row)
      std::copy_n(bytes.begin() +
                      (row / c.outer) * c.batchStride * elementBytes +
                      (row % c.outer) * c.ldBytes(),
                  rowBytes, dump.bytes.begin() + row * rowBytes);
    result.output = std::move(dump);
  }
  result.seed = checkOptions.seed;
  uint64_t toleranceK = plan.problem.k;
  for (const general::GroupSize &s : plan.problem.groupSizes)
    toleranceK =
        std::max<uint64_t>(toleranceK, uint64_t(std::max<int64_t>(s.k, 1)));
  result.tolerance = checkOptions.tolerance.value_or(
      defaultTolerance(bundle.manifest.types, toleranceK));

  ReferenceMode mode = checkOptions.reference;
  bool wantCublas = mode != ReferenceMode::Naive;
  bool wantNaive = mode == ReferenceMode::Naive ||
                   mode == ReferenceMode::Both ||
                   (mode == ReferenceMode::Auto &&
                    plan.problem.flops() / 2 <= SecondOpinionMacs);
  MatrixPlan refPlan = referencePlan(plan);
  // Low-precision inputs: both references multiply f32 copies of A and B
  // decoded and multiplied by their scale factors (exact products of fp8
  // or integer values and f32 scales, rounded once to f32), in f32 (cuBLAS,
  // exact f32 arithmetic, no tf32) or f64 (naive).
  const MatrixPlan *refA = &a, *refB = &b;
  CUdeviceptr refAData = operands.a.get(), refBData = operands.b.get();
  MatrixPlan a32, b32;
  DeviceBuffer a32Data, b32Data;
  if (dequantizesInputs(bundle.manifest)) {
    a32 = f32Plan(a);
    b32 = f32Plan(b);
    a32Data = DeviceBuffer(a32.bytes(), "the dequantised copy of A");
    b32Data = DeviceBuffer(b32.bytes(), "the dequantised copy of B");
    auto scaleData = [&](Tensor t) -> CUdeviceptr {
      for (size_t i = 0; i < plan.scales.size(); ++i)
        if (!plan.scales[i].amax && plan.scales[i].tensor == t)
          return operands.scaleAddresses[i];
      return 0;
    };
    dequantize(operands.a.get(), a, scaleOf(plan, Tensor::A),
               scaleData(Tensor::A), a32Data.get(), stream.get());
    dequantize(operands.b.get(), b, scaleOf(plan, Tensor::B),
               scaleData(Tensor::B), b32Data.get(), stream.get());
    waitForStream(stream.get(), ReferenceTimeout,
                  "dequantising the inputs for the references");
    refA = &a32;
    refB = &b32;
    refAData = a32Data.get();
    refBData = b32Data.get();
  }
  double referenceScale = operands.outputScale;
  DeviceBuffer cublasRef, naiveRef;
  if (plan.general) {
    // One reference GEMM per group with tiles, into its packed f32 block;
    // our C compared group by group (padding of C's lines aside).
    uint64_t refBytes = referenceElements(plan) * 4;
    if (wantCublas) {
      cublasRef = DeviceBuffer(refBytes, "the cuBLAS references");
      std::vector<GroupView> views = generalViews(
          plan, operands.a.get(), operands.b.get(), cublasRef.get(), true);
      std::vector<std::unique_ptr<CublasGemm>> gemms;
      std::string whyNot;
      for (size_t i = 0; i < views.size() && whyNot.empty(); ++i) {
        gemms.push_back(groupGemm(cublas(), views[i], whyNot));
        const general::GroupSize &s = plan.problem.groupSizes[views[i].group];
        if (!gemms.back())
          whyNot = "cuBLASLt refuses the reference of group " +
                   std::to_string(views[i].group) + " (m " +
                   std::to_string(s.m) + ", n " + std::to_string(s.n) + ", k " +
                   std::to_string(s.k) + "): " + whyNot;
      }
      if (!whyNot.empty()) {
        if (mode != ReferenceMode::Auto)
          throw Error(ErrorKind::Usage, whyNot + "; use --reference naive");
        result.notes.push_back(whyNot + "; using the naive reference");
        wantCublas = false;
        wantNaive = true;
      } else {
        for (size_t i = 0; i < views.size(); ++i)
          gemms[i]->run(views[i].aAt, views[i].bAt, views[i].cAt, stream.get());
        waitForStream(stream.get(), ReferenceTimeout, "the cuBLAS reference");
        result.comparisons.push_back(
            {"cublas", compareGroups(plan, operands.c.get(), cublasRef.get(),
                                     stream.get())});
      }
    }
    if (wantNaive) {
      naiveRef = DeviceBuffer(refBytes, "the naive references");
      for (const GroupView &v : generalViews(
               plan, operands.a.get(), operands.b.get(), naiveRef.get(), true))
        referenceGemm(v.aAt, v.a, v.bAt, v.b, v.cAt, v.c, stream.get());
      waitForStream(stream.get(), ReferenceTimeout, "the naive reference");
      result.comparisons.push_back(
          {"naive", compareGroups(plan, operands.c.get(), naiveRef.get(),
                                  stream.get())});
    }
    bool anyTiles = !generalViews(plan, 0, 0, 0, true).empty();
    if (wantCublas && wantNaive && anyTiles) {
      MatrixPlan all;
      all.dtype = DType::F32;
      all.outer = 1;
      all.inner = referenceElements(plan);
      all.ld = all.inner;
      all.batchStride = all.inner;
      result.referenceAgreement =
          compareToReference(cublasRef.get(), all, naiveRef.get(), stream.get(),
                             ReferenceTimeout)
              .relativeError();
    }
    wantCublas = wantNaive = false;
  }
  std::unique_ptr<CublasGemm> gemm;
  bool grouped = plan.groupTableBytes != 0 && !plan.general;
  if (wantCublas && !grouped) {
    std::string whyNot;
    gemm = CublasGemm::create(cublas(), *refA, *refB, refPlan, whyNot);
    if (!gemm && mode != ReferenceMode::Auto)
      throw Error(ErrorKind::Usage,
                  "--reference cublas: " + whyNot + "; use --reference naive");
    if (!gemm) {
      result.notes.push_back(whyNot + "; using the naive reference");
      wantNaive = true;
    }
  }

  // Grouped: one reference GEMM per non-empty group, into its rows of the
  // reference; cuBLAS's per group too.
  std::vector<std::unique_ptr<CublasGemm>> groupGemms;
  if (grouped && wantCublas) {
    std::string whyNot;
    cublasRef = DeviceBuffer(refPlan.bytes(), "the cuBLAS reference");
    std::vector<GroupView> views =
        groupViews(plan, refAData, refBData, refPlan, cublasRef.get());
    for (const GroupView &v : views) {
      groupGemms.push_back(groupGemm(cublas(), v, whyNot));
      if (!groupGemms.back())
        throw Error(ErrorKind::Usage, "the cuBLAS reference of a group: " +
                                          whyNot + "; use --reference naive");
    }
    for (size_t i = 0; i < views.size(); ++i)
      groupGemms[i]->run(views[i].aAt, views[i].bAt, views[i].cAt,
                         stream.get());
    waitForStream(stream.get(), ReferenceTimeout, "the cuBLAS reference");
    result.comparisons.push_back(
        {"cublas",
         compareToReference(operands.c.get(), c, cublasRef.get(), stream.get(),
                            ReferenceTimeout, referenceScale)});
  }
  if (grouped && wantNaive) {
    naiveRef = DeviceBuffer(refPlan.bytes(), "the naive reference");
    for (const GroupView &v :
         groupViews(plan, refAData, refBData, refPlan, naiveRef.get()))
      referenceGemm(v.aAt, v.a, v.bAt, v.b, v.cAt, v.c, stream.get());
    waitForStream(stream.get(), ReferenceTimeout, "the naive reference");
    result.comparisons.push_back(
        {"naive",
         compareToReference(operands.c.get(), c, naiveRef.get(), stream.get(),
                            ReferenceTimeout, referenceScale)});
    wantNaive = false;
  }
  if (grouped && !groupGemms.empty() && naiveRef.get()) {
    CompareStats agreement =
        compareToReference(cublasRef.get(), refPlan, naiveRef.get(),
                           stream.get(), ReferenceTimeout);
    result.referenceAgreement = agreement.relativeError();
  }
  if (gemm) {
    cublasRef = DeviceBuffer(refPlan.bytes(), "the cuBLAS reference");
    gemm->run(refAData, refBData, cublasRef.get(), stream.get());
    waitForStream(stream.get(), ReferenceTimeout, "the cuBLAS reference");
    result.comparisons.push_back(
        {"cublas",
         compareToReference(operands.c.get(), c, cublasRef.get(), stream.get(),
                            ReferenceTimeout, referenceScale)});
  }
  if (wantNaive) {
    naiveRef = DeviceBuffer(refPlan.bytes(), "the naive reference");
    referenceGemm(refAData, *refA, refBData, *refB, naiveRef.get(), refPlan,
                  stream.get());
    waitForStream(stream.get(), ReferenceTimeout, "the naive reference");
    result.comparisons.push_back(
        {"naive",
         compareToReference(operands.c.get(), c, naiveRef.get(), stream.get(),
                            ReferenceTimeout, referenceScale)});
  }
  // fp8 outputs: the kernel's amax against the reference's largest
  // |value| before the output scale.
  if (CUdeviceptr amaxData = amaxOf(plan, operands)) {
    float amax = 0;
    checkCu(driver().cuMemcpyDtoH(&amax, amaxData, sizeof(amax)),
            "reading the amax");
    double expected = result.comparisons.front().stats.referenceMaxAbs;
    result.amax = amax;
    result.referenceAmax = expected;
    result.outputScale = referenceScale;
  }
  // A kernel must leave its zeroed workspaces zeroed (split-K counters): a
  // second launch on the same workspaces has to compute C again.
  bool relaunch =
      std::any_of(plan.workspaces.begin(), plan.workspaces.end(),
                  [](const WorkspacePlan &w) { return w.zeroInit; });
  if (relaunch) {
    run("second check run, on the workspaces the first left");
    bool useCublas = static_cast<bool>(gemm);
    result.comparisons.push_back(
        {std::string(useCublas ? "cublas" : "naive") + ", second launch",
         compareToReference(operands.c.get(), c,
                            useCublas ? cublasRef.get() : naiveRef.get(),
                            stream.get(), ReferenceTimeout, referenceScale)});
  }
  if (gemm && wantNaive) {
    CompareStats agreement =
        compareToReference(cublasRef.get(), refPlan, naiveRef.get(),
                           stream.get(), ReferenceTimeout);
    result.referenceAgreement = agreement.relativeError();
  }

  result.passed = true;
  for (const ReferenceComparison &cmp : result.comparisons) {
    const CompareStats &s = cmp.stats;
    if (s.badElements() != 0 || !(s.relativeError() <= result.tolerance))
      result.passed = false;
    if (s.referenceNonFinite)
      result.notes.push_back("the " + cmp.reference + " reference has " +
                             std::to_string(s.referenceNonFinite) +
                             " non-finite values");
  }
  if (result.referenceAgreement &&
      !(*result.referenceAgreement <= ReferenceAgreementTolerance)) {
    result.passed = false;
    result.notes.push_back("the cuBLAS and naive references disagree");
  }
  if (result.amax) {
    double expected = *result.referenceAmax;
    double error =
        std::fabs(*result.amax - expected) / std::max(expected, 1e-30);
    if (!(error <= result.tolerance)) {
      result.passed = false;
      result.notes.push_back("the amax differs from the reference's by " +
                             std::to_string(error) + " (relative)");
    }
  }
  return result;
}

BenchResult GemmRunner::bench(const LaunchPlan &plan,
                              const BenchOptions &benchOptions) {
  Stream stream;
  Operands operands(plan, benchOptions.seed, stream.get());
  operands.fastAccumulation =
      bundle.manifest.types.fp8Accumulation == bundle::Fp8Accumulation::Fast;

  std::unique_ptr<CublasGemm> gemm;
  DeviceBuffer cublasOut, cublasAmax;
  BenchResult result;
  // Grouped: cuBLASLt once per non-empty group, in one loop between the
  // events (CUDA 13's cuBLASLt has no grouped GEMM of device-side sizes).
  std::vector<std::unique_ptr<CublasGemm>> groupGemms;
  std::vector<GroupView> groupCalls;
  bool grouped = plan.groupTableBytes != 0 && !plan.general;
  // General groups likewise, once per group with tiles, each with its own
  // sizes and leading dimensions (our time includes the prep kernel).
  if (benchOptions.vsCublas && (grouped || plan.general)) {
    cublasOut =
        DeviceBuffer(plan.matrix(Tensor::C).bytes(), "the cuBLAS output");
    groupCalls = plan.general
                     ? generalViews(plan, operands.a.get(), operands.b.get(),
                                    cublasOut.get(), false)
                     : groupViews(plan, operands.a.get(), operands.b.get(),
                                  plan.matrix(Tensor::C), cublasOut.get());
    for (const GroupView &v : groupCalls) {
      std::string whyNot;
      groupGemms.push_back(groupGemm(cublas(), v, whyNot));
      if (!groupGemms.back())
        throw Error(ErrorKind::Usage, "--vs cublas (a group): " + whyNot);
    }
    result.cublasBaseline =
        "cuBLASLt " +
        std::string(bundle::toString(plan.matrix(Tensor::A).dtype)) +
        " per group: " + std::to_string(groupCalls.size()) +
        (plan.general ? " calls (the groups with tiles of "
                      : " calls (the non-empty groups of ") +
        std::to_string(plan.problem.groups) +
        (plan.general ? ", each its own M, N, K) in one timed loop"
                      : ") in one timed loop");
  }
  if (benchOptions.vsCublas && !grouped && !plan.general) {
    std::string whyNot;
    CublasBaseline baseline = cublasBaseline(plan, operands);
    if (baseline.options.amaxD == 1) {
      cublasAmax = DeviceBuffer(sizeof(float), "the cuBLAS amax");
      baseline.options.amaxD = cublasAmax.get();
    }
    gemm = CublasGemm::create(cublas(), baseline.a, baseline.b, baseline.d,
                              whyNot, baseline.options);
    if (!gemm)
      throw Error(ErrorKind::Usage, "--vs cublas: " + whyNot);
    cublasOut = DeviceBuffer(baseline.d.bytes(), "the cuBLAS output");
    result.cublasBaseline = baseline.description;
  }
  // Twice the L2, so the flush evicts everything the previous run left.
  DeviceBuffer flush;
  if (benchOptions.coldL2)
    flush = DeviceBuffer(
        std::max<size_t>(2 * size_t(device.info().l2CacheBytes), 64 << 20),
        "the L2 flush buffer");

  const bool staged = operands.staging.any();
  const std::string ours =
      "kernel " + loaded.name() + (staged ? " with its staging copies" : "");
  auto runCublas = [&] {
    if (grouped || plan.general) {
      for (size_t i = 0; i < groupCalls.size(); ++i)
        groupGemms[i]->run(groupCalls[i].aAt, groupCalls[i].bAt,
                           groupCalls[i].cAt, stream.get());
      return;
    }
    gemm->run(operands.a.get(), operands.b.get(), cublasOut.get(),
              stream.get());
  };
  const bool withCublas = gemm || !groupGemms.empty();
  // Our GEMM as the caller sees it: copies into scratch, the kernel, the copy
  // out. `kernelStart` and `kernelStop`, when given, bracket the kernel.
  auto runOurs = [&](Event *kernelStart, Event *kernelStop) {
    operands.staging.copyIn(operands.a.get(), operands.b.get(), stream.get());
    if (kernelStart)
      kernelStart->record(stream.get());
    launchOurs(loaded, plan, operands, stream.get());
    if (kernelStop)
      kernelStop->record(stream.get());
    operands.staging.copyOut(operands.c.get(), stream.get());
  };
  std::optional<StreamGate> gate;
  if (benchOptions.timing == BenchTiming::Gpu)
    gate.emplace();
  // Behind a closed gate nothing may block the host, and a first call may
  // (loading a module, cuBLASLt's set-up): at least one warm-up before.
  const int warmup = std::max(benchOptions.warmup, gate ? 1 : 0);
  for (int i = 0; i < warmup; ++i) {
    runOurs(nullptr, nullptr);
    waitForStream(stream.get(), options.timeout, ours + " (warm-up)");
    if (withCublas) {
      runCublas();
      waitForStream(stream.get(), options.timeout, "cuBLAS (warm-up)");
    }
  }

  Event start, stop, kernelStart, kernelStop;
  auto timed = [&](auto &&run, const std::string &what, int iteration) {
    auto enqueue = [&] {
      if (benchOptions.coldL2)
        checkCu(driver().cuMemsetD8Async(flush.get(), uint8_t(iteration),
                                         flush.size(), stream.get()),
                "flushing L2");
      start.record(stream.get());
      run();
      stop.record(stream.get());
    };
    if (gate)
      gate->holdWhile(stream.get(), enqueue);
    else
      enqueue();
    waitForEvent(stop, options.timeout,
                 what + " (timed run " + std::to_string(iteration + 1) + ")");
    return elapsedMs(start, stop);
  };
  std::vector<float> oursMs, cublasMs, stagingMs, kernelMs;
  auto timeOurs = [&](int iteration) {
    float total = timed(
        [&] {
          runOurs(staged ? &kernelStart : nullptr,
                  staged ? &kernelStop : nullptr);
        },
        ours, iteration);
    oursMs.push_back(total);
    if (staged) {
      float kernel = elapsedMs(kernelStart, kernelStop);
      kernelMs.push_back(kernel);
      stagingMs.push_back(std::max(total - kernel, 0.0f));
    }
  };
  for (int i = 0; i < benchOptions.iterations; ++i) {
    // Alternating who goes first cancels any bias of going second (warmer
    // clocks, L2 contents).
    if (withCublas && i % 2 == 1)
      cublasMs.push_back(timed(runCublas, "cuBLAS", i));
    timeOurs(i);
    if (withCublas && i % 2 == 0)
      cublasMs.push_back(timed(runCublas, "cuBLAS", i));
  }

  result.clocks = device.sampleClocks();
  result.ours = TimingStats::from(std::move(oursMs));
  if (staged) {
    result.staging = TimingStats::from(std::move(stagingMs));
    result.kernelOnly = TimingStats::from(std::move(kernelMs));
  }
  if (withCublas) {
    result.cublas = TimingStats::from(std::move(cublasMs));
    if (result.ours.medianMs > 0)
      result.speedupVsCublas = result.cublas->medianMs / result.ours.medianMs;
  }
  return result;
}

} // namespace gemm::runtime
