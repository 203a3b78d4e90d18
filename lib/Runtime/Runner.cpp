//===- Runner.cpp - Check and time a kernel bundle on one problem ---------===//

#include "gemm/Runtime/Runner.h"
#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Launch.h"

#include <algorithm>
#include <cmath>

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

bool isFp8(DType t) { return t == DType::E4M3 || t == DType::E5M2; }

/// The operands of one problem: fresh A and B from `seed` (random normal, or
/// the simulator's small integers) and
/// an output C, as the caller holds them (what cuBLAS and the references
/// use); aligned scratch copies of the staged ones; the kernel's tensor maps
/// over the scratch copies where staged and the caller's buffers elsewhere.
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
  }
};

bool stagesInputs(const LaunchPlan &plan) {
  return plan.isStaged(Tensor::A) || plan.isStaged(Tensor::B);
}

} // namespace

double defaultTolerance(const bundle::TensorTypes &types) {
  double tolerance = types.c == DType::BF16  ? 1e-2
                     : types.c == DType::F16 ? 5e-3
                                             : 1e-4;
  // Hopper's fp8 MMA accumulates with fewer bits than f32, and tf32 rounds
  // f32 inputs to 10 mantissa bits: the result is that much less exact.
  if (isFp8(types.a) || isFp8(types.b))
    tolerance = std::max(tolerance, 2e-2);
  else if (types.a == DType::F32)
    tolerance = std::max(tolerance, 5e-3);
  return tolerance;
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
    // One wait per step, so that a fault names the step.
    if (stagesInputs(plan)) {
      operands.staging.copyIn(operands.a.get(), operands.b.get(), stream.get());
      waitForStream(stream.get(), options.timeout,
                    "the staging copies of the inputs into aligned scratch (" +
                        which + ")");
    }
    launchKernel(loaded, plan, operands.maps, operands.workspaceAddresses,
                 operands.matrices, stream.get());
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
  result.tolerance =
      checkOptions.tolerance.value_or(defaultTolerance(bundle.manifest.types));

  ReferenceMode mode = checkOptions.reference;
  bool wantCublas = mode != ReferenceMode::Naive;
  bool wantNaive = mode == ReferenceMode::Naive ||
                   mode == ReferenceMode::Both ||
                   (mode == ReferenceMode::Auto &&
                    plan.problem.flops() / 2 <= SecondOpinionMacs);
  MatrixPlan refPlan = referencePlan(plan);
  std::unique_ptr<CublasGemm> gemm;
  if (wantCublas) {
    std::string whyNot;
    gemm = CublasGemm::create(cublas(), a, b, refPlan, whyNot);
    if (!gemm && mode != ReferenceMode::Auto)
      throw Error(ErrorKind::Usage,
                  "--reference cublas: " + whyNot + "; use --reference naive");
    if (!gemm) {
      result.notes.push_back(whyNot + "; using the naive reference");
      wantNaive = true;
    }
  }

  DeviceBuffer cublasRef, naiveRef;
  if (gemm) {
    cublasRef = DeviceBuffer(refPlan.bytes(), "the cuBLAS reference");
    gemm->run(operands.a.get(), operands.b.get(), cublasRef.get(),
              stream.get());
    waitForStream(stream.get(), ReferenceTimeout, "the cuBLAS reference");
    result.comparisons.push_back(
        {"cublas", compareToReference(operands.c.get(), c, cublasRef.get(),
                                      stream.get(), ReferenceTimeout)});
  }
  if (wantNaive) {
    naiveRef = DeviceBuffer(refPlan.bytes(), "the naive reference");
    referenceGemm(operands.a.get(), a, operands.b.get(), b, naiveRef.get(),
                  refPlan, stream.get());
    waitForStream(stream.get(), ReferenceTimeout, "the naive reference");
    result.comparisons.push_back(
        {"naive", compareToReference(operands.c.get(), c, naiveRef.get(),
                                     stream.get(), ReferenceTimeout)});
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
                            stream.get(), ReferenceTimeout)});
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
  return result;
}

BenchResult GemmRunner::bench(const LaunchPlan &plan,
                              const BenchOptions &benchOptions) {
  const MatrixPlan &a = plan.matrix(Tensor::A);
  const MatrixPlan &b = plan.matrix(Tensor::B);
  const MatrixPlan &c = plan.matrix(Tensor::C);
  Stream stream;
  Operands operands(plan, benchOptions.seed, stream.get());

  std::unique_ptr<CublasGemm> gemm;
  DeviceBuffer cublasOut;
  if (benchOptions.vsCublas) {
    std::string whyNot;
    gemm = CublasGemm::create(cublas(), a, b, c, whyNot);
    if (!gemm)
      throw Error(ErrorKind::Usage, "--vs cublas: " + whyNot);
    cublasOut = DeviceBuffer(c.bytes(), "the cuBLAS output");
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
    gemm->run(operands.a.get(), operands.b.get(), cublasOut.get(),
              stream.get());
  };
  // Our GEMM as the caller sees it: copies into scratch, the kernel, the copy
  // out. `kernelStart` and `kernelStop`, when given, bracket the kernel.
  auto runOurs = [&](Event *kernelStart, Event *kernelStop) {
    operands.staging.copyIn(operands.a.get(), operands.b.get(), stream.get());
    if (kernelStart)
      kernelStart->record(stream.get());
    launchKernel(loaded, plan, operands.maps, operands.workspaceAddresses,
                 operands.matrices, stream.get());
    if (kernelStop)
      kernelStop->record(stream.get());
    operands.staging.copyOut(operands.c.get(), stream.get());
  };
  for (int i = 0; i < benchOptions.warmup; ++i) {
    runOurs(nullptr, nullptr);
    waitForStream(stream.get(), options.timeout, ours + " (warm-up)");
    if (gemm) {
      runCublas();
      waitForStream(stream.get(), options.timeout, "cuBLAS (warm-up)");
    }
  }

  Event start, stop, kernelStart, kernelStop;
  auto timed = [&](auto &&run, const std::string &what, int iteration) {
    if (benchOptions.coldL2)
      checkCu(driver().cuMemsetD8Async(flush.get(), uint8_t(iteration),
                                       flush.size(), stream.get()),
              "flushing L2");
    start.record(stream.get());
    run();
    stop.record(stream.get());
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
    if (gemm && i % 2 == 1)
      cublasMs.push_back(timed(runCublas, "cuBLAS", i));
    timeOurs(i);
    if (gemm && i % 2 == 0)
      cublasMs.push_back(timed(runCublas, "cuBLAS", i));
  }

  BenchResult result;
  result.clocks = device.sampleClocks();
  result.ours = TimingStats::from(std::move(oursMs));
  if (staged) {
    result.staging = TimingStats::from(std::move(stagingMs));
    result.kernelOnly = TimingStats::from(std::move(kernelMs));
  }
  if (gemm) {
    result.cublas = TimingStats::from(std::move(cublasMs));
    if (result.ours.medianMs > 0)
      result.speedupVsCublas = result.cublas->medianMs / result.ours.medianMs;
  }
  return result;
}

} // namespace gemm::runtime
