//===- SchedulerToNVVM.cpp - tile schedulers -----------------------------===//

#include "Patterns.h"
#include "gemm/Runtime/GroupProblems.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

struct StaticTileLowering : public ConvertOpToLLVMPattern<StaticTileOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(StaticTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Walk `raster` fastest inside panels `swizzle` tiles long along it;
    // the last panel may be shorter. A panel is at most the walked tiles
    // long (the same walk), which keeps swizzle x crossed within the grid's
    // tile count and so within 32 bits.
    bool alongM = op.getRaster() == Raster::along_m;
    Value walked = alongM ? adaptor.getTilesM() : adaptor.getTilesN();
    Value crossed = alongM ? adaptor.getTilesN() : adaptor.getTilesM();
    Value swizzle = LLVM::UMinOp::create(
        rewriter, loc, createI32(rewriter, loc, op.getSwizzle()), walked);
    Value tile = adaptor.getTile();
    Value perPanel = LLVM::MulOp::create(rewriter, loc, swizzle, crossed);
    Value panel = LLVM::UDivOp::create(rewriter, loc, tile, perPanel);
    Value inPanel = LLVM::URemOp::create(rewriter, loc, tile, perPanel);
    Value panelStart = LLVM::MulOp::create(rewriter, loc, panel, swizzle);
    Value remaining = LLVM::SubOp::create(rewriter, loc, walked, panelStart);
    Value panelLength = LLVM::UMinOp::create(rewriter, loc, swizzle, remaining);
    Value along = LLVM::AddOp::create(
        rewriter, loc, panelStart,
        LLVM::URemOp::create(rewriter, loc, inPanel, panelLength));
    Value across = LLVM::UDivOp::create(rewriter, loc, inPanel, panelLength);
    if (alongM)
      rewriter.replaceOp(op, {along, across});
    else
      rewriter.replaceOp(op, {across, along});
    return success();
  }
};

/// Unsigned 32- and 64-bit arithmetic for the k-range lowerings, whose
/// products (split x k-blocks, units x k-blocks) can exceed 32 bits.
struct Arithmetic {
  OpBuilder &b;
  Location loc;

  Value i32(int64_t v) { return createI32(b, loc, v); }
  Value i64(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                    b.getI64IntegerAttr(v));
  }
  Value wide(Value v) {
    return LLVM::ZExtOp::create(b, loc, b.getI64Type(), v);
  }
  Value narrow(Value v) {
    return LLVM::TruncOp::create(b, loc, b.getI32Type(), v);
  }
  Value add(Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return LLVM::SubOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return LLVM::MulOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return LLVM::UDivOp::create(b, loc, x, y); }
  Value rem(Value x, Value y) { return LLVM::URemOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return LLVM::UMinOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return LLVM::UMaxOp::create(b, loc, x, y); }
  Value cmp(LLVM::ICmpPredicate predicate, Value x, Value y) {
    return LLVM::ICmpOp::create(b, loc, predicate, x, y);
  }
  Value select(Value condition, Value x, Value y) {
    return LLVM::SelectOp::create(b, loc, condition, x, y);
  }
};

struct SplitKRangeLowering : public ConvertOpToLLVMPattern<SplitKRangeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SplitKRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Arithmetic a{rewriter, op.getLoc()};
    // split * kBlocks / splits, in 64 bits so the product cannot overflow.
    Value kBlocks = a.wide(adaptor.getKBlocks());
    Value splits = a.wide(a.i32(op.getSplits()));
    auto boundary = [&](Value split) {
      return a.narrow(a.div(a.mul(a.wide(split), kBlocks), splits));
    };
    Value begin = boundary(adaptor.getSplit());
    Value end = boundary(a.add(adaptor.getSplit(), a.i32(1)));
    rewriter.replaceOp(op, {begin, end});
    return success();
  }
};

