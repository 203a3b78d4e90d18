//===- OpsTma.cpp - TMA loads and stores ----------------------------------===//
//
// cp.async.bulk.tensor (PTX ISA "Data Movement: Tensor copy"): a load copies
// a box of a tensor map into shared memory asynchronously, zero-filling
// elements outside the tensor, in the tensor map's swizzle, and completes
// the box's bytes on an mbarrier (of every destination CTA with multicast;
// of the pair leader with .cta_group::2). A store copies a shared-memory box
// to global memory, clipped at the tensor's bounds (along a line, at the
// end of the 16-byte chunk holding its last element), tracked by bulk groups
// (cp.async.bulk.commit_group / wait_group[.read]). A general grouped
// kernel's copies go through its groups' tensor maps in the general group
// table (gemm.tma.group_descriptor): each map has its group's address,
// extent and stride, so the zero fill and the clipping are per group.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "gemm/Runtime/GroupProblems.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

SimValue &valueOf(Exec &e, Value value) {
  return e.t.values[e.m.kernel.index(value)];
}

int64_t swizzleBytes(bundle::Swizzle swizzle) {
  switch (swizzle) {
  case bundle::Swizzle::B32:
    return 32;
  case bundle::Swizzle::B64:
    return 64;
  case bundle::Swizzle::B128:
    return 128;
  case bundle::Swizzle::None:
    return 0;
  }
  return 0;
}

const char *operandName(int operand) {
  return operand == 0 ? "A" : operand == 1 ? "B" : "C";
}

/// The tensor map at byte `offset` of the general group table: the index in
/// tensorMaps of a map the prep kernel wrote there, which this thread
/// acquired (gemm.tma.acquire_descriptor), or a violation (-1).
int generalMapOf(Exec &e, uint64_t offset) {
  auto it = e.m.generalMapAt.find(offset);
  if (it == e.m.generalMapAt.end()) {
    uint64_t groups = e.m.plan.problem.groups;
    uint64_t first = runtime::general::descriptorsOffset(groups);
    std::string what =
        "byte " + std::to_string(offset) + " of the general group table";
    if (offset >= first &&
        (offset - first) % runtime::general::TensorMapBytes == 0 &&
        (offset - first) / runtime::general::TensorMapBytes <
            runtime::general::MapsPerGroup * groups) {
      uint64_t index = (offset - first) / runtime::general::TensorMapBytes;
      what = "the tensor map of group " +
             std::to_string(index / runtime::general::MapsPerGroup) + "'s " +
             operandName(int(index % runtime::general::MapsPerGroup)) +
             ", which the prep kernel did not write (the group has no tiles, "
             "or a record is invalid: uninitialised or stale memory)";
    } else {
      what += ", where no tensor map lies (the maps start at byte " +
              std::to_string(first) + ", 128 bytes each)";
    }
    e.fail(Violation::Kind::Rule, "a TMA copy through " + what);
    return -1;
  }
  if (!llvm::is_contained(e.t.acquiredMaps, offset)) {
    const TensorMap &map = e.m.tensorMaps[it->second];
    e.fail(Violation::Kind::Rule,
           "a TMA copy through the tensor map of group " +
               std::to_string(map.group) + "'s " + operandName(map.operand) +
               " that this thread has not acquired "
               "(gemm.tma.acquire_descriptor: fence.proxy.tensormap::generic."
               "acquire): the prep kernel wrote it through the generic "
               "proxy, and the tensormap proxy may still hold a stale copy");
    return -1;
  }
  return it->second;
}

