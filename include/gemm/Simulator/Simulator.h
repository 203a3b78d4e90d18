//===- Simulator.h - Execute gemm kernel IR on the CPU ----------*- C++ -*-===//
//
// A simulator of the materialized gemm kernel IR (the output of
// gemm-materialize-sm90 / gemm-materialize-sm100, before the NVVM lowering):
// every thread of every CTA of a small grid runs the kernel's ops with the
// hardware semantics of the PTX instructions they become (docs/Verification.md
// lists each modelled rule and where it comes from). It serves two purposes:
//
//  - data mode: run a kernel on small-integer inputs and compare C bit for bit
//    with an exact reference (gemm-sim, the lit tests);
//  - protocol checking: every run tracks the happens-before order of all
//    accesses to shared, tensor and global memory and the intent of every
//    barrier operation (the iteration it names), and reports the first
//    violation (a race on a ring stage, a read before its bytes arrived, a
//    waiter that can confuse phases, an arrival in the wrong phase, a
//    deadlock, a mask outside the cluster, ...) at the op, with a trace
//    (gemm-check-protocol).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_SIMULATOR_SIMULATOR_H
#define GEMM_SIMULATOR_SIMULATOR_H

#include "gemm/Bundle/Manifest.h"
#include "gemm/Bundle/TestData.h"
#include "gemm/Runtime/GroupProblems.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm::sim {

namespace bundle = ::gemm::bundle;

/// How the simulator orders the threads' steps and the completions of
/// asynchronous operations.
enum class ScheduleMode {
  /// One fixed order: each ready thread runs until it blocks (round robin);
  /// an asynchronous operation completes only when no thread can run (the
  /// latest the hardware could complete it).
  Deterministic,
  /// Seeded random choices at every visible operation and completion.
  Random,
  /// Every schedule within the bounds, by stateless re-execution with state
  /// hashing (docs/Verification.md: which choices are explored and why the
  /// reduction is sound).
  Exhaustive,
};

/// What a run computes.
enum class DataMode {
  /// Real data: TMA copies, MMA products, epilogue conversions, stores; C is
  /// compared with the reference.
  Full,
  /// Only what control flow and the protocol depend on (integers, barrier
  /// state, happens-before): no tile data. Control flow never depends on
  /// tile values, so the protocol checks see the same executions.
  Protocol,
};

struct Problem {
  uint64_t m = 0, n = 0, k = 0;
  /// Batched kernels: the number of problems, and the operands whose batch
  /// stride is 0 (one matrix read by every entry): bit 0 A, bit 1 B.
  uint64_t batch = 1;
  unsigned broadcast = 0;
  /// Grouped kernels (gemm.matmul ... grouped): the G + 1 group offsets into
  /// the m rows of A and C, group g owning rows [offsets[g], offsets[g + 1])
  /// and entry g of B; empty when not grouped. They may be invalid
  /// (decreasing, negative, past m): the group table then says so (its
  /// error word) and the kernel must write nothing.
  std::vector<int64_t> groupOffsets;
  bool grouped() const { return !groupOffsets.empty(); }
  /// The groups' rows M_g when the offsets are a prefix sum from 0 to m
  /// (what gemm-runner --groups takes); nullopt otherwise.
  std::optional<std::vector<uint64_t>> groupRows() const;
  /// General grouped kernels (gemm.matmul ... grouped(general)): every
  /// group's M_g, N_g, K_g (m, n, k unused, 0). The simulator lays the
  /// groups out as gemm-runner does (runtime::general::packGroups, the odd
  /// groups' A and B lines padded) and builds the group table and the
  /// groups' tensor maps with the runtime's host code (buildGeneralTable).
  /// Bad records (a negative size, K_g = 0 with tiles) are kept: the
  /// table's error word then says so and the kernel must write nothing.
  std::vector<::gemm::runtime::general::GroupSize> groupSizes;
  bool general() const { return !groupSizes.empty(); }
  /// "m=200 n=300 k=136" (+ " batch=3", " broadcast a|b|ab", " groups=128,0,72"
  /// (M_g) or " group offsets=0,100,50,200" when they do not cover 0 .. m);
  /// general groups: "general groups=100x64x72,0x8x8".
  std::string toString() const;
};

struct RunOptions {
  Problem problem;
  /// SMs of the simulated GPU: a persistent grid has at most this many CTAs
  /// (in whole clusters); a grid of one cluster per tile (cluster launch
  /// control) runs this many CTAs at a time, the others wait to launch.
  uint32_t sms = 4;
  /// Seed of the small-integer inputs (gemm/Bundle/TestData.h).
  uint64_t inputSeed = 1;
  DataMode data = DataMode::Full;
  ScheduleMode schedule = ScheduleMode::Deterministic;
  /// Random schedules: the seed of the first run; run i uses seed + i.
  uint64_t scheduleSeed = 1;
  /// Random schedules: how many runs.
  uint32_t runs = 1;
  /// Exhaustive: at most this many executions and distinct states.
  uint64_t maxExecutions = 200;
  uint64_t maxStates = 100000;
  /// Exhaustive: explore the order of every visible step of the threads (not
  /// only the choices the reduction keeps); only for tiny bounds.
  bool exhaustiveInterleavings = false;
  /// Any single run stops with an error after this many interpreted ops
  /// (a kernel that loops without blocking).
  uint64_t maxSteps = 400000000;
};

