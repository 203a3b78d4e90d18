//===- DirectToNVVM.cpp - plain global loads and stores of tiles ---------===//
//
// The SM90 direct kernel's data movement (GemmDirectOps.td): tiles of A and
// B read element by element from global memory into registers, written into
// the 128-byte-swizzled shared-memory layout WGMMA reads, and accumulators
// written element by element to C. Everything is 2- or 4-byte accesses at
// element granularity, so any row stride and any base address work; bounds
// are checked per element in 64-bit arithmetic.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Builds the index arithmetic of one op in the LLVM dialect.
struct IndexBuilder {
  ConversionPatternRewriter &b;
  Location loc;

  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Value c32(int64_t v) { return createI32(b, loc, v); }
  Value c64(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64(), b.getI64IntegerAttr(v));
  }
  Value wide(Value v) { return LLVM::ZExtOp::create(b, loc, i64(), v); }
  Value add(Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return LLVM::MulOp::create(b, loc, x, y); }
  Value below(Value x, Value bound) {
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, x, bound);
  }
  Value both(Value x, Value y) { return LLVM::AndOp::create(b, loc, x, y); }
  /// tid.x mod `threads`, and its warp and lane.
  std::tuple<Value, Value, Value> thread(int64_t threads) {
    Value tid = NVVM::ThreadIdXOp::create(b, loc, i32());
    Value t = LLVM::URemOp::create(b, loc, tid, c32(threads));
    return {t, LLVM::UDivOp::create(b, loc, t, c32(32)),
            LLVM::URemOp::create(b, loc, t, c32(32))};
  }
};

/// gemm.direct.load: thread t's element e is tile element (w + W (e / P),
/// l + 32 (e mod P)). The tile's first element is one 64-bit address; the
/// thread's row offsets (per q, rows clamped to the last one) and column
/// offsets (per p, zero for columns past the bound) are 32-bit and computed
/// once, so an element costs an add, the load and a select, and the row
/// offsets, which stay live across a k-loop, take one register each.
struct DirectLoadLowering : public ConvertOpToLLVMPattern<DirectLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DirectLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexBuilder ib{rewriter, op.getLoc()};
    Location loc = op.getLoc();
    auto threads = static_cast<int64_t>(op.getThreads());
    auto tileRows = static_cast<int64_t>(op.getTileRows());
    auto tileCols = static_cast<int64_t>(op.getTileCols());
    int64_t warps = threads / 32, passes = tileCols / 32;
    int64_t rowsPerWarp = tileRows / warps;
    Type i16 = rewriter.getI16Type();
    Type fragmentType = getTypeConverter()->convertType(op.getType());

    auto [t, warp, lane] = ib.thread(threads);
    Value row = adaptor.getRow(), col = adaptor.getCol();
    Value rowStride = adaptor.getRowStride();
    Value colStride = adaptor.getColStride();
    Value base = adaptor.getBase();
    // The tile's element (0, 0), in 64-bit arithmetic.
    Value tile = LLVM::GEPOp::create(
        rewriter, loc, base.getType(), i16, base,
        ValueRange{ib.add(ib.mul(ib.wide(row), rowStride),
                          ib.mul(ib.wide(col), colStride))});
    auto narrow = [&](Value v) {
      return LLVM::TruncOp::create(rewriter, loc, ib.i32(), v);
    };
    Value rowStride32 = narrow(rowStride), colStride32 = narrow(colStride);
    Value lastRow = LLVM::SubOp::create(
        rewriter, loc,
        LLVM::SubOp::create(rewriter, loc, adaptor.getRows(), ib.c32(1)), row);
    SmallVector<Value> rowOffsets;
    for (int64_t q = 0; q < rowsPerWarp; ++q) {
      Value i = ib.add(warp, ib.c32(warps * q));
      // Rows past the bound read the last row: they only feed accumulator
      // rows or columns that the epilogue does not write.
      Value clamped = LLVM::SMinOp::create(rewriter, loc, i, lastRow);
      rowOffsets.push_back(ib.mul(clamped, rowStride32));
    }
    // Indices below 2^31 plus a tile: 32-bit unsigned compares are exact.
    Value cols = adaptor.getCols();
    Value firstCol = ib.add(col, lane);
    Value zero = LLVM::ConstantOp::create(rewriter, loc, i16,
                                          rewriter.getI16IntegerAttr(0));
    SmallVector<Value> colOk, colOffsets;
    for (int64_t p = 0; p < passes; ++p) {
      Value inside = ib.below(ib.add(firstCol, ib.c32(32 * p)), cols);
      colOk.push_back(inside);
      // Columns past the bound read column 0 of their row (always there)
      // and are replaced by zeros: no load leaves the matrix.
      Value offset = ib.mul(ib.add(lane, ib.c32(32 * p)), colStride32);
      colOffsets.push_back(
          LLVM::SelectOp::create(rewriter, loc, inside, offset, ib.c32(0)));
    }
    Value fragment = LLVM::UndefOp::create(rewriter, loc, fragmentType);
    for (int64_t q = 0; q < rowsPerWarp; ++q) {
      for (int64_t p = 0; p < passes; ++p) {
        Value address = LLVM::GEPOp::create(
            rewriter, loc, base.getType(), i16, tile,
            ValueRange{ib.add(rowOffsets[q], colOffsets[p])});
        Value value = LLVM::LoadOp::create(rewriter, loc, i16, address,
                                           /*alignment=*/2,
                                           /*isVolatile=*/false,
                                           /*isNonTemporal=*/false,
                                           /*isInvariant=*/true);
        value = LLVM::SelectOp::create(rewriter, loc, colOk[p], value, zero);
        fragment = LLVM::InsertValueOp::create(rewriter, loc, fragment, value,
                                               q * passes + p);
      }
    }
    rewriter.replaceOp(op, fragment);
    return success();
  }
};

