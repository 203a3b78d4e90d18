//===- OpsSm100.cpp - Tensor memory, tcgen05 MMA, cluster launch control --===//
//
// PTX ISA "Tensor Core 5th Generation Family Instructions" and
// "clusterlaunchcontrol":
//  - TMEM is 128 lanes x 512 columns of 32-bit cells per CTA; a warp
//    allocates a power of two of columns (tcgen05.alloc, blocking until they
//    are free; illegal after tcgen05.relinquish_alloc_permit), writing the
//    address to shared memory, and frees them (tcgen05.dealloc) before the
//    CTA exits. Warp w may only access lanes 32 (w mod 4) .. + 32.
//  - tcgen05.mma runs asynchronously in issue order per issuing thread;
//    tcgen05.commit arrives once on an mbarrier (of every CTA of its mask)
//    when all the thread's earlier tcgen05 ops completed. With cta_group::2
//    the even CTA's thread computes a 256-row tile: its 128 rows of A and
//    D in each CTA, N/2 rows of B from each.
//  - clusterlaunchcontrol.try_cancel asynchronously writes a 16-byte
//    response (into every CTA of the cluster with multicast) and completes
//    16 bytes on an mbarrier: a cancelled cluster that had not launched, or
//    none. Issuing one after observing a failed response is undefined.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

uint64_t tcgenQueue(uint32_t thread) { return (uint64_t(3) << 56) | thread; }

/// The TMEM byte of (lane, column) in the tracker.
uint64_t tmemByte(uint64_t lane, uint64_t column) {
  return (lane * 512 + column) * 4;
}

bool allocated(const Cta &cta, uint64_t first, uint64_t count) {
  for (auto [start, columns] : cta.tmemAllocations)
    if (first >= start && first + count <= start + columns)
      return true;
  return false;
}

/// A warp-collective op (.sync.aligned): every lane of the warp arrives;
/// lane 0 performs the effect once all did. It orders no memory accesses
/// between the lanes (bar.warp.sync does).
bool warpCollective(Exec &e) {
  Cta &cta = e.m.ctas[e.t.cta];
  uint32_t lanes = std::min<uint32_t>(32, cta.threads - e.t.warp * 32);
  return e.m.rendezvous(e.t, cta.warpCollective[e.t.warp], e.op, lanes,
                        /*orders=*/false);
}

Step tmemAlloc(Exec &e) {
  if (!warpCollective(e))
    return Step::Block;
  if (e.t.lane != 0)
    return Step::Next;
  auto op = cast<TmemAllocOp>(e.op);
  Cta &cta = e.m.ctas[e.t.cta];
  uint64_t columns = op.getColumns();
  if (columns < 32 || columns > 512 || (columns & (columns - 1)))
    return e.fail(Violation::Kind::Rule,
                  "tcgen05.alloc of " + std::to_string(columns) +
                      " columns (a power of two in [32, 512])");
  if (cta.tmemRelinquished)
    return e.fail(Violation::Kind::Rule,
                  "tcgen05.alloc after tcgen05.relinquish_alloc_permit");
  uint64_t start = 512;
  for (uint64_t candidate = 0; candidate + columns <= 512;
       candidate += columns) {
    bool free = true;
    for (auto [first, count] : cta.tmemAllocations)
      if (candidate < first + count && first < candidate + columns)
        free = false;
    if (free) {
      start = candidate;
      break;
    }
  }
  if (start == 512) {
    e.m.block(e.t, cta.tmemWaiters);
    return Step::Block;
  }
  cta.tmemAllocations.push_back({uint32_t(start), uint32_t(columns)});
  cta.tmemAllocated += columns;
  uint64_t slot = e.bits(0);
  Access access = e.m.threadAccess(e.t, e.op);
  if (!e.m.checkWrite(cta.smem, slot, 4, e.t.vc, access, false,
                      "tcgen05.alloc's address write"))
    return Step::Stop;
  uint32_t address = static_cast<uint32_t>(start);
  std::memcpy(&cta.smem.bytes[slot], &address, 4);
  e.m.log(e.t, e.op,
          "allocates TMEM columns [" + std::to_string(start) + ", " +
              std::to_string(start + columns) + ")");
  return Step::Yield;
}

