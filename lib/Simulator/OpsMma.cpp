//===- OpsMma.cpp - SM90 warpgroup MMA and accumulators -------------------===//
//
// wgmma.mma_async (PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-
// Accumulate"): a warpgroup-collective op; the MMA starts once all 128
// threads issued it, reads A and B from shared memory through 128-byte-
// swizzle K-major descriptors, and writes the accumulator registers
// asynchronously. Its results may be used only after wgmma.commit_group and
// a wgmma.wait_group that retires the group (other than as the accumulator
// of the next wgmma). Split-K partial tiles move accumulators through global
// memory in the private layout of gemm.accum.store_global.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include <cstring>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

uint64_t warpgroupKey(const Thread &t) {
  return (uint64_t(t.cta) << 8) | (t.tid / 128);
}
uint64_t wgmmaQueue(uint64_t key) { return (uint64_t(1) << 56) | key; }

/// Bytes of the first `rows` rows (M or N) of an operand slot: whole rows of
/// a K-major slot, whole blocks of an MN-major one (`rows` a multiple of
/// the block's rows).
uint64_t operandBytes(SmemBufferType type, uint64_t rows) {
  if (type.isMNMajor())
    return rows / type.getSpanRows() * type.getBlockBytes();
  return rows * type.getCols() * getElementBytes(type.getElementType());
}

/// The k-th warpgroup-collective op of a thread must be the k-th of every
/// thread of its warpgroup (.sync.aligned: executed convergently).
bool checkCollective(Exec &e) {
  std::vector<Operation *> &sequence = e.m.collectives[warpgroupKey(e.t)];
  uint32_t ordinal = e.t.collectiveOps++;
  if (ordinal == sequence.size()) {
    sequence.push_back(e.op);
    return true;
  }
  if (sequence[ordinal] == e.op)
    return true;
  e.m.fail(Violation::Kind::Rule, e.op,
           "warpgroup-collective op (.sync.aligned) executed by " +
               e.m.describeThread(e.t) +
               " where other threads of its warpgroup executed a different "
               "one: the warpgroup diverged",
           {{sequence[ordinal], "what the other threads executed"}}, {e.t.id});
  return false;
}

uint32_t wgmmaComponent(Machine &m, uint64_t key) {
  uint32_t &comp = m.wgmmaComp[key];
  if (!comp)
    comp = m.newComponent();
  return comp;
}

Step accumZero(Exec &e) {
  auto type = cast<AccumulatorType>(e.op->getResult(0).getType());
  auto fragment = std::make_shared<Fragment>();
  if (e.m.data())
    fragment->values.assign(type.getAtoms() * type.getValuesPerAtom(), 0.0);
  SimValue v;
  v.ref = fragment;
  e.setResult(0, v);
  return Step::Next;
}

Step wgmmaFence(Exec &e) {
  return checkCollective(e) ? Step::Next : Step::Stop;
}

