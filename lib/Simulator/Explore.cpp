//===- Explore.cpp - The exhaustive schedule mode
//--------------------------===//

#include "Machine.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

/// Replays a prefix of choices, then takes the first alternative at every
/// further choice point and records how many there were.
class ReplayChoices : public ChoiceSource {
public:
  explicit ReplayChoices(std::vector<std::pair<size_t, size_t>> prefix)
      : path(std::move(prefix)) {}
  size_t choose(size_t count) override {
    if (depth < path.size()) {
      return path[depth++].first;
    }
    path.push_back({0, count});
    ++depth;
    return 0;
  }
  std::vector<std::pair<size_t, size_t>> path;
  size_t depth = 0;
};

} // namespace

void sim::explore(const KernelImage &kernel, const RunOptions &options,
                  const runtime::LaunchPlan &plan, RunResult &result,
                  RunOnce runOnce) {
  std::vector<std::pair<size_t, size_t>> prefix;
  while (true) {
    if (result.stats.executions >= options.maxExecutions) {
      result.stats.truncated = true;
      return;
    }
    ReplayChoices choices(prefix);
    if (!runOnce(&choices, result.stats.executions))
      return;
    // The next path: the deepest choice with an untried alternative.
    std::vector<std::pair<size_t, size_t>> path = choices.path;
    while (!path.empty() && path.back().first + 1 >= path.back().second)
      path.pop_back();
    if (path.empty())
      return;
    ++path.back().first;
    prefix = std::move(path);
  }
}
