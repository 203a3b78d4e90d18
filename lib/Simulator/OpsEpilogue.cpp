//===- OpsEpilogue.cpp - Accumulators to swizzled staging slots
//------------===//
//
// The epilogue's register -> shared memory step, for both archs: each value
// goes through the user's epilogue region (else it is rounded to the output
// type) and is written where the 128-byte-swizzled TMA store of the slot
// reads it. SM90 (gemm.accum.store_smem): a WGMMA fragment, i.e. the stmatrix
// layout, or its transpose for a column-major C; SM100 (gemm.tmem.store_smem):
// one TMEM lane (tcgen05.ld .32x32b) per thread, a whole staging row. The
// writes go through the generic proxy: a TMA store may read them only after the
// writer's fence.proxy.async.
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

/// The bits of accumulator value `acc` in the output element type, through
/// the epilogue region when there is one.
uint64_t outputBits(Exec &e, Region &epilogue, const ElementCodec &codec,
                    float acc) {
  if (epilogue.empty())
    return codec.encode(acc);
  SimValue in;
  in.f = acc;
  SimValue out = evalRegion(e.m, e.t, epilogue, {in});
  return codec.encode(out.f);
}

/// What gemm.accum.store_smem stores for one accumulator value `acc`:
/// - an i32 accumulator into an i32 slot: the s32 value as it is;
/// - an fp8 slot: the f32 value (through the epilogue region) times the
///   output scale (mul.rn.f32), rounded to nearest even with saturation to
///   the largest finite value (cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32); the
///   value before the scale raises `amax` (the bits of |x|, as
///   redux.sync.max.u32 and red.global.max.u32 compute it: a NaN's bits
///   are above every number's, so a NaN wins, as on the GPU);
/// - else the f32 value (an i32 accumulator converted, cvt.rn.f32.s32)
///   through the region, rounded to the slot's type (cvt.rn).
struct StoreConversion {
  Exec &e;
  Region &epilogue;
  const ElementCodec &codec;
  bool integerCopy = false;
  bool fp8 = false;
  float outScale = 1.0f;
  /// The f32 bits of the largest |x| (sign bit cleared).
  uint32_t amaxBits = 0;

  uint64_t operator()(double acc) {
    if (integerCopy)
      return codec.encode(acc);
    float value = static_cast<float>(acc);
    if (!fp8)
      return outputBits(e, epilogue, codec, value);
    if (!epilogue.empty()) {
      SimValue in;
      in.f = value;
      value = static_cast<float>(evalRegion(e.m, e.t, epilogue, {in}).f);
    }
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    amaxBits = std::max(amaxBits, bits & 0x7fffffffu);
    return codec.encode(value * outScale);
  }
};

/// red.global.max.u32 of `amaxBits` (the f32 bits of a non-negative value,
/// which order like the values) at the global pointer `pointer`. An atomic:
/// no happens-before record (the kernel never reads it back).
Step raiseAmax(Exec &e, uint64_t pointer, uint32_t amaxBits) {
  auto [buffer, offset] = Machine::globalAddress(pointer);
  if (buffer <= 0 || buffer >= int(e.m.global.size()) ||
      offset + 4 > e.m.global[buffer].memory.bytes.size())
    return e.fail(Violation::Kind::Rule,
                  "the amax pointer is not an f32 in a global buffer");
  if (!e.m.data())
    return Step::Next;
  uint8_t *at = &e.m.global[buffer].memory.bytes[offset];
  uint32_t old;
  std::memcpy(&old, at, 4);
  uint32_t bits = std::max(old, amaxBits);
  std::memcpy(at, &bits, 4);
  return Step::Next;
}

const ElementCodec *codecOf(Exec &e, Type type) {
  std::string error;
  const ElementCodec *codec = ElementCodec::get(type, error);
  if (!codec)
    e.fail(Violation::Kind::Unsupported, error);
  return codec;
}

/// The shared-memory address of staging slot `slotIndex` of `buffer` (at
/// `base`), whose slots must be `rows` rows of 128 bytes of the codec's
/// elements; nullopt after a violation.
std::optional<uint64_t> stagingSlot(Exec &e, SmemBufferType buffer,
                                    uint64_t base, uint64_t slotIndex,
                                    int64_t rows, const ElementCodec &codec) {
  int64_t width = 128 / codec.bytes();
  if (slotIndex < uint64_t(buffer.getStages()) && buffer.getRows() == rows &&
      buffer.getCols() == width)
    return base + slotIndex * buffer.getStageBytes();
  e.fail(Violation::Kind::Rule,
         "staging slot " + std::to_string(slotIndex) + " of a buffer of " +
             std::to_string(buffer.getStages()) + " slots of " +
             std::to_string(buffer.getRows()) + " x " +
             std::to_string(buffer.getCols()) + " (" + std::to_string(rows) +
             " rows of 128 bytes expected)");
  return std::nullopt;
}