Step mmaSm90(Exec &e) {
  if (!checkCollective(e))
    return Step::Stop;
  auto op = cast<MmaSm90Op>(e.op);
  Thread &t = e.t;
  AccumulatorType type = op.getAccumulator().getType();
  uint64_t key = warpgroupKey(t);
  uint64_t instance = (key << 24) | t.wgmmaIssued;
  auto input = e.operand(0).fragment();
  if (!input)
    return e.fail(Violation::Kind::Rule, "accumulator has no value");
  auto output = std::make_shared<Fragment>();
  output->pending = true;
  uint32_t &id = e.m.pendingWgmma[instance];
  if (!id) {
    AsyncOp &mma = e.m.newAsync(AsyncKind::Wgmma, t, e.op);
    id = mma.id;
    mma.queue = wgmmaQueue(key);
    SmemBufferType aType = op.getA().getType(), bType = op.getB().getType();
    uint64_t slot = maskTo(e.bits(2), 32);
    uint64_t aRow = maskTo(e.bits(3), 32);
    if (slot >= uint64_t(aType.getStages()) ||
        aRow + type.getRows() > uint64_t(aType.getRows()))
      return e.fail(Violation::Kind::Rule,
                    "reads rows [" + std::to_string(aRow) + ", " +
                        std::to_string(aRow + type.getRows()) + ") of slot " +
                        std::to_string(slot) + " of an A ring of " +
                        std::to_string(aType.getStages()) + " x " +
                        std::to_string(aType.getRows()) + " rows");
    for (SmemBufferType operand : {aType, bType}) {
      int64_t elementBytes = getElementBytes(operand.getElementType());
      bool modelled =
          operand.getSwizzle() == 128 &&
          (operand.isMNMajor() ? elementBytes == 2
                               : operand.getCols() * elementBytes == 128);
      if (!modelled)
        return e.fail(Violation::Kind::Unsupported,
                      "WGMMA operands other than 128-byte swizzled K-major "
                      "rows of 128 bytes or MN-major blocks of 16-bit "
                      "elements are not modelled");
    }
    if (aType.isMNMajor() && aRow % aType.getSpanRows() != 0)
      return e.fail(Violation::Kind::Rule,
                    "A starts at row " + std::to_string(aRow) +
                        " of an MN-major slot, not at a block boundary (" +
                        std::to_string(aType.getSpanRows()) + " rows)");
    mma.aOffset = static_cast<uint32_t>(
        e.bits(1) + slot * aType.getStageBytes() + operandBytes(aType, aRow));
    mma.bOffset =
        static_cast<uint32_t>(e.bits(4) + slot * bType.getStageBytes() +
                              operandBytes(bType, op.getBColOffset()));
    mma.overwrite = op.getAccumulator().getDefiningOp<AccumZeroOp>() != nullptr;
    mma.mma = e.op;
  } else {
    AsyncOp &mma = *e.m.asyncOps[id - 1];
    mma.knowledge.join(t.vc);
    t.vc.raise(t.id, t.vc.get(t.id) + 1);
  }
  AsyncOp &mma = *e.m.asyncOps[id - 1];
  output->producer = mma.id;
  mma.participants.push_back({t.id, input, output});
  ++t.wgmmaIssued;
  SimValue v;
  v.ref = output;
  e.setResult(0, v);
  if (mma.participants.size() < 128)
    return Step::Yield;
  // Every thread issued it: the MMA starts, reading A and B. It must know
  // that the TMA loads of the slot landed, through the full barrier.
  SmemBufferType aType = op.getA().getType(), bType = op.getB().getType();
  Access read;
  read.epoch = {wgmmaComponent(e.m, key), t.wgmmaCommitted + 1};
  read.op = e.op;
  read.thread = mma.thread;
  read.async = mma.id;
  TrackedMemory &smem = e.m.ctas[t.cta].smem;
  // WGMMA reads shared memory through the async proxy: generic-proxy
  // writes (the direct kernel's st.shared) need the writer's
  // fence.proxy.async first (PTX ISA "wgmma.mma_async": async proxy).
  if (!e.m.checkRead(smem, mma.aOffset, operandBytes(aType, type.getRows()),
                     mma.knowledge, read, "the WGMMA (A)",
                     /*asyncProxy=*/true) ||
      !e.m.checkRead(smem, mma.bOffset, operandBytes(bType, type.getCols()),
                     mma.knowledge, read, "the WGMMA (B)",
                     /*asyncProxy=*/true))
    return Step::Stop;
  e.m.inFlight.push_back(mma.id);
  e.m.log(t, e.op,
          "the warpgroup's WGMMA starts (wgmma group " +
              std::to_string(t.wgmmaCommitted + 1) + ")");
  return Step::Yield;
}

Step wgmmaCommit(Exec &e) {
  if (!checkCollective(e))
    return Step::Stop;
  Thread &t = e.t;
  uint64_t key = warpgroupKey(t);
  ++t.wgmmaCommitted;
  std::vector<std::vector<uint32_t>> &groups = e.m.wgmmaGroups[key];
  if (groups.size() < t.wgmmaCommitted) {
    std::vector<uint32_t> group;
    for (uint32_t ordinal = t.wgmmaGroupStart; ordinal < t.wgmmaIssued;
         ++ordinal)
      group.push_back(e.m.pendingWgmma[(key << 24) | ordinal]);
    groups.push_back(std::move(group));
  }
  t.wgmmaGroupStart = t.wgmmaIssued;
  return Step::Next;
}