/// A protocol violation (or a simulator error) at an op.
struct Violation {
  enum class Kind {
    /// Two accesses to the same memory not ordered by happens-before:
    /// overwrite of a stage a reader still holds, read before the bytes
    /// arrived, write-write race.
    Race,
    /// A barrier wait that can observe a phase other than the one it names.
    PhaseConfusion,
    /// An arrival that lands in another phase than the one it names, more
    /// arrivals than the count, a barrier left with a partial phase.
    Arrival,
    /// No thread can make progress.
    Deadlock,
    /// A multicast or peer mask naming a CTA outside the cluster.
    Mask,
    /// Any other broken hardware rule (use before init, TMEM misuse,
    /// accumulator read before its wgmma.wait_group, ...).
    Rule,
    /// The simulator cannot execute the kernel (unknown op, unsupported
    /// form); not a finding about the kernel.
    Unsupported,
  };
  Kind kind = Kind::Rule;
  Operation *op = nullptr;
  std::string message;
  /// Other ops involved, with what they did.
  std::vector<std::pair<Operation *, std::string>> notes;
  /// The counterexample: the events leading to the violation, one per line
  /// (CTA, role, op, barrier, stage, phase, iteration).
  std::vector<std::string> trace;
  /// Problem, grid and schedule of the run that found it.
  std::string context;

  static const char *kindName(Kind kind);
};

struct RunStats {
  uint64_t steps = 0;
  uint64_t executions = 0;
  uint64_t states = 0;
  uint32_t ctas = 0;
  uint32_t threads = 0;
  /// Exhaustive exploration stopped at a bound before covering every
  /// schedule.
  bool truncated = false;
  /// A run stopped at RunOptions::maxSteps (its violation says so).
  bool stepLimit = false;
};

struct RunResult {
  std::optional<Violation> violation;
  /// Data mode: elements of C that differ from the reference.
  uint64_t mismatches = 0;
  /// Data mode: the first mismatches, one per line.
  std::vector<std::string> mismatchReport;
  /// Data mode: C as the kernel left it (of the last run).
  bundle::MatrixDump c;
  /// Data mode, kernels with an amax output: the f32 the kernel wrote.
  std::optional<float> amax;
  /// General grouped kernels whose group table holds an error (the prep
  /// kernel refused a record, so the kernel writes nothing): its message.
  std::string refusedGroups;
  RunStats stats;

  bool passed() const { return !violation && mismatches == 0; }
};

class KernelImage;

/// One kernel of a module: its gpu.func, its launch contract and the
/// simulator's precomputed view of its IR.
class Kernel {
public:
  ~Kernel();
  Kernel(Kernel &&);
  Kernel &operator=(Kernel &&);

  gpu::GPUFuncOp func() const;
  const bundle::KernelManifest &manifest() const;
  /// Runs the kernel on `options.problem` under the options' schedule(s).
  RunResult run(const RunOptions &options) const;
  /// Problems that exercise every part of the kernel that a small problem
  /// can: persistent wrap-around, ring wrap-around, edge tiles, K tails,
  /// empty split-K ranges, stream-K shares, cluster launch control
  /// cancellations. Used by gemm-check-protocol.
  std::vector<Problem> coverageProblems(uint32_t sms) const;

private:
  friend class KernelSet;
  explicit Kernel(std::unique_ptr<KernelImage> image);
  std::unique_ptr<KernelImage> image;
};

/// The kernels of a module that carry a launch contract (gemm.bundles).
class KernelSet {
public:
  /// Fails with a diagnostic on the module when a kernel's contract is
  /// missing or unreadable. With `skipUncontracted`, a kernel without a
  /// contract (a hand-written gpu.func, not made by the materializers) is
  /// left out instead (gemm-check-protocol in the pipelines, which lower
  /// such kernels as they are).
  static FailureOr<KernelSet> get(ModuleOp module,
                                  bool skipUncontracted = false);
  std::vector<Kernel> &kernels() { return list; }

private:
  std::vector<Kernel> list;
};

/// Emits `violation` as an error at its op, with its notes and its trace as
/// one note.
void emitViolation(const Violation &violation);

/// The lines of `violation` as gemm-sim prints them.
std::string formatViolation(const Violation &violation);

} // namespace mlir::gemm::sim

#endif // GEMM_SIMULATOR_SIMULATOR_H
