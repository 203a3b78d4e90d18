//===- Machine.cpp - The simulated GPU ------------------------------------===//
//
// Barriers, memory access tracking, asynchronous completions, the launch and
// the scheduling loop. The op handlers (Ops*.cpp) build on these.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "gemm/Bundle/TestData.h"
#include "gemm/Runtime/GroupProblems.h"
#include "gemm/Runtime/GroupTable.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

int64_t sim::toSigned(uint64_t bits, unsigned width) {
  if (width == 0 || width >= 64)
    return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  bits &= (sign << 1) - 1;
  return static_cast<int64_t>((bits ^ sign) - sign);
}

uint64_t sim::maskTo(uint64_t bits, unsigned width) {
  if (width == 0 || width >= 64)
    return bits;
  return bits & ((uint64_t(1) << width) - 1);
}

unsigned sim::widthOf(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  if (isa<IndexType>(type))
    return 64;
  return 64;
}

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

Machine::Machine(const KernelImage &kernel, const RunOptions &options,
                 const runtime::LaunchPlan &plan, ChoiceSource *choices)
    : kernel(kernel), options(options), plan(plan), choices(choices) {
  setUp();
}

uint64_t sim::poisonBits(unsigned bytes) {
  switch (bytes) {
  case 2:
    return 0x7fa5;
  case 4:
    return 0x7fa5a5a5;
  default:
    return 0x7f;
  }
}

namespace {
void fill(TrackedMemory &memory, unsigned elementBytes, uint64_t bits) {
  for (size_t i = 0; i + elementBytes <= memory.bytes.size(); i += elementBytes)
    for (unsigned b = 0; b < elementBytes; ++b)
      memory.bytes[i + b] = static_cast<uint8_t>(bits >> (8 * b));
}
} // namespace