Step tmemRelinquish(Exec &e) {
  if (!warpCollective(e))
    return Step::Block;
  if (e.t.lane == 0)
    e.m.ctas[e.t.cta].tmemRelinquished = true;
  return Step::Next;
}

Step tmemAddress(Exec &e) {
  Cta &cta = e.m.ctas[e.t.cta];
  uint64_t slot = e.bits(0);
  if (!e.m.checkRead(cta.smem, slot, 4, e.t.vc, e.m.threadAccess(e.t, e.op),
                     "reading the TMEM address"))
    return Step::Stop;
  uint32_t address;
  std::memcpy(&address, &cta.smem.bytes[slot], 4);
  e.setInt(0, address);
  return Step::Next;
}

Step tmemDealloc(Exec &e) {
  if (!warpCollective(e))
    return Step::Block;
  if (e.t.lane != 0)
    return Step::Next;
  auto op = cast<TmemDeallocOp>(e.op);
  Cta &cta = e.m.ctas[e.t.cta];
  uint32_t start = static_cast<uint32_t>(e.bits(0) & 0xffff);
  uint32_t columns = static_cast<uint32_t>(op.getColumns());
  auto it = std::find(cta.tmemAllocations.begin(), cta.tmemAllocations.end(),
                      std::make_pair(start, columns));
  if (it == cta.tmemAllocations.end())
    return e.fail(Violation::Kind::Rule,
                  "tcgen05.dealloc of columns [" + std::to_string(start) +
                      ", " + std::to_string(start + columns) +
                      ") that are not one allocation of this CTA");
  // Every MMA and load on the columns must be complete: freeing them is a
  // write that must know all their accesses.
  Access access = e.m.threadAccess(e.t, e.op);
  for (uint64_t lane = 0; lane < 128; ++lane)
    if (!e.m.checkWrite(cta.tmemTrack, tmemByte(lane, start), columns * 4,
                        e.t.vc, access, false, "tcgen05.dealloc"))
      return Step::Stop;
  cta.tmemAllocations.erase(it);
  cta.tmemAllocated -= columns;
  e.m.wake(cta.tmemWaiters);
  return Step::Yield;
}

Step tmemFence(Exec &) { return Step::Next; }

Step tmemLoad(Exec &e) {
  auto op = cast<TmemLoadOp>(e.op);
  auto type = cast<VectorType>(op.getResult().getType());
  std::vector<float> values;
  if (!readTmemRow(e, op.getTmem().getType(), e.bits(0), maskTo(e.bits(1), 32),
                   static_cast<int64_t>(op.getCol()), type.getNumElements(),
                   values))
    return Step::Stop;
  SimValue v;
  v.ref = std::make_shared<std::vector<float>>(std::move(values));
  e.setResult(0, v);
  return Step::Next;
}

/// The CTAs whose TMEM and shared memory an MMA of `group` CTAs issued in
/// `cta` uses: itself, or its pair.
std::vector<uint32_t> mmaCtas(Exec &e, int64_t group) {
  if (group == 1)
    return {e.t.cta};
  uint32_t leader = e.m.pairLeaderCta(e.t.cta);
  return {leader, leader + 1};
}

