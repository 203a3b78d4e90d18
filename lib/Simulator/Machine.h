//===- Machine.h - The simulated GPU: threads, memories, barriers -*- C++
//-*-===//
//
// Internal to the simulator. The state of one simulated launch: every thread
// with its SSA values and control stack, the CTAs' shared and tensor memory,
// global memory, mbarriers, named and cluster barriers, the asynchronous
// operations in flight, and the happens-before bookkeeping (vector clocks
// and per-granule access records) the protocol checks rest on.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_SIMULATOR_MACHINE_H
#define GEMM_LIB_SIMULATOR_MACHINE_H

#include "Elements.h"
#include "Kernel.h"

#include "gemm/Runtime/Plan.h"
#include "gemm/Simulator/Simulator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace mlir::gemm::sim {

namespace runtime = ::gemm::runtime;

//===----------------------------------------------------------------------===//
// Happens-before: vector clocks and epochs
//===----------------------------------------------------------------------===//

using Clock = uint32_t;

/// "Component `comp` reached `clock`": a thread's own step, the completion
/// of a barrier phase (comp of the barrier, clock = phases completed), or
/// the completion of an ordered family of asynchronous operations (wgmma
/// groups of a warpgroup, bulk store groups or tcgen05 operations of a
/// thread).
struct Epoch {
  uint32_t comp = 0;
  Clock clock = 0;
};

class VectorClock {
public:
  Clock get(uint32_t comp) const {
    return comp < clocks.size() ? clocks[comp] : 0;
  }
  void raise(uint32_t comp, Clock clock) {
    if (comp >= clocks.size())
      clocks.resize(comp + 1, 0);
    if (clocks[comp] < clock)
      clocks[comp] = clock;
  }
  void join(const VectorClock &other) {
    if (other.clocks.size() > clocks.size())
      clocks.resize(other.clocks.size(), 0);
    for (size_t i = 0, e = other.clocks.size(); i < e; ++i)
      clocks[i] = std::max(clocks[i], other.clocks[i]);
  }
  bool knows(Epoch epoch) const { return get(epoch.comp) >= epoch.clock; }
  /// Every component of `other` is known here.
  bool covers(const VectorClock &other) const {
    for (size_t i = 0, e = other.clocks.size(); i < e; ++i)
      if (other.clocks[i] > get(i))
        return false;
    return true;
  }

private:
  std::vector<Clock> clocks;
};

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// A thread's WGMMA accumulator registers (gemm.accum): atoms x cols/2
/// values in the WGMMA register layout (f32 values, or s32 ones for an i32
/// accumulator: doubles hold both exactly). `pending` until the wgmma group
/// of the MMA that writes them completed.
struct Fragment {
  std::vector<double> values;
  bool pending = false;
  /// The async MMA that will write this fragment (diagnostics).
  uint32_t producer = 0;
};

/// One SSA value of one thread. Integers (zero-extended to their width),
/// handles (shared-memory offsets, descriptor indices, global addresses,
/// TMEM addresses) in `bits`; floats in `f` (exact in their type); an
/// accumulator or a vector in `ref`.
struct SimValue {
  uint64_t bits = 0;
  double f = 0;
  std::shared_ptr<void> ref;

  std::shared_ptr<Fragment> fragment() const {
    return std::static_pointer_cast<Fragment>(ref);
  }
  std::shared_ptr<std::vector<float>> vector() const {
    return std::static_pointer_cast<std::vector<float>>(ref);
  }
};

//===----------------------------------------------------------------------===//
// Memory with access tracking
//===----------------------------------------------------------------------===//

/// An access to memory, as recorded for the race checks.
struct Access {
  /// Who must be known to have completed it: a thread's step, or the
  /// completion epoch of an asynchronous operation.
  Epoch epoch;
  Operation *op = nullptr;
  /// The thread that executed or issued it.
  uint32_t thread = 0;
  /// The pipeline iteration the op names (-1: none).
  int64_t iteration = -1;
  /// The asynchronous operation (0: a thread's own access).
  uint32_t async = 0;
  /// A generic-proxy write to shared memory: the async proxy (TMA) may read
  /// it only after the writer's fence.proxy.async, i.e. once this epoch of
  /// the writer's fence counter is known.
  std::optional<Epoch> proxyFence;
};