/// wgmma.wait_group N: until at most N groups of the warpgroup are pending.
/// The thread then knows the retired MMAs completed, and what their issuers
/// knew (an MMA starts only after all of the warpgroup issued it).
Step wgmmaWait(Exec &e) {
  Thread &t = e.t;
  if (!t.started) {
    if (!checkCollective(e))
      return Step::Stop;
    t.started = true;
  }
  auto op = cast<WgmmaWaitOp>(e.op);
  uint64_t key = warpgroupKey(t);
  int64_t target = int64_t(t.wgmmaCommitted) - int64_t(op.getPending());
  std::vector<std::vector<uint32_t>> &groups = e.m.wgmmaGroups[key];
  for (int64_t g = t.wgmmaRetired; g < target; ++g)
    for (uint32_t id : groups[g]) {
      if (!id || !e.m.asyncOps[id - 1]->done) {
        e.m.block(t, e.m.asyncWaiters);
        return Step::Block;
      }
    }
  for (int64_t g = t.wgmmaRetired; g < target; ++g)
    for (uint32_t id : groups[g])
      t.vc.join(e.m.asyncOps[id - 1]->knowledge);
  if (target > int64_t(t.wgmmaRetired)) {
    t.wgmmaRetired = static_cast<uint32_t>(target);
    t.vc.raise(wgmmaComponent(e.m, key), Clock(target));
  }
  return Step::Yield;
}

} // namespace

std::shared_ptr<Fragment> sim::readFragment(Exec &e, unsigned operand) {
  auto fragment = e.operand(operand).fragment();
  if (!fragment) {
    e.fail(Violation::Kind::Rule, "accumulator has no value");
    return nullptr;
  }
  if (fragment->pending) {
    const AsyncOp &mma = *e.m.asyncOps[fragment->producer - 1];
    e.m.fail(Violation::Kind::Rule, e.op,
             "reads an accumulator that the WGMMA writing it may still be "
             "computing: no wgmma.wait_group retired its group",
             {{mma.op, "the WGMMA"}}, {e.t.id});
    return nullptr;
  }
  return fragment;
}

