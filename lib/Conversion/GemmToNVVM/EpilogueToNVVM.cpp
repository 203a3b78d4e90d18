//===- EpilogueToNVVM.cpp - accumulator fragments to staging shared memory ===//

#include "Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::gemm;

Value mlir::gemm::applyEpilogue(ConversionPatternRewriter &rewriter,
                                Location loc, Region &epilogue, Type outType,
                                Value acc) {
  if (epilogue.empty()) {
    if (outType == acc.getType())
      return acc;
    return LLVM::FPTruncOp::create(rewriter, loc, outType, acc);
  }
  Block &body = epilogue.front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), acc);
  for (Operation &nested : body.without_terminator())
    rewriter.clone(nested, mapping);
  // The region is not isolated from above: canonicalization may fold its
  // result to a value defined outside it (a hoisted constant), which has no
  // clone and is used as it is.
  return mapping.lookupOrDefault(
      cast<YieldOp>(body.getTerminator()).getValues()[0]);
}

namespace {

/// The address of 16-byte chunk `chunk` of row `row` in a staging slot of
/// 128-byte rows in the 128-byte swizzle: the chunk lives at chunk ^ (row
/// mod 8), which is also what spreads 8 consecutive rows over all 32 banks.
Value getSwizzledChunkAddress(ConversionPatternRewriter &rewriter, Location loc,
                              Value slot, Value row, Value chunk) {
  Value swizzled = LLVM::ShlOp::create(
      rewriter, loc,
      LLVM::XOrOp::create(
          rewriter, loc, chunk,
          LLVM::AndOp::create(rewriter, loc, row, createI32(rewriter, loc, 7))),
      createI32(rewriter, loc, 4));
  Value offset = LLVM::AddOp::create(
      rewriter, loc,
      LLVM::MulOp::create(rewriter, loc, row, createI32(rewriter, loc, 128)),
      swizzled);
  return LLVM::GEPOp::create(rewriter, loc, slot.getType(),
                             rewriter.getI8Type(), slot, ValueRange{offset});
}

/// A column-major C's sub-tile (64 rows of an atom by `width` = 128 /
/// sizeof(elem) columns) written transposed into a staging slot, as the
/// `64 / width` boxes of a TMA store whose inner dimension is M: box b holds
/// rows [b width, (b + 1) width) of the atom, its line n (128 bytes, chunk c
/// at c ^ (n mod 8)) the box's rows of sub-tile column n. `pair(group,
/// half)` gives a thread's values r, r + 1 of an 8-column group and row
/// half, i.e. its row 16 w + l / 4 + 8 half and columns 8 group + 2 (l mod
/// 4) + {0, 1} (lane l of warp w). Only the sub-tile's first `columns`
/// columns (lines) are written: a narrower last sub-tile.
template <typename PairFn>
void storeTransposed(ConversionPatternRewriter &rewriter, Location loc,
                     Value slot, Value warp, Value lane, int64_t elementBytes,
                     int64_t width, int64_t columns, PairFn &&pair) {
  MLIRContext *ctx = rewriter.getContext();
  auto c32 = [&](int64_t v) { return createI32(rewriter, loc, v); };
  if (elementBytes == 2) {
    // One 64 x 64 box: line n = column n, 16-byte chunk k = rows [8k, 8k +
    // 8). stmatrix.trans stores each 8x8 block of the fragment transposed:
    // lane l gives the address of line j = l mod 8 of block i = l / 8, which
    // receives column j of the block, i.e. its 8 rows (one 16-byte chunk).
    // Blocks (group, half) of the warp's 16 rows: column 8 group + j, chunk
    // 2 w + half. Eight lines of one block take all eight chunk positions
    // (chunk ^ j), so each block's store is conflict free.
    Value block = LLVM::UDivOp::create(rewriter, loc, lane, c32(8));
    Value j = LLVM::URemOp::create(rewriter, loc, lane, c32(8));
    Value half = LLVM::URemOp::create(rewriter, loc, block, c32(2));
    Value groupOfLane = LLVM::UDivOp::create(rewriter, loc, block, c32(2));
    Value chunk = LLVM::AddOp::create(
        rewriter, loc, LLVM::MulOp::create(rewriter, loc, warp, c32(2)), half);
    // A last lone 8-column group (columns an odd multiple of 8) goes with
    // stmatrix.x2: lanes 0-15 give its two blocks' line addresses.
    for (int64_t group = 0; group < columns / 8; group += 2) {
      SmallVector<Value> sources;
      for (int64_t g = group; g < std::min(group + 2, columns / 8); ++g)
        for (int64_t h = 0; h < 2; ++h)
          sources.push_back(LLVM::BitcastOp::create(
              rewriter, loc, rewriter.getI32Type(), pair(g, h)));
      Value line = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(
              rewriter, loc,
              LLVM::AddOp::create(rewriter, loc, groupOfLane, c32(group)),
              c32(8)),
          j);
      NVVM::StMatrixOp::create(
          rewriter, loc,
          getSwizzledChunkAddress(rewriter, loc, slot, line, chunk), sources,
          NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col),
          NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
          NVVM::LdStMatrixEltTypeAttr::get(ctx, NVVM::LdStMatrixEltType::B16));
    }
    return;
  }
  // 32-bit outputs: two 32 x 32 boxes (4096 bytes each); a thread's values
  // go one by one (its adjacent values are adjacent columns, i.e. lines).
  // Row r = 16 w + l / 4 + 8 half is in box r / 32 at byte 4 (r mod 32) of
  // its line. The 32 lanes of one store write rows of 8 consecutive words
  // into four lines (columns 2 (l mod 4) + i): two chunks per line at
  // chunk ^ line, eight distinct chunks, all 32 banks.
  Value quad = LLVM::UDivOp::create(rewriter, loc, lane, c32(4));
  Value laneCol = LLVM::MulOp::create(
      rewriter, loc, LLVM::URemOp::create(rewriter, loc, lane, c32(4)), c32(2));
  for (int64_t half = 0; half < 2; ++half) {
    Value row = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::AddOp::create(rewriter, loc,
                            LLVM::MulOp::create(rewriter, loc, warp, c32(16)),
                            quad),
        c32(8 * half));
    Value box = LLVM::UDivOp::create(rewriter, loc, row, c32(width));
    Value inBox = LLVM::URemOp::create(rewriter, loc, row, c32(width));
    Value byteInLine =
        LLVM::MulOp::create(rewriter, loc, inBox, c32(elementBytes));
    Value chunk = LLVM::LShrOp::create(rewriter, loc, byteInLine, c32(4));
    Value inChunk = LLVM::AndOp::create(rewriter, loc, byteInLine, c32(15));
    Value boxBase = LLVM::GEPOp::create(
        rewriter, loc, slot.getType(), rewriter.getI8Type(), slot,
        ValueRange{LLVM::MulOp::create(rewriter, loc, box, c32(width * 128))});
    for (int64_t group = 0; group < columns / 8; ++group) {
      Value packed = pair(group, half);
      for (int64_t i = 0; i < 2; ++i) {
        Value line =
            LLVM::AddOp::create(rewriter, loc, laneCol, c32(8 * group + i));
        Value target = LLVM::GEPOp::create(
            rewriter, loc, slot.getType(), rewriter.getI8Type(),
            getSwizzledChunkAddress(rewriter, loc, boxBase, line, chunk),
            ValueRange{inChunk});
        Value value =
            LLVM::ExtractElementOp::create(rewriter, loc, packed, c32(i));
        LLVM::StoreOp::create(rewriter, loc, value, target,
                              /*alignment=*/elementBytes);
      }
    }
  }
}

