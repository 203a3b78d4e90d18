//===- gemm-runner.cpp - Run, check and time kernel bundles ---------------===//
//
// The command line over gemm::runtime. Human output goes to stdout (a progress
// line per problem, then a table); errors go to stderr as
// "gemm-runner: error: ..." lines; --json writes everything measured.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "gemm/Dispatch/Dispatcher.h"
#include "gemm/Dispatch/Staging.h"
#include "gemm/Runtime/Bundle.h"
#include "gemm/Runtime/Cublas.h"
#include "gemm/Runtime/Device.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/Runner.h"
#include "gemm/Runtime/Staging.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

using namespace gemm;
using namespace gemm::runtime;
using gemm::runner::Options;
using nlohmann::ordered_json;

namespace {

/// What was running, for the context of a CUDA error or a hang.
struct Context {
  std::string kernel;
  /// The kernel's debug-waits bound (0: none), for reading a failed launch.
  uint32_t debugWaitsMs = 0;
  std::optional<Problem> problem;
  std::optional<LaunchPlan> plan;

  std::string describe() const {
    std::string text;
    if (!kernel.empty())
      text += "kernel " + kernel;
    if (problem)
      text += (text.empty() ? "" : ", ") + problem->toString();
    if (plan)
      text += (text.empty() ? "" : ", ") + plan->configString();
    if (plan && plan->anyStaged()) {
      text += ", staged";
      for (const std::string &name : plan->stagedTensors())
        text += " " + name;
    }
    return text;
  }
};

void printError(const std::string &message, const std::string &context = {}) {
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);)
    std::cerr << "gemm-runner: error: " << line << "\n";
  if (!context.empty())
    std::cerr << "gemm-runner: note: while running " << context << "\n";
  std::cerr.flush();
}

template <typename T> ordered_json orUnknown(const std::optional<T> &value) {
  return value ? ordered_json(*value) : ordered_json("unknown");
}

std::string mhz(const std::optional<unsigned> &value) {
  return value ? std::to_string(*value) + " MHz" : "unknown";
}

std::string format(const char *fmt, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), fmt, value);
  return buffer;
}

ordered_json deviceJson(const DeviceInfo &info, const ClockSample &clocks) {
  auto khzToMhz = [](const std::optional<int> &khz) {
    return khz ? std::optional<int>(*khz / 1000) : std::nullopt;
  };
  return {
      {"ordinal", info.ordinal},
      {"name", info.name},
      {"pci_bus_id", info.pciBusId},
      {"compute_capability",
       std::to_string(info.ccMajor) + "." + std::to_string(info.ccMinor)},
      {"sm_count", info.smCount},
      {"l2_cache_bytes", info.l2CacheBytes},
      {"memory_bytes", info.totalMemoryBytes},
      {"driver_cuda_version",
       std::to_string(info.driverVersion / 1000) + "." +
           std::to_string(info.driverVersion % 1000 / 10)},
      {"sm_clock_peak_mhz", orUnknown(khzToMhz(info.smClockPeakKHz))},
      {"mem_clock_peak_mhz", orUnknown(khzToMhz(info.memClockPeakKHz))},
      {"sm_clock_max_mhz", orUnknown(clocks.smClockMaxMHz)},
      {"power_limit_watts", orUnknown(clocks.powerLimitWatts)},
      {"cublaslt_version", CublasLt::version()},
  };
}

ordered_json clocksJson(const ClockSample &clocks) {
  return {{"sm_clock_mhz", orUnknown(clocks.smClockMHz)},
          {"mem_clock_mhz", orUnknown(clocks.memClockMHz)},
          {"power_limit_watts", orUnknown(clocks.powerLimitWatts)},
          {"temperature_c", orUnknown(clocks.temperatureC)}};
}

