//===- Tcgen05MmaToNVVM.cpp - SM100 MMA ops to NVVM tcgen05 --------------===//
//
// gemm.mma.sm100 becomes one nvvm.tcgen05.mma per 32 bytes of K, with SM100
// shared-memory descriptors built by nvvm.tcgen05.mma_smem_desc and a
// constant instruction descriptor; gemm.mma.sm100.commit becomes
// nvvm.tcgen05.commit on a pipeline barrier.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::gemm;

static NVVM::CTAGroupKindAttr getCtaGroupKind(OpBuilder &b, int64_t group) {
  return NVVM::CTAGroupKindAttr::get(b.getContext(),
                                     group == 2 ? NVVM::CTAGroupKind::CTA_2
                                                : NVVM::CTAGroupKind::CTA_1);
}

/// The A/B type field of the instruction descriptor (PTX ISA, tcgen05
/// "Instruction descriptor" table): kind::f16 F16 = 0, BF16 = 1;
/// kind::f8f6f4 E4M3 = 0, E5M2 = 1.
static uint32_t getOperandFormat(Type type) {
  return isa<BFloat16Type, Float8E5M2Type>(type) ? 1 : 0;
}

/// The 32-bit instruction descriptor of a dense, K-major, f32-accumulating
/// tcgen05.mma (kind::f16 or kind::f8f6f4).
static uint32_t getInstrDescriptor(Type elementType, int64_t m, int64_t n) {
  uint32_t format = getOperandFormat(elementType);
  uint32_t desc = 0;
  desc |= 1u << 4;      // bits 4-5: D type F32.
  desc |= format << 7;  // bits 7-9: A type.
  desc |= format << 10; // bits 10-12: B type.
  // bits 13-14 (negate) and 15-16 (transpose: 0 = K-major) stay 0.
  desc |= static_cast<uint32_t>(n >> 3) << 17; // bits 17-22: N >> 3.
  desc |= static_cast<uint32_t>(m >> 4) << 24; // bits 24-28: M >> 4.
  return desc;
}

namespace {

struct MmaSm100Lowering : public ConvertOpToLLVMPattern<MmaSm100Op> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(MmaSm100Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmemBufferType aType = op.getA().getType(), bType = op.getB().getType();
    TmemType tmemType = op.getTmem().getType();
    Type elementType = aType.getElementType();
    Type i32 = rewriter.getI32Type();

    Value aSlot =
        getSlotAddress(rewriter, loc, adaptor.getA(), aType, adaptor.getSlot());
    Value bSlot =
        getSlotAddress(rewriter, loc, adaptor.getB(), bType, adaptor.getSlot());
    Value aStart = LLVM::PtrToIntOp::create(rewriter, loc, i32, aSlot);
    Value bStart = LLVM::PtrToIntOp::create(rewriter, loc, i32, bSlot);

    // D: column stage * N of the accumulator ring (lane 0).
    Value tmemBase =
        LLVM::PtrToIntOp::create(rewriter, loc, i32, adaptor.getTmem());
    Value column =
        LLVM::MulOp::create(rewriter, loc, adaptor.getStage(),
                            createI32(rewriter, loc, tmemType.getCols()));
    Value dAddress = LLVM::AddOp::create(rewriter, loc, tmemBase, column);
    Value d = LLVM::IntToPtrOp::create(rewriter, loc,
                                       adaptor.getTmem().getType(), dAddress);

    Value idesc = createI32(
        rewriter, loc, getInstrDescriptor(elementType, op.getM(), op.getN()));
    // SM100 descriptor of a 128B-swizzled K-major tile: SBO = 1024 bytes
    // between 8-row groups, LBO unused for swizzled K-major (1 by
    // convention), base offset 0 (slots are 1024-byte aligned), relative
    // LBO mode, swizzle mode 2 = 128B. Offsets are in 16-byte units; the
    // NVVM op adds the fixed 0b001 version bits 46-48.
    Value lbo = createI32(rewriter, loc, 1);
    Value sbo = createI32(rewriter, loc, 1024 >> 4);
    Value baseOffset = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI8Type(), rewriter.getI8IntegerAttr(0));
    Value lboMode = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(false));
    Value swizzle = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI8Type(), rewriter.getI8IntegerAttr(2));
    Value four = createI32(rewriter, loc, 4);
    auto descriptor = [&](Value start, int64_t offset) -> Value {
      // Inside the 128-byte swizzle atom a K step is a plain start-address
      // advance; the hardware applies the swizzle to the final address.
      Value address = LLVM::AddOp::create(rewriter, loc, start,
                                          createI32(rewriter, loc, offset));
      Value encoded = LLVM::LShrOp::create(rewriter, loc, address, four);
      return NVVM::Tcgen05MmaSmemDescOp::create(
          rewriter, loc, rewriter.getI64Type(), encoded, lbo, sbo, baseOffset,
          lboMode, swizzle);
    };

    auto kind = getElementBytes(elementType) == 1 ? NVVM::Tcgen05MMAKind::F8F6F4
                                                  : NVVM::Tcgen05MMAKind::F16;
    auto kindAttr = NVVM::Tcgen05MMAKindAttr::get(rewriter.getContext(), kind);
    auto groupAttr = getCtaGroupKind(rewriter, op.getCtaGroupAttr().getInt());
    Value accumulate = adaptor.getAccumulate();
    Value alwaysAccumulate = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    int64_t rowBytes = aType.getCols() * getElementBytes(elementType);
    for (int64_t offset = 0; offset < rowBytes; offset += 32) {
      // Separate statements fix the order of the generated ops.
      Value aDesc = descriptor(aStart, offset);
      Value bDesc = descriptor(bStart, offset);
      NVVM::Tcgen05MMAOp::create(
          rewriter, loc, kindAttr, groupAttr,
          NVVM::Tcgen05MMACollectorOpAttr::get(
              rewriter.getContext(), NVVM::Tcgen05MMACollectorOp::DISCARD),
          /*aShift=*/nullptr, d, aDesc, bDesc, idesc,
          offset == 0 ? accumulate : alwaysAccumulate,
          /*scaleInputD=*/Value(), /*disableOutputLane=*/Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct MmaSm100CommitLowering
    : public ConvertOpToLLVMPattern<MmaSm100CommitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(MmaSm100CommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = getBarrierAddress(
        rewriter, loc, adaptor.getPipeline(), op.getPipeline().getType(),
        adaptor.getIteration(), op.getBarrier() == PipelineBarrier::empty);
    NVVM::Tcgen05CommitOp::create(
        rewriter, loc, barrier, adaptor.getMulticastMask(),
        getCtaGroupKind(rewriter, op.getCtaGroupAttr().getInt()));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::gemm::populateTcgen05MmaToNVVMPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns.add<MmaSm100Lowering, MmaSm100CommitLowering>(converter);
}