/// Writes `count` consecutive elements of a 128-byte staging row (row
/// `row`, first element `column`) of the slot at `slot`, through the
/// 128-byte swizzle; or, with `packedRowBytes`, of a packed unswizzled row
/// of that many bytes (a row-major C's narrower last sub-tile). `bits(i)`
/// gives element i.
template <typename Bits>
bool writeStagingRun(Exec &e, uint64_t slot, int64_t row, int64_t column,
                     int64_t count, const ElementCodec &codec, Bits bits,
                     int64_t packedRowBytes = 0) {
  unsigned bytes = codec.bytes();
  TrackedMemory &smem = e.m.ctas[e.t.cta].smem;
  Access access = e.m.threadAccess(e.t, e.op, -1, /*genericSmemWrite=*/true);
  // A run never crosses a 16-byte chunk (the swizzle moves whole chunks).
  int64_t first = column;
  while (first < column + count) {
    int64_t chunkEnd = (first * bytes / 16 + 1) * 16 / bytes;
    int64_t last = std::min<int64_t>(column + count, chunkEnd);
    uint64_t address = packedRowBytes
                           ? slot + row * packedRowBytes + first * bytes
                           : swizzle(slot + row * 128 + first * bytes, 128);
    if (!e.m.checkWrite(smem, address, (last - first) * bytes, e.t.vc, access,
                        false, "the epilogue's staging write"))
      return false;
    if (e.m.data())
      for (int64_t i = first; i < last; ++i)
        codec.store(&smem.bytes[address + (i - first) * bytes],
                    bits(i - column));
    first = last;
  }
  return true;
}

Step accumStoreSmem(Exec &e) {
  auto op = cast<AccumStoreSmemOp>(e.op);
  auto fragment = readFragment(e, 0);
  if (!fragment)
    return Step::Stop;
  AccumulatorType accType = op.getAccumulator().getType();
  SmemBufferType buffer = op.getBuffer().getType();
  const ElementCodec *codec = codecOf(e, buffer.getElementType());
  if (!codec)
    return Step::Stop;
  int64_t width = 128 / codec->bytes();
  std::optional<uint64_t> slotAddress = stagingSlot(
      e, buffer, e.bits(1), maskTo(e.bits(2), 32), /*rows=*/64, *codec);
  if (!slotAddress)
    return Step::Stop;
  uint64_t slot = *slotAddress;
  int64_t atom = static_cast<int64_t>(op.getAtom());
  int64_t col = static_cast<int64_t>(op.getCol());
  int64_t perAtom = accType.getValuesPerAtom();
  StoreConversion convert{e, op.getEpilogue(), *codec};
  Type slotType = buffer.getElementType();
  convert.integerCopy = isa<IntegerType>(slotType);
  convert.fp8 = isa<Float8E4M3FNType, Float8E5M2Type>(slotType);
  if (convert.fp8) {
    if (!op.getOutScale())
      return e.fail(Violation::Kind::Rule,
                    "an fp8 staging slot without an output scale");
    convert.outScale = static_cast<float>(e.operand(3).f);
  }
  uint64_t inGroup = e.t.tid % 128;
  int64_t warp = inGroup / 32, lane = inGroup % 32;
  // WGMMA's D fragment: value r of (warp, lane) is row 16 warp + lane / 4 +
  // 8 ((r / 2) mod 2), column 8 (r / 4) + 2 (lane mod 4) + (r mod 2); the
  // pair r, r + 1 is two adjacent columns.
  for (int64_t group = col / 8; group < (col + op.getColumnCount()) / 8;
       ++group)
    for (int64_t half = 0; half < 2; ++half) {
      int64_t r = group * 4 + half * 2;
      int64_t row = 16 * warp + lane / 4 + 8 * half;
      int64_t column = 8 * group + 2 * (lane % 4) - col;
      auto bits = [&](int64_t i) -> uint64_t {
        return convert(fragment->values[atom * perAtom + r + i]);
      };
      if (!op.getTransposed()) {
        int64_t packedRowBytes = op.getColumnCount() < width
                                     ? op.getColumnCount() * codec->bytes()
                                     : 0;
        if (!writeStagingRun(e, slot, row, column, 2, *codec, bits,
                             packedRowBytes))
          return Step::Stop;
        continue;
      }
      // Transposed (a column-major C): the slot holds 64 / width boxes of
      // width lines; box row / width holds the sub-tile's rows [b width,
      // (b + 1) width), its line n column n of them, element row mod width
      // of the line. The pair's two values are adjacent columns: two lines.
      for (int64_t i = 0; i < 2; ++i) {
        int64_t line = (row / width) * width + column + i;
        if (!writeStagingRun(e, slot, line, row % width, 1, *codec,
                             [&](int64_t) { return bits(i); }))
          return Step::Stop;
      }
    }
  if (op.getAmax())
    return raiseAmax(e, e.bits(op.getOutScale() ? 4 : 3), convert.amaxBits);
  return Step::Next;
}

Step tmemStoreSmem(Exec &e) {
  auto op = cast<TmemStoreSmemOp>(e.op);
  SmemBufferType buffer = op.getBuffer().getType();
  const ElementCodec *codec = codecOf(e, buffer.getElementType());
  if (!codec)
    return Step::Stop;
  int64_t width = 128 / codec->bytes();
  std::optional<uint64_t> slot = stagingSlot(
      e, buffer, e.bits(2), maskTo(e.bits(3), 32), /*rows=*/32, *codec);
  if (!slot)
    return Step::Stop;
  std::vector<float> values;
  if (!readTmemRow(e, op.getTmem().getType(), e.bits(0), maskTo(e.bits(1), 32),
                   static_cast<int64_t>(op.getCol()), width, values))
    return Step::Stop;
  auto bits = [&](int64_t i) -> uint64_t {
    return outputBits(e, op.getEpilogue(), *codec, values[i]);
  };
  // Thread t of the warp writes row t of the slot.
  if (!writeStagingRun(e, *slot, e.t.lane, 0, width, *codec, bits))
    return Step::Stop;
  return Step::Next;
}

} // namespace

void sim::registerEpilogueOps(MLIRContext *ctx, HandlerTable &table) {
  addHandler<AccumStoreSmemOp>(ctx, table, accumStoreSmem);
  addHandler<TmemStoreSmemOp>(ctx, table, tmemStoreSmem);
}