namespace {

/// The private layout of a partial tile: an f32 accumulator's values as
/// f32, an i32 one's as s32 (PTX: st.global.v4.{f32,s32}).
void storeAccumulatorWord(AccumulatorType type, uint8_t *at, double value) {
  if (type.getElementType().isInteger(32)) {
    int32_t word = static_cast<int32_t>(static_cast<int64_t>(value));
    std::memcpy(at, &word, 4);
    return;
  }
  float word = static_cast<float>(value);
  std::memcpy(at, &word, 4);
}

double loadAccumulatorWord(AccumulatorType type, const uint8_t *at) {
  if (type.getElementType().isInteger(32)) {
    int32_t word;
    std::memcpy(&word, at, 4);
    return word;
  }
  float word;
  std::memcpy(&word, at, 4);
  return word;
}

Step accumStoreGlobal(Exec &e) {
  auto op = cast<AccumStoreGlobalOp>(e.op);
  auto fragment = readFragment(e, 0);
  if (!fragment)
    return Step::Stop;
  AccumulatorType type = op.getAccumulator().getType();
  auto [buffer, base] = Machine::globalAddress(e.bits(1));
  if (buffer >= int(e.m.global.size()))
    return e.fail(Violation::Kind::Rule, "not a global buffer");
  TrackedMemory &memory = e.m.global[buffer].memory;
  uint64_t index = maskTo(e.bits(2), 32);
  uint64_t lane = e.t.tid % 128;
  int64_t values = type.getAtoms() * type.getValuesPerAtom();
  Access access = e.m.threadAccess(e.t, e.op);
  for (int64_t step = 0; step < values / 4; ++step) {
    uint64_t offset = base + 4 * (index * type.getRows() * type.getCols() +
                                  step * 512 + 4 * lane);
    if (!e.m.checkWrite(memory, offset, 16, e.t.vc, access, false,
                        "the partial-tile store"))
      return Step::Stop;
    if (e.m.data())
      for (int64_t i = 0; i < 4; ++i)
        storeAccumulatorWord(type, &memory.bytes[offset + 4 * i],
                             fragment->values[step * 4 + i]);
  }
  return Step::Next;
}

Step accumLoadAddGlobal(Exec &e) {
  auto op = cast<AccumLoadAddGlobalOp>(e.op);
  auto fragment = readFragment(e, 0);
  if (!fragment)
    return Step::Stop;
  AccumulatorType type = op.getAccumulator().getType();
  auto [buffer, base] = Machine::globalAddress(e.bits(1));
  if (buffer >= int(e.m.global.size()))
    return e.fail(Violation::Kind::Rule, "not a global buffer");
  TrackedMemory &memory = e.m.global[buffer].memory;
  uint64_t index = maskTo(e.bits(2), 32);
  uint64_t lane = e.t.tid % 128;
  auto [first, count] = op.getValueRange();
  auto result = std::make_shared<Fragment>(*fragment);
  Access access = e.m.threadAccess(e.t, e.op);
  for (int64_t step = first / 4; step < (first + count) / 4; ++step) {
    uint64_t offset = base + 4 * (index * type.getRows() * type.getCols() +
                                  step * 512 + 4 * lane);
    if (!e.m.checkRead(memory, offset, 16, e.t.vc, access,
                       "the partial-tile load"))
      return Step::Stop;
    if (e.m.data())
      for (int64_t i = 0; i < 4; ++i) {
        double &value = result->values[step * 4 + i];
        value = accumulate(
            type, value,
            loadAccumulatorWord(type, &memory.bytes[offset + 4 * i]));
      }
  }
  SimValue v;
  v.ref = result;
  e.setResult(0, v);
  return Step::Next;
}

} // namespace

/// The byte of element (row, byte `inRow`) of a K-major, 128-byte-swizzled
/// operand read through a matrix descriptor starting at `start` (PTX ISA
/// "Matrix Descriptor Format" / "Shared Memory Matrix Layout": 8-row core
/// matrix groups SBO = 1024 bytes apart, rows of 128 bytes, the swizzle
/// applied to the address bits).
uint64_t sim::descriptorByte(uint64_t start, uint64_t row, uint64_t inRow) {
  return swizzle(start + (row / 8) * 1024 + (row % 8) * 128 + inRow, 128);
}

namespace {

/// The byte of element (mn, k) of an MN-major, 128-byte-swizzled operand of
/// 16-bit elements read through a matrix descriptor starting at `start`
/// with leading byte offset `leading` (PTX ISA "Shared Memory Matrix
/// Layout", MN-major canonical layout ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))
/// in 16-byte units, T = 8 elements): 64 consecutive M or N elements make a
/// 128-byte line, 8 lines of consecutive k a 1024-byte swizzle atom (SBO),
/// the next 64 M or N elements are LBO bytes on; k < 16 (one k-step).
uint64_t mnDescriptorByte(uint64_t start, uint64_t leading, uint64_t mn,
                          uint64_t k) {
  return swizzle(start + (mn / 64) * leading + (k / 8) * 1024 + (k % 8) * 128 +
                     (mn % 64) * 2,
                 128);
}

} // namespace