/// The index in tensorMaps of the map a descriptor value stands for: a
/// launch's descriptor (its index) or the address of a general group's map
/// in the general group table (gemm.tma.group_descriptor), checked against
/// the descriptor's type in the IR (the launch plan comes from the
/// manifest; a kernel whose manifest and IR disagree would read the wrong
/// boxes). -1 after a violation.
int tensorMapIndex(Exec &e, uint64_t bits, TmaDescriptorType type) {
  int index = -1;
  auto [buffer, offset] = Machine::globalAddress(bits);
  if (e.m.generalTableBuffer >= 0 && buffer == e.m.generalTableBuffer) {
    index = generalMapOf(e, offset);
    if (index < 0)
      return -1;
  } else if (bits < e.m.tensorMaps.size() && e.m.tensorMaps[bits].group < 0) {
    index = static_cast<int>(bits);
  } else {
    e.fail(Violation::Kind::Rule, "descriptor argument " +
                                      std::to_string(bits) +
                                      " is not a TMA descriptor of the launch");
    return -1;
  }
  const TensorMap &map = e.m.tensorMaps[index];
  ArrayRef<int64_t> box = type.getBox();
  bool same = box.size() == map.plan.rank &&
              swizzleBytes(map.plan.swizzle) == type.getSwizzle() &&
              bundle::elementBytes(map.plan.dtype) ==
                  uint32_t(getElementBytes(type.getElementType()));
  for (size_t i = 0; same && i < box.size(); ++i)
    same = map.plan.box[i] == box[i];
  if (!same) {
    std::string planBox;
    for (uint32_t i = 0; i < map.plan.rank; ++i)
      planBox += (i ? ", " : "") + std::to_string(map.plan.box[i]);
    e.fail(Violation::Kind::Rule,
           "the launch's tensor map (rank " + std::to_string(map.plan.rank) +
               ", box [" + planBox + "], swizzle " +
               std::to_string(swizzleBytes(map.plan.swizzle)) +
               ") does not match the descriptor type of the kernel");
    return -1;
  }
  // A batch coordinate goes with a rank-3 tensor map (the op verifier ties
  // it to the descriptor type, checked above against the launch's map).
  return index;
}

const TensorMap *tensorMapOf(Exec &e, uint64_t bits, TmaDescriptorType type) {
  int index = tensorMapIndex(e, bits, type);
  return index < 0 ? nullptr : &e.m.tensorMaps[index];
}

/// The batch coordinate of a TMA op: 0 for a rank-2 tensor map.
int64_t batchOf(Exec &e, Value batch) {
  return batch ? static_cast<int32_t>(valueOf(e, batch).bits) : 0;
}

/// Byte offset of element (outer, inner) of batch entry `batch` of the
/// tensor map's global tensor, and whether it lies inside the tensor (TMA
/// zero-fills loads and clips stores outside).
bool globalElement(const TensorMap &map, int64_t batch, int64_t outer,
                   int64_t inner, unsigned elementBytes, uint64_t &offset) {
  const runtime::TmaPlan &plan = map.plan;
  if (batch < 0 || outer < 0 || inner < 0 ||
      uint64_t(inner) >= plan.globalDim[0] ||
      uint64_t(outer) >= plan.globalDim[1] ||
      (plan.rank == 3 && uint64_t(batch) >= plan.globalDim[2]))
    return false;
  offset = map.base + (plan.rank == 3 ? batch * plan.globalStrides[1] : 0) +
           outer * plan.globalStrides[0] + inner * elementBytes;
  return true;
}

/// The global elements box row `r` of a TMA store at (`inner`, `outer`,
/// `batch`) writes: columns [first, last) from byte `start`. Lines, rows and
/// batch entries outside the tensor are not written; along a line the store
/// writes the 16-byte chunk holding the tensor's last element whole, past
/// global_dim 0 (the H200 does: bench/probes/tma-store-extent.cu,
/// bench/results/2026-11-24-h200-tma-store-extent), so a C whose lines are
/// not 16-byte multiples has the rest of that chunk overwritten.
struct StoredSpan {
  int64_t first = 0, last = 0;
  uint64_t start = 0;
};
std::optional<StoredSpan> storedSpan(const TensorMap &map, int64_t boxInner,
                                     int64_t inner, int64_t outer,
                                     int64_t batch, int64_t r,
                                     unsigned elementBytes) {
  int64_t chunk = 16 / elementBytes;
  int64_t lineEnd =
      (int64_t(map.plan.globalDim[0]) + chunk - 1) / chunk * chunk;
  StoredSpan span;
  span.first = std::max<int64_t>(inner, 0);
  span.last = std::min<int64_t>(inner + boxInner, lineEnd);
  if (span.first >= span.last ||
      !globalElement(map, batch, outer + r, 0, elementBytes, span.start))
    return std::nullopt;
  span.start += span.first * elementBytes;
  return span;
}