/// The access records of one 16-byte granule.
struct Granule {
  struct Write {
    Access access;
    uint16_t mask = 0;
  };
  llvm::SmallVector<Write, 1> writes;
  llvm::SmallVector<Access, 2> reads;
  /// An asynchronous write issued and not landed (its Access).
  std::optional<Access> pending;
};

/// Bytes with their granules' access records.
struct TrackedMemory {
  std::vector<uint8_t> bytes;
  std::vector<Granule> granules;
  /// Diagnostics: "shared memory of CTA 1".
  std::string name;

  void resize(size_t size) {
    bytes.assign(size, 0);
    granules.assign((size + 15) / 16, Granule());
  }
};

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

/// An mbarrier (PTX ISA "Parallel Synchronization and Communication
/// Instructions: mbarrier").
struct MBarrier {
  bool initialized = false;
  uint32_t cta = 0;
  /// The pipeline, stage and side it belongs to (diagnostics, intents).
  int pipeline = -1;
  int64_t stage = 0;
  bool empty = false;
  int64_t count = 0;
  int64_t pending = 0;
  int64_t tx = 0;
  uint64_t completed = 0;
  uint32_t comp = 0;
  /// Knowledge released into the current phase, and that of the last
  /// completed phase (which waiters acquire).
  VectorClock accum, last;
  /// The init and the fence.mbarrier_init after it.
  Access init;
  std::optional<Epoch> fence;
  /// Threads that observed the last completed phase and when.
  std::vector<std::pair<uint32_t, Clock>> observers;
  /// Arrivals of the current phase (thread ids; async arrivals as ~0u).
  std::vector<uint32_t> arrivals;
  std::vector<uint32_t> waiters;
};

/// bar.sync / bar.red.or on one id of one CTA (PTX ISA "bar, barrier").
struct NamedBarrier {
  int64_t expected = 0;
  std::vector<uint32_t> arrived;
  VectorClock accum;
  bool any = false;
  uint64_t instances = 0;
  /// The completion of the last instance, whose participants every
  /// arrival of the next must know.
  VectorClock lastDone;
  std::vector<uint32_t> lastParticipants;
  Operation *firstOp = nullptr;
  std::vector<uint32_t> waiters;
};

/// A rendezvous of a fixed set of threads (a warp's bar.warp.sync, the
/// cluster barrier, a warp-collective op).
struct Rendezvous {
  int64_t expected = 0;
  std::vector<uint32_t> arrived;
  VectorClock accum;
  uint64_t instances = 0;
  VectorClock done;
  Operation *op = nullptr;
  std::vector<uint32_t> waiters;
};

//===----------------------------------------------------------------------===//
// Asynchronous operations
//===----------------------------------------------------------------------===//

enum class AsyncKind {
  TmaLoad,
  TmaStore,
  Wgmma,
  Tcgen05Mma,
  Tcgen05Commit,
  Clc,
  ScaleCopy
};

/// An asynchronous operation in flight.
struct AsyncOp {
  AsyncKind kind = AsyncKind::TmaLoad;
  uint32_t id = 0;
  Operation *op = nullptr;
  uint32_t thread = 0;
  uint32_t cta = 0;
  int64_t iteration = -1;
  /// What the issuer(s) knew at issue: the operation happens after it.
  VectorClock knowledge;
  bool done = false;
  /// Ordered families complete in issue order: the family's queue key
  /// (0: unordered, e.g. TMA loads).
  uint64_t queue = 0;