struct SplitKArriveLowering : public ConvertOpToLLVMPattern<SplitKArriveOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SplitKArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value counter = LLVM::GEPOp::create(
        rewriter, loc, adaptor.getCounters().getType(), i32,
        adaptor.getCounters(), ValueRange{adaptor.getIndex()});
    // The arrival releases this split's partial tile and, for the last,
    // acquires the others': one acq_rel atomic. NVPTX (LLVM 22) emits an
    // atomicrmw without its ordering, hence the PTX itself. A relaxed atomic
    // between two fence.acq_rel.gpu means the same but costs a second
    // MEMBAR.ALL.GPU after the atomic (ptxas makes the acquire half of the
    // acq_rel atomic an L1 invalidation alone).
    Value earlier =
        NVVM::InlinePtxOp::create(
            rewriter, loc, TypeRange{i32}, ValueRange{counter}, ValueRange{},
            "atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;", Value())
            .getResult(0);
    Value last = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, earlier,
        LLVM::SubOp::create(rewriter, loc, adaptor.getArrivals(),
                            createI32(rewriter, loc, 1)));
    // Every partial of this launch has arrived: zero the counter for the next.
    auto reset = scf::IfOp::create(rewriter, loc, last,
                                   /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(reset.thenBlock()->getTerminator());
      LLVM::StoreOp::create(rewriter, loc, createI32(rewriter, loc, 0), counter,
                            /*alignment=*/4);
    }
    rewriter.replaceOp(op, last);
    return success();
  }
};

// The stream-K lowerings build one value per statement, so that the order
// of the emitted ops does not depend on the C++ compiler's evaluation order
// of call arguments.

struct StreamKPlanLowering : public ConvertOpToLLVMPattern<StreamKPlanOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(StreamKPlanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Arithmetic a{rewriter, op.getLoc()};
    using P = LLVM::ICmpPredicate;
    // gemm::bundle::streamKPlan (gemm/Bundle/StreamK.h), which the
    // simulator runs: the last partial wave is shared when each of its units
    // can go to at least two workers.
    Value units = adaptor.getUnits(), ctas = adaptor.getCtas();
    Value zero = a.i32(0), one = a.i32(1), two = a.i32(2);
    Value rest = a.rem(units, ctas);
    Value maxWorkers = a.i32(static_cast<int64_t>(op.getMaxWorkersPerUnit()));
    Value perUnit = a.min(a.min(maxWorkers, adaptor.getKBlocks()),
                          a.div(ctas, a.max(rest, one)));
    // With rest = 0 nothing is shared either way.
    Value shared = a.select(a.cmp(P::uge, perUnit, two), rest, zero);
    Value workers = a.mul(shared, perUnit);
    rewriter.replaceOp(op, {a.sub(units, shared), workers});
    return success();
  }
};

struct StreamKShareLowering : public ConvertOpToLLVMPattern<StreamKShareOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(StreamKShareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Arithmetic a{rewriter, op.getLoc()};
    Value one = a.i64(1);
    Value kBlocks = a.wide(adaptor.getKBlocks());
    Value units = a.wide(adaptor.getUnits());
    Value total = a.mul(units, kBlocks);
    // Worker w >= workers gets no segments; the divisor stays non-zero for
    // it (workers = 0 when nothing is shared).
    Value workers = a.max(a.wide(adaptor.getWorkers()), one);
    Value worker = a.wide(adaptor.getWorker());
    Value begin = a.div(a.mul(worker, total), workers);
    Value nextWorker = a.add(worker, one);
    Value end = a.div(a.mul(nextWorker, total), workers);
    Value firstUnit = a.div(begin, kBlocks);
    Value lastBlock = a.sub(end, one);
    Value lastUnit = a.div(lastBlock, kBlocks);
    Value beginInUnit = a.sub(begin, a.mul(firstUnit, kBlocks));
    Value endInUnit = a.sub(end, a.mul(lastUnit, kBlocks));
    Value segments = a.add(a.sub(lastUnit, firstUnit), one);
    Value active = a.cmp(LLVM::ICmpPredicate::ult, adaptor.getWorker(),
                         adaptor.getWorkers());
    Value firstUnit32 = a.narrow(firstUnit);
    Value begin32 = a.narrow(beginInUnit);
    Value none = a.i32(0);
    Value segments32 = a.select(active, a.narrow(segments), none);
    Value end32 = a.narrow(endInUnit);
    rewriter.replaceOp(op, {firstUnit32, begin32, segments32, end32});
    return success();
  }
};