/// Writes one 64-row, 128-byte-wide column block of an accumulator atom.
///
/// WGMMA leaves accumulator value `r` of thread (warp w, lane l) at row
/// 16 w + l / 4 + 8 ((r / 2) mod 2) and column 8 (r / 4) + 2 (l mod 4) +
/// (r mod 2) of the 64-row atom (PTX ISA, "Matrix fragments for
/// wgmma.mma_async .m64nNk16", D matrix): every 8x8 block of it is laid
/// out like an mma.m16n8 fragment, which is what stmatrix takes. Values r
/// and r + 1 are adjacent columns and are stored together. The staging slot
/// uses the 128-byte swizzle that the TMA store expects: the 16-byte chunk
/// c of row y lives at chunk c ^ (y mod 8), which also spreads the 8 rows a
/// warp writes at once over all 32 banks. A row-major narrower last
/// sub-tile (`columns(w)`) is packed instead: rows of w elements.
struct AccumStoreSmemLowering
    : public ConvertOpToLLVMPattern<AccumStoreSmemOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AccumStoreSmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmemBufferType bufferType = op.getBuffer().getType();
    Type outType = bufferType.getElementType();
    int64_t elementBytes = getElementBytes(outType);
    int64_t width = 128 / elementBytes;
    if (isa<Float8E4M3FNType, Float8E5M2Type>(outType)) {
      storeFp8(op, adaptor, rewriter);
      rewriter.eraseOp(op);
      return success();
    }

    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value threadInGroup =
        LLVM::URemOp::create(rewriter, loc, tid, createI32(rewriter, loc, 128));
    Value warp = LLVM::UDivOp::create(rewriter, loc, threadInGroup,
                                      createI32(rewriter, loc, 32));
    Value lane = LLVM::URemOp::create(rewriter, loc, threadInGroup,
                                      createI32(rewriter, loc, 32));
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(), bufferType,
                                adaptor.getSlot());

    auto pairType = VectorType::get({2}, outType);
    Value atomAcc = LLVM::ExtractValueOp::create(
        rewriter, loc, adaptor.getAccumulator(), op.getAtom());
    // Values r and r + 1 (adjacent columns) of 8-column group `group`, row
    // half `half`, converted and packed.
    auto pair = [&](int64_t group, int64_t half) {
      int64_t value = (op.getCol() / 8 + group) * 4 + half * 2;
      Value packed = LLVM::UndefOp::create(rewriter, loc, pairType);
      for (int64_t i = 0; i < 2; ++i) {
        Value acc =
            LLVM::ExtractValueOp::create(rewriter, loc, atomAcc, value + i);
        packed = LLVM::InsertElementOp::create(
            rewriter, loc, packed,
            applyEpilogue(rewriter, loc, op.getEpilogue(), outType, acc),
            createI32(rewriter, loc, i));
      }
      return packed;
    };
    // A row-major narrower last sub-tile (columns(w)) is packed: rows of w
    // elements, unswizzled, for the TMA store of its w-wide box.
    int64_t columns = op.getColumnCount();
    bool packed = !op.getTransposed() && columns < width;
    auto address = [&](Value row, Value chunk) -> Value {
      if (!packed)
        return getSwizzledChunkAddress(rewriter, loc, slot, row, chunk);
      Value rowBytes = LLVM::MulOp::create(
          rewriter, loc, row, createI32(rewriter, loc, columns * elementBytes));
      Value chunkBytes = LLVM::ShlOp::create(rewriter, loc, chunk,
                                             createI32(rewriter, loc, 4));
      Value offset = LLVM::AddOp::create(rewriter, loc, rowBytes, chunkBytes);
      return LLVM::GEPOp::create(rewriter, loc, slot.getType(),
                                 rewriter.getI8Type(), slot,
                                 ValueRange{offset});
    };

    if (op.getTransposed()) {
      storeTransposed(rewriter, loc, slot, warp, lane, elementBytes, width,
                      op.getColumnCount(), pair);
    } else if (elementBytes == 2) {
      // 16-bit outputs: one stmatrix.x4 per two 8-column groups stores the
      // four 8x8 blocks (rows +0/+8 of each group) of the warp's 16 rows.
      // Lane l gives the address of row l mod 8 of block l / 8; a block row
      // is one 16-byte chunk, so the swizzle keeps the stores conflict free.
      Value block = LLVM::UDivOp::create(rewriter, loc, lane,
                                         createI32(rewriter, loc, 8));
      Value rowInBlock = LLVM::URemOp::create(rewriter, loc, lane,
                                              createI32(rewriter, loc, 8));
      Value row = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::AddOp::create(
              rewriter, loc,
              LLVM::MulOp::create(rewriter, loc, warp,
                                  createI32(rewriter, loc, 16)),
              LLVM::MulOp::create(
                  rewriter, loc,
                  LLVM::URemOp::create(rewriter, loc, block,
                                       createI32(rewriter, loc, 2)),
                  createI32(rewriter, loc, 8))),
          rowInBlock);
      Value groupOfLane = LLVM::UDivOp::create(rewriter, loc, block,
                                               createI32(rewriter, loc, 2));
      MLIRContext *ctx = rewriter.getContext();
      // A last lone 8-column group goes with stmatrix.x2 (lanes 0-15).
      for (int64_t group = 0; group < columns / 8; group += 2) {
        SmallVector<Value> sources;
        for (int64_t g = group; g < std::min(group + 2, columns / 8); ++g)
          for (int64_t half = 0; half < 2; ++half)
            sources.push_back(LLVM::BitcastOp::create(
                rewriter, loc, rewriter.getI32Type(), pair(g, half)));
        Value chunk = LLVM::AddOp::create(rewriter, loc, groupOfLane,
                                          createI32(rewriter, loc, group));
        NVVM::StMatrixOp::create(
            rewriter, loc, address(row, chunk), sources,
            NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
            NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
            NVVM::LdStMatrixEltTypeAttr::get(ctx,
                                             NVVM::LdStMatrixEltType::B16));
      }
    } else {
      // 32-bit outputs: each thread stores its two adjacent values (8
      // bytes); the 8 rows a warp writes at once fall in distinct chunks.
      Value rowBase = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(rewriter, loc, warp,
                              createI32(rewriter, loc, 16)),
          LLVM::UDivOp::create(rewriter, loc, lane,
                               createI32(rewriter, loc, 4)));
      Value laneBytes =
          LLVM::MulOp::create(rewriter, loc,
                              LLVM::URemOp::create(rewriter, loc, lane,
                                                   createI32(rewriter, loc, 4)),
                              createI32(rewriter, loc, 2 * elementBytes));
      for (int64_t group = 0; group < columns / 8; ++group) {
        Value byteInRow = LLVM::AddOp::create(
            rewriter, loc, createI32(rewriter, loc, 8 * group * elementBytes),
            laneBytes);
        Value chunk = LLVM::LShrOp::create(rewriter, loc, byteInRow,
                                           createI32(rewriter, loc, 4));
        Value inChunk = LLVM::AndOp::create(rewriter, loc, byteInRow,
                                            createI32(rewriter, loc, 15));
        for (int64_t half = 0; half < 2; ++half) {
          Value row = LLVM::AddOp::create(rewriter, loc, rowBase,
                                          createI32(rewriter, loc, 8 * half));
          Value target = LLVM::GEPOp::create(
              rewriter, loc, slot.getType(), rewriter.getI8Type(),
              address(row, chunk), ValueRange{inChunk});
          LLVM::StoreOp::create(rewriter, loc, pair(group, half), target,
                                /*alignment=*/2 * elementBytes);
        }
      }
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// fp8 outputs: each value through the epilogue region (f32), its
  /// absolute value into the amax, times the output scale, and two adjacent
  /// columns rounded together (cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32) into
  /// one 2-byte store at their place in the swizzled slot: row y, byte b
  /// lives in chunk (b / 16) ^ (y mod 8). The 8 rows a warp writes at once
  /// fall in 8 distinct chunks, so the stores do not conflict.
  void storeFp8(AccumStoreSmemOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    SmemBufferType bufferType = op.getBuffer().getType();
    Type outType = bufferType.getElementType();
    Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    Value threadInGroup =
        LLVM::URemOp::create(rewriter, loc, tid, createI32(rewriter, loc, 128));
    Value warp = LLVM::UDivOp::create(rewriter, loc, threadInGroup,
                                      createI32(rewriter, loc, 32));
    Value lane = LLVM::URemOp::create(rewriter, loc, threadInGroup,
                                      createI32(rewriter, loc, 32));
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(), bufferType,
                                adaptor.getSlot());
    Value atomAcc = LLVM::ExtractValueOp::create(
        rewriter, loc, adaptor.getAccumulator(), op.getAtom());
    Value rowBase = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::MulOp::create(rewriter, loc, warp, createI32(rewriter, loc, 16)),
        LLVM::UDivOp::create(rewriter, loc, lane, createI32(rewriter, loc, 4)));
    Value laneBytes = LLVM::MulOp::create(
        rewriter, loc,
        LLVM::URemOp::create(rewriter, loc, lane, createI32(rewriter, loc, 4)),
        createI32(rewriter, loc, 2));
    // The amax as the bits of |y|: non-negative floats order like their
    // bits, so an integer max is the float max (llvm.fabs and llvm.maxnum
    // would become libdevice calls in convert-gpu-to-nvvm).
    Value amax = createI32(rewriter, loc, 0);
    Value magnitude = createI32(rewriter, loc, 0x7fffffff);
    Value scale = adaptor.getOutScale();
    for (int64_t group = 0; group < 16; ++group) {
      Value byteInRow = LLVM::AddOp::create(
          rewriter, loc, createI32(rewriter, loc, 8 * group), laneBytes);
      Value chunk = LLVM::LShrOp::create(rewriter, loc, byteInRow,
                                         createI32(rewriter, loc, 4));
      Value inChunk = LLVM::AndOp::create(rewriter, loc, byteInRow,
                                          createI32(rewriter, loc, 15));
      for (int64_t half = 0; half < 2; ++half) {
        int64_t value = (op.getCol() / 8 + group) * 4 + half * 2;
        Value scaled[2];
        for (int64_t i = 0; i < 2; ++i) {
          Value acc =
              LLVM::ExtractValueOp::create(rewriter, loc, atomAcc, value + i);
          Value y = applyEpilogue(rewriter, loc, op.getEpilogue(), f32, acc);
          Value bits = LLVM::AndOp::create(
              rewriter, loc, LLVM::BitcastOp::create(rewriter, loc, i32, y),
              magnitude);
          amax = LLVM::UMaxOp::create(rewriter, loc, amax, bits);
          scaled[i] = LLVM::FMulOp::create(rewriter, loc, y, scale);
        }
        // The first operand lands in the upper byte: the higher column.
        Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
            rewriter, loc, rewriter.getI16Type(), scaled[1], scaled[0],
            NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
            /*relu=*/false, outType);
        Value row = LLVM::AddOp::create(rewriter, loc, rowBase,
                                        createI32(rewriter, loc, 8 * half));
        Value target = LLVM::GEPOp::create(
            rewriter, loc, slot.getType(), rewriter.getI8Type(),
            getSwizzledChunkAddress(rewriter, loc, slot, row, chunk),
            ValueRange{inChunk});
        LLVM::StoreOp::create(rewriter, loc, packed, target, /*alignment=*/2);
      }
    }
    if (Value pointer = adaptor.getAmax())
      reduceAmax(rewriter, loc, amax, pointer, lane);
  }

  /// The warp's largest `amax` (the bits of a non-negative f32, which order
  /// like the values; a NaN's bits exceed infinity's, so it wins) raises the
  /// f32 at `pointer`, from the warp's first lane.
  static void reduceAmax(ConversionPatternRewriter &rewriter, Location loc,
                         Value amax, Value pointer, Value lane) {
    Type i32 = rewriter.getI32Type();
    Value warpMax =
        NVVM::ReduxOp::create(rewriter, loc, i32, amax, NVVM::ReduxKind::UMAX,
                              createI32(rewriter, loc, -1));
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       lane, createI32(rewriter, loc, 0));
    auto ifFirst = scf::IfOp::create(rewriter, loc, first,
                                     /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
    LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::umax, pointer,
                              warpMax, LLVM::AtomicOrdering::monotonic);
  }
};