/// Where a box lands in (a load) or comes from (a store) a slot, the only
/// forms the kernels use and the simulator models: in a K-major slot a box
/// row is one whole row of the slot (a swizzle span), the box's rows start
/// at row `row`; in an MN-major slot (a load only) a box is one block's
/// `span` rows along its inner dimension by K lines along its outer one,
/// landing at block `row / span` from K line `kLine`; a packed narrow box
/// (a store, `packed`: TmaStoreOp::storesPackedBox) is the slot's first
/// elements. Returns the byte offset into the slot, or fails.
std::optional<uint64_t> boxInSlot(Exec &e, TmaDescriptorType desc,
                                  SmemBufferType buffer, uint64_t slot,
                                  uint64_t row, uint64_t kLine,
                                  bool packed = false) {
  int64_t elementBytes = getElementBytes(buffer.getElementType());
  int64_t boxRowBytes =
      desc.getBox()[0] * getElementBytes(desc.getElementType());
  if (slot >= uint64_t(buffer.getStages())) {
    e.fail(Violation::Kind::Rule,
           "slot " + std::to_string(slot) + " of a ring of " +
               std::to_string(buffer.getStages()) + " stages");
    return std::nullopt;
  }
  // A packed narrow box (gemm.tma.store): the slot's first elements.
  if (packed)
    return 0;
  if (buffer.isMNMajor()) {
    int64_t span = buffer.getSpanRows();
    if (boxRowBytes != buffer.getSwizzle()) {
      e.fail(Violation::Kind::Unsupported,
             "a box row of " + std::to_string(boxRowBytes) +
                 " bytes into an MN-major slot of " +
                 std::to_string(buffer.getSwizzle()) +
                 "-byte K lines is not modelled");
      return std::nullopt;
    }
    if (row % span != 0 || row + span > uint64_t(buffer.getRows()) ||
        kLine + desc.getBox()[1] > uint64_t(buffer.getCols())) {
      e.fail(Violation::Kind::Rule,
             "a box of " + std::to_string(span) + " rows x " +
                 std::to_string(desc.getBox()[1]) + " K lines at row " +
                 std::to_string(row) + ", K line " + std::to_string(kLine) +
                 " of an MN-major slot of " + std::to_string(buffer.getRows()) +
                 " rows x " + std::to_string(buffer.getCols()) +
                 " K lines (blocks of " + std::to_string(span) + " rows)");
      return std::nullopt;
    }
    return row / span * buffer.getBlockBytes() + kLine * buffer.getSwizzle();
  }
  int64_t rowBytes = buffer.getCols() * elementBytes;
  if (rowBytes != boxRowBytes) {
    e.fail(Violation::Kind::Unsupported,
           "a box row of " + std::to_string(boxRowBytes) +
               " bytes into slot rows of " + std::to_string(rowBytes) +
               " bytes is not modelled");
    return std::nullopt;
  }
  if (kLine != 0 || row + desc.getBox()[1] > uint64_t(buffer.getRows())) {
    e.fail(Violation::Kind::Rule,
           "rows [" + std::to_string(row) + ", " +
               std::to_string(row + desc.getBox()[1]) + ") of a slot of " +
               std::to_string(buffer.getRows()) + " rows" +
               (kLine ? " (a K line offset into a K-major slot)" : ""));
    return std::nullopt;
  }
  return row * rowBytes;
}