  // TMA load: destination CTAs and offsets, barriers, the box.
  std::vector<uint32_t> ctas;
  std::vector<uint32_t> barrierCtas;
  uint32_t smemOffset = 0, barrierOffset = 0;
  int tensorMap = -1;
  int64_t inner = 0, outer = 0;
  /// The batch entry (third coordinate) of a rank-3 tensor map's box.
  int64_t batch = 0;
  int64_t bytes = 0;
  // TMA store: source offset and the bulk group it belongs to.
  uint32_t group = 0;
  // WGMMA: the warpgroup's MMA, and per participating thread its input and
  // output fragments.
  struct Participant {
    uint32_t thread;
    std::shared_ptr<Fragment> in, out;
  };
  std::vector<Participant> participants;
  bool overwrite = false;
  uint32_t aOffset = 0, bOffset = 0;
  Operation *mma = nullptr;
  // tcgen05: D column, accumulate flag; commit: barrier CTAs + offset.
  uint32_t tmemColumn = 0;
  bool accumulate = false;
  uint32_t ordinal = 0;
  // CLC: response slot.
  uint32_t responseOffset = 0;
  // Scale copy (gemm.scale.stage, one lane's cp.async): the shared-memory
  // offset and value of each 4-byte copy; barrierOffset is the full barrier
  // it arrives on once they landed.
  std::vector<std::pair<uint64_t, float>> scaleCopies;
};

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

enum class Role { Kernel, Producer, Consumer, Load, Mma, Scheduler, Epilogue };

/// A position in a block: the op to run next, and what the block belongs to.
struct Frame {
  Block *block = nullptr;
  Block::iterator next;
  Operation *owner = nullptr;
  /// scf.for: induction variable, bound and step (as signed values).
  int64_t iv = 0, ub = 0, step = 0;
};

enum class ThreadState { Ready, Blocked, Done };

struct Thread {
  uint32_t id = 0, cta = 0, tid = 0, warp = 0, lane = 0;
  std::vector<SimValue> values;
  llvm::SmallVector<Frame, 8> stack;
  ThreadState state = ThreadState::Ready;
  VectorClock vc;
  Role role = Role::Kernel;
  int64_t roleIndex = 0;
  /// The blocking op in progress (its intent checks ran; a ticket of the
  /// barrier instance it joined).
  bool started = false;
  uint64_t ticket = 0;
  // WGMMA ops and groups of this thread: warpgroup-collective ops executed,
  // MMAs issued, groups committed and retired, the first MMA of the open
  // group.
  uint32_t collectiveOps = 0;
  uint32_t wgmmaIssued = 0, wgmmaCommitted = 0, wgmmaRetired = 0;
  uint32_t wgmmaGroupStart = 0;
  // Bulk (TMA store) groups: committed, and the stores of the open group.
  uint32_t bulkCommitted = 0, bulkOpenStores = 0;
  std::vector<uint32_t> bulkGroupStores;
  uint32_t bulkReadComp = 0, bulkWriteComp = 0;
  // tcgen05 operations issued by this thread.
  uint32_t tcgenIssued = 0, tcgenComp = 0;
  /// fence.proxy.async counter.
  uint32_t proxyFenceComp = 0;
  /// General groups: the tensor maps (byte offsets in the general table) this
  /// thread acquired for the tensormap proxy
  /// (fence.proxy.tensormap::generic.acquire, gemm.tma.acquire_descriptor).
  llvm::SmallVector<uint64_t, 4> acquiredMaps;
  int64_t registers = 0;
  uint64_t steps = 0;
  /// Exhaustive mode: held before an op whose outcome depends on the order
  /// of its kind (an atomic), until the scheduler picks it.
  bool parked = false, permitted = false;
  /// What the parked op conflicts on (the counter word's address).
  uint64_t parkKey = 0;
};

//===----------------------------------------------------------------------===//
// CTAs, clusters and global memory
//===----------------------------------------------------------------------===//

