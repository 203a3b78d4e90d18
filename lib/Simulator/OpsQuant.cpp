//===- OpsQuant.cpp - Scale factors of low-precision GEMMs ----------------===//
//
// The ops of GemmQuantOps.td with the semantics of their lowerings
// (QuantToNVVM.cpp): scale loads (ld.global.nc.f32, the row and column
// forms in the WGMMA accumulator layout, their indices clamped to the
// tensor), gemm.accum.scale (cvt.rn.f32.s32 for an i32 accumulator, then
// mul.rn.f32 by the product of the value's row, column and block scales,
// multiplied in that order) and gemm.accum.promote (fma.rn.f32 of the
// partial sum, its scale and the accumulator; add.rn.f32 without a scale).
// Every scale read is bounds-checked against its tensor: a scale index past
// it is a hardware-rule violation (an out-of-bounds global load).
// gemm.scale.stage's copies (cp.async) are asynchronous writes that land,
// and arrive on their stage's full barrier, when the scheduler completes
// them; gemm.scale.rows_smem reads them as any thread's ld.shared, which
// must know they landed.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include <cmath>
#include <cstring>
#include <optional>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

/// Element `index` of the f32 tensor at global pointer `pointer`, or a
/// violation (returns false) when it lies outside the buffer.
bool loadScale(Exec &e, uint64_t pointer, uint64_t index, float &value) {
  auto [buffer, base] = Machine::globalAddress(pointer);
  uint64_t offset = base + 4 * index;
  if (buffer < 0 || buffer >= int(e.m.global.size()) ||
      offset + 4 > e.m.global[buffer].memory.bytes.size()) {
    std::string name = buffer >= 0 && buffer < int(e.m.global.size())
                           ? e.m.global[buffer].memory.name
                           : std::string("no global buffer");
    e.fail(Violation::Kind::Rule,
           "reads scale element " + std::to_string(index) +
               " past the end of its tensor (" + name + ")");
    return false;
  }
  std::memcpy(&value, &e.m.global[buffer].memory.bytes[offset], 4);
  return true;
}

Step scaleLoad(Exec &e) {
  float value;
  if (!loadScale(e, e.bits(0), maskTo(e.bits(1), 32), value))
    return Step::Stop;
  SimValue v;
  v.f = value;
  e.setResult(0, v);
  return Step::Next;
}

/// The scale that element `offset` of a range from `first` reads: base +
/// min(first + offset, last) (unsigned, as the lowering's clampedIndex;
/// 32-bit sums).
uint64_t clampedScaleIndex(uint64_t base, uint64_t first, uint64_t offset,
                           uint64_t last) {
  return maskTo(base + std::min(maskTo(first + offset, 32), last), 32);
}

/// The shared-memory offset of `slot` of the scale ring `ring` at
/// `ringOffset`; nullopt, with a rule violation (`what` the op does with the
/// slot), past the ring's slots.
std::optional<uint64_t> scaleSlotOffset(Exec &e, SmemBufferType ring,
                                        uint64_t ringOffset, uint64_t slot,
                                        const std::string &what) {
  if (slot < uint64_t(ring.getStages()))
    return ringOffset + slot * ring.getStageBytes();
  e.fail(Violation::Kind::Rule,
         what + " slot " + std::to_string(slot) + " of a scale ring of " +
             std::to_string(ring.getStages()) + " slots");
  return std::nullopt;
}

/// scale.rows / scale.cols: element i reads scale clampedScaleIndex(base,
/// first, offset(i), end - 1) (scale.cols and a scale.rows without `base`
/// have base 0).
template <typename Offset> Step scaleVector(Exec &e, Offset offset) {
  auto type = cast<VectorType>(e.op->getResult(0).getType());
  // Operands: ptr, [base,] first, end.
  unsigned firstOperand = e.op->getNumOperands() - 2;
  uint64_t base = firstOperand == 2 ? maskTo(e.bits(1), 32) : 0;
  uint64_t first = maskTo(e.bits(firstOperand), 32);
  uint64_t last = maskTo(e.bits(firstOperand + 1) - 1, 32);
  auto values = std::make_shared<std::vector<float>>(type.getNumElements());
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    uint64_t index = clampedScaleIndex(base, first, offset(i), last);
    if (!loadScale(e, e.bits(0), index, (*values)[i]))
      return Step::Stop;
  }
  SimValue v;
  v.ref = values;
  e.setResult(0, v);
  return Step::Next;
}