Step tmaLoad(Exec &e) {
  auto op = cast<TmaLoadOp>(e.op);
  TmaDescriptorType desc = op.getDescriptor().getType();
  const TensorMap *map = tensorMapOf(e, e.bits(0), desc);
  if (!map)
    return Step::Stop;
  SmemBufferType buffer = op.getBuffer().getType();
  PipelineType pipeline = op.getPipeline().getType();
  uint64_t slot = maskTo(valueOf(e, op.getSlot()).bits, 32);
  uint64_t row = op.getRow() ? maskTo(valueOf(e, op.getRow()).bits, 32) : 0;
  uint64_t kLine =
      op.getKOffset() ? maskTo(valueOf(e, op.getKOffset()).bits, 32) : 0;
  uint64_t n = maskTo(valueOf(e, op.getIteration()).bits, 32);
  std::optional<uint64_t> inSlot = boxInSlot(e, desc, buffer, slot, row, kLine);
  if (!inSlot)
    return Step::Stop;
  uint64_t destination =
      valueOf(e, op.getBuffer()).bits + slot * buffer.getStageBytes() + *inSlot;
  if (destination % 128 != 0)
    return e.fail(Violation::Kind::Rule,
                  "the destination of a swizzled TMA load must be 128-byte "
                  "aligned, got byte " +
                      std::to_string(destination));
  int64_t bytes = desc.getBoxBytes();
  uint32_t barrier =
      pipelineBarrier(pipeline, valueOf(e, op.getPipeline()).bits, n, false);
  int64_t intended = int64_t(n / pipeline.getStages());
  bool pair = op.getCtaGroup() && *op.getCtaGroup() == 2;

  std::vector<uint32_t> ctas;
  uint32_t clusterSize = e.m.plan.cluster[0];
  if (op.getMulticastMask()) {
    uint64_t mask = maskTo(valueOf(e, op.getMulticastMask()).bits, 16);
    if (mask >> clusterSize)
      return e.fail(Violation::Kind::Mask,
                    "multicast mask 0x" + llvm::utohexstr(mask) +
                        " names CTAs outside the cluster of " +
                        std::to_string(clusterSize));
    for (uint32_t rank = 0; rank < clusterSize; ++rank)
      if ((mask >> rank) & 1)
        ctas.push_back(e.m.clusterCta(e.t.cta, rank));
  } else {
    ctas.push_back(e.t.cta);
  }

  if (op.getIssue() && !(valueOf(e, op.getIssue()).bits & 1)) {
    // Skipped box: mbarrier.complete_tx of its bytes, no data.
    uint32_t cta = pair ? e.m.pairLeaderCta(e.t.cta) : e.t.cta;
    MBarrier &target = e.m.barrierAt(e.op, cta, barrier);
    e.m.completeTx(target, barrier, e.op, e.t.id, e.t.vc, bytes, intended,
                   int64_t(n));
    e.t.vc.raise(e.t.id, e.t.vc.get(e.t.id) + 1);
    return e.m.violation ? Step::Stop : Step::Yield;
  }

  AsyncOp &load = e.m.newAsync(AsyncKind::TmaLoad, e.t, e.op);
  load.iteration = int64_t(n);
  load.tensorMap = static_cast<int>(map - e.m.tensorMaps.data());
  load.inner = static_cast<int32_t>(valueOf(e, op.getInner()).bits);
  load.outer = static_cast<int32_t>(valueOf(e, op.getOuter()).bits);
  load.batch = batchOf(e, op.getBatch());
  load.smemOffset = static_cast<uint32_t>(destination);
  load.barrierOffset = barrier;
  load.bytes = bytes;
  load.ctas = ctas;
  for (uint32_t cta : ctas)
    load.barrierCtas.push_back(pair ? e.m.pairLeaderCta(cta) : cta);
  Access access;
  access.op = e.op;
  access.thread = e.t.id;
  access.iteration = int64_t(n);
  access.async = load.id;
  for (uint32_t cta : ctas) {
    if (e.m.ctas[cta].exited)
      return e.fail(Violation::Kind::Rule, "multicasts into CTA " +
                                               std::to_string(cta) +
                                               ", which already exited");
    if (!e.m.checkWrite(e.m.ctas[cta].smem, destination, bytes, load.knowledge,
                        access, /*async=*/true, "the TMA load"))
      return Step::Stop;
  }
  e.m.log(e.t, e.op,
          "issues a TMA load of " + std::to_string(bytes) +
              " bytes for iteration " + std::to_string(n) + " (stage " +
              std::to_string(n % pipeline.getStages()) + ") into " +
              std::to_string(ctas.size()) + " CTA(s)",
          load.barrierCtas.front(), barrier);
  e.m.inFlight.push_back(load.id);
  return Step::Yield;
}

} // namespace

