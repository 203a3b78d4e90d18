//===- gemm-sim.cpp - Run gemm kernels in the simulator -------------------===//
//
// Reads a .mlir file of gemm.matmul ops (materialized here) or of
// materialized kernels, runs each kernel on small-integer inputs in the
// simulator (lib/Simulator) under the chosen schedules, and compares C bit
// for bit with the exact reference. docs/Verification.md describes the
// model. Exit status: 0 every run passed, 1 a wrong result, 2 bad usage or
// input, 3 a protocol violation (race, deadlock, phase confusion, ...).
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"
#include "gemm/Runtime/GroupProblems.h"
#include "gemm/Runtime/GroupTable.h"
#include "gemm/Simulator/Simulator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>

using namespace mlir;
namespace cl = llvm::cl;
namespace sim = mlir::gemm::sim;

namespace {

cl::OptionCategory category("gemm-sim options");

cl::opt<std::string> input(cl::Positional, cl::desc("<input .mlir>"),
                           cl::Required, cl::cat(category));
cl::list<std::string>
    kernelNames("kernel",
                cl::desc("only this kernel (repeatable; default: every one)"),
                cl::cat(category));
cl::opt<uint64_t> sizeM("m", cl::desc("problem M"), cl::init(0),
                        cl::cat(category));
cl::opt<uint64_t> sizeN("n", cl::desc("problem N"), cl::init(0),
                        cl::cat(category));
cl::opt<uint64_t> sizeK("k", cl::desc("problem K"), cl::init(0),
                        cl::cat(category));
cl::opt<uint64_t> batch("batch",
                        cl::desc("batched kernels: the number of problems of "
                                 "--m/--n/--k"),
                        cl::init(1), cl::cat(category));
cl::list<std::string>
    shapes("shape",
           cl::desc("a problem MxNxK, or MxNxKxB for a batch of B (repeatable, "
                    "with or instead of --m/--n/--k)"),
           cl::cat(category));
cl::opt<std::string>
    broadcast("broadcast",
              cl::desc("batched kernels: a, b or ab, the operands given as "
                       "one matrix for every batch entry (batch stride 0)"),
              cl::init(""), cl::cat(category));
cl::opt<std::string> groups(
    "groups",
    cl::desc("grouped kernels: the rows M_g of every group, with --n and --k "
             "(M is their sum), as gemm-runner takes them: 128,0,77 or "
             "random:G:TOTAL:SEED"),
    cl::init(""), cl::cat(category));
cl::opt<std::string> groupOffsets(
    "group-offsets",
    cl::desc("grouped kernels: the G + 1 group offsets into the --m rows of A "
             "and C, as given (invalid ones too: the kernel must then write "
             "nothing), e.g. 0,64,32,128"),
    cl::init(""), cl::cat(category));
cl::opt<std::string> groupProblems(
    "group-problems",
    cl::desc("general grouped kernels (grouped(general)): every group's M N "
             "K, as gemm-runner takes them: a file of one \"M N K\" per "
             "line, or random:G:SEED; the groups are packed as gemm-runner "
             "packs them (odd groups' A and B lines padded), and a bad "
             "record (a negative size, K = 0 with tiles) is kept: the "
             "kernel must then write nothing"),
    cl::init(""), cl::cat(category));
cl::opt<bool> coverage(
    "coverage",
    cl::desc("also run the problems gemm-check-protocol uses for each kernel"),
    cl::init(false), cl::cat(category));
cl::opt<unsigned> sms("sms",
                      cl::desc("SMs of the simulated GPU (persistent grid "
                               "capacity, clusters running at once)"),
                      cl::init(4), cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("seed of the small-integer inputs"),
                       cl::init(1), cl::cat(category));
cl::opt<std::string>
    schedule("schedule",
             cl::desc("deterministic | random | exhaustive (default "
                      "deterministic)"),
             cl::init("deterministic"), cl::cat(category));
cl::opt<unsigned> runs("runs", cl::desc("random schedules: how many"),
                       cl::init(8), cl::cat(category));
cl::opt<uint64_t> scheduleSeed("schedule-seed",
                               cl::desc("random schedules: the first seed"),
                               cl::init(1), cl::cat(category));
cl::opt<uint64_t>
    maxExecutions("max-executions",
                  cl::desc("exhaustive: at most this many executions"),
                  cl::init(200), cl::cat(category));
cl::opt<uint64_t> maxStates("max-states",
                            cl::desc("exhaustive: at most this many states"),
                            cl::init(100000), cl::cat(category));
cl::opt<bool> interleavings(
    "interleavings",
    cl::desc("exhaustive: explore every order of the threads' visible steps "
             "(tiny bounds only), not just the choices the reduction keeps"),
    cl::init(false), cl::cat(category));
cl::opt<bool>
    protocolOnly("protocol-only",
                 cl::desc("no tile data: only the protocol checks (faster)"),
                 cl::init(false), cl::cat(category));
cl::opt<std::string> dumpDir(
    "dump-dir",
    cl::desc("write each run's C to DIR/KERNEL_MxNxK[xB][_bcAB]_sSEED.bin "
             "(gemm/Bundle/TestData.h format: C as stored; a grouped "
             "problem's M is gM_0-M_1-..., or oO_0-O_1-... for other "
             "offsets; a general grouped problem is "
             "KERNEL_pM_0xN_0xK_0-M_1xN_1xK_1-..._sSEED.bin, C being all "
             "groups' packed buffer as one row, as gemm-runner dumps it)"),
    cl::init(""), cl::cat(category));
cl::opt<bool> quiet("quiet", cl::desc("print failures only"), cl::init(false),
                    cl::cat(category));

std::optional<sim::Problem> parseShape(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  text.split(parts, 'x');
  if (parts.size() != 3 && parts.size() != 4)
    return std::nullopt;
  sim::Problem problem;
  if (parts[0].getAsInteger(10, problem.m) ||
      parts[1].getAsInteger(10, problem.n) ||
      parts[2].getAsInteger(10, problem.k) || !problem.m || !problem.n ||
      !problem.k)
    return std::nullopt;
  if (parts.size() == 4 &&
      (parts[3].getAsInteger(10, problem.batch) || !problem.batch))
    return std::nullopt;
  return problem;
}

/// "200x300x136", "200x300x136x3", "g128-0-77x256x200": the problem as a
/// file name part.
std::string shapeName(const sim::Problem &problem) {
  if (problem.general()) {
    // "p100x64x72-0x8x8": every group's M x N x K.
    std::string name = "p";
    for (size_t g = 0; g < problem.groupSizes.size(); ++g)
      name += (g ? "-" : "") + std::to_string(problem.groupSizes[g].m) + "x" +
              std::to_string(problem.groupSizes[g].n) + "x" +
              std::to_string(problem.groupSizes[g].k);
    return name;
  }
  std::string rows = std::to_string(problem.m);
  if (problem.grouped()) {
    std::optional<std::vector<uint64_t>> sizes = problem.groupRows();
    rows = sizes ? "g" : "o";
    for (size_t i = 0, e = sizes ? sizes->size() : problem.groupOffsets.size();
         i < e; ++i)
      rows += (i ? "-" : "") + std::to_string(sizes ? int64_t((*sizes)[i])
                                                    : problem.groupOffsets[i]);
  }
  std::string name =
      rows + "x" + std::to_string(problem.n) + "x" + std::to_string(problem.k);
  if (problem.batch != 1)
    name += "x" + std::to_string(problem.batch);
  if (problem.broadcast)
    name += std::string("_bc") + (problem.broadcast & 1 ? "a" : "") +
            (problem.broadcast & 2 ? "b" : "");
  return name;
}

/// "0x43e00000": the bits of an f32.
std::string amaxBits(float amax) {
  uint32_t bits;
  std::memcpy(&bits, &amax, 4);
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08x", bits);
  return text;
}

/// ", amax 448 (bits 0x43e00000)" for a kernel with an amax output.
std::string amaxText(const sim::RunResult &result) {
  if (!result.amax)
    return "";
  char text[64];
  std::snprintf(text, sizeof(text), ", amax %g (bits %s)", double(*result.amax),
                amaxBits(*result.amax).c_str());
  return text;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "gemm-sim: run gemm kernels on the CPU and check them against an exact "
      "reference\n");