struct Cta {
  uint32_t index = 0, cluster = 0, rank = 0;
  bool launched = false, exited = false;
  uint32_t firstThread = 0, threads = 0, liveThreads = 0;
  TrackedMemory smem;
  llvm::DenseMap<uint32_t, MBarrier> barriers;
  llvm::DenseMap<int64_t, NamedBarrier> named;
  /// Per warp: bar.warp.sync, and warp-collective ops (tcgen05.alloc, ...).
  std::vector<Rendezvous> warpSync, warpCollective;
  /// TMEM: 128 lanes x 512 columns of f32 cells, the allocation and the
  /// cells' access records (granule = one lane x 32 columns).
  std::vector<float> tmem;
  TrackedMemory tmemTrack;
  uint32_t tmemAllocated = 0;
  /// (first column, columns) of each allocation.
  std::vector<std::pair<uint32_t, uint32_t>> tmemAllocations;
  std::vector<uint32_t> tmemWaiters;
  bool tmemRelinquished = false;
  /// setmaxnreg: registers not held by any warpgroup.
  int64_t freeRegisters = 0;
  std::vector<uint32_t> registerWaiters;
  /// Cluster launch control: a try_cancel was observed to fail.
  bool clcFailed = false;
};

struct Cluster {
  std::vector<uint32_t> ctas;
  bool launched = false, cancelled = false, exited = false;
  Rendezvous barrier;
};

/// A global-memory buffer: A, B, C or a workspace.
struct GlobalBuffer {
  TrackedMemory memory;
  /// Atomic RMWs: the knowledge released into each 4-byte word.
  llvm::DenseMap<uint64_t, VectorClock> atomics;
};

/// A TMA descriptor's runtime fields (the launch plan's TmaPlan) and the
/// buffer it describes.
struct TensorMap {
  runtime::TmaPlan plan;
  int buffer = 0;
  Type elementType;
  /// Byte offset of the tensor's first element in `buffer` (a general
  /// group's matrix in the packed buffers; 0 otherwise).
  uint64_t base = 0;
  /// A general group's map: its group and operand (0 A, 1 B, 2 C), and its
  /// byte offset in the general group table; group -1 for the launch's own
  /// descriptors.
  int64_t group = -1;
  int operand = 0;
  uint64_t tableOffset = 0;
};

//===----------------------------------------------------------------------===//
// Events and scheduling
//===----------------------------------------------------------------------===//

/// One synchronisation event, for counterexample traces.
struct Event {
  uint64_t seq = 0;
  uint32_t thread = 0;
  Operation *op = nullptr;
  std::string text;
  /// The barrier involved (cta, offset), if any.
  int64_t cta = -1;
  int64_t barrier = -1;
};

/// Where the scheduler takes its choices from.
class ChoiceSource {
public:
  virtual ~ChoiceSource() = default;
  /// One of `count` alternatives (count >= 2).
  virtual size_t choose(size_t count) = 0;
  /// Called at each choice point with a hash of the state: false stops the
  /// run (its continuations were explored from an earlier visit).
  virtual bool visit(uint64_t stateHash) { return true; }
};

//===----------------------------------------------------------------------===//
// The machine
//===----------------------------------------------------------------------===//

class Machine;

/// What an op handler says about the thread.
enum class Step {
  /// Done; go on with the next op.
  Next,
  /// Done, and it was a synchronisation point: the scheduler may switch.
  Yield,
  /// The handler moved the thread's position (control flow).
  Jump,
  /// Cannot complete now; retry the same op later.
  Block,
  /// The thread finished.
  Exit,
  /// A violation was recorded: the run ends.
  Stop,
};

class Machine {
public:
  Machine(const KernelImage &kernel, const RunOptions &options,
          const runtime::LaunchPlan &plan, ChoiceSource *choices);

  /// Runs the launch to its end (or the first violation).
  void run();

  const KernelImage &kernel;
  const RunOptions &options;
  const runtime::LaunchPlan &plan;
  bool data() const { return options.data == DataMode::Full; }

