//===- OpsScheduler.cpp - Tile schedulers and the split-K arrival ---------===//
//
// The tile-order ops are pure integer arithmetic; each handler computes
// exactly what its lowering (lib/Conversion/GemmToNVVM/SchedulerToNVVM.cpp)
// emits, with the same widths (32-bit wrap-around, 64-bit where the lowering
// widens), so that the simulator's schedule is the GPU's.
// gemm.sched.split_k_arrive is an acquire-release atomic add: it orders the
// arriving warpgroup's partial-tile stores before the last arriver's loads. The
// group-table reads of grouped kernels (gemm.sched.group_units / group_unit)
// are the lowering's ld.global of the table that the runtime's prep kernel
// wrote before the launch (gemm/Runtime/GroupTable.h; Machine::setUp builds it
// with the runtime's code): read-only while the kernel runs, so bounds-checked,
// not race-checked. The general kernels' gemm.sched.group_problem reads an
// entry of the general group table (runtime::general::buildGeneralTable),
// the same way.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "gemm/Bundle/StreamK.h"
#include "gemm/Runtime/GroupProblems.h"

#include <cstring>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

uint32_t u32(Exec &e, unsigned i) { return static_cast<uint32_t>(e.bits(i)); }

Step divisionByZero(Exec &e) {
  return e.fail(Violation::Kind::Rule,
                "divides by zero (the lowering's udiv would give an undefined "
                "result)");
}

Step staticTile(Exec &e) {
  auto op = cast<StaticTileOp>(e.op);
  uint32_t tile = u32(e, 0), tilesM = u32(e, 1), tilesN = u32(e, 2);
  bool alongM = op.getRaster() == Raster::along_m;
  uint32_t walked = alongM ? tilesM : tilesN;
  uint32_t crossed = alongM ? tilesN : tilesM;
  uint32_t swizzle = std::min(static_cast<uint32_t>(op.getSwizzle()), walked);
  uint32_t perPanel = swizzle * crossed;
  if (!perPanel)
    return divisionByZero(e);
  uint32_t panel = tile / perPanel, inPanel = tile % perPanel;
  uint32_t panelStart = panel * swizzle;
  uint32_t remaining = walked - panelStart;
  uint32_t panelLength = std::min(swizzle, remaining);
  if (!panelLength)
    return divisionByZero(e);
  uint32_t along = panelStart + inPanel % panelLength;
  uint32_t across = inPanel / panelLength;
  e.setInt(0, alongM ? along : across);
  e.setInt(1, alongM ? across : along);
  return Step::Next;
}

Step splitKRange(Exec &e) {
  auto op = cast<SplitKRangeOp>(e.op);
  uint64_t split = u32(e, 0), kBlocks = u32(e, 1);
  uint64_t splits = op.getSplits();
  e.setInt(0, static_cast<uint32_t>(split * kBlocks / splits));
  e.setInt(
      1, static_cast<uint32_t>(((split + 1) & 0xffffffffu) * kBlocks / splits));
  return Step::Next;
}

Step streamKPlan(Exec &e) {
  auto op = cast<StreamKPlanOp>(e.op);
  uint32_t units = u32(e, 0), ctas = u32(e, 1), kBlocks = u32(e, 2);
  if (!ctas)
    return divisionByZero(e);
  bundle::StreamKPlan plan = bundle::streamKPlan(
      units, ctas, kBlocks, static_cast<uint32_t>(op.getMaxWorkersPerUnit()));
  e.setInt(0, plan.dpUnits);
  e.setInt(1, plan.workers);
  return Step::Next;
}

