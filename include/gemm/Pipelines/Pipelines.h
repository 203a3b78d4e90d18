#ifndef GEMM_PIPELINES_PIPELINES_H
#define GEMM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::gemm {

struct GemmToPTXOptions : public PassPipelineOptions<GemmToPTXOptions> {
  PassOptions::Option<std::string> outputDir{
      *this, "output-dir",
      llvm::cl::desc("write each kernel's bundle (NAME.ptx, NAME.cubin, "
                     "NAME.json) to this directory; empty: write nothing")};
  PassOptions::Option<std::string> ptxas{
      *this, "ptxas",
      llvm::cl::desc("ptxas for the cubin (default: PATH, then "
                     "/usr/local/cuda/bin); 'none' skips the cubin")};
};

/// gemm.matmul -> kernel IR -> NVVM/LLVM inside gpu.modules.
void buildGemmToNVVMPipeline(OpPassManager &pm);
/// buildGemmToNVVMPipeline, then PTX (gpu.binary) and optionally bundles.
void buildGemmToPTXPipeline(OpPassManager &pm, const GemmToPTXOptions &options);

void registerGemmPipelines();

} // namespace mlir::gemm

#endif // GEMM_PIPELINES_PIPELINES_H