  std::vector<Thread> threads;
  std::vector<Cta> ctas;
  std::vector<Cluster> clusters;
  std::vector<GlobalBuffer> global;
  std::vector<TensorMap> tensorMaps;
  /// Global buffer of each tensor (A, B, C) and of each workspace.
  int bufferA = -1, bufferB = -1, bufferC = -1;
  std::vector<int> workspaceBuffers;
  /// Global buffer of each scale (or amax) parameter, in plan.scales order,
  /// and the amax's (-1: none).
  std::vector<int> scaleBuffers;
  int amaxBuffer = -1;
  /// Grouped kernels: the group table (-1: none), as the runtime's prep
  /// kernel writes it before the launch, and the row units it holds.
  int groupTableBuffer = -1;
  uint32_t groupRowUnits = 0;
  /// General grouped kernels: the general group table (-1: none), as the
  /// prep kernel writes it (runtime::general::buildGeneralTable), its
  /// header words, and the tensor maps it holds: byte offset in the table
  /// -> index in tensorMaps (only the maps the prep kernel writes).
  int generalTableBuffer = -1;
  uint32_t generalUnits = 0, generalError = 0, generalReason = 0;
  llvm::DenseMap<uint64_t, int> generalMapAt;
  /// The device addresses the simulator gives the packed A, B, C buffers
  /// in the group records (the prep kernel's rules want them non-null and
  /// 16-byte aligned; global pointer values of buffer 0 are 0): operand t
  /// starts at (t + 1) << 40.
  static uint64_t recordAddress(int operand) {
    return uint64_t(operand + 1) << 40;
  }
  std::vector<std::unique_ptr<AsyncOp>> asyncOps;
  std::vector<uint32_t> inFlight;
  /// Threads blocked until some asynchronous operation completes.
  std::vector<uint32_t> asyncWaiters;
  std::optional<Violation> violation;
  uint64_t steps = 0;
  std::vector<Event> events;
  uint64_t eventSeq = 0;
  /// Warpgroup collectives: per (cta, warpgroup) the k-th collective op.
  llvm::DenseMap<uint64_t, std::vector<Operation *>> collectives;
  /// Warpgroup MMAs being issued: per (cta, warpgroup, ordinal).
  llvm::DenseMap<uint64_t, uint32_t> pendingWgmma;
  /// Per (cta, warpgroup): wgmma groups completed, and the async MMAs of
  /// each committed group.
  llvm::DenseMap<uint64_t, uint32_t> wgmmaComp;
  llvm::DenseMap<uint64_t, std::vector<std::vector<uint32_t>>> wgmmaGroups;

  // --- Components of the vector clocks ---
  uint32_t newComponent() { return nextComp++; }

  // --- Violations ---
  /// Records the violation (the first one only: the run ends with it) and
  /// returns Step::Stop for handlers to return. Code after a violation must
  /// stay safe (bounds are checked before memory is touched).
  Step fail(Violation::Kind kind, Operation *op, const std::string &message,
            std::vector<std::pair<Operation *, std::string>> notes = {},
            std::vector<uint32_t> traceThreads = {},
            std::vector<std::pair<int64_t, int64_t>> traceBarriers = {});

  // --- Descriptions ---
  std::string describeThread(const Thread &thread) const;
  std::string describeThread(uint32_t thread) const {
    return describeThread(threads[thread]);
  }
  std::string describeBarrier(const MBarrier &barrier) const;
  std::string describeAccess(const Access &access) const;
  void log(const Thread &thread, Operation *op, std::string text,
           int64_t cta = -1, int64_t barrier = -1);
  void log(uint32_t thread, Operation *op, std::string text, int64_t cta = -1,
           int64_t barrier = -1) {
    log(threads[thread], op, std::move(text), cta, barrier);
  }

