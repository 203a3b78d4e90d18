//===- CheckProtocol.cpp - Prove each kernel's protocol in the simulator --===//
//
// gemm-check-protocol: every kernel of the module runs in the simulator
// (lib/Simulator) on the small problems that exercise it; the first
// violation of a kernel is reported at its op with the counterexample.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"
#include "gemm/Simulator/Simulator.h"

#include "mlir/IR/Threading.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMCHECKPROTOCOL
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Whether the kernel has operations whose outcome depends on the order of
/// the CTAs (the reduced exhaustive mode has something to explore).
bool hasOrderDependentOps(gpu::GPUFuncOp func) {
  bool found = false;
  func.walk(
      [&](Operation *op) { found |= isa<SplitKArriveOp, ClcTryCancelOp>(op); });
  return found;
}

struct GemmCheckProtocolPass
    : public mlir::gemm::impl::GemmCheckProtocolBase<GemmCheckProtocolPass> {
  using Base::Base;

  void runOnOperation() override {
    // Kernels the materializers made carry a launch contract; a
    // hand-written gpu.func has none to launch it by and is not checked.
    FailureOr<sim::KernelSet> set =
        sim::KernelSet::get(getOperation(), /*skipUncontracted=*/true);
    if (failed(set))
      return signalPassFailure();
    std::vector<sim::Kernel> &kernels = set->kernels();
    std::vector<std::optional<sim::Violation>> violations(kernels.size());
    std::vector<std::string> reports(kernels.size()), warnings(kernels.size());
    // Kernels are independent: check them in parallel (MLIR's thread pool;
    // the simulator shares nothing mutable between runs).
    parallelFor(&getContext(), 0, kernels.size(), [&](size_t index) {
      violations[index] =
          check(kernels[index], reports[index], warnings[index]);
    });
    bool failed = false;
    for (size_t i = 0; i < kernels.size(); ++i) {
      if (report)
        llvm::errs() << reports[i];
      // At the kernel's location, without printing the kernel.
      if (!warnings[i].empty())
        mlir::emitWarning(kernels[i].func().getLoc(), warnings[i]);
      if (violations[i]) {
        sim::emitViolation(*violations[i]);
        failed = true;
      }
    }
    if (failed)
      signalPassFailure();
  }

  /// Runs one kernel on its coverage problems (within the step bound); the
  /// first violation.
  /// `warning`: set when the step bound stopped the check.
  std::optional<sim::Violation> check(const sim::Kernel &kernel,
                                      std::string &text,
                                      std::string &warning) const {
    auto start = std::chrono::steady_clock::now();
    // Two clusters where clusters interact (split-K and stream-K counters,
    // cluster launch control); otherwise clusters share nothing, and one,
    // looping over several tile units, shows all there is.
    uint32_t clusterSize = kernel.manifest().cluster[0];
    uint32_t clusters = hasOrderDependentOps(kernel.func()) ? 2 : 1;
    uint32_t machineSms = sms ? sms : clusters * clusterSize;
    std::vector<sim::Problem> problems = kernel.coverageProblems(machineSms);
    auto size = [](const sim::Problem &p) { return p.m * p.n * p.k * p.batch; };
    // Under a step bound the smallest problems first: the bound then cuts
    // the costly ones, not the one-tile problem.
    if (maxSteps)
      std::stable_sort(problems.begin(), problems.end(),
                       [&](const sim::Problem &x, const sim::Problem &y) {
                         return size(x) < size(y);
                       });
    uint64_t runs = 0, steps = 0;
    size_t checked = 0;
    bool stopped = false;
    std::optional<sim::Violation> violation;
    auto run = [&](sim::RunOptions options) {
      options.sms = machineSms;
      options.data = sim::DataMode::Protocol;
      if (maxSteps) {
        if (steps >= maxSteps) {
          stopped = true;
          return false;
        }
        options.maxSteps = maxSteps - steps;
      }
      sim::RunResult result = kernel.run(options);
      runs += result.stats.executions;
      steps += result.stats.steps;
      // The budget, not the kernel, ended the run.
      if (maxSteps && result.stats.stepLimit && steps >= maxSteps) {
        stopped = true;
        return false;
      }
      if (result.violation)
        violation = std::move(result.violation);
      return !violation;
    };
    for (const sim::Problem &problem : problems) {
      sim::RunOptions options;
      options.problem = problem;
      if (!run(options))
        break;
      if (randomRuns) {
        options.schedule = sim::ScheduleMode::Random;
        options.runs = randomRuns;
        if (!run(options))
          break;
      }
      ++checked;
    }
    if (!violation && !stopped && exhaustiveExecutions &&
        hasOrderDependentOps(kernel.func())) {
      // The smallest problem: the fewest choices.
      sim::RunOptions options;
      options.problem = problems.back();
      for (const sim::Problem &problem : problems)
        if (size(problem) < size(options.problem))
          options.problem = problem;
      options.schedule = sim::ScheduleMode::Exhaustive;
      options.maxExecutions = exhaustiveExecutions;
      run(options);
    }
    // An op (or a form of one) the simulator does not model says nothing
    // about the kernel: the kernel is left unchecked, with a warning naming
    // the op, so that a new kind of kernel never fails the pipelines before
    // the simulator learns it.
    bool unsimulated =
        violation && violation->kind == sim::Violation::Kind::Unsupported;
    if (unsimulated) {
      bool atOp =
          violation->op && violation->op != kernel.func().getOperation();
      std::string what = atOp ? violation->op->getName().getStringRef().str()
                              : violation->message;
      warning = "not simulated: " + what + "; the protocol of kernel '" +
                kernel.manifest().kernel + "' is not checked";
      if (atOp)
        warning += " (" + violation->message + ")";
      violation.reset();
    }
    if (stopped && !violation && !unsimulated)
      warning = "gemm-check-protocol stopped at its step bound (max-steps = " +
                std::to_string(maxSteps) + ") after " +
                std::to_string(checked) + " of " +
                std::to_string(problems.size()) +
                " problem(s): the protocol of kernel '" +
                kernel.manifest().kernel + "' is checked only that far";
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    llvm::raw_string_ostream os(text);
    os << "gemm-check-protocol: " << kernel.manifest().kernel << ": "
       << problems.size() << " problem(s), " << runs << " run(s), "
       << llvm::format("%.2f", seconds) << " s"
       << (violation ? ", violation" : "")
       << (unsimulated ? ", not simulated" : "")
       << (stopped ? ", stopped at the step bound" : "") << "\n";
    return violation;
  }
};

} // namespace