Step scaleRows(Exec &e) {
  uint64_t inGroup = e.t.tid % 128;
  uint64_t warp = inGroup / 32, lane = inGroup % 32;
  // Element 2 a + h: row 64 a + 16 w + l / 4 + 8 h.
  return scaleVector(e, [&](int64_t i) {
    return uint64_t(64 * (i / 2) + 16 * warp + lane / 4 + 8 * (i % 2));
  });
}

Step scaleCols(Exec &e) {
  uint64_t lane = e.t.tid % 32;
  // Element 2 g + i: column 8 g + 2 (l mod 4) + i.
  return scaleVector(e, [&](int64_t i) {
    return uint64_t(8 * (i / 2) + 2 * (lane % 4) + i % 2);
  });
}

/// gemm.scale.stage: this lane's 4-byte copies of its 16-byte groups of the
/// slot (asynchronous writes that land when the copy completes) and its
/// arrival on the stage's full barrier once they landed
/// (cp.async.mbarrier.arrive.noinc).
Step scaleStage(Exec &e) {
  auto op = cast<ScaleStageOp>(e.op);
  SmemBufferType buffer = op.getBuffer().getType();
  PipelineType pipeline = op.getPipeline().getType();
  // Operands: ptr, base, first, end, buffer, slot, pipeline, iteration.
  uint64_t base = maskTo(e.bits(1), 32), first = maskTo(e.bits(2), 32);
  uint64_t last = maskTo(e.bits(3) - 1, 32);
  uint64_t slot = maskTo(e.bits(5), 32), n = maskTo(e.bits(7), 32);
  std::optional<uint64_t> slotOffset =
      scaleSlotOffset(e, buffer, e.bits(4), slot, "copies scales into");
  if (!slotOffset)
    return Step::Stop;
  AsyncOp &copy = e.m.newAsync(AsyncKind::ScaleCopy, e.t, e.op);
  copy.iteration = int64_t(n);
  copy.barrierOffset = pipelineBarrier(pipeline, e.bits(6), n, false);
  Access access;
  access.op = e.op;
  access.thread = e.t.id;
  access.iteration = int64_t(n);
  access.async = copy.id;
  // Lane l: the 16-byte groups l, l + 32, ... (elements 4 g to 4 g + 3).
  for (int64_t group = e.t.lane; group < buffer.getCols() / 4;
       group += ScaleStageOp::kArrivals) {
    if (!e.m.checkWrite(e.m.ctas[e.t.cta].smem, *slotOffset + 16 * group, 16,
                        copy.knowledge, access, /*async=*/true,
                        "the scale copy"))
      return Step::Stop;
    for (int64_t element = 4 * group; element < 4 * group + 4; ++element) {
      uint64_t index = clampedScaleIndex(base, first, element, last);
      float value;
      if (!loadScale(e, e.bits(0), index, value))
        return Step::Stop;
      copy.scaleCopies.push_back({*slotOffset + 4 * element, value});
    }
  }
  e.m.log(e.t, e.op,
          "copies " + std::to_string(copy.scaleCopies.size()) +
              " scales for iteration " + std::to_string(n) + " (stage " +
              std::to_string(n % pipeline.getStages()) + ")",
          e.t.cta, copy.barrierOffset);
  e.m.inFlight.push_back(copy.id);
  return Step::Yield;
}