  // --- Barriers ---
  MBarrier &barrierAt(Operation *op, uint32_t cta, uint32_t offset);
  /// One arrival (and `tx` expected bytes) on `barrier`; `intended` is the
  /// phase the op names.
  void arrive(MBarrier &barrier, uint32_t offset, Operation *op,
              uint32_t thread, const VectorClock &knowledge, int64_t count,
              int64_t tx, int64_t intended, int64_t iteration, bool async);
  /// `bytes` transaction bytes completed by an asynchronous operation.
  void completeTx(MBarrier &barrier, uint32_t offset, Operation *op,
                  uint32_t thread, const VectorClock &knowledge, int64_t bytes,
                  int64_t intended, int64_t iteration);
  void maybeCompletePhase(MBarrier &barrier, uint32_t offset, Operation *op);
  /// A pipeline wait of `thread` on `barrier` for phase `intended`
  /// (-1: the phase before the first). Block or Next.
  Step waitPhase(Thread &thread, Operation *op, MBarrier &barrier,
                 uint32_t offset, int64_t intended, int64_t iteration);

  /// Joins `thread` into a rendezvous; true once every expected thread came.
  /// With `orders` (a barrier) every participant's clock then includes all
  /// of theirs; without (an execution-only .sync.aligned op) nothing is
  /// ordered.
  bool rendezvous(Thread &thread, Rendezvous &point, Operation *op,
                  int64_t expected, bool orders = true);

  // --- Memory ---
  /// Checks and records an access of `bytes` bytes at `offset` of `memory`.
  /// Reads must know the last write; writes must know every read and write
  /// since. An async write is recorded as pending until completeWrite.
  /// Return false after recording a violation.
  bool checkRead(TrackedMemory &memory, uint64_t offset, uint64_t bytes,
                 const VectorClock &knowledge, const Access &access,
                 const char *what, bool asyncProxy = false);
  bool checkWrite(TrackedMemory &memory, uint64_t offset, uint64_t bytes,
                  const VectorClock &knowledge, const Access &access,
                  bool async, const char *what);
  void completeWrite(TrackedMemory &memory, uint64_t offset, uint64_t bytes,
                     const Access &access);
  /// Whether [offset, offset + bytes) lies inside `memory`; records a
  /// violation of `what` (which `verb`s the bytes) when not.
  bool checkInside(TrackedMemory &memory, uint64_t offset, uint64_t bytes,
                   const Access &access, const char *what, const char *verb);
  /// The Access of a thread's own (synchronous) access now; a write to
  /// shared memory through the generic proxy records the fence it needs.
  Access threadAccess(Thread &thread, Operation *op, int64_t iteration = -1,
                      bool genericSmemWrite = false);

  // --- Asynchronous operations ---
  AsyncOp &newAsync(AsyncKind kind, Thread &thread, Operation *op);
  /// Completes async op `id` (its data, its arrivals).
  void complete(uint32_t id);
  /// Whether `id` may complete now (ordered families: the oldest first).
  bool completable(const AsyncOp &op) const;
  /// Completes async ops of `queue` until `until` is done.
  void completeQueueUpTo(uint64_t queue, uint32_t until);

  // --- Threads ---
  void wake(std::vector<uint32_t> &waiters);
  void wake(uint32_t thread);
  void block(Thread &thread, std::vector<uint32_t> &waiters);
  /// Runs `thread` until it blocks, exits or, with `untilYield`, passes a
  /// synchronisation point.
  void runThread(Thread &thread, bool untilYield);
  void threadExited(Thread &thread);
  void launchCluster(uint32_t cluster);

  /// The even CTA of `cta`'s MMA pair (cta_group 2), whose barriers the
  /// pair's loads and producer arrivals complete on.
  uint32_t pairLeaderCta(uint32_t cta) const {
    const Cta &c = ctas[cta];
    return cta - c.rank + (c.rank & ~1u);
  }
  /// The CTA of rank `rank` in `cta`'s cluster.
  uint32_t clusterCta(uint32_t cta, uint32_t rank) const {
    return cta - ctas[cta].rank + rank;
  }

