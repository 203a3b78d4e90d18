//===- OpsDirect.cpp - The direct kernel's plain loads and stores ---------===//
//
// The ops of GemmDirectOps.td (SM90 `schedule = direct`), each with the
// element distribution its ODS defines and its lowering (DirectToNVVM.cpp)
// implements:
//
//  - gemm.direct.load: one ld.global.nc per element of a thread's share of
//    a tile, rows clamped to the last row, columns past the bound read at
//    the tile's first column and replaced by 0 (selp); every address is
//    checked against the matrix's buffer;
//  - gemm.direct.store_smem: one st.shared per element into the 128-byte-
//    swizzled K-major slot; generic-proxy writes, which the WGMMA (async
//    proxy) may read only after the writer's fence.proxy.async and a
//    barrier ordering the writers before the WGMMA issuers (the race
//    checks see a missing one);
//  - gemm.accum.store_direct: one predicated st.global per accumulator
//    value, through the epilogue region (else rounded), at any strides.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

/// A thread's register fragment (!gemm.fragment): the element bits.
using FragmentBits = std::vector<uint16_t>;

const ElementCodec *codecOf(Exec &e, Type type) {
  std::string error;
  const ElementCodec *codec = ElementCodec::get(type, error);
  if (!codec)
    e.fail(Violation::Kind::Unsupported, error);
  return codec;
}

/// Tile element (i, j) of element `element` of thread `t` (of `threads`)
/// for a tile of `cols` columns: (w + W (e / P), l + 32 (e mod P)).
std::pair<int64_t, int64_t> distributed(uint64_t t, int64_t threads,
                                        int64_t cols, int64_t element) {
  int64_t warps = threads / 32, perRow = cols / 32;
  int64_t warp = static_cast<int64_t>(t / 32),
          lane = static_cast<int64_t>(t % 32);
  return {warp + warps * (element / perRow), lane + 32 * (element % perRow)};
}

Step directLoad(Exec &e) {
  auto op = cast<DirectLoadOp>(e.op);
  FragmentType type = op.getFragment().getType();
  const ElementCodec *codec = codecOf(e, type.getElementType());
  if (!codec)
    return Step::Stop;
  auto [buffer, base] = Machine::globalAddress(e.bits(0));
  if (buffer < 0 || buffer >= int(e.m.global.size()))
    return e.fail(Violation::Kind::Rule, "not a global buffer");
  const TrackedMemory &memory = e.m.global[buffer].memory;
  uint64_t row = maskTo(e.bits(1), 32), col = maskTo(e.bits(2), 32);
  uint64_t rowStride = e.bits(3), colStride = e.bits(4);
  uint64_t rows = maskTo(e.bits(5), 32), cols = maskTo(e.bits(6), 32);
  int64_t threads = static_cast<int64_t>(op.getThreads());
  int64_t tileCols = static_cast<int64_t>(op.getTileCols());
  if (row >= rows || col >= cols)
    return e.fail(Violation::Kind::Rule,
                  "loads a tile at (" + std::to_string(row) + ", " +
                      std::to_string(col) + ") outside the " +
                      std::to_string(rows) + " x " + std::to_string(cols) +
                      " matrix (the op's precondition)");
  uint64_t t = e.t.tid % threads;
  auto bits = std::make_shared<FragmentBits>(type.getSize());
  unsigned bytes = codec->bytes();
  for (int64_t element = 0; element < type.getSize(); ++element) {
    auto [i, j] = distributed(t, threads, tileCols, element);
    uint64_t r = std::min<uint64_t>(row + i, rows - 1);
    bool inside = col + j < cols;
    uint64_t c = inside ? col + j : col;
    uint64_t offset = base + (r * rowStride + c * colStride) * bytes;
    if (offset + bytes > memory.bytes.size())
      return e.fail(Violation::Kind::Rule,
                    "loads element (" + std::to_string(r) + ", " +
                        std::to_string(c) + ") at byte " +
                        std::to_string(offset) + " past the end of " +
                        memory.name + " (" +
                        std::to_string(memory.bytes.size()) + " bytes)");
    if (e.m.data() && inside)
      (*bits)[element] =
          static_cast<uint16_t>(codec->load(&memory.bytes[offset]));
  }
  SimValue v;
  v.ref = bits;
  e.setResult(0, v);
  return Step::Next;
}