void sim::completeTmaLoad(Machine &m, AsyncOp &load) {
  auto op = cast<TmaLoadOp>(load.op);
  TmaDescriptorType desc = op.getDescriptor().getType();
  const TensorMap &map = m.tensorMaps[load.tensorMap];
  PipelineType pipeline = op.getPipeline().getType();
  int64_t intended = load.iteration / pipeline.getStages();
  unsigned elementBytes = getElementBytes(desc.getElementType());
  int64_t boxInner = desc.getBox()[0], boxOuter = desc.getBox()[1];
  for (auto [cta, barrierCta] : llvm::zip(load.ctas, load.barrierCtas)) {
    Cta &target = m.ctas[cta];
    if (target.exited) {
      m.fail(Violation::Kind::Rule, load.op,
             "the TMA load lands in CTA " + std::to_string(cta) +
                 ", which already exited",
             {}, {load.thread});
      return;
    }
    if (m.data()) {
      const TrackedMemory &source = m.global[map.buffer].memory;
      int64_t swizzleMode = swizzleBytes(map.plan.swizzle);
      for (int64_t r = 0; r < boxOuter; ++r)
        for (int64_t c = 0; c < boxInner; ++c) {
          uint64_t to = swizzle(load.smemOffset + r * boxInner * elementBytes +
                                    c * elementBytes,
                                swizzleMode);
          uint64_t from = 0;
          bool inside = globalElement(map, load.batch, load.outer + r,
                                      load.inner + c, elementBytes, from);
          for (unsigned b = 0; b < elementBytes; ++b)
            target.smem.bytes[to + b] = inside ? source.bytes[from + b] : 0;
        }
    }
    MBarrier &barrier = m.barrierAt(load.op, barrierCta, load.barrierOffset);
    Access access;
    access.epoch = {barrier.comp, Clock(barrier.completed + 1)};
    access.op = load.op;
    access.thread = load.thread;
    access.iteration = load.iteration;
    access.async = load.id;
    m.completeWrite(target.smem, load.smemOffset, load.bytes, access);
    m.completeTx(barrier, load.barrierOffset, load.op, load.thread,
                 load.knowledge, load.bytes, intended, load.iteration);
    if (m.violation)
      return;
  }
}