  /// The global buffer and byte offset of a global pointer value.
  static uint64_t globalPointer(int buffer, uint64_t offset) {
    return (uint64_t(buffer) << 48) | offset;
  }
  /// The global buffer and byte offset a global pointer value names.
  static std::pair<int, uint64_t> globalAddress(uint64_t pointer) {
    return {static_cast<int>(pointer >> 48),
            pointer & ((uint64_t(1) << 48) - 1)};
  }

  ChoiceSource *choices;
  /// The exhaustive (reduced) mode explores the order of the operations
  /// whose outcome depends on it; those threads wait here.
  bool parksConflicts() const {
    return choices && options.schedule == ScheduleMode::Exhaustive &&
           !options.exhaustiveInterleavings;
  }
  void park(Thread &thread, uint64_t key) {
    thread.parked = true;
    thread.parkKey = key;
    thread.state = ThreadState::Blocked;
    parked.push_back(thread.id);
  }
  std::vector<uint32_t> parked;
  /// The run stopped at a state explored before (exhaustive mode).
  bool pruned = false;
  /// The run stopped at options.maxSteps.
  bool stepLimit = false;
  /// A hash of everything the future of the run depends on (thread
  /// positions and loop values, barriers, in-flight operations, counters),
  /// except the happens-before clocks.
  uint64_t stateHash() const;

  std::vector<uint32_t> ready;
  /// Deterministic scheduling: the order ready threads are taken in.
  std::deque<uint32_t> readyQueue;
  std::vector<bool> queued;

private:
  void setUp();
  void checkExit();
  uint32_t nextComp = 0;
};

/// Arguments of an op handler.
struct Exec {
  Machine &m;
  Thread &t;
  Operation *op;
  const OpInfo &info;

  SimValue &operand(unsigned i) { return t.values[info.operands[i]]; }
  uint64_t bits(unsigned i) { return operand(i).bits; }
  int64_t i32(unsigned i) { return static_cast<int32_t>(operand(i).bits); }
  void setResult(unsigned i, SimValue value) {
    t.values[info.results[i]] = std::move(value);
  }
  void setInt(unsigned i, uint64_t value) {
    SimValue v;
    v.bits = value;
    setResult(i, std::move(v));
  }
  Step fail(Violation::Kind kind, const std::string &message) {
    return m.fail(kind, op, message, {}, {t.id});
  }
};

// Registration of each op family (one file each).
using HandlerTable = llvm::DenseMap<OperationName, Handler>;
/// Registers `handler` as the semantics of op `Op` (each register*Ops).
template <typename Op>
inline void addHandler(MLIRContext *ctx, HandlerTable &table, Handler handler) {
  table[OperationName(Op::getOperationName(), ctx)] = handler;
}
/// The handler of each op the simulator executes, by op name.
HandlerTable getHandlers(MLIRContext *ctx);
void registerCoreOps(MLIRContext *ctx, HandlerTable &table);
void registerPipelineOps(MLIRContext *ctx, HandlerTable &table);
void registerTmaOps(MLIRContext *ctx, HandlerTable &table);
void registerMmaOps(MLIRContext *ctx, HandlerTable &table);
void registerEpilogueOps(MLIRContext *ctx, HandlerTable &table);
void registerSchedulerOps(MLIRContext *ctx, HandlerTable &table);
void registerSm100Ops(MLIRContext *ctx, HandlerTable &table);
void registerQuantOps(MLIRContext *ctx, HandlerTable &table);
void registerDirectOps(MLIRContext *ctx, HandlerTable &table);

// Completion of each kind of asynchronous operation (in the file of its op
// family).
void completeTmaLoad(Machine &m, AsyncOp &op);
void completeTmaStore(Machine &m, AsyncOp &op);
void completeWgmma(Machine &m, AsyncOp &op);
void completeTcgen05Mma(Machine &m, AsyncOp &op);
void completeTcgen05Commit(Machine &m, AsyncOp &op);
void completeClc(Machine &m, AsyncOp &op);
void completeScaleCopy(Machine &m, AsyncOp &op);