/// gemm.direct.store_smem: element (i, j) at 128 i + 16 ((j / 8) ^ (i mod
/// 8)) + 2 (j mod 8) of the slot. With j = l + 32 p, j / 8 = l / 8 + 4 p and
/// j mod 8 = l mod 8.
struct DirectStoreSmemLowering
    : public ConvertOpToLLVMPattern<DirectStoreSmemOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DirectStoreSmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexBuilder ib{rewriter, op.getLoc()};
    Location loc = op.getLoc();
    SmemBufferType bufferType = op.getBuffer().getType();
    auto threads = static_cast<int64_t>(op.getThreads());
    int64_t warps = threads / 32, passes = bufferType.getCols() / 32;
    int64_t rowsPerWarp = bufferType.getRows() / warps;
    Value fragment = adaptor.getFragment();

    auto [t, warp, lane] = ib.thread(threads);
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(), bufferType,
                                adaptor.getSlot());
    Value chunkOfLane = LLVM::LShrOp::create(rewriter, loc, lane, ib.c32(3));
    Value laneBytes =
        ib.mul(LLVM::AndOp::create(rewriter, loc, lane, ib.c32(7)), ib.c32(2));
    for (int64_t q = 0; q < rowsPerWarp; ++q) {
      Value row = ib.add(warp, ib.c32(warps * q));
      Value rowPhase = LLVM::AndOp::create(rewriter, loc, row, ib.c32(7));
      Value rowBytes = ib.add(ib.mul(row, ib.c32(128)), laneBytes);
      for (int64_t p = 0; p < passes; ++p) {
        Value chunk = LLVM::XOrOp::create(
            rewriter, loc, ib.add(chunkOfLane, ib.c32(4 * p)), rowPhase);
        Value offset = ib.add(
            rowBytes, LLVM::ShlOp::create(rewriter, loc, chunk, ib.c32(4)));
        Value address =
            LLVM::GEPOp::create(rewriter, loc, slot.getType(),
                                rewriter.getI8Type(), slot, ValueRange{offset});
        Value value = LLVM::ExtractValueOp::create(rewriter, loc, fragment,
                                                   q * passes + p);
        LLVM::StoreOp::create(rewriter, loc, value, address, /*alignment=*/2);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemm.accum.store_direct: value v of atom a at row 64 a + 16 w + l / 4 +
/// 8 ((v / 2) mod 2), column 8 (v / 4) + 2 (l mod 4) + v mod 2. Row offsets
/// (per atom and row half) and column offsets (per 8-column group and
/// parity) are computed once; each value is one store under its bounds.
struct AccumStoreDirectLowering
    : public ConvertOpToLLVMPattern<AccumStoreDirectOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AccumStoreDirectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getStaging())
      return lowerStaged(op, adaptor, rewriter);
    IndexBuilder ib{rewriter, op.getLoc()};
    Location loc = op.getLoc();
    AccumulatorType accType = op.getAccumulator().getType();
    Type outType = op.getElementType();
    int64_t elementBytes = getElementBytes(outType);

    auto [t, warp, lane] = ib.thread(128);
    Value rowStride = adaptor.getRowStride();
    Value colStride = adaptor.getColStride();
    // Indices are below 2^31 plus a tile, so 32-bit unsigned compares are
    // exact; offsets are 64-bit.
    Value firstRow =
        ib.add(adaptor.getRow(),
               ib.add(ib.mul(warp, ib.c32(16)),
                      LLVM::UDivOp::create(rewriter, loc, lane, ib.c32(4))));
    Value firstCol =
        ib.add(adaptor.getCol(),
               ib.mul(LLVM::URemOp::create(rewriter, loc, lane, ib.c32(4)),
                      ib.c32(2)));
    Value rows = adaptor.getRows();
    Value cols = adaptor.getCols();
    Value rowOffset = ib.mul(ib.wide(firstRow), rowStride);
    Value colOffset = ib.mul(ib.wide(firstCol), colStride);
    // Column c of the thread's columns: 8 (c / 2) + c mod 2 past firstCol.
    int64_t columns = accType.getCols() / 4;
    SmallVector<Value> colOk, colOffsets;
    for (int64_t c = 0; c < columns; ++c) {
      int64_t delta = 8 * (c / 2) + c % 2;
      colOk.push_back(ib.below(ib.add(firstCol, ib.c32(delta)), cols));
      colOffsets.push_back(
          delta == 0 ? colOffset
                     : ib.add(colOffset, ib.mul(colStride, ib.c64(delta))));
    }
    Value base = adaptor.getBase();
    Value acc = adaptor.getAccumulator();
    for (int64_t atom = 0; atom < accType.getAtoms(); ++atom) {
      for (int64_t half = 0; half < 2; ++half) {
        int64_t delta = 64 * atom + 8 * half;
        Value rowOk = ib.below(ib.add(firstRow, ib.c32(delta)), rows);
        Value offset =
            delta == 0 ? rowOffset
                       : ib.add(rowOffset, ib.mul(rowStride, ib.c64(delta)));
        for (int64_t c = 0; c < columns; ++c) {
          // Value v: group v / 4 = c / 2, half (v / 2) mod 2, parity c mod 2.
          int64_t v = 4 * (c / 2) + 2 * half + c % 2;
          Value inside = ib.both(rowOk, colOk[c]);
          auto store = scf::IfOp::create(rewriter, loc, inside,
                                         /*withElseRegion=*/false);
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPoint(store.thenBlock()->getTerminator());
          Value value = LLVM::ExtractValueOp::create(
              rewriter, loc, acc, ArrayRef<int64_t>{atom, v});
          value =
              applyEpilogue(rewriter, loc, op.getEpilogue(), outType, value);
          Value address =
              LLVM::GEPOp::create(rewriter, loc, base.getType(), outType, base,
                                  ValueRange{ib.add(offset, colOffsets[c])});
          LLVM::StoreOp::create(rewriter, loc, value, address, elementBytes);
        }
      }
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// `staged`: the warp's 16 rows rounded into rows 16 w' (w' = tid / 32)
  /// of the buffer (value v at row l / 4 + 8 ((v / 2) mod 2), column 8 (v /
  /// 4) + 2 (l mod 4) + v mod 2), a warp barrier, then stores of C's rows
  /// row + 16 (w' mod 4) + r with the lanes along C's contiguous dimension:
  /// row r, columns 32 p + l of a row-major C; column 2 q + l / 16, rows l
  /// mod 16 of a column-major one.
  LogicalResult lowerStaged(AccumStoreDirectOp op, OpAdaptor adaptor,
                            ConversionPatternRewriter &rewriter) const {
    IndexBuilder ib{rewriter, op.getLoc()};
    Location loc = op.getLoc();
    AccumulatorType accType = op.getAccumulator().getType();
    auto bufferType = cast<SmemBufferType>(op.getStaging().getType());
    Type outType = op.getElementType();
    int64_t elementBytes = getElementBytes(outType);
    int64_t rowBytes = bufferType.getCols() * elementBytes;
    int64_t tileCols = accType.getCols();

    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, ib.i32());
    Value ctaWarp = LLVM::UDivOp::create(rewriter, loc, tid, ib.c32(32));
    Value lane = LLVM::URemOp::create(rewriter, loc, tid, ib.c32(32));
    Value warpRows =
        getSlotAddress(rewriter, loc, adaptor.getStaging(), bufferType,
                       ib.c32(0), ib.mul(ctaWarp, ib.c32(16)));
    auto smemAt = [&](Value byteOffset) {
      return LLVM::GEPOp::create(rewriter, loc, warpRows.getType(),
                                 rewriter.getI8Type(), warpRows,
                                 ValueRange{byteOffset});
    };
    // Phase 1: the accumulator, rounded (or through the epilogue region).
    Value laneRow = LLVM::UDivOp::create(rewriter, loc, lane, ib.c32(4));
    Value laneCol =
        ib.mul(LLVM::URemOp::create(rewriter, loc, lane, ib.c32(4)), ib.c32(2));
    Value laneBytes = ib.add(ib.mul(laneRow, ib.c32(rowBytes)),
                             ib.mul(laneCol, ib.c32(elementBytes)));
    Value acc = adaptor.getAccumulator();
    for (int64_t v = 0; v < accType.getValuesPerAtom(); ++v) {
      int64_t r = 8 * ((v / 2) % 2), c = 8 * (v / 4) + v % 2;
      Value value = LLVM::ExtractValueOp::create(rewriter, loc, acc,
                                                 ArrayRef<int64_t>{0, v});
      value = applyEpilogue(rewriter, loc, op.getEpilogue(), outType, value);
      LLVM::StoreOp::create(
          rewriter, loc, value,
          smemAt(ib.add(laneBytes, ib.c32(r * rowBytes + c * elementBytes))),
          elementBytes);
    }
    NVVM::SyncWarpOp::create(rewriter, loc, ib.c32(-1));
    // Phase 2: the warp's rows of C (16 w, w its warp in the warpgroup:
    // `row` is the warpgroup's first), lanes along the contiguous dimension.
    Value groupWarp = LLVM::URemOp::create(rewriter, loc, ctaWarp, ib.c32(4));
    Value firstRow = ib.add(adaptor.getRow(), ib.mul(groupWarp, ib.c32(16)));
    Value firstCol = adaptor.getCol();
    Value rowStride = adaptor.getRowStride(),
          colStride = adaptor.getColStride();
    Value rows = adaptor.getRows(), cols = adaptor.getCols();
    Value base = adaptor.getBase();
    // The elements (r, c) of the warp's 16 x tileCols block the lane
    // stores, and whether c is inside the tile (lanes past a tile narrower
    // than the warp read column 0 and store nothing).
    SmallVector<std::tuple<Value, Value, Value>> elements;
    if (op.getColumns()) {
      Value laneInColumn =
          LLVM::URemOp::create(rewriter, loc, lane, ib.c32(16));
      Value column = LLVM::UDivOp::create(rewriter, loc, lane, ib.c32(16));
      for (int64_t q = 0; q < tileCols / 2; ++q)
        elements.emplace_back(laneInColumn, ib.add(column, ib.c32(2 * q)),
                              Value());
    } else {
      for (int64_t r = 0; r < 16; ++r)
        for (int64_t p = 0; 32 * p < tileCols; ++p) {
          Value col = ib.add(lane, ib.c32(32 * p));
          if (32 * (p + 1) <= tileCols) {
            elements.emplace_back(ib.c32(r), col, Value());
            continue;
          }
          Value inTile = ib.below(col, ib.c32(tileCols));
          elements.emplace_back(
              ib.c32(r),
              LLVM::SelectOp::create(rewriter, loc, inTile, col, ib.c32(0)),
              inTile);
        }
    }
    // Every shared-memory read first (in the buffer whatever the bounds, so
    // unguarded: they issue back to back), then the guarded global stores.
    SmallVector<Value> values;
    for (auto [r, c, inTile] : elements)
      values.push_back(
          LLVM::LoadOp::create(rewriter, loc, outType,
                               smemAt(ib.add(ib.mul(r, ib.c32(rowBytes)),
                                             ib.mul(c, ib.c32(elementBytes)))),
                               elementBytes));
    for (auto [element, value] : llvm::zip(elements, values)) {
      auto [r, c, inTile] = element;
      Value row = ib.add(firstRow, r), col = ib.add(firstCol, c);
      Value inside = ib.both(ib.below(row, rows), ib.below(col, cols));
      if (inTile)
        inside = ib.both(inside, inTile);
      auto guarded = scf::IfOp::create(rewriter, loc, inside,
                                       /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(guarded.thenBlock()->getTerminator());
      Value offset = ib.add(ib.mul(ib.wide(row), rowStride),
                            ib.mul(ib.wide(col), colStride));
      Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(),
                                          outType, base, ValueRange{offset});
      LLVM::StoreOp::create(rewriter, loc, value, address, elementBytes);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::gemm::populateDirectTypeConversions(LLVMTypeConverter &converter) {
  // One i16 per element: NVPTX keeps each in a register of its own (a
  // vector of 16-bit values would be packed in pairs, and every load and
  // store would pay a byte permute).
  converter.addConversion([](FragmentType type) -> Type {
    return LLVM::LLVMArrayType::get(IntegerType::get(type.getContext(), 16),
                                    type.getSize());
  });
}

void mlir::gemm::populateDirectToNVVMPatterns(LLVMTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<DirectLoadLowering, DirectStoreSmemLowering,
               AccumStoreDirectLowering>(converter);
}
