//===- FinalizeKernelABI.cpp - by-value TMA descriptor parameters --------===//

#include "gemm/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMFINALIZEKERNELABI
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;

namespace {
/// Size and alignment of a CUtensorMap (cuda.h).
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlignment = 64;

struct GemmFinalizeKernelABIPass
    : public mlir::gemm::impl::GemmFinalizeKernelABIBase<
          GemmFinalizeKernelABIPass> {
  void runOnOperation() override {
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto args =
          func->getAttrOfType<DenseI64ArrayAttr>("gemm.grid_constant_args");
      if (!args)
        return;
      if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName())) {
        func.emitError("gemm.grid_constant_args on a function that is not a "
                       "kernel: run convert-gpu-to-nvvm first");
        return signalPassFailure();
      }
      OpBuilder b(func);
      auto byvalType = LLVM::LLVMArrayType::get(b.getI8Type(), kTensorMapBytes);
      for (int64_t index : args.asArrayRef()) {
        if (index < 0 || index >= func.getNumArguments() ||
            !isa<LLVM::LLVMPointerType>(func.getArgument(index).getType())) {
          func.emitError("gemm.grid_constant_args names argument ")
              << index << ", which is not a pointer argument";
          return signalPassFailure();
        }
        func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(byvalType));
        func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(kTensorMapAlignment));
        func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
      func->removeAttr("gemm.grid_constant_args");
    });
  }
};
} // namespace