Step mmaSm100(Exec &e) {
  auto op = cast<MmaSm100Op>(e.op);
  Thread &t = e.t;
  SmemBufferType aType = op.getA().getType(), bType = op.getB().getType();
  TmemType tmemType = op.getTmem().getType();
  int64_t group = static_cast<int64_t>(op.getCtaGroup());
  uint64_t slot = maskTo(e.bits(2), 32), stage = maskTo(e.bits(4), 32);
  if (slot >= uint64_t(aType.getStages()) ||
      slot >= uint64_t(bType.getStages()))
    return e.fail(Violation::Kind::Rule,
                  "slot " + std::to_string(slot) + " of rings of " +
                      std::to_string(aType.getStages()) + " slots");
  if (stage >= uint64_t(tmemType.getStages()))
    return e.fail(Violation::Kind::Rule,
                  "accumulator stage " + std::to_string(stage) + " of " +
                      std::to_string(tmemType.getStages()));
  if (group == 2 && e.m.pairLeaderCta(t.cta) != t.cta)
    return e.fail(Violation::Kind::Rule,
                  "a cta_group::2 tcgen05.mma issued by the odd CTA of its "
                  "pair");
  int64_t rowBytes = aType.getCols() * getElementBytes(aType.getElementType());
  if (rowBytes != 128)
    return e.fail(Violation::Kind::Unsupported,
                  "tcgen05.mma operands with rows of " +
                      std::to_string(rowBytes) +
                      " bytes (the simulator models 128-byte swizzled "
                      "K-major rows)");
  if (!t.tcgenComp)
    t.tcgenComp = e.m.newComponent();
  uint32_t ordinal = ++t.tcgenIssued;
  AsyncOp &mma = e.m.newAsync(AsyncKind::Tcgen05Mma, t, e.op);
  mma.queue = tcgenQueue(t.id);
  mma.ordinal = ordinal;
  // Earlier tcgen05 ops of the thread run before this one.
  mma.knowledge.raise(t.tcgenComp, ordinal - 1);
  mma.aOffset = static_cast<uint32_t>(e.bits(0) + slot * aType.getStageBytes());
  mma.bOffset = static_cast<uint32_t>(e.bits(1) + slot * bType.getStageBytes());
  mma.tmemColumn =
      static_cast<uint32_t>((e.bits(3) & 0xffff) + stage * tmemType.getCols());
  mma.accumulate = e.bits(5) & 1;
  mma.ctas = mmaCtas(e, group);
  int64_t n = op.getN();
  Access access;
  access.epoch = {t.tcgenComp, ordinal};
  access.op = e.op;
  access.thread = t.id;
  access.async = mma.id;
  for (uint32_t cta : mma.ctas) {
    Cta &target = e.m.ctas[cta];
    if (!allocated(target, mma.tmemColumn, n))
      return e.fail(Violation::Kind::Rule,
                    "writes TMEM columns [" + std::to_string(mma.tmemColumn) +
                        ", " + std::to_string(mma.tmemColumn + n) +
                        ") of CTA " + std::to_string(cta) +
                        ", which are not allocated");
    if (!e.m.checkRead(target.smem, mma.aOffset, aType.getStageBytes(),
                       mma.knowledge, access, "the tcgen05.mma (A)") ||
        !e.m.checkRead(target.smem, mma.bOffset, bType.getStageBytes(),
                       mma.knowledge, access, "the tcgen05.mma (B)"))
      return Step::Stop;
    for (uint64_t lane = 0; lane < 128; ++lane)
      if (!e.m.checkWrite(target.tmemTrack, tmemByte(lane, mma.tmemColumn),
                          n * 4, mma.knowledge, access, false,
                          "the tcgen05.mma"))
        return Step::Stop;
  }
  e.m.inFlight.push_back(mma.id);
  e.m.log(t, e.op,
          "issues a tcgen05.mma into TMEM columns [" +
              std::to_string(mma.tmemColumn) + ", " +
              std::to_string(mma.tmemColumn + n) + ") (accumulator stage " +
              std::to_string(stage) + ")");
  return Step::Yield;
}