namespace {

uint64_t bulkQueue(uint32_t thread) { return (uint64_t(2) << 56) | thread; }

Step tmaStore(Exec &e) {
  auto op = cast<TmaStoreOp>(e.op);
  TmaDescriptorType desc = op.getDescriptor().getType();
  const TensorMap *map = tensorMapOf(e, e.bits(0), desc);
  if (!map)
    return Step::Stop;
  SmemBufferType buffer = op.getBuffer().getType();
  uint64_t slot = maskTo(valueOf(e, op.getSlot()).bits, 32);
  uint64_t row = op.getRow() ? maskTo(valueOf(e, op.getRow()).bits, 32) : 0;
  if (buffer.isMNMajor())
    return e.fail(Violation::Kind::Unsupported,
                  "a TMA store from an MN-major slot is not modelled");
  std::optional<uint64_t> inSlot =
      boxInSlot(e, desc, buffer, slot, row, 0, op.storesPackedBox());
  if (!inSlot)
    return Step::Stop;
  uint64_t source =
      valueOf(e, op.getBuffer()).bits + slot * buffer.getStageBytes() + *inSlot;
  int64_t bytes = desc.getBoxBytes();
  Thread &t = e.t;
  if (!t.bulkReadComp) {
    t.bulkReadComp = e.m.newComponent();
    t.bulkWriteComp = e.m.newComponent();
  }
  AsyncOp &store = e.m.newAsync(AsyncKind::TmaStore, t, e.op);
  store.queue = bulkQueue(t.id);
  store.group = t.bulkCommitted + 1;
  store.tensorMap = static_cast<int>(map - e.m.tensorMaps.data());
  store.inner = static_cast<int32_t>(valueOf(e, op.getInner()).bits);
  store.outer = static_cast<int32_t>(valueOf(e, op.getOuter()).bits);
  store.batch = batchOf(e, op.getBatch());
  store.smemOffset = static_cast<uint32_t>(source);
  store.bytes = bytes;
  Access read;
  read.epoch = {t.bulkReadComp, store.group};
  read.op = e.op;
  read.thread = t.id;
  read.async = store.id;
  if (!e.m.checkRead(e.m.ctas[t.cta].smem, source, bytes, store.knowledge, read,
                     "the TMA store", /*asyncProxy=*/true))
    return Step::Stop;
  // Its writes to C, clipped at the tensor's bounds.
  unsigned elementBytes = getElementBytes(desc.getElementType());
  TrackedMemory &c = e.m.global[map->buffer].memory;
  Access write = read;
  write.epoch = {t.bulkWriteComp, store.group};
  for (int64_t r = 0; r < desc.getBox()[1]; ++r) {
    std::optional<StoredSpan> span =
        storedSpan(*map, desc.getBox()[0], store.inner, store.outer,
                   store.batch, r, elementBytes);
    if (span && !e.m.checkWrite(c, span->start,
                                (span->last - span->first) * elementBytes,
                                store.knowledge, write,
                                /*async=*/true, "the TMA store"))
      return Step::Stop;
  }
  ++t.bulkOpenStores;
  e.m.inFlight.push_back(store.id);
  e.m.log(t, e.op,
          "issues a TMA store of " + std::to_string(bytes) + " bytes at (" +
              std::to_string(store.outer) + ", " + std::to_string(store.inner) +
              ") in bulk group " + std::to_string(store.group));
  return Step::Yield;
}

Step tmaStoreCommit(Exec &e) {
  ++e.t.bulkCommitted;
  e.t.bulkGroupStores.push_back(e.t.bulkOpenStores);
  e.t.bulkOpenStores = 0;
  return Step::Next;
}

Step tmaStoreWait(Exec &e) {
  auto op = cast<TmaStoreWaitOp>(e.op);
  Thread &t = e.t;
  int64_t target = int64_t(t.bulkCommitted) - int64_t(op.getPending());
  if (target <= 0)
    return Step::Yield;
  for (uint32_t id : e.m.inFlight) {
    const AsyncOp &store = *e.m.asyncOps[id - 1];
    if (store.kind == AsyncKind::TmaStore && store.thread == t.id &&
        !store.done && int64_t(store.group) <= target) {
      e.m.block(t, e.m.asyncWaiters);
      return Step::Block;
    }
  }
  if (t.bulkReadComp) {
    t.vc.raise(t.bulkReadComp, Clock(target));
    if (!op.getRead())
      t.vc.raise(t.bulkWriteComp, Clock(target));
  }
  return Step::Yield;
}

/// A prefetch of a descriptor (gemm.tma.prefetch_descriptor) or of a box
/// (gemm.tma.prefetch, a hint: out-of-bounds boxes are ignored).
Step tmaPrefetch(Exec &e) {
  auto type = cast<TmaDescriptorType>(e.op->getOperand(0).getType());
  return tensorMapOf(e, e.bits(0), type) ? Step::Next : Step::Stop;
}

/// gemm.tma.group_descriptor: the lowering's address arithmetic, table +
/// align128(16 + 16 G) + 128 (3 group + operand) in 64 bits (G and group
/// as unsigned 32-bit values). Pure: the TMA op that uses the address
/// finds out whether a map lies there.
Step tmaGroupDescriptor(Exec &e) {
  auto op = cast<TmaGroupDescriptorOp>(e.op);
  namespace general = runtime::general;
  uint64_t group = maskTo(valueOf(e, op.getGroup()).bits, 32);
  uint64_t groups = maskTo(valueOf(e, op.getGroups()).bits, 32);
  uint64_t offset = general::descriptorsOffset(groups) +
                    general::TensorMapBytes *
                        (general::MapsPerGroup * group + op.getOperand());
  e.setInt(0, e.bits(0) + offset);
  return Step::Next;
}

/// gemm.tma.acquire_descriptor (fence.proxy.tensormap::generic.acquire.gpu
/// [map], 128): this thread's later TMA copies through the map at that
/// address see what the prep kernel wrote there through the generic proxy.
/// The simulator's maps are made before the launch; the fence is modelled
/// as the permission it grants: a copy through a group's map without an
/// earlier acquire of that address in the same thread is a violation. The
/// launch's own descriptors (kernel parameters) need none.
Step tmaAcquireDescriptor(Exec &e) {
  auto [buffer, offset] = Machine::globalAddress(e.bits(0));
  if (e.m.generalTableBuffer < 0 || buffer != e.m.generalTableBuffer)
    return Step::Next;
  if (!llvm::is_contained(e.t.acquiredMaps, offset))
    e.t.acquiredMaps.push_back(offset);
  return Step::Next;
}

} // namespace

