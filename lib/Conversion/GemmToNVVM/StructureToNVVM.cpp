//===- StructureToNVVM.cpp - warp roles and the shared-memory plan -------===//

#include "Patterns.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Moves the single block of `region` before `dest`'s terminator, dropping
/// its gemm.yield, with `args` substituted for its arguments.
void inlineRoleRegion(ConversionPatternRewriter &rewriter, Region &region,
                      Block *dest, ValueRange args) {
  Block &body = region.front();
  rewriter.eraseOp(body.getTerminator());
  rewriter.inlineBlockBefore(&body, dest->getTerminator(), args);
}

/// tid.x / `threads`, broadcast from lane 0: ptxas then knows the value (and
/// every branch and loop bound derived from it, such as a pingpong consumer's
/// tiles) is warp-uniform. Without it ptxas treats WGMMAs under such control
/// flow as divergent and serialises them (warning C7520).
Value getUniformThreadGroup(ConversionPatternRewriter &rewriter, Location loc,
                            int64_t threads) {
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  return NVVM::ShflOp::create(
      rewriter, loc, rewriter.getI32Type(), createI32(rewriter, loc, -1),
      LLVM::UDivOp::create(rewriter, loc, tid,
                           createI32(rewriter, loc, threads)),
      createI32(rewriter, loc, 0), createI32(rewriter, loc, 31),
      NVVM::ShflKindAttr::get(rewriter.getContext(), NVVM::ShflKind::idx),
      /*return_value_and_is_valid=*/nullptr);
}

Value isEqual(ConversionPatternRewriter &rewriter, Location loc, Value value,
              int64_t constant) {
  return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, value,
                              createI32(rewriter, loc, constant));
}

struct WarpSpecializeLowering
    : public ConvertOpToLLVMPattern<WarpSpecializeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WarpSpecializeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value warpgroup = getUniformThreadGroup(rewriter, loc, 128);
    Value isProducer = isEqual(rewriter, loc, warpgroup, 0);
    // setmaxnreg needs each warpgroup role to be one branch of one if/else.
    auto roles = scf::IfOp::create(rewriter, loc, isProducer,
                                   /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(roles.thenBlock()->getTerminator());
      NVVM::SetMaxRegisterOp::create(rewriter, loc, op.getProducerRegs(),
                                     NVVM::SetMaxRegisterAction::decrease);
    }
    inlineRoleRegion(rewriter, op.getProducer(), roles.thenBlock(), {});
    Value consumerIndex;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(roles.elseBlock()->getTerminator());
      NVVM::SetMaxRegisterOp::create(rewriter, loc, op.getConsumerRegs(),
                                     NVVM::SetMaxRegisterAction::increase);
      consumerIndex = LLVM::SubOp::create(rewriter, loc, warpgroup,
                                          createI32(rewriter, loc, 1));
    }
    inlineRoleRegion(rewriter, op.getConsumer(), roles.elseBlock(),
                     consumerIndex);
    rewriter.eraseOp(op);
    return success();
  }
};

struct WarpRolesLowering : public ConvertOpToLLVMPattern<WarpRolesOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WarpRolesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value warp = getUniformThreadGroup(rewriter, loc, 32);
    // if (warp == 0) load else if (warp == 1) mma else if (warp == 2)
    // scheduler else epilogue(warp - 3).
    Region *roles[] = {&op.getLoad(), &op.getMma(), &op.getScheduler()};
    for (auto [index, region] : llvm::enumerate(roles)) {
      auto branch =
          scf::IfOp::create(rewriter, loc, isEqual(rewriter, loc, warp, index),
                            /*withElseRegion=*/true);
      inlineRoleRegion(rewriter, *region, branch.thenBlock(), {});
      rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
    }
    Value epilogueWarp = LLVM::SubOp::create(
        rewriter, loc, warp,
        createI32(rewriter, loc, WarpRolesOp::kFirstEpilogueWarp));
    inlineRoleRegion(rewriter, op.getEpilogue(), rewriter.getInsertionBlock(),
                     epilogueWarp);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The symbol of the kernel's dynamic shared memory.
constexpr StringLiteral kDynamicSmemSymbol = "__gemm_dynamic_smem";

struct SmemPlanLowering : public ConvertOpToLLVMPattern<SmemPlanOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SmemPlanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "not inside a gpu.module");
    auto smemType =
        LLVM::LLVMPointerType::get(rewriter.getContext(), kSharedSpace);
    if (!module.lookupSymbol(kDynamicSmemSymbol)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      // 1024-byte alignment: the 128-byte swizzle pattern of TMA and WGMMA
      // repeats every 1024 bytes and is computed from address bits.
      LLVM::GlobalOp::create(
          rewriter, loc, LLVM::LLVMArrayType::get(rewriter.getI8Type(), 0),
          /*isConstant=*/false, LLVM::Linkage::External, kDynamicSmemSymbol,
          /*value=*/Attribute(), /*alignment=*/1024, kSharedSpace);
    }
    Value base =
        LLVM::AddressOfOp::create(rewriter, loc, smemType, kDynamicSmemSymbol);
    SmallVector<Value> results;
    for (int64_t offset : op.getOffsets())
      results.push_back(LLVM::GEPOp::create(
          rewriter, loc, smemType, rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)}));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::gemm::populateStructureToNVVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<WarpSpecializeLowering, WarpRolesLowering, SmemPlanLowering>(
      converter);
}