  sim::RunOptions base;
  if (schedule == "deterministic")
    base.schedule = sim::ScheduleMode::Deterministic;
  else if (schedule == "random")
    base.schedule = sim::ScheduleMode::Random;
  else if (schedule == "exhaustive")
    base.schedule = sim::ScheduleMode::Exhaustive;
  else {
    llvm::errs() << "gemm-sim: --schedule must be deterministic, random or "
                    "exhaustive, got '"
                 << schedule << "'\n";
    return 2;
  }
  base.sms = sms;
  base.inputSeed = seed;
  base.runs = runs;
  base.scheduleSeed = scheduleSeed;
  base.maxExecutions = maxExecutions;
  base.maxStates = maxStates;
  base.exhaustiveInterleavings = interleavings;
  base.data = protocolOnly ? sim::DataMode::Protocol : sim::DataMode::Full;

  unsigned broadcastMask = 0;
  if (broadcast == "a")
    broadcastMask = 1;
  else if (broadcast == "b")
    broadcastMask = 2;
  else if (broadcast == "ab")
    broadcastMask = 3;
  else if (!broadcast.empty()) {
    llvm::errs() << "gemm-sim: --broadcast must be a, b or ab, got '"
                 << broadcast << "'\n";
    return 2;
  }
  if (!batch) {
    llvm::errs() << "gemm-sim: --batch must be at least 1\n";
    return 2;
  }
  std::vector<sim::Problem> problems;
  if (!groupProblems.empty()) {
    // One general grouped problem, as gemm-runner --group-problems SPEC.
    if (!groups.empty() || !groupOffsets.empty() || sizeM || sizeN || sizeK ||
        batch != 1 || !shapes.empty()) {
      llvm::errs() << "gemm-sim: --group-problems gives every group's M, N "
                      "and K: give no --m, --n, --k, --shape, --batch, "
                      "--groups or --group-offsets\n";
      return 2;
    }
    std::string error;
    std::optional<std::vector<::gemm::runtime::general::GroupSize>> sizes =
        ::gemm::runtime::general::tryParseGroupProblems(groupProblems, error);
    if (!sizes) {
      llvm::errs() << "gemm-sim: " << error << "\n";
      return 2;
    }
    sim::Problem problem;
    problem.groupSizes = std::move(*sizes);
    problems.push_back(problem);
  } else if (!groups.empty() || !groupOffsets.empty()) {
    // One grouped problem, as gemm-runner --groups SPEC --n N --k K.
    sim::Problem problem;
    if (!groups.empty()) {
      if (!groupOffsets.empty() || sizeM || batch != 1 || !sizeN || !sizeK) {
        llvm::errs() << "gemm-sim: --groups gives the rows of every group (M "
                        "is their sum): give --n and --k, not --m, --batch "
                        "or --group-offsets\n";
        return 2;
      }
      std::string error;
      std::optional<std::vector<uint64_t>> rows =
          ::gemm::runtime::grouped::tryParseGroups(groups, error);
      if (!rows) {
        llvm::errs() << "gemm-sim: " << error << "\n";
        return 2;
      }
      problem.groupOffsets = ::gemm::runtime::grouped::offsetsOf(*rows);
      problem.m = static_cast<uint64_t>(problem.groupOffsets.back());
    } else {
      if (!sizeM || !sizeN || !sizeK || batch != 1) {
        llvm::errs() << "gemm-sim: --group-offsets needs --m (the rows of A "
                        "and C), --n and --k, and no --batch\n";
        return 2;
      }
      llvm::SmallVector<llvm::StringRef> fields;
      llvm::StringRef(groupOffsets).split(fields, ',');
      for (llvm::StringRef field : fields) {
        int64_t offset;
        if (field.trim().getAsInteger(10, offset)) {
          llvm::errs() << "gemm-sim: --group-offsets: '" << field
                       << "' is not an integer\n";
          return 2;
        }
        problem.groupOffsets.push_back(offset);
      }
      if (problem.groupOffsets.size() < 2) {
        llvm::errs() << "gemm-sim: --group-offsets needs G + 1 >= 2 "
                        "offsets\n";
        return 2;
      }
      problem.m = sizeM;
    }
    if (!problem.m) {
      llvm::errs() << "gemm-sim: every group is empty (M = 0); give at least "
                      "one row\n";
      return 2;
    }
    problem.n = sizeN;
    problem.k = sizeK;
    problems.push_back(problem);
  } else if (sizeM || sizeN || sizeK) {
    if (!sizeM || !sizeN || !sizeK) {
      llvm::errs() << "gemm-sim: give all of --m, --n and --k (each >= 1)\n";
      return 2;
    }
    problems.push_back({sizeM, sizeN, sizeK, batch});
  }
  for (const std::string &text : shapes) {
    std::optional<sim::Problem> problem = parseShape(text);
    if (!problem) {
      llvm::errs() << "gemm-sim: --shape '" << text
                   << "' is not MxNxK or MxNxKxB with sizes >= 1\n";
      return 2;
    }
    problems.push_back(*problem);
  }
  for (sim::Problem &problem : problems)
    problem.broadcast = broadcastMask;
  if (problems.empty() && !coverage) {
    llvm::errs() << "gemm-sim: no problem: give --m/--n/--k, --shape or "
                    "--coverage\n";
    return 2;
  }