/// Moves a warp's 32 accumulator rows of one 128-byte column block from TMEM
/// to a staging slot. tcgen05.ld .32x32b gives thread t the whole row t of
/// the warp's lane quarter, so each thread writes its own staging row: eight
/// 16-byte chunks, chunk c at c ^ (t mod 8). A quarter-warp's eight rows then
/// cover all eight chunk positions, i.e. all 32 banks, for every chunk.
struct TmemStoreSmemLowering : public ConvertOpToLLVMPattern<TmemStoreSmemOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmemStoreSmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmemBufferType bufferType = op.getBuffer().getType();
    Type outType = bufferType.getElementType();
    int64_t elementBytes = getElementBytes(outType);
    int64_t width = bufferType.getCols();
    Type i32 = rewriter.getI32Type();

    Value raw = loadTmemLaneQuarter(rewriter, loc, adaptor.getTmem(),
                                    op.getTmem().getType(), adaptor.getStage(),
                                    op.getColAttr().getInt(), width);
    Value lane = LLVM::URemOp::create(
        rewriter, loc, NVVM::ThreadIdXOp::create(rewriter, loc, i32),
        createI32(rewriter, loc, 32));
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(), bufferType,
                                adaptor.getSlot());
    // Column `column` of the thread's row, through the epilogue, as i32
    // words: one per f32 value, one per two 16-bit values.
    auto value = [&](int64_t column) {
      Value cell = LLVM::ExtractElementOp::create(
          rewriter, loc, raw, createI32(rewriter, loc, column));
      Value acc =
          LLVM::BitcastOp::create(rewriter, loc, rewriter.getF32Type(), cell);
      return applyEpilogue(rewriter, loc, op.getEpilogue(), outType, acc);
    };
    auto word = [&](int64_t column) -> Value {
      if (elementBytes == 4)
        return LLVM::BitcastOp::create(rewriter, loc, i32, value(column));
      auto pairType = VectorType::get({2}, outType);
      Value pair = LLVM::UndefOp::create(rewriter, loc, pairType);
      for (int64_t i = 0; i < 2; ++i)
        pair = LLVM::InsertElementOp::create(rewriter, loc, pair,
                                             value(column + i),
                                             createI32(rewriter, loc, i));
      return LLVM::BitcastOp::create(rewriter, loc, i32, pair);
    };
    auto chunkType = VectorType::get({4}, i32);
    int64_t perChunk = 16 / elementBytes;
    for (int64_t chunk = 0; chunk < 8; ++chunk) {
      Value words = LLVM::UndefOp::create(rewriter, loc, chunkType);
      for (int64_t w = 0; w < 4; ++w)
        words = LLVM::InsertElementOp::create(
            rewriter, loc, words, word(chunk * perChunk + w * perChunk / 4),
            createI32(rewriter, loc, w));
      LLVM::StoreOp::create(
          rewriter, loc, words,
          getSwizzledChunkAddress(rewriter, loc, slot, lane,
                                  createI32(rewriter, loc, chunk)),
          /*alignment=*/16);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::gemm::populateEpilogueToNVVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<AccumStoreSmemLowering, TmemStoreSmemLowering>(converter);
}