Step mmaSm100Commit(Exec &e) {
  auto op = cast<MmaSm100CommitOp>(e.op);
  Thread &t = e.t;
  PipelineType type = op.getPipeline().getType();
  uint64_t n = maskTo(e.bits(1), 32);
  bool empty = op.getBarrier() == PipelineBarrier::empty;
  uint32_t offset = pipelineBarrier(type, e.bits(0), n, empty);
  std::vector<uint32_t> ctas;
  uint32_t clusterSize = e.m.plan.cluster[0];
  if (op.getMulticastMask()) {
    uint64_t mask =
        maskTo(e.t.values[e.m.kernel.index(op.getMulticastMask())].bits, 16);
    if (mask >> clusterSize)
      return e.fail(Violation::Kind::Mask,
                    "multicast mask 0x" + llvm::utohexstr(mask) +
                        " names CTAs outside the cluster of " +
                        std::to_string(clusterSize));
    for (uint32_t rank = 0; rank < clusterSize; ++rank)
      if ((mask >> rank) & 1)
        ctas.push_back(e.m.clusterCta(t.cta, rank));
  } else {
    ctas.push_back(t.cta);
  }
  if (!t.tcgenComp)
    t.tcgenComp = e.m.newComponent();
  uint32_t ordinal = ++t.tcgenIssued;
  AsyncOp &commit = e.m.newAsync(AsyncKind::Tcgen05Commit, t, e.op);
  commit.queue = tcgenQueue(t.id);
  commit.ordinal = ordinal;
  commit.knowledge.raise(t.tcgenComp, ordinal);
  commit.iteration = int64_t(n);
  commit.barrierOffset = offset;
  commit.barrierCtas = ctas;
  e.m.inFlight.push_back(commit.id);
  e.m.log(t, e.op,
          std::string("commits its tcgen05 ops to the ") +
              (empty ? "empty" : "full") + " barrier of iteration " +
              std::to_string(n) + " in " + std::to_string(ctas.size()) +
              " CTA(s)");
  return Step::Yield;
}

Step clcTryCancel(Exec &e) {
  auto op = cast<ClcTryCancelOp>(e.op);
  Thread &t = e.t;
  Cta &cta = e.m.ctas[t.cta];
  if (cta.clcFailed)
    return e.fail(Violation::Kind::Rule,
                  "clusterlaunchcontrol.try_cancel after this CTA observed a "
                  "failed response (undefined behaviour, PTX ISA "
                  "clusterlaunchcontrol.try_cancel)");
  SmemBufferType responses = op.getResponse().getType();
  uint64_t slot = maskTo(e.bits(1), 32);
  if (slot >= uint64_t(responses.getStages()))
    return e.fail(Violation::Kind::Rule,
                  "response slot " + std::to_string(slot) + " of " +
                      std::to_string(responses.getStages()));
  PipelineType type = op.getPipeline().getType();
  uint64_t n = maskTo(e.bits(3), 32);
  AsyncOp &request = e.m.newAsync(AsyncKind::Clc, t, e.op);
  request.iteration = int64_t(n);
  request.smemOffset =
      static_cast<uint32_t>(e.bits(0) + slot * responses.getStageBytes());
  request.barrierOffset = pipelineBarrier(type, e.bits(2), n, false);
  if (op.getMulticast())
    for (uint32_t rank = 0; rank < e.m.plan.cluster[0]; ++rank)
      request.ctas.push_back(e.m.clusterCta(t.cta, rank));
  else
    request.ctas.push_back(t.cta);
  request.barrierCtas = request.ctas;
  Access access;
  access.op = e.op;
  access.thread = t.id;
  access.iteration = int64_t(n);
  access.async = request.id;
  for (uint32_t target : request.ctas)
    if (!e.m.checkWrite(e.m.ctas[target].smem, request.smemOffset, 16,
                        request.knowledge, access, true,
                        "the cluster launch control response"))
      return Step::Stop;
  e.m.inFlight.push_back(request.id);
  e.m.log(t, e.op,
          "asks cluster launch control for work (response " +
              std::to_string(n) + ")",
          t.cta, request.barrierOffset);
  return Step::Yield;
}