Step directStoreSmem(Exec &e) {
  auto op = cast<DirectStoreSmemOp>(e.op);
  FragmentType type = op.getFragment().getType();
  SmemBufferType buffer = op.getBuffer().getType();
  const ElementCodec *codec = codecOf(e, type.getElementType());
  if (!codec)
    return Step::Stop;
  auto bits = std::static_pointer_cast<FragmentBits>(e.operand(0).ref);
  if (!bits)
    return e.fail(Violation::Kind::Rule, "the fragment has no value");
  uint64_t slot = maskTo(e.bits(2), 32);
  if (slot >= uint64_t(buffer.getStages()))
    return e.fail(Violation::Kind::Rule,
                  "stores into slot " + std::to_string(slot) +
                      " of a ring of " + std::to_string(buffer.getStages()) +
                      " slots");
  int64_t threads = static_cast<int64_t>(op.getThreads());
  uint64_t t = e.t.tid % threads;
  unsigned bytes = codec->bytes();
  uint64_t start = e.bits(1) + slot * buffer.getStageBytes();
  TrackedMemory &smem = e.m.ctas[e.t.cta].smem;
  Access access = e.m.threadAccess(e.t, e.op, -1, /*genericSmemWrite=*/true);
  for (int64_t element = 0; element < type.getSize(); ++element) {
    auto [i, j] = distributed(t, threads, buffer.getCols(), element);
    // Byte 128 i + 16 ((bytes j / 16) xor (i mod 8)) + (bytes j mod 16).
    uint64_t inRow = j * bytes;
    uint64_t address =
        start + 128 * i + 16 * ((inRow / 16) ^ (i % 8)) + inRow % 16;
    if (address + bytes > smem.bytes.size())
      return e.fail(Violation::Kind::Rule,
                    "stores past the end of shared memory");
    if (!e.m.checkWrite(smem, address, bytes, e.t.vc, access, false,
                        "the direct kernel's shared-memory store"))
      return Step::Stop;
    if (e.m.data())
      codec->store(&smem.bytes[address], (*bits)[element]);
  }
  return Step::Next;
}

Step accumStoreDirect(Exec &e) {
  auto op = cast<AccumStoreDirectOp>(e.op);
  auto fragment = readFragment(e, 0);
  if (!fragment)
    return Step::Stop;
  AccumulatorType type = op.getAccumulator().getType();
  const ElementCodec *codec = codecOf(e, op.getElementType());
  if (!codec)
    return Step::Stop;
  auto [buffer, base] = Machine::globalAddress(e.bits(1));
  if (buffer < 0 || buffer >= int(e.m.global.size()))
    return e.fail(Violation::Kind::Rule, "not a global buffer");
  TrackedMemory &memory = e.m.global[buffer].memory;
  uint64_t row = maskTo(e.bits(2), 32), col = maskTo(e.bits(3), 32);
  uint64_t rowStride = e.bits(4), colStride = e.bits(5);
  uint64_t rows = maskTo(e.bits(6), 32), cols = maskTo(e.bits(7), 32);
  unsigned bytes = codec->bytes();
  uint64_t inGroup = e.t.tid % 128;
  int64_t warp = inGroup / 32, lane = inGroup % 32;
  // Staged: the warp's rows of the buffer are its own (only this op uses
  // the buffer, each warp its 16 rows, a warp barrier between its writes and
  // reads), so C ends up as unstaged; what can go wrong is a CTA with more
  // warps than the buffer has rows for.
  if (Value staging = op.getStaging()) {
    auto buffer = cast<SmemBufferType>(staging.getType());
    if (16 * (e.t.tid / 32 + 1) > static_cast<uint64_t>(buffer.getRows()))
      return e.fail(Violation::Kind::Rule,
                    "warp " + std::to_string(e.t.tid / 32) +
                        " stages rows past the " +
                        std::to_string(buffer.getRows()) +
                        " of the direct store's staging buffer");
  }
  int64_t perAtom = type.getValuesPerAtom();
  Access access = e.m.threadAccess(e.t, e.op);
  for (int64_t atom = 0; atom < type.getAtoms(); ++atom)
    for (int64_t v = 0; v < perAtom; ++v) {
      // The WGMMA D fragment layout.
      uint64_t r = 64 * atom + 16 * warp + lane / 4 + 8 * ((v / 2) % 2);
      uint64_t c = 8 * (v / 4) + 2 * (lane % 4) + v % 2;
      if (row + r >= rows || col + c >= cols)
        continue;
      uint64_t offset =
          base + ((row + r) * rowStride + (col + c) * colStride) * bytes;
      if (offset + bytes > memory.bytes.size())
        return e.fail(Violation::Kind::Rule,
                      "stores element (" + std::to_string(row + r) + ", " +
                          std::to_string(col + c) + ") at byte " +
                          std::to_string(offset) + " past the end of " +
                          memory.name);
      if (!e.m.checkWrite(memory, offset, bytes, e.t.vc, access, false,
                          "the direct kernel's store of C"))
        return Step::Stop;
      if (!e.m.data())
        continue;
      float value = static_cast<float>(fragment->values[atom * perAtom + v]);
      uint64_t out;
      if (op.getEpilogue().empty()) {
        out = codec->encode(value);
      } else {
        SimValue in;
        in.f = value;
        out = codec->encode(evalRegion(e.m, e.t, op.getEpilogue(), {in}).f);
      }
      codec->store(&memory.bytes[offset], out);
    }
  return Step::Next;
}

} // namespace

void sim::registerDirectOps(MLIRContext *ctx, HandlerTable &table) {
  addHandler<DirectLoadOp>(ctx, table, directLoad);
  addHandler<DirectStoreSmemOp>(ctx, table, directStoreSmem);
  addHandler<AccumStoreDirectOp>(ctx, table, accumStoreDirect);
}