Step streamKShare(Exec &e) {
  uint64_t worker = u32(e, 0), workersIn = u32(e, 1);
  uint64_t units = u32(e, 2), kBlocks = u32(e, 3);
  if (!kBlocks)
    return divisionByZero(e);
  uint64_t total = units * kBlocks;
  uint64_t workers = std::max<uint64_t>(workersIn, 1);
  uint64_t begin = worker * total / workers;
  uint64_t end = (worker + 1) * total / workers;
  uint64_t firstUnit = begin / kBlocks;
  uint64_t lastUnit = (end - 1) / kBlocks;
  uint64_t beginInUnit = begin - firstUnit * kBlocks;
  uint64_t endInUnit = end - lastUnit * kBlocks;
  uint64_t segments = lastUnit - firstUnit + 1;
  bool active = worker < workersIn;
  e.setInt(0, static_cast<uint32_t>(firstUnit));
  e.setInt(1, static_cast<uint32_t>(beginInUnit));
  e.setInt(2, active ? static_cast<uint32_t>(segments) : 0);
  e.setInt(3, static_cast<uint32_t>(endInUnit));
  return Step::Next;
}

Step streamKWorkers(Exec &e) {
  uint64_t unit = u32(e, 0), workers = u32(e, 1);
  uint64_t units = u32(e, 2), kBlocks = u32(e, 3);
  uint64_t total = std::max<uint64_t>(units * kBlocks, 1);
  auto owner = [&](uint64_t block) {
    return static_cast<uint32_t>(((block + 1) * workers - 1) / total);
  };
  uint64_t firstBlock = unit * kBlocks;
  uint64_t lastBlock = firstBlock + kBlocks - 1;
  e.setInt(0, owner(firstBlock));
  e.setInt(1, owner(lastBlock));
  return Step::Next;
}

/// `count` 32-bit words at byte `offset` of the group table at global
/// pointer `pointer`, or a violation (false) when they lie outside it.
bool loadTableWords(Exec &e, uint64_t pointer, uint64_t offset, unsigned count,
                    uint32_t *words) {
  auto [buffer, base] = Machine::globalAddress(pointer);
  if (buffer < 0 || buffer >= int(e.m.global.size()) ||
      (buffer != e.m.groupTableBuffer && buffer != e.m.generalTableBuffer)) {
    e.fail(Violation::Kind::Rule, "the table operand is not the group table");
    return false;
  }
  const std::vector<uint8_t> &bytes = e.m.global[buffer].memory.bytes;
  uint64_t at = base + offset;
  if (at < base || at + 4 * count > bytes.size()) {
    e.fail(Violation::Kind::Rule, "reads bytes " + std::to_string(at) + " .. " +
                                      std::to_string(at + 4 * count) +
                                      " of the group table, past its " +
                                      std::to_string(bytes.size()) + " bytes");
    return false;
  }
  std::memcpy(words, &bytes[at], 4 * count);
  return true;
}

/// ld.global.b32 of the table's first word: R, the row units.
Step groupUnits(Exec &e) {
  uint32_t units;
  if (!loadTableWords(e, e.bits(0), 0, 1, &units))
    return Step::Stop;
  e.setInt(0, units);
  return Step::Next;
}

/// ld.global.v4.b32 of entry `unit` at byte 16 + 16 x unit (64-bit
/// arithmetic, as the lowering): {first row, group's end row, group, 0}.
/// The prep kernel writes entries 0 .. R - 1 only; the rest of the buffer is
/// uninitialised on the GPU, so reading an entry at or past R is an error.
Step groupUnit(Exec &e) {
  uint64_t unit = u32(e, 1);
  if (unit >= e.m.groupRowUnits)
    return e.fail(Violation::Kind::Rule,
                  "reads row unit " + std::to_string(unit) +
                      " of the group table, which holds " +
                      std::to_string(e.m.groupRowUnits) +
                      " (the prep kernel writes entries 0 .. R - 1 only; "
                      "the others are uninitialised memory)");
  uint32_t entry[4];
  if (!loadTableWords(e, e.bits(0), (unit + 1) * 16, 4, entry))
    return Step::Stop;
  e.setInt(0, entry[0]);
  e.setInt(1, entry[1]);
  e.setInt(2, entry[2]);
  return Step::Next;
}

