//===- OpsCore.cpp - Control flow, arithmetic, threads and barriers -------===//
//
// The upstream ops a materialized kernel is built from (arith, scf, gpu, the
// nvvm barriers and fences the materializers emit) and the gemm ops that
// split a CTA into roles. One handler per op; an op without a handler is
// reported by name, never skipped.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

unsigned resultWidth(Exec &e) { return widthOf(e.op->getResult(0).getType()); }
unsigned operandWidth(Exec &e, unsigned i = 0) {
  return widthOf(e.op->getOperand(i).getType());
}

SimValue &valueOf(Exec &e, Value value) {
  return e.t.values[e.m.kernel.index(value)];
}

/// Copies `from` (values of the thread) to the destination values `to`,
/// through a temporary so that overlapping sources and destinations (a
/// yield swapping loop-carried values) read the old values.
void assign(Thread &t, ArrayRef<uint32_t> to, ArrayRef<uint32_t> from) {
  llvm::SmallVector<SimValue, 8> copies;
  for (uint32_t index : from)
    copies.push_back(t.values[index]);
  for (auto [index, value] : llvm::zip(to, copies))
    t.values[index] = std::move(value);
}

void assignBlockArgs(Exec &e, Block *block, ArrayRef<uint32_t> from,
                     size_t first = 0) {
  llvm::SmallVector<uint32_t, 8> to;
  for (BlockArgument arg : block->getArguments().drop_front(first))
    to.push_back(e.m.kernel.index(arg));
  assign(e.t, to, from);
}

//===----------------------------------------------------------------------===//
// arith: integers
//===----------------------------------------------------------------------===//

template <typename F> Step binaryInt(Exec &e, F f) {
  unsigned width = resultWidth(e);
  uint64_t a = e.bits(0), b = e.bits(1);
  std::optional<uint64_t> r = f(a, b, width);
  if (!r)
    return e.fail(Violation::Kind::Rule, "integer division by zero");
  e.setInt(0, maskTo(*r, width));
  return Step::Next;
}

Step constant(Exec &e) {
  auto op = cast<arith::ConstantOp>(e.op);
  SimValue v;
  if (auto integer = dyn_cast<IntegerAttr>(op.getValue())) {
    v.bits = maskTo(integer.getValue().getZExtValue(), resultWidth(e));
  } else if (auto floating = dyn_cast<FloatAttr>(op.getValue())) {
    v.f = floating.getValueAsDouble();
  } else {
    return e.fail(Violation::Kind::Unsupported,
                  "the simulator only models scalar integer and float "
                  "constants");
  }
  e.setResult(0, v);
  return Step::Next;
}

Step cmpi(Exec &e) {
  auto op = cast<arith::CmpIOp>(e.op);
  unsigned width = operandWidth(e);
  uint64_t a = maskTo(e.bits(0), width), b = maskTo(e.bits(1), width);
  int64_t sa = toSigned(a, width), sb = toSigned(b, width);
  bool r = false;
  switch (op.getPredicate()) {
  case arith::CmpIPredicate::eq:
    r = a == b;
    break;
  case arith::CmpIPredicate::ne:
    r = a != b;
    break;
  case arith::CmpIPredicate::ult:
    r = a < b;
    break;
  case arith::CmpIPredicate::ule:
    r = a <= b;
    break;
  case arith::CmpIPredicate::ugt:
    r = a > b;
    break;
  case arith::CmpIPredicate::uge:
    r = a >= b;
    break;
  case arith::CmpIPredicate::slt:
    r = sa < sb;
    break;
  case arith::CmpIPredicate::sle:
    r = sa <= sb;
    break;
  case arith::CmpIPredicate::sgt:
    r = sa > sb;
    break;
  case arith::CmpIPredicate::sge:
    r = sa >= sb;
    break;
  }
  e.setInt(0, r);
  return Step::Next;
}

Step select(Exec &e) {
  e.setResult(0, (e.bits(0) & 1) ? e.operand(1) : e.operand(2));
  return Step::Next;
}

Step extui(Exec &e) {
  e.setInt(0, maskTo(e.bits(0), operandWidth(e)));
  return Step::Next;
}
Step extsi(Exec &e) {
  e.setInt(0,
           maskTo(static_cast<uint64_t>(toSigned(e.bits(0), operandWidth(e))),
                  resultWidth(e)));
  return Step::Next;
}
Step trunci(Exec &e) {
  e.setInt(0, maskTo(e.bits(0), resultWidth(e)));
  return Step::Next;
}
Step indexCastUI(Exec &e) {
  e.setInt(0, maskTo(maskTo(e.bits(0), operandWidth(e)), resultWidth(e)));
  return Step::Next;
}
Step indexCast(Exec &e) {
  e.setInt(0,
           maskTo(static_cast<uint64_t>(toSigned(e.bits(0), operandWidth(e))),
                  resultWidth(e)));
  return Step::Next;
}

