//===- EpilogueToNVVM.cpp - accumulator fragments to staging shared memory ===//

#include "Patterns.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Writes one 64-row, 128-byte-wide column block of an accumulator atom.
///
/// WGMMA leaves accumulator value `r` of thread (warp w, lane l) at row
/// 16 w + l / 4 + 8 ((r / 2) mod 2) and column 8 (r / 4) + 2 (l mod 4) +
/// (r mod 2) of the 64-row atom (PTX ISA, "Matrix fragments for
/// wgmma.mma_async .m64nNk16", D matrix). Values r and r + 1 are adjacent
/// columns and are stored together. The staging slot uses the 128-byte
/// swizzle that the TMA store expects: the 16-byte chunk c of row y lives
/// at chunk c ^ (y mod 8), which also spreads the 8 rows a warp writes at
/// once over all 32 banks.
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

    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value threadInGroup =
        LLVM::URemOp::create(rewriter, loc, tid, createI32(rewriter, loc, 128));
    Value warp = LLVM::UDivOp::create(rewriter, loc, threadInGroup,
                                      createI32(rewriter, loc, 32));
    Value lane = LLVM::URemOp::create(rewriter, loc, threadInGroup,
                                      createI32(rewriter, loc, 32));
    Value quadRow =
        LLVM::UDivOp::create(rewriter, loc, lane, createI32(rewriter, loc, 4));
    Value rowBase = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::MulOp::create(rewriter, loc, warp, createI32(rewriter, loc, 16)),
        quadRow);
    Value laneBytes = LLVM::MulOp::create(
        rewriter, loc,
        LLVM::URemOp::create(rewriter, loc, lane, createI32(rewriter, loc, 4)),
        createI32(rewriter, loc, 2 * elementBytes));
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(), bufferType,
                                adaptor.getSlot());

    auto pairType = VectorType::get({2}, outType);
    Value atomAcc = LLVM::ExtractValueOp::create(
        rewriter, loc, adaptor.getAccumulator(), op.getAtom());
    for (int64_t group = 0; group < width / 8; ++group) {
      int64_t column = op.getCol() + 8 * group;
      Value byteInRow = LLVM::AddOp::create(
          rewriter, loc, createI32(rewriter, loc, 8 * group * elementBytes),
          laneBytes);
      Value chunk = LLVM::LShrOp::create(rewriter, loc, byteInRow,
                                         createI32(rewriter, loc, 4));
      Value inChunk = LLVM::AndOp::create(rewriter, loc, byteInRow,
                                          createI32(rewriter, loc, 15));
      // Rows y and y + 8 share y mod 8 = lane / 4.
      Value swizzled = LLVM::ShlOp::create(
          rewriter, loc, LLVM::XOrOp::create(rewriter, loc, chunk, quadRow),
          createI32(rewriter, loc, 4));
      for (int64_t half = 0; half < 2; ++half) {
        int64_t value = (column / 8) * 4 + half * 2;
        Value pair = LLVM::UndefOp::create(rewriter, loc, pairType);
        for (int64_t i = 0; i < 2; ++i) {
          Value acc =
              LLVM::ExtractValueOp::create(rewriter, loc, atomAcc, value + i);
          pair = LLVM::InsertElementOp::create(
              rewriter, loc, pair, applyEpilogue(rewriter, loc, op, acc),
              createI32(rewriter, loc, i));
        }
        Value row = LLVM::AddOp::create(rewriter, loc, rowBase,
                                        createI32(rewriter, loc, 8 * half));
        Value offset = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::AddOp::create(
                rewriter, loc,
                LLVM::MulOp::create(rewriter, loc, row,
                                    createI32(rewriter, loc, 128)),
                swizzled),
            inChunk);
        Value address =
            LLVM::GEPOp::create(rewriter, loc, slot.getType(),
                                rewriter.getI8Type(), slot, ValueRange{offset});
        LLVM::StoreOp::create(rewriter, loc, pair, address,
                              /*alignment=*/2 * elementBytes);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// The user's epilogue region applied to one value, or a rounding
  /// conversion to the output type.
  static Value applyEpilogue(ConversionPatternRewriter &rewriter, Location loc,
                             AccumStoreSmemOp op, Value acc) {
    Type outType = op.getBuffer().getType().getElementType();
    if (op.getEpilogue().empty()) {
      if (outType.isF32())
        return acc;
      return LLVM::FPTruncOp::create(rewriter, loc, outType, acc);
    }
    Block &body = op.getEpilogue().front();
    IRMapping mapping;
    mapping.map(body.getArgument(0), acc);
    for (Operation &nested : body.without_terminator())
      rewriter.clone(nested, mapping);
    return mapping.lookup(cast<YieldOp>(body.getTerminator()).getValues()[0]);
  }
};

} // namespace

void mlir::gemm::populateEpilogueToNVVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<AccumStoreSmemLowering>(converter);
}
