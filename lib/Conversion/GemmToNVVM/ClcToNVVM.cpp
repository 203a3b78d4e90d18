//===- ClcToNVVM.cpp - cluster launch control ops to NVVM ----------------===//
//
// gemm.sched.clc_try_cancel becomes nvvm.clusterlaunchcontrol.try.cancel
// completing on a pipeline's full barrier; gemm.sched.clc_query loads the
// 16-byte response and decodes it with nvvm.clusterlaunchcontrol.query.cancel.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

struct ClcTryCancelLowering : public ConvertOpToLLVMPattern<ClcTryCancelOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ClcTryCancelOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value response =
        getSlotAddress(rewriter, loc, adaptor.getResponse(),
                       op.getResponse().getType(), adaptor.getSlot());
    Value barrier = getBarrierAddress(rewriter, loc, adaptor.getPipeline(),
                                      op.getPipeline().getType(),
                                      adaptor.getIteration(), /*empty=*/false);
    NVVM::ClusterLaunchControlTryCancelOp::create(
        rewriter, loc, op.getMulticastAttr(), response, barrier);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClcQueryLowering : public ConvertOpToLLVMPattern<ClcQueryOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ClcQueryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address =
        getSlotAddress(rewriter, loc, adaptor.getResponse(),
                       op.getResponse().getType(), adaptor.getSlot());
    // The response is an opaque 128-bit value; query_cancel takes it whole.
    Value response = LLVM::LoadOp::create(rewriter, loc,
                                          rewriter.getIntegerType(128), address,
                                          /*alignment=*/16);
    auto query = [&](NVVM::ClusterLaunchControlQueryType type,
                     Type resultType) -> Value {
      return NVVM::ClusterLaunchControlQueryCancelOp::create(
          rewriter, loc, resultType,
          NVVM::ClusterLaunchControlQueryTypeAttr::get(rewriter.getContext(),
                                                       type),
          response);
    };
    using QueryType = NVVM::ClusterLaunchControlQueryType;
    Type i32 = rewriter.getI32Type();
    Value valid = query(QueryType::IS_CANCELED, rewriter.getI1Type());
    Value x = query(QueryType::GET_FIRST_CTA_ID_X, i32);
    Value y = query(QueryType::GET_FIRST_CTA_ID_Y, i32);
    Value z = query(QueryType::GET_FIRST_CTA_ID_Z, i32);
    rewriter.replaceOp(op, ValueRange{valid, x, y, z});
    return success();
  }
};

} // namespace

void mlir::gemm::populateClcToNVVMPatterns(LLVMTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ClcTryCancelLowering, ClcQueryLowering>(converter);
}