//===----------------------------------------------------------------------===//
// arith / math: floats (f32 arithmetic in float, narrower types rounded
// through their element codec)
//===----------------------------------------------------------------------===//

double roundToResult(Exec &e, double value) {
  Type type = e.op->getResult(0).getType();
  if (type.isF64())
    return value;
  if (type.isF32())
    return static_cast<double>(static_cast<float>(value));
  std::string error;
  const ElementCodec *codec = ElementCodec::get(type, error);
  return codec ? codec->round(value) : value;
}

template <typename F> Step binaryFloat(Exec &e, F f) {
  SimValue v;
  Type type = e.op->getResult(0).getType();
  if (type.isF32())
    v.f = static_cast<float>(f(static_cast<float>(e.operand(0).f),
                               static_cast<float>(e.operand(1).f)));
  else
    v.f = roundToResult(e, f(e.operand(0).f, e.operand(1).f));
  e.setResult(0, v);
  return Step::Next;
}

template <typename F> Step unaryFloat(Exec &e, F f) {
  SimValue v;
  Type type = e.op->getResult(0).getType();
  if (type.isF32())
    v.f = static_cast<float>(f(static_cast<float>(e.operand(0).f)));
  else
    v.f = roundToResult(e, f(e.operand(0).f));
  e.setResult(0, v);
  return Step::Next;
}

Step convertFloat(Exec &e) {
  SimValue v;
  v.f = roundToResult(e, e.operand(0).f);
  e.setResult(0, v);
  return Step::Next;
}

Step cmpf(Exec &e) {
  auto op = cast<arith::CmpFOp>(e.op);
  double a = e.operand(0).f, b = e.operand(1).f;
  bool unordered = std::isnan(a) || std::isnan(b);
  bool r = false;
  using P = arith::CmpFPredicate;
  switch (op.getPredicate()) {
  case P::AlwaysFalse:
    r = false;
    break;
  case P::OEQ:
    r = !unordered && a == b;
    break;
  case P::OGT:
    r = !unordered && a > b;
    break;
  case P::OGE:
    r = !unordered && a >= b;
    break;
  case P::OLT:
    r = !unordered && a < b;
    break;
  case P::OLE:
    r = !unordered && a <= b;
    break;
  case P::ONE:
    r = !unordered && a != b;
    break;
  case P::ORD:
    r = !unordered;
    break;
  case P::UEQ:
    r = unordered || a == b;
    break;
  case P::UGT:
    r = unordered || a > b;
    break;
  case P::UGE:
    r = unordered || a >= b;
    break;
  case P::ULT:
    r = unordered || a < b;
    break;
  case P::ULE:
    r = unordered || a <= b;
    break;
  case P::UNE:
    r = unordered || a != b;
    break;
  case P::UNO:
    r = unordered;
    break;
  case P::AlwaysTrue:
    r = true;
    break;
  }
  e.setInt(0, r);
  return Step::Next;
}

Step sitofp(Exec &e) {
  SimValue v;
  v.f = roundToResult(
      e, static_cast<double>(toSigned(e.bits(0), operandWidth(e))));
  e.setResult(0, v);
  return Step::Next;
}
Step uitofp(Exec &e) {
  SimValue v;
  v.f =
      roundToResult(e, static_cast<double>(maskTo(e.bits(0), operandWidth(e))));
  e.setResult(0, v);
  return Step::Next;
}
Step fptosi(Exec &e) {
  e.setInt(0,
           maskTo(static_cast<uint64_t>(static_cast<int64_t>(e.operand(0).f)),
                  resultWidth(e)));
  return Step::Next;
}

//===----------------------------------------------------------------------===//
// scf
//===----------------------------------------------------------------------===//

Step scfIf(Exec &e) {
  auto op = cast<scf::IfOp>(e.op);
  Region &region = (e.bits(0) & 1) ? op.getThenRegion() : op.getElseRegion();
  if (region.empty())
    return Step::Next;
  Frame frame;
  frame.block = &region.front();
  frame.next = frame.block->begin();
  frame.owner = op;
  e.t.stack.push_back(frame);
  return Step::Jump;
}

bool loopContinues(scf::ForOp op, int64_t iv, int64_t ub) {
  if (op.getUnsignedCmp())
    return static_cast<uint64_t>(iv) < static_cast<uint64_t>(ub);
  return iv < ub;
}