void Machine::setUp() {
  uint32_t gridCtas = plan.grid[0];
  uint32_t clusterSize = plan.cluster[0];
  uint32_t blockThreads = plan.block[0];
  uint32_t total = gridCtas * blockThreads;
  nextComp = total;

  // Global memory: A, B, C as the kernel sees them (rows padded to 16
  // bytes, in their layouts, every batch entry), then the workspaces.
  auto addBuffer = [&](uint64_t bytes, std::string name) {
    GlobalBuffer buffer;
    buffer.memory.resize(bytes);
    buffer.memory.name = std::move(name);
    global.push_back(std::move(buffer));
    return static_cast<int>(global.size() - 1);
  };
  const runtime::MatrixPlan &a = plan.kernelMatrix(bundle::Tensor::A);
  const runtime::MatrixPlan &b = plan.kernelMatrix(bundle::Tensor::B);
  const runtime::MatrixPlan &c = plan.kernelMatrix(bundle::Tensor::C);
  global.reserve(5 + plan.workspaces.size() + plan.scales.size());
  // Without tile data nothing reads A and B, but the direct kernel's loads,
  // whose addresses are checked against them.
  bool inputs = data() || kernel.direct;
  bufferA = addBuffer(inputs ? a.bytes() : 0, "A");
  bufferB = addBuffer(inputs ? b.bytes() : 0, "B");
  bufferC = addBuffer(c.bytes(), "C");
  if (data()) {
    auto fillInput = [&](int buffer, const runtime::MatrixPlan &matrix,
                         Type type) {
      std::string error;
      const ElementCodec *codec = ElementCodec::get(type, error);
      TrackedMemory &memory = global[buffer].memory;
      fill(memory, codec->bytes(), poisonBits(codec->bytes()));
      // Every stored entry (one of a broadcast operand), by stored position.
      for (uint64_t entry = 0; entry < matrix.storedBatches(); ++entry)
        for (uint64_t row = 0; row < matrix.outer; ++row)
          for (uint64_t col = 0; col < matrix.inner; ++col)
            codec->store(
                &memory.bytes[(entry * matrix.batchStride + row * matrix.ld +
                               col) *
                              codec->bytes()],
                codec->encode(bundle::smallIntegerFor(
                    matrix.dtype, bundle::storedSmallIntegerAt(
                                      options.inputSeed, matrix.tensor, entry,
                                      matrix.outer, row, col))));
    };
    fillInput(bufferA, a, kernel.aType);
    fillInput(bufferB, b, kernel.bType);
    fill(global[bufferC].memory, bundle::elementBytes(c.dtype),
         poisonBits(bundle::elementBytes(c.dtype)));
  }
  for (const runtime::WorkspacePlan &workspace : plan.workspaces) {
    int buffer = addBuffer(workspace.bytes,
                           "workspace (params[" +
                               std::to_string(workspace.paramIndex) + "])");
    if (!workspace.zeroInit)
      fill(global[buffer].memory, 4, poisonBits(4));
    workspaceBuffers.push_back(buffer);
  }
  // Scale factors (powers of two from gemm/Bundle/TestData.h, also what
  // gemm-runner --inputs small-int gives the GPU) and the amax (zeroed).
  for (const runtime::ScalePlan &scale : plan.scales) {
    int buffer = addBuffer(scale.bytes(), scale.describe());
    scaleBuffers.push_back(buffer);
    if (scale.amax) {
      amaxBuffer = buffer;
      continue;
    }
    for (uint64_t i = 0; i < scale.elements(); ++i) {
      float value = bundle::smallScaleAt(options.inputSeed, scale.tensor, i);
      std::memcpy(&global[buffer].memory.bytes[4 * i], &value, 4);
    }
  }
  // A grouped kernel's group table, built from the problem's offsets by the
  // runtime's own code (what its prep kernel writes on the GPU before the
  // launch: gemm/Runtime/GroupTable.h), in data and protocol mode alike
  // (the schedule depends on it). Invalid offsets give R = 0 and the error.
  if (plan.groupTableBytes) {
    namespace grouped = runtime::grouped;
    std::vector<uint32_t> table = grouped::buildGroupTable(
        options.problem.groupOffsets, plan.problem.m, plan.groupUnitRows,
        grouped::tableEntries(plan.groupTableBytes));
    groupTableBuffer = addBuffer(plan.groupTableBytes, "the group table");
    TrackedMemory &memory = global[groupTableBuffer].memory;
    std::memcpy(memory.bytes.data(), table.data(),
                std::min<size_t>(memory.bytes.size(), 4 * table.size()));
    groupRowUnits = table[0];
  }
  // A general grouped kernel's table: header, entries and the groups'
  // tensor maps, as the runtime's prep kernel writes them from the group
  // records before the launch, computed by the runtime's own host code
  // (runtime::general::buildGeneralTable: checkGroup, unitsOf, writeEntry,
  // writesMaps, tensorMapFields). The records are gemm-runner's
  // (packGroups, groupRecords) over the packed A, B, C buffers; bad ones
  // are kept (the table's error word, U = 0).
  std::vector<std::optional<std::array<runtime::general::TensorMapFields, 3>>>
      generalMaps;
  if (plan.general) {
    namespace general = runtime::general;
    std::vector<general::GroupProblem> records = general::groupRecords(
        plan.problem.groupSizes, plan.groupPacking, plan.groupLayouts,
        recordAddress(0), recordAddress(1), recordAddress(2));
    std::vector<uint32_t> table = general::buildGeneralTable(
        records, plan.groupLayouts, plan.groupUnitRows, plan.groupUnitCols,
        &generalMaps);
    generalTableBuffer =
        addBuffer(plan.groupTableBytes, "the general group table");
    TrackedMemory &memory = global[generalTableBuffer].memory;
    std::memcpy(memory.bytes.data(), table.data(),
                std::min<size_t>(memory.bytes.size(), 4 * table.size()));
    generalUnits = table[0];
    generalError = table[1];
    generalReason = table[2];
  }
  for (const runtime::TmaPlan &tma : plan.tma) {
    TensorMap map;
    map.plan = tma;
    map.buffer = tma.tensor == bundle::Tensor::A   ? bufferA
                 : tma.tensor == bundle::Tensor::B ? bufferB
                                                   : bufferC;
    map.elementType = tma.tensor == bundle::Tensor::C   ? kernel.cType
                      : tma.tensor == bundle::Tensor::A ? kernel.aType
                                                        : kernel.bType;
    tensorMaps.push_back(map);
  }
  // The groups' maps: the template (the launch's descriptor of the
  // operand) with the group's address, dims and stride; their bytes in the
  // table are not simulated (the kernel only takes their addresses), the
  // map behind each address is.
  for (size_t g = 0; g < generalMaps.size(); ++g) {
    if (!generalMaps[g])
      continue;
    for (int operand = 0; operand < 3; ++operand) {
      const runtime::general::TensorMapFields &fields =
          (*generalMaps[g])[operand];
      const TensorMap *templ = nullptr;
      for (const TensorMap &candidate : tensorMaps)
        if (candidate.group < 0 &&
            static_cast<int>(candidate.plan.tensor) == operand)
          templ = &candidate;
      if (!templ)
        continue;
      TensorMap map = *templ;
      map.plan.globalDim[0] = fields.dims[0];
      map.plan.globalDim[1] = fields.dims[1];
      map.plan.globalStrides[0] = fields.strideBytes;
      map.base = fields.address - recordAddress(operand);
      map.group = static_cast<int64_t>(g);
      map.operand = operand;
      map.tableOffset =
          runtime::general::descriptorsOffset(plan.problem.groups) +
          runtime::general::TensorMapBytes *
              (runtime::general::MapsPerGroup * g + operand);
      generalMapAt[map.tableOffset] = static_cast<int>(tensorMaps.size());
      tensorMaps.push_back(map);
    }
  }

  // The kernel's arguments, as the launcher passes them.
  Block &entry = kernel.func.getBody().front();
  std::vector<SimValue> arguments(entry.getNumArguments());
  for (size_t i = 0; i < plan.args.size() && i < arguments.size(); ++i) {
    const runtime::KernelArg &arg = plan.args[i];
    switch (arg.kind) {
    case bundle::ParamKind::TmaDescriptor:
      arguments[i].bits = arg.tmaIndex;
      break;
    case bundle::ParamKind::ProblemSize:
      arguments[i].bits = arg.value;
      break;
    case bundle::ParamKind::Workspace:
      arguments[i].bits =
          globalPointer(workspaceBuffers[arg.workspaceIndex], 0);
      break;
    // The direct kernel's parameters: the matrices' addresses and leading
    // dimensions, as the launcher passes them.
    case bundle::ParamKind::Pointer:
      arguments[i].bits =
          globalPointer(arg.tensor == bundle::Tensor::A   ? bufferA
                        : arg.tensor == bundle::Tensor::B ? bufferB
                                                          : bufferC,
                        0);
      break;
    case bundle::ParamKind::LeadingDim:
      arguments[i].bits = arg.leadingDim;
      break;
    // Low precision's scale and amax pointers.
    case bundle::ParamKind::Scale:
    case bundle::ParamKind::Amax:
      arguments[i].bits = globalPointer(scaleBuffers[arg.scaleIndex], 0);
      break;
    // A grouped kernel's group table.
    case bundle::ParamKind::GroupTable:
      arguments[i].bits = globalPointer(groupTableBuffer, 0);
      break;
    case bundle::ParamKind::GroupProblemTable:
      arguments[i].bits = globalPointer(generalTableBuffer, 0);
      break;
    }
  }

  // CTAs, clusters and threads.
  int64_t entryRegisters = std::min<int64_t>(
      255, 65536 / std::max<uint32_t>(blockThreads, 1) / 8 * 8);
  ctas.resize(gridCtas);
  clusters.resize(gridCtas / std::max<uint32_t>(clusterSize, 1));
  threads.resize(total);
  queued.assign(total, false);
  for (uint32_t i = 0; i < gridCtas; ++i) {
    Cta &cta = ctas[i];
    cta.index = i;
    cta.cluster = i / clusterSize;
    cta.rank = i % clusterSize;
    cta.firstThread = i * blockThreads;
    cta.threads = blockThreads;
    cta.liveThreads = blockThreads;
    cta.smem.resize(std::max<int64_t>(kernel.smemBytes, plan.dynamicSmemBytes));
    // Shared memory starts as garbage on the GPU: all-ones bytes are NaN in
    // every float type of the kernels (f32, bf16, f16, e4m3, e5m2), so a
    // value computed from bytes no one wrote shows in C or the amax.
    if (data())
      std::fill(cta.smem.bytes.begin(), cta.smem.bytes.end(), uint8_t(0xff));
    cta.smem.name = "shared memory of CTA " + std::to_string(i);
    cta.warpSync.resize((blockThreads + 31) / 32);
    cta.warpCollective.resize((blockThreads + 31) / 32);
    cta.freeRegisters = 65536 - int64_t(blockThreads) * entryRegisters;
    if (kernel.arch == Arch::sm_100a) {
      if (data())
        cta.tmem.assign(128 * 512, 0.0f);
      cta.tmemTrack.resize(128 * 512 * 4);
      cta.tmemTrack.name = "tensor memory of CTA " + std::to_string(i);
    }
    clusters[cta.cluster].ctas.push_back(i);
    for (uint32_t t = 0; t < blockThreads; ++t) {
      Thread &thread = threads[cta.firstThread + t];
      thread.id = cta.firstThread + t;
      thread.cta = i;
      thread.tid = t;
      thread.warp = t / 32;
      thread.lane = t % 32;
      thread.values.resize(kernel.numValues);
      for (size_t arg = 0; arg < arguments.size(); ++arg)
        thread.values[kernel.index(entry.getArgument(arg))] = arguments[arg];
      Frame frame;
      frame.block = &entry;
      frame.next = entry.begin();
      thread.stack.push_back(frame);
      thread.vc.raise(thread.id, 1);
      thread.registers = entryRegisters;
      thread.state = ThreadState::Blocked;
    }
  }

  // Launch: a persistent grid fits the GPU whole; a grid of one cluster per
  // tile runs as many clusters as fit, the others launch as those exit (or
  // are cancelled by cluster launch control before they do).
  uint32_t resident = std::max<uint32_t>(options.sms / clusterSize, 1);
  for (uint32_t i = 0; i < clusters.size(); ++i)
    if (plan.policy == bundle::GridPolicy::Persistent || i < resident)
      launchCluster(i);
}