/// The accumulator fragment of operand `operand`, which a non-MMA op reads:
/// null (after recording a violation) while its WGMMA may still write it.
std::shared_ptr<Fragment> readFragment(Exec &e, unsigned operand);

/// Reads `count` f32 cells of the executing thread's TMEM lane (tcgen05.ld
/// .32x32b: lane 32 (warp mod 4) + lane id) from column `col` of stage
/// `stage` of the accumulator ring at TMEM address `address`; `values` is
/// left empty in protocol mode.
bool readTmemRow(Exec &e, TmemType type, uint64_t address, uint64_t stage,
                 int64_t col, int64_t count, std::vector<float> &values);

/// Runs the kernel once with the given choices (null: deterministic);
/// false when the run found a violation or a wrong result.
using RunOnce = llvm::function_ref<bool(ChoiceSource *, uint64_t)>;

/// The exhaustive schedule mode (Explore.cpp).
void explore(const KernelImage &kernel, const RunOptions &options,
             const runtime::LaunchPlan &plan, RunResult &result,
             RunOnce runOnce);

/// Evaluates a one-block region of pure ops (an epilogue) on `args` in
/// `thread`'s value space; returns the yielded value.
SimValue evalRegion(Machine &m, Thread &thread, Region &region,
                    ArrayRef<SimValue> args);

/// The byte of element (row, byte `inRow` < 32 of its K step) of a K-major,
/// 128-byte-swizzled operand read through a matrix descriptor whose start
/// address is `start` (SBO = 1024 bytes between 8-row groups).
uint64_t descriptorByte(uint64_t start, uint64_t row, uint64_t inRow);

/// `previous + sum` in the accumulator's arithmetic: an i32 accumulator
/// adds exactly and wraps modulo 2^32 (s32 accumulation of 8-bit integer
/// products is exact, PTX ISA "wgmma.mma_async": .s32 accumulators); an f32
/// accumulator adds the products' sum, rounded to f32, with f32 rounding
/// (the sum is exact for the simulator's small-integer inputs, whatever
/// the order the tensor core adds the products in: docs/Verification.md).
inline double accumulate(AccumulatorType type, double previous, double sum) {
  if (type.getElementType().isInteger(32)) {
    int64_t total = static_cast<int64_t>(previous) + static_cast<int64_t>(sum);
    return static_cast<double>(static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<uint64_t>(total))));
  }
  return static_cast<double>(static_cast<float>(previous) +
                             static_cast<float>(sum));
}

/// The NaN bits written into output and scratch memory before a run (an
/// element of `bytes` bytes): a still-poisoned element was never written.
uint64_t poisonBits(unsigned bytes);

/// Integer helpers: `bits` of a value of `type` as signed / masked.
int64_t toSigned(uint64_t bits, unsigned width);
uint64_t maskTo(uint64_t bits, unsigned width);
unsigned widthOf(Type type);

/// The offset of the full (or empty) barrier of iteration `n` of the
/// pipeline whose barriers start at `base`.
inline uint32_t pipelineBarrier(PipelineType type, uint64_t base, uint64_t n,
                                bool empty) {
  uint64_t stage = n % type.getStages();
  return static_cast<uint32_t>(base +
                               8 * (stage + (empty ? type.getStages() : 0)));
}

/// Shared-memory address of swizzled byte `address` (128, 64, 32-byte
/// swizzles: bits 4.. of the address XOR bits 7.., PTX ISA "Tensor
/// swizzling modes").
inline uint64_t swizzle(uint64_t address, int64_t mode) {
  switch (mode) {
  case 128:
    return address ^ (((address >> 7) & 7) << 4);
  case 64:
    return address ^ (((address >> 7) & 3) << 4);
  case 32:
    return address ^ (((address >> 7) & 1) << 4);
  default:
    return address;
  }
}

} // namespace mlir::gemm::sim

#endif // GEMM_LIB_SIMULATOR_MACHINE_H