/// gemm.scale.rows_smem: element 2 a + h is slot element first + 64 a +
/// 16 w + l / 4 + 8 h, read by this thread (ld.shared).
Step scaleRowsSmem(Exec &e) {
  auto op = cast<ScaleRowsSmemOp>(e.op);
  SmemBufferType buffer = op.getBuffer().getType();
  int64_t count = op.getResult().getType().getNumElements();
  uint64_t slot = maskTo(e.bits(1), 32), first = maskTo(e.bits(2), 32);
  std::optional<uint64_t> slotOffset =
      scaleSlotOffset(e, buffer, e.bits(0), slot, "reads scales of");
  if (!slotOffset)
    return Step::Stop;
  uint64_t inGroup = e.t.tid % 128;
  uint64_t warp = inGroup / 32, lane = inGroup % 32;
  TrackedMemory &smem = e.m.ctas[e.t.cta].smem;
  Access access = e.m.threadAccess(e.t, e.op);
  auto values = std::make_shared<std::vector<float>>(count);
  for (int64_t i = 0; i < count; ++i) {
    uint64_t row = first + 64 * (i / 2) + 16 * warp + lane / 4 + 8 * (i % 2);
    if (row >= uint64_t(buffer.getCols()))
      return e.fail(Violation::Kind::Rule,
                    "reads scale " + std::to_string(row) + " of a slot of " +
                        std::to_string(buffer.getCols()));
    uint64_t offset = *slotOffset + 4 * row;
    if (!e.m.checkRead(smem, offset, 4, e.t.vc, access,
                       "reading a staged scale"))
      return Step::Stop;
    std::memcpy(&(*values)[i], &smem.bytes[offset], 4);
  }
  SimValue v;
  v.ref = values;
  e.setResult(0, v);
  return Step::Next;
}

/// The scale of value `value` of atom `atom` (QuantToNVVM's ValueScales):
/// the product, in f32 and in this order, of its row's scale, its column's
/// and its column block's scalar; nullopt when none applies.
struct ValueScales {
  const std::vector<float> *rows = nullptr, *cols = nullptr;
  std::vector<float> scalars;
  int64_t columns = 0;
  int64_t colFirst = 0;

  std::optional<float> get(int64_t atom, int64_t value) const {
    std::optional<float> scale;
    auto times = [&](float factor) {
      scale = scale ? *scale * factor : factor;
    };
    int64_t group = value / 4, half = (value / 2) % 2, pair = value % 2;
    if (rows)
      times((*rows)[2 * atom + half]);
    if (cols)
      times((*cols)[2 * (group - colFirst / 4) + pair]);
    if (!scalars.empty()) {
      int64_t blockCols = columns / static_cast<int64_t>(scalars.size());
      times(scalars[8 * group / blockCols]);
    }
    return scale;
  }
};

Step accumScale(Exec &e) {
  auto op = cast<AccumScaleOp>(e.op);
  auto fragment = readFragment(e, 0);
  if (!fragment)
    return Step::Stop;
  AccumulatorType type = op.getAccumulator().getType();
  int64_t perAtom = type.getValuesPerAtom();
  auto [first, count] = op.getValueRange();
  auto result = std::make_shared<Fragment>();
  if (e.m.data()) {
    ValueScales scales;
    unsigned next = 1;
    if (op.getRowScales())
      scales.rows = e.operand(next++).vector().get();
    if (op.getColScales())
      scales.cols = e.operand(next++).vector().get();
    for (size_t i = 0; i < op.getScalars().size(); ++i)
      scales.scalars.push_back(static_cast<float>(e.operand(next++).f));
    scales.columns = type.getCols();
    scales.colFirst = first % perAtom;
    result->values.resize(fragment->values.size());
    for (int64_t atom = 0; atom < type.getAtoms(); ++atom)
      for (int64_t value = 0; value < perAtom; ++value) {
        int64_t flat = atom * perAtom + value;
        // cvt.rn.f32.s32 for an i32 accumulator (exact below 2^24).
        float element = static_cast<float>(fragment->values[flat]);
        if (flat >= first && flat < first + count)
          if (std::optional<float> scale = scales.get(atom, value))
            element = element * *scale;
        result->values[flat] = element;
      }
  }
  SimValue v;
  v.ref = result;
  e.setResult(0, v);
  return Step::Next;
}