Step scfFor(Exec &e) {
  auto op = cast<scf::ForOp>(e.op);
  unsigned width = widthOf(op.getInductionVar().getType());
  auto read = [&](unsigned i) -> int64_t {
    uint64_t bits = maskTo(e.bits(i), width);
    return op.getUnsignedCmp() ? static_cast<int64_t>(bits)
                               : toSigned(bits, width);
  };
  int64_t lb = read(0), ub = read(1), step = read(2);
  llvm::ArrayRef<uint32_t> inits =
      llvm::ArrayRef(e.info.operands).drop_front(3);
  if (!loopContinues(op, lb, ub)) {
    assign(e.t, e.info.results, inits);
    return Step::Next;
  }
  if (step <= 0)
    return e.fail(Violation::Kind::Rule, "scf.for with a non-positive step");
  Block *body = op.getBody();
  Frame frame;
  frame.block = body;
  frame.next = body->begin();
  frame.owner = op;
  frame.iv = lb;
  frame.ub = ub;
  frame.step = step;
  e.t.stack.push_back(frame);
  SimValue iv;
  iv.bits = maskTo(static_cast<uint64_t>(lb), width);
  e.t.values[e.m.kernel.index(op.getInductionVar())] = iv;
  assignBlockArgs(e, body, inits, /*first=*/1);
  return Step::Jump;
}

Step scfWhile(Exec &e) {
  auto op = cast<scf::WhileOp>(e.op);
  Block *before = &op.getBefore().front();
  Frame frame;
  frame.block = before;
  frame.next = before->begin();
  frame.owner = op;
  e.t.stack.push_back(frame);
  assignBlockArgs(e, before, e.info.operands);
  return Step::Jump;
}

Step scfCondition(Exec &e) {
  Frame &frame = e.t.stack.back();
  auto loop = cast<scf::WhileOp>(frame.owner);
  llvm::ArrayRef<uint32_t> args = llvm::ArrayRef(e.info.operands).drop_front(1);
  if (e.bits(0) & 1) {
    Block *after = &loop.getAfter().front();
    assignBlockArgs(e, after, args);
    frame.block = after;
    frame.next = after->begin();
    return Step::Jump;
  }
  assign(e.t, e.m.kernel.info(loop).results, args);
  e.t.stack.pop_back();
  return Step::Next;
}

Step scfYield(Exec &e) {
  Frame &frame = e.t.stack.back();
  Operation *owner = frame.owner;
  if (auto loop = dyn_cast<scf::ForOp>(owner)) {
    frame.iv += frame.step;
    if (loopContinues(loop, frame.iv, frame.ub)) {
      unsigned width = widthOf(loop.getInductionVar().getType());
      SimValue iv;
      iv.bits = maskTo(static_cast<uint64_t>(frame.iv), width);
      llvm::SmallVector<uint32_t, 8> operands(e.info.operands.begin(),
                                              e.info.operands.end());
      e.t.values[e.m.kernel.index(loop.getInductionVar())] = iv;
      assignBlockArgs(e, frame.block, operands, /*first=*/1);
      frame.next = frame.block->begin();
      return Step::Jump;
    }
    assign(e.t, e.m.kernel.info(loop).results, e.info.operands);
    e.t.stack.pop_back();
    return Step::Next;
  }
  if (auto loop = dyn_cast<scf::WhileOp>(owner)) {
    Block *before = &loop.getBefore().front();
    assignBlockArgs(e, before, e.info.operands);
    frame.block = before;
    frame.next = before->begin();
    return Step::Jump;
  }
  if (isa<scf::IfOp>(owner)) {
    assign(e.t, e.m.kernel.info(owner).results, e.info.operands);
    e.t.stack.pop_back();
    return Step::Next;
  }
  return e.fail(Violation::Kind::Unsupported,
                "scf.yield in an op the simulator does not model");
}

//===----------------------------------------------------------------------===//
// Roles
//===----------------------------------------------------------------------===//

Step enterRegion(Exec &e, Region &region, Role role, int64_t index,
                 std::optional<uint64_t> argument) {
  Frame frame;
  frame.block = &region.front();
  frame.next = frame.block->begin();
  frame.owner = e.op;
  e.t.stack.push_back(frame);
  e.t.role = role;
  e.t.roleIndex = index;
  if (argument) {
    SimValue v;
    v.bits = *argument;
    e.t.values[e.m.kernel.index(frame.block->getArgument(0))] = v;
  }
  return Step::Jump;
}

/// gemm.warp_specialize: warpgroup 0 produces (setmaxnreg.dec), the others
/// consume (setmaxnreg.inc, which waits until the registers are free).
Step warpSpecialize(Exec &e) {
  auto op = cast<WarpSpecializeOp>(e.op);
  uint32_t warpgroup = e.t.tid / 128;
  Cta &cta = e.m.ctas[e.t.cta];
  if (warpgroup == 0) {
    int64_t target = static_cast<int64_t>(op.getProducerRegs());
    if (target > e.t.registers)
      return e.fail(Violation::Kind::Rule,
                    "setmaxnreg.dec to " + std::to_string(target) +
                        " registers from " + std::to_string(e.t.registers) +
                        " (it may only decrease)");
    cta.freeRegisters += e.t.registers - target;
    e.t.registers = target;
    e.m.wake(cta.registerWaiters);
    return enterRegion(e, op.getProducer(), Role::Producer, 0, std::nullopt);
  }
  if (warpgroup > op.getConsumers())
    return e.fail(Violation::Kind::Rule,
                  "thread " + std::to_string(e.t.tid) +
                      " is in no warpgroup role: the block has more threads "
                      "than gemm.warp_specialize's roles");
  int64_t target = static_cast<int64_t>(op.getConsumerRegs());
  if (target < e.t.registers)
    return e.fail(Violation::Kind::Rule,
                  "setmaxnreg.inc to " + std::to_string(target) +
                      " registers from " + std::to_string(e.t.registers) +
                      " (it may only increase)");
  int64_t need = target - e.t.registers;
  if (cta.freeRegisters < need) {
    e.m.block(e.t, cta.registerWaiters);
    return Step::Block;
  }
  cta.freeRegisters -= need;
  e.t.registers = target;
  return enterRegion(e, op.getConsumer(), Role::Consumer, warpgroup - 1,
                     warpgroup - 1);
}