struct StreamKWorkersLowering
    : public ConvertOpToLLVMPattern<StreamKWorkersOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(StreamKWorkersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Arithmetic a{rewriter, op.getLoc()};
    Value one = a.i64(1);
    Value kBlocks = a.wide(adaptor.getKBlocks());
    Value units = a.wide(adaptor.getUnits());
    Value total = a.max(a.mul(units, kBlocks), one);
    Value workers = a.wide(adaptor.getWorkers());
    // The worker whose range holds k-block x: the largest w with
    // w * total / workers <= x, i.e. ((x + 1) * workers - 1) / total.
    auto owner = [&](Value block) {
      Value scaled = a.mul(a.add(block, one), workers);
      return a.narrow(a.div(a.sub(scaled, one), total));
    };
    Value firstBlock = a.mul(a.wide(adaptor.getUnit()), kBlocks);
    Value lastBlock = a.sub(a.add(firstBlock, kBlocks), one);
    Value first = owner(firstBlock);
    Value last = owner(lastBlock);
    rewriter.replaceOp(op, {first, last});
    return success();
  }
};

/// The group table of a grouped kernel: a 16-byte header whose first word
/// is the number of row units, then 16 bytes per row unit {row_begin,
/// row_end, group, 0} (written by the runtime's prep kernel).
struct GroupUnitCountLowering
    : public ConvertOpToLLVMPattern<GroupUnitCountOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(GroupUnitCountOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, rewriter.getI32Type(),
                                              adaptor.getTable(),
                                              /*alignment=*/16);
    return success();
  }
};

/// The first `count` 32-bit fields of entry `index` of a group table: both
/// tables (the grouped one, gemm/Runtime/GroupTable.h, and the general one,
/// gemm/Runtime/GroupProblems.h) have 16-byte entries after a 16-byte
/// header, so entry i is one 16-byte vector load at table + 16 + 16 i
/// (64-bit arithmetic).
SmallVector<Value> loadTableEntry(ConversionPatternRewriter &rewriter,
                                  Location loc, Value table, Value index,
                                  int64_t count) {
  Arithmetic a{rewriter, loc};
  Value offset =
      a.add(a.mul(a.wide(index), a.i64(::gemm::runtime::general::EntryBytes)),
            a.i64(::gemm::runtime::general::HeaderBytes));
  Value address =
      LLVM::GEPOp::create(rewriter, loc, table.getType(), rewriter.getI8Type(),
                          table, ValueRange{offset});
  auto vectorType = VectorType::get({4}, rewriter.getI32Type());
  Value entry = LLVM::LoadOp::create(rewriter, loc, vectorType, address,
                                     /*alignment=*/16);
  SmallVector<Value> fields;
  for (int64_t i = 0; i < count; ++i)
    fields.push_back(
        LLVM::ExtractElementOp::create(rewriter, loc, entry, a.i32(i)));
  return fields;
}

struct GroupUnitLowering : public ConvertOpToLLVMPattern<GroupUnitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(GroupUnitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> fields = loadTableEntry(
        rewriter, op.getLoc(), adaptor.getTable(), adaptor.getUnit(), 3);
    rewriter.replaceOp(op, fields);
    return success();
  }
};

/// Entry g of a general group table: {first unit, M, N, K}, 16 bytes after
/// the 16-byte header (gemm/Runtime/GroupProblems.h).
struct GroupProblemLowering : public ConvertOpToLLVMPattern<GroupProblemOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(GroupProblemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> fields = loadTableEntry(
        rewriter, op.getLoc(), adaptor.getTable(), adaptor.getGroup(), 4);
    rewriter.replaceOp(op, fields);
    return success();
  }
};

} // namespace

void mlir::gemm::populateSchedulerToNVVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns
      .add<StaticTileLowering, GroupUnitCountLowering, GroupUnitLowering,
           GroupProblemLowering, SplitKRangeLowering, SplitKArriveLowering,
           StreamKPlanLowering, StreamKShareLowering, StreamKWorkersLowering>(
          converter);
}