  DialectRegistry registry;
  registry.insert<mlir::gemm::GemmDialect, gpu::GPUDialect, scf::SCFDialect,
                  arith::ArithDialect, math::MathDialect, NVVM::NVVMDialect,
                  LLVM::LLVMDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(input, &context);
  if (!module)
    return 2;
  bool matmuls = false;
  module->walk([&](mlir::gemm::MatmulOp) { matmuls = true; });
  if (matmuls) {
    PassManager pm(&context);
    pm.addPass(mlir::gemm::createGemmMaterializeSM90());
    pm.addPass(mlir::gemm::createGemmMaterializeSM100());
    if (failed(pm.run(*module)))
      return 2;
  }
  FailureOr<sim::KernelSet> set = sim::KernelSet::get(*module);
  if (failed(set))
    return 2;
  int status = 0;
  bool any = false;
  unsigned total = 0, passed = 0;
  for (sim::Kernel &kernel : set->kernels()) {
    std::string name = kernel.manifest().kernel;
    if (!kernelNames.empty() &&
        llvm::find(kernelNames, name) == kernelNames.end())
      continue;
    any = true;
    std::vector<sim::Problem> list = problems;
    if (coverage)
      for (const sim::Problem &problem : kernel.coverageProblems(sms))
        list.push_back(problem);
    for (const sim::Problem &problem : list) {
      sim::RunOptions options = base;
      options.problem = problem;
      auto start = std::chrono::steady_clock::now();
      sim::RunResult result = kernel.run(options);
      ++total;
      double seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      std::string what = name + " " + problem.toString();
      if (result.violation) {
        llvm::outs() << "FAIL " << what << "\n"
                     << sim::formatViolation(*result.violation);
        status = std::max(status, 3);
        continue;
      }
      if (result.mismatches) {
        llvm::outs() << "FAIL " << what << ": " << result.mismatches
                     << " element(s) of C differ from the reference\n";
        for (const std::string &line : result.mismatchReport)
          llvm::outs() << "  " << line << "\n";
        status = std::max(status, 1);
      } else {
        ++passed;
        if (!quiet)
          llvm::outs() << "PASS " << what << ": " << schedule << ", "
                       << result.stats.executions << " execution(s)"
                       << (result.stats.truncated ? " (bound reached)" : "")
                       << ", " << result.stats.ctas << " CTAs x "
                       << (result.stats.ctas
                               ? result.stats.threads / result.stats.ctas
                               : 0)
                       << " threads, " << result.stats.steps << " steps, "
                       << llvm::format("%.2f", seconds) << " s"
                       << amaxText(result)
                       << (result.refusedGroups.empty()
                               ? ""
                               : ", no write: the records are refused (" +
                                     result.refusedGroups + ")")
                       << "\n";
      }
      if (!dumpDir.empty() && options.data == sim::DataMode::Full) {
        std::string path = dumpDir + "/" + name + "_" + shapeName(problem) +
                           "_s" + std::to_string(seed.getValue()) + ".bin";
        std::string error;
        if (!::gemm::bundle::writeMatrixDump(path, result.c, error)) {
          llvm::errs() << "gemm-sim: " << error << "\n";
          return 2;
        }
        // The amax of an fp8 output: the f32's bits in hex, then its value.
        if (result.amax) {
          std::string amaxPath = path.substr(0, path.size() - 4) + ".amax";
          std::error_code ec;
          llvm::raw_fd_ostream os(amaxPath, ec);
          if (ec) {
            llvm::errs() << "gemm-sim: cannot write " << amaxPath << "\n";
            return 2;
          }
          os << amaxBits(*result.amax) << " "
             << llvm::format("%.9g", double(*result.amax)) << "\n";
        }
      }
    }
  }
  if (!any) {
    llvm::errs() << "gemm-sim: no kernel to run (names: --kernel)\n";
    return 2;
  }
  llvm::outs() << "gemm-sim: " << total << " run(s), " << passed << " passed, "
               << total - passed << " failed\n";
  return status;
}