Step accumPromote(Exec &e) {
  auto op = cast<AccumPromoteOp>(e.op);
  auto partial = readFragment(e, 0);
  auto accumulator = partial ? readFragment(e, 1) : nullptr;
  if (!partial || !accumulator)
    return Step::Stop;
  // The partial sums cover the accumulator's columns from cols(c) on: value
  // v of their atom is value v + c / 2 of the accumulator's.
  AccumulatorType type = op.getPartial().getType();
  int64_t perAtom = type.getValuesPerAtom();
  int64_t accPerAtom = op.getAccumulator().getType().getValuesPerAtom();
  int64_t first = op.getColOffset() / 2;
  auto result = std::make_shared<Fragment>();
  if (e.m.data()) {
    ValueScales scales;
    unsigned next = 2;
    if (op.getRowScales())
      scales.rows = e.operand(next++).vector().get();
    for (size_t i = 0; i < op.getScalars().size(); ++i)
      scales.scalars.push_back(static_cast<float>(e.operand(next++).f));
    scales.columns = type.getCols();
    result->values = accumulator->values;
    for (int64_t atom = 0; atom < type.getAtoms(); ++atom)
      for (int64_t value = 0; value < perAtom; ++value) {
        int64_t to = atom * accPerAtom + first + value;
        float sum = static_cast<float>(partial->values[atom * perAtom + value]);
        float total = static_cast<float>(accumulator->values[to]);
        std::optional<float> scale = scales.get(atom, value);
        // fma.rn.f32 (one rounding), add.rn.f32 without a scale.
        result->values[to] =
            scale ? std::fmaf(sum, *scale, total) : total + sum;
      }
  }
  SimValue v;
  v.ref = result;
  e.setResult(0, v);
  return Step::Next;
}

} // namespace

void sim::completeScaleCopy(Machine &m, AsyncOp &copy) {
  auto op = cast<ScaleStageOp>(copy.op);
  PipelineType pipeline = op.getPipeline().getType();
  Cta &cta = m.ctas[copy.cta];
  if (cta.exited) {
    m.fail(Violation::Kind::Rule, copy.op,
           "the scale copy lands in CTA " + std::to_string(copy.cta) +
               ", which already exited",
           {}, {copy.thread});
    return;
  }
  MBarrier &barrier = m.barrierAt(copy.op, copy.cta, copy.barrierOffset);
  // Like a TMA load's, the copies are known to whoever knows the phase of
  // the barrier they complete.
  Access access;
  access.epoch = {barrier.comp, Clock(barrier.completed + 1)};
  access.op = copy.op;
  access.thread = copy.thread;
  access.iteration = copy.iteration;
  access.async = copy.id;
  for (auto [offset, value] : copy.scaleCopies) {
    if (m.data())
      std::memcpy(&cta.smem.bytes[offset], &value, 4);
    m.completeWrite(cta.smem, offset, 4, access);
  }
  m.arrive(barrier, copy.barrierOffset, copy.op, copy.thread, copy.knowledge, 1,
           0, copy.iteration / pipeline.getStages(), copy.iteration,
           /*async=*/true);
}

void sim::registerQuantOps(MLIRContext *ctx, HandlerTable &table) {
  addHandler<ScaleLoadOp>(ctx, table, scaleLoad);
  addHandler<ScaleRowsOp>(ctx, table, scaleRows);
  addHandler<ScaleColsOp>(ctx, table, scaleCols);
  addHandler<ScaleStageOp>(ctx, table, scaleStage);
  addHandler<ScaleRowsSmemOp>(ctx, table, scaleRowsSmem);
  addHandler<AccumScaleOp>(ctx, table, accumScale);
  addHandler<AccumPromoteOp>(ctx, table, accumPromote);
}