void Machine::launchCluster(uint32_t index) {
  Cluster &cluster = clusters[index];
  cluster.launched = true;
  cluster.barrier.expected = 0;
  for (uint32_t cta : cluster.ctas) {
    ctas[cta].launched = true;
    cluster.barrier.expected += ctas[cta].threads;
    for (uint32_t t = 0; t < ctas[cta].threads; ++t)
      wake(ctas[cta].firstThread + t);
  }
}

//===----------------------------------------------------------------------===//
// Violations and descriptions
//===----------------------------------------------------------------------===//

Step Machine::fail(Violation::Kind kind, Operation *op,
                   const std::string &message,
                   std::vector<std::pair<Operation *, std::string>> notes,
                   std::vector<uint32_t> traceThreads,
                   std::vector<std::pair<int64_t, int64_t>> traceBarriers) {
  if (violation)
    return Step::Stop;
  Violation v;
  v.kind = kind;
  v.op = op;
  v.message = message;
  v.notes = std::move(notes);
  // The trace: the last events of the threads and barriers involved.
  auto relevant = [&](const Event &event) {
    for (uint32_t thread : traceThreads)
      if (event.thread == thread)
        return true;
    for (auto [cta, barrier] : traceBarriers)
      if (event.cta == cta && event.barrier == barrier)
        return true;
    return false;
  };
  constexpr size_t kTraceLines = 16;
  std::vector<const Event *> picked;
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (!relevant(*it))
      continue;
    picked.push_back(&*it);
    if (picked.size() == kTraceLines)
      break;
  }
  std::reverse(picked.begin(), picked.end());
  for (const Event *event : picked)
    v.trace.push_back("#" + std::to_string(event->seq) + " " +
                      describeThread(event->thread) + ": " + event->text);
  violation = std::move(v);
  return Step::Stop;
}

std::string Machine::describeThread(const Thread &thread) const {
  std::string text = "CTA " + std::to_string(thread.cta) + " ";
  switch (thread.role) {
  case Role::Kernel:
    text += "thread " + std::to_string(thread.tid);
    return text;
  case Role::Producer:
    text += "producer";
    break;
  case Role::Consumer:
    text += "consumer " + std::to_string(thread.roleIndex);
    break;
  case Role::Load:
    text += "load warp";
    break;
  case Role::Mma:
    text += "mma warp";
    break;
  case Role::Scheduler:
    text += "scheduler warp";
    break;
  case Role::Epilogue:
    text += "epilogue warp " + std::to_string(thread.roleIndex);
    break;
  }
  return text + " (thread " + std::to_string(thread.tid) + ")";
}

std::string Machine::describeBarrier(const MBarrier &barrier) const {
  std::string text;
  if (barrier.pipeline >= 0) {
    const PipelineInfo &info = kernel.pipelines[barrier.pipeline];
    text = std::string("the ") + (barrier.empty ? "empty" : "full") +
           " barrier of stage " + std::to_string(barrier.stage) +
           " of pipeline " + std::to_string(info.index) +
           " (stages = " + std::to_string(info.type.getStages()) +
           ", producers = " + std::to_string(info.type.getProducers()) +
           ", consumers = " + std::to_string(info.type.getConsumers()) + ")";
  } else {
    text = "an mbarrier";
  }
  return text + " of CTA " + std::to_string(barrier.cta);
}

std::string Machine::describeAccess(const Access &access) const {
  std::string text;
  if (access.op)
    text = "'" + access.op->getName().getStringRef().str() + "'";
  else
    text = "an access";
  if (access.iteration >= 0)
    text += " of iteration " + std::to_string(access.iteration);
  text +=
      (access.async ? " issued by " : " by ") + describeThread(access.thread);
  return text;
}