/// "a, c".
std::string joined(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

ordered_json planJson(const LaunchPlan &plan) {
  ordered_json lds, kernelLds;
  for (const MatrixPlan &m : plan.matrices)
    lds[std::string(bundle::toString(m.tensor))] = m.ld;
  for (const MatrixPlan &m : plan.kernelMatrices)
    kernelLds[std::string(bundle::toString(m.tensor))] = m.ld;
  ordered_json workspaces = ordered_json::array();
  for (const WorkspacePlan &w : plan.workspaces)
    workspaces.push_back({{"param", w.paramIndex},
                          {"bytes", w.bytes},
                          {"zero_init", w.zeroInit}});
  ordered_json groupProblems = ordered_json::array();
  for (const auto &s : plan.problem.groupSizes)
    groupProblems.push_back({s.m, s.n, s.k});
  return {{"m", plan.problem.m},
          {"n", plan.problem.n},
          {"k", plan.problem.k},
          {"batch", plan.problem.batch},
          {"groups", plan.problem.groups},
          {"group_offsets", plan.problem.groupOffsets},
          {"group_table_bytes", plan.groupTableBytes},
          {"group_problems", groupProblems},
          {"leading_dims", lds},
          {"padded", plan.padded()},
          {"unaligned", toString(plan.unaligned)},
          {"realign", toString(plan.realign)},
          {"staged", plan.stagedTensors()},
          {"kernel_leading_dims", kernelLds},
          {"staging_scratch_bytes", plan.stagingBytes()},
          {"grid", plan.grid},
          {"block", plan.block},
          {"cluster", plan.cluster},
          {"dynamic_smem_bytes", plan.dynamicSmemBytes},
          {"workspaces", workspaces}};
}

/// (batch, row, column) of C of a flat index into its packed layout (batch
/// x M x N, or batch x N x M for a column-major C).
ordered_json positionJson(uint64_t index, const MatrixPlan &c) {
  if (index == UINT64_MAX)
    return nullptr;
  uint64_t outer = index / c.inner % c.outer, inner = index % c.inner;
  return {{"batch", index / (c.outer * c.inner)},
          {"row", c.transposed() ? inner : outer},
          {"column", c.transposed() ? outer : inner}};
}

ordered_json checkJson(const CheckResult &check, const MatrixPlan &c) {
  ordered_json references = ordered_json::array();
  for (const ReferenceComparison &cmp : check.comparisons) {
    const CompareStats &s = cmp.stats;
    references.push_back({{"reference", cmp.reference},
                          {"rel_error", s.relativeError()},
                          {"max_abs_error", s.maxAbsError},
                          {"elements", s.elements},
                          {"unwritten", s.unwritten},
                          {"non_finite", s.nonFinite},
                          {"out_of_bounds_writes", s.outOfBoundsWrites},
                          {"reference_non_finite", s.referenceNonFinite},
                          {"first_bad", positionJson(s.firstBadIndex, c)}});
  }
  ordered_json j = {{"passed", check.passed},
                    {"tolerance", check.tolerance},
                    {"seed", check.seed},
                    {"references", references}};
  j["reference_agreement"] = check.referenceAgreement
                                 ? ordered_json(*check.referenceAgreement)
                                 : ordered_json(nullptr);
  if (check.amax) {
    j["amax"] = *check.amax;
    j["reference_amax"] = *check.referenceAmax;
    j["output_scale"] = *check.outputScale;
  }
  j["notes"] = check.notes;
  return j;
}

ordered_json timingJson(const TimingStats &t, double flops) {
  return {{"median_ms", t.medianMs},
          {"min_ms", t.minMs},
          {"max_ms", t.maxMs},
          {"tflops", t.tflops(flops)},
          {"times_ms", t.ms}};
}

/// The copies of staging: what they move and how long they take.
ordered_json stagingJson(const TimingStats &t, const BenchResult &bench,
                         const LaunchPlan &plan) {
  uint64_t traffic = 0;
  ordered_json copies = ordered_json::array();
  for (const StagingCopyPlan &copy : stagingCopies(plan)) {
    traffic += copy.trafficBytes();
    copies.push_back({{"tensor", bundle::toString(copy.tensor)},
                      {"direction", copy.intoScratch ? "in" : "out"},
                      {"rows", copy.rows},
                      {"row_bytes", copy.rowBytes},
                      {"src_pitch_bytes", copy.srcPitch},
                      {"dst_pitch_bytes", copy.dstPitch}});
  }
  ordered_json j = {
      {"median_ms", t.medianMs}, {"min_ms", t.minMs}, {"max_ms", t.maxMs}};
  j["fraction_of_ours"] = bench.ours.medianMs > 0
                              ? ordered_json(t.medianMs / bench.ours.medianMs)
                              : ordered_json(nullptr);
  j["bytes_moved"] = traffic;
  j["gb_per_s"] = t.medianMs > 0 ? ordered_json(traffic / (t.medianMs * 1e6))
                                 : ordered_json(nullptr);
  j["copies"] = copies;
  j["times_ms"] = t.ms;
  return j;
}

ordered_json benchJson(const BenchResult &bench, const Options &options,
                       const LaunchPlan &plan) {
  double flops = plan.problem.flops();
  ordered_json j = {{"warmup", options.warmup},
                    {"iterations", options.iterations},
                    {"cold_l2", options.coldL2},
                    {"timing", std::string(runtime::toString(options.timing))},
                    {"ours", timingJson(bench.ours, flops)}};
  // `ours` includes the staging copies; these split it.
  if (bench.staging)
    j["staging"] = stagingJson(*bench.staging, bench, plan);
  if (bench.kernelOnly)
    j["kernel_only"] = timingJson(*bench.kernelOnly, flops);
  if (bench.cublas) {
    j["cublas"] = timingJson(*bench.cublas, flops);
    j["cublas_baseline"] = bench.cublasBaseline;
    j["speedup_vs_cublas"] = orUnknown(bench.speedupVsCublas);
  }
  j["clocks"] = clocksJson(bench.clocks);
  return j;
}

/// "check PASS (cublas: rel 1.2e-03, max abs 3.1e-02)".
std::string checkSummary(const CheckResult &check, const MatrixPlan &c) {
  std::string text = check.passed ? "check PASS" : "check FAIL";
  for (size_t i = 0; i < check.comparisons.size(); ++i) {
    const ReferenceComparison &cmp = check.comparisons[i];
    const CompareStats &s = cmp.stats;
    text += (i ? "; " : " (") + cmp.reference + ": rel " +
            format("%.2e", s.relativeError()) + ", max abs " +
            format("%.2e", s.maxAbsError);
    if (s.unwritten)
      text += ", " + std::to_string(s.unwritten) + " unwritten";
    if (s.nonFinite)
      text += ", " + std::to_string(s.nonFinite) + " NaN/inf";
    if (s.outOfBoundsWrites)
      text += ", " + std::to_string(s.outOfBoundsWrites) +
              " writes into row padding (allowed: TMA stores whole 16-byte "
              "chunks)";
    if (s.firstBadIndex != UINT64_MAX) {
      ordered_json at = positionJson(s.firstBadIndex, c);
      text += ", first at row " + at["row"].dump() + " column " +
              at["column"].dump();
      if (c.batch > 1)
        text += " batch " + at["batch"].dump();
    }
  }
  if (!check.comparisons.empty())
    text += ")";
  if (check.amax)
    text += ", amax " + format("%.4g", *check.amax) + " (reference " +
            format("%.4g", *check.referenceAmax) + ")";
  text += ", tolerance " + format("%.0e", check.tolerance);
  for (const std::string &note : check.notes)
    text += "; " + note;
  return text;
}

std::string benchSummary(const BenchResult &bench, double flops) {
  std::string text = "ours " + format("%.4f", bench.ours.medianMs) + " ms " +
                     format("%.1f", bench.ours.tflops(flops)) + " TFLOP/s";
  if (bench.staging && bench.kernelOnly && bench.ours.medianMs > 0)
    text +=
        " (staging copies " + format("%.4f", bench.staging->medianMs) +
        " ms = " +
        format("%.1f", 100 * bench.staging->medianMs / bench.ours.medianMs) +
        "%, kernel alone " + format("%.4f", bench.kernelOnly->medianMs) +
        " ms " + format("%.1f", bench.kernelOnly->tflops(flops)) + " TFLOP/s)";
  if (bench.cublas)
    text += " | cuBLAS " + format("%.4f", bench.cublas->medianMs) + " ms " +
            format("%.1f", bench.cublas->tflops(flops)) + " TFLOP/s | " +
            format("%.3f", *bench.speedupVsCublas) + "x";
  return text;
}

struct Row {
  Problem problem;
  std::optional<CheckResult> check;
  std::optional<BenchResult> bench;
};

/// One line per problem. med_ms/min_ms/max_ms/TFLOP/s are our GEMM as the
/// caller sees it (staging copies included); stage_ms, shown when some
/// problem was staged, is the median of the copies alone.
void printTable(const std::vector<Row> &rows) {
  bool staging = std::any_of(rows.begin(), rows.end(), [](const Row &row) {
    return row.bench && row.bench->staging;
  });
  std::printf("\n%7s %7s %7s %5s  %-5s %9s %9s  %9s %9s %9s %8s  ", "m", "n",
              "k", "batch", "check", "rel_err", "max_abs", "med_ms", "min_ms",
              "max_ms", "TFLOP/s");
  if (staging)
    std::printf("%9s  ", "stage_ms");
  std::printf("%9s %8s %7s\n", "cublas_ms", "TFLOP/s", "speedup");
  for (const Row &row : rows) {
    const Problem &p = row.problem;
    std::printf("%7llu %7llu %7llu %5llu  ", (unsigned long long)p.m,
                (unsigned long long)p.n, (unsigned long long)p.k,
                (unsigned long long)p.batch);
    if (row.check && !row.check->comparisons.empty()) {
      const CompareStats &s = row.check->comparisons.front().stats;
      std::printf("%-5s %9.2e %9.2e  ", row.check->passed ? "PASS" : "FAIL",
                  s.relativeError(), s.maxAbsError);
    } else {
      std::printf("%-5s %9s %9s  ", "-", "-", "-");
    }
    if (row.bench) {
      const TimingStats &t = row.bench->ours;
      std::printf("%9.4f %9.4f %9.4f %8.1f  ", t.medianMs, t.minMs, t.maxMs,
                  t.tflops(p.flops()));
      if (staging && row.bench->staging)
        std::printf("%9.4f  ", row.bench->staging->medianMs);
      else if (staging)
        std::printf("%9s  ", "-");
      if (row.bench->cublas)
        std::printf("%9.4f %8.1f %6.3fx", row.bench->cublas->medianMs,
                    row.bench->cublas->tflops(p.flops()),
                    *row.bench->speedupVsCublas);
    }
    std::printf("\n");
  }
}

void writeJson(const std::string &path, const ordered_json &report) {
  std::ofstream out(path);
  out << report.dump(2) << "\n";
  if (!out)
    throw Error(ErrorKind::Usage, "--json " + path + ": cannot write");
}

int dryRun(const Options &options, const KernelBundle &bundle) {
  const bundle::KernelManifest &m = bundle.manifest;
  std::printf("bundle: %s (%s, kernel %s)\n", m.name.c_str(),
              std::string(bundle::toString(m.arch)).c_str(), m.kernel.c_str());
  std::printf("ptx: %s\n", bundle.ptxPath.string().c_str());
  if (bundle.cubinPath)
    std::printf("cubin: %s\n", bundle.cubinPath->string().c_str());
  std::printf("persistent grids assume %u SMs (--sm-count), 1 CTA per SM\n",
              options.dryRunSmCount);
  std::printf("unaligned leading dimensions: %s (--unaligned)\n",
              std::string(toString(options.unaligned)).c_str());
  PlanOptions planOptions;
  planOptions.unaligned = options.unaligned;
  planOptions.realign = options.realign;
  planOptions.persistentCtaCapacity = options.dryRunSmCount;
  planOptions.batchStrides = options.batchStrides;
  for (const Problem &problem : options.problems) {
    LaunchPlan plan = planLaunch(m, problem, planOptions);
    std::printf("\n%s", describePlan(plan).c_str());
    if (plan.padded())
      std::printf("note: leading dimensions padded to %u bytes "
                  "(--unaligned pad)\n",
                  m.constraints.leadingDimAlignmentBytes);
    if (plan.anyStaged())
      std::printf("note: staged %s (--unaligned stage): the copies run on the "
                  "kernel's stream around every launch and are timed as part "
                  "of it\n",
                  joined(plan.stagedTensors()).c_str());
  }
  return ExitOk;
}

/// The lit GPU tier keys on the last word: the arch bundles must target.
int probe(const Options &options) {
  Device device = Device::open(options.device);
  const DeviceInfo &info = device.info();
  std::printf("GPU %d: %s sm_%d%d%s\n", info.ordinal, info.name.c_str(),
              info.ccMajor, info.ccMinor, info.ccMajor >= 9 ? "a" : "");
  return ExitOk;
}

/// The library's bundle for the one problem of `options`, as the dispatcher
/// picks it for this GPU's SM count (--sm-count under --dry-run). A
/// transposed selection (C run as C^T = B A^T: a column-major C without its
/// own kernel, or a row-major C on a narrow tile of the transposed problem)
/// turns the problem into N x M x K.
std::string pickFromLibrary(Options &options, ordered_json &report) {
  uint32_t smCount =
      options.dryRun ? options.dryRunSmCount
                     : uint32_t(Device::open(options.device).info().smCount);
  dispatch::KernelLibrary library;
  dispatch::Selection selection;
  dispatch::Problem problem;
  problem.m = options.problems.front().m;
  problem.n = options.problems.front().n;
  problem.k = options.problems.front().k;
  problem.inType = options.inType;
  problem.outType = options.outType;
  problem.layouts = options.layouts;
  problem.batch = options.problems.front().batch;
  // A grouped problem (--groups) is picked among the library's grouped
  // kernels, which read the groups' rows as they are (nothing staged).
  problem.groups = options.problems.front().groups;
  // What a TMA kernel would get staged: packed rows under --unaligned stage
  // (padded ones, under pad, are TMA's to read).
  if (options.unaligned == UnalignedPolicy::Stage && !problem.grouped())
    problem.staged = dispatch::packedStaging(
        {problem.m, problem.n, problem.k, problem.batch}, options.inType, {},
        options.layouts, options.realign);
  try {
    if (!options.quant.empty()) {
      std::string error;
      auto quant = dispatch::QuantConfig::parse(options.quant, error);
      if (!quant)
        throw Error(ErrorKind::Usage, "--quant: " + error);
      problem.quant = *quant;
    }
    library = dispatch::KernelLibrary::load(*options.libraryDir);
    selection = library.select(problem, {bundle::Arch::Sm90a, smCount});
  } catch (const dispatch::DispatchError &e) {
    throw Error(ErrorKind::Bundle, std::string("--library: ") + e.what());
  }
  std::string source(dispatch::toString(selection.source));
  std::printf("library: %s for %s%s (%s: %s)\n",
              selection.config.name().c_str(), problem.toString().c_str(),
              problem.stagingNote().c_str(), source.c_str(),
              selection.reason.c_str());
  report["dispatch"] = {{"library", *options.libraryDir},
                        {"config", selection.config.name()},
                        {"source", source},
                        {"estimated_us", selection.estimate.seconds * 1e6},
                        {"reason", selection.reason},
                        {"transposed", selection.transposed},
                        {"sm_count", smCount}};
  if (selection.transposed) {
    Problem &p = options.problems.front();
    std::swap(p.m, p.n);
    std::printf("library: running the transposed problem %s (C^T = B A^T: "
                "its C, in the other storage order, is the C asked for)\n",
                p.toString().c_str());
  }
  return library.manifestPath(selection.config).string();
}

/// Compares C with the dump at `path` (gemm-sim's) bit for bit; clears
/// `passed` and says where they differ when they do.
std::string compareWithDump(const bundle::MatrixDump &output,
                            const std::string &path, bool &passed) {
  std::string error;
  std::optional<bundle::MatrixDump> expected =
      bundle::readMatrixDump(path, error);
  if (!expected)
    throw Error(ErrorKind::Usage, "--expect-c: " + error);
  if (expected->dtype != output.dtype || expected->rows != output.rows ||
      expected->cols != output.cols) {
    passed = false;
    return "C is " + std::to_string(output.rows) + " x " +
           std::to_string(output.cols) + " " +
           std::string(bundle::toString(output.dtype)) + " but " + path +
           " holds " + std::to_string(expected->rows) + " x " +
           std::to_string(expected->cols) + " " +
           std::string(bundle::toString(expected->dtype));
  }
  uint64_t differ = 0;
  std::string first;
  for (uint64_t row = 0; row < output.rows; ++row)
    for (uint64_t col = 0; col < output.cols; ++col) {
      uint64_t got = output.elementBits(row, col);
      uint64_t want = expected->elementBits(row, col);
      if (got == want)
        continue;
      if (!differ++) {
        char text[128];
        std::snprintf(text, sizeof(text),
                      "C[%llu][%llu] = 0x%llx, expected 0x%llx",
                      static_cast<unsigned long long>(row),
                      static_cast<unsigned long long>(col),
                      static_cast<unsigned long long>(got),
                      static_cast<unsigned long long>(want));
        first = text;
      }
    }
  if (!differ)
    return "C equals " + path + " bit for bit (" +
           std::to_string(output.rows * output.cols) + " elements)";
  passed = false;
  return "C differs from " + path + " in " + std::to_string(differ) + " of " +
         std::to_string(output.rows * output.cols) + " elements; first " +
         first;
}

int run(Options options, Context &context, ordered_json &report) {
  if (options.probe)
    return probe(options);
  KernelBundle bundle =
      KernelBundle::load(options.libraryDir ? pickFromLibrary(options, report)
                                            : options.bundlePath);
  context.kernel = bundle.manifest.kernel;
  context.debugWaitsMs = bundle.manifest.debugWaitsMs;
  if (options.dryRun)
    return dryRun(options, bundle);

  Device device = Device::open(options.device);
  const DeviceInfo &info = device.info();
  ClockSample clocks = device.sampleClocks();
  report["device"] = deviceJson(info, clocks);
  RunnerOptions runnerOptions;
  runnerOptions.timeout = options.timeout;
  runnerOptions.unaligned = options.unaligned;
  runnerOptions.realign = options.realign;
  runnerOptions.batchStrides = options.batchStrides;
  GemmRunner runner(bundle, device, runnerOptions);
  const LoadedKernel &kernel = runner.kernel();
  report["bundle"] = {{"manifest", bundle.manifestPath.string()},
                      {"name", bundle.manifest.name},
                      {"kernel", bundle.manifest.kernel},
                      {"arch", bundle::toString(bundle.manifest.arch)},
                      {"source", kernel.source()},
                      {"registers_per_thread", kernel.registersPerThread()}};

  std::printf("gemm-runner: %s from %s\n", kernel.name().c_str(),
              kernel.source().c_str());
  if (bundle.manifest.types.fp8Accumulation)
    std::printf("fp8 accumulation: %s\n",
                *bundle.manifest.types.fp8Accumulation ==
                        bundle::Fp8Accumulation::Fast
                    ? "fast (in the WGMMA accumulator)"
                    : ("promoted into f32 every " +
                       std::to_string(bundle.manifest.types.promoteEveryK) +
                       " elements of K")
                          .c_str());
  if (!kernel.note().empty())
    std::printf("note: %s\n", kernel.note().c_str());
  std::printf(
      "GPU %d: %s (compute capability %d.%d, %d SMs, SM clock %s of "
      "max %s, memory clock %s, power limit %s)\n",
      info.ordinal, info.name.c_str(), info.ccMajor, info.ccMinor, info.smCount,
      mhz(clocks.smClockMHz).c_str(), mhz(clocks.smClockMaxMHz).c_str(),
      mhz(clocks.memClockMHz).c_str(),
      clocks.powerLimitWatts ? format("%.0f W", *clocks.powerLimitWatts).c_str()
                             : "unknown");

  std::vector<Row> rows;
  bool allPassed = true;
  size_t total = options.problems.size();
  // A failed launch of a debug-waits kernel is the trap of a wait that gave
  // up; its record (host memory) says which, even now that the context is
  // gone.
  try {
    for (size_t i = 0; i < total; ++i) {
      Row row{options.problems[i], std::nullopt, std::nullopt};
      context.problem = row.problem;
      context.plan.reset();
      LaunchPlan plan = runner.plan(row.problem);
      context.plan = plan;
      ordered_json result = planJson(plan);
      std::string line = "[" + std::to_string(i + 1) + "/" +
                         std::to_string(total) + "] " + row.problem.toString();
      if (plan.padded())
        line += " (padded lds)";
      if (plan.anyStaged())
        line += " (staged " + joined(plan.stagedTensors()) + ")";
      line += ":";
      uint64_t seed = options.seed + i;
      if (options.check) {
        CheckOptions checkOptions;
        checkOptions.reference = options.reference;
        checkOptions.seed = seed;
        checkOptions.tolerance = options.tolerance;
        checkOptions.inputs = options.inputs;
        checkOptions.keepOutput = options.dumpC || options.expectC;
        row.check = runner.check(plan, checkOptions);
        if (row.check->output) {
          std::string problemText;
          if (options.dumpC &&
              !bundle::writeMatrixDump(*options.dumpC, *row.check->output,
                                       problemText))
            throw Error(ErrorKind::Usage, "--dump-c: " + problemText);
          if (options.expectC) {
            std::string comparison = compareWithDump(
                *row.check->output, *options.expectC, row.check->passed);
            row.check->notes.push_back(comparison);
            std::printf("%s\n", comparison.c_str());
          }
        }
        allPassed &= row.check->passed;
        result["check"] = checkJson(*row.check, plan.matrix(Tensor::C));
        line += " " + checkSummary(*row.check, plan.matrix(Tensor::C));
      }
      if (options.bench) {
        BenchOptions benchOptions;
        benchOptions.warmup = options.warmup;
        benchOptions.iterations = options.iterations;
        benchOptions.vsCublas = options.vsCublas;
        benchOptions.coldL2 = options.coldL2;
        benchOptions.timing = options.timing;
        benchOptions.seed = seed;
        row.bench = runner.bench(plan, benchOptions);
        if (i == 0 && !row.bench->cublasBaseline.empty())
          std::printf("cuBLAS baseline: %s\n",
                      row.bench->cublasBaseline.c_str());
        result["bench"] = benchJson(*row.bench, options, plan);
        line += (options.check ? " | " : " ") +
                benchSummary(*row.bench, row.problem.flops());
      }
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
      report["results"].push_back(result);
      rows.push_back(std::move(row));
    }
  } catch (const Error &error) {
    throw asDebugWaitTrap(error, bundle.manifest.debugWaitsMs,
                          kernel.debugWaitReport(bundle.manifest));
  }
  printTable(rows);
  return allPassed ? ExitOk : ExitCheckFailed;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  try {
    options = gemm::runner::parseCommandLine(
        std::vector<std::string>(argv + 1, argv + argc));
  } catch (const Error &error) {
    printError(error.what());
    return exitCodeFor(error.kind());
  }
  if (options.help) {
    std::printf("%s", gemm::runner::usage().c_str());
    return ExitOk;
  }
  // Fail on an unwritable --json now, not after a long sweep.
  if (options.jsonPath && !std::ofstream(*options.jsonPath)) {
    printError("--json " + *options.jsonPath + ": cannot write");
    return ExitUsage;
  }

  ordered_json report = {{"format", "gemm-runner-results"}, {"version", 1}};
  report["results"] = ordered_json::array();
  Context context;
  int code = ExitOk;
  try {
    code = run(options, context, report);
  } catch (const Error &thrown) {
    Error error = asDebugWaitTrap(thrown, context.debugWaitsMs);
    bool onGpu = error.kind() == ErrorKind::Cuda ||
                 error.kind() == ErrorKind::Hang ||
                 error.kind() == ErrorKind::Trap;
    std::string message = error.what();
    if (error.kind() == ErrorKind::Hang)
      message = "hang: " + message + "; terminating";
    printError(message, onGpu ? context.describe() : std::string());
    code = exitCodeFor(error.kind());
    report["error"] = {{"kind", code == ExitHang   ? "hang"
                                : code == ExitTrap ? "trap"
                                                   : "error"},
                       {"message", message},
                       {"context", context.describe()},
                       {"exit_code", code}};
  } catch (const std::exception &error) {
    printError(std::string("internal error: ") + error.what(),
               context.describe());
    code = ExitCudaError;
  }
  if (options.jsonPath && !options.dryRun && !options.probe) {
    try {
      writeJson(*options.jsonPath, report);
    } catch (const Error &error) {
      printError(error.what());
      code = code == ExitOk ? ExitUsage : code;
    }
  }
  std::fflush(stdout);
  // After a hang the kernel still runs: skip destructors and atexit handlers
  // that would wait for it, and let the driver tear the context down.
  if (code == ExitHang)
    std::_Exit(ExitHang);
  return code;
}