/// gemm.sched.group_problem: ld.global.v4.b32 of entry `group` of the
/// general group table at byte 16 + 16 x group (64-bit arithmetic, as the
/// lowering): {first unit, M_g, N_g, K_g}. The prep kernel writes all G
/// entries (invalid groups too); past them lie the tensor maps, so reading
/// an entry at or past G is an error.
Step groupProblem(Exec &e) {
  uint64_t group = u32(e, 1);
  uint64_t groups = e.m.plan.problem.groups;
  if (e.m.generalTableBuffer < 0 || group >= groups)
    return e.fail(Violation::Kind::Rule,
                  "reads entry " + std::to_string(group) +
                      " of the general group table, which holds " +
                      std::to_string(groups) +
                      " (the bytes past them are the tensor maps' or "
                      "padding)");
  uint32_t entry[4];
  if (!loadTableWords(e, e.bits(0),
                      runtime::general::HeaderBytes +
                          runtime::general::EntryBytes * group,
                      4, entry))
    return Step::Stop;
  for (unsigned i = 0; i < 4; ++i)
    e.setInt(i, entry[i]);
  return Step::Next;
}

/// fence.acq_rel.gpu; atom.global.add.u32; fence.acq_rel.gpu: the counter
/// word orders every arrival before the ones after it.
Step splitKArrive(Exec &e) {
  // Which arrival is the last depends on the order of the CTAs' arrivals:
  // the exhaustive mode explores every order.
  uint64_t pointer = e.bits(0);
  auto [buffer, base] = Machine::globalAddress(pointer);
  uint64_t offset = base + 4 * u32(e, 1);
  if (e.m.parksConflicts() && !e.t.permitted) {
    e.m.park(e.t, Machine::globalPointer(buffer, offset));
    return Step::Block;
  }
  e.t.permitted = false;
  uint32_t arrivals = u32(e, 2);
  if (buffer >= int(e.m.global.size()) ||
      offset + 4 > e.m.global[buffer].memory.bytes.size())
    return e.fail(Violation::Kind::Rule,
                  "the arrival counter lies outside its workspace");
  GlobalBuffer &memory = e.m.global[buffer];
  VectorClock &word = memory.atomics[offset];
  e.t.vc.join(word);
  word.join(e.t.vc);
  e.t.vc.raise(e.t.id, e.t.vc.get(e.t.id) + 1);
  uint32_t old;
  std::memcpy(&old, &memory.memory.bytes[offset], 4);
  if (arrivals == 0 || old >= arrivals)
    return e.fail(
        Violation::Kind::Arrival,
        "arrival " + std::to_string(old + 1) +
            " on a split-K "
            "counter that expects " +
            std::to_string(arrivals) +
            " (it was not zero at launch, or more partial tiles arrive "
            "than the tile is made of)");
  bool last = old + 1 == arrivals;
  uint32_t updated = last ? 0 : old + 1;
  std::memcpy(&memory.memory.bytes[offset], &updated, 4);
  e.m.log(e.t, e.op,
          "counts a partial tile in on counter word " +
              std::to_string(offset / 4) + ": arrival " +
              std::to_string(old + 1) + " of " + std::to_string(arrivals) +
              (last ? " (the last)" : ""));
  e.setInt(0, last);
  return Step::Yield;
}

} // namespace

void sim::registerSchedulerOps(MLIRContext *ctx, HandlerTable &table) {
  addHandler<StaticTileOp>(ctx, table, staticTile);
  addHandler<GroupUnitCountOp>(ctx, table, groupUnits);
  addHandler<GroupUnitOp>(ctx, table, groupUnit);
  addHandler<GroupProblemOp>(ctx, table, groupProblem);
  addHandler<SplitKRangeOp>(ctx, table, splitKRange);
  addHandler<StreamKPlanOp>(ctx, table, streamKPlan);
  addHandler<StreamKShareOp>(ctx, table, streamKShare);
  addHandler<StreamKWorkersOp>(ctx, table, streamKWorkers);
  addHandler<SplitKArriveOp>(ctx, table, splitKArrive);
}