void sim::completeTmaStore(Machine &m, AsyncOp &store) {
  auto op = cast<TmaStoreOp>(store.op);
  TmaDescriptorType desc = op.getDescriptor().getType();
  const TensorMap &map = m.tensorMaps[store.tensorMap];
  Thread &t = m.threads[store.thread];
  unsigned elementBytes = getElementBytes(desc.getElementType());
  TrackedMemory &c = m.global[map.buffer].memory;
  const TrackedMemory &smem = m.ctas[store.cta].smem;
  int64_t boxInner = desc.getBox()[0];
  int64_t swizzleMode = swizzleBytes(map.plan.swizzle);
  Access write;
  write.epoch = {t.bulkWriteComp, store.group};
  write.op = store.op;
  write.thread = store.thread;
  write.async = store.id;
  for (int64_t r = 0; r < desc.getBox()[1]; ++r) {
    std::optional<StoredSpan> span = storedSpan(
        map, boxInner, store.inner, store.outer, store.batch, r, elementBytes);
    if (!span)
      continue;
    if (m.data())
      for (int64_t gc = span->first; gc < span->last; ++gc) {
        uint64_t from = swizzle(store.smemOffset + r * boxInner * elementBytes +
                                    (gc - store.inner) * elementBytes,
                                swizzleMode);
        for (unsigned b = 0; b < elementBytes; ++b)
          c.bytes[span->start + (gc - span->first) * elementBytes + b] =
              smem.bytes[from + b];
      }
    m.completeWrite(c, span->start, (span->last - span->first) * elementBytes,
                    write);
  }
}

void sim::registerTmaOps(MLIRContext *ctx, HandlerTable &table) {
  addHandler<TmaLoadOp>(ctx, table, tmaLoad);
  addHandler<TmaStoreOp>(ctx, table, tmaStore);
  addHandler<TmaStoreCommitOp>(ctx, table, tmaStoreCommit);
  addHandler<TmaStoreWaitOp>(ctx, table, tmaStoreWait);
  addHandler<TmaPrefetchDescriptorOp>(ctx, table, tmaPrefetch);
  addHandler<TmaPrefetchOp>(ctx, table, tmaPrefetch);
  addHandler<TmaGroupDescriptorOp>(ctx, table, tmaGroupDescriptor);
  addHandler<TmaAcquireDescriptorOp>(ctx, table, tmaAcquireDescriptor);
}