Step clcQuery(Exec &e) {
  auto op = cast<ClcQueryOp>(e.op);
  Cta &cta = e.m.ctas[e.t.cta];
  SmemBufferType responses = op.getResponse().getType();
  uint64_t slot = maskTo(e.bits(1), 32);
  uint64_t offset = e.bits(0) + slot * responses.getStageBytes();
  if (!e.m.checkRead(cta.smem, offset, 16, e.t.vc, e.m.threadAccess(e.t, e.op),
                     "reading the cluster launch control response"))
    return Step::Stop;
  uint32_t words[4];
  std::memcpy(words, &cta.smem.bytes[offset], 16);
  bool valid = words[0] & 1;
  if (!valid)
    cta.clcFailed = true;
  e.setInt(0, valid);
  e.setInt(1, words[1]);
  e.setInt(2, words[2]);
  e.setInt(3, words[3]);
  return Step::Next;
}

} // namespace

bool sim::readTmemRow(Exec &e, TmemType type, uint64_t address, uint64_t stage,
                      int64_t col, int64_t count, std::vector<float> &values) {
  Cta &cta = e.m.ctas[e.t.cta];
  if (stage >= uint64_t(type.getStages())) {
    e.fail(Violation::Kind::Rule, "accumulator stage " + std::to_string(stage) +
                                      " of " +
                                      std::to_string(type.getStages()));
    return false;
  }
  uint64_t lane = 32 * (e.t.warp % 4) + e.t.lane + (address >> 16);
  uint64_t column = (address & 0xffff) + stage * type.getCols() + col;
  if (lane >= 128 || !allocated(cta, column, count)) {
    e.fail(Violation::Kind::Rule, "reads TMEM lane " + std::to_string(lane) +
                                      " columns [" + std::to_string(column) +
                                      ", " + std::to_string(column + count) +
                                      "), which are not allocated");
    return false;
  }
  if (!e.m.checkRead(cta.tmemTrack, tmemByte(lane, column), count * 4, e.t.vc,
                     e.m.threadAccess(e.t, e.op), "tcgen05.ld"))
    return false;
  if (e.m.data())
    values.assign(&cta.tmem[lane * 512 + column],
                  &cta.tmem[lane * 512 + column] + count);
  return true;
}

void sim::completeTcgen05Mma(Machine &m, AsyncOp &mma) {
  if (!m.data())
    return;
  auto op = cast<MmaSm100Op>(mma.op);
  SmemBufferType aType = op.getA().getType(), bType = op.getB().getType();
  std::string error;
  const ElementCodec *codec = ElementCodec::get(aType.getElementType(), error);
  if (!codec) {
    m.fail(Violation::Kind::Unsupported, mma.op, error, {}, {mma.thread});
    return;
  }
  unsigned bytes = codec->bytes();
  int64_t k = aType.getCols();
  int64_t n = op.getN();
  int64_t bRows = bType.getRows();
  auto decode = [&](const std::vector<uint8_t> &smem, uint64_t base,
                    int64_t row, int64_t col) {
    int64_t byte = col * bytes;
    return codec->decode(codec->load(
        &smem[descriptorByte(base + (byte / 32) * 32, row, byte % 32)]));
  };
  // B: N rows, the pair's halves from each CTA.
  std::vector<double> b(n * k);
  for (int64_t row = 0; row < n; ++row) {
    const Cta &holder = m.ctas[mma.ctas[row / bRows]];
    for (int64_t c = 0; c < k; ++c)
      b[row * k + c] = decode(holder.smem.bytes, mma.bOffset, row % bRows, c);
  }
  for (uint32_t ctaIndex : mma.ctas) {
    Cta &cta = m.ctas[ctaIndex];
    std::vector<double> a(aType.getRows() * k);
    for (int64_t row = 0; row < aType.getRows(); ++row)
      for (int64_t c = 0; c < k; ++c)
        a[row * k + c] = decode(cta.smem.bytes, mma.aOffset, row, c);
    for (int64_t lane = 0; lane < aType.getRows(); ++lane)
      for (int64_t col = 0; col < n; ++col) {
        double sum = 0;
        for (int64_t c = 0; c < k; ++c)
          sum += a[lane * k + c] * b[col * k + c];
        float &cell = cta.tmem[lane * 512 + mma.tmemColumn + col];
        cell = mma.accumulate ? cell + static_cast<float>(sum)
                              : static_cast<float>(sum);
      }
  }
}

