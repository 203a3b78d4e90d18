//===- Pipelines.cpp - registered gemm pass pipelines --------------------===//

#include "gemm/Pipelines/Pipelines.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::gemm::buildGemmToNVVMPipeline(OpPassManager &pm,
                                         const GemmToNVVMOptions &options) {
  // The passes below compile the gpu.modules at the top level only: refuse
  // kernels elsewhere rather than leave them uncompiled.
  pm.addPass(createGemmCheckPlacement());
  GemmMaterializeSM90Options sm90;
  sm90.wgmmaLookahead = options.wgmmaLookahead;
  sm90.storeSlots = options.storeSlots;
  pm.addPass(createGemmMaterializeSM90(sm90));
  pm.addPass(createGemmMaterializeSM100());
  if (options.checks)
    pm.addPass(createGemmCheckPipelines());
  if (options.checks && options.protocolCheck) {
    GemmCheckProtocolOptions protocol;
    protocol.maxSteps = options.protocolMaxSteps;
    pm.addPass(createGemmCheckProtocol(protocol));
  }
  pm.addPass(createCanonicalizerPass());
  ConvertGemmToNVVMOptions conversion;
  conversion.debugWaitsMs = options.debugWaits;
  pm.addPass(createConvertGemmToNVVM(conversion));
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addPass(createGemmFinalizeKernelABI());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCSEPass());
}

void mlir::gemm::buildGemmToPTXPipeline(OpPassManager &pm,
                                        const GemmToPTXOptions &options) {
  GemmToNVVMOptions nvvm;
  nvvm.wgmmaLookahead = options.wgmmaLookahead;
  nvvm.storeSlots = options.storeSlots;
  nvvm.debugWaits = options.debugWaits;
  nvvm.checks = options.checks;
  nvvm.protocolCheck = options.protocolCheck;
  nvvm.protocolMaxSteps = options.protocolMaxSteps;
  buildGemmToNVVMPipeline(pm, nvvm);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  if (!options.outputDir.empty()) {
    GemmExportBundleOptions exportOptions;
    exportOptions.outputDir = options.outputDir;
    exportOptions.ptxas = options.ptxas;
    pm.addPass(createGemmExportBundle(exportOptions));
  }
}

void mlir::gemm::registerGemmPipelines() {
  PassPipelineRegistration<GemmToNVVMOptions>(
      "gemm-to-nvvm",
      "lower gemm.matmul ops to kernels in the NVVM/LLVM dialects",
      buildGemmToNVVMPipeline);
  PassPipelineRegistration<GemmToPTXOptions>(
      "gemm-to-ptx",
      "lower gemm.matmul ops to PTX (gpu.binary) and write kernel bundles",
      buildGemmToPTXPipeline);
}