/// gemm.warp_roles: warp 0 load, 1 MMA, 2 scheduler, 3.. epilogue.
Step warpRoles(Exec &e) {
  auto op = cast<WarpRolesOp>(e.op);
  uint32_t warp = e.t.warp;
  switch (warp) {
  case 0:
    return enterRegion(e, op.getLoad(), Role::Load, 0, std::nullopt);
  case 1:
    return enterRegion(e, op.getMma(), Role::Mma, 0, std::nullopt);
  case 2:
    return enterRegion(e, op.getScheduler(), Role::Scheduler, 0, std::nullopt);
  default:
    uint64_t index = warp - WarpRolesOp::kFirstEpilogueWarp;
    if (index >= op.getEpilogueWarps())
      return e.fail(Violation::Kind::Rule,
                    "warp " + std::to_string(warp) +
                        " has no role: the block has more warps than "
                        "gemm.warp_roles's roles");
    return enterRegion(e, op.getEpilogue(), Role::Epilogue, index, index);
  }
}

Step gemmYield(Exec &e) {
  Frame &frame = e.t.stack.back();
  if (!frame.owner || !isa<WarpSpecializeOp, WarpRolesOp>(frame.owner))
    return e.fail(Violation::Kind::Unsupported,
                  "gemm.yield outside a role region is evaluated with its "
                  "epilogue op, never on its own");
  e.t.stack.pop_back();
  e.t.role = Role::Kernel;
  return Step::Next;
}

//===----------------------------------------------------------------------===//
// gpu
//===----------------------------------------------------------------------===//

uint64_t dimension(gpu::Dimension dim, uint64_t x) {
  return dim == gpu::Dimension::x ? x : 0;
}

Step threadId(Exec &e) {
  e.setInt(0, dimension(cast<gpu::ThreadIdOp>(e.op).getDimension(), e.t.tid));
  return Step::Next;
}
Step blockId(Exec &e) {
  e.setInt(0, dimension(cast<gpu::BlockIdOp>(e.op).getDimension(), e.t.cta));
  return Step::Next;
}
Step gridDim(Exec &e) {
  auto dim = cast<gpu::GridDimOp>(e.op).getDimension();
  e.setInt(0, dim == gpu::Dimension::x ? e.m.plan.grid[0] : 1);
  return Step::Next;
}
Step blockDim(Exec &e) {
  auto dim = cast<gpu::BlockDimOp>(e.op).getDimension();
  e.setInt(0, dim == gpu::Dimension::x ? e.m.plan.block[0] : 1);
  return Step::Next;
}

Step gpuReturn(Exec &e) { return Step::Exit; }

