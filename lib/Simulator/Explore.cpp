//===- Explore.cpp - The exhaustive schedule mode
//--------------------------===//
//
// Stateless depth-first search over the scheduler's choices with state
// caching: each execution replays a prefix of choices from the launch, then
// takes the first alternative at every new choice point and records how many
// there were; the next execution takes the next alternative at the deepest
// choice point that has one. A choice point whose state (Machine::stateHash)
// was reached before, outside the replayed prefix, ends the execution: its
// continuations were explored from the first visit (depth-first order
// finishes a subtree before it changes a choice above it).
//
// Which choices there are is the Machine's business: in the reduced mode
// the order of the operations whose outcome depends on it (split-K counter
// arrivals, cluster launch control responses), with every other step in a
// fixed order; with `exhaustiveInterleavings`, every step of every group of
// threads and every asynchronous completion. docs/Verification.md argues
// why the reduced mode is sound.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

class ReplayChoices : public ChoiceSource {
public:
  ReplayChoices(std::vector<std::pair<size_t, size_t>> prefix,
                llvm::DenseSet<uint64_t> &visited)
      : path(std::move(prefix)), replay(path.size()), visited(visited) {}

  bool visit(uint64_t hash) override {
    // States on the replayed prefix were visited by the execution that
    // chose it; only new states count.
    if (depth < replay)
      return true;
    return visited.insert(hash).second;
  }

  size_t choose(size_t count) override {
    if (depth < path.size())
      return path[depth++].first;
    path.push_back({0, count});
    ++depth;
    return 0;
  }

  std::vector<std::pair<size_t, size_t>> path;
  size_t replay;
  size_t depth = 0;
  llvm::DenseSet<uint64_t> &visited;
};

} // namespace

void sim::explore(const KernelImage &kernel, const RunOptions &options,
                  const runtime::LaunchPlan &plan, RunResult &result,
                  RunOnce runOnce) {
  llvm::DenseSet<uint64_t> visited;
  std::vector<std::pair<size_t, size_t>> prefix;
  while (true) {
    if (result.stats.executions >= options.maxExecutions ||
        visited.size() >= options.maxStates) {
      result.stats.truncated = true;
      break;
    }
    ReplayChoices choices(prefix, visited);
    bool passed = runOnce(&choices, result.stats.executions);
    result.stats.states = visited.size();
    if (!passed)
      return;
    // The next path: the deepest choice with an untried alternative.
    std::vector<std::pair<size_t, size_t>> path = std::move(choices.path);
    path.resize(choices.depth);
    while (!path.empty() && path.back().first + 1 >= path.back().second)
      path.pop_back();
    if (path.empty())
      break;
    ++path.back().first;
    prefix = std::move(path);
  }
  result.stats.states = visited.size();
}
