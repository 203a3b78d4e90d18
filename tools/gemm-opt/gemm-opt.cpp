//===- gemm-opt.cpp - the gemm compiler driver ---------------------------===//
//
// mlir-opt with the gemm dialect, its passes and pipelines, and the upstream
// dialects and passes those pipelines use.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"
#include "gemm/Pipelines/Pipelines.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::gemm::test {
/// The test-only passes of test/lib (gemm-test-plant-bug).
void registerTestPasses();
} // namespace mlir::gemm::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gemm::test::registerTestPasses();
  mlir::gemm::registerGemmTransformsPasses();
  mlir::gemm::registerGemmConversionPasses();
  mlir::gemm::registerGemmPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::gemm::GemmDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "gemm compiler driver\n", registry));
}