/// A bar.sync / bar.red.or of `threads` threads on named barrier `id` of
/// the CTA (PTX ISA "barrier"): every participant's prior accesses are
/// ordered before every participant's later ones.
Step namedBarrier(Exec &e, int64_t id, int64_t threads,
                  std::optional<bool> predicate) {
  Cta &cta = e.m.ctas[e.t.cta];
  NamedBarrier &barrier = cta.named[id];
  Thread &t = e.t;
  if (!t.started) {
    t.started = true;
    if (threads % 32 != 0 || threads <= 0 || threads > int64_t(cta.threads))
      return e.fail(Violation::Kind::Rule,
                    "named barrier " + std::to_string(id) + " with " +
                        std::to_string(threads) +
                        " threads (a multiple of 32, at most the block's)");
    if (barrier.arrived.empty()) {
      barrier.expected = threads;
      barrier.accum = VectorClock();
      barrier.any = false;
      barrier.firstOp = e.op;
    } else if (barrier.expected != threads) {
      return e.m.fail(
          Violation::Kind::Rule, e.op,
          "named barrier " + std::to_string(id) + " expects " +
              std::to_string(threads) + " threads here but " +
              std::to_string(barrier.expected) +
              " where the other arrivals of this instance came from",
          {{barrier.firstOp, "the other arrivals"}}, {t.id});
    }
    // Arrivals of one instance must know the previous one completed, or in
    // another schedule they join it.
    if (!barrier.lastParticipants.empty() &&
        !llvm::is_contained(barrier.lastParticipants, t.id) &&
        !t.vc.covers(barrier.lastDone))
      return e.fail(Violation::Kind::PhaseConfusion,
                    "arrives at named barrier " + std::to_string(id) +
                        " without the barrier's previous instance being "
                        "ordered before it: in another schedule it joins "
                        "that instance");
    barrier.arrived.push_back(t.id);
    barrier.accum.join(t.vc);
    if (predicate && *predicate)
      barrier.any = true;
    t.ticket = barrier.instances;
    if (int64_t(barrier.arrived.size()) == barrier.expected) {
      ++barrier.instances;
      barrier.lastDone = barrier.accum;
      barrier.lastParticipants = barrier.arrived;
      for (uint32_t other : barrier.arrived) {
        Thread &p = e.m.threads[other];
        p.vc.join(barrier.lastDone);
        p.vc.raise(other, p.vc.get(other) + 1);
        if (predicate) {
          SimValue v;
          v.bits = barrier.any;
          // The result of bar.red.or of the participant's own op.
          Operation *at = &*p.stack.back().next;
          p.values[e.m.kernel.info(at).results[0]] = v;
        }
      }
      barrier.arrived.clear();
      e.m.wake(barrier.waiters);
    }
  }
  if (barrier.instances > t.ticket)
    return Step::Yield;
  e.m.block(t, barrier.waiters);
  return Step::Block;
}

Step nvvmBarrier(Exec &e) {
  auto op = cast<NVVM::BarrierOp>(e.op);
  if (op.getReductionOp())
    return e.fail(Violation::Kind::Unsupported,
                  "nvvm.barrier with a reduction is not modelled (the kernels "
                  "use gemm.barrier_any)");
  int64_t id = op.getBarrierId() ? valueOf(e, op.getBarrierId()).bits : 0;
  int64_t threads = op.getNumberOfThreads()
                        ? valueOf(e, op.getNumberOfThreads()).bits
                        : e.m.ctas[e.t.cta].threads;
  return namedBarrier(e, id, threads, std::nullopt);
}

Step gpuBarrier(Exec &e) {
  return namedBarrier(e, 0, e.m.ctas[e.t.cta].threads, std::nullopt);
}

Step barrierAny(Exec &e) {
  auto op = cast<BarrierAnyOp>(e.op);
  return namedBarrier(e, e.bits(1), static_cast<int64_t>(op.getThreads()),
                      (e.bits(0) & 1) != 0);
}

/// bar.warp.sync: the lanes of the mask meet; memory ordering among them.
Step syncWarp(Exec &e) {
  uint32_t mask = static_cast<uint32_t>(e.bits(0));
  if (mask != 0xffffffffu)
    return e.fail(Violation::Kind::Unsupported,
                  "bar.warp.sync with a partial mask is not modelled");
  Cta &cta = e.m.ctas[e.t.cta];
  uint32_t lanes = std::min<uint32_t>(32, cta.threads - e.t.warp * 32);
  if (e.m.rendezvous(e.t, cta.warpSync[e.t.warp], e.op, lanes))
    return Step::Yield;
  return Step::Block;
}

/// shfl.sync (PTX ISA "shfl.sync"): the lanes of the mask (the whole warp,
/// the only form the kernels use) meet; each reads `val` of its source lane
/// j (idx: j = minLane | (b & ~segmask); up: lane - b; down: lane + b;
/// bfly: lane xor b; out of the segment or past the clamp: its own value).
/// Execution-only: no memory ordering. The last lane to arrive computes
/// every lane's result while all of them wait at the op.
Step shflSync(Exec &e) {
  auto op = cast<NVVM::ShflOp>(e.op);
  if (op.getReturnValueAndIsValid())
    return e.fail(Violation::Kind::Unsupported,
                  "shfl.sync with a validity predicate is not modelled");
  if (static_cast<uint32_t>(e.bits(0)) != 0xffffffffu)
    return e.fail(Violation::Kind::Unsupported,
                  "shfl.sync with a partial mask is not modelled");
  Cta &cta = e.m.ctas[e.t.cta];
  uint32_t lanes = std::min<uint32_t>(32, cta.threads - e.t.warp * 32);
  Rendezvous &point = cta.warpCollective[e.t.warp];
  std::vector<uint32_t> members;
  if (!e.t.started && int64_t(point.arrived.size()) + 1 == lanes) {
    members = point.arrived;
    members.push_back(e.t.id);
  }
  bool done = e.m.rendezvous(e.t, point, e.op, lanes, /*orders=*/false);
  if (!members.empty()) {
    const OpInfo &info = e.info;
    std::vector<SimValue> inputs(32);
    for (uint32_t id : members)
      inputs[e.m.threads[id].lane] = e.m.threads[id].values[info.operands[1]];
    for (uint32_t id : members) {
      Thread &lane = e.m.threads[id];
      uint32_t b =
          static_cast<uint32_t>(lane.values[info.operands[2]].bits) & 31;
      uint32_t c = static_cast<uint32_t>(lane.values[info.operands[3]].bits);
      uint32_t clamp = c & 31, segmask = (c >> 8) & 31;
      uint32_t self = lane.lane;
      uint32_t maxLane = (self & segmask) | (clamp & ~segmask);
      uint32_t minLane = self & segmask;
      int64_t j = self;
      bool valid = true;
      switch (op.getKind()) {
      case NVVM::ShflKind::idx:
        j = minLane | (b & ~segmask);
        valid = j <= maxLane;
        break;
      case NVVM::ShflKind::up:
        j = int64_t(self) - b;
        valid = j >= int64_t(maxLane);
        break;
      case NVVM::ShflKind::down:
        j = self + b;
        valid = j <= int64_t(maxLane);
        break;
      case NVVM::ShflKind::bfly:
        j = self ^ b;
        valid = j <= int64_t(maxLane);
        break;
      }
      if (!valid || j >= int64_t(lanes))
        j = self;
      lane.values[info.results[0]] = inputs[j];
    }
  }
  return done ? Step::Next : Step::Block;
}