void sim::completeTcgen05Commit(Machine &m, AsyncOp &commit) {
  auto op = cast<MmaSm100CommitOp>(commit.op);
  PipelineType type = op.getPipeline().getType();
  for (uint32_t cta : commit.barrierCtas) {
    if (m.ctas[cta].exited) {
      m.fail(Violation::Kind::Rule, commit.op,
             "tcgen05.commit arrives on a barrier of CTA " +
                 std::to_string(cta) + ", which already exited",
             {}, {commit.thread});
      return;
    }
    MBarrier &barrier = m.barrierAt(commit.op, cta, commit.barrierOffset);
    m.arrive(barrier, commit.barrierOffset, commit.op, commit.thread,
             commit.knowledge, 1, 0, commit.iteration / type.getStages(),
             commit.iteration, /*async=*/true);
    if (m.violation)
      return;
  }
}

void sim::completeClc(Machine &m, AsyncOp &request) {
  auto op = cast<ClcTryCancelOp>(request.op);
  PipelineType type = op.getPipeline().getType();
  // The cluster the hardware would launch next, if one is still waiting.
  uint32_t words[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < m.clusters.size(); ++i) {
    Cluster &cluster = m.clusters[i];
    if (cluster.launched || cluster.cancelled)
      continue;
    cluster.cancelled = true;
    words[0] = 1;
    words[1] = cluster.ctas.front();
    break;
  }
  m.log(request.thread, request.op,
        words[0] ? "cluster launch control cancels the cluster of CTA " +
                       std::to_string(words[1]) + " (response " +
                       std::to_string(request.iteration) + ")"
                 : "cluster launch control has no more clusters (response " +
                       std::to_string(request.iteration) + ")");
  for (uint32_t cta : request.ctas) {
    Cta &target = m.ctas[cta];
    if (target.exited) {
      m.fail(Violation::Kind::Rule, request.op,
             "the cluster launch control response lands in CTA " +
                 std::to_string(cta) + ", which already exited",
             {}, {request.thread});
      return;
    }
    std::memcpy(&target.smem.bytes[request.smemOffset], words, 16);
    MBarrier &barrier = m.barrierAt(request.op, cta, request.barrierOffset);
    Access access;
    access.epoch = {barrier.comp, Clock(barrier.completed + 1)};
    access.op = request.op;
    access.thread = request.thread;
    access.iteration = request.iteration;
    access.async = request.id;
    m.completeWrite(target.smem, request.smemOffset, 16, access);
    m.completeTx(barrier, request.barrierOffset, request.op, request.thread,
                 request.knowledge, 16, request.iteration / type.getStages(),
                 request.iteration);
    if (m.violation)
      return;
  }
}

void sim::registerSm100Ops(MLIRContext *ctx, HandlerTable &table) {
  addHandler<TmemAllocOp>(ctx, table, tmemAlloc);
  addHandler<TmemRelinquishOp>(ctx, table, tmemRelinquish);
  addHandler<TmemAddressOp>(ctx, table, tmemAddress);
  addHandler<TmemDeallocOp>(ctx, table, tmemDealloc);
  addHandler<TmemFenceOp>(ctx, table, tmemFence);
  addHandler<TmemLoadOp>(ctx, table, tmemLoad);
  addHandler<MmaSm100Op>(ctx, table, mmaSm100);
  addHandler<MmaSm100CommitOp>(ctx, table, mmaSm100Commit);
  addHandler<ClcTryCancelOp>(ctx, table, clcTryCancel);
  addHandler<ClcQueryOp>(ctx, table, clcQuery);
}