void Machine::log(const Thread &thread, Operation *op, std::string text,
                  int64_t cta, int64_t barrier) {
  constexpr size_t kKeep = 1 << 15;
  if (events.size() >= 2 * kKeep)
    events.erase(events.begin(), events.begin() + kKeep);
  Event event;
  event.seq = ++eventSeq;
  event.thread = thread.id;
  event.op = op;
  event.text = std::move(text);
  event.cta = cta;
  event.barrier = barrier;
  events.push_back(std::move(event));
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

MBarrier &Machine::barrierAt(Operation *op, uint32_t cta, uint32_t offset) {
  MBarrier &barrier = ctas[cta].barriers[offset];
  barrier.cta = cta;
  return barrier;
}

namespace {
std::string phaseName(int64_t phase) {
  return phase < 0 ? std::string("the phase before the first")
                   : "phase " + std::to_string(phase);
}
} // namespace

/// Checks that `knowledge` includes the barrier's initialisation (and, from
/// another CTA, the fence.mbarrier_init after it).
static bool checkInitKnown(Machine &m, MBarrier &barrier, uint32_t offset,
                           Operation *op, uint32_t thread,
                           const VectorClock &knowledge, uint32_t fromCta) {
  if (!barrier.initialized) {
    m.fail(Violation::Kind::Rule, op,
           "uses " + m.describeBarrier(barrier) +
               " before it is initialised (gemm.pipeline.init)",
           {}, {thread});
    return false;
  }
  if (!knowledge.knows(barrier.init.epoch)) {
    m.fail(Violation::Kind::Rule, op,
           "uses " + m.describeBarrier(barrier) +
               " without its initialisation being ordered before (a barrier "
               "after gemm.pipeline.init is missing)",
           {{barrier.init.op, "initialised here"}}, {thread},
           {{barrier.cta, offset}});
    return false;
  }
  if (fromCta != barrier.cta &&
      (!barrier.fence || !knowledge.knows(*barrier.fence))) {
    m.fail(Violation::Kind::Rule, op,
           "uses " + m.describeBarrier(barrier) + " from CTA " +
               std::to_string(fromCta) +
               " without fence.mbarrier_init.release.cluster and a cluster "
               "barrier after its initialisation",
           {{barrier.init.op, "initialised here"}}, {thread},
           {{barrier.cta, offset}});
    return false;
  }
  return true;
}

void Machine::arrive(MBarrier &barrier, uint32_t offset, Operation *op,
                     uint32_t thread, const VectorClock &knowledge,
                     int64_t count, int64_t tx, int64_t intended,
                     int64_t iteration, bool async) {
  if (!checkInitKnown(*this, barrier, offset, op, thread, knowledge,
                      async ? barrier.cta : threads[thread].cta))
    return;
  std::string where = describeBarrier(barrier);
  if (intended >= 0 && int64_t(barrier.completed) != intended) {
    fail(Violation::Kind::Arrival, op,
         "an arrival for " + phaseName(intended) + " (iteration " +
             std::to_string(iteration) + ") lands in " +
             phaseName(barrier.completed) + " of " + where +
             (int64_t(barrier.completed) > intended
                  ? ": that phase completed without it (the barrier's "
                    "arrival count is lower than the arrivals the roles make)"
                  : ": the arrival comes a phase early"),
         {}, {thread}, {{barrier.cta, offset}});
    return;
  }
  if (intended > 0 && knowledge.get(barrier.comp) < Clock(intended)) {
    fail(Violation::Kind::PhaseConfusion, op,
         "arrives for " + phaseName(intended) + " of " + where +
             " (iteration " + std::to_string(iteration) + ") without " +
             phaseName(intended - 1) +
             " being ordered before it: in another schedule the arrival "
             "lands in the earlier phase",
         {}, {thread}, {{barrier.cta, offset}});
    return;
  }
  if (!async && std::find(barrier.arrivals.begin(), barrier.arrivals.end(),
                          thread) != barrier.arrivals.end()) {
    fail(Violation::Kind::Arrival, op,
         "arrives twice in " + phaseName(barrier.completed) + " of " + where +
             ": the barrier's count is made up by repeated arrivals instead "
             "of one per role",
         {}, {thread}, {{barrier.cta, offset}});
    return;
  }
  barrier.tx += tx;
  barrier.pending -= count;
  if (barrier.pending < 0) {
    fail(Violation::Kind::Arrival, op,
         "arrives on " + where + " in " + phaseName(barrier.completed) +
             " after its " + std::to_string(barrier.count) +
             " expected arrivals (the pending count would go negative)",
         {}, {thread}, {{barrier.cta, offset}});
    return;
  }
  barrier.accum.join(knowledge);
  barrier.arrivals.push_back(async ? ~0u : thread);
  log(thread, op,
      std::string(async ? "asynchronous arrival" : "arrives") +
          (tx ? " (expect_tx " + std::to_string(tx) + " bytes)" : "") + " on " +
          where + ", " + phaseName(barrier.completed) +
          (iteration >= 0 ? ", iteration " + std::to_string(iteration) : ""),
      barrier.cta, offset);
  maybeCompletePhase(barrier, offset, op);
}

void Machine::completeTx(MBarrier &barrier, uint32_t offset, Operation *op,
                         uint32_t thread, const VectorClock &knowledge,
                         int64_t bytes, int64_t intended, int64_t iteration) {
  if (!checkInitKnown(*this, barrier, offset, op, thread, knowledge,
                      barrier.cta))
    return;
  if (intended >= 0 && int64_t(barrier.completed) != intended) {
    fail(Violation::Kind::Arrival, op,
         std::to_string(bytes) + " transaction bytes for " +
             phaseName(intended) + " (iteration " + std::to_string(iteration) +
             ") land in " + phaseName(barrier.completed) + " of " +
             describeBarrier(barrier),
         {}, {thread}, {{barrier.cta, offset}});
    return;
  }
  barrier.tx -= bytes;
  barrier.accum.join(knowledge);
  log(thread, op,
      "complete_tx " + std::to_string(bytes) + " bytes on " +
          describeBarrier(barrier) + ", " + phaseName(barrier.completed) +
          (iteration >= 0 ? ", iteration " + std::to_string(iteration) : ""),
      barrier.cta, offset);
  maybeCompletePhase(barrier, offset, op);
}

void Machine::maybeCompletePhase(MBarrier &barrier, uint32_t offset,
                                 Operation *op) {
  if (barrier.pending != 0 || barrier.tx != 0)
    return;
  // Every waiter that observed the previous phase must have done so before
  // this one completes: otherwise, in another schedule, it would poll after
  // this completion, see the parity of two phases ago and wait for the
  // wrong phase (PTX ISA: try_wait.parity only tells phases apart by parity).
  for (auto [thread, clock] : barrier.observers) {
    if (barrier.accum.get(thread) >= clock)
      continue;
    fail(Violation::Kind::PhaseConfusion, op,
         phaseName(barrier.completed) + " of " + describeBarrier(barrier) +
             " completes without " + describeThread(thread) +
             "'s observation of " + phaseName(int64_t(barrier.completed) - 1) +
             " being ordered before it: in another schedule that thread "
             "polls after this completion, sees the parity of " +
             phaseName(int64_t(barrier.completed) - 1) +
             " again as incomplete and waits a phase too long (or passes a "
             "phase early)",
         {}, {thread}, {{barrier.cta, offset}});
    return;
  }
  ++barrier.completed;
  barrier.accum.raise(barrier.comp, Clock(barrier.completed));
  barrier.last = barrier.accum;
  barrier.observers.clear();
  barrier.arrivals.clear();
  barrier.pending = barrier.count;
  barrier.tx = 0;
  if (!events.empty())
    events.back().text +=
        "; completes " + phaseName(int64_t(barrier.completed) - 1);
  wake(barrier.waiters);
}

Step Machine::waitPhase(Thread &thread, Operation *op, MBarrier &barrier,
                        uint32_t offset, int64_t intended, int64_t iteration) {
  std::string where = describeBarrier(barrier);
  if (!thread.started) {
    if (!checkInitKnown(*this, barrier, offset, op, thread.id, thread.vc,
                        thread.cta))
      return Step::Stop;
    thread.started = true;
    log(thread, op,
        "waits for " + phaseName(intended) + " of " + where + " (parity " +
            std::to_string(intended & 1) + ", iteration " +
            std::to_string(iteration) + ")",
        barrier.cta, offset);
    // The waiter must know that the phase before its own completed, or
    // try_wait.parity may pass on the phase two before (same parity).
    if (intended > 0 && thread.vc.get(barrier.comp) < Clock(intended))
      return fail(Violation::Kind::PhaseConfusion, op,
                  "waits for " + phaseName(intended) + " of " + where +
                      " (iteration " + std::to_string(iteration) +
                      ") without having observed " + phaseName(intended - 1) +
                      ": try_wait.parity cannot tell " + phaseName(intended) +
                      " from " + phaseName(intended - 2) +
                      ", so in another schedule this wait passes two phases "
                      "early",
                  {}, {thread.id}, {{barrier.cta, offset}});
    if (int64_t(barrier.completed) >= intended + 2)
      return fail(Violation::Kind::PhaseConfusion, op,
                  "waits for " + phaseName(intended) + " of " + where +
                      " (iteration " + std::to_string(iteration) + ") after " +
                      phaseName(intended + 1) +
                      " already completed: try_wait.parity sees the parity "
                      "of " +
                      phaseName(intended) +
                      " as incomplete and waits for a later phase",
                  {}, {thread.id}, {{barrier.cta, offset}});
  }
  // PTX ISA mbarrier.try_wait.parity: true once the phase with the given
  // parity completed, i.e. when the current phase's parity differs.
  int64_t parity = intended & 1;
  if (int64_t(barrier.completed & 1) == parity) {
    block(thread, barrier.waiters);
    return Step::Block;
  }
  int64_t observed = int64_t(barrier.completed) - 1;
  if (observed != intended)
    return fail(Violation::Kind::PhaseConfusion, op,
                "waits for " + phaseName(intended) + " of " + where +
                    " (iteration " + std::to_string(iteration) +
                    ") and passes on " + phaseName(observed) +
                    ", which has the same parity",
                {}, {thread.id}, {{barrier.cta, offset}});
  thread.vc.join(barrier.last);
  barrier.observers.push_back({thread.id, thread.vc.get(thread.id)});
  thread.vc.raise(thread.id, thread.vc.get(thread.id) + 1);
  log(thread, op,
      "observes " + phaseName(intended) + " of " + where + " (iteration " +
          std::to_string(iteration) + ")",
      barrier.cta, offset);
  return Step::Yield;
}

//===----------------------------------------------------------------------===//
// Rendezvous
//===----------------------------------------------------------------------===//

bool Machine::rendezvous(Thread &thread, Rendezvous &point, Operation *op,
                         int64_t expected, bool orders) {
  if (!thread.started) {
    thread.started = true;
    if (point.arrived.empty()) {
      point.expected = expected;
      point.accum = VectorClock();
      point.op = op;
    }
    point.arrived.push_back(thread.id);
    point.accum.join(thread.vc);
    thread.ticket = point.instances;
    if (int64_t(point.arrived.size()) == point.expected) {
      ++point.instances;
      point.done = point.accum;
      if (orders)
        for (uint32_t other : point.arrived) {
          threads[other].vc.join(point.done);
          threads[other].vc.raise(other, threads[other].vc.get(other) + 1);
        }
      point.arrived.clear();
      wake(point.waiters);
    }
  }
  if (point.instances > thread.ticket)
    return true;
  block(thread, point.waiters);
  return false;
}

//===----------------------------------------------------------------------===//
// Memory access tracking
//===----------------------------------------------------------------------===//

namespace {
/// The bytes [begin, end) of granule `g` as a 16-bit mask.
uint16_t granuleMask(uint64_t g, uint64_t begin, uint64_t end) {
  uint64_t lo = std::max(begin, g * 16) - g * 16;
  uint64_t hi = std::min(end, g * 16 + 16) - g * 16;
  if (hi - lo == 16)
    return 0xffff;
  return static_cast<uint16_t>(((1u << (hi - lo)) - 1) << lo);
}
} // namespace

Access Machine::threadAccess(Thread &thread, Operation *op, int64_t iteration,
                             bool genericSmemWrite) {
  Access access;
  access.epoch = {thread.id, thread.vc.get(thread.id)};
  access.op = op;
  access.thread = thread.id;
  access.iteration = iteration;
  if (genericSmemWrite) {
    if (!thread.proxyFenceComp)
      thread.proxyFenceComp = newComponent();
    access.proxyFence =
        Epoch{thread.proxyFenceComp, thread.vc.get(thread.proxyFenceComp) + 1};
  }
  return access;
}

bool Machine::checkInside(TrackedMemory &memory, uint64_t offset,
                          uint64_t bytes, const Access &access,
                          const char *what, const char *verb) {
  if (offset + bytes <= memory.bytes.size())
    return true;
  fail(Violation::Kind::Rule, access.op,
       std::string(what) + " " + verb + " bytes [" + std::to_string(offset) +
           ", " + std::to_string(offset + bytes) + ") outside the " +
           std::to_string(memory.bytes.size()) + " bytes of " + memory.name,
       {}, {access.thread});
  return false;
}

bool Machine::checkRead(TrackedMemory &memory, uint64_t offset, uint64_t bytes,
                        const VectorClock &knowledge, const Access &access,
                        const char *what, bool asyncProxy) {
  if (!checkInside(memory, offset, bytes, access, what, "reads"))
    return false;
  for (uint64_t g = offset / 16, e = (offset + bytes + 15) / 16; g < e; ++g) {
    Granule &granule = memory.granules[g];
    if (granule.pending) {
      fail(Violation::Kind::Race, access.op,
           std::string(what) + " " + describeAccess(access) + " reads " +
               memory.name + " at byte " + std::to_string(g * 16) +
               " before the bytes of " + describeAccess(*granule.pending) +
               " arrived (read before its data landed)",
           {{granule.pending->op, "the write still in flight"}},
           {access.thread, granule.pending->thread});
      return false;
    }
    uint16_t mask = granuleMask(g, offset, offset + bytes);
    for (const Granule::Write &write : granule.writes) {
      if (!(write.mask & mask) || knowledge.knows(write.access.epoch))
        continue;
      fail(Violation::Kind::Race, access.op,
           std::string(what) + " " + describeAccess(access) + " reads " +
               memory.name + " at byte " + std::to_string(g * 16) +
               " without the write by " + describeAccess(write.access) +
               " being ordered before it (read before the data is known to "
               "have arrived)",
           {{write.access.op, "the write"}},
           {access.thread, write.access.thread});
      return false;
    }
    for (const Granule::Write &write : granule.writes) {
      if (!asyncProxy || !(write.mask & mask) || !write.access.proxyFence ||
          knowledge.knows(*write.access.proxyFence))
        continue;
      fail(Violation::Kind::Rule, access.op,
           std::string(what) + " " + describeAccess(access) +
               " reads through the async proxy " + memory.name + " at byte " +
               std::to_string(g * 16) + " written by " +
               describeAccess(write.access) +
               " through the generic proxy, without that thread's "
               "fence.proxy.async.shared::cta being ordered before it",
           {{write.access.op, "the generic-proxy write"}},
           {access.thread, write.access.thread});
      return false;
    }
    bool merged = false;
    for (Access &read : granule.reads)
      if (read.epoch.comp == access.epoch.comp) {
        if (read.epoch.clock <= access.epoch.clock)
          read = access;
        merged = true;
        break;
      }
    if (!merged)
      granule.reads.push_back(access);
  }
  return true;
}

bool Machine::checkWrite(TrackedMemory &memory, uint64_t offset, uint64_t bytes,
                         const VectorClock &knowledge, const Access &access,
                         bool async, const char *what) {
  if (!checkInside(memory, offset, bytes, access, what, "writes"))
    return false;
  for (uint64_t g = offset / 16, e = (offset + bytes + 15) / 16; g < e; ++g) {
    Granule &granule = memory.granules[g];
    if (granule.pending) {
      fail(Violation::Kind::Race, access.op,
           std::string(what) + " " + describeAccess(access) + " writes " +
               memory.name + " at byte " + std::to_string(g * 16) +
               " while the write of " + describeAccess(*granule.pending) +
               " is still in flight",
           {{granule.pending->op, "the write in flight"}},
           {access.thread, granule.pending->thread});
      return false;
    }
    for (const Access &read : granule.reads) {
      if (knowledge.knows(read.epoch))
        continue;
      fail(Violation::Kind::Race, access.op,
           std::string(what) + " " + describeAccess(access) + " overwrites " +
               memory.name + " at byte " + std::to_string(g * 16) + " while " +
               describeAccess(read) +
               " may still read it (the stage is overwritten while a reader "
               "holds it)",
           {{read.op, "the read not known to be complete"}},
           {access.thread, read.thread});
      return false;
    }
    uint16_t mask = granuleMask(g, offset, offset + bytes);
    for (const Granule::Write &write : granule.writes) {
      if (!(write.mask & mask) || knowledge.knows(write.access.epoch))
        continue;
      fail(Violation::Kind::Race, access.op,
           std::string(what) + " " + describeAccess(access) + " writes " +
               memory.name + " at byte " + std::to_string(g * 16) +
               " unordered with the write by " + describeAccess(write.access),
           {{write.access.op, "the other write"}},
           {access.thread, write.access.thread});
      return false;
    }
    if (async) {
      granule.pending = access;
      continue;
    }
    granule.reads.clear();
    for (auto it = granule.writes.begin(); it != granule.writes.end();) {
      it->mask &= ~mask;
      it = it->mask ? std::next(it) : granule.writes.erase(it);
    }
    granule.writes.push_back({access, mask});
  }
  return true;
}

void Machine::completeWrite(TrackedMemory &memory, uint64_t offset,
                            uint64_t bytes, const Access &access) {
  for (uint64_t g = offset / 16, e = (offset + bytes + 15) / 16; g < e; ++g) {
    Granule &granule = memory.granules[g];
    granule.pending.reset();
    uint16_t mask = granuleMask(g, offset, offset + bytes);
    granule.reads.clear();
    for (auto it = granule.writes.begin(); it != granule.writes.end();) {
      it->mask &= ~mask;
      it = it->mask ? std::next(it) : granule.writes.erase(it);
    }
    granule.writes.push_back({access, mask});
  }
}

//===----------------------------------------------------------------------===//
// Asynchronous operations
//===----------------------------------------------------------------------===//

AsyncOp &Machine::newAsync(AsyncKind kind, Thread &thread, Operation *op) {
  auto async = std::make_unique<AsyncOp>();
  async->kind = kind;
  async->id = static_cast<uint32_t>(asyncOps.size() + 1);
  async->op = op;
  async->thread = thread.id;
  async->cta = thread.cta;
  async->knowledge = thread.vc;
  asyncOps.push_back(std::move(async));
  thread.vc.raise(thread.id, thread.vc.get(thread.id) + 1);
  return *asyncOps.back();
}

bool Machine::completable(const AsyncOp &op) const {
  if (op.done)
    return false;
  if (!op.queue)
    return true;
  // The oldest op of its queue.
  for (uint32_t id : inFlight) {
    const AsyncOp &other = *asyncOps[id - 1];
    if (other.queue == op.queue && !other.done && other.id < op.id)
      return false;
  }
  return true;
}

void Machine::completeQueueUpTo(uint64_t queue, uint32_t until) {
  for (uint32_t i = 0; i < inFlight.size() && !violation;) {
    AsyncOp &op = *asyncOps[inFlight[i] - 1];
    if (op.queue == queue && op.id <= until && !op.done) {
      complete(op.id);
      i = 0;
      continue;
    }
    ++i;
  }
}

void Machine::wake(std::vector<uint32_t> &waiters) {
  for (uint32_t thread : waiters)
    wake(thread);
  waiters.clear();
}

void Machine::wake(uint32_t id) {
  Thread &thread = threads[id];
  if (thread.state != ThreadState::Blocked || !ctas[thread.cta].launched)
    return;
  thread.state = ThreadState::Ready;
  if (!queued[id]) {
    queued[id] = true;
    readyQueue.push_back(id);
  }
}

void Machine::block(Thread &thread, std::vector<uint32_t> &waiters) {
  // A thread may end up in a list twice (woken another way, then blocked
  // again); waking it twice is harmless.
  thread.state = ThreadState::Blocked;
  waiters.push_back(thread.id);
}

//===----------------------------------------------------------------------===//
// Running threads
//===----------------------------------------------------------------------===//

void Machine::runThread(Thread &thread, bool untilYield) {
  while (thread.state == ThreadState::Ready && !violation) {
    if (++steps > options.maxSteps) {
      stepLimit = true;
      fail(Violation::Kind::Rule, &*thread.stack.back().next,
           "the run exceeded " + std::to_string(options.maxSteps) +
               " steps (a loop that never blocks?)",
           {}, {thread.id});
      return;
    }
    ++thread.steps;
    Operation *op = &*thread.stack.back().next;
    const OpInfo &info = kernel.info(op);
    Exec exec{*this, thread, op, info};
    switch (info.handler(exec)) {
    case Step::Next:
      ++thread.stack.back().next;
      thread.started = false;
      break;
    case Step::Yield:
      ++thread.stack.back().next;
      thread.started = false;
      if (untilYield)
        return;
      break;
    case Step::Jump:
      thread.started = false;
      break;
    case Step::Block:
      return;
    case Step::Exit:
      thread.state = ThreadState::Done;
      threadExited(thread);
      return;
    case Step::Stop:
      return;
    }
  }
}

void Machine::threadExited(Thread &thread) {
  Cta &cta = ctas[thread.cta];
  if (--cta.liveThreads != 0)
    return;
  cta.exited = true;
  // PTX ISA: a CTA must free its TMEM (tcgen05.dealloc) before it exits.
  if (!cta.tmemAllocations.empty()) {
    fail(Violation::Kind::Rule, kernel.func,
         "CTA " + std::to_string(cta.index) + " exits with " +
             std::to_string(cta.tmemAllocated) +
             " TMEM columns still allocated (tcgen05.dealloc missing)",
         {}, {thread.id});
    return;
  }
  // Nothing may still read or write its shared memory or arrive on its
  // barriers: asynchronous operations that involve it must be complete.
  for (uint32_t id : inFlight) {
    const AsyncOp &op = *asyncOps[id - 1];
    if (op.done)
      continue;
    bool involved = op.cta == cta.index ||
                    llvm::is_contained(op.ctas, cta.index) ||
                    llvm::is_contained(op.barrierCtas, cta.index);
    if (!involved)
      continue;
    fail(Violation::Kind::Rule, op.op,
         "CTA " + std::to_string(cta.index) +
             " exits while this asynchronous operation (issued by " +
             describeThread(op.thread) +
             ") may still access its shared memory or barriers",
         {}, {thread.id, op.thread});
    return;
  }
  Cluster &cluster = clusters[cta.cluster];
  for (uint32_t other : cluster.ctas)
    if (!ctas[other].exited)
      return;
  cluster.exited = true;
  // The next cluster that waits for an SM launches.
  for (uint32_t i = 0; i < clusters.size(); ++i)
    if (!clusters[i].launched && !clusters[i].cancelled) {
      launchCluster(i);
      break;
    }
}

void Machine::run() {
  ScheduleMode mode = choices ? options.schedule : ScheduleMode::Deterministic;
  bool interleave =
      mode == ScheduleMode::Exhaustive && options.exhaustiveInterleavings;
  bool reduced = mode == ScheduleMode::Exhaustive && !interleave;
  auto take = [&](uint32_t id) {
    auto it = std::find(readyQueue.begin(), readyQueue.end(), id);
    if (it != readyQueue.end())
      readyQueue.erase(it);
    queued[id] = false;
  };
  auto requeue = [&](uint32_t id) {
    if (threads[id].state == ThreadState::Ready && !queued[id]) {
      queued[id] = true;
      readyQueue.push_back(id);
    }
  };
  while (!violation && !pruned) {
    if (mode == ScheduleMode::Random && !readyQueue.empty() &&
        (inFlight.empty() || choices->choose(2) == 0)) {
      // A random ready thread, to its next synchronisation point (every
      // thread in the queue is ready: it leaves the queue only to run).
      size_t pick =
          readyQueue.size() > 1 ? choices->choose(readyQueue.size()) : 0;
      uint32_t id = readyQueue[pick];
      readyQueue[pick] = readyQueue.back();
      readyQueue.pop_back();
      queued[id] = false;
      runThread(threads[id], /*untilYield=*/true);
      requeue(id);
      continue;
    }
    if (mode == ScheduleMode::Deterministic || reduced) {
      // Threads first, each until it blocks, in the order they became
      // ready; an asynchronous operation completes only when no thread can
      // run (the oldest completable first).
      if (!readyQueue.empty()) {
        uint32_t id = readyQueue.front();
        take(id);
        if (threads[id].state == ThreadState::Ready)
          runThread(threads[id], /*untilYield=*/false);
        continue;
      }
    }
    // Drop finished ops from the in-flight list.
    inFlight.erase(
        std::remove_if(inFlight.begin(), inFlight.end(),
                       [&](uint32_t id) { return asyncOps[id - 1]->done; }),
        inFlight.end());
    // Completable asynchronous operations: the oldest of each ordered
    // family. In the reduced exhaustive mode the cluster launch control
    // responses are choices of their own (which requester gets which
    // waiting cluster).
    std::vector<uint32_t> completableOps, conflictOps;
    {
      std::vector<uint32_t> byAge(inFlight);
      llvm::sort(byAge);
      llvm::SmallDenseSet<uint64_t, 16> seen;
      for (uint32_t id : byAge) {
        const AsyncOp &op = *asyncOps[id - 1];
        if (op.queue && !seen.insert(op.queue).second)
          continue;
        (reduced && op.kind == AsyncKind::Clc ? conflictOps : completableOps)
            .push_back(id);
      }
    }
    if (mode == ScheduleMode::Deterministic || reduced) {
      if (!completableOps.empty()) {
        complete(completableOps.front());
        continue;
      }
      // Quiescent but for the operations whose order matters. Operations
      // on different objects commute: explore the orders of the ops on one
      // object (the lowest counter address; cluster launch control last)
      // before any other's.
      if (parked.empty() && conflictOps.empty())
        break;
      std::vector<uint32_t> group;
      if (!parked.empty()) {
        uint64_t key = ~uint64_t(0);
        for (uint32_t id : parked)
          key = std::min(key, threads[id].parkKey);
        for (uint32_t id : parked)
          if (threads[id].parkKey == key)
            group.push_back(id);
        conflictOps.clear();
      }
      size_t alternatives = group.size() + conflictOps.size();
      size_t pick = 0;
      if (alternatives > 1) {
        if (!choices->visit(stateHash())) {
          pruned = true;
          break;
        }
        pick = choices->choose(alternatives);
      }
      if (pick < group.size()) {
        uint32_t id = group[pick];
        parked.erase(std::find(parked.begin(), parked.end(), id));
        Thread &thread = threads[id];
        thread.parked = false;
        thread.permitted = true;
        thread.state = ThreadState::Ready;
        runThread(thread, /*untilYield=*/true);
        requeue(id);
      } else {
        complete(conflictOps[pick - group.size()]);
      }
      continue;
    }

    std::vector<uint32_t> runnable;
    for (uint32_t id : readyQueue)
      if (threads[id].state == ThreadState::Ready)
        runnable.push_back(id);
    if (runnable.empty() && completableOps.empty())
      break;
    if (mode == ScheduleMode::Random) {
      if (completableOps.empty())
        continue;
      complete(completableOps[completableOps.size() > 1
                                  ? choices->choose(completableOps.size())
                                  : 0]);
      continue;
    }

    // Every interleaving: the threads that stand at the same op in the same
    // role move together (their steps commute); every group and every
    // completion is an alternative.
    std::vector<std::vector<uint32_t>> units;
    llvm::DenseMap<std::tuple<uint32_t, int, int64_t, Operation *>, size_t>
        unitOf;
    for (uint32_t id : runnable) {
      const Thread &t = threads[id];
      auto key = std::make_tuple(t.cta, int(t.role), t.roleIndex,
                                 &*t.stack.back().next);
      auto [it, inserted] = unitOf.try_emplace(key, units.size());
      if (inserted)
        units.emplace_back();
      units[it->second].push_back(id);
    }
    size_t alternatives = units.size() + completableOps.size();
    size_t pick = 0;
    if (alternatives > 1) {
      if (!choices->visit(stateHash())) {
        pruned = true;
        break;
      }
      pick = choices->choose(alternatives);
    }
    if (pick < units.size()) {
      for (uint32_t id : units[pick]) {
        take(id);
        runThread(threads[id], /*untilYield=*/true);
        requeue(id);
        if (violation)
          break;
      }
    } else {
      complete(completableOps[pick - units.size()]);
    }
  }
  if (violation || pruned)
    return;
  checkExit();
}

uint64_t Machine::stateHash() const {
  llvm::hash_code hash = llvm::hash_value(eventSeq & 0);
  for (const Thread &t : threads) {
    hash = llvm::hash_combine(hash, int(t.state), t.parked, t.started, t.ticket,
                              t.wgmmaIssued, t.wgmmaCommitted, t.wgmmaRetired,
                              t.bulkCommitted, t.bulkOpenStores, t.tcgenIssued,
                              t.registers);
    for (uint64_t map : t.acquiredMaps)
      hash = llvm::hash_combine(hash, map);
    for (const Frame &frame : t.stack) {
      hash = llvm::hash_combine(
          hash, frame.block,
          frame.next == frame.block->end() ? nullptr : &*frame.next, frame.iv);
      // Loop-carried values and the values of ops whose outcome depends
      // on other threads are not implied by the position.
      for (BlockArgument arg : frame.block->getArguments())
        hash = llvm::hash_combine(hash, t.values[kernel.index(arg)].bits);
    }
    for (uint32_t index : kernel.orderDependentValues)
      hash = llvm::hash_combine(hash, t.values[index].bits);
  }
  for (const Cta &cta : ctas) {
    hash =
        llvm::hash_combine(hash, cta.launched, cta.exited, cta.liveThreads,
                           cta.tmemAllocated, cta.clcFailed, cta.freeRegisters);
    std::vector<uint32_t> offsets;
    for (const auto &entry : cta.barriers)
      offsets.push_back(entry.first);
    llvm::sort(offsets);
    for (uint32_t offset : offsets) {
      const MBarrier &b = cta.barriers.find(offset)->second;
      hash = llvm::hash_combine(hash, offset, b.initialized, b.pending, b.tx,
                                b.completed);
    }
    std::vector<int64_t> ids;
    for (const auto &entry : cta.named)
      ids.push_back(entry.first);
    llvm::sort(ids);
    for (int64_t id : ids) {
      const NamedBarrier &b = cta.named.find(id)->second;
      hash = llvm::hash_combine(hash, id, b.arrived.size(), b.instances);
    }
  }
  for (const Cluster &cluster : clusters)
    hash = llvm::hash_combine(hash, cluster.launched, cluster.cancelled,
                              cluster.exited, cluster.barrier.instances,
                              cluster.barrier.arrived.size());
  std::vector<std::tuple<int, Operation *, int64_t, uint32_t, uint32_t>>
      pending;
  for (uint32_t id : inFlight) {
    const AsyncOp &op = *asyncOps[id - 1];
    if (!op.done)
      pending.emplace_back(int(op.kind), op.op, op.iteration, op.cta,
                           op.thread);
  }
  llvm::sort(pending);
  for (const auto &entry : pending)
    hash = llvm::hash_combine(hash, std::get<0>(entry), std::get<1>(entry),
                              std::get<2>(entry), std::get<3>(entry),
                              std::get<4>(entry));
  for (int buffer : workspaceBuffers)
    for (uint8_t byte : global[buffer].memory.bytes)
      hash = llvm::hash_combine(hash, byte);
  return static_cast<uint64_t>(hash);
}

void Machine::checkExit() {
  // Threads that never finished: a deadlock. Group them by the op they wait
  // at and say what each waits for.
  std::vector<uint32_t> stuck;
  for (const Thread &thread : threads)
    if (thread.state != ThreadState::Done && ctas[thread.cta].launched)
      stuck.push_back(thread.id);
  if (!stuck.empty()) {
    std::vector<std::pair<Operation *, std::string>> notes;
    std::vector<uint32_t> involved;
    llvm::DenseMap<Operation *, std::vector<uint32_t>> byOp;
    std::vector<Operation *> order;
    for (uint32_t id : stuck) {
      Operation *op = &*threads[id].stack.back().next;
      if (!byOp.count(op))
        order.push_back(op);
      byOp[op].push_back(id);
    }
    for (Operation *op : order) {
      const std::vector<uint32_t> &ids = byOp[op];
      involved.push_back(ids.front());
      notes.push_back({op, std::to_string(ids.size()) +
                               " thread(s) wait here, e.g. " +
                               describeThread(ids.front())});
    }
    Operation *first = order.front();
    // Prefer a pipeline wait as the primary location.
    for (Operation *op : order)
      if (isa<ProducerAcquireOp, ConsumerWaitOp>(op)) {
        first = op;
        break;
      }
    std::string message = "deadlock: " + std::to_string(stuck.size()) +
                          " thread(s) can never proceed, e.g. " +
                          describeThread(byOp[first].front());
    fail(Violation::Kind::Deadlock, first, message, std::move(notes), involved);
    return;
  }
  // Clusters that never ran (and were not cancelled): their tiles are lost.
  for (uint32_t i = 0; i < clusters.size(); ++i)
    if (!clusters[i].launched && !clusters[i].cancelled) {
      fail(Violation::Kind::Rule, kernel.func,
           "cluster " + std::to_string(i) + " never launched", {}, {});
      return;
    }
  // Workspaces the launcher zeroes once must be left zeroed for the next
  // launch (docs/SM90.md, split-K).
  for (size_t i = 0; i < plan.workspaces.size(); ++i) {
    if (!plan.workspaces[i].zeroInit)
      continue;
    const std::vector<uint8_t> &bytes =
        global[workspaceBuffers[i]].memory.bytes;
    auto nonzero = std::find_if(bytes.begin(), bytes.end(),
                                [](uint8_t b) { return b != 0; });
    if (nonzero == bytes.end())
      continue;
    fail(Violation::Kind::Rule, kernel.func,
         "the kernel leaves workspace params[" +
             std::to_string(plan.workspaces[i].paramIndex) +
             "] non-zero at byte " + std::to_string(nonzero - bytes.begin()) +
             ": the next launch would start from a stale counter",
         {}, {});
    return;
  }
  // Barriers left with a partial phase: the roles made fewer arrivals (or
  // delivered fewer bytes) than the count expects.
  for (Cta &cta : ctas) {
    if (!cta.launched)
      continue;
    for (auto &[offset, barrier] : cta.barriers) {
      if (!barrier.initialized ||
          (barrier.pending == barrier.count && barrier.tx == 0))
        continue;
      fail(Violation::Kind::Arrival, barrier.init.op,
           describeBarrier(barrier) + " ends the kernel in " +
               phaseName(barrier.completed) + " with " +
               std::to_string(barrier.count - barrier.pending) + " of " +
               std::to_string(barrier.count) + " arrivals and " +
               std::to_string(barrier.tx) +
               " transaction bytes pending: the arrival count does not "
               "match the arrivals the roles make",
           {}, {}, {{barrier.cta, offset}});
      return;
    }
  }
}

void Machine::complete(uint32_t id) {
  AsyncOp &op = *asyncOps[id - 1];
  if (op.done)
    return;
  switch (op.kind) {
  case AsyncKind::TmaLoad:
    completeTmaLoad(*this, op);
    break;
  case AsyncKind::TmaStore:
    completeTmaStore(*this, op);
    break;
  case AsyncKind::Wgmma:
    completeWgmma(*this, op);
    break;
  case AsyncKind::Tcgen05Mma:
    completeTcgen05Mma(*this, op);
    break;
  case AsyncKind::Tcgen05Commit:
    completeTcgen05Commit(*this, op);
    break;
  case AsyncKind::Clc:
    completeClc(*this, op);
    break;
  case AsyncKind::ScaleCopy:
    completeScaleCopy(*this, op);
    break;
  }
  op.done = true;
  wake(asyncWaiters);
}