/// barrier.cluster.arrive (release): counts the thread into the cluster
/// barrier's current instance.
Step clusterArrive(Exec &e) {
  Cluster &cluster = e.m.clusters[e.m.ctas[e.t.cta].cluster];
  Rendezvous &point = cluster.barrier;
  point.arrived.push_back(e.t.id);
  point.accum.join(e.t.vc);
  e.t.ticket = point.instances;
  e.m.log(e.t, e.op, "arrives on the cluster barrier");
  if (int64_t(point.arrived.size()) == point.expected) {
    ++point.instances;
    point.done = point.accum;
    point.accum = VectorClock();
    point.arrived.clear();
    e.m.wake(point.waiters);
  }
  e.t.vc.raise(e.t.id, e.t.vc.get(e.t.id) + 1);
  return Step::Yield;
}

/// barrier.cluster.wait (acquire): until every thread of the cluster
/// arrived on the instance this thread arrived on.
Step clusterWait(Exec &e) {
  Cluster &cluster = e.m.clusters[e.m.ctas[e.t.cta].cluster];
  Rendezvous &point = cluster.barrier;
  if (point.instances <= e.t.ticket) {
    e.m.block(e.t, point.waiters);
    return Step::Block;
  }
  if (point.instances != e.t.ticket + 1)
    return e.fail(Violation::Kind::Rule,
                  "barrier.cluster.wait after the cluster barrier completed "
                  "twice since this thread's arrival");
  e.t.vc.join(point.done);
  return Step::Yield;
}

/// fence.mbarrier_init.release.cluster: the barriers this thread
/// initialised become usable from other CTAs (after a cluster barrier).
Step fenceMbarrierInit(Exec &e) {
  Epoch fence{e.t.id, e.t.vc.get(e.t.id)};
  for (auto &[offset, barrier] : e.m.ctas[e.t.cta].barriers)
    if (barrier.initialized && barrier.init.thread == e.t.id)
      barrier.fence = fence;
  e.t.vc.raise(e.t.id, fence.clock + 1);
  return Step::Next;
}

/// fence.proxy.async.shared::cta: this thread's generic-proxy writes to
/// shared memory become visible to the async proxy (TMA stores).
Step fenceProxy(Exec &e) {
  auto fence = cast<NVVM::FenceProxyOp>(e.op);
  if (fence.getKind() == NVVM::ProxyKind::async_shared) {
    if (!e.t.proxyFenceComp)
      e.t.proxyFenceComp = e.m.newComponent();
    e.t.vc.raise(e.t.proxyFenceComp, e.t.vc.get(e.t.proxyFenceComp) + 1);
  }
  return Step::Next;
}

} // namespace

SimValue sim::evalRegion(Machine &m, Thread &thread, Region &region,
                         ArrayRef<SimValue> args) {
  Block &block = region.front();
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    thread.values[m.kernel.index(arg)] = value;
  for (Operation &op : block) {
    if (auto yield = dyn_cast<YieldOp>(op))
      return thread.values[m.kernel.index(yield.getValues()[0])];
    const OpInfo &info = m.kernel.info(&op);
    Exec exec{m, thread, &op, info};
    Step step = info.handler(exec);
    if (step != Step::Next && step != Step::Yield) {
      if (!m.violation)
        m.fail(Violation::Kind::Unsupported, &op,
               "an epilogue region may only hold pure ops", {}, {thread.id});
      return SimValue();
    }
  }
  return SimValue();
}

