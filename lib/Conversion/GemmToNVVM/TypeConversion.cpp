//===- TypeConversion.cpp - gemm types to LLVM types ---------------------===//

#include "Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::gemm;

void mlir::gemm::populateGemmTypeConversions(LLVMTypeConverter &converter) {
  MLIRContext *ctx = &converter.getContext();
  // The kernel reaches a by-value CUtensorMap parameter through its generic
  // address (cvta.param), which TMA instructions accept.
  converter.addConversion(
      [ctx](TmaDescriptorType) { return LLVM::LLVMPointerType::get(ctx); });
  converter.addConversion([ctx](SmemBufferType) {
    return LLVM::LLVMPointerType::get(ctx, kSharedSpace);
  });
  converter.addConversion([ctx](PipelineType) {
    return LLVM::LLVMPointerType::get(ctx, kSharedSpace);
  });
  converter.addConversion([ctx](AccumulatorType type) -> Type {
    // f32 registers, or i32 for the s32 accumulators of 8-bit integer MMA.
    SmallVector<Type> atomFields(type.getValuesPerAtom(),
                                 type.getElementType());
    Type atom = LLVM::LLVMStructType::getLiteral(ctx, atomFields);
    SmallVector<Type> atoms(type.getAtoms(), atom);
    return LLVM::LLVMStructType::getLiteral(ctx, atoms);
  });
  populateTmemTypeConversions(converter);
  populateDirectTypeConversions(converter);
}