void sim::completeWgmma(Machine &m, AsyncOp &mma) {
  auto op = cast<MmaSm90Op>(mma.mma);
  AccumulatorType type = op.getAccumulator().getType();
  SmemBufferType aType = op.getA().getType();
  if (m.data()) {
    SmemBufferType bType = op.getB().getType();
    // Each operand through its own element type (mixed e4m3 x e5m2, u8 x
    // s8).
    std::string error;
    const ElementCodec *aCodec =
        ElementCodec::get(aType.getElementType(), error);
    const ElementCodec *bCodec =
        aCodec ? ElementCodec::get(bType.getElementType(), error) : nullptr;
    if (!aCodec || !bCodec) {
      m.fail(Violation::Kind::Unsupported, mma.op, error, {}, {mma.thread});
      return;
    }
    const std::vector<uint8_t> &smem = m.ctas[mma.cta].smem.bytes;
    int64_t k = aType.getCols();
    int64_t rows = type.getRows(), cols = type.getCols();
    // K steps of 32 bytes (16 elements of K). K-major: element kk of step
    // s is byte s * 32 + kk * bytes of the row, read through the step's
    // descriptor (start + 32 s); a 64-row atom of A is 64 rows on. MN-major
    // (16-bit): the step's descriptor starts 16 K lines (2048 bytes) on,
    // LBO = the block's bytes; an atom of A is one block on.
    auto decode = [&](SmemBufferType operand, uint64_t base, int64_t row,
                      int64_t col, int64_t atom) {
      const ElementCodec *codec = operand == aType ? aCodec : bCodec;
      unsigned bytes = codec->bytes();
      uint64_t at;
      if (operand.isMNMajor()) {
        uint64_t blockBytes = operand.getBlockBytes();
        uint64_t start = base +
                         atom * (64 / operand.getSpanRows()) * blockBytes +
                         (col / 16) * 16 * operand.getSwizzle();
        at = mnDescriptorByte(start, blockBytes, row, col % 16);
      } else {
        int64_t byte = col * bytes;
        uint64_t start = base + atom * 64 * 128 + (byte / 32) * 32;
        at = descriptorByte(start, row, byte % 32);
      }
      uint64_t bits = codec->load(&smem[at]);
      // f32 operands are .tf32 (wgmma has no f32 inputs): the tensor core
      // reads the sign, the exponent and the upper 10 mantissa bits and
      // ignores the lower 13 (no rounding; the kernels issue no
      // cvt.rna.tf32.f32 on the TMA-loaded tiles).
      if (operand.getElementType().isF32())
        bits &= ~uint64_t(0x1fff);
      return codec->decode(bits);
    };
    std::vector<double> a(rows * k), b(cols * k);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < k; ++c)
        a[r * k + c] = decode(aType, mma.aOffset, r % 64, c, r / 64);
    for (int64_t n = 0; n < cols; ++n)
      for (int64_t c = 0; c < k; ++c)
        b[n * k + c] = decode(bType, mma.bOffset, n, c, 0);
    int64_t perAtom = type.getValuesPerAtom();
    for (const AsyncOp::Participant &p : mma.participants) {
      uint64_t inGroup = m.threads[p.thread].tid % 128;
      uint64_t warp = inGroup / 32, lane = inGroup % 32;
      p.out->values.resize(type.getAtoms() * perAtom);
      for (int64_t atom = 0; atom < type.getAtoms(); ++atom)
        for (int64_t r = 0; r < perAtom; ++r) {
          // PTX ISA "Matrix fragments for wgmma .m64nNk16", D matrix.
          int64_t row = atom * 64 + 16 * warp + lane / 4 + 8 * ((r / 2) % 2);
          int64_t col = 8 * (r / 4) + 2 * (lane % 4) + (r % 2);
          double sum = 0;
          for (int64_t c = 0; c < k; ++c)
            sum += a[row * k + c] * b[col * k + c];
          p.out->values[atom * perAtom + r] =
              mma.overwrite
                  ? accumulate(type, 0.0, sum)
                  : accumulate(type, p.in->values[atom * perAtom + r], sum);
        }
    }
  }
  for (const AsyncOp::Participant &p : mma.participants)
    p.out->pending = false;
}

void sim::registerMmaOps(MLIRContext *ctx, HandlerTable &table) {
  addHandler<AccumZeroOp>(ctx, table, accumZero);
  addHandler<WgmmaFenceOp>(ctx, table, wgmmaFence);
  addHandler<MmaSm90Op>(ctx, table, mmaSm90);
  addHandler<WgmmaCommitOp>(ctx, table, wgmmaCommit);
  addHandler<WgmmaWaitOp>(ctx, table, wgmmaWait);
  addHandler<AccumStoreGlobalOp>(ctx, table, accumStoreGlobal);
  addHandler<AccumLoadAddGlobalOp>(ctx, table, accumLoadAddGlobal);
}