void sim::registerCoreOps(MLIRContext *ctx, HandlerTable &table) {
  // arith: integers.
  addHandler<arith::ConstantOp>(ctx, table, constant);
  addHandler<arith::AddIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned) {
      return std::optional<uint64_t>(a + b);
    });
  });
  addHandler<arith::SubIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned) {
      return std::optional<uint64_t>(a - b);
    });
  });
  addHandler<arith::MulIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned) {
      return std::optional<uint64_t>(a * b);
    });
  });
  addHandler<arith::DivUIOp>(ctx, table, [](Exec &e) {
    return binaryInt(
        e, [](uint64_t a, uint64_t b, unsigned w) -> std::optional<uint64_t> {
          a = maskTo(a, w);
          b = maskTo(b, w);
          if (!b)
            return std::nullopt;
          return a / b;
        });
  });
  addHandler<arith::RemUIOp>(ctx, table, [](Exec &e) {
    return binaryInt(
        e, [](uint64_t a, uint64_t b, unsigned w) -> std::optional<uint64_t> {
          a = maskTo(a, w);
          b = maskTo(b, w);
          if (!b)
            return std::nullopt;
          return a % b;
        });
  });
  addHandler<arith::CeilDivUIOp>(ctx, table, [](Exec &e) {
    return binaryInt(
        e, [](uint64_t a, uint64_t b, unsigned w) -> std::optional<uint64_t> {
          a = maskTo(a, w);
          b = maskTo(b, w);
          if (!b)
            return std::nullopt;
          return a / b + (a % b != 0);
        });
  });
  addHandler<arith::DivSIOp>(ctx, table, [](Exec &e) {
    return binaryInt(
        e, [](uint64_t a, uint64_t b, unsigned w) -> std::optional<uint64_t> {
          int64_t x = toSigned(a, w), y = toSigned(b, w);
          if (!y)
            return std::nullopt;
          return static_cast<uint64_t>(x / y);
        });
  });
  addHandler<arith::RemSIOp>(ctx, table, [](Exec &e) {
    return binaryInt(
        e, [](uint64_t a, uint64_t b, unsigned w) -> std::optional<uint64_t> {
          int64_t x = toSigned(a, w), y = toSigned(b, w);
          if (!y)
            return std::nullopt;
          return static_cast<uint64_t>(x % y);
        });
  });
  addHandler<arith::AndIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned) {
      return std::optional<uint64_t>(a & b);
    });
  });
  addHandler<arith::OrIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned) {
      return std::optional<uint64_t>(a | b);
    });
  });
  addHandler<arith::XOrIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned) {
      return std::optional<uint64_t>(a ^ b);
    });
  });
  addHandler<arith::ShLIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned w) {
      b = maskTo(b, w);
      return std::optional<uint64_t>(b >= w ? 0 : a << b);
    });
  });
  addHandler<arith::ShRUIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned w) {
      b = maskTo(b, w);
      return std::optional<uint64_t>(b >= w ? 0 : maskTo(a, w) >> b);
    });
  });
  addHandler<arith::ShRSIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned w) {
      b = maskTo(b, w);
      int64_t x = toSigned(a, w);
      return std::optional<uint64_t>(
          static_cast<uint64_t>(b >= w ? (x < 0 ? -1 : 0) : x >> b));
    });
  });
  addHandler<arith::MinUIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned w) {
      return std::optional<uint64_t>(std::min(maskTo(a, w), maskTo(b, w)));
    });
  });
  addHandler<arith::MaxUIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned w) {
      return std::optional<uint64_t>(std::max(maskTo(a, w), maskTo(b, w)));
    });
  });
  addHandler<arith::MinSIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned w) {
      return std::optional<uint64_t>(toSigned(a, w) < toSigned(b, w) ? a : b);
    });
  });
  addHandler<arith::MaxSIOp>(ctx, table, [](Exec &e) {
    return binaryInt(e, [](uint64_t a, uint64_t b, unsigned w) {
      return std::optional<uint64_t>(toSigned(a, w) > toSigned(b, w) ? a : b);
    });
  });
  addHandler<arith::CmpIOp>(ctx, table, cmpi);
  addHandler<arith::SelectOp>(ctx, table, select);
  addHandler<arith::ExtUIOp>(ctx, table, extui);
  addHandler<arith::ExtSIOp>(ctx, table, extsi);
  addHandler<arith::TruncIOp>(ctx, table, trunci);
  addHandler<arith::IndexCastUIOp>(ctx, table, indexCastUI);
  addHandler<arith::IndexCastOp>(ctx, table, indexCast);
  // arith / math: floats (epilogue regions).
  addHandler<arith::AddFOp>(ctx, table, [](Exec &e) {
    return binaryFloat(e, [](auto a, auto b) { return a + b; });
  });
  addHandler<arith::SubFOp>(ctx, table, [](Exec &e) {
    return binaryFloat(e, [](auto a, auto b) { return a - b; });
  });
  addHandler<arith::MulFOp>(ctx, table, [](Exec &e) {
    return binaryFloat(e, [](auto a, auto b) { return a * b; });
  });
  addHandler<arith::DivFOp>(ctx, table, [](Exec &e) {
    return binaryFloat(e, [](auto a, auto b) { return a / b; });
  });
  addHandler<arith::MaximumFOp>(ctx, table, [](Exec &e) {
    return binaryFloat(e, [](auto a, auto b) {
      return std::isnan(a) || std::isnan(b) ? NAN : (a > b ? a : b);
    });
  });
  addHandler<arith::MinimumFOp>(ctx, table, [](Exec &e) {
    return binaryFloat(e, [](auto a, auto b) {
      return std::isnan(a) || std::isnan(b) ? NAN : (a < b ? a : b);
    });
  });
  addHandler<arith::MaxNumFOp>(ctx, table, [](Exec &e) {
    return binaryFloat(e, [](auto a, auto b) { return std::fmax(a, b); });
  });
  addHandler<arith::MinNumFOp>(ctx, table, [](Exec &e) {
    return binaryFloat(e, [](auto a, auto b) { return std::fmin(a, b); });
  });
  addHandler<arith::NegFOp>(ctx, table, [](Exec &e) {
    return unaryFloat(e, [](auto a) { return -a; });
  });
  addHandler<arith::TruncFOp>(ctx, table, convertFloat);
  addHandler<arith::ExtFOp>(ctx, table, convertFloat);
  addHandler<arith::CmpFOp>(ctx, table, cmpf);
  addHandler<arith::SIToFPOp>(ctx, table, sitofp);
  addHandler<arith::UIToFPOp>(ctx, table, uitofp);
  addHandler<arith::FPToSIOp>(ctx, table, fptosi);
  addHandler<math::ExpOp>(ctx, table, [](Exec &e) {
    return unaryFloat(e, [](auto a) { return std::exp(a); });
  });
  addHandler<math::TanhOp>(ctx, table, [](Exec &e) {
    return unaryFloat(e, [](auto a) { return std::tanh(a); });
  });
  addHandler<math::AbsFOp>(ctx, table, [](Exec &e) {
    return unaryFloat(e, [](auto a) { return std::fabs(a); });
  });
  addHandler<math::SqrtOp>(ctx, table, [](Exec &e) {
    return unaryFloat(e, [](auto a) { return std::sqrt(a); });
  });
  addHandler<math::ErfOp>(ctx, table, [](Exec &e) {
    return unaryFloat(e, [](auto a) { return std::erf(a); });
  });
  addHandler<math::FmaOp>(ctx, table, [](Exec &e) {
    SimValue v;
    Type type = e.op->getResult(0).getType();
    if (type.isF32())
      v.f = std::fma(static_cast<float>(e.operand(0).f),
                     static_cast<float>(e.operand(1).f),
                     static_cast<float>(e.operand(2).f));
    else
      v.f = roundToResult(
          e, std::fma(e.operand(0).f, e.operand(1).f, e.operand(2).f));
    e.setResult(0, v);
    return Step::Next;
  });
  // scf.
  addHandler<scf::IfOp>(ctx, table, scfIf);
  addHandler<scf::ForOp>(ctx, table, scfFor);
  addHandler<scf::WhileOp>(ctx, table, scfWhile);
  addHandler<scf::ConditionOp>(ctx, table, scfCondition);
  addHandler<scf::YieldOp>(ctx, table, scfYield);
  // Roles.
  addHandler<WarpSpecializeOp>(ctx, table, warpSpecialize);
  addHandler<WarpRolesOp>(ctx, table, warpRoles);
  addHandler<YieldOp>(ctx, table, gemmYield);
  // gpu.
  addHandler<gpu::ThreadIdOp>(ctx, table, threadId);
  addHandler<gpu::BlockIdOp>(ctx, table, blockId);
  addHandler<gpu::GridDimOp>(ctx, table, gridDim);
  addHandler<gpu::BlockDimOp>(ctx, table, blockDim);
  addHandler<gpu::ReturnOp>(ctx, table, gpuReturn);
  addHandler<gpu::BarrierOp>(ctx, table, gpuBarrier);
  // nvvm ops the materializers emit.
  addHandler<NVVM::BarrierOp>(ctx, table, nvvmBarrier);
  addHandler<BarrierAnyOp>(ctx, table, barrierAny);
  addHandler<NVVM::SyncWarpOp>(ctx, table, syncWarp);
  addHandler<NVVM::ShflOp>(ctx, table, shflSync);
  addHandler<NVVM::ClusterArriveOp>(ctx, table, clusterArrive);
  addHandler<NVVM::ClusterWaitOp>(ctx, table, clusterWait);
  addHandler<NVVM::FenceMbarrierInitOp>(ctx, table, fenceMbarrierInit);
  addHandler<NVVM::FenceProxyOp>(ctx, table, fenceProxy);
}
